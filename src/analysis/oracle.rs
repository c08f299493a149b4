//! One question for the callers, "what is this position worth?", answered by whichever exact
//! method fits.
//!
//! Both methods give exact values or nothing, so the order they are tried in only changes the
//! cost, never an answer. The order is chosen from measurements: the bounded search settles the
//! short wins of puzzles with men in milliseconds, while a full analysis that does not fit
//! spends seconds enumerating before it gives up; the full analysis is the one that settles long
//! king endgames and draws. So:
//! 1. a table already built that holds the position answers at once;
//! 2. a bounded search with a small node budget ([`OracleLimits::quick_budget`]);
//! 3. a full retrograde analysis, when the reachable set fits ([`OracleLimits::max_positions`]);
//! 4. the bounded search again with the full budget, keeping what step 2 learnt.

use super::prover::{BoundedProver, DEFAULT_MAX_PLIES, DEFAULT_NODE_BUDGET};
use super::retrograde::{solve_reachable_board, Table, DEFAULT_MAX_POSITIONS};
use super::rules::Board;
use super::{AnalysisError, Value};
use crate::rules::position::Position;

/// Default node budget of the first, quick bounded search of [`Oracle`].
pub const DEFAULT_QUICK_BUDGET: u64 = 500_000;

/// The limits of an [`Oracle`]: how big a full analysis and how deep a bounded search may get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OracleLimits {
    /// Most positions one retrograde analysis may hold.
    pub max_positions: usize,
    /// Deepest bound, in plies, of the bounded search.
    pub max_plies: u32,
    /// Most positions the first, quick bounded search may expand before the full analysis is
    /// tried.
    pub quick_budget: u64,
    /// Most positions the last bounded search may expand.
    pub node_budget: u64,
}

impl Default for OracleLimits {
    fn default() -> Self {
        OracleLimits {
            max_positions: DEFAULT_MAX_POSITIONS,
            max_plies: DEFAULT_MAX_PLIES,
            quick_budget: DEFAULT_QUICK_BUDGET,
            node_budget: DEFAULT_NODE_BUDGET,
        }
    }
}

/// How many men and kings each side has. Captures and crownings only ever reduce the men and
/// the pieces, so the material of a position bounds the material of everything reachable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Material {
    red_men: u32,
    red_kings: u32,
    black_men: u32,
    black_kings: u32,
}

impl Material {
    fn of(board: &Board) -> Material {
        let (red_men, red_kings, black_men, black_kings) = board.material();
        Material {
            red_men,
            red_kings,
            black_men,
            black_kings,
        }
    }
}

/// Exact values from the retrograde analysis or the bounded search, whichever settles the
/// position first (see the module documentation for the order).
///
/// Every full analysis made is kept: a table built for a position holds every position reachable
/// from it, so one table answers for a whole game played from its root.
#[derive(Debug)]
pub struct Oracle {
    limits: OracleLimits,
    tables: Vec<Table>,
    prover: BoundedProver,
    /// Material of positions whose full analysis did not fit. It is not tried again for the
    /// same material: in practice it would fail again, after the same long enumeration. This
    /// can leave undecided a position whose own graph would have fitted; it never changes a
    /// value given.
    too_large: Vec<Material>,
}

impl Default for Oracle {
    fn default() -> Self {
        Oracle::new(OracleLimits::default())
    }
}

impl Oracle {
    /// An oracle with the given limits and nothing computed yet.
    #[must_use]
    pub fn new(limits: OracleLimits) -> Oracle {
        Oracle {
            limits,
            tables: Vec::new(),
            prover: BoundedProver::new(limits.node_budget),
            too_large: Vec::new(),
        }
    }

    /// The limits this oracle works within.
    #[must_use]
    pub fn limits(&self) -> OracleLimits {
        self.limits
    }

    /// The exact value of `pos` for its side to move, or `None` when it could not be decided:
    /// the reachable set is too large for a full analysis and the game does not end within
    /// [`OracleLimits::max_plies`].
    ///
    /// # Errors
    /// [`AnalysisError::BudgetExhausted`] when the last bounded search runs out of budget.
    pub fn value(&mut self, pos: &Position) -> Result<Option<Value>, AnalysisError> {
        self.value_within(pos, self.limits.max_plies)
    }

    /// Like [`Oracle::value`], for a caller to whom any game longer than `max_plies` plies is as
    /// good as undecided: it saves searching deeper, or building a table, for nothing.
    ///
    /// `Some` is always the exact value. It is guaranteed when the game ends within `max_plies`
    /// plies (and within [`OracleLimits::max_plies`]); it may also come from a table when not.
    ///
    /// # Errors
    /// As [`Oracle::value`].
    pub fn value_within(
        &mut self,
        pos: &Position,
        max_plies: u32,
    ) -> Result<Option<Value>, AnalysisError> {
        self.board_value_within(&Board::from_position(pos), max_plies)
    }

    /// [`Oracle::value_within`] of the analyser's own board.
    ///
    /// # Errors
    /// As [`Oracle::value`].
    pub fn board_value_within(
        &mut self,
        pos: &Board,
        max_plies: u32,
    ) -> Result<Option<Value>, AnalysisError> {
        if let Some(v) = self.known(pos) {
            return Ok(Some(v));
        }
        let bound = max_plies.min(self.limits.max_plies);
        let quick = self.search(pos, bound, self.limits.quick_budget);
        match quick {
            Ok(Some(v)) => return Ok(Some(v)),
            Ok(None) if bound < self.limits.max_plies => return Ok(None),
            Ok(None) | Err(AnalysisError::BudgetExhausted { .. }) => {}
            Err(e) => return Err(e),
        }
        if let Some(table) = self.full_analysis(pos)? {
            return Ok(table.board_value(pos));
        }
        match quick {
            // The search finished: no game within the bound, and no table to say more.
            Ok(None) => Ok(None),
            _ => self.search(pos, bound, self.limits.node_budget),
        }
    }

    /// The value of `pos` from a table already built, if any holds it.
    fn known(&self, pos: &Board) -> Option<Value> {
        self.tables.iter().find_map(|t| t.board_value(pos))
    }

    /// A bounded search of `bound` plies expanding at most `budget` positions.
    fn search(
        &mut self,
        pos: &Board,
        bound: u32,
        budget: u64,
    ) -> Result<Option<Value>, AnalysisError> {
        self.prover.set_node_budget(budget);
        self.prover.board_value(pos, bound)
    }

    /// The table of everything reachable from `pos`, built and kept, or `None` when it does not
    /// fit (or did not fit before for the same material).
    fn full_analysis(&mut self, pos: &Board) -> Result<Option<&Table>, AnalysisError> {
        let material = Material::of(pos);
        if self.too_large.contains(&material) {
            return Ok(None);
        }
        match solve_reachable_board(*pos, self.limits.max_positions) {
            Ok(table) => {
                self.tables.push(table);
                Ok(self.tables.last())
            }
            Err(AnalysisError::TooLarge { .. }) => {
                self.too_large.push(material);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }
}
