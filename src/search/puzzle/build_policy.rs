//! The database-build policy of a turn: when the puzzle driver builds the endgame databases a
//! position needs (at once for a few kings, after a failed deepening within the turn's caps),
//! within which deadline, and what a build is charged. The rules' figures are the budget's
//! (`budget.rs`, `knobs.rs`); how a build under way measures its pace is the database's own
//! affair (`endgame/build.rs`).

use std::sync::Arc;
use std::time::Instant;

use crate::rules::position::Position;
use crate::search::endgame::{BuildError, REACH_PIECES};
use crate::search::score::Score;

use super::budget;
use super::limits::BuildCaps;
use super::searcher::PuzzleSearcher;
use crate::search::knobs;

impl PuzzleSearcher {
    /// Builds the quick kings-only databases of `pos` within the deadline ([`EndgameDb::build_quick_kings`]);
    /// whether `pos` is covered.
    pub(super) fn build_quick(&mut self, pos: &Position) -> bool {
        let deadline = self.build_deadline();
        let Some(endgame) = Arc::get_mut(&mut self.endgame.db) else {
            return false;
        };
        let before = endgame.analysed();
        let built = endgame.build_quick_kings_until(pos, deadline);
        self.charge_build(before);
        self.note_build(built)
    }

    /// Whether to build the databases `pos` needs after a deepening that scored `score` and did
    /// not prove it: the build is worth its time ([`budget::build_worth`], within `caps`), it is within
    /// the ceiling a build that gave up left ([`budget::build_ceiling`]), and there looks to be time for
    /// it ([`time_to_build`](Self::time_to_build)) at the speed the turn assumes
    /// ([`budget::build_nanos_per_slot`]: two idle cores' on the deciding turn of a decisive-looking
    /// position of six pieces or fewer).
    pub(super) fn worth_building(
        &self,
        pos: &Position,
        score: Option<Score>,
        caps: Option<BuildCaps>,
    ) -> bool {
        let slots = self.endgame.db.slots_to_build(pos);
        let captures_only = pos.occupied().count() as usize > REACH_PIECES;
        let nanos = budget::build_nanos_per_slot(score, caps, captures_only);
        budget::build_worth(score, slots, caps, captures_only)
            && self
                .endgame
                .build_ceiling
                .is_none_or(|ceiling| slots <= ceiling)
            && self.time_to_build(pos, nanos)
    }

    /// Builds every database `pos` can reach within the deadline ([`EndgameDb::build_classes_for`]);
    /// whether it built them. When the build gives up (the deadline, or the pace it measured),
    /// later builds are held to [`budget::build_ceiling`] of its slots.
    pub(super) fn build_all(&mut self, pos: &Position) -> bool {
        let slots = self.endgame.db.slots_to_build(pos);
        let deadline = self.build_deadline();
        let Some(endgame) = Arc::get_mut(&mut self.endgame.db) else {
            return false;
        };
        let before = endgame.analysed();
        let built = endgame.build_classes_for_until(pos, deadline);
        self.charge_build(before);
        if built == Err(BuildError::Cancelled) {
            self.endgame.build_ceiling = Some(budget::build_ceiling(slots));
        }
        let finished = built == Ok(true);
        self.note_build(built);
        finished
    }

    /// Charges the game's budget for the index slots built since the databases had built
    /// `before` ([`knobs::BUILD_SLOTS_PER_NODE`]): a build's time is then not free of the
    /// budget that the time limit sets.
    fn charge_build(&mut self, before: usize) {
        let slots = self.endgame.db.analysed().saturating_sub(before) as u64;
        self.stats.build_nodes += slots / knobs::BUILD_SLOTS_PER_NODE;
    }

    /// Whether a build succeeded; a failure other than the deadline is kept for the report.
    fn note_build(&mut self, built: Result<bool, BuildError>) -> bool {
        match built {
            Ok(covered) => covered,
            Err(BuildError::Cancelled) => false,
            Err(e) => {
                debug_assert!(false, "{e}");
                self.endgame.error.get_or_insert(e);
                false
            }
        }
    }

    /// Whether the endgame databases for `pos` look to be built before the build's deadline
    /// at `nanos_per_slot` ([`budget::time_to_build`]).
    pub(super) fn time_to_build(&self, pos: &Position, nanos_per_slot: u64) -> bool {
        budget::time_to_build(
            self.endgame.db.slots_to_build(pos),
            nanos_per_slot,
            self.build_deadline(),
        )
    }

    /// When a database build starting now must give up ([`budget::build_deadline`]).
    fn build_deadline(&self) -> Option<Instant> {
        budget::build_deadline(self.turn.limits.deadline)
    }
}
