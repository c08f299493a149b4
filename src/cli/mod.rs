//! The command line: argument definitions (clap derive) and one small module per subcommand,
//! each of which only turns its arguments into library calls.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod egdb;
mod memory;
pub mod output;
mod perft;
mod solve;
mod verify;

use bench::BenchArgs;
use egdb::EgdbArgs;
use perft::PerftArgs;
use solve::SolveArgs;
use verify::VerifyArgs;

/// Solves checkers (English draughts) endgame puzzles optimally.
///
/// With --inputfile and --outputfile, reads a puzzle (8 lines of 8 characters from `.rRbB`, red to
/// move), plays both sides with alpha-beta search and writes every state of the game to its end:
/// red wins in the fewest moves, black resists as long as possible. Endgames of a few pieces that
/// the search cannot prove are solved exactly with endgame databases built on the spot.
///
/// Exit codes: 0 success, also when the reader of standard output closed it early (as in
/// `checkers ... --outputfile - | head`); 1 the output could not be written (or verify found a
/// bad solution); 2 unusable input or arguments.
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
    /// Endgame databases kept between runs: `checkers egdb build` builds them once.
    ///
    /// Later runs read them instead of building (the solver from --egdb DIR, or by default
    /// from $CHECKERS_EGDB or the platform's cache directory when it exists). Each class is a
    /// file with a checksum: a damaged one is never trusted, and rebuilt.
    Egdb(EgdbArgs),
}

impl Cli {
    /// Runs the chosen command.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        match self.command {
            Some(Command::Perft(args)) => perft::run(&args),
            Some(Command::Bench(args)) => bench::run(&args),
            Some(Command::Verify(args)) => verify::run(&args),
            Some(Command::Egdb(args)) => egdb::run(&args),
            None => solve::run(&self.solve),
        }
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
