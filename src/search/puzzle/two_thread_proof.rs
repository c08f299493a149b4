//! The proof search split over the root's moves, on two threads, with a result that does not
//! depend on their timing.
//!
//! A turn whose single-threaded proof search (`proof`) ran out of nodes on a
//! board that looks decisive asks the same questions again, one root move at a time: each move
//! gets its own searcher (its own table, ordering and node count, the endgame databases shared
//! read-only) and climbs its own bounds ("does this move win within `n`?", "does it lose within
//! `n`?") in rounds of a fixed number of nodes, the rounds run on a pool of [`SPLIT_THREADS`]
//! threads. What each searcher does depends only on its own budgets, which depend only on what
//! the earlier rounds established, so the whole result is the same whatever the threads' speed.
//! The root's value follows from its moves': a win in `w` once one move wins in exactly `w` and
//! none within `w - 2`; a loss once every move's loss is exact (the longest is the value).
//!
//! The backward pass's questions (`backward_pass`: a shorter win than the move played, a longer loss)
//! go the same way when one thread could not settle them, asked of the moves other than the one
//! played; they read what each move established (`MoveBounds`) when the root's value is not
//! settled.

use rayon::prelude::*;

use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::score::Score;
use crate::search::tt::{TranspositionTable, Words};

use super::searcher::PuzzleSearcher;
use super::thought::{bound_at, Proof};
use crate::search::knobs::{BRANCH_TT_MB, FIRST_ROUND_SHARE, SPLIT_THREADS, SPLIT_TT_BYTES};

/// One root move and what its searcher has established, from the root's point of view.
struct Branch {
    mv: Move,
    child: Position,
    searcher: PuzzleSearcher,
    /// The move's exact value, once a bound held.
    exact: Option<Score>,
    /// The move is proven not to win within this many plies.
    no_win: u32,
    /// The move is proven not to lose within this many plies.
    no_loss: u32,
    /// Bounds above this many plies are not asked this round.
    max: u32,
    /// Which bounds to ask: wins only, losses only, or both in turn.
    expect: Option<bool>,
}

impl Branch {
    /// The next bound to ask, or `None` when it would be past `self.max`.
    fn next_bound(&self) -> Option<u32> {
        let odd = (self.no_win + 1) | 1;
        let even = (self.no_loss + 2) & !1;
        let n = match self.expect {
            Some(true) => odd,
            Some(false) => even,
            None => odd.min(even),
        };
        (n <= self.max).then_some(n)
    }

    /// Climbs the move's bounds within `nodes` more nodes, until one holds or `self.max`.
    fn climb(&mut self, nodes: u64) {
        self.searcher.begin_turn(Some(nodes));
        while self.exact.is_none() {
            let Some(n) = self.next_bound() else {
                return;
            };
            let target = bound_at(n);
            let depth = n as i32 - 1;
            let win = n % 2 == 1;
            let s = &mut self.searcher;
            let v = if win {
                -s.negamax(&self.child, depth, 1, -target, -target + Score(1))
            } else {
                -s.negamax(&self.child, depth, 1, -target - Score(1), -target)
            };
            if s.turn.aborted {
                return;
            }
            match (win, v >= target, v <= target) {
                (true, true, _) => self.exact = Some(target),
                (true, false, _) => self.no_win = n,
                (false, _, true) => self.exact = Some(target),
                (false, _, false) => self.no_loss = n,
            }
        }
    }

    /// Plies within which the move is known not to win (`u32::MAX` for an exact loss).
    fn wins_not_within(&self) -> u32 {
        match self.exact {
            Some(v) if v.is_win() => v.plies_to_end().unwrap_or(0).saturating_sub(1),
            Some(_) => u32::MAX,
            None => self.no_win,
        }
    }

    /// Plies within which the move is known not to lose (`u32::MAX` for an exact win).
    fn loses_not_within(&self) -> u32 {
        match self.exact {
            Some(v) if !v.is_win() => v.plies_to_end().unwrap_or(0).saturating_sub(1),
            Some(_) => u32::MAX,
            None => self.no_loss,
        }
    }

    /// Whether the move is known not to win within `n` plies.
    fn no_win_within(&self, n: u32) -> bool {
        match self.exact {
            Some(v) => !v.is_win() || v.plies_to_end().is_some_and(|d| d > n),
            None => self.no_win >= n,
        }
    }
}

impl PuzzleSearcher {
    /// The split proof of `pos` over its moves `sorted` (canonical order), known to have no
    /// game end within `reached` plies, within `budget` nodes in all, asking bounds up to
    /// `max_depth`: wins only when `expect` is `Some(true)`, losses only when `Some(false)`.
    /// The nodes are added to this searcher's count. With what the moves established, which a
    /// question of the backward pass (`backward_pass`) reads when the root's value is not settled.
    pub(super) fn prove_split(
        &mut self,
        pos: &Position,
        sorted: &[Move],
        reached: u32,
        max_depth: u32,
        expect: Option<bool>,
        budget: u64,
    ) -> (Proof, MoveBounds) {
        let warm = self.tt.bytes().saturating_mul(sorted.len()) <= SPLIT_TT_BYTES;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(SPLIT_THREADS)
            .build();
        // Each move starts from what the one thread's proof learnt, when that fits: copies of
        // up to a gigabyte, made on the pool's threads (on one thread into fresh memory, they
        // were a tenth of a long game's forward work: docs/performance.md).
        let tables: Vec<Option<TranspositionTable>> = match (&pool, warm) {
            (Ok(pool), true) => {
                let spares: Vec<Option<Words>> = sorted
                    .iter()
                    .map(|_| self.helpers.spare_tables.pop())
                    .collect();
                let tt = &self.tt;
                pool.install(|| {
                    spares
                        .into_par_iter()
                        .map(|spare| Some(tt.copy_into(spare)))
                        .collect()
                })
            }
            (Err(_), true) => sorted.iter().map(|_| Some(self.tt.clone())).collect(),
            (_, false) => sorted.iter().map(|_| None).collect(),
        };
        self.helpers.spare_tables.clear();
        let mut branches: Vec<Branch> = sorted
            .iter()
            .zip(tables)
            .map(|(&mv, table)| {
                let mut searcher = PuzzleSearcher::with_features(BRANCH_TT_MB, self.features);
                if let Some(tt) = table {
                    searcher.tt = tt;
                }
                searcher.endgame.db = self.endgame.db.clone();
                searcher.turn.stop = self.turn.stop.clone();
                searcher.evals.horizon = self.evals.horizon.clone();
                searcher.turn.limits.deadline = self.turn.limits.deadline;
                Branch {
                    mv,
                    child: pos.play(mv),
                    searcher,
                    exact: None,
                    // No game end within `reached` of the root: no move wins within it.
                    no_win: reached,
                    no_loss: 0,
                    max: max_depth,
                    expect,
                }
            })
            .collect();
        let mut round = (budget / (FIRST_ROUND_SHARE * sorted.len() as u64)).max(1);
        let mut spent = 0u64;
        let result = loop {
            if let Some(done) = settle(&mut branches, max_depth, expect) {
                break done;
            }
            let active: Vec<&mut Branch> = branches
                .iter_mut()
                .filter(|b| b.exact.is_none() && b.next_bound().is_some())
                .collect();
            let left = budget.saturating_sub(spent);
            if active.is_empty() || left == 0 || self.deadline_passed() {
                break Proof::NoEndWithin(reached.max(root_no_end(&branches)));
            }
            let nodes = round.min(left / active.len() as u64).max(1);
            let before: u64 = branches_nodes(&active);
            let mut active = active;
            match &pool {
                Ok(pool) => pool.install(|| active.par_iter_mut().for_each(|b| b.climb(nodes))),
                // No pool (the system refused threads): the same work on this thread.
                Err(_) => active.iter_mut().for_each(|b| b.climb(nodes)),
            }
            spent += branches_nodes(&active) - before;
            round = round.saturating_mul(2);
        };
        // The move played keeps its searcher's table: it holds the proof of the position
        // the opponent moves from next (a copy of this table when the split began, and more).
        if let Proof::Exact(_, Some(mv)) = result {
            if let Some(b) = branches.iter_mut().find(|b| b.mv == mv && warm) {
                std::mem::swap(&mut self.tt, &mut b.searcher.tt);
            }
        }
        let nodes: u64 = branches.iter().map(|b| b.searcher.stats.nodes).sum();
        self.stats.nodes += nodes;
        self.stats.split_nodes += nodes;
        let bounds = MoveBounds::of(&branches);
        // The moves' tables become the memory of the next split's copies, up to their limit.
        let mut kept = 0usize;
        for branch in branches {
            kept = kept.saturating_add(branch.searcher.tt.bytes());
            if kept > SPLIT_TT_BYTES {
                break;
            }
            self.helpers
                .spare_tables
                .push(branch.searcher.tt.into_words());
        }
        (result, bounds)
    }
}

/// What the moves of a split established, each on its own (a question of the backward pass
/// needs them when the root's value is not settled).
pub(super) struct MoveBounds {
    /// No move wins within this many plies.
    pub no_win: u32,
    /// The shortest win found and its move (the first in canonical order), exact for that move.
    pub win: Option<(u32, Move)>,
    /// The move proven not to lose within the most plies (the first in canonical order), and
    /// those plies; `None` when every move's loss is exact or nothing is known.
    pub survivor: Option<(u32, Move)>,
}

impl MoveBounds {
    fn of(branches: &[Branch]) -> MoveBounds {
        let no_win = branches
            .iter()
            .map(Branch::wins_not_within)
            .min()
            .unwrap_or(u32::MAX);
        let win = branches
            .iter()
            .filter_map(|b| {
                let v = b.exact.filter(|v| v.is_win())?;
                Some((v.plies_to_end()?, b.mv))
            })
            .fold(None, |best: Option<(u32, Move)>, (w, mv)| match best {
                Some((bw, _)) if bw <= w => best,
                _ => Some((w, mv)),
            });
        let survivor = branches
            .iter()
            .filter(|b| b.exact.is_none() && b.no_loss > 0)
            .map(|b| (b.no_loss, b.mv))
            .fold(None, |best: Option<(u32, Move)>, (n, mv)| match best {
                Some((bn, _)) if bn >= n => best,
                _ => Some((n, mv)),
            });
        MoveBounds {
            no_win,
            win,
            survivor,
        }
    }
}

/// Nodes searched so far by `branches`.
fn branches_nodes(branches: &[&mut Branch]) -> u64 {
    branches.iter().map(|b| b.searcher.stats.nodes).sum()
}

/// The root's exact value and canonical move when its moves' bounds settle it; otherwise sets
/// each move's next bounds and returns `None`.
fn settle(branches: &mut [Branch], max_depth: u32, expect: Option<bool>) -> Option<Proof> {
    let best_win = branches
        .iter()
        .filter_map(|b| b.exact.filter(|v| v.is_win()).and_then(Score::plies_to_end))
        .min();
    if let Some(w) = best_win {
        // A win in `w` is the value once no move wins within `w - 2`; the canonical move is
        // the first that wins in `w`, once every move before it is known not to.
        let first = branches
            .iter()
            .position(|b| b.exact == Some(Score::won_at(w as usize)))?;
        let mut open = false;
        for (i, b) in branches.iter_mut().enumerate() {
            let need = if i < first { w } else { w.saturating_sub(2) };
            if !b.no_win_within(need) {
                open = true;
                b.max = need;
                b.expect = Some(true);
            } else {
                b.max = 0;
            }
        }
        return (!open).then(|| Proof::Exact(Score::won_at(w as usize), Some(branches[first].mv)));
    }
    if branches.iter().all(|b| b.exact.is_some()) {
        // Every move loses (no move wins): the longest loss, first in canonical order.
        let (value, mv) = branches
            .iter()
            .filter_map(|b| Some((b.exact?, b.mv)))
            .fold(None, |best: Option<(Score, Move)>, (v, mv)| match best {
                Some((bv, _)) if bv >= v => best,
                _ => Some((v, mv)),
            })?;
        return Some(Proof::Exact(value, Some(mv)));
    }
    for b in branches.iter_mut() {
        b.max = max_depth;
        b.expect = expect;
    }
    None
}

/// No game end within this many plies of the root: no move wins within it, and some move does
/// not lose within it.
fn root_no_end(branches: &[Branch]) -> u32 {
    let no_win = branches
        .iter()
        .map(Branch::wins_not_within)
        .min()
        .unwrap_or(0);
    let no_loss = branches
        .iter()
        .map(Branch::loses_not_within)
        .max()
        .unwrap_or(0);
    no_win.min(no_loss)
}
