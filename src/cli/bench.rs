//! `checkers bench`: solve many puzzles and report figures.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use checkers::formats::files::write_atomic;
use checkers::search::endgame::store::Store;
use checkers::search::endgame::EndgameDb;
use checkers::tools::bench::{self, BenchRow, Skipped};
use checkers::tools::random_boards;

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

    /// Pieces on each random board (2 to 16), shared out at random between the sides, at
    /// least one each (default: each side one to eight).
    #[arg(long, value_name = "N", requires = "random",
          value_parser = clap::value_parser!(u32).range(2..=16))]
    pub pieces: Option<u32>,

    /// Percent chance that a random board's piece is a king (default: 50).
    #[arg(long = "king-percent", value_name = "P", requires = "random",
          value_parser = clap::value_parser!(u32).range(0..=100))]
    pub king_percent: Option<u32>,

    /// Keep only the random boards that the complete endgame databases in DIR value as wins
    /// of at least --min-plies plies, half red wins and half black ones (with --pieces of at
    /// most 6), and report how many lines end at the databases' winner and length.
    ///
    /// The values go to random-S-values.txt beside the boards (name, winner, plies). The solver
    /// itself reads no databases: it builds what it needs, as a solve without --egdb.
    #[arg(long = "long-wins", value_name = "DIR", requires = "random")]
    pub long_wins: Option<PathBuf>,

    /// Shortest win kept by --long-wins, in plies.
    #[arg(
        long = "min-plies",
        value_name = "PLIES",
        default_value_t = 30,
        requires = "long_wins"
    )]
    pub min_plies: u32,

    #[command(flatten)]
    pub engine: EngineArgs,
}

/// The JSON report.
#[derive(Serialize)]
struct Report<'a> {
    puzzles: &'a [BenchRow],
    skipped: &'a [Skipped],
    /// With `--long-wins`: each board's value from the databases and whether the line ends at it.
    #[serde(skip_serializing_if = "Option::is_none")]
    long_wins: Option<&'a [LongWin]>,
}

/// A board of `--long-wins`: its value from the databases, and whether the solver's line ended
/// at that winner and length.
#[derive(Serialize)]
struct LongWin {
    puzzle: PathBuf,
    /// "red wins" or "black wins", as a row's result.
    winner: String,
    plies: u32,
    agreed: bool,
}

/// The random boards asked for, written to their folder: their paths, and with `--long-wins`
/// their values (the winner's result text and the plies).
fn random_puzzles(args: &BenchArgs, count: u32) -> Result<(Vec<PathBuf>, Option<Vec<LongWin>>)> {
    let dir = args
        .boards_dir
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("checkers-random-{}", args.seed)));
    std::fs::create_dir_all(&dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    let shape = random_boards::Shape {
        pieces: args.pieces,
        king_percent: args.king_percent,
    };
    let Some(egdb) = &args.long_wins else {
        let boards = random_boards::random_boards_of(count as usize, args.seed, shape);
        let paths = random_boards::write_positions(&dir, &boards, args.seed)?;
        output::eprintln(&format!(
            "checkers: {count} random boards of seed {} in {}",
            args.seed,
            dir.display()
        ))?;
        return Ok((paths, None));
    };
    if args
        .pieces
        .is_none_or(|n| n as usize > checkers::search::endgame::PROBE_PIECES)
    {
        return Err(output::BadInput(format!(
            "--long-wins needs --pieces of at most {} (the pieces its databases hold)",
            checkers::search::endgame::PROBE_PIECES
        ))
        .into());
    }
    if !egdb.is_dir() {
        return Err(output::BadInput(format!(
            "--long-wins {}: not a directory of endgame databases",
            egdb.display()
        ))
        .into());
    }
    let db = EndgameDb::with_store(Store::new(egdb));
    let valued = random_boards::long_wins(&db, count as usize, args.seed, shape, args.min_plies);
    if valued.len() < count as usize {
        return Err(output::BadInput(format!(
            "--long-wins {}: only {} of {count} boards of seed {} found within {} drawn (does \
             it hold every class of --pieces, and are wins of --min-plies {} common?)",
            egdb.display(),
            valued.len(),
            args.seed,
            random_boards::MAX_DRAWS,
            args.min_plies
        ))
        .into());
    }
    let boards: Vec<_> = valued.iter().map(|v| v.board).collect();
    let paths = random_boards::write_positions(&dir, &boards, args.seed)?;
    let wins: Vec<LongWin> = paths
        .iter()
        .zip(&valued)
        .map(|(path, v)| LongWin {
            puzzle: path.clone(),
            winner: format!("{} wins", v.winner.name()),
            plies: v.plies,
            agreed: false,
        })
        .collect();
    let list: String = wins
        .iter()
        .map(|w| format!("{}\t{}\t{}\n", file_name(&w.puzzle), w.winner, w.plies))
        .collect();
    let values = dir.join(format!("random-{}-values.txt", args.seed));
    write_atomic(&values, &list)?;
    output::eprintln(&format!(
        "checkers: {count} random boards of seed {} valued by {} in {} (values: {})",
        args.seed,
        egdb.display(),
        dir.display(),
        values.display()
    ))?;
    Ok((paths, Some(wins)))
}

/// A path's file name (the whole path when it has none).
fn file_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Marks which `wins` the `rows` (of the same puzzles) end at, and says how many in lines of
/// text: the count by winner, then one line per board that differs.
fn check_long_wins(wins: &mut [LongWin], rows: &[BenchRow]) -> Vec<String> {
    let mut differ = Vec::new();
    for win in wins.iter_mut() {
        let Some(row) = rows.iter().find(|r| r.puzzle == win.puzzle) else {
            continue;
        };
        win.agreed = row.result == win.winner && row.moves == win.plies as usize;
        if !win.agreed {
            differ.push(format!(
                "  {}: the databases {} in {} plies, the solver {} in {}",
                file_name(&win.puzzle),
                win.winner,
                win.plies,
                row.result,
                row.moves
            ));
        }
    }
    let tally = |winner: &str| {
        let of: Vec<_> = wins.iter().filter(|w| w.winner == winner).collect();
        let agreed = of.iter().filter(|w| w.agreed).count();
        format!("{winner} {agreed} of {}", of.len())
    };
    let agreed = wins.iter().filter(|w| w.agreed).count();
    let mut lines = vec![format!(
        "long wins: {agreed} of {} lines at the databases' winner and length ({}, {})",
        wins.len(),
        tally("red wins"),
        tally("black wins")
    )];
    lines.extend(differ);
    lines
}

/// Runs the benchmark.
pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    use std::io::IsTerminal;

    let mut long_wins = None;
    let selection = match args.random {
        Some(count) => {
            let (puzzles, wins) = random_puzzles(args, count)?;
            long_wins = wins;
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
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        |j| j as usize,
    );
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(selection.puzzles.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let options = solve_options(&args.engine)?;
    let results = bench::bench_all(&selection.puzzles, &options, jobs, &|| progress.inc(1));
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
    let checked = long_wins.as_mut().map(|wins| check_long_wins(wins, &rows));
    if args.json {
        let report = Report {
            puzzles: &rows,
            skipped: &skipped,
            long_wins: long_wins.as_deref(),
        };
        output::println(&serde_json::to_string_pretty(&report)?)?;
    } else {
        output::print(&bench::format_table(&rows))?;
        for line in checked.unwrap_or_default() {
            output::println(&line)?;
        }
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
