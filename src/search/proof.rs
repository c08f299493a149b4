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

use super::alphabeta::{ProofEngine, Searcher};
use super::iterdeep::Thought;
use super::score::Score;

/// The hybrid engine's df-pn budget for a question: this many times the nodes the last question
/// of the same kind took (alpha-beta's cost grows three to five times every two plies, so a
/// question that df-pn cannot answer costs about half again what alpha-beta alone would).
const HYBRID_FACTOR: u64 = 2;

/// The least df-pn budget of a hybrid question.
const HYBRID_MIN: u64 = 1_000;

/// The share of a turn's proof nodes that each df-pn question of the upper-first engine may
/// take (one eighth); the whole df-pn phase takes at most half of them.
const UPPER_SHARE: u64 = 8;

/// How far beyond the least bound not ruled out the upper-first engine's first df-pn question
/// looks (plies).
const UPPER_REACH: u32 = 16;

/// The df-pn budget of the upper-first engine's shorter bounds: this many times the nodes of
/// the last bound that held, and at least [`UPPER_FAIL_MIN`].
const UPPER_FAIL_FACTOR: u64 = 4;

/// The least df-pn budget of a shorter bound of the upper-first engine.
const UPPER_FAIL_MIN: u64 = 1_000;

/// What the upper-first engine's phase ([`ProofEngine::UpperFirst`]) established about a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum UpperFirst {
    /// The exact value; after a win, its move is first in the order.
    Exact(Score),
    /// A game end within a bound (recorded in the thought), but not its exact distance: the
    /// turn's nodes ran out.
    Bounded,
    /// No bound proven within the phase's nodes: the ascending search follows as usual.
    Unknown,
}

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

impl Searcher {
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
        // The nodes the last question of each kind (by the parity of `n`) took.
        let mut last = [0u64; 2];
        for n in from.max(1)..=max_depth {
            if expect.is_some_and(|win| win != (n % 2 == 1)) {
                continue;
            }
            let before = self.stats.nodes;
            let answer = self.bound_holds(pos, order, n, last[(n % 2) as usize]);
            last[(n % 2) as usize] = self.stats.nodes - before;
            match answer {
                None => return Proof::NoEndWithin(n - 1),
                Some(true) => return Proof::Exact(bound_at(n)),
                Some(false) => {}
            }
        }
        Proof::NoEndWithin(max_depth)
    }

    /// Whether the value of `pos` reaches [`bound_at`]`(n)` (a win within `n`) or stays at or
    /// below it (a loss within `n`); `None` if the limits stopped the search. A move that proves
    /// a win, or refutes a loss, is moved to the front of `order` for the next bound. The engine
    /// is the one [`Features::proof`](super::Features::proof) names; `previous` is the nodes the
    /// last question of the same kind took (the hybrid's df-pn budget).
    fn bound_holds(
        &mut self,
        pos: &Position,
        order: &mut [Move],
        n: u32,
        previous: u64,
    ) -> Option<bool> {
        match self.features.proof {
            ProofEngine::AlphaBeta | ProofEngine::UpperFirst => self.alphabeta_holds(pos, order, n),
            ProofEngine::Dfpn => self.dfpn_holds(pos, order, n),
            ProofEngine::Hybrid => {
                let cap = previous.saturating_mul(HYBRID_FACTOR).max(HYBRID_MIN);
                let answer = self.capped_dfpn(pos, order, n, cap);
                if answer.is_some() {
                    return answer;
                }
                if self.stats.nodes >= self.stop_at || self.deadline_passed() {
                    // The turn's own limits stopped df-pn, not its cap.
                    self.aborted = true;
                    return None;
                }
                self.alphabeta_holds(pos, order, n)
            }
        }
    }

    /// The upper-first engine ([`ProofEngine::UpperFirst`]) on a turn whose searches ruled out
    /// every game end within `from - 1` plies, with the turn's limits already set: for each kind
    /// of game end `expect` allows (both when it is `None`), df-pn's shortest proven bound
    /// ([`upper_bound`](Self::upper_bound)), then alpha-beta's ascending bounds below it. When
    /// the nodes run out between the two, `thought` records the bound (and, for a win, plays
    /// the move that proved it).
    pub(super) fn prove_upper_first(
        &mut self,
        pos: &Position,
        order: &mut [Move],
        thought: &mut Thought,
        from: u32,
        max_depth: u32,
        expect: Option<bool>,
    ) -> UpperFirst {
        let budget = self.stop_at.saturating_sub(self.stats.nodes);
        let kinds: &[bool] = match expect {
            Some(true) => &[true],
            Some(false) => &[false],
            None => &[true, false],
        };
        let share = kinds.len() as u64;
        for &win in kinds {
            let cap = budget / UPPER_SHARE / share;
            let found = self.upper_bound(pos, order, from, max_depth, win, cap, budget / 2 / share);
            let Some((low, upper)) = found else {
                continue;
            };
            if low >= upper {
                return UpperFirst::Exact(bound_at(upper));
            }
            let proved = order[0];
            // The value is a game end of this kind within `upper` and none sooner than `low`:
            // only the bounds of the same kind between are left, and when all of them fail it
            // is `upper`.
            match self.prove(pos, order, low, upper - 2, Some(win)) {
                Proof::Exact(score) => return UpperFirst::Exact(score),
                // Every bound failed (none moved a move, so `proved` is still first).
                Proof::NoEndWithin(n) if n + 2 >= upper => {
                    return UpperFirst::Exact(bound_at(upper));
                }
                Proof::NoEndWithin(n) => {
                    thought.no_end_within = n.max(low - 1).max(thought.depth);
                    thought.end_within = Some(upper);
                    if win {
                        thought.best = proved;
                    }
                    return UpperFirst::Bounded;
                }
            }
        }
        UpperFirst::Unknown
    }

    /// The upper-first engine's df-pn phase ([`ProofEngine::UpperFirst`]): a game end of the kind
    /// `win` names (the mover's win at odd bounds, its loss at even ones) within a generous
    /// bound ([`UPPER_REACH`] plies beyond the least not ruled out, at most `max_depth`), then
    /// within two plies less while that holds. Each question gets at most `cap` nodes (a
    /// shorter one also at most [`UPPER_FAIL_FACTOR`] times the last that held), and no shorter
    /// bound is asked once the phase has spent `total`. `from`
    /// is the least bound not yet ruled out (no game end within `from - 1`).
    ///
    /// Returns `(low, high)`: no game end of the kind within `low - 2` (nor any other kind,
    /// since the value is of this one), and one within `high`; the value is exact when they
    /// meet. `None` if no bound held within the caps. A proven win's move is then first in
    /// `order`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn upper_bound(
        &mut self,
        pos: &Position,
        order: &mut [Move],
        from: u32,
        max_depth: u32,
        win: bool,
        cap: u64,
        total: u64,
    ) -> Option<(u32, u32)> {
        let of_kind = |n: u32| if (n % 2 == 1) == win { n } else { n + 1 };
        let mut low = of_kind(from.max(1));
        let top = of_kind(max_depth.checked_sub(1)?).min(low + UPPER_REACH);
        if top < low {
            return None;
        }
        let start = self.stats.nodes;
        if self.capped_dfpn(pos, order, top, cap) != Some(true) {
            return None;
        }
        let mut last = self.stats.nodes - start;
        let mut high = top;
        while low < high && self.stats.nodes - start < total {
            // A shorter bound that holds costs df-pn about what the last one did; one that
            // fails (a disproof, df-pn's weak side) is left to alpha-beta beyond a few times that.
            let before = self.stats.nodes;
            let limit = cap.min(last.saturating_mul(UPPER_FAIL_FACTOR).max(UPPER_FAIL_MIN));
            match self.capped_dfpn(pos, order, high - 2, limit) {
                Some(true) => {
                    high -= 2;
                    last = self.stats.nodes - before;
                }
                Some(false) => low = high,
                None => break,
            }
        }
        Some((low, high))
    }

    /// [`dfpn_holds`](Self::dfpn_holds) within at most `cap` more nodes; an unanswered question
    /// leaves the searcher ready for the next one (its nodes still count).
    fn capped_dfpn(
        &mut self,
        pos: &Position,
        order: &mut [Move],
        n: u32,
        cap: u64,
    ) -> Option<bool> {
        let outer = self.stop_at;
        self.stop_at = outer.min(self.stats.nodes.saturating_add(cap));
        let answer = self.dfpn_holds(pos, order, n);
        self.stop_at = outer;
        if answer.is_none() {
            self.aborted = false;
        }
        answer
    }

    /// [`bound_holds`](Self::bound_holds) by df-pn, which moves a winning move to the front.
    fn dfpn_holds(&mut self, pos: &Position, order: &mut [Move], n: u32) -> Option<bool> {
        let (holds, winning) = self.dfpn_bound(pos, n)?;
        if let Some(i) = winning.and_then(|mv| order.iter().position(|&m| m == mv)) {
            order[..=i].rotate_right(1);
        }
        Some(holds)
    }

    /// [`bound_holds`](Self::bound_holds) by null-window alpha-beta.
    fn alphabeta_holds(&mut self, pos: &Position, order: &mut [Move], n: u32) -> Option<bool> {
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
