//! One job of a build (`checkers egdb build --class`) within a memory limit: the classes it
//! reads held whole while they fit, the others read from their files a block at a time through
//! the probe, and a class too large to analyse whole analysed one level of its men's
//! advancement at a time.
//!
//! The level of a men's placement is the number of rows its men have advanced in all (red's
//! from row 7, black's from row 0; `index::men_levels`). A move of a position leads to its own
//! level (a king's step), to the next level (a man's step that does not crown), or to another
//! class (a capture, a crowning). So the positions of level `L` depend only on each other, on
//! level `L + 1` and on other classes: the levels are analysed from the last down to 0, each
//! from the next one's values, and each is written as a file (`<class>.level-NN.egdb`) when
//! done, so that a job stopped part way goes on from the levels it finished. The class's file
//! is then put together from the levels' files (the index of a class does not depend on how it
//! was built) and the levels' files removed.

use std::fs;
use std::time::Instant;

use super::build::Guard;
use super::index;
use super::pieces::Material;
use super::retro::{Layout, Outside};
use super::store::{
    build_order, sources, ClassReport, Extent, Store, StoreError, BUILD_BYTES_PER_POSITION,
};
use super::table::Table;
use super::EndgameDb;
use crate::search::knobs::CACHE_BYTES;

/// A class whose analysis whole would take more than this is analysed a level at a time.
pub(super) const SPLIT_BYTES: usize = 3 << 29;

/// Bytes per position of a level's analysis at its peak: a whole class's
/// ([`BUILD_BYTES_PER_POSITION`]) and more, since a level's men's steps leave it, so that many
/// more of its positions are settled by the first pass and listed at once (measured: 6.7 and
/// 10 bytes a position at the largest levels of `4K2M v 1K` and `3K3M v 1K`).
const LEVEL_BYTES_PER_POSITION: usize = 11;

/// The memory a job may take unless told otherwise (`--max-memory`): 8 GiB.
pub const JOB_BYTES: usize = 8 << 30;

/// The men's placements of a class by level.
#[derive(Debug, Clone)]
pub(super) struct Levels {
    class: Material,
    /// The men's digits (see `index`) of each level, ascending.
    pairs: Vec<Vec<u32>>,
}

impl Levels {
    /// The levels of `class` (canonical).
    pub(super) fn of(class: Material) -> Levels {
        let mut pairs: Vec<Vec<u32>> = Vec::new();
        for (m, level) in index::men_levels(class).into_iter().enumerate() {
            let level = usize::from(level);
            if pairs.len() <= level {
                pairs.resize_with(level + 1, Vec::new);
            }
            pairs[level].push(m as u32);
        }
        Levels { class, pairs }
    }

    /// Number of levels (some may be empty).
    pub(super) fn count(&self) -> usize {
        self.pairs.len()
    }

    /// Positions of level `level` (both sides to move).
    pub(super) fn positions(&self, level: usize) -> usize {
        let [_, r, b] = index::radix(self.class);
        self.pairs.get(level).map_or(0, Vec::len) * r * b * 2
    }

    /// The layout of level `level`.
    pub(super) fn layout(&self, level: usize) -> Layout {
        Layout::pairs(
            self.class,
            self.pairs.get(level).cloned().unwrap_or_default(),
        )
    }

    /// Bytes of the largest level's analysis with the next level's values held.
    fn analysis_bytes(&self) -> usize {
        (0..self.count())
            .map(|l| self.positions(l) * LEVEL_BYTES_PER_POSITION + self.positions(l + 1))
            .max()
            .unwrap_or(0)
    }
}

/// How one class's job is run within a memory limit.
#[derive(Debug, Clone)]
pub(super) struct JobPlan {
    /// The levels, when the class is analysed a level at a time.
    pub(super) levels: Option<Levels>,
    /// The classes it reads held whole (the others are read through the probe).
    pub(super) held: Vec<Material>,
    /// The classes it reads, canonical.
    pub(super) sources: Vec<Material>,
    /// Estimated peak memory, in bytes.
    pub(super) peak_bytes: usize,
}

impl JobPlan {
    /// The plan of `class`'s job within `limit` bytes: split when its whole analysis would
    /// take over [`SPLIT_BYTES`] or half the limit; every source held when all fit beside the
    /// analysis, else the smallest first while they fit beside the analysis and the probe's
    /// cache.
    pub(super) fn of(class: Material, limit: usize) -> JobPlan {
        let whole = class.canonical().size() * BUILD_BYTES_PER_POSITION;
        JobPlan::split(class, limit, whole > SPLIT_BYTES.min(limit / 2))
    }

    /// [`of`](Self::of), analysed a level at a time when `split` and the class has men.
    pub(super) fn split(class: Material, limit: usize, split: bool) -> JobPlan {
        let class = class.canonical();
        let whole = class.size() * BUILD_BYTES_PER_POSITION;
        let levels = (class.men() > 0 && split).then(|| Levels::of(class));
        let analysis = levels.as_ref().map_or(whole, Levels::analysis_bytes);
        // Putting the class together from its levels: its values and their compressed copy.
        let assembly = if levels.is_some() {
            class.size() * 2
        } else {
            0
        };
        let mut sources = sources(class);
        sources.sort_by_key(|s| s.size());
        let all: usize = sources.iter().map(|s| s.size()).sum();
        let (held, probed) = if analysis + all <= limit {
            (sources.clone(), 0)
        } else {
            let mut held = Vec::new();
            let mut bytes = 0;
            for &s in &sources {
                if analysis + bytes + s.size() + CACHE_BYTES <= limit {
                    bytes += s.size();
                    held.push(s);
                }
            }
            (held, CACHE_BYTES)
        };
        let held_bytes: usize = held.iter().map(|s| s.size()).sum();
        sources.sort();
        JobPlan {
            levels,
            held,
            sources,
            peak_bytes: (analysis + held_bytes + probed).max(assembly),
        }
    }
}

/// One class of a build as a job of a workflow engine (`checkers egdb classes`): what
/// `checkers egdb build --class` of it reads and holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassJob {
    /// The class, as in `2K1M v 1K`.
    pub class: String,
    /// Its positions (index slots, both sides to move).
    pub positions: usize,
    /// Estimated peak memory of building it alone within [`JOB_BYTES`], in bytes: the class
    /// being built (or its largest level) and the sources held whole (all of them unless they
    /// do not fit; the others read a block at a time through the probe's cache).
    pub peak_bytes: usize,
    /// The classes it reads (canonical, one file each), each earlier in the list.
    pub sources: Vec<String>,
    /// The levels of its men's advancement it is analysed in, one after another, each a file
    /// (0: analysed whole); see docs/egdb.md.
    pub levels: usize,
}

/// Every class of up to `pieces` pieces (one of each mirrored pair), in build order, with the
/// classes each one reads and its estimated peak within `limit` bytes a job: the graph of jobs
/// of a build spread over many machines.
#[must_use]
pub fn class_jobs(pieces: usize, limit: usize) -> Vec<ClassJob> {
    build_order(pieces)
        .into_iter()
        .map(|class| {
            let plan = JobPlan::of(class, limit);
            ClassJob {
                class: class.to_string(),
                positions: class.size(),
                peak_bytes: plan.peak_bytes,
                sources: plan.sources.iter().map(ToString::to_string).collect(),
                levels: plan.levels.as_ref().map_or(0, Levels::count),
            }
        })
        .collect()
}

impl EndgameDb {
    /// Most memory one class's build may take ([`set_job_memory`](Self::set_job_memory)).
    pub(super) fn job_limit(&self) -> usize {
        self.job_bytes.unwrap_or(JOB_BYTES)
    }

    /// Builds `class` into `store` from the files of the classes it reads unless its file is
    /// there, sound (its header and block index checked; `egdb verify` checks the blocks).
    pub(super) fn store_job(
        &mut self,
        store: &Store,
        class: Material,
        say: &mut dyn FnMut(String),
    ) -> Result<ClassReport, StoreError> {
        let began = std::time::Instant::now();
        let damaged = match store.open(class) {
            Ok(Some(_)) => {
                return Ok(ClassReport {
                    class: class.to_string(),
                    positions: class.size(),
                    file_bytes: fs::metadata(store.path(class)).map_or(0, |m| m.len()),
                    built: false,
                    damaged: None,
                    seconds: 0.0,
                })
            }
            Ok(None) => None,
            Err(e @ StoreError::Damaged { .. }) => Some(e.to_string()),
            Err(e) => return Err(e),
        };
        say(format!("{class} ({:.1} M)", class.size() as f64 / 1e6));
        let plan = JobPlan::of(class, self.job_limit());
        if plan.peak_bytes > self.job_limit() {
            return Err(StoreError::Damaged {
                path: store.path(class),
                reason: format!(
                    "building {class} needs about {} MiB, more than the {} MiB a job may take \
                     (--max-memory)",
                    plan.peak_bytes >> 20,
                    self.job_limit() >> 20
                ),
            });
        }
        let table = self.build_job(class, store, &plan, say)?;
        store.save(class, &table)?;
        drop(table);
        remove_levels(class, store);
        Ok(ClassReport {
            class: class.to_string(),
            positions: class.size(),
            file_bytes: fs::metadata(store.path(class)).map_or(0, |m| m.len()),
            built: true,
            damaged,
            seconds: began.elapsed().as_secs_f64(),
        })
    }

    /// The estimated peak of `class`'s job within [`job_limit`](Self::job_limit).
    pub(super) fn job_peak(&self, class: Material) -> usize {
        JobPlan::of(class, self.job_limit()).peak_bytes
    }

    /// Builds `class` as `plan` (its [`JobPlan`]) says, its sources read from `store`; `say`
    /// hears of each level finished. The classes held are dropped afterwards.
    ///
    /// # Errors
    /// [`StoreError::Damaged`] when a source has no file (naming it) or the analysis failed,
    /// [`StoreError::Io`] when a file cannot be read or written.
    pub(super) fn build_job(
        &mut self,
        class: Material,
        store: &Store,
        plan: &JobPlan,
        say: &mut dyn FnMut(String),
    ) -> Result<Table, StoreError> {
        let class = class.canonical();
        self.classes.clear();
        for &source in &plan.sources {
            if !store.present(source) {
                return Err(StoreError::Damaged {
                    path: store.path(source),
                    reason: format!("missing: {source} must be built before {class}"),
                });
            }
        }
        for &source in &plan.held {
            let table = store.load(source)?.ok_or_else(|| StoreError::Damaged {
                path: store.path(source),
                reason: format!("missing: {source} must be built before {class}"),
            })?;
            self.insert_class(source, table);
        }
        let files = (plan.held.len() < plan.sources.len()).then_some((&self.probe, store));
        let failed = |e: super::BuildError| StoreError::Damaged {
            path: store.path(class),
            reason: e.to_string(),
        };
        let guard = Guard::until(None);
        let table = match &plan.levels {
            None => {
                let outside = Outside {
                    files,
                    ..Outside::default()
                };
                Table::Bytes(
                    self.analyse_outside(class, &Layout::whole(class), &outside, &guard)
                        .map_err(failed)?,
                )
            }
            Some(levels) => {
                self.build_levels(class, levels, store, files, &guard, say)?;
                self.classes.clear();
                assemble(class, levels, store)?
            }
        };
        self.classes.clear();
        Ok(table)
    }

    /// Analyses every level of `class` not yet in `store`, the last first, each written to
    /// its file.
    fn build_levels(
        &self,
        class: Material,
        levels: &Levels,
        store: &Store,
        files: Option<(&super::probe::Probe, &Store)>,
        guard: &Guard,
        say: &mut dyn FnMut(String),
    ) -> Result<(), StoreError> {
        let mut next: Option<(Layout, Table)> = None;
        for level in (0..levels.count()).rev() {
            let layout = levels.layout(level);
            let slots = layout.slots();
            if slots == 0 {
                next = None;
                continue;
            }
            let extent = Extent::Level(level as u8);
            let kept = match store.load_of(class, extent, slots) {
                Ok(table) => table,
                Err(e @ StoreError::Damaged { .. }) => {
                    say(format!("checkers: warning: {e}"));
                    None
                }
                Err(e) => return Err(e),
            };
            let table = match kept {
                Some(table) => table,
                None => {
                    let began = Instant::now();
                    let outside = Outside {
                        files,
                        level: true,
                        next: next.as_ref().map(|(l, t)| (l, t)),
                    };
                    let values = self
                        .analyse_outside(class, &layout, &outside, guard)
                        .map_err(|e| StoreError::Damaged {
                            path: store.path_of(class, extent),
                            reason: e.to_string(),
                        })?;
                    let table = Table::Bytes(values);
                    store.save_of(class, extent, &table)?;
                    say(format!(
                        "{class} level {level}: {:.1} M positions in {:.1} s",
                        slots as f64 / 1e6,
                        began.elapsed().as_secs_f64()
                    ));
                    table
                }
            };
            next = Some((layout, table));
        }
        Ok(())
    }
}

/// The table of `class` put together from its levels' files.
fn assemble(class: Material, levels: &Levels, store: &Store) -> Result<Table, StoreError> {
    let [_, r, b] = index::radix(class);
    let chunk = r * b * 2;
    let mut values = vec![0u8; class.size()];
    for level in 0..levels.count() {
        let slots = levels.positions(level);
        if slots == 0 {
            continue;
        }
        let path = store.path_of(class, Extent::Level(level as u8));
        let Some(Table::Bytes(part)) = store.load_of(class, Extent::Level(level as u8), slots)?
        else {
            return Err(StoreError::Damaged {
                path,
                reason: "missing or not of a byte per value".to_string(),
            });
        };
        for (at, &m) in levels.pairs[level].iter().enumerate() {
            let m = m as usize;
            values[m * chunk..(m + 1) * chunk].copy_from_slice(&part[at * chunk..(at + 1) * chunk]);
        }
    }
    Ok(Table::Bytes(values))
}

/// Removes the levels' files of `class` (once its file is written): a man advances at most six
/// rows.
pub(super) fn remove_levels(class: Material, store: &Store) {
    for level in 0..=6 * class.men() {
        let _ = std::fs::remove_file(store.path_of(class, Extent::Level(level as u8)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::piece::Color;

    #[test]
    fn class_jobs_come_after_their_sources() {
        let jobs = class_jobs(5, JOB_BYTES);
        assert_eq!(jobs.len(), 45);
        for (i, job) in jobs.iter().enumerate() {
            for source in &job.sources {
                assert!(
                    jobs[..i].iter().any(|j| &j.class == source),
                    "{source} is read by {} but not built before it",
                    job.class
                );
            }
            assert!(job.peak_bytes >= job.positions * BUILD_BYTES_PER_POSITION);
        }
        assert!(jobs[0].sources.is_empty());
    }

    /// Every class of up to four pieces with men, built a level at a time with every source
    /// read through the probe (none held) and with every source held, is byte for byte the
    /// class the whole build writes; no level's file is left once the class's is written.
    #[test]
    fn a_class_built_a_level_at_a_time_is_the_whole_class() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let store = Store::new(dir.path());
        let mut db = EndgameDb::with_store(store.clone());
        db.build_store(4, &mut |_, _| {}, &mut |_| {})
            .expect("built");
        let mut compared = 0;
        for class in super::super::classes_up_to(4) {
            if class.men() == 0 {
                continue;
            }
            let whole = store.load(class).expect("sound").expect("written");
            for held in [false, true] {
                let mut plan = JobPlan::split(class, JOB_BYTES, true);
                if !held {
                    plan.held.clear();
                }
                assert!(plan.levels.as_ref().is_some_and(|l| l.count() > 1));
                let mut db = EndgameDb::with_store(store.clone());
                let mut said = 0;
                let table = db
                    .build_job(class, &store, &plan, &mut |_| said += 1)
                    .expect("built");
                assert_eq!(table, whole, "{class}, sources held: {held}");
                assert!(said > 1, "{class}: {said} levels");
                remove_levels(class, &store);
                compared += 1;
            }
        }
        assert!(compared >= 20, "{compared}");
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .expect("listed")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.contains("level")), "{names:?}");
    }

    /// A job stopped after some levels goes on from their files; a damaged level's file is
    /// refused, named, and analysed again.
    #[test]
    fn a_job_goes_on_from_its_levels_and_rebuilds_a_damaged_one() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let store = Store::new(dir.path());
        let mut db = EndgameDb::with_store(store.clone());
        db.build_store(4, &mut |_, _| {}, &mut |_| {})
            .expect("built");
        let class = super::super::classes_up_to(4)
            .into_iter()
            .filter(|c| c.men() >= 2)
            .max_by_key(|c| c.size())
            .expect("a class");
        let whole = store.load(class).expect("sound").expect("written");
        let plan = JobPlan::split(class, JOB_BYTES, true);
        let levels = plan.levels.clone().expect("split");
        db.build_job(class, &store, &plan, &mut |_| {})
            .expect("built");
        // Every level's file is there: a second run analyses none.
        let mut said = Vec::new();
        let table = db
            .build_job(class, &store, &plan, &mut |l| said.push(l))
            .expect("built");
        assert_eq!(table, whole);
        assert!(said.is_empty(), "{said:?}");
        // One level's file damaged, another removed: both analysed again, the damage named.
        let damaged = (0..levels.count())
            .find(|&l| levels.positions(l) > 1000)
            .expect("a large level");
        let path = store.path_of(class, Extent::Level(damaged as u8));
        let mut bytes = std::fs::read(&path).expect("written");
        let last = bytes.len() - 2;
        bytes[last] ^= 0x20;
        std::fs::write(&path, &bytes).expect("written");
        let removed = (0..levels.count())
            .rev()
            .find(|&l| l != damaged && levels.positions(l) > 0)
            .expect("another level");
        std::fs::remove_file(store.path_of(class, Extent::Level(removed as u8))).expect("removed");
        let mut said = Vec::new();
        let table = db
            .build_job(class, &store, &plan, &mut |l| said.push(l))
            .expect("built");
        assert_eq!(table, whole);
        assert!(
            said.iter()
                .any(|l| l.contains("damaged") && l.contains(".level-")),
            "{said:?}"
        );
        assert_eq!(
            said.iter().filter(|l| l.contains(" level ")).count(),
            2,
            "{said:?}"
        );
    }

    /// The levels of a class of seven pieces: every men's placement is in exactly one level,
    /// and every position of a level round-trips through its layout's index.
    #[test]
    fn a_seven_piece_level_round_trips() {
        let class = super::super::classes_up_to(7)
            .into_iter()
            .find(|c| c.groups() == [2, 2, 2, 1])
            .expect("2K2M v 2K1M");
        let levels = Levels::of(class);
        let total: usize = (0..levels.count()).map(|l| levels.positions(l)).sum();
        assert_eq!(total, class.size());
        // Level 0: both red men on row 7, the black man on row 0.
        let layout = levels.layout(0);
        assert_eq!(layout.slots(), levels.positions(0));
        assert!(layout.slots() > 1_000_000);
        let whole = Layout::whole(class);
        for i in (0..layout.slots()).step_by(3) {
            let p = layout.decode(i);
            assert_eq!(p.material(), class);
            assert_eq!(p.side, if i % 2 == 0 { Color::Red } else { Color::Black });
            assert!(index::placeable(p));
            assert_eq!(p.groups[1] & 0x0FFF_FFFF, 0, "red's men on row 7");
            assert_eq!(p.groups[3] & !0xF, 0, "black's man on row 0");
            assert_eq!(layout.index(p), Some(i));
            let w = whole.index(p).expect("in the class");
            assert_eq!(whole.decode(w), p);
        }
    }
}
