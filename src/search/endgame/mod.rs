//! Endgame databases: the exact distance to the end of the game of every position of a few pieces,
//! computed by retrograde analysis.
//!
//! Alpha-beta proves a win only by searching as deep as the win is long. Endgames are long (three
//! kings beat two in up to about 60 plies) and wide (every king moves four ways), so the search
//! cannot reach their end; checkers programs have always answered them with databases. These are
//! built on demand for the material of the position at hand and everything its captures and
//! crownings lead to, and the player then reads the best move off them.
//!
//! A material class is the number of red kings, red men, black kings and black men. Positions are
//! indexed over the 32 dark cells: each of the four groups as a combination of the 32 cells
//! (overlapping combinations are left unused), then the side to move. A value is `plies + 1` to
//! the end of the game with best play (0: drawn); the side to move wins when the number of plies
//! is odd, because the winner makes the last move.
//!
//! `cells` holds the geometry of the 32 cells and the ranking of cell sets, `pieces` the
//! positions and their moves on cell masks, and `build` the retrograde analysis; this module
//! decides which databases to build and answers look-ups.

mod build;
mod cells;
mod file;
mod index;
mod levels;
mod pieces;
mod probe;
mod reach;
mod retro;
pub mod store;
mod table;

use std::time::Instant;

use rustc_hash::FxHashMap;
use thiserror::Error;

use crate::rules::piece::Color;
use crate::rules::position::Position;

use super::score::Score;
use super::stop::Stop;
use build::{Guard, Pace};
pub use levels::{class_jobs, ClassJob, JOB_BYTES};
pub use pieces::Material;
use pieces::Pieces;
use probe::Probe;
use reach::Reach;
use store::Store;
use table::Table;

/// Why a database was not built. Its positions are then not covered: the search handles them,
/// and nothing is read from a class that is not complete.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// The deadline passed before the build finished.
    #[error("the deadline passed before the endgame database was built")]
    Cancelled,
    /// A class that captures or crownings lead to was not built first (a bug in the order of
    /// the builds; reading its positions as draws could report a wrong value as proven).
    #[error("the endgame database of {0} was needed first but is not built")]
    MissingClass(String),
    /// A value of the class named did not fit the byte it is kept in (over 254 plies).
    #[error("the endgame database of {0} has a value too far from the end to keep")]
    TooDeep(String),
}

/// How many index slots a build may have is the solver's knobs' to say (`search::knobs`).
pub use super::knobs::{MAX_POSITIONS, QUICK_POSITIONS, REACH_BYTES, REACH_PIECES};

/// Most pieces of one side in a class the solver builds or analyses by itself during a solve
/// (`fitting`, `reach`): all of them may become kings.
const MAX_GROUP: usize = 5;

/// Most pieces of one side in a class of the store's files (`checkers egdb build --pieces 7`:
/// six against one). The index ranks groups of up to seven (`cells::MAX_RANKED`).
const STORE_SIDE: usize = 6;

/// Most pieces of a position whose class is read from the store's files a block at a time
/// (the classes `checkers egdb build --pieces 7` writes).
pub const PROBE_PIECES: usize = 7;

/// Most pieces of the classes `checkers egdb build` writes.
pub const STORE_PIECES: usize = 7;

/// Exact values of positions of a few pieces, class by class.
#[derive(Debug, Default)]
pub struct EndgameDb {
    classes: FxHashMap<Material, Table>,
    /// Where classes built earlier are read from instead of being built again.
    store: Option<Store>,
    /// The first database file found damaged (it was rebuilt in memory instead).
    damaged: Option<String>,
    /// The positions reachable from a puzzle whose classes are too large to build whole.
    reach: Option<Reach>,
    /// Index slots built or analysed by this value (not read from the store).
    analysed: usize,
    /// Most pieces of a position any table covers, held in memory or with a file in the store
    /// when it was opened (0 before the first): [`score`](Self::score) answers a position of
    /// more at once, without converting it.
    most_pieces: usize,
    /// The store's files opened for look-ups of one block at a time.
    probe: Probe,
    /// Stops a build from outside, as its deadline does.
    stop: Stop,
    /// Most memory one class's build (`build_store_class`) may take, in bytes (`None`:
    /// [`JOB_BYTES`]).
    job_bytes: Option<usize>,
}

impl EndgameDb {
    /// Databases that read the classes kept in `store` instead of building them; the classes it
    /// lacks are built (or analysed over the positions a puzzle reaches) and written to it.
    #[must_use]
    pub fn with_store(store: Store) -> EndgameDb {
        EndgameDb {
            most_pieces: store.most_pieces(2 * MAX_GROUP),
            store: Some(store),
            ..EndgameDb::default()
        }
    }

    /// Sets the most memory one class's build from the store's files may take, in bytes:
    /// classes it reads beyond it are read a block at a time, and a class too large to analyse
    /// whole is analysed a level at a time (see docs/egdb.md).
    pub fn set_job_memory(&mut self, bytes: usize) {
        self.job_bytes = Some(bytes);
    }

    /// Makes every later build give up once `stop` is set, as at its deadline.
    pub fn set_stop(&mut self, stop: Stop) {
        self.stop = stop;
    }

    /// Holds `table`, the whole class `class`, in memory: every table enters `classes` here, so
    /// that `most_pieces` covers it.
    fn insert_class(&mut self, class: Material, table: Table) {
        self.hold(class);
        self.classes.insert(class, table);
    }

    /// Notes that a table of `class` is held in memory (`most_pieces`).
    fn hold(&mut self, class: Material) {
        self.most_pieces = self.most_pieces.max(class.reds() + class.blacks());
    }

    /// The store read from, if any.
    #[must_use]
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// The first database file found damaged and not trusted, with why.
    #[must_use]
    pub fn damaged_file(&self) -> Option<String> {
        self.damaged.clone().or_else(|| self.probe.damaged())
    }

    /// Whether the store has the file of the class of `p`, which has at most [`PROBE_PIECES`]:
    /// its values are then read from the file, a block at a time, when asked.
    fn stored(&self, p: Pieces) -> bool {
        p.occupied().count_ones() as usize <= PROBE_PIECES
            && self
                .store
                .as_ref()
                .is_some_and(|s| self.probe.has(s, p.material().canonical()))
    }

    /// Opens the file of every class of the store a look-up may read (up to [`PROBE_PIECES`]
    /// pieces) and makes the index tables of each, so that no look-up in a timed search pays
    /// for either the first time: each a fraction of a millisecond to a few milliseconds, which
    /// made a player overrun 20 ms moves. Opening a file reads its header and block index, not
    /// its blocks; later calls cost a lock per class.
    pub fn prepare_for_play(&self) {
        let Some(store) = &self.store else {
            return;
        };
        for class in classes_up_to(self.most_pieces.min(PROBE_PIECES)) {
            if self.probe.has(store, class) {
                index::radix(class);
            }
        }
    }

    /// Blocks read from database files by look-ups so far (each decoded once while cached).
    #[must_use]
    pub fn blocks_read(&self) -> u64 {
        self.probe.reads()
    }

    /// Look-ups in the database files so far, whether their block was cached or read.
    #[must_use]
    pub fn file_lookups(&self) -> u64 {
        self.probe.lookups()
    }

    /// Whether `class` is held or can be read from the store.
    fn available(&self, class: Material) -> bool {
        let class = class.canonical();
        self.classes.contains_key(&class) || self.store.as_ref().is_some_and(|s| s.present(class))
    }

    /// The material of `pos` when it can have a database: all pieces on cells of one colour,
    /// each side with one to [`MAX_GROUP`] pieces, and at most `limit` index slots to build
    /// over all the classes it can reach (classes held or in the store cost nothing).
    fn fitting(&self, pos: &Position, limit: usize) -> Option<Material> {
        let m = Pieces::of(pos)?.material();
        // Crowning can turn every man of a side into a king: bound the sides, not the groups.
        let fits = (1..=MAX_GROUP).contains(&m.reds())
            && (1..=MAX_GROUP).contains(&m.blacks())
            && m.reachable()
                .iter()
                .filter(|&&c| !self.available(c))
                .map(|c| c.slots())
                .sum::<usize>()
                <= limit;
        fits.then_some(m)
    }

    /// Makes `class` held: read from the store when it has an undamaged file, else built (the
    /// classes it leads to being held) and written to the store, when there is one.
    fn obtain(&mut self, class: Material, guard: &Guard) -> Result<(), BuildError> {
        let class = class.canonical();
        if self.classes.contains_key(&class) {
            return Ok(());
        }
        if let Some(store) = &self.store {
            match store.load(class) {
                Ok(Some(table)) => {
                    self.insert_class(class, table);
                    return Ok(());
                }
                Ok(None) => {}
                Err(e) => {
                    self.damaged.get_or_insert(e.to_string());
                }
            }
        }
        let table = self.build(class, guard)?;
        self.analysed += class.size();
        if let Some(store) = &self.store {
            // Only a cache: a file that cannot be written is built again next time.
            let _ = store.save(class, &table);
        }
        self.insert_class(class, table);
        Ok(())
    }

    /// Whether `pos` is covered: its classes are built, or it is a kings-only position small
    /// enough ([`QUICK_POSITIONS`]) to build now, which this does. Positions with men are left
    /// to the search first: the short official puzzles need no database.
    pub fn build_quick_kings(&mut self, pos: &Position) -> bool {
        self.build_quick_kings_until(pos, None).unwrap_or(false)
    }

    /// [`build_quick_kings`](Self::build_quick_kings), giving up at `deadline` (the classes finished by then are
    /// kept).
    ///
    /// # Errors
    /// [`BuildError`] when a build did not finish; `pos` is then not covered.
    pub fn build_quick_kings_until(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Result<bool, BuildError> {
        if self.covers(pos) {
            return Ok(true);
        }
        if pos.kings() == pos.occupied() && self.fitting(pos, QUICK_POSITIONS).is_some() {
            self.build_classes_for_until(pos, deadline)
        } else {
            match Pieces::of(pos) {
                // Kept by an earlier run: read at once.
                Some(p) if self.fitting(pos, MAX_POSITIONS).is_none() && self.reach_stored(p) => {
                    self.prepare_reach(p, &Guard::until(deadline).or(&self.stop))
                }
                _ => Ok(false),
            }
        }
    }

    /// Whether the class of `pos` is built.
    #[must_use]
    pub fn covers(&self, pos: &Position) -> bool {
        Pieces::of(pos).is_some_and(|p| {
            self.classes.contains_key(&p.material().canonical())
                || self.stored(p)
                || self.reach.as_ref().is_some_and(|r| r.raw(p).is_some())
        })
    }

    /// Whether [`build_classes_for`](Self::build_classes_for) would build anything for `pos`.
    #[must_use]
    pub fn could_build_for(&self, pos: &Position) -> bool {
        self.slots_to_build(pos) > 0
    }

    /// Index slots [`build_classes_for`](Self::build_classes_for) would build for `pos` (0 if none), to
    /// judge whether there is time for it: of the whole classes when they fit
    /// [`MAX_POSITIONS`], else of the positions reachable from `pos` when they fit
    /// [`REACH_BYTES`].
    #[must_use]
    pub fn slots_to_build(&self, pos: &Position) -> usize {
        match self.fitting(pos, MAX_POSITIONS) {
            Some(m) => m
                .reachable()
                .iter()
                .filter(|&&c| !self.available(c))
                .map(|c| c.slots())
                .sum(),
            None if self.covers(pos) => 0,
            None => Pieces::of(pos).map_or(0, |p| self.reach_slots(p)),
        }
    }

    /// Builds the databases of every class `pos` can reach (up to [`MAX_POSITIONS`] in all), or
    /// when they are larger, the values of every position reachable from `pos` (up to
    /// [`REACH_BYTES`] at the peak).
    /// False when `pos` does not fit (or, which cannot happen without a deadline, a build
    /// failed).
    pub fn build_classes_for(&mut self, pos: &Position) -> bool {
        self.build_classes_for_until(pos, None).unwrap_or(false)
    }

    /// [`build_classes_for`](Self::build_classes_for), giving up at `deadline`: the classes finished by then
    /// are kept (each is complete), the one under way is dropped.
    ///
    /// # Errors
    /// [`BuildError`] when a build did not finish; `pos` is then not covered.
    pub fn build_classes_for_until(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Result<bool, BuildError> {
        let guard = Guard::until(deadline).or(&self.stop);
        let Some(m) = self.fitting(pos, MAX_POSITIONS) else {
            if self.covers(pos) {
                return Ok(true);
            }
            return match Pieces::of(pos) {
                Some(p) => self.prepare_reach(p, &guard),
                None => Ok(false),
            };
        };
        let classes = m.reachable();
        let mut pace = Pace::new(
            classes
                .iter()
                .filter(|&&c| !self.available(c))
                .map(|&c| build::work(c, c.slots()))
                .sum(),
        );
        for class in classes {
            if self.classes.contains_key(&class.canonical()) {
                continue;
            }
            if pace.hopeless(&guard) {
                return Err(BuildError::Cancelled);
            }
            let built = !self.available(class);
            let began = Instant::now();
            self.obtain(class, &guard)?;
            if built {
                pace.finished(class, class.slots(), began);
            }
        }
        Ok(true)
    }

    /// Analyses the positions reachable from `pos` (see the `reach` module), even when the whole
    /// classes would fit: for tests and measurements. False when `pos` does not fit
    /// [`REACH_BYTES`].
    ///
    /// # Errors
    /// [`BuildError`] when the analysis did not finish by `deadline`.
    pub fn analyse_reachable(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Result<bool, BuildError> {
        match Pieces::of(pos) {
            Some(p) => self.prepare_reach(p, &Guard::until(deadline).or(&self.stop)),
            None => Ok(false),
        }
    }

    /// Index slots built or analysed by this value since it was made (not read from the
    /// store).
    #[must_use]
    pub fn analysed(&self) -> usize {
        self.analysed
    }

    /// Index slots of all the databases built.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.classes.values().map(Table::len).sum::<usize>()
            + self.reach.as_ref().map_or(0, Reach::positions)
    }

    /// The exact score of `pos` seen `ply` plies from the root, when its class is built.
    #[must_use]
    pub fn score(&self, pos: &Position, ply: usize) -> Option<Score> {
        // The search asks at every node once a database exists: most positions have too many
        // pieces, which one count tells before the pieces are converted.
        if pos.occupied().count() as usize > self.most_pieces {
            return None;
        }
        let raw = self.raw(Pieces::of(pos)?)?;
        Some(match raw {
            0 => Score::ZERO,
            v if (v - 1) % 2 == 1 => Score::won_at(ply + usize::from(v - 1)),
            v => Score::lost_at(ply + usize::from(v - 1)),
        })
    }

    /// Stored value of `p`: `plies + 1`, or 0 for a draw. A side without pieces has lost.
    fn raw(&self, p: Pieces) -> Option<u16> {
        let m = p.material();
        let own = match p.side {
            Color::Red => m.reds(),
            Color::Black => m.blacks(),
        };
        if own == 0 {
            return Some(1);
        }
        // No table has a side of more than six pieces or none (none is stored), nor a man on
        // its crowning row or two pieces on a cell.
        if !(1..=STORE_SIDE).contains(&m.reds())
            || !(1..=STORE_SIDE).contains(&m.blacks())
            || !index::placeable(p)
        {
            return None;
        }
        // (A look-up through the store alone skips hashing the class for an empty map.)
        if !self.classes.is_empty() {
            if let Some(t) = self.classes.get(&m.canonical()) {
                return Some(t.get(p.index()));
            }
        }
        if let Some(v) = self.reach.as_ref().and_then(|r| r.raw(p)) {
            return Some(v);
        }
        if p.occupied().count_ones() as usize > PROBE_PIECES {
            return None;
        }
        self.probe.raw(self.store.as_ref()?, p, m)
    }
}

/// Every class of up to `pieces` pieces (one of each mirrored pair, at most six a side), each
/// after the classes its captures and crownings lead to: the classes `egdb build` writes.
#[must_use]
pub fn classes_up_to(pieces: usize) -> Vec<Material> {
    Material::all_up_to(pieces, STORE_SIDE)
        .into_iter()
        .filter(|c| c.is_canonical())
        .collect()
}

/// What [`EndgameDb::hold_class`] read of a class's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldClass {
    /// Bytes of its file.
    pub file_bytes: u64,
    /// Blocks whose checksum was checked.
    pub blocks: usize,
}

impl EndgameDb {
    /// Reads `class` (one of [`classes_up_to`]) whole from the store, every block's checksum
    /// checked, and the classes its moves lead to (those that fit beside it within the job's
    /// memory, see [`set_job_memory`](Self::set_job_memory); the others are read a block at a
    /// time), so that [`score`](Self::score) answers for its positions and theirs; the classes
    /// held before and not needed now are dropped.
    ///
    /// # Errors
    /// [`store::StoreError`] when a file is missing (naming it), damaged or unreadable.
    pub fn hold_class(&mut self, class: Material) -> Result<HeldClass, store::StoreError> {
        let Some(store) = self.store.clone() else {
            return Err(store::StoreError::Damaged {
                path: std::path::PathBuf::new(),
                reason: "no database directory".to_string(),
            });
        };
        let class = class.canonical();
        let mut needed = levels::JobPlan::of(class, self.job_bytes.unwrap_or(JOB_BYTES)).held;
        needed.push(class);
        self.classes.retain(|c, _| needed.contains(c));
        for &c in &needed {
            if !self.classes.contains_key(&c) {
                let table = store.load(c)?.ok_or_else(|| store::StoreError::Damaged {
                    path: store.path(c),
                    reason: "missing".to_string(),
                })?;
                self.insert_class(c, table);
            }
        }
        let file_bytes = std::fs::metadata(store.path(class)).map_or(0, |m| m.len());
        let width = self.classes.get(&class).map_or(1, Table::width);
        Ok(HeldClass {
            file_bytes,
            blocks: (class.size() * width).div_ceil(file::BLOCK_BYTES),
        })
    }

    /// Whether the store has a file of `class` with a sound header.
    #[must_use]
    pub fn has_file(&self, class: Material) -> bool {
        self.store.as_ref().is_some_and(|s| s.present(class))
    }

    /// The position at `index` of `class`'s table (`index` below
    /// [`Material::positions`]): red to move at even indexes, black at odd ones.
    #[must_use]
    pub fn position_at(class: Material, index: usize) -> Option<Position> {
        let class = class.canonical();
        if index >= class.size() {
            return None;
        }
        let p = index::Decoder::new(class).decode(
            index >> 1,
            if index & 1 == 0 {
                Color::Red
            } else {
                Color::Black
            },
        );
        p.to_position()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::square::Square;

    /// Two red kings and a red man against a black king, red to move.
    fn kings_and_man() -> Position {
        let cell = |row, col| Square::new(row, col).expect("on the board").bit();
        let red = cell(7, 0) | cell(7, 2) | cell(4, 3);
        let black = cell(1, 2);
        Position::new(red, black, cell(7, 0) | cell(7, 2) | black, Color::Red)
            .expect("a valid position")
    }

    #[test]
    fn a_class_is_not_built_before_the_classes_it_leads_to() {
        let pos = kings_and_man();
        let db = EndgameDb::default();
        let class = Pieces::of(&pos).expect("one colour of cells").material();
        assert_eq!(
            db.build(class, &Guard::until(None)),
            Err(BuildError::MissingClass("1K v 1K".to_string()))
        );
    }

    #[test]
    fn a_build_past_its_deadline_leaves_nothing_behind() {
        let pos = kings_and_man();
        let mut db = EndgameDb::default();
        assert_eq!(
            db.build_classes_for_until(&pos, Some(Instant::now())),
            Err(BuildError::Cancelled)
        );
        assert!(!db.covers(&pos));
        assert_eq!(db.positions(), 0);
        assert_eq!(db.score(&pos, 0), None);
        assert_eq!(db.build_classes_for_until(&pos, None), Ok(true));
        assert!(db.covers(&pos));
        assert!(db.score(&pos, 0).is_some_and(Score::is_game_end));
    }
}
