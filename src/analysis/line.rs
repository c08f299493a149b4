//! Lines of play: the canonical optimal line from a position, and the check of a given line.

use std::fmt;

use rustc_hash::FxHashMap;

use super::rules::{Board, Move};
use super::{AnalysisError, Oracle, Value};
use crate::rules::position::Position;

/// The canonical optimal line from `root`: at each position play the move whose child gives the
/// best [`Value`] for the mover; among equally good moves take the smallest analyser
/// [`Move`] (origin cell, then destination, then captured set). The line ends when the side to
/// move has no legal move; `states[0]` is `root`, and a root of value `Win(n)` or `Loss(n)` gives
/// `n + 1` states.
///
/// The best child is the first one, in move order, whose value seen from the parent equals the
/// parent's value (the parent's value is by definition the best over its children), so the
/// children after it are never searched.
///
/// # Errors
/// A drawn root gives [`AnalysisError::Drawn`]: a draw has no forced end, and drawn lines are
/// played by the solver, not here. An undecided root gives [`AnalysisError::Undecided`], and the
/// oracle's own errors are passed on.
pub fn optimal_line(root: &Position, oracle: &mut Oracle) -> Result<Vec<Position>, AnalysisError> {
    let root = Board::from_position(root);
    let mut value = decided(oracle, &root, "the root")?;
    if value == Value::Draw {
        return Err(AnalysisError::Drawn);
    }
    let mut line = vec![root];
    let mut board = root;
    // Every step lowers the distance by one, so this ends after `n` steps.
    while value != Value::Loss(0) {
        let (_, child, child_value) = best_move(&board, value, oracle)?;
        line.push(child);
        board = child;
        value = child_value;
    }
    if board.has_moves() {
        return Err(AnalysisError::Inconsistent(format!(
            "a position of value {} still has legal moves",
            Value::Loss(0)
        )));
    }
    Ok(line.iter().map(Board::to_position).collect())
}

/// The canonical optimal move of `pos`: among the moves that keep its exact value (the fastest
/// win, the draw, or the slowest loss), the smallest in canonical [`Move`] order. `None` when the
/// side to move has no legal move.
///
/// # Errors
/// [`AnalysisError::Undecided`] when the value of `pos`, or of a drawn position's children, is not
/// decided within the oracle's limits, and the oracle's own errors.
pub fn canonical_move(pos: &Position, oracle: &mut Oracle) -> Result<Option<Move>, AnalysisError> {
    let board = Board::from_position(pos);
    let value = decided(oracle, &board, "the position")?;
    if !board.has_moves() {
        return Ok(None);
    }
    let (mv, _, _) = best_move(&board, value, oracle)?;
    Ok(Some(mv))
}

/// The first move of `board`, in canonical order, that keeps the value `value`, with the child it
/// leads to and the child's own value.
fn best_move(
    board: &Board,
    value: Value,
    oracle: &mut Oracle,
) -> Result<(Move, Board, Value), AnalysisError> {
    // A child that keeps a win or a loss ends one ply sooner; a draw's children have no bound.
    let remaining = value
        .plies()
        .map_or(oracle.limits().max_plies, |n| n.saturating_sub(1));
    for (mv, child) in board.moves() {
        if let Some(child_value) = oracle.board_value_within(&child, remaining)? {
            if Value::from_child(child_value) == value {
                return Ok((mv, child, child_value));
            }
        }
    }
    Err(AnalysisError::Inconsistent(format!(
        "no move keeps the value {value} of the position"
    )))
}

/// The oracle's value of `board`, or [`AnalysisError::Undecided`] naming it as `what`.
fn decided(oracle: &mut Oracle, board: &Board, what: &str) -> Result<Value, AnalysisError> {
    oracle
        .board_value_within(board, oracle.limits().max_plies)?
        .ok_or_else(|| AnalysisError::Undecided {
            what: what.to_string(),
            max_plies: oracle.limits().max_plies,
        })
}

/// What is wrong with a line at one state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The line has no state at all.
    Empty,
    /// The state is not a position any legal move of the previous state leads to.
    Illegal,
    /// The game was already over at the previous state (no legal move, or a third repetition),
    /// yet the line goes on.
    AfterEnd,
    /// The move into this state is legal but not optimal for the side that played it.
    Suboptimal {
        /// The value of the previous state for the side that moved: what an optimal move keeps.
        best: Value,
        /// The value the played move gives that side; `None` when it is not decided within the
        /// bound the best value allows, so it is certainly worse than `best`.
        played: Option<Value>,
    },
    /// The line stops at this state, but the game is not over: the side to move has a move.
    NotOver {
        /// The value of the state for its side to move.
        value: Value,
    },
}

/// The first thing wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Index of the offending state in the line (0 is the puzzle).
    pub index: usize,
    /// What is wrong with it.
    pub kind: FaultKind,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = self.index;
        match &self.kind {
            FaultKind::Empty => write!(f, "the line has no state"),
            FaultKind::Illegal => write!(f, "state {i} is not a legal move from state {}", i - 1),
            FaultKind::AfterEnd => {
                write!(
                    f,
                    "state {i} follows state {}, where the game was already over",
                    i - 1
                )
            }
            FaultKind::Suboptimal { best, played } => {
                write!(
                    f,
                    "the move into state {i} is not optimal: the mover had a {best}, "
                )?;
                match played {
                    Some(v) => write!(f, "the move played gives a {v}"),
                    None => write!(f, "the move played gives something worse"),
                }
            }
            FaultKind::NotOver { value } => write!(
                f,
                "the line stops at state {i}, but the game is not over (side to move: {value})"
            ),
        }
    }
}

/// The verdict on a line checked by [`check_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineReport {
    /// The exact value of the first state for its side to move (`None` for an empty line).
    pub root_value: Option<Value>,
    /// The first fault found, `None` when the line is a legal, optimal and complete game.
    pub fault: Option<Fault>,
}

impl LineReport {
    /// Whether the line passed every check.
    #[must_use]
    pub fn is_ok(&self) -> bool {
        self.fault.is_none()
    }
}

/// Checks a given line (`states[0]` is the puzzle and the sides alternate) move by move: each
/// state is a legal successor of the previous one (some legal move of the previous state leads
/// to exactly this position), every move is optimal (the value of the child, seen from the mover,
/// equals the best value the mover had), and the game is over at the last state and not before.
///
/// The game is over when the side to move has no legal move or, in a drawn game, when a position
/// occurs for the third time. Legality and the end of the game are judged by the analyser's own
/// move generator. Returns the first fault found.
///
/// # Errors
/// Only when a value could not be decided: [`AnalysisError::Undecided`] for the first state, or
/// the oracle's own errors. A faulty line is a report, not an error.
pub fn check_line(states: &[Position], oracle: &mut Oracle) -> Result<LineReport, AnalysisError> {
    let boards: Vec<Board> = states.iter().map(Board::from_position).collect();
    let Some(root) = boards.first() else {
        let fault = Fault {
            index: 0,
            kind: FaultKind::Empty,
        };
        return Ok(LineReport {
            root_value: None,
            fault: Some(fault),
        });
    };
    let root_value = decided(oracle, root, "state 0")?;
    let fault = first_fault(&boards, root_value, oracle)?;
    Ok(LineReport {
        root_value: Some(root_value),
        fault,
    })
}

/// The positions of a game so far, counted for the repetition rule.
struct Occurrences(FxHashMap<Board, u32>);

impl Occurrences {
    /// Counts one more occurrence of `board`.
    fn add(&mut self, board: Board) {
        *self.0.entry(board).or_insert(0) += 1;
    }

    /// Whether the game is over at `board`, the last position played: the side to move has no
    /// legal move, or the position has occurred for the third time.
    fn game_over_at(&self, board: &Board) -> bool {
        !board.has_moves() || self.0.get(board).copied().unwrap_or(0) >= 3
    }
}

/// The walk behind [`check_line`], given the value of the first state.
fn first_fault(
    states: &[Board],
    root_value: Value,
    oracle: &mut Oracle,
) -> Result<Option<Fault>, AnalysisError> {
    let fault = |index, kind| Ok(Some(Fault { index, kind }));
    let mut seen = Occurrences(FxHashMap::default());
    seen.add(states[0]);
    let mut value = root_value;
    for (index, pair) in states.windows(2).enumerate() {
        let (prev, next) = (&pair[0], pair[1]);
        let index = index + 1;
        if seen.game_over_at(prev) {
            return fault(index, FaultKind::AfterEnd);
        }
        if !prev.successors().contains(&next) {
            return fault(index, FaultKind::Illegal);
        }
        let bound = value
            .plies()
            .map_or(oracle.limits().max_plies, |n| n.saturating_sub(1));
        value = match oracle.board_value_within(&next, bound)? {
            Some(child) if Value::from_child(child) == value => child,
            other => {
                let played = other.map(Value::from_child);
                return fault(
                    index,
                    FaultKind::Suboptimal {
                        best: value,
                        played,
                    },
                );
            }
        };
        seen.add(next);
    }
    let last = states.len() - 1;
    if seen.game_over_at(&states[last]) {
        Ok(None)
    } else {
        fault(last, FaultKind::NotOver { value })
    }
}
