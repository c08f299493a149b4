//! `checkers bench`: solve many puzzles and report figures.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::solve::{solve_options, EngineArgs};

/// Arguments of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files or folders of `*.txt` puzzles.
    #[arg(value_name = "PATH", default_value = "puzzles")]
    pub paths: Vec<PathBuf>,

    /// Puzzles solved at once (default: all cores). Each is timed on its own.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,

    /// Print the rows as JSON instead of a table.
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

/// The random boards asked for, written to their folder: their paths.
fn random_puzzles(args: &BenchArgs, count: u32) -> Result<Vec<PathBuf>> {
    let dir = args
        .boards_dir
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("checkers-random-{}", args.seed)));
    std::fs::create_dir_all(&dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    let paths = checkers::tools::random_boards::write_boards(&dir, count as usize, args.seed)?;
    eprintln!(
        "checkers: {count} random boards of seed {} in {}",
        args.seed,
        dir.display()
    );
    Ok(paths)
}

/// Runs the benchmark.
pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    use std::io::IsTerminal;

    let puzzles = match args.random {
        Some(count) => {
            let boards = random_puzzles(args, count)?;
            if args.boards_only {
                return Ok(ExitCode::SUCCESS);
            }
            boards
        }
        None => checkers::tools::bench::collect_puzzles(&args.paths)?,
    };
    if puzzles.is_empty() {
        anyhow::bail!("no puzzle files (*.txt) found in the given paths");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.map_or(0, |j| j as usize))
        .build()?;
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(puzzles.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let options = solve_options(&args.engine);
    let results =
        pool.install(|| checkers::tools::bench::bench_all(&puzzles, &options, &|| progress.inc(1)));
    progress.finish_and_clear();
    // An unreadable file (a solution lying beside the puzzles, say) is reported and skipped, so
    // the other puzzles' figures are not lost; the exit code still says that one was bad.
    let mut rows = Vec::with_capacity(results.len());
    let mut unreadable = 0;
    for result in results {
        match result {
            Ok(row) => rows.push(row),
            Err(e) => {
                eprintln!("checkers: skipped: {e}");
                unreadable += 1;
            }
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{}", checkers::tools::bench::format_table(&rows));
    }
    Ok(if unreadable == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}
