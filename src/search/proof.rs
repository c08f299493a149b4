//! Proof search: is the side to move's value a game end within `n` plies?
//!
//! Full-window alpha-beta spends most of its work telling heuristic values apart, which a proof
//! does not need. Here each question is one null-window search at a mate bound: "a win in at most
//! `n` plies" (`n` odd: the winner makes the last move) or "a loss in at most `n`" (`n` even). The
//! winning side then needs a single good move at each of its turns, every line that cannot end
//! within the bound fails at once on the mate-distance bounds, and the transposition table keeps
//! what earlier bounds learnt. The bounds are asked in increasing order, so the first that holds
//! is the exact value: every shorter game end was ruled out by the bound before it.

use crate::rules::moves::Move;
use crate::rules::position::Position;

use super::alphabeta::PuzzleSearcher;
use super::score::Score;

/// What a proof search established about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The exact value (a game end), found within the budget.
    Exact(Score),
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

impl PuzzleSearcher {
    /// Asks the bounds `from`, `from + 1`, ... up to `max_depth` plies for `pos`, whose value is
    /// known to be no game end within `from - 1` plies, until one holds or the turn's limits stop
    /// the search. `order` holds the legal moves, the most promising first; after a proven win
    /// its first move is the one that wins.
    ///
    /// With `expect` set, only the bounds of that kind are asked (wins when true): half the
    /// searches, and still exact, because a win within `n` after none within `n - 2` is a win in
    /// exactly `n` whatever the losses (and the same for losses). A wrong guess proves nothing.
    pub(super) fn prove(
        &mut self,
        pos: &Position,
        order: &mut [Move],
        from: u32,
        max_depth: u32,
        expect: Option<bool>,
    ) -> Proof {
        for n in from.max(1)..=max_depth {
            if expect.is_some_and(|win| win != (n % 2 == 1)) {
                continue;
            }
            match self.bound_holds(pos, order, n) {
                None => return Proof::NoEndWithin(n - 1),
                Some(true) => return Proof::Exact(bound_at(n)),
                Some(false) => {}
            }
        }
        Proof::NoEndWithin(max_depth)
    }

    /// Whether the value of `pos` reaches [`bound_at`]`(n)` (a win within `n`) or stays at or
    /// below it (a loss within `n`), by a null-window alpha-beta search at the mate bound; `None`
    /// if the limits stopped the search. A move that proves a win, or refutes a loss, is moved to
    /// the front of `order` for the next bound.
    fn bound_holds(&mut self, pos: &Position, order: &mut [Move], n: u32) -> Option<bool> {
        let target = bound_at(n);
        let win = n % 2 == 1;
        let depth = n as i32 - 1;
        for i in 0..order.len() {
            let child = pos.play(order[i]);
            // From the child's side: a win for us is a loss for it at most -target, and a loss
            // for us means every child is at least -target.
            let v = if win {
                -self.negamax(&child, depth, 1, -target, -target + Score(1))
            } else {
                -self.negamax(&child, depth, 1, -target - Score(1), -target)
            };
            if self.aborted {
                return None;
            }
            let decisive = if win { v >= target } else { v > target };
            if decisive {
                order[..=i].rotate_right(1);
                return Some(win);
            }
        }
        Some(!win)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_alternate_between_wins_and_losses() {
        assert_eq!(bound_at(1), Score::won_at(1));
        assert_eq!(bound_at(2), Score::lost_at(2));
        assert_eq!(bound_at(13), Score::won_at(13));
        assert!(bound_at(13).is_win());
        assert!(!bound_at(22).is_win());
    }
}
