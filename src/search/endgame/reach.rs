//! Exact values of only the positions a puzzle can reach, for material whose whole classes are
//! too large to build (six pieces and more).
//!
//! Men only move forward and never come back, so the men a game from the puzzle can ever see
//! are few: each side's men stand on cells their puzzle men can walk or jump to, fewer as they
//! are captured or crowned. The [`Domain`] is that set of men placements, closed under every
//! forward step, forward jump and removal of a man (a superset of what play reaches, so that
//! every move of a position inside it leads inside it). Kings go anywhere, so they keep the
//! whole combinations of the 32 cells. Each class the puzzle's material leads to is then
//! indexed by its kings' ranks and its men's places in the domain's sorted lists ([`Layout`]),
//! and solved by the same retrograde analysis as the full classes (`build`): a move that leaves
//! the domain cannot exist, and a predecessor outside it cannot be reached, so it is skipped.
//! The values take a byte per position ([`Table`]); a full class already held (built, or read
//! from the store) is used instead of its restricted one.

use std::sync::atomic::{AtomicU16, Ordering};

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::rules::piece::Color;

use super::build::{at, merge, Guard, Outcome, BITMAP_CHUNK, SETTLED};
use super::cells::{
    cells, combinations, rank, BLACK_CROWN, BLACK_FORWARD, NEXT, NONE, RED_CROWN, RED_FORWARD,
};
use super::pieces::{has_jump, steps, Material, Pieces};
use super::table::Table;
use super::{BuildError, EndgameDb, MAX_GROUP};

/// Most bytes the analysis of one puzzle may hold at its peak: the values of every class (a
/// byte each) plus about five bytes per position of the class being built (two counters of two
/// bytes, the bitmap and the lists of positions by distance). With the search's table and the
/// rest of the program this keeps a run within 2 GiB.
pub const REACH_BYTES: usize = 1_600 << 20;

/// Most pieces on the board for the reachable-only analysis: beyond six, the men's placements
/// and the kings they crown into make it too large to finish within a turn.
pub const REACH_PIECES: usize = 6;

/// Positions decoded per task of the first pass.
const FIRST_CHUNK: usize = 1 << 15;

/// The men placements of each side a game from a root can reach, by number of men, sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Domain {
    /// Red's then black's placements, indexed by their number of men.
    men: [Vec<Vec<u32>>; 2],
}

impl Domain {
    /// The placements reachable from `root`'s men.
    pub(super) fn of(root: Pieces) -> Domain {
        Domain {
            men: [
                closure(root.groups[1], RED_FORWARD, RED_CROWN),
                closure(root.groups[3], BLACK_FORWARD, BLACK_CROWN),
            ],
        }
    }

    /// The placements of `count` men of `side` (0 red, 1 black).
    fn list(&self, side: usize, count: usize) -> &[u32] {
        self.men[side].get(count).map_or(&[], Vec::as_slice)
    }

    /// Whether the men of `p` are inside the domain.
    pub(super) fn contains(&self, p: Pieces) -> bool {
        self.list(0, p.groups[1].count_ones() as usize)
            .binary_search(&p.groups[1])
            .is_ok()
            && self
                .list(1, p.groups[3].count_ones() as usize)
                .binary_search(&p.groups[3])
                .is_ok()
    }
}

/// Every placement reachable from `men` by forward steps and jumps of one man at a time (onto a
/// cell none of them holds, short of the crowning row) and by removing a man (captured, or
/// crowned), by number of men and sorted.
fn closure(men: u32, forward: [usize; 2], crown: u32) -> Vec<Vec<u32>> {
    let mut seen = FxHashSet::default();
    seen.insert(men);
    let mut stack = vec![men];
    while let Some(m) = stack.pop() {
        for c in cells(m) {
            let rest = m & !(1 << c);
            let mut next = [rest, rest, rest, rest, rest];
            let mut n = 1;
            for d in forward {
                let step = NEXT[c as usize][d];
                if step == NONE {
                    continue;
                }
                for to in [step, NEXT[step as usize][d]] {
                    if to != NONE && (crown >> to) & 1 == 0 && (m >> to) & 1 == 0 {
                        next[n] = rest | 1 << to;
                        n += 1;
                    }
                }
            }
            for &placement in &next[..n] {
                if seen.insert(placement) {
                    stack.push(placement);
                }
            }
        }
    }
    let mut by_count = vec![Vec::new(); men.count_ones() as usize + 1];
    for m in seen {
        by_count[m.count_ones() as usize].push(m);
    }
    for list in &mut by_count {
        list.sort_unstable();
    }
    by_count
}

/// The index of a class restricted to a domain: the four groups' places (kings by their rank
/// among all combinations, men by their place in the domain's list) in mixed radix, then the
/// side to move.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    lists: [Vec<u32>; 4],
    radix: [usize; 4],
    weights: [usize; 4],
}

impl Layout {
    fn new(class: Material, domain: &Domain) -> Layout {
        let g = class.groups();
        let lists = [
            combinations(32, g[0]),
            domain.list(0, g[1]).to_vec(),
            combinations(32, g[2]),
            domain.list(1, g[3]).to_vec(),
        ];
        let radix = [0, 1, 2, 3].map(|i| lists[i].len());
        let weights = [
            radix[1] * radix[2] * radix[3],
            radix[2] * radix[3],
            radix[3],
            1,
        ];
        Layout {
            lists,
            radix,
            weights,
        }
    }

    /// Index slots (both sides to move).
    fn slots(&self) -> usize {
        self.radix.iter().product::<usize>() * 2
    }

    /// The place of group `g`'s cells `mask` in its list; `None` for men outside the domain.
    fn rank(&self, g: usize, mask: u32) -> Option<usize> {
        if g % 2 == 0 {
            Some(rank(mask) as usize)
        } else {
            self.lists[g].binary_search(&mask).ok()
        }
    }

    /// The index of `p` (of this layout's class), `None` when its men are outside the domain.
    fn index(&self, p: Pieces) -> Option<usize> {
        let mut digits = 0;
        for g in 0..4 {
            digits += self.rank(g, p.groups[g])? * self.weights[g];
        }
        Some((digits << 1) | usize::from(p.side == Color::Black))
    }

    /// The position at index `i`.
    fn decode(&self, i: usize) -> Pieces {
        let side = if i & 1 == 0 { Color::Red } else { Color::Black };
        let mut rest = i >> 1;
        let mut groups = [0u32; 4];
        for g in (0..4).rev() {
            if self.radix[g] > 1 {
                groups[g] = self.lists[g][rest % self.radix[g]];
                rest /= self.radix[g];
            } else {
                groups[g] = self.lists[g][0];
            }
        }
        Pieces { groups, side }
    }
}

/// Whether two groups of `p` share a cell (an unused index slot).
fn overlaps(p: Pieces) -> bool {
    let [a, b, c, d] = p.groups;
    a & b != 0 || (a | b) & c != 0 || (a | b | c) & d != 0
}

/// The values of the classes a puzzle leads to, restricted to its domain.
#[derive(Debug)]
pub(super) struct Reach {
    domain: Domain,
    tables: FxHashMap<Material, (Layout, Table)>,
}

impl Reach {
    /// The stored value of `p` (`plies + 1`, 0 for a draw), when its class is analysed and its
    /// men are inside the domain.
    pub(super) fn raw(&self, p: Pieces) -> Option<u16> {
        let (layout, table) = self.tables.get(&p.material())?;
        Some(table.get(layout.index(p)?))
    }

    /// Index slots held.
    pub(super) fn positions(&self) -> usize {
        self.tables.values().map(|(_, t)| t.len()).sum()
    }
}

impl EndgameDb {
    /// The classes to analyse for `root` (those not held in full and not yet analysed), with
    /// their layouts and the domain, or `None` when `root` does not fit: a side without pieces
    /// or with more than [`MAX_GROUP`], more than [`REACH_PIECES`] in all, or more than
    /// [`REACH_BYTES`] at the peak.
    fn reach_plan(&self, root: Pieces) -> Option<(Domain, Vec<(Material, Layout)>)> {
        let m = root.material();
        if !(1..=MAX_GROUP).contains(&m.reds())
            || !(1..=MAX_GROUP).contains(&m.blacks())
            || m.reds() + m.blacks() > REACH_PIECES
        {
            return None;
        }
        let domain = match &self.reach {
            Some(r) if r.domain.contains(root) => r.domain.clone(),
            _ => Domain::of(root),
        };
        let done = |c: &Material| {
            self.reach
                .as_ref()
                .is_some_and(|r| r.domain == domain && r.tables.contains_key(c))
        };
        let plan: Vec<(Material, Layout)> = m
            .reachable()
            .into_iter()
            .filter(|c| !self.classes.contains_key(c) && !done(c))
            .map(|c| (c, Layout::new(c, &domain)))
            .filter(|(_, l)| l.slots() > 0)
            .collect();
        let held = self
            .reach
            .as_ref()
            .filter(|r| r.domain == domain)
            .map_or(0, Reach::positions);
        let total: usize = held + plan.iter().map(|(_, l)| l.slots()).sum::<usize>();
        let largest = plan.iter().map(|(_, l)| l.slots()).max().unwrap_or(0);
        (total + 5 * largest <= REACH_BYTES).then_some((domain, plan))
    }

    /// Index slots the reachable-only analysis of `p` would build (0 when it is covered or does
    /// not fit).
    pub(super) fn reach_slots(&self, p: Pieces) -> usize {
        self.reach_plan(p)
            .map_or(0, |(_, plan)| plan.iter().map(|(_, l)| l.slots()).sum())
    }

    /// Analyses every class `p` leads to, restricted to its domain, unless held already. The
    /// classes finished before a failure are kept (each is complete).
    ///
    /// # Errors
    /// [`BuildError`] when the guard stopped the analysis or a class it reads is missing.
    pub(super) fn prepare_reach(&mut self, p: Pieces, guard: &Guard) -> Result<bool, BuildError> {
        let Some((domain, plan)) = self.reach_plan(p) else {
            return Ok(false);
        };
        if self.reach.as_ref().is_none_or(|r| r.domain != domain) {
            self.reach = Some(Reach {
                domain,
                tables: FxHashMap::default(),
            });
        }
        for (class, layout) in plan {
            let words = self.analyse(class, &layout, guard)?;
            if let Some(reach) = &mut self.reach {
                reach
                    .tables
                    .insert(class, (layout, Table::from_words(words)));
            }
        }
        Ok(true)
    }

    /// Retrograde analysis of one class over `layout` (see `build` for the method), the classes
    /// it leads to being held.
    fn analyse(
        &self,
        class: Material,
        layout: &Layout,
        guard: &Guard,
    ) -> Result<Vec<u16>, BuildError> {
        if guard.stop() {
            return Err(BuildError::Cancelled);
        }
        let slots = layout.slots();
        let word: Vec<AtomicU16> = (0..slots).map(|_| AtomicU16::new(0)).collect();
        let crown_loss: Option<Vec<AtomicU16>> = class
            .has_men()
            .then(|| (0..slots).map(|_| AtomicU16::new(0)).collect());
        let (mut by_distance, mut due) = (0..slots.div_ceil(FIRST_CHUNK))
            .into_par_iter()
            .fold(
                || (Vec::new(), Vec::new()),
                |(mut settled, mut due), c| {
                    if guard.stop() {
                        return (settled, due);
                    }
                    for i in c * FIRST_CHUNK..((c + 1) * FIRST_CHUNK).min(slots) {
                        let p = layout.decode(i);
                        if overlaps(p) {
                            continue;
                        }
                        let crown = crown_loss.as_deref().map(|c| &c[i]);
                        let w = self.initial(p, i as u32, guard, crown, &mut settled, &mut due);
                        word[i].store(w, Ordering::Relaxed);
                    }
                    (settled, due)
                },
            )
            .reduce(
                || (Vec::new(), Vec::new()),
                |(a1, a2), (b1, b2)| (merge(a1, b1), merge(a2, b2)),
            );
        let mut bits = vec![0u32; slots.div_ceil(32)];
        let mut plies = 0;
        while plies < by_distance.len().max(due.len()) {
            if guard.stop() {
                return Err(BuildError::Cancelled);
            }
            if let Some(list) = due.get_mut(plies) {
                let target = SETTLED | (plies as u16 + 1);
                for i in std::mem::take(list) {
                    let w = &word[i as usize];
                    if w.load(Ordering::Relaxed) & SETTLED == 0 {
                        w.store(target, Ordering::Relaxed);
                        at(&mut by_distance, plies).push(i);
                    }
                }
            }
            for i in std::mem::take(at(&mut by_distance, plies)) {
                bits[i as usize / 32] |= 1 << (i % 32);
            }
            let (next, later) = bits
                .par_chunks_mut(BITMAP_CHUNK)
                .enumerate()
                .fold(
                    || (Vec::new(), Vec::new()),
                    |(mut next, mut later), (c, chunk)| {
                        if guard.stop() {
                            return (next, later);
                        }
                        for (w, word_bits) in chunk.iter_mut().enumerate() {
                            let base = (c * BITMAP_CHUNK + w) * 32;
                            for bit in cells(std::mem::take(word_bits)) {
                                settle_predecessors(
                                    &word,
                                    crown_loss.as_deref(),
                                    layout,
                                    layout.decode(base + bit as usize),
                                    plies,
                                    &mut |j| next.push(j),
                                    &mut |d, j| later.push((d, j)),
                                );
                            }
                        }
                        (next, later)
                    },
                )
                .reduce(
                    || (Vec::new(), Vec::new()),
                    |(mut a, mut b), (c, d)| {
                        a.extend(c);
                        b.extend(d);
                        (a, b)
                    },
                );
            if !next.is_empty() {
                at(&mut by_distance, plies + 1).extend(next);
            }
            for (d, j) in later {
                at(&mut due, d).push(j);
            }
            plies += 1;
        }
        if guard.stop() {
            return Err(BuildError::Cancelled);
        }
        if guard.found_missing() {
            return Err(BuildError::MissingClass(format!(
                "one that {class} leads to"
            )));
        }
        drop(crown_loss);
        Ok(word
            .into_iter()
            .map(|w| {
                let w = w.into_inner();
                if w & SETTLED != 0 {
                    w & !SETTLED
                } else {
                    0
                }
            })
            .collect())
    }

    /// The first word of position `p` at `index` (see `build`'s first pass): settled from the
    /// classes its captures lead to when it has a jump, lost when it has no move, else the
    /// count of its moves within the class (plus one when a crowning move wins or draws).
    fn initial(
        &self,
        p: Pieces,
        index: u32,
        guard: &Guard,
        crown: Option<&AtomicU16>,
        settled: &mut Vec<Vec<u32>>,
        due: &mut Vec<Vec<u32>>,
    ) -> u16 {
        let mut settle = |value: Option<usize>| match value {
            Some(plies) => {
                at(settled, plies).push(index);
                SETTLED | (plies as u16 + 1)
            }
            None => SETTLED,
        };
        if has_jump(p) {
            return settle(self.capture_outcome(p, guard).value());
        }
        let mut crowning = Outcome::NONE;
        let mut crownings = 0;
        let within = steps(p, &mut |from, to| {
            crownings += 1;
            crowning.add(self.built(p.after(from, to, true, 0), guard));
        });
        if within == 0 {
            return settle(if crownings == 0 {
                Some(0)
            } else {
                crowning.value()
            });
        }
        if let Some(win) = crowning.best_win {
            at(due, win).push(index);
        }
        if let Some(c) = crown {
            c.store(crowning.longest_loss as u16, Ordering::Relaxed);
        }
        within + u16::from(crowning.best_win.is_some() || crowning.draw)
    }
}

/// Counts the backward moves from `k`, settled at `plies`, into its predecessors inside the
/// layout (as `build` does over a whole class; a predecessor whose men are outside the domain
/// is not reachable and has no slot).
fn settle_predecessors(
    word: &[AtomicU16],
    crown_loss: Option<&[AtomicU16]>,
    layout: &Layout,
    k: Pieces,
    plies: usize,
    settled: &mut impl FnMut(u32),
    deferred: &mut impl FnMut(usize, u32),
) {
    let won = plies % 2 == 1;
    let value = SETTLED | (plies as u16 + 2);
    let before = Pieces {
        groups: k.groups,
        side: k.side.opponent(),
    };
    let m = before.mover();
    let empty = !k.occupied();
    let (kings_group, men_group) = match before.side {
        Color::Red => (0, 1),
        Color::Black => (2, 3),
    };
    let mut ranks = [0usize; 4];
    for (g, r) in ranks.iter_mut().enumerate() {
        match layout.rank(g, k.groups[g]) {
            Some(x) => *r = x,
            None => return,
        }
    }
    let all: usize = (0..4).map(|g| ranks[g] * layout.weights[g]).sum();
    let side_bit = usize::from(before.side == Color::Black);
    let mut visit = |group: usize, to: u32, from: u8| {
        let moved = (k.groups[group] & !(1 << to)) | (1 << from);
        let Some(r) = layout.rank(group, moved) else {
            return;
        };
        let index = ((all - ranks[group] * layout.weights[group] + r * layout.weights[group]) << 1)
            | side_bit;
        let w = &word[index];
        let current = w.load(Ordering::Relaxed);
        if current & SETTLED != 0 {
            return;
        }
        if won {
            if w.fetch_sub(1, Ordering::Relaxed) != 1 {
                return;
            }
            let crowning = crown_loss.map_or(0, |c| usize::from(c[index].load(Ordering::Relaxed)));
            if crowning > plies + 1 {
                deferred(crowning, index as u32);
                return;
            }
            w.store(value, Ordering::Relaxed);
            settled(index as u32);
        } else if w
            .compare_exchange(current, value, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            settled(index as u32);
        }
    };
    for to in cells(m.kings) {
        for from in NEXT[to as usize] {
            if from != NONE && (empty >> from) & 1 != 0 {
                visit(kings_group, to, from);
            }
        }
    }
    let backward = match before.side {
        Color::Red => BLACK_FORWARD,
        Color::Black => RED_FORWARD,
    };
    for to in cells(m.men & !m.crown) {
        for d in backward {
            let from = NEXT[to as usize][d];
            if from != NONE && (empty >> from) & 1 != 0 {
                visit(men_group, to, from);
            }
        }
    }
}
