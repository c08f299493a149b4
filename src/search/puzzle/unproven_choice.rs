//! The choice of a move the turn could not prove.
//!
//! The proofs are searched with the puzzle set at the horizon ([`Evaluator::Puzzle`]): it
//! orders them in fewer nodes than the trained tables (`docs/performance.md`), and it decides
//! how much of its budget a turn's proof search spends (its scale is the one of
//! [`budget::expected_winner`](super::budget::expected_winner)). When a turn ends without a
//! proof, the move it plays is a guess, which a stronger evaluation might make better: with the
//! trained tables as the solver's evaluation (the default; `checkers --eval puzzle` plays the
//! deepening's own move), they break the ties of the turn's own deepening. Its table, at its own depth, first names the moves that score
//! within `TIE_MARGIN` of its best (so none of them loses within that depth); a second
//! deepening, with the trained tables at its horizon, over those moves only (the turn's move
//! first, which keeps it on a tie), within what is left of the turn's node budget, chooses among
//! them. What earlier turns established still holds the move (the guard of
//! `proof` checks it first), and a game end either search sees is left to the
//! proofs.
//!
//! A first version let the trained deepening choose among all moves, with an empty table: it
//! saw less deep than the turn's own and played into losses the turn had seen (seeds 2611 and
//! 2612 of `docs/performance.md`); the tie break had fewer lines refuted than the puzzle set's
//! own move on fresh ones (`docs/notebook/random-boards.md`).
//!
//! The searches see positions, not the game: a repetition is no draw to them. So a side that
//! looks clearly ahead and cannot prove its win may walk its kings back and forth until the game
//! is drawn by threefold repetition (issue 23's random-20261127-058: red, three kings and two men
//! against two kings, scored +460 on the move that repeated the position a third time, while it
//! had a win in 17). Such a side does not play a move back into a position the game has seen
//! while another move keeps it clearly ahead (`PuzzleSearcher::avoid_repetition`).

use std::sync::Arc;

use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::eval::Evaluator;
use crate::search::knobs::{CHOICE_TT_MB, TIE_MARGIN};
use crate::search::score::Score;

use super::budget::expected_winner;
use super::limits::Features;
use super::searcher::PuzzleSearcher;
use super::thought::PuzzleThought;

impl PuzzleSearcher {
    /// Replaces the move of an unproven `thought` for `pos` by the trained tables' choice among
    /// the moves that score within [`TIE_MARGIN`] of it at the turn's depth, within the turn's
    /// node budget (all these nodes count as the turn's). Nothing changes when the evaluation is
    /// the puzzle set (the deepening already used it), when the move was proven or forced, when
    /// either search saw a game end (a value for the proofs, not a guess), or when the budget
    /// runs out before a choice. The thought's score and depth stay the turn's own: the move
    /// chosen is known not to lose within that depth, as the turn's own move was.
    pub(super) fn choose_unproven(
        &mut self,
        pos: &Position,
        thought: &mut PuzzleThought,
        max_depth: u32,
    ) {
        if thought.proven || matches!(self.evals.chooser, Evaluator::Puzzle) || thought.depth == 0 {
            return;
        }
        let Some(score) = thought.score.filter(|s| s.plies_to_end().is_none()) else {
            return;
        };
        let sorted = movegen::sorted_legal_moves(pos);
        let start = self.stats.nodes;
        self.begin_turn(self.turn.limits.nodes);
        let Some(mut ties) = self.moves_within(pos, &sorted, thought, score - Score(TIE_MARGIN))
        else {
            return;
        };
        if ties.len() < 2 {
            return;
        }
        if let Some(p) = ties.iter().position(|&m| m == thought.best) {
            ties[..=p].rotate_right(1);
        }
        let mut choice = PuzzleSearcher::with_features(
            CHOICE_TT_MB,
            Features {
                // The databases built are read, none is built.
                endgame_db: false,
                ..self.features
            },
        );
        choice.evals.horizon = self.evals.chooser.clone();
        choice.endgame.db = Arc::clone(&self.endgame.db);
        choice.turn.stop = self.turn.stop.clone();
        choice.turn.limits.deadline = self.turn.limits.deadline;
        let used = self.stats.nodes - start;
        choice.begin_turn(self.turn.limits.nodes.map(|n| n.saturating_sub(used)));
        let done = choice.deepen(pos, &ties, max_depth);
        self.stats.nodes += choice.stats.nodes;
        let Some(done) = done else {
            return;
        };
        if done.proven || done.score.is_none_or(|s| s.plies_to_end().is_some()) {
            return;
        }
        thought.best = done.best;
    }

    /// Keeps a side clearly ahead from playing back into a position of the game: when the
    /// unproven `thought`'s move, scored [`PROOF_GUESS_MARGIN`] ahead without a game end, leads
    /// to a position of `seen`, a deepening over the moves that do not, within the turn's node
    /// budget (its nodes count as the turn's), chooses among them; its move, score and depth
    /// replace the thought's when it keeps the side that far ahead (or finds a win). Nothing
    /// changes otherwise. The game passes the positions a move could repeat (its reversible
    /// tail), and none once it has [`AVOID_REPETITION_PLIES`] plies.
    ///
    /// [`PROOF_GUESS_MARGIN`]: super::budget::PROOF_GUESS_MARGIN
    pub(super) fn avoid_repetition(
        &mut self,
        pos: &Position,
        thought: &mut PuzzleThought,
        seen: &[Position],
        max_depth: u32,
    ) {
        if thought.proven
            || thought.depth == 0
            || thought.score.is_some_and(|s| s.plies_to_end().is_some())
            || expected_winner(thought.score) != Some(true)
            || !seen.contains(&pos.play(thought.best))
        {
            return;
        }
        let fresh: Vec<Move> = movegen::sorted_legal_moves(pos)
            .into_iter()
            .filter(|&mv| !seen.contains(&pos.play(mv)))
            .collect();
        if fresh.is_empty() {
            return;
        }
        self.begin_turn(self.turn.limits.nodes);
        let Some(done) = self.deepen(pos, &fresh, max_depth) else {
            return;
        };
        let Some(score) = done.score else {
            return;
        };
        // A win is scored far beyond the margin, a loss far below it.
        if expected_winner(Some(score)) == Some(true) {
            thought.best = done.best;
            thought.score = Some(score);
            thought.depth = done.depth;
        }
    }

    /// The moves of `sorted` (in that order) whose value at the turn's depth is at least
    /// `target`, by null-window tests on the turn's table; `thought.best` is among them without
    /// a test. `None` if the limits stopped the tests.
    fn moves_within(
        &mut self,
        pos: &Position,
        sorted: &[Move],
        thought: &PuzzleThought,
        target: Score,
    ) -> Option<Vec<Move>> {
        let depth = thought.depth as i32;
        let mut within = Vec::new();
        for &mv in sorted {
            if mv != thought.best {
                let child = pos.play(mv);
                // The move reaches `target` when the child's value is at most `-target`.
                let v = self.negamax(&child, depth - 1, 1, -target, -target + Score(1));
                if self.turn.aborted {
                    return None;
                }
                if v > -target {
                    continue;
                }
            }
            within.push(mv);
        }
        Some(within)
    }
}
