//! The backward pass over a won game's unproven moves (issue 23), and the search for the win a
//! game drawn by repetition gave away.
//!
//! A turn that could not prove its move plays a guess, and a later turn often proves the game's
//! end: the line's tail is then exact, and the guess before it can be checked against it. Once
//! the game is over, the pass walks the unproven moves from the end backwards. Every move after
//! the one checked is optimal (proven, forced, or checked before), so the game's end fixes the
//! exact value of that move: a win or a loss in as many plies as the line has left. A bounded
//! question of the proof search asks whether its side could do better:
//! - a win in `d`: is there a win within `d - 2`? The other moves' win bounds are asked upwards
//!   from what the move's turn proved (`PuzzleSearcher::prove`), so the first that holds is the
//!   shortest win and costs its own bound only; if none holds up to `d - 2`, the move is optimal;
//! - a loss in `d`: does every move lose within `d`? If so, the move is optimal; if not, the
//!   longer losses are asked upwards until one holds (exact: the move refuting the bound before
//!   it loses there), at most [`PROOF_REACH_PLIES`] further.
//!
//! A question first has half its nodes on one thread (the expected moves first); one that leaves
//! the move undecided is asked again of the other moves one at a time on both threads
//! (`PuzzleSearcher::prove_split`, whose result does not depend on the threads' timing), with as
//! many nodes again on each.
//!
//! Every bounded question of the pass ("a win within n?", "a loss within n?", in the turns it
//! plays again too) is asked of df-pn ([`dfpn`](super::dfpn)) on the second thread and of the
//! alpha-beta proof on this one at once, each with all the nodes the question has left; the first
//! to settle it stops the other at a node checkpoint (`proof_race`), so the result does
//! not depend on the threads' timing. df-pn proves a shorter win, or every move losing within a
//! bound, in far fewer nodes where alpha-beta spends tens of millions (random-1126-032's "a win
//! within 19": 18 thousand against 35 million), alpha-beta is the faster on others (038's "every
//! other move loses within 28"), and df-pn's table keeps what one question settled for the next.
//!
//! An optimal move sends the pass one move back. A better one replaces the move, and the game is
//! played again from it by the usual turns, with what the questions established (an exact value,
//! or a win or a loss bound) as the knowledge the turns keep; the pass then starts again from the
//! new line's end. A question the nodes or the deadline cut short leaves its move unchecked, and
//! the value of the move before it is then no longer the line's. For a move of the side that won
//! the line, the pass then asks at once for its shortest win within the line's, over all its
//! moves (`PuzzleSearcher::find_win`): a win found is exact and replaces the move (issue 23's
//! random-1126-009: black's win in 21 at its first move, where the line took 23 and an undecided
//! question lay between). For the other side's move, it asks the proof search for the exact value
//! of the position after that move (`PuzzleSearcher::exact_value`, bounds asked upwards to the
//! value the line gives it), and with it asks the move's question; when that proof fails too,
//! it goes one move further back (the position of a stopped question is not asked again: its
//! proof asks the same and more, with fewer nodes). `MAX_FAILURES` unchecked moves in a row end
//! the pass. The pass spends the nodes of
//! [`GameBudget::grant_repair`](super::budget::GameBudget::grant_repair), and only after a game
//! won under the puzzle rules without the time limit cutting a turn short.
//!
//! A game drawn by repetition where a side looked clearly ahead goes first through
//! `Driver::rescue_draw`: from the first unproven move on, each distinct position whose mover
//! looked a man and a half ahead is asked for that side's win a few plies beyond what its turn
//! reached. The first win found is played, the game is played again from it, and the won game
//! then goes through the backward pass above, with the same nodes.

use std::time::Instant;

use crate::rules::game::{Forfeit, Outcome};
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::score::{Score, MAX_PLY};

use super::budget::expected_winner;
use super::limits::Limits;
use super::play_out::Driver;
use super::proof::first_then_rest;
use super::searcher::PuzzleSearcher;
use super::thought::{bound_at, Proof, PuzzleThought};
use crate::search::knobs::{
    MAX_FAILURES, MAX_QUESTIONS, PROOF_REACH_PLIES, QUESTION_SHARE, SPLIT_THREADS,
};

/// The value of a position `plies` before one of value `value` (each seen from its own side to
/// move) along optimal moves.
fn value_before(value: Score, plies: usize) -> Score {
    let value = value.from_node(plies);
    if plies % 2 == 1 {
        -value
    } else {
        value
    }
}

/// The thought for `best`, which wins (`n` odd) or loses (`n` even) in exactly `n` plies;
/// `proven` when it is the canonical move of that value.
fn exact_thought(best: Move, n: u32, proven: bool) -> PuzzleThought {
    let score = bound_at(n);
    let win = score.is_win();
    PuzzleThought {
        no_end_within: n - 1,
        keeps_win: win.then_some(n),
        safe_within: if win { n } else { n - 1 },
        ..PuzzleThought::new(best, Some(score), n, proven)
    }
}

/// The thought for `best`, known only not to lose within `safe` plies. Not a value: a draw's
/// score keeps it from reading as a game end, and the move is not proven, so it never makes the
/// line a proven draw.
fn survivor_thought(best: Move, safe: u32) -> PuzzleThought {
    PuzzleThought {
        safe_within: safe,
        ..PuzzleThought::new(best, Some(Score::ZERO), safe, false)
    }
}

/// What one question established about a move whose exact value is known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Verdict {
    /// No move does better: the move is optimal.
    Optimal,
    /// The limits stopped the question.
    Undecided,
    /// A better move, with what is known of it (an exact value when `proven` or when its
    /// `no_end_within` says so; otherwise a win bound in `keeps_win` or a loss bound in
    /// `safe_within`).
    Better(PuzzleThought),
}

impl PuzzleSearcher {
    /// Whether the side to move in `pos` can do better than `value`, the exact value (a game
    /// end) of the move `played`, within `nodes` and `deadline`; `none_within`: plies within
    /// which the game is known not to end from `pos` (what its turn proved). The questions
    /// leave `played` out: its value is known, and proving it again (that it loses within the
    /// bound, above all) would cost as much as the rest.
    pub(super) fn improve(
        &mut self,
        pos: &Position,
        played: Move,
        value: Score,
        none_within: u32,
        nodes: u64,
        deadline: Instant,
    ) -> Verdict {
        let sorted = movegen::sorted_legal_moves(pos);
        let Some(d) = value.plies_to_end() else {
            return Verdict::Undecided;
        };
        let others: Vec<Move> = sorted.iter().copied().filter(|&m| m != played).collect();
        if others.is_empty() || (value.is_win() && d < 3) {
            return Verdict::Optimal;
        }
        if value.is_win() {
            return match self.shortest_win(
                pos,
                &sorted,
                others,
                none_within,
                d - 2,
                nodes,
                true,
                deadline,
            ) {
                Some(Some(thought)) => Verdict::Better(thought),
                Some(None) => Verdict::Optimal,
                None => Verdict::Undecided,
            };
        }
        // One thread first, with half the nodes: a better move, when there is one, is most
        // often found at once with the expected moves first.
        self.begin_question(nodes / 2, deadline);
        let verdict = self.longer_loss(pos, &sorted, others.clone(), d);
        if verdict != Verdict::Undecided {
            return verdict;
        }
        // The same question split over the other moves, on both threads, for as long again:
        // every other move losing within `d` makes the move played optimal.
        self.begin_question(nodes / 2, deadline);
        let budget = nodes / 2 * SPLIT_THREADS as u64;
        let (proof, bounds) = self.prove_split(pos, &others, 0, d, Some(false), budget);
        if matches!(proof, Proof::Exact(score, _) if !score.is_win()) {
            return Verdict::Optimal;
        }
        match bounds.survivor {
            Some((safe, best)) if safe >= d => Verdict::Better(survivor_thought(best, safe)),
            _ => Verdict::Undecided,
        }
    }

    /// The shortest win within `last` plies of the side to move in `pos` among the moves
    /// `order` (the most promising first), known not to win within `none_within`, within
    /// `nodes` and `deadline`: `Some(Some(thought))` for that win (exact, and proven when its
    /// canonical move is confirmed), `Some(None)` when none of them wins within `last`, `None`
    /// when the limits stopped the questions. The win bounds are asked upwards, so that the first
    /// that holds is the shortest win, found at the cost of its own bound rather than the
    /// deepest one. With `split`, one thread asks them with half the nodes, and when that is not
    /// enough they are split over the moves on both threads ([`prove_split`](Self::prove_split))
    /// with as many again on each; without it, one thread has all the nodes. (The split pays
    /// for the questions that must refute every move; a win is found sooner by one thread with
    /// the expected moves first: random-1126-009's win in 21 at black's first move, asked at
    /// once for lack of an anchor, was found by one thread with the whole share, and not by
    /// half of it and the split.)
    #[allow(clippy::too_many_arguments)]
    fn shortest_win(
        &mut self,
        pos: &Position,
        sorted: &[Move],
        mut order: Vec<Move>,
        none_within: u32,
        last: u32,
        nodes: u64,
        split: bool,
        deadline: Instant,
    ) -> Option<Option<PuzzleThought>> {
        let last = last.min(MAX_PLY as u32 - 2);
        self.begin_question(if split { nodes / 2 } else { nodes }, deadline);
        let reached = match self.prove(pos, &mut order, none_within + 1, last, Some(true)) {
            Proof::Exact(score, _) => {
                let w = score.plies_to_end()?;
                return Some(Some(self.exact(pos, sorted, order[0], w)));
            }
            Proof::NoEndWithin(n) if n >= last => return Some(None),
            Proof::NoEndWithin(n) if split => n.max(none_within),
            Proof::NoEndWithin(_) => return None,
        };
        self.begin_question(nodes / 2, deadline);
        let budget = nodes / 2 * SPLIT_THREADS as u64;
        // In canonical order, so that the split's win is the canonical move of its value.
        let moves: Vec<Move> = sorted
            .iter()
            .copied()
            .filter(|m| order.contains(m))
            .collect();
        let (proof, bounds) = self.prove_split(pos, &moves, reached, last, Some(true), budget);
        if let Proof::Exact(score, Some(best)) = proof {
            // The split's move is the canonical one of its value (its moves are in canonical
            // order).
            let w = score.plies_to_end().filter(|_| score.is_win())?;
            return Some(Some(exact_thought(best, w, true)));
        }
        if let Some((w, best)) = bounds.win {
            // A win within `w`, perhaps not the shortest.
            return Some(Some(PuzzleThought {
                keeps_win: Some(w),
                ..PuzzleThought::new(best, Some(Score::won_at(w as usize)), w, false)
            }));
        }
        (bounds.no_win >= last).then_some(None)
    }

    /// Starts a question of the pass: at most `nodes` nodes, and nothing past `deadline`.
    fn begin_question(&mut self, nodes: u64, deadline: Instant) {
        self.turn.limits = Limits {
            deadline: Some(deadline),
            ..Limits::default()
        };
        self.begin_turn(Some(nodes));
    }

    /// The exact value of `pos` (a game end) when it lies within `line`, the value the game's
    /// line gives it, with `first` (the line's move) tried first; `none_within`: plies within
    /// which the game is known not to end. `None` if it lies beyond the line's or the limits
    /// stop a question. The bounds of the line's kind are asked upwards, so the first that
    /// holds is exact, and a value much shorter than the line's costs its own bound only.
    pub(super) fn exact_value(
        &mut self,
        pos: &Position,
        first: Move,
        line: Score,
        none_within: u32,
        nodes: u64,
        deadline: Instant,
    ) -> Option<Score> {
        let n = line.plies_to_end()?;
        let mut order = first_then_rest(&movegen::sorted_legal_moves(pos), first);
        self.begin_question(nodes, deadline);
        match self.prove(pos, &mut order, none_within + 1, n, Some(line.is_win())) {
            Proof::Exact(score, _) => Some(score),
            Proof::NoEndWithin(_) => None,
        }
    }

    /// Whether the side to move in `pos`, known not to win within `none_within` plies, wins
    /// within `last`, with `first` tried first: [`shortest_win`](Self::shortest_win) over all
    /// its moves.
    pub(super) fn find_win(
        &mut self,
        pos: &Position,
        first: Move,
        none_within: u32,
        last: u32,
        nodes: u64,
        deadline: Instant,
    ) -> Option<Option<PuzzleThought>> {
        let sorted = movegen::sorted_legal_moves(pos);
        let order = first_then_rest(&sorted, first);
        self.shortest_win(
            pos,
            &sorted,
            order,
            none_within,
            last,
            nodes,
            false,
            deadline,
        )
    }

    /// The question for a move that loses in `d` plies.
    fn longer_loss(
        &mut self,
        pos: &Position,
        sorted: &[Move],
        mut order: Vec<Move>,
        d: u32,
    ) -> Verdict {
        match self.bound_holds(pos, &mut order, d) {
            None => return Verdict::Undecided,
            Some(true) => return Verdict::Optimal,
            Some(false) => {}
        }
        // `best` does not lose within `safe` plies.
        let mut best = order[0];
        let mut safe = d;
        let last = d.saturating_add(PROOF_REACH_PLIES).min(MAX_PLY as u32 - 2);
        while safe + 2 <= last {
            match self.bound_holds(pos, &mut order, safe + 2) {
                Some(true) => return Verdict::Better(self.exact(pos, sorted, best, safe + 2)),
                Some(false) => {
                    best = order[0];
                    safe += 2;
                }
                None => break,
            }
        }
        // The move is known only not to lose within `safe` plies.
        Verdict::Better(survivor_thought(best, safe))
    }

    /// The thought for `best`, which wins (`n` odd) or loses (`n` even) in exactly `n` plies:
    /// the canonical move of that value when the nodes left confirm it (proven), else `best`.
    fn exact(&mut self, pos: &Position, sorted: &[Move], best: Move, n: u32) -> PuzzleThought {
        let canonical = self.first_move_reaching(pos, sorted, bound_at(n), n);
        exact_thought(canonical.unwrap_or(best), n, canonical.is_some())
    }
}

impl Driver<'_> {
    /// The backward pass over the line that ended with `outcome`; the outcome of the line it
    /// leaves.
    pub(super) fn repair(&mut self, outcome: Outcome) -> Outcome {
        let mut outcome = outcome;
        if self.time_limited || self.turns.iter().all(|t| t.score.is_none() || t.proven) {
            return outcome;
        }
        self.searcher.helpers.race_dfpn = self.searcher.features.race;
        let granted = self.budget.grant_repair();
        let end = self.searcher.stats().wall_nodes().saturating_add(granted);
        if matches!(outcome, Outcome::Repetition) {
            if let Some(won) = self.rescue_draw(end) {
                outcome = won;
            }
        }
        // The moves before `below` are the ones left to check; `anchor`, when known, is a
        // position at or after `below` with its exact value, every move between them optimal.
        let mut below = self.turns.len();
        let mut anchor = Some((below, Score::lost_at(0)));
        // The question at `undecided` (the last one the limits stopped) and how many moves in a
        // row were left unchecked.
        let mut undecided = None;
        let mut failures = 0;
        for _ in 0..MAX_QUESTIONS {
            if !matches!(outcome, Outcome::Win { .. }) || self.time_limited || self.stop.is_set() {
                break;
            }
            let Some(ply) = (0..below)
                .rev()
                .find(|&p| self.turns[p].score.is_some() && !self.turns[p].proven)
            else {
                break;
            };
            let left = end.saturating_sub(self.searcher.stats().wall_nodes());
            if left == 0 || failures >= MAX_FAILURES {
                break;
            }
            let deadline = self.budget.soft_deadline();
            // No anchor, and the side to move won the line: its shortest win within the line's,
            // asked at once, needs no value of the position after (the line's shows only that
            // the mover wins there, however its opponent played since).
            let line = value_before(Score::lost_at(0), self.turns.len() - ply);
            if let (None, Some(d)) = (anchor, line.plies_to_end().filter(|_| line.is_win())) {
                let pos = self.game.positions()[ply];
                let turn = self.turns[ply];
                let win = self.searcher.find_win(
                    &pos,
                    turn.best,
                    turn.no_end_within,
                    d.saturating_sub(2),
                    left / QUESTION_SHARE,
                    deadline,
                );
                if let Some(Some(thought)) = win {
                    outcome = self.play_again_from(ply, thought);
                    below = self.turns.len();
                    anchor = Some((below, Score::lost_at(0)));
                    undecided = None;
                    failures = 0;
                    continue;
                }
                // No shorter win, or the limits stopped the question: the move stays unchecked
                // (and a stopped question's position is not asked again below).
                if win.is_none() {
                    undecided = Some(ply);
                }
                below = ply;
                failures += 1;
                continue;
            }
            // The exact value of the position after the move, from its own side: the anchor's
            // when every move since is optimal, else a proof search's, asked around the value
            // the line gives it.
            let after = match anchor {
                Some((at, value)) => Some(value_before(value, at - (ply + 1))),
                // The position the stopped question was asked in: a proof of its value asks
                // that question and more, with fewer nodes.
                None if undecided == Some(ply + 1) => None,
                None => {
                    let line = value_before(Score::lost_at(0), self.turns.len() - (ply + 1));
                    let pos = self.game.positions()[ply + 1];
                    let turn = self.turns[ply + 1];
                    self.searcher.exact_value(
                        &pos,
                        turn.best,
                        line,
                        turn.no_end_within,
                        left / QUESTION_SHARE,
                        deadline,
                    )
                }
            };
            let Some(after) = after else {
                below = ply;
                failures += 1;
                continue;
            };
            let value = value_before(after, 1);
            let left = end.saturating_sub(self.searcher.stats().wall_nodes());
            let pos = self.game.positions()[ply];
            let verdict = self.searcher.improve(
                &pos,
                self.turns[ply].best,
                value,
                self.turns[ply].no_end_within,
                left / QUESTION_SHARE,
                deadline,
            );
            match verdict {
                Verdict::Optimal => {
                    below = ply;
                    anchor = Some((ply, value));
                    failures = 0;
                }
                Verdict::Undecided => {
                    below = ply;
                    anchor = None;
                    undecided = Some(ply);
                    failures += 1;
                }
                Verdict::Better(thought) => {
                    outcome = self.play_again_from(ply, thought);
                    below = self.turns.len();
                    anchor = Some((below, Score::lost_at(0)));
                    undecided = None;
                    failures = 0;
                }
            }
        }
        // A question the soft deadline stopped before its nodes did leaves a line that depends
        // on the machine's speed.
        if self.budget.out_of_time() {
            self.time_limited = true;
        }
        self.searcher.helpers.race_dfpn = false;
        outcome
    }

    /// A game drawn by repetition where a side looked clearly ahead: from the first move on, each
    /// distinct position whose mover's search scored it [`PROOF_GUESS_MARGIN`] ahead without a
    /// proof is asked for that side's win within [`PROOF_REACH_PLIES`] beyond the bound its turn
    /// reached (`PuzzleSearcher::find_win`). The first win found replaces the move, and the game
    /// is played again from it (the outcome of the new line; the backward pass then checks it as
    /// any won game). `None` when no win was found within the nodes up to `end` or
    /// `MAX_FAILURES` questions stopped by the limits. (Issue 23's random-20261126-050: black,
    /// five men ahead, had a win in 21 and drew by repetition; no later turn of black's asked for
    /// its win. Asked from the end backwards, the first win found was a late one, and the line
    /// kept ten refuted moves before it; asked from the first move, black's win in 21 is found
    /// at once and the line is optimal.)
    ///
    /// The margin is the proof search's own (`expected_winner`), not the smaller one from which
    /// a side avoids repetitions while it plays ([`AHEAD_MARGIN`]): that rule costs a turn a
    /// deepening, and only when its move would repeat, where each question here may spend half
    /// the pass's nodes. Asked from half a man ahead, the opening's full boards p24 and p39,
    /// drawn by repetition, spent 37 M and 75 M more nodes on questions about 8 to 12 pieces a
    /// few tenths of a man ahead (`checkers bench`), none of which found a win.
    ///
    /// [`PROOF_GUESS_MARGIN`]: crate::search::knobs::PROOF_GUESS_MARGIN
    /// [`AHEAD_MARGIN`]: crate::search::knobs::AHEAD_MARGIN
    fn rescue_draw(&mut self, end: u64) -> Option<Outcome> {
        let mut asked: Vec<Position> = Vec::new();
        let mut failures = 0;
        for ply in 0..self.turns.len() {
            if failures >= MAX_FAILURES || self.stop.is_set() {
                return None;
            }
            let turn = self.turns[ply];
            if turn.proven || expected_winner(turn.score) != Some(true) {
                continue;
            }
            let pos = self.game.positions()[ply];
            if asked.contains(&pos) {
                continue;
            }
            asked.push(pos);
            let left = end.saturating_sub(self.searcher.stats().wall_nodes());
            if left == 0 {
                return None;
            }
            let deadline = self.budget.soft_deadline();
            match self.searcher.find_win(
                &pos,
                turn.best,
                turn.no_end_within,
                turn.no_end_within.saturating_add(PROOF_REACH_PLIES),
                left / QUESTION_SHARE,
                deadline,
            ) {
                Some(Some(thought)) => return Some(self.play_again_from(ply, thought)),
                Some(None) => {}
                None => failures += 1,
            }
        }
        None
    }

    /// The game played again from move `ply` with `thought`'s move instead, to its end: its
    /// outcome.
    fn play_again_from(&mut self, ply: usize, thought: PuzzleThought) -> Outcome {
        match self.replay_from(ply, thought) {
            Some(forfeit) => forfeit,
            None => self.play_out(),
        }
    }

    /// Takes the game back to before move `ply`, plays `thought`'s move instead, and sets what
    /// it establishes as the knowledge of the turns that follow; `Some` outcome only if the move
    /// could not be played (which the legal move generator rules out).
    fn replay_from(&mut self, ply: usize, thought: PuzzleThought) -> Option<Outcome> {
        while self.turns.len() > ply {
            self.turns.pop();
            self.game.undo();
        }
        let pos = *self.game.current();
        let side = pos.side_to_move() as usize;
        let exact = thought.score.filter(|score| {
            score
                .plies_to_end()
                .is_some_and(|d| thought.no_end_within + 1 >= d)
        });
        self.known = exact.map(|score| -score.to_node(1));
        self.win_within = [None; 2];
        self.safe_within = [0; 2];
        self.win_within[side] = thought.keeps_win.and_then(|w| w.checked_sub(2));
        self.safe_within[side] = thought.safe_within.saturating_sub(2);
        self.budget.record(side, &thought);
        if let Err(e) = self.game.play(thought.best) {
            return Some(Outcome::Forfeit {
                loser: pos.side_to_move(),
                why: Forfeit::Illegal(e.to_string()),
            });
        }
        self.turns.push(thought);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_before_alternate_sides_and_add_plies() {
        // The side that moved last won: the position before its move is a win in 1.
        assert_eq!(value_before(Score::lost_at(0), 1), Score::won_at(1));
        assert_eq!(value_before(Score::lost_at(0), 2), Score::lost_at(2));
        assert_eq!(value_before(Score::won_at(25), 1), Score::lost_at(26));
        assert_eq!(value_before(Score::lost_at(26), 3), Score::won_at(29));
        assert_eq!(value_before(Score::won_at(5), 0), Score::won_at(5));
    }
}
