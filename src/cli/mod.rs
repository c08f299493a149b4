//! The command line: argument definitions (clap derive) and one small module per subcommand,
//! each of which only turns its arguments into library calls.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod agent;
mod bench;
mod client;
mod egdb;
mod hackerrank;
#[cfg(unix)]
mod host;
mod matches;
mod memory;
pub mod output;
mod perft;
mod selfplay;
mod server;
mod show;
mod solve;
mod think;
mod train;
mod verify;

use agent::{AgentArgs, CalibrateArgs};
use bench::BenchArgs;
use client::ClientArgs;
use egdb::EgdbArgs;
use hackerrank::HackerRankArgs;
#[cfg(unix)]
use host::HostArgs;
use matches::{EndgameStartsArgs, MatchArgs};
use perft::PerftArgs;
use selfplay::SelfPlayArgs;
use server::ServerArgs;
use show::ShowArgs;
use solve::SolveArgs;
use think::ThinkArgs;
use train::TrainArgs;
use verify::VerifyArgs;

/// A checkers (English draughts) engine: solves endgame puzzles optimally, plays, and speaks the
/// assignments' protocols.
///
/// With --inputfile and --outputfile, reads a puzzle (8 lines of 8 characters from `.rRbB`, red to
/// move), plays both sides with alpha-beta search and writes every state of the game to its end:
/// red wins in the fewest plies, black resists as long as possible. Endgames of a few pieces that
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
    subcommand_negates_reqs = true,
    max_term_width = 100
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
    /// Solve a puzzle and write every state of the optimal game (as without `solve`).
    ///
    /// Reads a puzzle (8 lines of 8 characters from `.rRbB`, red to move, a FEN or a PDN game),
    /// plays both sides with alpha-beta search and writes every state of the game to its end: red
    /// wins in the fewest plies, black resists as long as possible.
    Solve(SolveArgs),
    /// Count the leaf nodes of the move tree (perft), from the start position or a puzzle.
    ///
    /// A king capture that takes the same pieces along two routes counts as two moves, as in the
    /// published counts (OEIS A133046); --distinct counts distinct successor positions instead.
    Perft(PerftArgs),
    /// Solve every puzzle in folders or files and time each against the marking bands.
    Bench(BenchArgs),
    /// Check a solution: legal moves, a finished game, optimal moves (and --expected).
    ///
    /// Every move gets a verdict from the independent analyser: proven optimal, refuted (with
    /// what it gives and what a better move gives) or undecided (with what was established, such
    /// as "no game end within 14 plies"); then the line's: refuted if any move is, optimal only if
    /// every move is proven. Exit codes: 0 a legal, finished game with every move proven optimal;
    /// 3 legal and finished, no move refuted, some undecided within the budget; 1 illegal,
    /// unfinished, a move refuted, or another length than --expected; 2 unreadable input.
    Verify(VerifyArgs),
    /// Play one KTH DD2380 game against a game server with the engine.
    ///
    /// Without KEY the server's built-in player is the opponent (`MODE STANDALONE`); with KEY
    /// the other client giving the same key is (`MODE GAME KEY`, or `MODE KEY KEY` with
    /// --mode-key). Prints who won, relative to this client: the server's end code 1 means the
    /// first player won, 2 the second, 3 a draw. Exit codes: 0 the game ended (won, lost or
    /// drawn); 1 it could not be played to its end (refused or dropped connection, malformed or
    /// illegal line from the server).
    Client(ClientArgs),
    /// Referee KTH DD2380 games over TCP.
    ///
    /// Standalone games against a built-in player, and games between two clients paired by key.
    /// Ctrl-C stops accepting; running games finish.
    Server(ServerArgs),
    /// USC CSCI561 agent: read input.txt, write one move to output.txt.
    ///
    /// input.txt: SINGLE or GAME; BLACK or WHITE; the seconds of CPU time left; 8 board rows of
    /// `b B w W .` (black at the top, moving down). output.txt: `E FROM TO` for a step, one
    /// `J FROM TO` line per jump. The agent keeps the game in playdata.txt and uses
    /// calibration.txt when present. Exit codes: 0 moved; 2 bad input.txt (line named, no
    /// output.txt left); 1 other failures.
    Agent(AgentArgs),
    /// Measure this machine's search speed for the CSCI561 agent (writes calibration.txt).
    Calibrate(CalibrateArgs),
    /// Referee for CSCI561 agents: play two agent commands against each other.
    ///
    /// Measures each move's CPU time and writes the games as PDN.
    ///
    /// Each agent runs in a temporary folder of its own, as `sh -c CMD`, once per move: the host
    /// writes input.txt (GAME, its colour, its CPU seconds left, the board), charges the CPU
    /// time the system measured, and checks output.txt. A game ends on a win, a draw (the same
    /// board for the third time, or 50 moves without a capture or crowning), a time forfeit, or
    /// a missing, malformed or illegal answer; a drawn game names the agent with more time left.
    #[cfg(unix)]
    Host(HostArgs),
    /// Pictures of a puzzle and its solution: terminal boards, SVG, an HTML replay.
    ///
    /// Boards in the terminal (Unicode pieces, coloured on a terminal), an SVG diagram (--svg), or
    /// an offline HTML page stepping through the game (--html).
    Show(ShowArgs),
    /// The HackerRank bot: one move for the position on standard input.
    ///
    /// Reads the player (`b`/`w`), the board size (8) and 8 rows of
    /// `_ b w B W` on standard input and prints its move: the number of hops, then `row col`
    /// of the start and of every landing cell (0-based from the top-left). A man crowned during a
    /// capture jumps on as a king when it can.
    ///
    /// Exit codes: 0 a move printed; 1 no legal move; 2 unusable input (the line is named).
    Hackerrank(HackerRankArgs),
    /// Choose one move for one position and print it in standard notation.
    ///
    /// A step is written `11-15`, a capture `22x15x8`. The position is the start position unless
    /// --fen or --inputfile gives one; the engine thinks one second unless --time-ms, --nodes or
    /// --depth says otherwise.
    ///
    /// Exit codes: 0 a move was printed; 1 the position has no legal move (`none` is printed);
    /// 2 unusable input or arguments.
    Think(ThinkArgs),
    /// Play a match between two players and report the score and Elo difference.
    ///
    /// Games start from the three-move ballots, each opening twice with colours swapped; prints
    /// wins, draws, losses, score, Elo difference and forfeits.
    ///
    /// Exit codes: 0 the match was played; 2 a bad player, option or openings file.
    Match(MatchArgs),
    /// Write endgame starting positions of 6 to 10 pieces (for `match --openings`).
    ///
    /// The engine plays itself from the ballots at a fixed node budget; the first quiet position
    /// of each piece count is kept when a short search scores it near even. The same options give
    /// the same file. Exit codes: 0 written; 2 bad arguments or openings file.
    EndgameStarts(EndgameStartsArgs),
    /// Endgame databases kept between runs: `checkers egdb build` builds them once.
    ///
    /// Later runs read them instead of building (the solver from --egdb DIR, or by default
    /// from $CHECKERS_EGDB or the platform's cache directory when it exists). Each class is a
    /// file with a checksum: a damaged one is never trusted, and rebuilt.
    Egdb(EgdbArgs),
    /// Self-play for training the evaluation: labelled positions, a file per chunk.
    ///
    /// Resumable (written chunks are kept) and shardable (--shard K/N); see docs/training.md.
    Selfplay(SelfPlayArgs),
    /// Fit the trained evaluation to self-play data and write a weights file.
    ///
    /// Log-loss, minimised by Adam. Prints the held-out loss after every epoch; the same data,
    /// settings and seed give the same bytes. See docs/training.md.
    Train(TrainArgs),
}

impl Cli {
    /// Runs the chosen command.
    pub fn run(self, started: std::time::Instant) -> anyhow::Result<ExitCode> {
        match self.command {
            Some(Command::Solve(args)) => solve::run(&args),
            Some(Command::Perft(args)) => perft::run(&args),
            Some(Command::Bench(args)) => bench::run(&args),
            Some(Command::Verify(args)) => verify::run(&args),
            Some(Command::Client(args)) => client::run(&args),
            Some(Command::Server(args)) => server::run(&args),
            Some(Command::Agent(args)) => agent::run(&args),
            Some(Command::Calibrate(args)) => agent::calibrate(&args),
            #[cfg(unix)]
            Some(Command::Host(args)) => host::run(&args),
            Some(Command::Show(args)) => show::run(&args),
            Some(Command::Hackerrank(args)) => hackerrank::run(&args),
            Some(Command::Think(args)) => think::run(&args, started),
            Some(Command::Match(args)) => matches::run(&args),
            Some(Command::EndgameStarts(args)) => matches::run_endgame_starts(&args),
            Some(Command::Egdb(args)) => egdb::run(&args),
            Some(Command::Selfplay(args)) => selfplay::run(&args),
            Some(Command::Train(args)) => train::run(&args),
            None => solve::run(&self.solve),
        }
    }
}

/// What a bare `checkers` prints (on standard error, exit code 2): how to solve a puzzle, and the
/// subcommands with their one-line descriptions.
#[must_use]
pub fn short_usage() -> String {
    use clap::CommandFactory;
    let cli = Cli::command();
    let mut text = String::from(
        "checkers: a checkers (English draughts) engine: solves endgame puzzles optimally, plays,\n\
         and speaks the assignments' protocols.\n\n\
         Solve a puzzle (a board of 8 lines of `.rRbB`, red to move; a FEN; or a PDN game):\n  \
         checkers --inputfile puzzles/p03.txt --outputfile solution.txt\n  \
         checkers solve --inputfile puzzles/p03.txt --outputfile -    (the same, on standard output)\n\n\
         Commands:\n",
    );
    let width = cli
        .get_subcommands()
        .map(|c| c.get_name().len())
        .max()
        .unwrap_or(0);
    for sub in cli.get_subcommands() {
        let about = sub.get_about().map(ToString::to_string).unwrap_or_default();
        text.push_str(&format!("  {:width$}  {about}\n", sub.get_name()));
    }
    text.push_str("\n`checkers --help` for the solver's options, `checkers COMMAND --help` for a command's.\n");
    text
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
