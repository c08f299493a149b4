//! Playing a whole game from a puzzle: both sides search each turn, and the game record decides
//! when the game is over.

use std::time::{Duration, Instant};

use crate::rules::game::{GameRecord, Outcome};
use crate::rules::position::Position;
use crate::search::{Features, Limits, Score, SearchStats, Searcher};

/// How to play a puzzle.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Transposition table size in MiB.
    pub tt_megabytes: usize,
    /// Deepest iteration per turn (plies); `None` for no limit.
    pub max_depth: Option<u32>,
    /// The whole run ends within this time.
    pub time_limit: Duration,
    /// Nodes a turn may spend before playing its best move so far; each side's first turn gets
    /// [`FIRST_TURN_FACTOR`] times as many, to prove the puzzle's value. Counting nodes instead of
    /// time keeps the output identical from run to run.
    pub nodes_per_move: u64,
    /// Search enhancements in use (all by default; fewer only to measure their worth).
    pub features: Features,
    /// End the game as a draw after 50 moves of each side without capture or crowning.
    pub fifty_move_rule: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            tt_megabytes: 64,
            max_depth: None,
            time_limit: Duration::from_secs(50),
            nodes_per_move: 100_000,
            fifty_move_rule: false,
            features: Features::default(),
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
    /// Whether every searched move was proven optimal (so the line is optimal).
    pub proven: bool,
    /// Whether the time limit cut a turn short (the output may then vary between runs).
    pub time_limited: bool,
    /// Search counters.
    pub stats: SearchStats,
    /// Fraction of table probes that hit.
    pub tt_hit_rate: f64,
    /// Positions held by the endgame databases built for this game (0 if none).
    pub endgame_positions: usize,
    /// Wall time.
    pub elapsed: Duration,
}

impl Solution {
    /// Number of moves (plies) played.
    #[must_use]
    pub fn moves(&self) -> usize {
        self.states.len() - 1
    }
}

/// How many times the usual node budget each side's first turn gets. The first turns decide
/// whether the puzzle is proven; later turns of a proven game cost little (the table remembers),
/// and later turns of an unproven game must stay cheap so that drawn games finish quickly.
pub const FIRST_TURN_FACTOR: u64 = 20;

/// Fraction of the time limit kept in reserve for finishing the game quickly.
const RESERVE: f64 = 0.15;
/// Depth of the quick searches played once the time limit is near: shallow enough to be instant.
const QUICK_DEPTH: u32 = 4;

/// Plays the game from `puzzle` (red to move) to its end.
#[must_use]
pub fn solve(puzzle: Position, options: &SolveOptions) -> Solution {
    let started = Instant::now();
    let soft_deadline = started + options.time_limit.mul_f64(1.0 - RESERVE);
    let mut searcher = Searcher::with_features(options.tt_megabytes, options.features);
    let mut game = GameRecord::new(puzzle, options.fifty_move_rule);
    let mut root_score = None;
    let mut proven = true;
    let mut time_limited = false;
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        let pos = game.current();
        let out_of_time = Instant::now() >= soft_deadline;
        let first_turn = game.states().len() <= 2;
        let budget = if first_turn {
            options.nodes_per_move.saturating_mul(FIRST_TURN_FACTOR)
        } else {
            options.nodes_per_move
        };
        let limits = Limits {
            nodes: Some(budget),
            deadline: Some(soft_deadline),
        };
        let depth = options.max_depth.unwrap_or(u32::MAX);
        let thought = if out_of_time {
            time_limited = true;
            // Past the soft deadline: shallow fixed-depth play with a fresh searcher depends on
            // the position alone, so the game runs into a repetition or an end quickly. It must
            // not build a database (a fresh one every move), but reads those already built.
            searcher.quick_think(&pos, QUICK_DEPTH)
        } else {
            searcher.think(&pos, depth, limits)
        };
        let Some(thought) = thought else {
            // `outcome()` saw a legal move; `think` agrees by construction.
            break Outcome::Win(pos.side_to_move().opponent());
        };
        if thought.score.is_some() {
            if root_score.is_none() && game.states().len() == 1 && thought.proven {
                root_score = thought.score;
            }
            proven &= thought.proven;
        }
        game.push(pos.play(thought.best));
    };
    Solution {
        states: game.states().to_vec(),
        outcome,
        root_score,
        proven: proven && matches!(outcome, Outcome::Win(_)),
        time_limited,
        stats: searcher.stats(),
        tt_hit_rate: searcher.tt_hit_rate(),
        endgame_positions: searcher.endgame_positions(),
        elapsed: started.elapsed(),
    }
}
