//! `checkers bench`: solve many puzzles and report figures.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use checkers::tools::bench::{self, BenchRow, Skipped};

use super::output;
use super::solve::{solve_options, EngineArgs};

/// Arguments of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files, or folders of puzzles.
    ///
    /// A folder's puzzles are its `*.txt` files that hold a puzzle board, except those named as
    /// solutions or logs (`*.expected*`, `*.reflog*`, `*.solution*`, `*.out.txt`); its other
    /// files are listed as skipped, with the reason. Folders are not searched recursively.
    #[arg(value_name = "PATH", default_value = "puzzles")]
    pub paths: Vec<PathBuf>,

    /// Puzzles solved at once (default: all cores). Each is timed on its own.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,

    /// Print JSON instead of a table.
    ///
    /// The form is `{"puzzles": [rows], "skipped": [{"path", "reason"}]}`; a row's band is the
    /// table's text.
    #[arg(long)]
    pub json: bool,

    /// Bench this many seeded random boards instead of puzzle files (one to eight pieces a
    /// side, kings and men mixed, red to move), written first to `--boards-dir`.
    #[arg(long, value_name = "N", conflicts_with = "paths",
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub random: Option<u32>,

    /// Seed of the random boards: the same seed gives the same boards.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "random")]
    pub seed: u64,

    /// Folder the random boards are written to (created if missing; default: a folder
    /// `checkers-random-S` in the system's temporary folder).
    #[arg(long = "boards-dir", value_name = "DIR", requires = "random")]
    pub boards_dir: Option<PathBuf>,

    /// Only write the random boards (for other tools, e.g. scripts/bench-random.sh), and
    /// solve nothing.
    #[arg(long = "boards-only", requires = "random")]
    pub boards_only: bool,

    #[command(flatten)]
    pub engine: EngineArgs,
}

/// The JSON report.
#[derive(Serialize)]
struct Report<'a> {
    puzzles: &'a [BenchRow],
    skipped: &'a [Skipped],
}

/// The random boards asked for, written to their folder: their paths.
fn random_puzzles(args: &BenchArgs, count: u32) -> Result<Vec<PathBuf>> {
    let dir = args
        .boards_dir
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("checkers-random-{}", args.seed)));
    std::fs::create_dir_all(&dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    let paths = checkers::tools::random_boards::write_boards(&dir, count as usize, args.seed)?;
    output::eprintln(&format!(
        "checkers: {count} random boards of seed {} in {}",
        args.seed,
        dir.display()
    ))?;
    Ok(paths)
}

/// Runs the benchmark.
pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    use std::io::IsTerminal;

    let selection = match args.random {
        Some(count) => {
            let puzzles = random_puzzles(args, count)?;
            if args.boards_only {
                return Ok(ExitCode::SUCCESS);
            }
            bench::Selection {
                puzzles,
                skipped: Vec::new(),
            }
        }
        None => bench::collect_puzzles(&args.paths)?,
    };
    if selection.puzzles.is_empty() {
        let mut message = format!(
            "no puzzle to benchmark in {}",
            args.paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        for s in &selection.skipped {
            message.push_str(&format!("\n  skipped {}: {}", s.path.display(), s.reason));
        }
        if selection.skipped.is_empty() {
            message.push_str(": no files");
        }
        return Err(output::BadInput(message).into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.map_or(0, |j| j as usize))
        .build()?;
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(selection.puzzles.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let options = solve_options(&args.engine)?;
    let results =
        pool.install(|| bench::bench_all(&selection.puzzles, &options, &|| progress.inc(1)));
    progress.finish_and_clear();
    // A puzzle that cannot be read after all (removed meanwhile, or named on the command line but
    // not a puzzle) is reported and skipped, so the other puzzles' figures are not lost; the exit
    // code still says that one was bad.
    let mut rows = Vec::with_capacity(results.len());
    let mut skipped = selection.skipped;
    let mut unreadable = 0;
    for (path, result) in selection.puzzles.iter().zip(results) {
        match result {
            Ok(row) => rows.push(row),
            Err(e) => {
                skipped.push(Skipped {
                    path: path.clone(),
                    reason: e.to_string(),
                });
                unreadable += 1;
            }
        }
    }
    for line in skipped_lines(&skipped) {
        output::eprintln(&line)?;
    }
    if args.json {
        let report = Report {
            puzzles: &rows,
            skipped: &skipped,
        };
        output::println(&serde_json::to_string_pretty(&report)?)?;
    } else {
        output::print(&bench::format_table(&rows))?;
    }
    Ok(if unreadable == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// One line per reason for skipping, naming the files skipped for it: `checkers: skipped a, b:
/// reason`.
fn skipped_lines(skipped: &[Skipped]) -> Vec<String> {
    let mut reasons: Vec<(&str, Vec<String>)> = Vec::new();
    for s in skipped {
        let name = s.path.display().to_string();
        match reasons.iter_mut().find(|(r, _)| *r == s.reason) {
            Some((_, names)) => names.push(name),
            None => reasons.push((&s.reason, vec![name])),
        }
    }
    reasons
        .into_iter()
        .map(|(reason, names)| format!("checkers: skipped {}: {reason}", names.join(", ")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipped_files_are_grouped_by_reason() {
        let skip = |path: &str, reason: &str| Skipped {
            path: PathBuf::from(path),
            reason: reason.to_string(),
        };
        let lines = skipped_lines(&[
            skip("a.expected.txt", "named as a solution"),
            skip("README", "not a *.txt file"),
            skip("b.expected.txt", "named as a solution"),
        ]);
        assert_eq!(
            lines,
            [
                "checkers: skipped a.expected.txt, b.expected.txt: named as a solution",
                "checkers: skipped README: not a *.txt file"
            ]
        );
    }
}
