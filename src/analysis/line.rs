//! Lines of play: the canonical optimal line from a position, and the check of a given line.

use std::fmt;

use super::{AnalysisError, Oracle, Value};
use crate::rules::game::{GameRecord, Outcome};
use crate::rules::movegen::legal_moves;
use crate::rules::moves::MoveList;
use crate::rules::position::Position;

/// The canonical optimal line from `root`: at each position play the move whose child gives the
/// best [`Value`] for the mover; among equally good moves take the smallest [`crate::Move`] by
/// `Ord`. The line ends when the side to move has no legal move; `states[0]` is `root`, and a
/// root of value `Win(n)` or `Loss(n)` gives `n + 1` states.
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
    let mut value = decided(oracle, root, "the root")?;
    if value == Value::Draw {
        return Err(AnalysisError::Drawn);
    }
    let mut line = vec![*root];
    let mut pos = *root;
    // Every step lowers the distance by one, so this ends after `n` steps.
    while value != Value::Loss(0) {
        let (child, child_value) = best_child(&pos, value, oracle)?;
        line.push(child);
        pos = child;
        value = child_value;
    }
    if !legal_moves(&pos).is_empty() {
        return Err(AnalysisError::Inconsistent(format!(
            "a position of value {} still has legal moves",
            Value::Loss(0)
        )));
    }
    Ok(line)
}

/// The first child of `pos`, in move order, that keeps the value `value` (a win or a loss), with
/// its own value.
fn best_child(
    pos: &Position,
    value: Value,
    oracle: &mut Oracle,
) -> Result<(Position, Value), AnalysisError> {
    let remaining = value.plies().unwrap_or(0).saturating_sub(1);
    for mv in sorted_moves(pos) {
        let child = pos.play(mv);
        if let Some(child_value) = oracle.value_within(&child, remaining)? {
            if Value::from_child(child_value) == value {
                return Ok((child, child_value));
            }
        }
    }
    Err(AnalysisError::Inconsistent(format!(
        "no move keeps the value {value} of the position"
    )))
}

/// The legal moves of `pos` in canonical order.
fn sorted_moves(pos: &Position) -> MoveList {
    let mut moves = legal_moves(pos);
    moves.sort_unstable();
    moves
}

/// The oracle's value of `pos`, or [`AnalysisError::Undecided`] naming it as `what`.
fn decided(oracle: &mut Oracle, pos: &Position, what: &str) -> Result<Value, AnalysisError> {
    oracle.value(pos)?.ok_or_else(|| AnalysisError::Undecided {
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
/// occurs for the third time. Returns the first fault found.
///
/// # Errors
/// Only when a value could not be decided: [`AnalysisError::Undecided`] for the first state, or
/// the oracle's own errors. A faulty line is a report, not an error.
pub fn check_line(states: &[Position], oracle: &mut Oracle) -> Result<LineReport, AnalysisError> {
    let Some(root) = states.first() else {
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
    let fault = first_fault(states, root_value, oracle)?;
    Ok(LineReport {
        root_value: Some(root_value),
        fault,
    })
}

/// The walk behind [`check_line`], given the value of the first state.
fn first_fault(
    states: &[Position],
    root_value: Value,
    oracle: &mut Oracle,
) -> Result<Option<Fault>, AnalysisError> {
    let fault = |index, kind| Ok(Some(Fault { index, kind }));
    let mut game = GameRecord::new(states[0], false);
    let mut value = root_value;
    for (index, &next) in states.iter().enumerate().skip(1) {
        if game.outcome().is_some() {
            return fault(index, FaultKind::AfterEnd);
        }
        let prev = game.current();
        if !legal_moves(&prev).iter().any(|&mv| prev.play(mv) == next) {
            return fault(index, FaultKind::Illegal);
        }
        let bound = value
            .plies()
            .map_or(oracle.limits().max_plies, |n| n.saturating_sub(1));
        value = match oracle.value_within(&next, bound)? {
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
        game.push(next);
    }
    match game.outcome() {
        Some(Outcome::Win(_) | Outcome::DrawByRepetition) => Ok(None),
        _ => fault(states.len() - 1, FaultKind::NotOver { value }),
    }
}
