//! Bounded proofs: "can the side to move force a win within n plies?" by plain AND/OR search.
//!
//! For positions whose reachable graph is too large to enumerate, the exact value of a short
//! win or loss is still found by exhaustive search of the game tree to a bounded depth:
//! - `wins_within(p, n)`: some move leads to a position that `loses_within(.., n - 1)`;
//! - `loses_within(p, n)`: there is no legal move, or every move leads to a position that
//!   `wins_within(.., n - 1)`.
//!
//! Asking for n = 0, 1, 2, ... in turn, the first `n` that succeeds is the exact distance. The
//! only shortcut is remembering answers per position (see [`Known`]); there is no evaluation and
//! no pruning beyond the logic of "some" and "every".

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::rules::Board;
use super::{AnalysisError, Value};
use crate::rules::position::Position;

/// Exact values given from outside the analyser, for positions of a few pieces (the endgame
/// databases, as `verify --egdb` asks): an option, so that the analyser depends on nothing of the
/// engine's unless a caller supplies it.
pub trait KnownValues: Send + Sync + std::fmt::Debug {
    /// Most pieces of a position whose value may be known; only those are asked.
    fn max_pieces(&self) -> u32;

    /// The exact value of `pos` for its side to move, when known.
    fn value(&self, pos: &Position) -> Option<Value>;
}

/// Default bound on the length of the games the prover looks for.
pub const DEFAULT_MAX_PLIES: u32 = 40;

/// Default number of positions one [`BoundedProver::value`] call may expand.
pub const DEFAULT_NODE_BUDGET: u64 = 20_000_000;

/// Deepest bound accepted: the search recurses once per ply, and a bound far beyond any search
/// that fits the node budget only risks the stack.
pub const MAX_PROVER_PLIES: u32 = 200;

/// What is known about a yes/no question "within n plies" that is monotone in n (a win within
/// n plies is also a win within n + 1): the answer is no for every n below `no_below` and yes for
/// every n from `yes_from` on. Between the two nothing is known yet.
#[derive(Clone, Copy, Debug)]
struct Known {
    no_below: u32,
    yes_from: u32,
}

impl Known {
    const NOTHING: Known = Known {
        no_below: 0,
        yes_from: u32::MAX,
    };

    /// The answer for `n`, if already known.
    fn answer(self, n: u32) -> Option<bool> {
        if n >= self.yes_from {
            Some(true)
        } else if n < self.no_below {
            Some(false)
        } else {
            None
        }
    }

    /// Records the answer for `n`.
    fn record(&mut self, n: u32, yes: bool) {
        if yes {
            self.yes_from = self.yes_from.min(n);
        } else {
            self.no_below = self.no_below.max(n.saturating_add(1));
        }
    }
}

/// The two questions asked about a position, each with what is known about it.
#[derive(Clone, Copy, Debug)]
struct Facts {
    win: Known,
    loss: Known,
}

/// Which of the two questions.
#[derive(Clone, Copy, Debug)]
enum Question {
    /// Can the side to move force a win within n plies?
    Win,
    /// Must the side to move lose within n plies, whatever it plays?
    Loss,
}

/// Exhaustive bounded proof for positions whose reachable graph is too large: plain recursive
/// AND/OR search "can the side to move force a win within n plies", remembered per position,
/// iterated n = 0, 1, 2, ... up to a bound to get the exact `Win(n)` / `Loss(n)`.
///
/// What is remembered is true of the position itself, not of the root it was reached from, so
/// one prover can answer many questions and later ones reuse the work of earlier ones.
#[derive(Debug)]
pub struct BoundedProver {
    memo: FxHashMap<Board, Facts>,
    budget: u64,
    expanded: u64,
    /// Set from another thread to stop the search at its next expansion.
    stop: Option<Arc<AtomicBool>>,
    /// Most positions remembered: a search that would remember more runs out of budget.
    memo_cap: usize,
    /// Exact values that answer both questions at positions of a few pieces (an option).
    known: Option<Arc<dyn KnownValues>>,
}

impl Default for BoundedProver {
    fn default() -> Self {
        BoundedProver::new(DEFAULT_NODE_BUDGET)
    }
}

impl BoundedProver {
    /// A prover that expands at most `node_budget` positions per [`BoundedProver::value`] call.
    #[must_use]
    pub fn new(node_budget: u64) -> BoundedProver {
        BoundedProver {
            memo: FxHashMap::default(),
            budget: node_budget,
            expanded: 0,
            stop: None,
            memo_cap: usize::MAX,
            known: None,
        }
    }

    /// Caps the positions remembered: a search that would remember more ends with
    /// [`AnalysisError::BudgetExhausted`], and [`BoundedProver::clear`] makes room again.
    pub fn set_memo_cap(&mut self, cap: usize) {
        self.memo_cap = cap;
    }

    /// Lets `known` answer the questions at positions of at most its
    /// [`KnownValues::max_pieces`] pieces, where it knows the value.
    pub fn set_known_values(&mut self, known: Option<Arc<dyn KnownValues>>) {
        self.known = known;
    }

    /// The exact value of `pos` given from outside, if any.
    fn database_value(&self, pos: &Board) -> Option<Value> {
        let known = self.known.as_ref()?;
        let (a, b, c, d) = pos.material();
        if a + b + c + d > known.max_pieces() {
            return None;
        }
        known.value(&pos.to_position())
    }

    /// A flag another thread may set to stop every later search at its next expansion, with
    /// [`AnalysisError::Stopped`]; what was learnt before is kept.
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// Positions expanded by the last call (including one that ran out of budget or stopped).
    #[must_use]
    pub fn expanded(&self) -> u64 {
        self.expanded
    }

    /// One bounded question: can the side to move of `pos` force a win within `n` plies?
    /// Answers are exact; what is learnt is remembered for later questions.
    ///
    /// # Errors
    /// As [`BoundedProver::value`], and [`AnalysisError::Stopped`] when the stop flag is set.
    pub fn board_wins_within(&mut self, pos: &Board, n: u32) -> Result<bool, AnalysisError> {
        Self::check_bound(n)?;
        self.expanded = 0;
        self.wins_within(pos, n)
    }

    /// One bounded question: must the side to move of `pos` lose within `n` plies, whatever it
    /// plays? As [`BoundedProver::board_wins_within`].
    ///
    /// # Errors
    /// As [`BoundedProver::board_wins_within`].
    pub fn board_loses_within(&mut self, pos: &Board, n: u32) -> Result<bool, AnalysisError> {
        Self::check_bound(n)?;
        self.expanded = 0;
        self.loses_within(pos, n)
    }

    /// [`AnalysisError::BoundTooDeep`] beyond [`MAX_PROVER_PLIES`].
    fn check_bound(n: u32) -> Result<(), AnalysisError> {
        if n > MAX_PROVER_PLIES {
            return Err(AnalysisError::BoundTooDeep {
                requested: n,
                max: MAX_PROVER_PLIES,
            });
        }
        Ok(())
    }

    /// The exact value of `pos` when the game ends within `max_plies` plies with perfect play;
    /// `Ok(None)` when it does not (a draw, or a longer game).
    ///
    /// # Errors
    /// [`AnalysisError::BudgetExhausted`] when the proof needs more than the node budget, and
    /// [`AnalysisError::BoundTooDeep`] when `max_plies` exceeds [`MAX_PROVER_PLIES`].
    pub fn value(
        &mut self,
        pos: &Position,
        max_plies: u32,
    ) -> Result<Option<Value>, AnalysisError> {
        self.board_value(&Board::from_position(pos), max_plies)
    }

    /// [`BoundedProver::value`] of the analyser's own board.
    ///
    /// # Errors
    /// As [`BoundedProver::value`].
    pub fn board_value(
        &mut self,
        pos: &Board,
        max_plies: u32,
    ) -> Result<Option<Value>, AnalysisError> {
        Self::check_bound(max_plies)?;
        self.expanded = 0;
        for n in 0..=max_plies {
            // A lost game ends after an even number of plies, a won one after an odd number.
            if n % 2 == 0 {
                if self.loses_within(pos, n)? {
                    return Ok(Some(Value::Loss(n)));
                }
            } else if self.wins_within(pos, n)? {
                return Ok(Some(Value::Win(n)));
            }
        }
        Ok(None)
    }

    /// Changes the number of positions one [`BoundedProver::value`] call may expand. What was
    /// learnt so far is kept, so a search that ran out of budget can be resumed with a larger one.
    pub fn set_node_budget(&mut self, node_budget: u64) {
        self.budget = node_budget;
    }

    /// The number of positions one [`BoundedProver::value`] call may expand.
    #[must_use]
    pub fn node_budget(&self) -> u64 {
        self.budget
    }

    /// Number of positions with remembered answers.
    #[must_use]
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// Forgets every remembered answer, to give the memory back.
    pub fn clear(&mut self) {
        self.memo.clear();
    }

    /// Can the side to move force a win within `n` plies?
    fn wins_within(&mut self, pos: &Board, n: u32) -> Result<bool, AnalysisError> {
        if n == 0 {
            return Ok(false);
        }
        if let Some(yes) = self.recall(pos, Question::Win, n) {
            return Ok(yes);
        }
        if let Some(v) = self.database_value(pos) {
            let yes = matches!(v, Value::Win(k) if k <= n);
            self.remember(pos, Question::Win, n, yes);
            return Ok(yes);
        }
        self.expand()?;
        let mut yes = false;
        for child in pos.successors() {
            if self.loses_within(&child, n - 1)? {
                yes = true;
                break;
            }
        }
        self.remember(pos, Question::Win, n, yes);
        Ok(yes)
    }

    /// Must the side to move lose within `n` plies, whatever it plays?
    fn loses_within(&mut self, pos: &Board, n: u32) -> Result<bool, AnalysisError> {
        if let Some(yes) = self.recall(pos, Question::Loss, n) {
            return Ok(yes);
        }
        if let Some(v) = self.database_value(pos) {
            let yes = matches!(v, Value::Loss(k) if k <= n);
            self.remember(pos, Question::Loss, n, yes);
            return Ok(yes);
        }
        self.expand()?;
        let children = pos.successors();
        let yes = if children.is_empty() {
            true
        } else if n < 2 {
            // With a move left, the game lasts at least two more plies.
            false
        } else {
            let mut every = true;
            for child in &children {
                if !self.wins_within(child, n - 1)? {
                    every = false;
                    break;
                }
            }
            every
        };
        self.remember(pos, Question::Loss, n, yes);
        Ok(yes)
    }

    /// The remembered answer to `question` for `pos` within `n` plies, if any.
    fn recall(&self, pos: &Board, question: Question, n: u32) -> Option<bool> {
        let facts = self.memo.get(pos)?;
        match question {
            Question::Win => facts.win.answer(n),
            Question::Loss => facts.loss.answer(n),
        }
    }

    /// Stores the answer to `question` for `pos` within `n` plies.
    fn remember(&mut self, pos: &Board, question: Question, n: u32, yes: bool) {
        let facts = self.memo.entry(*pos).or_insert(Facts {
            win: Known::NOTHING,
            loss: Known::NOTHING,
        });
        match question {
            Question::Win => facts.win.record(n, yes),
            Question::Loss => facts.loss.record(n, yes),
        }
    }

    /// Counts one expanded position against the budget.
    fn expand(&mut self) -> Result<(), AnalysisError> {
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return Err(AnalysisError::Stopped);
        }
        self.expanded += 1;
        if self.expanded > self.budget || self.memo.len() >= self.memo_cap {
            return Err(AnalysisError::BudgetExhausted {
                budget: self.budget,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_boards::{board, DOUBLE_CORNERS};

    #[test]
    fn known_bounds_are_monotone() {
        let mut k = Known::NOTHING;
        assert_eq!(k.answer(3), None);
        k.record(3, false);
        assert_eq!(k.answer(0), Some(false));
        assert_eq!(k.answer(3), Some(false));
        assert_eq!(k.answer(4), None);
        k.record(7, true);
        assert_eq!(k.answer(9), Some(true));
        assert_eq!(k.answer(6), None);
    }

    #[test]
    fn immediate_capture_wins_in_one() {
        // Red man jumps the only black piece.
        let pos = board(
            "........\n........\n........\n........\n...b....\n..r.....\n........\n........\n",
        );
        let mut prover = BoundedProver::default();
        assert_eq!(prover.value(&pos, 5), Ok(Some(Value::Win(1))));
    }

    #[test]
    fn drawn_kings_have_no_bounded_result() {
        let pos = board(DOUBLE_CORNERS);
        let mut prover = BoundedProver::default();
        assert_eq!(prover.value(&pos, 9), Ok(None));
    }

    #[test]
    fn budget_and_depth_limits_are_errors() {
        let pos = board(DOUBLE_CORNERS);
        let mut prover = BoundedProver::new(10);
        assert_eq!(
            prover.value(&pos, 30),
            Err(AnalysisError::BudgetExhausted { budget: 10 })
        );
        assert!(matches!(
            prover.value(&pos, MAX_PROVER_PLIES + 1),
            Err(AnalysisError::BoundTooDeep { .. })
        ));
    }
}
