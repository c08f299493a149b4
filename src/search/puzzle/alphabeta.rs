//! The puzzle driver's exact search: negamax alpha-beta with principal-variation windows, the
//! core's transposition table and move orderer, enhanced transposition cutoffs, mate-distance
//! bounds, the endgame databases read at every covered node, and a capture extension at the
//! horizon. No forward pruning: what it proves is exact.

use crate::rules::movegen::{self, Routes};
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;
use crate::search::ordering::Keys;
use crate::search::score::{Score, MAX_PLY};
use crate::search::tt::{Bound, Entry};

use super::searcher::PuzzleSearcher;
use super::thought::bound_at;
use crate::search::knobs::{CLOCK_INTERVAL, ETC_DEPTH};

impl PuzzleSearcher {
    /// Whether the turn's deadline has passed, or the search was stopped from outside.
    pub(super) fn deadline_passed(&self) -> bool {
        self.turn.stop.is_set_or_past(self.turn.limits.deadline)
    }

    /// Whether the search must stop because the df-pn it races settled the question first.
    fn outrun(&mut self) -> bool {
        let nodes = self.stats.nodes;
        self.helpers
            .runner
            .as_mut()
            .is_some_and(|r| r.must_stop(nodes))
    }

    /// Counts a node and decides whether the turn's limits are exhausted.
    pub(super) fn tick(&mut self) -> bool {
        self.stats.nodes += 1;
        if self.stats.nodes >= self.turn.stop_at
            || (self.stats.nodes % CLOCK_INTERVAL == 0 && (self.deadline_passed() || self.outrun()))
        {
            self.turn.aborted = true;
        }
        self.turn.aborted
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
        if let Some(score) = self.endgame.db.score(pos, ply) {
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
            return self.evals.horizon.evaluate(pos);
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
                if probe > alpha && probe < beta && !self.turn.aborted {
                    -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.turn.aborted {
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

    /// Starts a search of at most `nodes` more nodes (no limit for `None`).
    pub(super) fn begin_turn(&mut self, nodes: Option<u64>) {
        self.turn.aborted = false;
        self.turn.stop_at = nodes.map_or(u64::MAX, |n| self.stats.nodes.saturating_add(n));
        self.tt.new_generation();
        self.orderer.new_turn();
    }

    /// One iteration over the root moves in `order`; `None` if the budget ran out.
    pub(super) fn search_root(
        &mut self,
        pos: &Position,
        order: &[Move],
        depth: u32,
    ) -> Option<(Score, Move)> {
        let depth = depth as i32;
        let mut alpha = Score::MIN;
        let beta = Score::MAX;
        let mut best = (Score::MIN, order[0]);
        for (i, &mv) in order.iter().enumerate() {
            let child = pos.play(mv);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, 1, -beta, -alpha)
            } else {
                let probe = -self.negamax(&child, depth - 1, 1, -alpha - Score(1), -alpha);
                if probe > alpha && !self.turn.aborted {
                    -self.negamax(&child, depth - 1, 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.turn.aborted {
                return None;
            }
            if score > best.0 {
                best = (score, mv);
                alpha = alpha.max(score);
            }
        }
        Some(best)
    }

    /// The first move of `sorted` (canonical order) whose value is at least `target`, tested with
    /// a null window at `depth`. With an exact `target` this is the canonical optimal move.
    pub(super) fn first_move_reaching(
        &mut self,
        pos: &Position,
        sorted: &[Move],
        target: Score,
        depth: u32,
    ) -> Option<Move> {
        let depth = depth as i32;
        for &mv in sorted {
            let child = pos.play(mv);
            // The move reaches `target` when the child's value is at most `-target`.
            let v = self.negamax(&child, depth - 1, 1, -target, -target + Score(1));
            if self.turn.aborted {
                return None;
            }
            if v <= -target {
                return Some(mv);
            }
        }
        None
    }

    /// [`bound_holds`](Self::bound_holds) by the alpha-beta proof alone.
    pub(super) fn alphabeta_bound(
        &mut self,
        pos: &Position,
        order: &mut [Move],
        n: u32,
    ) -> Option<bool> {
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
            if self.turn.aborted {
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
