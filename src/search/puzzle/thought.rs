//! What a turn of the puzzle driver concludes ([`PuzzleThought`]), what earlier turns
//! established for it ([`Known`]), and what a proof search establishes ([`Proof`], at the
//! bounds of [`bound_at`]).

use crate::rules::moves::Move;
use crate::search::score::Score;

/// The outcome of one turn's thinking.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleThought {
    /// The move to play.
    pub best: Move,
    /// Its score from the mover's point of view (None when the move was forced and not searched).
    pub score: Option<Score>,
    /// Depth of the last completed iteration (of the deepening, or the proof's bound).
    pub depth: u32,
    /// Whether `score` is an exact game end within the searched depth: the move is then optimal
    /// (fastest win or slowest loss) and the smallest such move in canonical order.
    pub proven: bool,
    /// For a move that is not proven: plies from this position within which the game is proven
    /// not to end (the best bound the searches reached; 0 when none).
    pub no_end_within: u32,
    /// For a move that is not proven: the move is proven to win within this many plies (what an
    /// earlier proof established, kept; see [`Known::win_within`]).
    pub keeps_win: Option<u32>,
    /// For a move that is not proven: the move is proven not to lose within this many plies
    /// (see [`Known::safe_within`]).
    pub safe_within: u32,
}

impl PuzzleThought {
    /// A thought about `best` with nothing known beyond its score and depth.
    #[must_use]
    pub fn new(best: Move, score: Option<Score>, depth: u32, proven: bool) -> PuzzleThought {
        PuzzleThought {
            best,
            score,
            depth,
            proven,
            no_end_within: 0,
            keeps_win: None,
            safe_within: 0,
        }
    }
}

/// What earlier turns of the game established about the position to move, which a turn that
/// cannot prove its own value must not throw away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Known {
    /// The exact value, when an earlier turn proved it (carried over the moves since).
    pub exact: Option<Score>,
    /// The side to move wins within this many plies (odd): an earlier proven win of this side,
    /// two plies nearer per move of its own, whatever the opponent played in between.
    pub win_within: Option<u32>,
    /// The side to move does not lose within this many plies: the opponent's previous search
    /// saw no game end within one more, or this side's previous move was checked safe to two
    /// more.
    pub safe_within: u32,
}

impl Known {
    /// Only the exact value `exact`, if any.
    #[must_use]
    pub fn exact(exact: Option<Score>) -> Known {
        Known {
            exact,
            ..Known::default()
        }
    }
}

/// What a proof search established about a position (the one-thread proof of `proof.rs` and
/// the split of `two_thread_proof.rs` alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Proof {
    /// The exact value (a game end), found within the budget, and a move reaching it when the
    /// search names one: the split names the first in canonical order; the one-thread proof the
    /// move that proved a win (none for a loss), not necessarily the canonical one.
    Exact(Score, Option<Move>),
    /// The budget ran out: no game end lies within this many plies (0 when nothing is known).
    NoEndWithin(u32),
}

/// Whether the side to move wins within `n` plies (`n` odd) or loses within `n` (`n` even): the
/// score the question is about.
#[must_use]
pub fn bound_at(n: u32) -> Score {
    if n % 2 == 1 {
        Score::won_at(n as usize)
    } else {
        Score::lost_at(n as usize)
    }
}
