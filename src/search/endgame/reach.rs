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
//! and solved by the same retrograde analysis as the full classes (`retro`): a move that leaves
//! the domain cannot exist, and a predecessor outside it cannot be reached, so it is skipped.
//! Classes of kings only are analysed whole (halved when they have as many kings a side and are
//! too large to build whole). The values take a byte per position ([`Table`]); a full class
//! already held (built, or read from the store) is used instead of its restricted one, and with
//! a store every class analysed is written to it and read back by later runs.
//!
//! A root of one piece more than [`REACH_PIECES`] (seven) is analysed only in part: the classes
//! of at most [`REACH_PIECES`] its captures lead to, over its own domain (which holds every men
//! placement of those classes that play can reach). Its own class stays to the search, which
//! then reads an exact value at every capture into six pieces or fewer.

use rustc_hash::{FxHashMap, FxHashSet};

use super::build::{work, Guard, Pace};
use super::cells::{cells, BLACK_CROWN, BLACK_FORWARD, NEXT, NONE, RED_CROWN, RED_FORWARD};
use super::pieces::{Material, Pieces};
use super::retro::Layout;
use super::store::Extent;
use super::table::Table;
use super::{BuildError, EndgameDb, MAX_GROUP, MAX_POSITIONS};
use crate::search::knobs::{REACH_BYTES, REACH_PIECES};

/// The men placements of each side a game from a root can reach, by number of men, sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Domain {
    /// The red and black men it was closed from (the key of its files in the store).
    from: [u32; 2],
    /// Red's then black's placements, indexed by their number of men.
    men: [Vec<Vec<u32>>; 2],
}

impl Domain {
    /// The placements reachable from `root`'s men.
    pub(super) fn of(root: Pieces) -> Domain {
        Domain::from_men([root.groups[1], root.groups[3]])
    }

    /// The placements reachable from red men on `from[0]` and black men on `from[1]`.
    fn from_men(from: [u32; 2]) -> Domain {
        Domain {
            from,
            men: [
                closure(from[0], RED_FORWARD, RED_CROWN),
                closure(from[1], BLACK_FORWARD, BLACK_CROWN),
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

/// One class of a reachable-only analysis: over all its positions when it has no men or its
/// whole file is in the store (halved when it has as many kings a side and is too large to
/// build whole), else over the domain; and whether its values are in the store.
#[derive(Debug)]
struct Step {
    class: Material,
    layout: Layout,
    extent: Extent,
    /// Its file is in the store (to be read, not analysed, unless it is damaged).
    stored: bool,
}

/// Index slots of the steps of `plan` that must be analysed (not read from the store).
fn slots_to_analyse(plan: &[Step]) -> usize {
    plan.iter()
        .filter(|s| !s.stored)
        .map(|s| s.layout.slots())
        .sum()
}

impl EndgameDb {
    /// The domain for `root`: the one analysed already, or one whose files are in the store,
    /// when it holds `root`'s men; else `root`'s own.
    fn reach_domain(&self, root: Pieces) -> Domain {
        if let Some(r) = self.reach.as_ref().filter(|r| r.domain.contains(root)) {
            return r.domain.clone();
        }
        self.store
            .as_ref()
            .and_then(|store| {
                store
                    .reach_keys()
                    .into_iter()
                    .map(Domain::from_men)
                    .find(|d| d.contains(root))
            })
            .unwrap_or_else(|| Domain::of(root))
    }

    /// The classes to analyse or read for `root` (those not held in full and not yet analysed)
    /// and the domain, or `None` when `root` does not fit: a side without pieces or with more
    /// than [`MAX_GROUP`], more than one piece beyond [`REACH_PIECES`] in all, or more than
    /// [`REACH_BYTES`] at the peak. Only classes of at most [`REACH_PIECES`] are planned: for a
    /// root of one piece more, those its captures lead to (see the module's documentation).
    fn reach_plan(&self, root: Pieces) -> Option<(Domain, Vec<Step>)> {
        let m = root.material();
        if !(1..=MAX_GROUP).contains(&m.reds())
            || !(1..=MAX_GROUP).contains(&m.blacks())
            || m.reds() + m.blacks() > REACH_PIECES + 1
        {
            return None;
        }
        let domain = self.reach_domain(root);
        let done = |c: &Material| {
            self.reach
                .as_ref()
                .is_some_and(|r| r.domain == domain && r.tables.contains_key(c))
        };
        let plan: Vec<Step> = m
            .reachable()
            .into_iter()
            .filter(|c| {
                c.reds() + c.blacks() <= REACH_PIECES
                    && !self.classes.contains_key(&c.canonical())
                    && !done(c)
            })
            .map(|class| {
                let stored_whole = self.store.as_ref().is_some_and(|s| s.present(class));
                let kings_only = class.groups()[1] + class.groups()[3] == 0;
                // Whole classes are held canonical (see `index`).
                let class = if stored_whole || kings_only {
                    class.canonical()
                } else {
                    class
                };
                let (layout, extent) = if stored_whole {
                    (Layout::whole(class), Extent::Whole)
                } else if kings_only && Layout::can_halve(class) && class.slots() > MAX_POSITIONS {
                    (Layout::halved(class), Extent::Halved)
                } else if kings_only {
                    (Layout::whole(class), Extent::Whole)
                } else {
                    (domain.layout(class), Extent::Reach(domain.from))
                };
                let stored = stored_whole
                    || self
                        .store
                        .as_ref()
                        .is_some_and(|s| s.present_of(class, extent, layout.slots()));
                Step {
                    class,
                    layout,
                    extent,
                    stored,
                }
            })
            .filter(|s| s.layout.slots() > 0)
            .fold(Vec::new(), |mut plan: Vec<Step>, step| {
                // A whole class and its mirrored one are one step.
                if !plan
                    .iter()
                    .any(|s| s.class == step.class && s.extent == step.extent)
                {
                    plan.push(step);
                }
                plan
            });
        let held = self
            .reach
            .as_ref()
            .filter(|r| r.domain == domain)
            .map_or(0, Reach::positions);
        let total: usize = held + plan.iter().map(|s| s.layout.slots()).sum::<usize>();
        let largest = plan
            .iter()
            .filter(|s| !s.stored)
            .map(|s| s.layout.slots())
            .max()
            .unwrap_or(0);
        (total + 5 * largest <= REACH_BYTES).then_some((domain, plan))
    }

    /// Index slots the reachable-only analysis of `p` would analyse (0 when it is covered, its
    /// values are all in the store, or it does not fit).
    pub(super) fn reach_slots(&self, p: Pieces) -> usize {
        self.reach_plan(p)
            .map_or(0, |(_, plan)| slots_to_analyse(&plan))
    }

    /// Whether the store holds every class the reachable-only analysis of `p` needs (reading
    /// them takes a fraction of a second). For a root of seven pieces, only when some class is
    /// kept over its domain: whole classes of its captures are read from their files a block
    /// at a time when the search asks, as without the analysis.
    pub(super) fn reach_stored(&self, p: Pieces) -> bool {
        self.store.is_some()
            && self.reach_plan(p).is_some_and(|(_, plan)| {
                plan.iter().all(|s| s.stored)
                    && (p.occupied().count_ones() as usize <= REACH_PIECES
                        || plan.iter().any(|s| s.extent != Extent::Whole))
            })
    }

    /// Analyses every class `p` leads to, restricted to its domain, unless held already or
    /// kept in the store (then read; a damaged file is analysed again and rewritten). Classes
    /// analysed are written to the store, when there is one (a file that cannot be written is
    /// only not kept). The classes finished before a failure are kept (each is complete).
    ///
    /// # Errors
    /// [`BuildError`] when the guard stopped the analysis or a class it reads is missing.
    pub(super) fn prepare_reach(&mut self, p: Pieces, guard: &Guard) -> Result<bool, BuildError> {
        let Some((domain, plan)) = self.reach_plan(p) else {
            return Ok(false);
        };
        if self.reach.as_ref().is_none_or(|r| r.domain != domain) {
            self.reach = Some(Reach {
                domain: domain.clone(),
                tables: FxHashMap::default(),
            });
        }
        let mut pace = Pace::new(
            plan.iter()
                .filter(|s| !s.stored)
                .map(|s| work(s.class, s.layout.slots()))
                .sum(),
        );
        for step in plan {
            let extent = step.extent;
            let stored = match (&self.store, step.stored) {
                (Some(store), true) => {
                    match store.load_of(step.class, extent, step.layout.slots()) {
                        Ok(table) => table,
                        Err(e) => {
                            self.damaged.get_or_insert(e.to_string());
                            None
                        }
                    }
                }
                _ => None,
            };
            let table = match stored {
                Some(table) => table,
                None => {
                    if pace.hopeless(guard) {
                        return Err(BuildError::Cancelled);
                    }
                    let began = std::time::Instant::now();
                    let table = Table::Bytes(self.analyse(step.class, &step.layout, guard)?);
                    pace.finished(step.class, step.layout.slots(), began);
                    self.analysed += step.layout.slots();
                    if let Some(store) = &self.store {
                        // Only a cache: a file that cannot be written is analysed again next
                        // time.
                        let _ = store.save_of(step.class, extent, &table);
                    }
                    table
                }
            };
            if extent == Extent::Whole {
                self.insert_class(step.class, table);
                continue;
            }
            self.hold(step.class);
            if let Some(reach) = &mut self.reach {
                reach.tables.insert(step.class, (step.layout, table));
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;

    use super::super::store::Store;
    use super::*;
    use crate::formats::board_text::parse_board;
    use crate::rules::position::Position;

    /// A king and a man each: four pieces, men of both sides (about a million slots).
    fn root() -> Position {
        parse_board(
            b"........\n\
              ..b.....\n\
              ........\n\
              ....B...\n\
              ........\n\
              ........\n\
              ...r....\n\
              R.......\n",
        )
        .expect("a board")
    }

    /// The files of `dir`, by name.
    fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
            .expect("listed")
            .map(|e| {
                let e = e.expect("entry");
                let name = e.file_name().to_string_lossy().into_owned();
                (name, fs::read(e.path()).expect("read"))
            })
            .collect();
        out.sort();
        out
    }

    /// Every value held, class by class, in a fixed order.
    fn values(db: &EndgameDb) -> Vec<(Material, Table)> {
        let mut out: Vec<(Material, Table)> = db
            .classes
            .iter()
            .map(|(&c, t)| (c, t.clone()))
            .chain(
                db.reach
                    .iter()
                    .flat_map(Reach::tables)
                    .map(|(c, _, t)| (c, t.clone())),
            )
            .collect();
        out.sort_by_key(|(c, _)| *c);
        out
    }

    #[test]
    fn a_root_of_seven_pieces_plans_the_classes_its_captures_lead_to() {
        // Issue 23's left board (eight pieces): red's capture is forced, and leaves four red
        // kings against two black kings and a man.
        let board = parse_board(
            b".......R\n\
              ........\n\
              .....B..\n\
              ..b.....\n\
              .....R..\n\
              B.....R.\n\
              ...B....\n\
              ....R...\n",
        )
        .expect("a board");
        let db = EndgameDb::default();
        assert!(db
            .reach_plan(Pieces::of(&board).expect("dark cells"))
            .is_none());
        let moves = crate::rules::movegen::legal_moves(&board);
        assert_eq!(moves.len(), 1, "a forced capture");
        let root = Pieces::of(&board.play(moves[0])).expect("dark cells");
        let (_, plan) = db.reach_plan(root).expect("seven pieces fit");
        assert!(plan
            .iter()
            .all(|s| s.class.reds() + s.class.blacks() <= REACH_PIECES));
        assert!(!plan.iter().any(|s| s.class == root.material()));
        let names: Vec<String> = plan.iter().map(|s| s.class.to_string()).collect();
        for class in ["4K v 2K", "3K v 2K1M", "4K v 1K1M", "3K v 3K"] {
            assert!(names.iter().any(|n| n == class), "{class} in {names:?}");
        }
        assert_eq!(db.reach_slots(root), 125_718_800);
    }

    #[test]
    fn the_analysis_is_kept_and_read_back_without_analysing() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let pos = root();
        let p = Pieces::of(&pos).expect("dark cells");
        let mut first = EndgameDb::with_store(Store::new(dir.path()));
        assert!(!first.reach_stored(p));
        assert_eq!(first.analyse_reachable(&pos, None), Ok(true));
        assert!(first.analysed() > 0);
        let kept = files(dir.path());
        // Classes with men over the puzzle's domain, kings-only classes whole, no temporary.
        assert!(kept.iter().any(|(n, _)| n.starts_with("1K1M-v-1K1M@")));
        assert!(kept.iter().any(|(n, _)| n == "2K-v-1K.egdb"));
        assert!(kept
            .iter()
            .all(|(n, _)| n.ends_with(".egdb") && !n.starts_with('.')));
        // The kings-only classes are exactly the whole databases a build writes.
        let mut whole = EndgameDb::default();
        for (class, table) in values(&first) {
            if class.groups()[1] + class.groups()[3] == 0 {
                let built = whole.build(class, &Guard::until(None)).expect("built");
                assert_eq!(built, table, "{class}");
                whole.insert_class(class, built);
            }
        }
        let mut second = EndgameDb::with_store(Store::new(dir.path()));
        assert!(second.reach_stored(p));
        assert_eq!(second.reach_slots(p), 0, "nothing left to analyse");
        assert_eq!(second.analyse_reachable(&pos, None), Ok(true));
        assert_eq!(second.analysed(), 0, "everything read");
        assert_eq!(values(&second), values(&first));
        assert_eq!(second.score(&pos, 0), first.score(&pos, 0));
        assert!(second.damaged_file().is_none());
    }

    #[test]
    fn damaged_analysis_files_are_rejected_and_analysed_again() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let pos = root();
        let mut first = EndgameDb::with_store(Store::new(dir.path()));
        assert_eq!(first.analyse_reachable(&pos, None), Ok(true));
        let good = files(dir.path());
        let (flipped, truncated) = {
            let mut keyed = good
                .iter()
                .filter(|(n, b)| n.contains('@') && b.len() > 1000);
            (
                keyed.next().expect("a file").clone(),
                keyed.next().expect("another").clone(),
            )
        };
        let mut bytes = flipped.1.clone();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x04;
        fs::write(dir.path().join(&flipped.0), &bytes).expect("written");
        fs::write(
            dir.path().join(&truncated.0),
            &truncated.1[..truncated.1.len() - 10],
        )
        .expect("written");
        let mut again = EndgameDb::with_store(Store::new(dir.path()));
        assert_eq!(again.analyse_reachable(&pos, None), Ok(true));
        assert!(again.damaged_file().is_some(), "a damaged file is reported");
        // The number of values is in bytes 20-27 of the header.
        let count = |b: &[u8]| {
            let mut n = [0u8; 8];
            n.copy_from_slice(&b[20..28]);
            u64::from_le_bytes(n) as usize
        };
        let rebuilt = count(&flipped.1) + count(&truncated.1);
        assert_eq!(again.analysed(), rebuilt, "only the two damaged classes");
        assert_eq!(values(&again), values(&first));
        assert_eq!(files(dir.path()), good, "rewritten as they were");
    }

    #[test]
    fn a_file_under_another_puzzles_name_is_not_trusted() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let pos = root();
        let mut first = EndgameDb::with_store(Store::new(dir.path()));
        assert_eq!(first.analyse_reachable(&pos, None), Ok(true));
        let store = Store::new(dir.path());
        let domain = first.reach.as_ref().expect("analysed").domain.clone();
        let class = Pieces::of(&pos).expect("dark cells").material();
        let layout = domain.layout(class);
        let [red, black] = domain.from;
        let other = Extent::Reach([red, black | 1]);
        fs::copy(
            store.path_of(class, Extent::Reach(domain.from)),
            store.path_of(class, other),
        )
        .expect("copied");
        assert!(store.present_of(class, other, layout.slots()));
        assert!(store
            .load_of(class, other, layout.slots())
            .is_err_and(|e| e.to_string().contains("checksum")));
    }
}
