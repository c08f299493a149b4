//! Command-line arguments (clap derive). Only definitions live here; `main.rs` calls the library.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Solves checkers (English draughts) endgame puzzles optimally.
///
/// With --inputfile and --outputfile, reads a puzzle (8 lines of 8 characters from `.rRbB`, red to
/// move), plays both sides with alpha-beta search and writes every state of the game to its end:
/// red wins in the fewest moves, black resists as long as possible. Endgames of a few pieces that
/// the search cannot prove are solved exactly with endgame databases built on the spot.
///
/// Exit codes: 0 success; 1 the output could not be written (or verify found a bad solution);
/// 2 unusable input or arguments.
#[derive(Debug, Parser)]
#[command(
    name = "checkers",
    version,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Cli {
    /// Solve a puzzle (the default when no subcommand is given).
    #[command(flatten)]
    pub solve: SolveArgs,

    /// Other tools.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Options of the solver.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle file: 8 lines of 8 characters from `.rRbB`, red to move.
    #[arg(long, value_name = "FILE", required = true)]
    pub inputfile: Option<PathBuf>,

    /// Where to write the solution: every state of the game, one empty line between states.
    /// Written atomically; left untouched on any error.
    #[arg(long, value_name = "FILE", required = true)]
    pub outputfile: Option<PathBuf>,

    #[command(flatten)]
    pub engine: EngineArgs,

    /// Print nothing on stderr but errors (no warnings, no summary line).
    #[arg(short, long)]
    pub quiet: bool,
}

/// Search settings shared by the solver and the benchmark.
#[derive(Debug, Args, Clone, Copy)]
pub struct EngineArgs {
    /// Largest transposition table in MiB; it starts at 512 KiB and grows as the search needs it
    /// (one table per game).
    #[arg(long = "tt-mb", value_name = "MIB", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub tt_mb: u32,

    /// Deepest search per move, in plies (default: no limit; the search stops when the result is
    /// proven or the move's node budget is spent).
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=990))]
    pub depth: Option<u32>,

    /// The whole game is played within this many seconds; near the end the sides play quick
    /// shallow moves so that the game still finishes.
    #[arg(long = "time-limit", value_name = "SECONDS", default_value_t = 50.0,
          value_parser = parse_seconds)]
    pub time_limit: f64,

    /// Nodes a move may search before the best move found so far is played (each side's first
    /// move gets 20 times as many, to prove the puzzle's value). Counting nodes, not time, keeps
    /// the output identical from run to run.
    #[arg(long = "nodes-per-move", value_name = "NODES", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes_per_move: u64,

    /// Also end the game as a draw after 50 moves of each side without a capture or a crowning.
    #[arg(long = "draw-rule")]
    pub draw_rule: bool,

    /// Measurement baseline: search without the transposition table. Same results, more work.
    #[arg(long = "no-table")]
    pub no_table: bool,

    /// Measurement baseline: search moves in generation order. Same results, more work.
    #[arg(long = "no-ordering")]
    pub no_ordering: bool,

    /// Measurement baseline: solve endgames of a few pieces by search alone, without building
    /// their endgame databases. Same results when the search can prove them; far more work.
    #[arg(long = "no-endgame-db")]
    pub no_endgame_db: bool,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the move tree (perft), from the start position or a puzzle.
    ///
    /// A king capture that takes the same pieces along two routes counts as two moves, as in the
    /// published counts (OEIS A133046); --distinct counts distinct successor positions instead.
    Perft(PerftArgs),
    /// Solve every puzzle in folders or files and time each against the marking bands.
    Bench(BenchArgs),
    /// Check a solution: legal moves, finished game, optimal moves, and the same as an expected one.
    ///
    /// Exit codes: 0 valid (and optimal where proven); 1 invalid or suboptimal; 2 unreadable input.
    Verify(VerifyArgs),
}

/// Arguments of `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The puzzle the solution starts from.
    #[arg(long, value_name = "FILE")]
    pub inputfile: PathBuf,

    /// The solution to check: states separated by one empty line.
    #[arg(long, value_name = "FILE")]
    pub solution: PathBuf,

    /// An expected solution to compare with (length and states).
    #[arg(long, value_name = "FILE")]
    pub expected: Option<PathBuf>,
}

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

    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Arguments of `perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
    pub depth: u32,

    /// Start from this puzzle (red to move) instead of the standard start position.
    #[arg(long, value_name = "FILE")]
    pub inputfile: Option<PathBuf>,

    /// Print the count under each first move.
    #[arg(long)]
    pub divide: bool,

    /// Count each distinct successor position once, merging capture routes.
    #[arg(long)]
    pub distinct: bool,

    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,

    /// Size of the table of subtree counts shared by the threads, in MiB (0: no table).
    #[arg(long = "hash-mb", value_name = "MIB", default_value_t = 32,
          value_parser = clap::value_parser!(u64).range(0..=65_536))]
    pub hash_mb: u64,
}

/// A positive, finite number of seconds.
fn parse_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if v.is_finite() && v > 0.0 && v <= 1.0e6 {
        Ok(v)
    } else {
        Err(format!(
            "'{s}' must be a positive number of seconds, at most 1000000"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
