//! The puzzle driver's exact search: negamax alpha-beta with principal-variation windows, the
//! core's transposition table and move orderer, enhanced transposition cutoffs, mate-distance
//! bounds, the endgame databases read at every covered node, and a capture extension at the
//! horizon. No forward pruning: what it proves is exact.

use std::sync::Arc;
use std::time::Instant;

use crate::rules::movegen::{self, Routes};
use crate::rules::moves::MoveList;
use crate::rules::position::Position;

use super::budget::BuildCaps;
use super::endgame::{BuildError, EndgameDb};
use super::eval::Evaluator;
use super::ordering::{Keys, MoveOrderer};
use super::score::{Score, MAX_PLY};
use super::stop::Stop;
use super::tt::{Bound, Entry, TranspositionTable};

/// When a search must stop. Nodes make the stop deterministic; the deadline is a safety net.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop the iterative deepening after this many nodes in one turn.
    pub nodes: Option<u64>,
    /// Nodes the proof search (see [`proof`](super::proof)) may spend afterwards when the
    /// deepening did not prove the turn's value (0 or `None`: no proof search).
    pub proof_nodes: Option<u64>,
    /// Nodes a turn that proved nothing of its own may spend holding its move to what earlier
    /// turns established (see [`Known`](super::iterdeep::Known)); 0 or `None`: none.
    pub guard_nodes: Option<u64>,
    /// Stop at this instant (endgame database builds too).
    pub deadline: Option<Instant>,
    /// Most index slots of endgame databases the turn may build, by how its deepening scored
    /// the position (`None`: no cap; see [`budget`](super::budget)).
    pub build_caps: Option<BuildCaps>,
}

/// Search enhancements that can be switched off to measure what each is worth. Switching them off
/// never changes a proven result, only the work needed to reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Use the transposition table (probe for cutoffs and the best move, store results).
    pub table: bool,
    /// Order moves (table move, captures, killers, history); otherwise generation order.
    pub ordering: bool,
    /// Build endgame databases for positions of a few pieces, play from them, and read them at
    /// every covered node (see [`endgame`](super::endgame)).
    pub endgame_db: bool,
    /// Once a won game is over, check its unproven moves from the end backwards and play the
    /// game again from one proven suboptimal; once a game drawn by repetition is over, look for
    /// the win of a side that looked clearly ahead (see [`repair`](super::repair)).
    pub repair: bool,
    /// Ask each bounded question of the backward pass of df-pn on a second thread beside the
    /// alpha-beta proof (see [`race`](super::race)); otherwise of the alpha-beta proof alone, on
    /// one thread. The turns before the pass ask alpha-beta alone either way.
    pub race: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            table: true,
            ordering: true,
            endgame_db: true,
            repair: true,
            race: true,
        }
    }
}

/// Counters over the searcher's life, for statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Positions visited.
    pub nodes: u64,
    /// Nodes where a move caused a beta cutoff.
    pub cutoffs: u64,
    /// Of those, cutoffs by the first move searched.
    pub first_move_cutoffs: u64,
    /// Of the nodes, those searched by a split proof's threads ([`split`](super::split)).
    pub split_nodes: u64,
    /// Of the nodes, those searched beside another thread's as many ([`race`](super::race)):
    /// one thread's work counts the longer of the two.
    pub parallel_nodes: u64,
    /// Nodes charged for the endgame databases built (not positions visited, so not among
    /// `nodes`): the search time a build of that many index slots takes, one node for
    /// [`BUILD_SLOTS_PER_NODE`](super::budget::BUILD_SLOTS_PER_NODE) slots.
    pub build_nodes: u64,
}

impl SearchStats {
    /// The nodes counted as one thread's work: a split proof's nodes shared out over its
    /// threads, and the nodes charged for database builds. What the game's budget of nodes
    /// derived from its time limit is charged.
    #[must_use]
    pub fn wall_nodes(&self) -> u64 {
        self.nodes - self.split_nodes + self.split_nodes / super::split::SPLIT_THREADS as u64
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
    pub(super) limits: Limits,
    /// Node count at which the current turn must stop.
    pub(super) stop_at: u64,
    pub(super) aborted: bool,
    pub(super) features: Features,
    /// Shared with the searchers of a split proof ([`split`](super::split)) while it runs; built
    /// only between searches, when this searcher holds it alone.
    pub(super) endgame: Arc<EndgameDb>,
    /// The first endgame database build that failed for a reason other than the deadline.
    pub(super) endgame_error: Option<BuildError>,
    /// Most index slots a later database build may have, once one gave up (see
    /// `PuzzleSearcher::think`).
    pub(super) build_ceiling: Option<usize>,
    /// Stops the search (and database builds) from outside, as the deadline does.
    pub(super) stop: Stop,
    /// The evaluation of the horizon's positions (the puzzle set, but in the searcher that
    /// chooses an unproven move): it orders the moves, never decides a proven value.
    pub(super) horizon: Evaluator,
    /// The evaluation that chooses the moves a turn cannot prove (see
    /// [`choose_unproven`](Self::choose_unproven)); the puzzle set: the deepening's own move.
    pub(super) chooser: Evaluator,
    /// The backward pass's df-pn (see [`dfpn`](super::dfpn)), made when it first asks: its
    /// table lives for the rest of the game.
    pub(super) dfpn: Option<Box<super::dfpn::Dfpn>>,
    /// While the backward pass runs (unless `Features::race` is off): each bounded question
    /// races df-pn on a second thread against the alpha-beta proof
    /// ([`race_bound`](Self::race_bound)).
    pub(super) race_dfpn: bool,
    /// While this searcher's proof races df-pn on a question: its side of the race.
    pub(super) race: Option<super::race::Runner>,
    /// The memory of the last split proof's tables, which the next split's copies of this
    /// searcher's table reuse ([`split`](super::split)).
    pub(super) spare_tables: Vec<super::tt::Words>,
}

/// Least remaining depth at which children are looked up in the table before searching
/// (enhanced transposition cutoffs).
const ETC_DEPTH: i32 = 3;

/// How often (in nodes) the clock is read.
const CLOCK_INTERVAL: u64 = 1024;

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
            limits: Limits::default(),
            stop_at: u64::MAX,
            aborted: false,
            endgame: Arc::default(),
            endgame_error: None,
            build_ceiling: None,
            stop: Stop::default(),
            horizon: Evaluator::Puzzle,
            chooser: Evaluator::Puzzle,
            dfpn: None,
            race_dfpn: false,
            race: None,
            spare_tables: Vec::new(),
        }
    }

    /// Chooses the moves a turn cannot prove with `evaluator` (see
    /// [`unproven`](super::unproven)); [`Evaluator::Puzzle`], the default, plays the deepening's
    /// own move. The proofs are searched with the puzzle set whatever it is.
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.chooser = evaluator;
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
        endgame.set_stop(self.stop.clone());
        self.endgame = Arc::new(endgame);
    }

    /// Stops every later search and database build of this searcher once `stop` is set, as if
    /// its deadline had passed.
    pub fn set_stop(&mut self, stop: Stop) {
        if let Some(endgame) = Arc::get_mut(&mut self.endgame) {
            endgame.set_stop(stop.clone());
        }
        self.stop = stop;
    }

    /// Positions (index slots) held by the endgame databases built so far.
    #[must_use]
    pub fn endgame_positions(&self) -> usize {
        self.endgame.positions()
    }

    /// Look-ups in the database files of the store so far, and the blocks they read.
    #[must_use]
    pub fn endgame_file_reads(&self) -> (u64, u64) {
        (self.endgame.file_lookups(), self.endgame.blocks_read())
    }

    /// The first endgame database build that failed other than by its deadline (a bug: the
    /// positions it would have covered were left to the search, never read as draws).
    #[must_use]
    pub fn endgame_error(&self) -> Option<&BuildError> {
        self.endgame_error.as_ref()
    }

    /// Bytes held by the transposition table.
    #[must_use]
    pub fn tt_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Whether the turn's deadline has passed, or the search was stopped from outside.
    pub(super) fn deadline_passed(&self) -> bool {
        self.stop.is_set_or_past(self.limits.deadline)
    }

    /// Whether the search must stop because the df-pn it races settled the question first.
    fn outrun(&mut self) -> bool {
        let nodes = self.stats.nodes;
        self.race.as_mut().is_some_and(|r| r.must_stop(nodes))
    }

    /// Counts a node and decides whether the turn's limits are exhausted.
    pub(super) fn tick(&mut self) -> bool {
        self.stats.nodes += 1;
        if self.stats.nodes >= self.stop_at
            || (self.stats.nodes % CLOCK_INTERVAL == 0 && (self.deadline_passed() || self.outrun()))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The value of `pos` searched `depth` plies deep, `ply` plies from the root, within the
    /// window (`alpha`, `beta`). Fail-soft: the result may lie outside the window, as a bound.
    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        if self.tick() {
            return Score::ZERO;
        }
        // A position whose database is built: its exact value.
        if let Some(score) = self.endgame.score(pos, ply) {
            return score;
        }
        let mut moves = MoveList::new();
        movegen::generate(pos, Routes::Distinct, &mut moves);
        if moves.is_empty() {
            return Score::lost_at(ply);
        }
        // At the horizon a pending capture is searched on (captures are forced and finite), so
        // no leaf is evaluated in the middle of an exchange.
        if ply + 1 >= MAX_PLY || (depth <= 0 && !moves[0].is_capture()) {
            return self.horizon.evaluate(pos);
        }
        // Mate-distance bounds: nothing here can beat winning next ply or lose before now.
        let alpha_floor = alpha.max(Score::lost_at(ply));
        let beta_ceiling = beta.min(Score::won_at(ply + 1));
        if alpha_floor >= beta_ceiling {
            return alpha_floor;
        }
        alpha = alpha_floor;
        let beta = beta_ceiling;

        let depth = depth.max(0);
        let key = pos.hash();
        let tt_entry = if self.features.table {
            self.tt.probe(key)
        } else {
            None
        };
        if let Some(e) = tt_entry {
            if i32::from(e.depth) >= depth {
                let s = e.score.from_node(ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        // Enhanced transposition cutoff: a child the table already knows to be bad enough for
        // the opponent refutes this node before any subtree is searched. Far from the leaves
        // only, where a subtree saved is worth a look-up per move.
        if self.features.table && depth >= ETC_DEPTH {
            for &mv in moves.iter() {
                let child = pos.play(mv);
                if let Some(e) = self.tt.probe(child.hash()) {
                    if i32::from(e.depth) >= depth - 1 && e.bound != Bound::Lower {
                        let s = -e.score.from_node(ply + 1);
                        if s >= beta {
                            return s;
                        }
                    }
                }
            }
        }

        let side = pos.side_to_move();
        let mut keys = if self.features.ordering {
            self.orderer
                .keys(&moves, tt_entry.and_then(|e| e.best), ply, side)
        } else {
            Keys::unordered(moves.len())
        };
        let alpha_start = alpha;
        let mut best = Score::MIN;
        let mut best_index = None;
        let mut searched = 0usize;
        while let Some(i) = keys.next_best() {
            let child = pos.play(moves[i]);
            let score = if searched == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let probe = -self.negamax(&child, depth - 1, ply + 1, -alpha - Score(1), -alpha);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.aborted {
                return Score::ZERO;
            }
            searched += 1;
            if score > best {
                best = score;
                best_index = Some(i);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        self.stats.cutoffs += 1;
                        if searched == 1 {
                            self.stats.first_move_cutoffs += 1;
                        }
                        if self.features.ordering {
                            self.orderer.record_cutoff(moves[i], ply, depth, side);
                        }
                        break;
                    }
                }
            }
        }

        if !self.features.table {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            Entry {
                score: best.to_node(ply),
                depth: depth.clamp(0, 255) as u8,
                bound,
                best: best_index.and_then(|i| u8::try_from(i).ok()),
            },
        );
        best
    }
}
