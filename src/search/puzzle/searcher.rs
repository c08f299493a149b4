//! The puzzle driver's searcher: its state for a whole game (the table, the ordering
//! heuristics, the endgame databases, the limits of the search under way) and its counters. The
//! searcher's work is spread over the files named for each job (`alphabeta`, `deepening`,
//! `proof`, ...); this file holds only its state and its accessors.

use std::sync::Arc;

use super::dfpn::Dfpn;
use super::limits::{Features, Limits};
use super::lockstep::Runner;
use crate::search::endgame::{BuildError, EndgameDb};
use crate::search::eval::Evaluator;
use crate::search::knobs::SPLIT_THREADS;
use crate::search::ordering::MoveOrderer;
use crate::search::stop::Stop;
use crate::search::tt::{TranspositionTable, Words};

/// Counters over the searcher's life, for statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Positions visited.
    pub nodes: u64,
    /// Nodes where a move caused a beta cutoff.
    pub cutoffs: u64,
    /// Of those, cutoffs by the first move searched.
    pub first_move_cutoffs: u64,
    /// Of the nodes, those searched by a split proof's threads (`two_thread_proof`).
    pub split_nodes: u64,
    /// Of the nodes, those searched beside another thread's as many (`proof_race`): one
    /// thread's work counts the longer of the two.
    pub parallel_nodes: u64,
    /// Nodes charged for the endgame databases built (not positions visited, so not among
    /// `nodes`): the search time a build of that many index slots takes, one node for
    /// [`BUILD_SLOTS_PER_NODE`](crate::search::knobs::BUILD_SLOTS_PER_NODE) slots.
    pub build_nodes: u64,
}

impl SearchStats {
    /// The nodes counted as one thread's work: a split proof's nodes shared out over its
    /// threads, and the nodes charged for database builds. What the game's budget of nodes
    /// derived from its time limit is charged.
    #[must_use]
    pub fn wall_nodes(&self) -> u64 {
        self.nodes - self.split_nodes + self.split_nodes / SPLIT_THREADS as u64
            - self.parallel_nodes
            + self.build_nodes
    }
}

/// The puzzle driver's state that lives for a whole game: the table, the ordering heuristics
/// and the endgame databases.
pub struct PuzzleSearcher {
    pub(super) tt: TranspositionTable,
    pub(super) orderer: MoveOrderer,
    pub(super) stats: SearchStats,
    pub(super) features: Features,
    /// The limits of the search under way and whether they stopped it.
    pub(super) turn: TurnState,
    /// The endgame databases and what their builds left.
    pub(super) endgame: Databases,
    /// The evaluations the searcher uses.
    pub(super) evals: Evaluators,
    /// What the proofs on a second thread keep between questions.
    pub(super) helpers: ProofHelpers,
}

/// The limits of the search under way.
pub(super) struct TurnState {
    pub(super) limits: Limits,
    /// Node count at which the current search must stop.
    pub(super) stop_at: u64,
    /// Whether the limits (or a stop) cut the current search short.
    pub(super) aborted: bool,
    /// Stops the search (and database builds) from outside, as the deadline does.
    pub(super) stop: Stop,
}

/// The endgame databases and what their builds left.
pub(super) struct Databases {
    /// Shared with the searchers of a split proof (`two_thread_proof`) while it runs; built
    /// only between searches, when this searcher holds it alone.
    pub(super) db: Arc<EndgameDb>,
    /// The first endgame database build that failed for a reason other than the deadline.
    pub(super) error: Option<BuildError>,
    /// Most index slots a later database build may have, once one gave up (`build_policy`).
    pub(super) build_ceiling: Option<usize>,
}

/// The evaluations the searcher uses.
pub(super) struct Evaluators {
    /// The evaluation of the horizon's positions (the puzzle set, but in the searcher that
    /// chooses an unproven move): it orders the moves, never decides a proven value.
    pub(super) horizon: Evaluator,
    /// The evaluation that chooses the moves a turn cannot prove (see
    /// `PuzzleSearcher::choose_unproven`); the puzzle set: the deepening's own move.
    pub(super) chooser: Evaluator,
}

/// What the proofs beside the alpha-beta search keep: df-pn and its race, the split's tables.
pub(super) struct ProofHelpers {
    /// The backward pass's df-pn (see [`dfpn`](super::dfpn)), made when it first asks: its
    /// table lives for the rest of the game.
    pub(super) dfpn: Option<Box<Dfpn>>,
    /// While the backward pass runs (unless `Features::race` is off): each bounded question
    /// races df-pn on a second thread against the alpha-beta proof (`proof_race`).
    pub(super) race_dfpn: bool,
    /// While this searcher's proof races df-pn on a question: its side of the race.
    pub(super) runner: Option<Runner>,
    /// The memory of the last split proof's tables, which the next split's copies of this
    /// searcher's table reuse (`two_thread_proof`).
    pub(super) spare_tables: Vec<Words>,
}

impl PuzzleSearcher {
    /// A searcher with a table of `tt_megabytes` MiB.
    #[must_use]
    pub fn new(tt_megabytes: usize) -> PuzzleSearcher {
        PuzzleSearcher::with_features(tt_megabytes, Features::default())
    }

    /// A searcher with some enhancements switched off (for measurements).
    #[must_use]
    pub fn with_features(tt_megabytes: usize, features: Features) -> PuzzleSearcher {
        PuzzleSearcher {
            features,
            tt: TranspositionTable::new(tt_megabytes),
            orderer: MoveOrderer::default(),
            stats: SearchStats::default(),
            turn: TurnState {
                limits: Limits::default(),
                stop_at: u64::MAX,
                aborted: false,
                stop: Stop::default(),
            },
            endgame: Databases {
                db: Arc::default(),
                error: None,
                build_ceiling: None,
            },
            evals: Evaluators {
                horizon: Evaluator::Puzzle,
                chooser: Evaluator::Puzzle,
            },
            helpers: ProofHelpers {
                dfpn: None,
                race_dfpn: false,
                runner: None,
                spare_tables: Vec::new(),
            },
        }
    }

    /// Chooses the moves a turn cannot prove with `evaluator` (see
    /// `unproven_choice`); [`Evaluator::Puzzle`], the default, plays the deepening's
    /// own move. The proofs are searched with the puzzle set whatever it is.
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.evals.chooser = evaluator;
    }

    /// Counters so far.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Fraction of table probes that hit.
    #[must_use]
    pub fn tt_hit_rate(&self) -> f64 {
        self.tt.hit_rate()
    }

    /// Replaces the endgame databases (for example with ones reading a store built earlier).
    pub fn set_endgame(&mut self, mut endgame: EndgameDb) {
        endgame.set_stop(self.turn.stop.clone());
        self.endgame.db = Arc::new(endgame);
    }

    /// Stops every later search and database build of this searcher once `stop` is set, as if
    /// its deadline had passed.
    pub fn set_stop(&mut self, stop: Stop) {
        if let Some(endgame) = Arc::get_mut(&mut self.endgame.db) {
            endgame.set_stop(stop.clone());
        }
        self.turn.stop = stop;
    }

    /// Positions (index slots) held by the endgame databases built so far.
    #[must_use]
    pub fn endgame_positions(&self) -> usize {
        self.endgame.db.positions()
    }

    /// Look-ups in the database files of the store so far, and the blocks they read.
    #[must_use]
    pub fn endgame_file_reads(&self) -> (u64, u64) {
        (
            self.endgame.db.file_lookups(),
            self.endgame.db.blocks_read(),
        )
    }

    /// The first endgame database build that failed other than by its deadline (a bug: the
    /// positions it would have covered were left to the search, never read as draws).
    #[must_use]
    pub fn endgame_error(&self) -> Option<&BuildError> {
        self.endgame.error.as_ref()
    }

    /// Bytes held by the transposition table.
    #[must_use]
    pub fn tt_bytes(&self) -> usize {
        self.tt.bytes()
    }
}
