//! An independent exact solver, used to certify solutions: its own move generation plus
//! exhaustive graph analysis, and nothing else.
//!
//! No alpha-beta, no evaluation function, no transposition-table tricks, and none of the engine's
//! rules code: the point of this module is to be obviously correct, so that it can check the
//! output of the fast solver. It shares only the engine's [`Position`](crate::Position) type at
//! its boundary, read cell by cell into a board of its own (design.md, "The certificate: what
//! it is independent of").
//!
//! - [`rules`]: the analyser's own board and move generator, written from the rules alone
//!   (`docs/rules.md`).
//! - [`Value`]: the exact value of a position, in plies to the end of the game.
//! - [`solve_reachable`]: retrograde analysis of the whole reachable graph (exact, including
//!   draws), for positions with a small enough reachable set (king endgames).
//! - [`BoundedProver`]: exhaustive AND/OR search to a bounded depth (exact for short wins), for
//!   positions with men whose reachable set is too large.
//! - [`Oracle`]: the two combined behind one question, "what is this position worth?".
//! - [`optimal_line`], [`canonical_move`] and [`check_line`]: the canonical optimal line from a
//!   puzzle, the canonical optimal move of one position, and the check of a given line move by
//!   move.
//! - [`judge_line`]: a verdict on every move of a line (proven optimal, refuted or undecided)
//!   within a node budget, from bounded questions and full analyses.
//!
//! The repetition rule is ignored throughout: see [`Value`] for why it never changes a value.

mod line;
mod oracle;
mod prover;
mod retrograde;
pub mod rules;
mod value;
mod verdicts;

use thiserror::Error;

pub use line::{canonical_move, check_line, optimal_line, Fault, FaultKind, LineReport};
pub use oracle::{Oracle, OracleLimits, DEFAULT_QUICK_BUDGET};
pub use prover::{
    BoundedProver, KnownValues, DEFAULT_MAX_PLIES, DEFAULT_NODE_BUDGET, MAX_PROVER_PLIES,
};
pub use retrograde::{solve_reachable, Table, DEFAULT_MAX_POSITIONS};
pub use value::Value;
pub use verdicts::{judge_line, LineVerdicts, MoveKind, MoveVerdict, Range, Stop, VerdictLimits};

/// Boards shared by the unit tests of the analysis modules.
#[cfg(test)]
mod test_boards {
    use crate::formats::board_text::parse_board;
    use crate::rules::position::Position;

    /// One king each, each in a double corner: a draw.
    pub(super) const DOUBLE_CORNERS: &str =
        ".B......\n........\n........\n........\n........\n........\n........\n......R.\n";

    /// The position of a test board.
    pub(super) fn board(rows: &str) -> Position {
        parse_board(rows.as_bytes()).expect("test board")
    }
}

/// Why the analysis could not give an answer. None of these says anything about the position's
/// value; they say the question was too big or could not be asked.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum AnalysisError {
    /// More positions are reachable than the retrograde analysis was allowed to hold.
    #[error("more than {limit} positions are reachable; too large for a full analysis")]
    TooLarge {
        /// The limit on the number of positions.
        limit: usize,
    },
    /// The bounded search needed more positions than its node budget.
    #[error("the bounded search expanded more than {budget} positions without an answer")]
    BudgetExhausted {
        /// The number of positions one search may expand.
        budget: u64,
    },
    /// The bounded search was asked for a bound deeper than it accepts.
    #[error("a bound of {requested} plies was asked; the bounded search accepts at most {max}")]
    BoundTooDeep {
        /// The bound asked for.
        requested: u32,
        /// The deepest bound accepted.
        max: u32,
    },
    /// Neither method could decide the value of a position: no full analysis fitted the limits
    /// and the game does not end within the search bound.
    #[error("the value of {what} is not decided: no full analysis fits and no forced end within {max_plies} plies")]
    Undecided {
        /// Which position, in words (for example "state 3").
        what: String,
        /// The search bound that was used.
        max_plies: u32,
    },
    /// An optimal line was asked for a drawn position; draw lines are played by the solver.
    #[error("the position is a draw: there is no forced end to play out")]
    Drawn,
    /// The analysis was stopped from outside (a time or memory budget ran out).
    #[error("the analysis was stopped")]
    Stopped,
    /// The values found contradict each other; a bug in this module or in its move generation.
    #[error("inconsistent analysis: {0}")]
    Inconsistent(String),
}
