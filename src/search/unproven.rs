//! The choice of a move the turn could not prove.
//!
//! The proofs are searched with the puzzle set at the horizon ([`Evaluator::Puzzle`]): it
//! orders them in fewer nodes than the trained tables (`docs/performance.md`), and it decides
//! how much of its budget a turn's proof search spends (its scale is the one of
//! [`budget::expected_winner`](super::budget::expected_winner)). When a turn ends without a
//! proof, the move it plays is a guess, which a stronger evaluation might make better: with the
//! trained tables as the solver's evaluation (`checkers --eval trained`), a second deepening,
//! with them at its horizon, its own table and the turn's node budget, chooses it. What earlier
//! turns established still holds the move (the guard of [`proof`](super::proof) checks it
//! first), and a game end either search sees is left to the proofs. On seeded random boards it
//! measured no better than the deepening's own move (`docs/performance.md`), so the puzzle set
//! stays the default.

use std::sync::Arc;

use crate::rules::movegen;
use crate::rules::position::Position;

use super::alphabeta::{Features, PuzzleSearcher};
use super::eval::Evaluator;
use super::iterdeep::PuzzleThought;

/// Most table memory of the choosing search, in MiB (the table starts small and grows).
const CHOICE_TT_MB: usize = 64;

impl PuzzleSearcher {
    /// Replaces the move of an unproven `thought` for `pos` by the choice of a deepening with the
    /// solver's evaluation ([`set_evaluator`](Self::set_evaluator)) at its horizon, up to
    /// `max_depth` plies, within the turn's node budget (its nodes count as the turn's). Nothing
    /// changes when the evaluation is the puzzle set (the deepening already used it), when the
    /// move was proven or forced, or when either search saw a game end (a value for the proofs,
    /// not a guess). The move's score and depth become the choosing search's: the move is then
    /// known not to lose within that depth, as the turn's own move was within its own.
    pub(super) fn choose_unproven(
        &mut self,
        pos: &Position,
        thought: &mut PuzzleThought,
        max_depth: u32,
    ) {
        if thought.proven
            || matches!(self.chooser, Evaluator::Puzzle)
            || thought.score.is_none_or(|s| s.plies_to_end().is_some())
        {
            return;
        }
        let mut sorted = movegen::legal_moves(pos);
        sorted.sort();
        let mut choice = PuzzleSearcher::with_features(
            CHOICE_TT_MB,
            Features {
                // The databases built are read, none is built.
                endgame_db: false,
                ..self.features
            },
        );
        choice.horizon = self.chooser.clone();
        choice.endgame = Arc::clone(&self.endgame);
        choice.stop = self.stop.clone();
        choice.limits.deadline = self.limits.deadline;
        choice.begin_turn(self.limits.nodes);
        let done = choice.deepen(pos, &sorted, max_depth);
        self.stats.nodes += choice.stats.nodes;
        let Some(done) = done else {
            return;
        };
        if done.proven || done.score.is_none_or(|s| s.plies_to_end().is_some()) {
            return;
        }
        thought.best = done.best;
        thought.score = done.score;
        thought.depth = done.depth;
    }
}
