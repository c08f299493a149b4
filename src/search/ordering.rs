//! Move ordering: the table move first, then captures (more pieces first), killer moves, and the
//! history heuristic. Good ordering makes alpha-beta cut early; it never changes the result.

use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::Color;

use super::score::MAX_PLY;

/// Ordering key of the table's move.
const TT_MOVE: u32 = u32::MAX;
/// Base key of captures; more pieces taken rank higher.
const CAPTURE: u32 = 3_000_000;
/// Keys of the two killer moves of a ply.
const KILLER: [u32; 2] = [2_000_000, 1_900_000];
/// History scores are capped below the killers.
const HISTORY_CAP: u32 = 1_000_000;

/// Killer moves per ply and history scores per side and (from, to).
pub struct MoveOrderer {
    killers: Vec<[Option<Move>; 2]>,
    history: Box<[[[u32; 64]; 64]; 2]>,
}

impl Default for MoveOrderer {
    fn default() -> Self {
        MoveOrderer {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 64]; 64]; 2]),
        }
    }
}

impl MoveOrderer {
    /// Forgets the killers and ages the history: called at the start of every turn.
    pub fn new_turn(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        for side in self.history.iter_mut() {
            for row in side.iter_mut() {
                for h in row.iter_mut() {
                    *h /= 8;
                }
            }
        }
    }

    /// Ordering keys for `moves` at `ply`, the table's move (an index into `moves`) first.
    pub fn keys(&self, moves: &MoveList, tt_move: Option<u8>, ply: usize, side: Color) -> Keys {
        let mut keys = Keys::default();
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        for (i, &mv) in moves.iter().enumerate() {
            let key = if tt_move.is_some_and(|t| usize::from(t) == i) {
                TT_MOVE
            } else if mv.is_capture() {
                CAPTURE + 1000 * mv.captured().count()
            } else if killers[0] == Some(mv) {
                KILLER[0]
            } else if killers[1] == Some(mv) {
                KILLER[1]
            } else {
                self.history[side as usize][mv.from().index()][mv.to().index()]
            };
            keys.push(key);
        }
        keys
    }

    /// Whether `mv` is one of the two killer moves of `ply`.
    #[must_use]
    pub fn is_killer(&self, mv: Move, ply: usize) -> bool {
        self.killers.get(ply).is_some_and(|k| k.contains(&Some(mv)))
    }

    /// Forgets the killers and the history (a new game).
    pub fn clear(&mut self) {
        *self = MoveOrderer::default();
    }

    /// Records that the quiet move `mv` refuted a position at `ply` searched to `depth`.
    pub fn record_cutoff(&mut self, mv: Move, ply: usize, depth: i32, side: Color) {
        if mv.is_capture() {
            return;
        }
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        let h = &mut self.history[side as usize][mv.from().index()][mv.to().index()];
        let bonus = (depth.max(1) as u32).saturating_mul(depth.max(1) as u32);
        *h = (*h + bonus).min(HISTORY_CAP - 1);
    }
}

/// Ordering keys of a move list, consumed best first. A key is stored plus one, so that zero can
/// mark a move already taken.
#[derive(Default)]
pub struct Keys(smallvec::SmallVec<[u64; 48]>);

impl Keys {
    /// Keys that hand out `n` moves in list (generation) order: no ordering at all.
    #[must_use]
    pub fn unordered(n: usize) -> Keys {
        Keys((0..n as u64).rev().map(|k| k + 1).collect())
    }

    fn push(&mut self, key: u32) {
        self.0.push(u64::from(key) + 1);
    }

    /// Index of the best remaining move (ties: the earliest index), marking it as taken.
    pub fn next_best(&mut self) -> Option<usize> {
        let mut best: Option<(usize, u64)> = None;
        for (i, &k) in self.0.iter().enumerate() {
            if k != 0 && best.is_none_or(|(_, bk)| k > bk) {
                best = Some((i, k));
            }
        }
        let (i, _) = best?;
        self.0[i] = 0;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_out_best_first_ties_in_list_order() {
        let mut keys = Keys::default();
        for k in [5, 0, 9, 5, u32::MAX] {
            keys.push(k);
        }
        let order: Vec<usize> = std::iter::from_fn(|| keys.next_best()).collect();
        assert_eq!(order, vec![4, 2, 0, 3, 1]);
    }
}
