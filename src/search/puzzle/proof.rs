//! Proof search: is the side to move's value a game end within `n` plies?
//!
//! Full-window alpha-beta spends most of its work telling heuristic values apart, which a proof
//! does not need. Here each question is one null-window search at a mate bound: "a win in at most
//! `n` plies" (`n` odd: the winner makes the last move) or "a loss in at most `n`" (`n` even). The
//! winning side then needs a single good move at each of its turns, every line that cannot end
//! within the bound fails at once on the mate-distance bounds, and the transposition table keeps
//! what earlier bounds learnt. The bounds are asked in increasing order, so the first that holds
//! is the exact value: every shorter game end was ruled out by the bound before it.

use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::score::Score;

use super::searcher::PuzzleSearcher;
use super::thought::{bound_at, Known, Proof, PuzzleThought};

/// `sorted` (the legal moves in canonical order) with `first` moved to the front, the others
/// keeping their order: the order a proof asks its moves in when a move is expected to be best.
/// `sorted` as it is when `first` is not among them.
pub(super) fn first_then_rest(sorted: &[Move], first: Move) -> Vec<Move> {
    let mut order = sorted.to_vec();
    if let Some(p) = order.iter().position(|&mv| mv == first) {
        order[..=p].rotate_right(1);
    }
    order
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
                Some(true) => {
                    let winner = order.first().copied().filter(|_| n % 2 == 1);
                    return Proof::Exact(bound_at(n), winner);
                }
                Some(false) => {}
            }
        }
        Proof::NoEndWithin(max_depth)
    }

    /// Holds an unproven `thought` for `pos` to what earlier turns established (`known`), within
    /// the turn's `guard_nodes`:
    /// - a side known to win within `m` plies plays a move that wins within `m` (the bound's
    ///   null-window search finds one), then asks the shorter wins' bounds, and when they all
    ///   fail (or one holds) the value is exact and its canonical move is played, proven;
    /// - otherwise a side known not to lose within `b` plies plays the first of its deepening's
    ///   move and then the others in canonical order that does not lose within `b` either (a
    ///   null-window search at the loss bound). A side known to lose in exactly `l` is known
    ///   not to lose within `l - 1`, so a move that passes loses in exactly `l`: optimal.
    ///
    /// When the nodes run out first, the move is the one the turn chose (or the one the win's
    /// bound found), with what is known of it in `thought`.
    pub(super) fn guard(&mut self, pos: &Position, thought: &mut PuzzleThought, known: Known) {
        let mut win = known.win_within;
        let mut safe = known.safe_within.max(thought.no_end_within);
        let mut exact_win = false;
        let mut exact_loss = None;
        if let Some(exact) = known.exact {
            match exact.plies_to_end() {
                Some(d) if exact.is_win() => {
                    win = Some(d);
                    exact_win = true;
                }
                Some(l) => {
                    safe = safe.max(l.saturating_sub(1));
                    exact_loss = Some(l);
                }
                None => {}
            }
        }
        let budget = self.turn.limits.guard_nodes.unwrap_or(0);
        if budget == 0 {
            return;
        }
        let moves = movegen::sorted_legal_moves(pos);
        self.begin_turn(Some(budget));
        if let Some(m) = win {
            if thought.keeps_win.is_none_or(|k| k > m) {
                self.hold_win(pos, &moves, thought, m, exact_win);
            }
            return;
        }
        // Losses come at even plies: no loss within `safe` is no loss within its even part.
        let b = safe & !1;
        if b > thought.safe_within {
            self.keep_safe(pos, &moves, thought, b);
        }
        // A move that does not lose within `l - 2` where the loss in `l` is exact loses in
        // exactly `l`: its value is exact (not proven, for it may not be the canonical move).
        if let Some(l) = exact_loss.filter(|&l| l >= 2 && thought.safe_within >= l - 2) {
            thought.score = Some(Score::lost_at(l as usize));
            thought.no_end_within = l - 1;
        }
    }

    /// The move of `pos` (whose side to move wins within `m` plies) that keeps that win, and the
    /// exact value when it is settled within the nodes: the win bounds are asked in increasing
    /// order up to `m` (each one's table entries order the next, as in [`prove`](Self::prove)),
    /// so the first that holds is exact, and the one at `m` holds at the latest. With `exact`,
    /// the win in `m` is known to be exact, and only its bound is asked.
    fn hold_win(
        &mut self,
        pos: &Position,
        sorted: &[Move],
        thought: &mut PuzzleThought,
        m: u32,
        exact: bool,
    ) {
        let mut order = first_then_rest(sorted, thought.best);
        let from = if exact { m } else { thought.no_end_within + 1 };
        let value = match self.prove(pos, &mut order, from, m, Some(true)) {
            Proof::Exact(value, _) => value,
            Proof::NoEndWithin(n) => {
                thought.no_end_within = thought.no_end_within.max(n);
                return;
            }
        };
        let d = value.plies_to_end().unwrap_or(m);
        // The first bound that held is exact: play its move, and the canonical one when it is
        // confirmed within the nodes.
        thought.best = order[0];
        thought.score = Some(value);
        thought.keeps_win = Some(d);
        thought.depth = d;
        thought.no_end_within = d - 1;
        if let Some(canonical) = self.first_move_reaching(pos, sorted, value, d) {
            thought.best = canonical;
            thought.proven = true;
        }
    }

    /// The first move of `pos`, the turn's own then the others in canonical order, that does not
    /// lose within `b` plies (even), when one is found within the nodes.
    fn keep_safe(&mut self, pos: &Position, sorted: &[Move], thought: &mut PuzzleThought, b: u32) {
        let target = Score::lost_at(b as usize);
        let first = thought.best;
        let candidates =
            std::iter::once(first).chain(sorted.iter().copied().filter(|&mv| mv != first));
        for mv in candidates {
            let child = pos.play(mv);
            // The move loses within `b` when the child's side wins within `b - 1`.
            let v = -self.negamax(&child, b as i32 - 1, 1, -target - Score(1), -target);
            if self.turn.aborted {
                return;
            }
            if v > target {
                if mv != first {
                    thought.best = mv;
                    thought.score = Some(v);
                }
                thought.safe_within = b;
                return;
            }
        }
    }

    /// Whether the value of `pos` reaches [`bound_at`]`(n)` (a win within `n`) or stays at or
    /// below it (a loss within `n`), by a null-window alpha-beta search at the mate bound; `None`
    /// if the limits stopped the search. A move that proves a win, or refutes a loss, is moved to
    /// the front of `order` for the next bound. While the backward pass runs, df-pn races the
    /// alpha-beta proof on the question ([`race_bound`](Self::race_bound)).
    pub(super) fn bound_holds(
        &mut self,
        pos: &Position,
        order: &mut [Move],
        n: u32,
    ) -> Option<bool> {
        if self.helpers.race_dfpn {
            return self.race_bound(pos, order, n);
        }
        self.alphabeta_bound(pos, order, n)
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
