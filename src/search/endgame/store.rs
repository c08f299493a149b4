//! Databases kept between runs: one file per material class in a directory (by default the
//! platform's cache directory), each with a header and a checksum, so that a damaged or
//! half-written file is detected and rebuilt, never trusted.
//!
//! A file is `<class>.egdb`, e.g. `2K1M-v-1K.egdb`: a 32-byte header (the magic
//! [`MAGIC`], the format [`VERSION`], the four group sizes, the bytes per position, the
//! number of positions, and a CRC-32 of the header's other bytes and the values), then the values
//! in index order, little-endian. The values of a class analysed over only the positions a
//! puzzle can reach (see `reach`) are kept as `<class>@<red>-<black>.egdb`, named by the cells
//! of the puzzle's red and black men (hexadecimal masks of the 32 dark cells), which the
//! checksum covers too. Files are written to a temporary name in the same directory
//! and renamed, so a reader sees a whole file or none. The crate forbids `unsafe`, so files are
//! read into memory rather than memory-mapped (the 5-piece set is about 500 MB).

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

use super::build::Guard;
use super::pieces::Material;
use super::table::Table;
#[cfg(test)]
use super::MAX_GROUP;
use super::{EndgameDb, STORE_PIECES, STORE_SIDE};

use super::file::{self as format, ClassFile};
pub use super::file::{MAGIC, VERSION};

/// Which positions of a class a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Extent {
    /// Every position (`<class>.egdb`).
    Whole,
    /// Every position of a class of kings only, as many a side, red's turns only (black's are
    /// the same with the colours exchanged): `<class>.half.egdb`.
    Halved,
    /// The positions a puzzle can reach, analysed from its red and black men's cells
    /// (`<class>@<red>-<black>.egdb`, the cells as hexadecimal masks); see `reach`.
    Reach([u32; 2]),
    /// One level of the men's advancement of a class built a level at a time (see `levels`):
    /// `<class>.level-NN.egdb`, removed once the class's file is written.
    Level(u8),
}

/// Why a database file could not be used or written.
#[derive(Debug, Error)]
pub enum StoreError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file is not a whole, undamaged database of the class its name says.
    #[error("{path}: damaged database file ({reason}); it will be rebuilt")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

/// A directory of database files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// The databases in `dir` (created when the first one is saved).
    #[must_use]
    pub fn new(dir: impl Into<PathBuf>) -> Store {
        Store { dir: dir.into() }
    }

    /// The directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The default directory: `$CHECKERS_EGDB` when set and not empty, else `checkers/egdb`
    /// in the platform's cache directory (`~/.cache/checkers/egdb` on Linux); `None` when
    /// the platform has none.
    #[must_use]
    pub fn default_dir() -> Option<PathBuf> {
        match std::env::var_os("CHECKERS_EGDB") {
            Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
            _ => dirs::cache_dir().map(|d| d.join("checkers").join("egdb")),
        }
    }

    /// The file of `class`.
    pub(super) fn path(&self, class: Material) -> PathBuf {
        self.path_of(class, Extent::Whole)
    }

    /// The file of `class` over `extent`.
    pub(super) fn path_of(&self, class: Material, extent: Extent) -> PathBuf {
        let name = class.to_string().replace(' ', "-");
        match extent {
            Extent::Whole => self.dir.join(format!("{name}.egdb")),
            Extent::Halved => self.dir.join(format!("{name}.half.egdb")),
            Extent::Level(level) => self.dir.join(format!("{name}.level-{level:02}.egdb")),
            Extent::Reach([red, black]) => {
                self.dir.join(format!("{name}@{red:08x}-{black:08x}.egdb"))
            }
        }
    }

    /// Whether `class` has a file of the right size (a cheap check before deciding what to build;
    /// [`load`](Self::load) still verifies it).
    pub(super) fn present(&self, class: Material) -> bool {
        let class = class.canonical();
        self.present_of(class, Extent::Whole, class.size())
    }

    /// Whether `class` over `extent` has a file of the right size for `slots` positions.
    pub(super) fn present_of(&self, class: Material, extent: Extent, slots: usize) -> bool {
        let mut head = [0u8; format::HEADER];
        File::open(self.path_of(class, extent))
            .and_then(|mut f| f.read_exact(&mut head))
            .is_ok_and(|()| format::header(class, slots, &head).is_ok())
    }

    /// The file of `class` (canonical) opened for look-ups of one block at a time, its header
    /// and block index checked; `Ok(None)` when it has no file.
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub(super) fn open(&self, class: Material) -> Result<Option<ClassFile>, StoreError> {
        let path = self.path(class);
        match ClassFile::open(&path, class, &key_bytes(Extent::Whole), class.size()) {
            Ok(Ok(file)) => Ok(Some(file)),
            Ok(Err(reason)) => Err(StoreError::Damaged { path, reason }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(StoreError::Io { path, source }),
        }
    }

    /// Most pieces of a class with a file in the directory (0 for none; from the files' names,
    /// as [`path_of`](Self::path_of) writes them). A name ending in `.egdb` that does not parse
    /// counts as the most any table holds, so that no look-up is passed over for it.
    pub(super) fn most_pieces(&self, most: usize) -> usize {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return 0;
        };
        entries
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                let stem = name.strip_suffix(".egdb")?;
                Some(class_pieces(stem).unwrap_or(most))
            })
            .max()
            .unwrap_or(0)
    }

    /// The men placements that files of reachable positions were analysed from, sorted (from
    /// their names; a name that does not parse is ignored).
    pub(super) fn reach_keys(&self) -> Vec<[u32; 2]> {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut keys: Vec<[u32; 2]> = entries
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                let (_, key) = name.strip_suffix(".egdb")?.split_once('@')?;
                let (red, black) = key.split_once('-')?;
                Some([
                    u32::from_str_radix(red, 16).ok()?,
                    u32::from_str_radix(black, 16).ok()?,
                ])
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// The table of `class`, `Ok(None)` when it has no file.
    ///
    /// # Errors
    /// [`StoreError::Damaged`] when the file is not a whole database of `class` with the right
    /// checksum, [`StoreError::Io`] when it cannot be read.
    pub(super) fn load(&self, class: Material) -> Result<Option<Table>, StoreError> {
        let class = class.canonical();
        self.load_of(class, Extent::Whole, class.size())
    }

    /// The table of `class` over `extent`, of `slots` positions; `Ok(None)` when it has no
    /// file.
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub(super) fn load_of(
        &self,
        class: Material,
        extent: Extent,
        slots: usize,
    ) -> Result<Option<Table>, StoreError> {
        let path = self.path_of(class, extent);
        let mut bytes = Vec::new();
        match File::open(&path).and_then(|mut f| f.read_to_end(&mut bytes)) {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(StoreError::Io { path, source }),
        }
        format::decode(class, &key_bytes(extent), slots, &bytes)
            .map(Some)
            .map_err(|reason| StoreError::Damaged { path, reason })
    }

    /// Writes the table of `class`: to a temporary file, flushed to disk, then renamed over the
    /// class's file.
    ///
    /// # Errors
    /// [`StoreError::Io`] when the directory or the file cannot be written (the temporary file
    /// is then removed).
    pub(super) fn save(&self, class: Material, table: &Table) -> Result<(), StoreError> {
        self.save_of(class, Extent::Whole, table)
    }

    /// Writes the table of `class` over `extent`, as [`save`](Self::save) does.
    ///
    /// # Errors
    /// As [`save`](Self::save).
    pub(super) fn save_of(
        &self,
        class: Material,
        extent: Extent,
        table: &Table,
    ) -> Result<(), StoreError> {
        let io_error = |path: &Path| {
            let path = path.to_path_buf();
            move |source| StoreError::Io { path, source }
        };
        fs::create_dir_all(&self.dir).map_err(io_error(&self.dir))?;
        let path = self.path_of(class, extent);
        // Unique to this write: the solver's games run in parallel threads (`bench`), and two
        // may keep the same class at once.
        static WRITES: AtomicU64 = AtomicU64::new(0);
        let temp = self.dir.join(format!(
            ".{}.{}-{}.tmp",
            path.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            std::process::id(),
            WRITES.fetch_add(1, Ordering::Relaxed)
        ));
        let written = File::create(&temp).and_then(|mut f| {
            f.write_all(&format::encode(class, &key_bytes(extent), table)?)?;
            f.sync_all()
        });
        if let Err(source) = written.and_then(|()| fs::rename(&temp, &path)) {
            let _ = fs::remove_file(&temp);
            return Err(io_error(&path)(source));
        }
        Ok(())
    }
}

/// What the checksum covers besides the header and the block index: the men placements of a
/// file of reachable positions, so that a file renamed to another puzzle's is not trusted.
fn key_bytes(extent: Extent) -> Vec<u8> {
    match extent {
        Extent::Whole => Vec::new(),
        Extent::Halved => b"halved".to_vec(),
        Extent::Level(level) => [b"level".as_slice(), &[level]].concat(),
        Extent::Reach([red, black]) => [red.to_le_bytes(), black.to_le_bytes()].concat(),
    }
}

/// What `checkers egdb build` did with one class.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassReport {
    /// The class, as in `2K1M v 1K`.
    pub class: String,
    /// Its positions (index slots, both sides to move).
    pub positions: usize,
    /// Bytes of its file.
    pub file_bytes: u64,
    /// Whether it was built now (false: its file was already there and undamaged).
    pub built: bool,
    /// Why its old file was not trusted, when it was damaged.
    pub damaged: Option<String>,
    /// Seconds its build took (0 when it was not built).
    pub seconds: f64,
}

/// What a build of every class up to some number of pieces involves, before it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildPlan {
    /// Every class (one of each mirrored pair), in the order they are built: each after the
    /// classes its captures and crownings lead to.
    pub classes: Vec<String>,
    /// Positions of all the classes.
    pub positions: usize,
    /// Positions of the classes whose file is missing (or has a wrong header).
    pub to_build: usize,
    /// Estimated peak memory of the build, in bytes.
    pub peak_bytes: usize,
}

/// Most pieces of the classes [`EndgameDb::build_store`] builds holding the smaller ones in
/// memory; the classes of more are built one at a time as the jobs of `build --class` are.
const LAYERS_HELD: usize = 6;

/// Bytes per position of the class being built, at the peak: its value, its count of moves and
/// its crowning byte (see `retro`), the lists of positions by distance (four bytes for about
/// half of them at once), and its compressed copy while it is written.
pub(super) const BUILD_BYTES_PER_POSITION: usize = 6;

/// Pieces of the class a file's name (without `.egdb`) is of: `2K1M-v-2K`, with `.half` or
/// `@key` after it for a halved or reachable-only file.
fn class_pieces(stem: &str) -> Option<usize> {
    let class = stem.split(['@', '.']).next()?;
    let (red, black) = class.split_once("-v-")?;
    let side = |text: &str| -> Option<usize> {
        let mut total = 0;
        let mut digits = String::new();
        for c in text.chars() {
            match c {
                '0'..='9' => digits.push(c),
                'K' | 'M' => total += std::mem::take(&mut digits).parse::<usize>().ok()?,
                _ => return None,
            }
        }
        digits.is_empty().then_some(total)
    };
    Some(side(red)? + side(black)?)
}

/// The classes a build of `class` reads: every class of fewer pieces it leads to (captures),
/// and those of as many pieces with one more king (crownings), canonical.
pub(super) fn sources(class: Material) -> Vec<Material> {
    let pieces = class.reds() + class.blacks();
    let mut out: Vec<Material> = class
        .reachable()
        .into_iter()
        .filter(|c| *c != class)
        .filter(|c| c.reds() + c.blacks() < pieces || c.men() + 1 == class.men())
        .map(Material::canonical)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The classes of a build up to `pieces` pieces, canonical, in build order.
pub(super) fn build_order(pieces: usize) -> Vec<Material> {
    Material::all_up_to(pieces, STORE_SIDE)
        .into_iter()
        .filter(|c| c.is_canonical())
        .collect()
}

impl EndgameDb {
    /// What [`build_store`](Self::build_store) of `pieces` would do.
    #[must_use]
    pub fn build_plan(&self, pieces: usize) -> BuildPlan {
        let order = build_order(pieces);
        // Seven pieces are built one class at a time from the files (`build_job`).
        let jobs = order
            .iter()
            .filter(|c| c.reds() + c.blacks() > LAYERS_HELD)
            .map(|&c| self.job_peak(c))
            .max()
            .unwrap_or(0);
        let order = build_order(pieces.min(LAYERS_HELD));
        let present = |c: Material| self.store.as_ref().is_some_and(|s| s.present(c));
        let top = order
            .iter()
            .map(|c| c.reds() + c.blacks())
            .max()
            .unwrap_or(0);
        // Every class below the top layer is held while the top layer is built.
        let below: usize = order
            .iter()
            .filter(|c| c.reds() + c.blacks() < top)
            .map(|c| c.size())
            .sum();
        let peak = order
            .iter()
            .map(|&c| {
                let crowned: usize = sources(c)
                    .iter()
                    .filter(|s| s.reds() + s.blacks() == top)
                    .map(|s| s.size())
                    .sum();
                c.size() * BUILD_BYTES_PER_POSITION + crowned
            })
            .max()
            .unwrap_or(0);
        let order = build_order(pieces);
        BuildPlan {
            classes: order.iter().map(ToString::to_string).collect(),
            positions: order.iter().map(|c| c.size()).sum(),
            to_build: order
                .iter()
                .filter(|&&c| !present(c))
                .map(|c| c.size())
                .sum(),
            peak_bytes: (below + peak).max(jobs),
        }
    }

    /// Makes the store hold every class of at most `pieces` pieces (at most six a side), one
    /// of each mirrored pair: classes whose file has a good header are kept (read when a larger
    /// class needs them, every block's checksum then checked), the others built and written,
    /// each to a temporary file renamed when whole, so that a build stopped at any point goes
    /// on from the classes it finished. A class of the top layer is held only while the
    /// classes built next need it. The classes of seven pieces are built one at a time from
    /// the files, as [`build_store_class`](Self::build_store_class) builds them. `started`
    /// hears of each class before it is built (its name and positions) and of each level of a
    /// class built a level at a time (with 0 positions), `report` of each class when it is
    /// done.
    ///
    /// # Errors
    /// [`StoreError::Io`] when a file cannot be read or written, and
    /// [`StoreError::Damaged`] (naming the class) when a build failed, which is a bug.
    pub fn build_store(
        &mut self,
        pieces: usize,
        started: &mut impl FnMut(&str, usize),
        report: &mut impl FnMut(&ClassReport),
    ) -> Result<(), StoreError> {
        let Some(store) = self.store.clone() else {
            return Ok(());
        };
        let guard = Guard::until(None);
        let order = build_order(pieces.min(LAYERS_HELD));
        let top = order
            .iter()
            .map(|c| c.reds() + c.blacks())
            .max()
            .unwrap_or(0);
        for (i, &class) in order.iter().enumerate() {
            let size = class.reds() + class.blacks();
            let needed_later = |c: &Material| {
                order[i..].iter().any(|later| {
                    later.reds() + later.blacks() > size || sources(*later).contains(c)
                })
            };
            // Classes of the top layer no later class reads are dropped.
            self.classes
                .retain(|c, _| c.reds() + c.blacks() < top || needed_later(c));
            let mut damaged = None;
            let kept = if store.present(class) && size == top && !needed_later(&class) {
                // Nothing reads it: its header was checked, `egdb verify` checks its blocks.
                true
            } else {
                match store.load(class) {
                    Ok(Some(table)) => {
                        self.insert_class(class, table);
                        true
                    }
                    Ok(None) => false,
                    Err(e @ StoreError::Damaged { .. }) => {
                        damaged = Some(e.to_string());
                        false
                    }
                    Err(e) => return Err(e),
                }
            };
            let began = std::time::Instant::now();
            if !kept {
                for source in sources(class) {
                    if !self.classes.contains_key(&source) {
                        if let Some(table) = store.load(source)? {
                            self.insert_class(source, table);
                        }
                    }
                }
                started(&class.to_string(), class.size());
                let table = self.build(class, &guard).map_err(|e| StoreError::Damaged {
                    path: store.path(class),
                    reason: e.to_string(),
                })?;
                store.save(class, &table)?;
                if size < top || needed_later(&class) {
                    self.insert_class(class, table);
                }
            }
            let file_bytes = fs::metadata(store.path(class)).map_or(0, |m| m.len());
            report(&ClassReport {
                class: class.to_string(),
                positions: class.size(),
                file_bytes,
                built: !kept,
                damaged,
                seconds: if kept {
                    0.0
                } else {
                    began.elapsed().as_secs_f64()
                },
            });
        }
        self.classes.clear();
        for class in build_order(pieces) {
            if class.reds() + class.blacks() > LAYERS_HELD {
                let r = self.store_job(&store, class, &mut |line| started(&line, 0))?;
                report(&r);
            }
        }
        Ok(())
    }
}

impl EndgameDb {
    /// Builds the one class named `name` (as in `2K1M v 1K`; one of the classes of
    /// [`classes_up_to`](super::classes_up_to)) into the store, reading the classes it leads to
    /// from their files: one job of a build spread over many machines, run once the classes it
    /// reads are there (see docs/egdb.md). A class whose file is there with a good header is
    /// kept.
    ///
    /// # Errors
    /// [`StoreError::Damaged`] when no class has that name or a class it reads has no file
    /// (naming it), and as [`build_store`](Self::build_store).
    pub fn build_store_class(&mut self, name: &str) -> Result<ClassReport, StoreError> {
        self.build_store_class_saying(name, &mut |_| {})
    }

    /// [`build_store_class`](Self::build_store_class), telling `say` of each level finished of
    /// a class built a level at a time. A class of seven pieces too large to analyse whole is
    /// analysed one level of its men's advancement after another, each written to a file
    /// (`<class>.level-NN.egdb`) that a job run again reads instead of analysing it again.
    ///
    /// # Errors
    /// As [`build_store_class`](Self::build_store_class).
    pub fn build_store_class_saying(
        &mut self,
        name: &str,
        say: &mut dyn FnMut(String),
    ) -> Result<ClassReport, StoreError> {
        let Some(store) = self.store.clone() else {
            return Err(StoreError::Damaged {
                path: PathBuf::new(),
                reason: "no database directory".to_string(),
            });
        };
        let Some(class) = build_order(STORE_PIECES)
            .into_iter()
            .find(|c| c.to_string() == name)
        else {
            return Err(StoreError::Damaged {
                path: store.dir().to_path_buf(),
                reason: format!(
                    "no class is named `{name}` (write it as in `2K1M v 1K`, the side with more \
                     first, at most seven pieces)"
                ),
            });
        };
        self.store_job(&store, class, say)
    }
}

/// Rewrites the file of `class` with the value at `index` changed to `value`, checksums and
/// all: a file whose blocks are sound but whose values are wrong, for the tests of `egdb
/// verify`.
///
/// # Panics
/// When the file cannot be read or written (a test's failure).
#[cfg(test)]
pub(crate) fn tamper(store: &Store, class: Material, index: usize, value: u8) {
    let Ok(Some(Table::Bytes(mut bytes))) = store.load(class) else {
        panic!("{class}: no file of a byte per value");
    };
    bytes[index] = value;
    store
        .save(class.canonical(), &Table::Bytes(bytes))
        .expect("written");
}

#[cfg(test)]
mod tests {
    use super::super::pieces::Pieces;
    use super::*;
    use crate::rules::bitboard::Bitboard;
    use crate::rules::piece::Color;
    use crate::rules::position::Position;
    use crate::rules::square::Square;

    #[test]
    fn file_names_give_their_class_pieces() {
        assert_eq!(class_pieces("1K-v-1K"), Some(2));
        assert_eq!(class_pieces("2K1M-v-3M"), Some(6));
        assert_eq!(class_pieces("12K-v-1M.half"), Some(13));
        assert_eq!(class_pieces("3K-v-2K1M@0000000f-00000a00"), Some(6));
        assert_eq!(class_pieces("2K-v"), None);
        assert_eq!(class_pieces("2KM-v-1K"), None);
        assert_eq!(class_pieces("2K1-v-1K"), None);
        let dir = tempfile::tempdir().expect("temporary directory");
        let store = Store::new(dir.path());
        assert_eq!(store.most_pieces(10), 0);
        std::fs::write(dir.path().join("2K-v-1K.egdb"), b"").expect("write");
        std::fs::write(dir.path().join("notes.txt"), b"").expect("write");
        assert_eq!(store.most_pieces(10), 3);
        std::fs::write(dir.path().join("odd.egdb"), b"").expect("write");
        assert_eq!(store.most_pieces(10), 10);
    }

    /// A fresh build of every class of at most `pieces` pieces, in memory.
    fn fresh(pieces: usize) -> EndgameDb {
        let mut db = EndgameDb::default();
        let guard = Guard::until(None);
        for class in Material::all_up_to(pieces, MAX_GROUP) {
            if !class.is_canonical() {
                continue;
            }
            let table = db.build(class, &guard).expect("smaller classes first");
            db.insert_class(class, table);
        }
        db
    }

    fn stored(dir: &Path, pieces: usize) -> Vec<ClassReport> {
        let mut db = EndgameDb::with_store(Store::new(dir));
        let mut reports = Vec::new();
        db.build_store(pieces, &mut |_, _| {}, &mut |r| reports.push(r.clone()))
            .expect("writable");
        reports
    }

    #[test]
    fn files_hold_exactly_what_a_fresh_build_computes() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let reports = stored(dir.path(), 3);
        assert_eq!(
            reports.len(),
            9,
            "2- and 3-piece classes, one of each mirrored pair"
        );
        assert!(reports.iter().all(|r| r.built && r.damaged.is_none()));
        let fresh = fresh(3);
        let store = Store::new(dir.path());
        for class in Material::all_up_to(3, MAX_GROUP) {
            let loaded = store.load(class).expect("undamaged").expect("written");
            assert_eq!(
                Some(&loaded),
                fresh.classes.get(&class.canonical()),
                "{class}"
            );
            assert_eq!(loaded.width(), 1, "{class}: a byte per position");
        }
        // A second run reads them all and builds nothing.
        let again = stored(dir.path(), 3);
        assert!(again.iter().all(|r| !r.built), "{again:?}");
        // No temporary file is left behind.
        let names: Vec<String> = fs::read_dir(dir.path())
            .expect("listed")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names
            .iter()
            .all(|n| n.ends_with(".egdb") && !n.starts_with('.')));
        assert!(names.contains(&"2K-v-1K.egdb".to_string()), "{names:?}");
    }

    /// A build writes the same bytes on one thread as on two (every class of up to four
    /// pieces: the first pass and the backward passes split over the threads).
    #[test]
    fn the_files_are_the_same_on_one_thread_as_on_two() {
        let files = |threads: usize| {
            let dir = tempfile::tempdir().expect("temporary directory");
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a pool")
                .install(|| stored(dir.path(), 4));
            super::super::reach::tests::files(dir.path())
        };
        let one = files(1);
        assert!(one.len() > 20, "{} files", one.len());
        assert!(one == files(2), "the same files on one and two threads");
    }

    #[test]
    fn damaged_files_are_rejected_and_rebuilt() {
        let dir = tempfile::tempdir().expect("temporary directory");
        stored(dir.path(), 3);
        let store = Store::new(dir.path());
        let classes: Vec<Material> = Material::all_up_to(3, MAX_GROUP)
            .into_iter()
            .filter(|c| c.is_canonical())
            .collect();
        let good: Vec<Vec<u8>> = classes
            .iter()
            .map(|&c| fs::read(store.path(c)).expect("written"))
            .collect();
        let (flipped, truncated, versioned, swapped) =
            (classes[0], classes[3], classes[5], classes[7]);
        let mut bytes = good[0].clone();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x01;
        fs::write(store.path(flipped), &bytes).expect("written");
        fs::write(store.path(truncated), &good[3][..good[3].len() - 100]).expect("written");
        let mut bytes = good[5].clone();
        bytes[8] = 99;
        fs::write(store.path(versioned), &bytes).expect("written");
        // A whole file of another class under this class's name.
        fs::write(store.path(swapped), &good[8]).expect("written");
        for class in [flipped, truncated, versioned, swapped] {
            assert!(
                matches!(store.load(class), Err(StoreError::Damaged { .. })),
                "{class}"
            );
        }
        let reports = stored(dir.path(), 3);
        let rebuilt: Vec<&str> = reports
            .iter()
            .filter(|r| r.damaged.is_some())
            .map(|r| r.class.as_str())
            .collect();
        let names: Vec<String> = [flipped, truncated, versioned, swapped]
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(rebuilt.len(), 4, "{reports:?}");
        assert!(names.iter().all(|n| rebuilt.contains(&n.as_str())));
        assert!(reports.iter().all(|r| r.built == r.damaged.is_some()));
        for (class, bytes) in classes.iter().zip(&good) {
            assert_eq!(
                &fs::read(store.path(*class)).expect("rewritten"),
                bytes,
                "{class}"
            );
        }
    }

    /// The solver's databases read the store instead of building, and never trust a damaged
    /// file: a checksummed file of made-up values is read as it is, a damaged one is ignored.
    #[test]
    fn the_solver_reads_the_store_and_distrusts_damage() {
        let cell = |row, col| Square::new(row, col).expect("on the board").bit();
        let pos = Position::new(
            cell(7, 0) | cell(7, 2),
            cell(1, 2),
            cell(7, 0) | cell(7, 2) | cell(1, 2),
            Color::Red,
        )
        .expect("valid");
        let class = Pieces::of(&pos).expect("dark cells").material();
        let dir = tempfile::tempdir().expect("temporary directory");
        let store = Store::new(dir.path());
        stored(dir.path(), 3);
        let truth = {
            let mut db = EndgameDb::default();
            assert!(db.build_classes_for(&pos));
            db.score(&pos, 0)
        };
        assert!(truth.is_some_and(|s| s.is_win()));
        // Made up: every position drawn, with a valid checksum.
        let fake = Table::Bytes(vec![0; class.size()]);
        store.save(class, &fake).expect("written");
        let mut db = EndgameDb::with_store(store.clone());
        assert!(db.build_classes_for(&pos));
        assert_eq!(db.score(&pos, 0), Some(crate::search::Score::ZERO));
        // Damaged: one byte flipped, so rebuilt in memory with the true values.
        let mut bytes = fs::read(store.path(class)).expect("written");
        let last = bytes.len() - 3;
        bytes[last] ^= 0x40;
        fs::write(store.path(class), &bytes).expect("written");
        let mut db = EndgameDb::with_store(store);
        assert!(db.build_classes_for(&pos));
        assert_eq!(db.score(&pos, 0), truth);
        assert!(db.damaged_file().is_some_and(|d| d.contains("checksum")));
    }

    /// Every position of the classes of up to four pieces read a block at a time from the
    /// files (through the solver's look-up) has the value a fresh build holds, with fewer
    /// blocks read than look-ups (the cache), and a damaged block is reported, not read.
    #[test]
    fn look_ups_read_single_blocks_and_distrust_damage() {
        let dir = tempfile::tempdir().expect("temporary directory");
        stored(dir.path(), 4);
        let fresh = fresh(4);
        let db = EndgameDb::with_store(Store::new(dir.path()));
        let mut looked = 0u64;
        for (&class, table) in &fresh.classes {
            let layout = super::super::retro::Layout::whole(class);
            for i in (0..table.len()).step_by(7) {
                let p = layout.decode(i);
                assert_eq!(db.raw(p), Some(table.get(i)), "{class} {i}");
                assert_eq!(
                    db.raw(p.mirrored()),
                    Some(table.get(i)),
                    "{class} {i} mirrored"
                );
                looked += 2;
            }
        }
        assert!(db.blocks_read() > 0 && db.blocks_read() * 100 < looked);
        assert!(db.damaged_file().is_none());
        // One byte of the last block flipped: its look-ups answer nothing, and say why.
        let class = *fresh
            .classes
            .keys()
            .max_by_key(|c| c.size())
            .expect("a class");
        let store = Store::new(dir.path());
        let mut bytes = fs::read(store.path(class)).expect("written");
        let last = bytes.len() - 5;
        bytes[last] ^= 0x10;
        fs::write(store.path(class), &bytes).expect("written");
        let db = EndgameDb::with_store(Store::new(dir.path()));
        let layout = super::super::retro::Layout::whole(class);
        let p = layout.decode(class.size() - 1);
        assert_eq!(db.raw(p), None);
        let why = db.damaged_file().expect("reported");
        assert!(why.contains("checksum") && why.contains("block"), "{why}");
        assert!(
            why.contains(&store.path(class).display().to_string()),
            "{why}"
        );
    }

    /// The file of a class of seven pieces is read through the one probe, and refused when
    /// damaged (a flipped byte in a block, a truncated file, another class's file under its
    /// name), the message naming the file.
    #[test]
    fn damaged_seven_piece_files_are_refused() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let store = Store::new(dir.path());
        let sevens: Vec<Material> = super::super::classes_up_to(7)
            .into_iter()
            .filter(|c| c.pieces() == 7)
            .collect();
        assert_eq!(sevens.len(), 52);
        let class = *sevens.iter().min_by_key(|c| c.size()).expect("a class");
        // Made-up values with sound checksums: each position's value is its index's low bits.
        let values: Vec<u8> = (0..class.size()).map(|i| (i % 251) as u8).collect();
        store.save(class, &Table::Bytes(values)).expect("written");
        let layout = super::super::retro::Layout::whole(class);
        let db = EndgameDb::with_store(Store::new(dir.path()));
        for i in [0, 12_345, class.size() / 2, class.size() - 1] {
            let p = layout.decode(i);
            assert_eq!(p.occupied().count_ones(), 7);
            assert_eq!(db.raw(p), Some((i % 251) as u16), "{class} {i}");
            assert_eq!(db.raw(p.mirrored()), Some((i % 251) as u16), "mirrored");
            let pos = p.to_position().expect("a position");
            assert!(db.score(&pos, 0).is_some());
        }
        let good = fs::read(store.path(class)).expect("written");
        // A flipped byte in the last block.
        let mut bytes = good.clone();
        let last = bytes.len() - 3;
        bytes[last] ^= 0x08;
        fs::write(store.path(class), &bytes).expect("written");
        let db = EndgameDb::with_store(Store::new(dir.path()));
        assert_eq!(db.raw(layout.decode(class.size() - 1)), None);
        let why = db.damaged_file().expect("reported");
        assert!(
            why.contains("checksum")
                && why.contains("block")
                && why.contains(&store.path(class).display().to_string()),
            "{why}"
        );
        // Truncated: the header or the index says so.
        fs::write(store.path(class), &good[..good.len() / 2]).expect("written");
        let err = store.open(class).expect_err("refused").to_string();
        assert!(err.contains("damaged") && err.contains(".egdb"), "{err}");
        assert!(matches!(store.load(class), Err(StoreError::Damaged { .. })));
        // Another class's file under this name.
        let other = *sevens.iter().find(|&&c| c != class).expect("another class");
        fs::write(store.path(other), &good).expect("written");
        let err = store.open(other).expect_err("refused").to_string();
        assert!(
            err.contains(&format!("not the database of {other}")),
            "{err}"
        );
        assert!(!store.present(other));
    }

    /// A file of the previous format (version 1, uncompressed) is refused, naming the file and
    /// the version, and rebuilt.
    #[test]
    fn older_files_are_refused_and_rebuilt() {
        let dir = tempfile::tempdir().expect("temporary directory");
        stored(dir.path(), 2);
        let store = Store::new(dir.path());
        let class = build_order(2)[0];
        let good = fs::read(store.path(class)).expect("written");
        let mut old = Vec::new();
        old.extend_from_slice(&MAGIC);
        old.extend_from_slice(&1u32.to_le_bytes());
        old.extend_from_slice(&good[12..]);
        fs::write(store.path(class), &old).expect("written");
        let err = store.load(class).expect_err("refused").to_string();
        assert!(err.contains("version 1") && err.contains(".egdb"), "{err}");
        assert!(!store.present(class));
        let reports = stored(dir.path(), 2);
        assert!(
            reports[0].built && reports[0].damaged.is_some(),
            "{reports:?}"
        );
        assert_eq!(fs::read(store.path(class)).expect("rebuilt"), good);
    }

    /// A build stopped part way (classes missing, a temporary file left) goes on from the
    /// classes it finished: those are not built again, and the result is the whole build's.
    #[test]
    fn a_stopped_build_goes_on_from_the_classes_it_finished() {
        let dir = tempfile::tempdir().expect("temporary directory");
        stored(dir.path(), 3);
        let store = Store::new(dir.path());
        let order = build_order(3);
        let whole: Vec<Vec<u8>> = order
            .iter()
            .map(|&c| fs::read(store.path(c)).expect("written"))
            .collect();
        // Stopped while writing the sixth class: the last four are missing, and a temporary
        // file of half a class is left.
        for &c in &order[5..] {
            fs::remove_file(store.path(c)).expect("removed");
        }
        fs::write(
            dir.path().join(".stopped.tmp"),
            &whole[6][..whole[6].len() / 2],
        )
        .expect("written");
        let reports = stored(dir.path(), 3);
        let built: Vec<bool> = reports.iter().map(|r| r.built).collect();
        assert_eq!(
            built,
            [vec![false; 5], vec![true; order.len() - 5]].concat()
        );
        for (c, bytes) in order.iter().zip(&whole) {
            assert_eq!(&fs::read(store.path(*c)).expect("written"), bytes, "{c}");
        }
    }

    /// The plan of a build names every class in order and estimates its peak.
    #[test]
    fn a_build_plan_counts_what_is_left() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let db = EndgameDb::with_store(Store::new(dir.path()));
        let plan = db.build_plan(3);
        assert_eq!(plan.classes.len(), 9);
        assert_eq!(plan.to_build, plan.positions);
        assert!(plan.peak_bytes > plan.positions);
        stored(dir.path(), 3);
        assert_eq!(db.build_plan(3).to_build, 0);
        assert_eq!(
            db.build_plan(4).to_build,
            db.build_plan(4).positions - plan.positions
        );
    }

    /// One class built alone from the files of the classes it reads is the class the whole
    /// build writes; without those files it is refused, naming the one missing.
    #[test]
    fn one_class_is_built_alone_from_the_files_it_reads() {
        let dir = tempfile::tempdir().expect("temporary directory");
        stored(dir.path(), 3);
        let store = Store::new(dir.path());
        let class = *build_order(3).last().expect("a class");
        let whole = fs::read(store.path(class)).expect("written");
        fs::remove_file(store.path(class)).expect("removed");
        let mut db = EndgameDb::with_store(store.clone());
        let report = db.build_store_class(&class.to_string()).expect("built");
        assert!(report.built);
        assert_eq!(fs::read(store.path(class)).expect("written"), whole);
        let source = sources(class)[0];
        fs::remove_file(store.path(class)).expect("removed");
        fs::remove_file(store.path(source)).expect("removed");
        let err = db
            .build_store_class(&class.to_string())
            .expect_err("refused");
        assert!(err.to_string().contains("missing"), "{err}");
        assert!(db.build_store_class("9K v 9K").is_err());
    }

    /// Positions no table holds (a side of six pieces, a side without pieces to move against,
    /// a man on its crowning row) are answered with nothing, never a panic.
    #[test]
    fn positions_no_table_holds_are_not_looked_up() {
        let dir = tempfile::tempdir().expect("temporary directory");
        stored(dir.path(), 2);
        let db = EndgameDb::with_store(Store::new(dir.path()));
        let at = |row, col| Square::new(row, col).expect("on the board").bit();
        let six = at(5, 0) | at(5, 2) | at(5, 4) | at(5, 6) | at(6, 1) | at(6, 3);
        let alone = Position::new(six, Bitboard::EMPTY, six, Color::Red);
        if let Ok(pos) = alone {
            assert_eq!(db.score(&pos, 0), None);
        }
        let crowded = Position::new(six, at(1, 0), Bitboard::EMPTY, Color::Black);
        if let Ok(pos) = crowded {
            assert_eq!(db.score(&pos, 0), None);
        }
        let crowned_man = Position::new(at(0, 1), at(4, 1), Bitboard::EMPTY, Color::Black);
        if let Ok(pos) = crowned_man {
            assert_eq!(db.score(&pos, 0), None);
        }
    }
}
