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

use rustc_hash::{FxHashMap, FxHashSet};

use super::build::{Guard, Pace};
use super::cells::{cells, BLACK_CROWN, BLACK_FORWARD, NEXT, NONE, RED_CROWN, RED_FORWARD};
use super::pieces::{Material, Pieces};
use super::retro::Layout;
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

    /// The index of `class` restricted to this domain.
    pub(super) fn layout(&self, class: Material) -> Layout {
        let g = class.groups();
        Layout::within(class, self.list(0, g[1]), self.list(1, g[3]))
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

    /// The classes analysed, with their layouts and values.
    pub(super) fn tables(&self) -> impl Iterator<Item = (Material, &Layout, &Table)> {
        self.tables.iter().map(|(&c, (l, t))| (c, l, t))
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
            .map(|c| (c, domain.layout(c)))
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
        let mut pace = Pace::new(plan.iter().map(|(_, l)| l.slots()).sum());
        for (class, layout) in plan {
            if pace.hopeless(guard) {
                return Err(BuildError::Cancelled);
            }
            let values = self.analyse(class, &layout, guard)?;
            pace.finished(layout.slots());
            if let Some(reach) = &mut self.reach {
                reach.tables.insert(class, (layout, Table::Bytes(values)));
            }
        }
        Ok(true)
    }
}
