//! Retrograde analysis: exact values for every position reachable from a root.
//!
//! Two plain passes over an explicit graph, nothing else:
//! 1. forward: enumerate every reachable position with the analyser's own move generator
//!    ([`Board::successors`]), numbering each distinct position once and recording its
//!    successors;
//! 2. backward: start from the positions with no legal move (lost for the side to move) and
//!    propagate values to predecessors in order of increasing distance, with a counter of
//!    not-yet-lost successors per position.
//!
//! Positions never reached by the propagation are draws: neither side can force the game to end.

use std::collections::hash_map::Entry;
use std::sync::atomic::{AtomicBool, Ordering};

use rustc_hash::FxHashMap;

use super::rules::Board;
use super::{AnalysisError, Value};
use crate::rules::position::Position;

/// Largest number of positions [`solve_reachable`] accepts by default: a few million positions
/// take a few hundred megabytes and a few seconds.
pub const DEFAULT_MAX_POSITIONS: usize = 4_000_000;

/// Exact values of every position reachable from one root, built by [`solve_reachable`].
#[derive(Debug, Clone)]
pub struct Table {
    index: FxHashMap<Board, u32>,
    values: Vec<Value>,
}

impl Table {
    /// The exact value of `pos` for its side to move, or `None` when `pos` is not reachable from
    /// the root this table was built for.
    #[must_use]
    pub fn value(&self, pos: &Position) -> Option<Value> {
        self.board_value(&Board::from_position(pos))
    }

    /// The exact value of `board`, as [`Table::value`].
    #[must_use]
    pub fn board_value(&self, board: &Board) -> Option<Value> {
        let &i = self.index.get(board)?;
        self.values.get(i as usize).copied()
    }

    /// Number of positions in the table.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Every position in the table with its value, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (Position, Value)> + '_ {
        self.index
            .iter()
            .filter_map(|(board, &i)| Some((board.to_position(), *self.values.get(i as usize)?)))
    }

    /// Whether the table holds no position (never true for a table built from a root).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// The reachable game graph: positions numbered in discovery order, successors as index lists.
struct Graph {
    index: FxHashMap<Board, u32>,
    /// Successors of position `i` are `succ[first[i]..first[i + 1]]`.
    first: Vec<usize>,
    succ: Vec<u32>,
}

impl Graph {
    fn len(&self) -> usize {
        self.first.len() - 1
    }

    fn successors(&self, i: usize) -> &[u32] {
        &self.succ[self.first[i]..self.first[i + 1]]
    }
}

/// Retrograde analysis of every position reachable from `root` (forward enumeration with
/// [`Board::successors`], then backward propagation from terminal positions with successor counters).
///
/// # Errors
/// [`AnalysisError::TooLarge`] as soon as more than `max_positions` positions are reachable
/// (checked during the enumeration, so a graph that does not fit costs at most that much work),
/// so the caller can fall back to a bounded search.
pub fn solve_reachable(root: &Position, max_positions: usize) -> Result<Table, AnalysisError> {
    solve_reachable_board(Board::from_position(root), max_positions)
}

/// [`solve_reachable`] from the analyser's own board.
pub(super) fn solve_reachable_board(
    root: Board,
    max_positions: usize,
) -> Result<Table, AnalysisError> {
    solve_reachable_until(root, max_positions, None)
}

/// [`solve_reachable_board`] that also ends with [`AnalysisError::Stopped`] soon after `stop` is
/// set.
pub(super) fn solve_reachable_until(
    root: Board,
    max_positions: usize,
    stop: Option<&AtomicBool>,
) -> Result<Table, AnalysisError> {
    let graph = enumerate(root, max_positions, stop)?;
    let values = propagate(&graph);
    Ok(Table {
        index: graph.index,
        values,
    })
}

/// Breadth-first enumeration of the positions reachable from `root`.
///
/// `states` doubles as the queue: position `i` is expanded when the loop reaches it, so when the
/// loop ends every position has been expanded exactly once.
fn enumerate(
    root: Board,
    max_positions: usize,
    stop: Option<&AtomicBool>,
) -> Result<Graph, AnalysisError> {
    let too_large = AnalysisError::TooLarge {
        limit: max_positions,
    };
    if max_positions == 0 {
        return Err(too_large);
    }
    let mut index = FxHashMap::default();
    let mut states = vec![root];
    index.insert(root, 0u32);
    let mut first = vec![0usize];
    let mut succ = Vec::new();
    let mut next = 0;
    while let Some(&board) = states.get(next) {
        if next % 4096 == 0 && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(AnalysisError::Stopped);
        }
        for child in board.successors() {
            let id = match index.entry(child) {
                Entry::Occupied(known) => *known.get(),
                Entry::Vacant(new) => {
                    if states.len() >= max_positions {
                        return Err(too_large);
                    }
                    let id = u32::try_from(states.len()).map_err(|_| too_large.clone())?;
                    new.insert(id);
                    states.push(child);
                    id
                }
            };
            succ.push(id);
        }
        first.push(succ.len());
        next += 1;
    }
    Ok(Graph { index, first, succ })
}

/// Predecessor lists of every position, in the same compressed layout as the successors.
/// A parent appears once per edge, matching the successor counters.
fn predecessors(graph: &Graph) -> (Vec<usize>, Vec<u32>) {
    let n = graph.len();
    let mut first = vec![0usize; n + 1];
    for &c in &graph.succ {
        first[c as usize + 1] += 1;
    }
    for i in 0..n {
        first[i + 1] += first[i];
    }
    let mut fill = first.clone();
    let mut pred = vec![0u32; graph.succ.len()];
    for p in 0..n {
        for &c in graph.successors(p) {
            pred[fill[c as usize]] = p as u32;
            fill[c as usize] += 1;
        }
    }
    (first, pred)
}

/// Backward propagation from the terminal positions.
///
/// Positions are settled in order of increasing distance (the queue is first in, first out and
/// every value pushed is one more than the value being processed), which is what makes the
/// values exact:
/// - a position with a lost successor is won, and the first lost successor settled is a nearest
///   one, so `Win(n + 1)` is the fastest win;
/// - a position is lost once its last successor is settled as a win for the opponent, and that
///   last one is the farthest, so `Loss(n + 1)` is the longest resistance.
///
/// Unsettled positions stay [`Value::Draw`].
fn propagate(graph: &Graph) -> Vec<Value> {
    let n = graph.len();
    let (pred_first, pred) = predecessors(graph);
    // Indices and move counts fit in u32: `enumerate` numbers positions with `u32::try_from`.
    let mut values = vec![Value::Draw; n];
    // Successors not yet known to be won for the opponent.
    let mut open: Vec<u32> = (0..n)
        .map(|i| (graph.first[i + 1] - graph.first[i]) as u32)
        .collect();
    let mut queue: Vec<u32> = Vec::new();
    for i in 0..n {
        if open[i] == 0 {
            values[i] = Value::Loss(0);
            queue.push(i as u32);
        }
    }
    let mut head = 0;
    while let Some(&c) = queue.get(head) {
        head += 1;
        let c = c as usize;
        let child = values[c];
        for &p in &pred[pred_first[c]..pred_first[c + 1]] {
            let p = p as usize;
            if values[p] != Value::Draw {
                continue;
            }
            let settled = match child {
                Value::Loss(_) => true,
                _ => {
                    open[p] -= 1;
                    open[p] == 0
                }
            };
            if settled {
                values[p] = Value::from_child(child);
                queue.push(p as u32);
            }
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_boards::{board, DOUBLE_CORNERS};

    #[test]
    fn lone_kings_in_double_corners_draw() {
        let pos = board(DOUBLE_CORNERS);
        let table = solve_reachable(&pos, 100_000).expect("small");
        assert_eq!(table.value(&pos), Some(Value::Draw));
        assert!(table.len() > 100);
    }

    #[test]
    fn no_move_is_loss_zero() {
        // Red man blocked on its crowning row, nothing else to move.
        let pos = board(
            ".r......\n........\n........\n........\n........\n........\n........\n.......b\n",
        );
        let table = solve_reachable(&pos, 10).expect("tiny");
        assert_eq!(table.value(&pos), Some(Value::Loss(0)));
        assert_eq!(table.len(), 1);
    }

    #[test]
    fn limit_is_enforced() {
        let pos = board(DOUBLE_CORNERS);
        assert_eq!(
            solve_reachable(&pos, 50).unwrap_err(),
            AnalysisError::TooLarge { limit: 50 }
        );
        assert!(solve_reachable(&pos, 0).is_err());
    }
}
