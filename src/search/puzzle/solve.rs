//! The puzzle driver's game: both sides search each turn within the budget of
//! [`budget`](super::budget), and the game record decides when the game is over.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::rules::draw::DrawRule;
use crate::rules::game::{Game, Outcome};
use crate::rules::position::Position;
use crate::search::endgame::store::Store;
use crate::search::endgame::{BuildError, EndgameDb};
use crate::search::eval::Evaluator;
use crate::search::score::Score;
use crate::search::stop::Stop;

use crate::search::knobs::{
    DEFAULT_NODES_PER_MOVE, DEFAULT_NODES_PER_SECOND, DEFAULT_TIME_LIMIT, DEFAULT_TT_MEGABYTES,
};

use super::budget::GameBudget;
use super::limits::Features;
use super::play_out::Driver;
use super::searcher::{PuzzleSearcher, SearchStats};

/// How to play a puzzle: what the command line (`checkers --inputfile`, `checkers bench`) and
/// the Python package's `solve` both build. The defaults are [`SolveOptions::default`]'s (the
/// figures in `search::knobs`), and [`SolveOptions::validate`] says which settings are accepted.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Largest transposition table, in MiB (1 to [`SolveOptions::MAX_TT_MEGABYTES`]).
    pub tt_megabytes: usize,
    /// Deepest iteration per turn (plies, 1 to [`SolveOptions::MAX_DEPTH`]); `None` for no
    /// limit.
    pub max_depth: Option<u32>,
    /// The whole run ends within this time (more than zero, at most
    /// [`SolveOptions::MAX_TIME_LIMIT_SECONDS`]).
    pub time_limit: Duration,
    /// Nodes a turn's iterative deepening may spend before playing its best move so far (each
    /// side's first turn more: see [`budget`](crate::search::puzzle::budget)). Counting nodes instead of
    /// time keeps the output identical from run to run.
    pub nodes_per_move: u64,
    /// The search speed assumed to turn the time limit into the game's budget of nodes for
    /// proof searches (see [`budget::proof_budget`](crate::search::puzzle::budget::proof_budget)); 0 for
    /// no proof search. A node count fixed by the
    /// settings, not a measured speed, so that the same puzzle and settings give the same line.
    pub nodes_per_second: u64,
    /// Search enhancements in use (all by default; fewer only to measure their worth).
    pub features: Features,
    /// The draw rule the game is played under: [`DrawRule::None`] (the puzzle rules) or
    /// [`DrawRule::FiftyMoves`] (the optional tournament rule).
    pub draw_rule: DrawRule,
    /// The evaluation that chooses the moves the solver cannot prove (see
    /// `unproven_choice`): by default [`Evaluator::solver_default`], the shipped trained tables,
    /// which break the ties of the turn's deepening, or [`Evaluator::Puzzle`], the deepening's own
    /// move. The proofs are searched with the puzzle set whatever it is, and a proven move is the
    /// canonical one.
    pub evaluator: Evaluator,
}

/// A setting of [`SolveOptions`] out of its range; the message says the range, the caller
/// names the setting as its user wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveOptionsError {
    /// The time limit is not a positive number of seconds within the maximum.
    #[error(
        "must be a positive number of seconds, at most {}",
        SolveOptions::MAX_TIME_LIMIT_SECONDS
    )]
    TimeLimit,
    /// No nodes for the deepening.
    #[error("must be at least 1")]
    NodesPerMove,
    /// The table size is out of range.
    #[error("must be 1 to {}", SolveOptions::MAX_TT_MEGABYTES)]
    TtMegabytes,
    /// The depth is out of range.
    #[error("must be 1 to {}", SolveOptions::MAX_DEPTH)]
    Depth,
}

impl SolveOptions {
    /// Largest transposition table accepted, in MiB (16 GiB).
    pub const MAX_TT_MEGABYTES: usize = 16_384;

    /// Deepest iteration accepted, in plies: beyond the longest game the scores can tell apart.
    pub const MAX_DEPTH: u32 = 990;

    /// Longest time limit accepted, in seconds.
    pub const MAX_TIME_LIMIT_SECONDS: u64 = 1_000_000;

    /// `seconds` as a time limit.
    ///
    /// # Errors
    /// [`SolveOptionsError::TimeLimit`] unless `seconds` is positive, finite and at most
    /// [`SolveOptions::MAX_TIME_LIMIT_SECONDS`].
    pub fn time_limit_from_secs(seconds: f64) -> Result<Duration, SolveOptionsError> {
        if seconds.is_finite() && seconds > 0.0 && seconds <= Self::MAX_TIME_LIMIT_SECONDS as f64 {
            Ok(Duration::from_secs_f64(seconds))
        } else {
            Err(SolveOptionsError::TimeLimit)
        }
    }

    /// Checks every setting against its range, in the order time limit, nodes per move, table
    /// size, depth.
    ///
    /// # Errors
    /// The first setting out of its range.
    pub fn validate(&self) -> Result<(), SolveOptionsError> {
        let seconds = self.time_limit.as_secs_f64();
        if self.time_limit.is_zero() || seconds > Self::MAX_TIME_LIMIT_SECONDS as f64 {
            return Err(SolveOptionsError::TimeLimit);
        }
        if self.nodes_per_move == 0 {
            return Err(SolveOptionsError::NodesPerMove);
        }
        if !(1..=Self::MAX_TT_MEGABYTES).contains(&self.tt_megabytes) {
            return Err(SolveOptionsError::TtMegabytes);
        }
        if self
            .max_depth
            .is_some_and(|d| !(1..=Self::MAX_DEPTH).contains(&d))
        {
            return Err(SolveOptionsError::Depth);
        }
        Ok(())
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            tt_megabytes: DEFAULT_TT_MEGABYTES,
            max_depth: None,
            time_limit: DEFAULT_TIME_LIMIT,
            nodes_per_move: DEFAULT_NODES_PER_MOVE,
            nodes_per_second: DEFAULT_NODES_PER_SECOND,
            draw_rule: DrawRule::None,
            features: Features::default(),
            evaluator: Evaluator::solver_default(),
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Every state from the puzzle to the end of the game.
    pub states: Vec<Position>,
    /// How the game ended.
    pub outcome: Outcome,
    /// The value of the puzzle for red, when the first searched turn proved it.
    pub root_score: Option<Score>,
    /// Whether every searched move was proven optimal (so the line is optimal): a win, or a draw
    /// whose every searched move the endgame databases proved to keep the draw.
    pub proven: bool,
    /// Whether the time limit cut a turn short, or the soft deadline passed during a turn or
    /// the backward pass (the output may then vary between runs).
    pub time_limited: bool,
    /// Search counters.
    pub stats: SearchStats,
    /// Fraction of table probes that hit.
    pub tt_hit_rate: f64,
    /// Positions held by the endgame databases built for this game (0 if none).
    pub endgame_positions: usize,
    /// Look-ups in the database files of the store (0 without one), and the blocks of those
    /// files they read and decoded (each once while it stays in the cache).
    pub endgame_lookups: u64,
    /// See `endgame_lookups`.
    pub endgame_blocks_read: u64,
    /// A database build that failed other than by the deadline (a bug, reported; its positions
    /// were searched instead).
    pub endgame_error: Option<BuildError>,
    /// The searched moves that were not proven optimal, with how far their proofs got.
    pub unproven: Vec<UnprovenMove>,
    /// Wall time.
    pub elapsed: Duration,
}

/// A move played without a proof of its optimality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnprovenMove {
    /// The move's number in the game (1 for the puzzle's first move).
    pub number: usize,
    /// The game is proven not to end within this many plies of the position moved from.
    pub no_end_within: u32,
    /// The search's score of the move (a heuristic value, or a game end further away than the
    /// searches could prove exact), from the mover's point of view.
    pub score: Option<Score>,
}

impl Solution {
    /// Number of moves (plies) played.
    #[must_use]
    pub fn moves(&self) -> usize {
        self.states.len() - 1
    }
}

/// The endgame databases a solve starts from, as the command line and the Python package choose
/// them: those kept in `chosen` (made when missing), else in [`Store::default_dir`] when that
/// directory exists, else none (what the game needs is built in memory).
#[must_use]
pub fn endgame_databases(chosen: Option<&Path>) -> EndgameDb {
    match chosen.map(Path::to_path_buf).or_else(Store::default_dir) {
        Some(dir) if chosen.is_some() || dir.is_dir() => EndgameDb::with_store(Store::new(dir)),
        _ => EndgameDb::default(),
    }
}

/// Plays the game from `puzzle` (red to move) to its end.
#[must_use]
pub fn solve(puzzle: Position, options: &SolveOptions) -> Solution {
    solve_with(puzzle, options, EndgameDb::default())
}

/// [`solve`] with endgame databases to start from (for example reading a store of databases
/// built earlier, see [`EndgameDb::with_store`]).
#[must_use]
pub fn solve_with(puzzle: Position, options: &SolveOptions, endgame: EndgameDb) -> Solution {
    solve_until(puzzle, options, endgame, &Stop::default())
}

/// [`solve_with`] that can be stopped from another thread: once `stop` is set, the searches
/// and database builds end as at the time limit, and the game is finished by the quick
/// shallow moves played past it (the solution is then `time_limited`, and its line is not
/// the one an uninterrupted run gives).
///
/// Once the game is over, a won game whose line has unproven moves goes through the backward
/// pass of `backward_pass`, which checks them from the end and replays the game from a
/// move it proves suboptimal.
#[must_use]
pub fn solve_until(
    puzzle: Position,
    options: &SolveOptions,
    endgame: EndgameDb,
    stop: &Stop,
) -> Solution {
    let started = Instant::now();
    let budget = GameBudget::new(
        started,
        options.time_limit,
        options.nodes_per_move,
        options.nodes_per_second,
    );
    let mut searcher = PuzzleSearcher::with_features(options.tt_megabytes, options.features);
    searcher.set_stop(stop.clone());
    searcher.set_endgame(endgame);
    searcher.set_evaluator(options.evaluator.clone());
    let mut driver = Driver {
        max_depth: options.max_depth.unwrap_or(u32::MAX),
        stop,
        budget,
        searcher,
        game: Game::new(puzzle, options.draw_rule),
        turns: Vec::new(),
        time_limited: false,
        known: None,
        win_within: [None; 2],
        safe_within: [0; 2],
    };
    let mut outcome = driver.play_out();
    if options.draw_rule == DrawRule::None && options.features.repair {
        outcome = driver.repair(outcome);
    }
    driver.solution(outcome, started)
}

impl Driver<'_> {
    /// The finished game.
    fn solution(self, outcome: Outcome, started: Instant) -> Solution {
        let searched = || self.turns.iter().filter(|t| t.score.is_some());
        let root_score = self
            .turns
            .first()
            .filter(|t| t.proven)
            .and_then(|t| t.score);
        let proven = searched().all(|t| t.proven);
        // Whether every searched move's score was a draw (see the `proven` of the solution).
        let draws_only = searched().all(|t| t.score == Some(Score::ZERO));
        let unproven = self
            .turns
            .iter()
            .enumerate()
            .filter(|(_, t)| t.score.is_some() && !t.proven)
            .map(|(ply, t)| UnprovenMove {
                number: ply + 1,
                no_end_within: t.no_end_within,
                score: t.score,
            })
            .collect();
        let (endgame_lookups, endgame_blocks_read) = self.searcher.endgame_file_reads();
        Solution {
            states: self.game.positions().to_vec(),
            root_score,
            proven: proven
                && match &outcome {
                    Outcome::Win { .. } => true,
                    // A draw is proven when every searched move kept a proven draw: only the
                    // endgame databases prove draws, so each of those moves was read off them.
                    // The other moves were forced (one legal move), so a game of forced moves
                    // alone is the only game there is.
                    Outcome::Repetition => draws_only,
                    _ => false,
                },
            outcome,
            time_limited: self.time_limited,
            stats: self.searcher.stats(),
            tt_hit_rate: self.searcher.tt_hit_rate(),
            endgame_positions: self.searcher.endgame_positions(),
            endgame_lookups,
            endgame_blocks_read,
            endgame_error: self.searcher.endgame_error().cloned(),
            unproven,
            elapsed: started.elapsed(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_solve_finishes_the_game_with_quick_moves() {
        let stop = Stop::new();
        stop.stop();
        let options = SolveOptions {
            time_limit: Duration::from_secs(1000),
            ..SolveOptions::default()
        };
        let solution = solve_until(Position::start(), &options, EndgameDb::default(), &stop);
        // Every turn was played past the stop as past the time limit: no turn searched.
        assert!(solution.time_limited);
        assert!(!solution.proven);
        assert_eq!(solution.stats.nodes, 0);
        assert!(solution.states.len() > 1);
    }
}
