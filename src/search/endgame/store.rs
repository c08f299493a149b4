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
use super::{EndgameDb, MAX_GROUP};

/// First bytes of every database file.
pub const MAGIC: [u8; 8] = *b"CKEGDB\r\n";
/// Version of the file format (and of the values' meaning); files of another version are
/// rebuilt.
pub const VERSION: u32 = 1;
/// Bytes before the values.
const HEADER: usize = 32;

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
        fs::metadata(self.path_of(class, extent)).is_ok_and(|m| {
            let slots = slots as u64;
            m.len() == (HEADER as u64 + slots) || m.len() == (HEADER as u64 + 2 * slots)
        })
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
        decode(class, extent, slots, &bytes)
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
            f.write_all(&encode(class, extent, table))?;
            f.sync_all()
        });
        if let Err(source) = written.and_then(|()| fs::rename(&temp, &path)) {
            let _ = fs::remove_file(&temp);
            return Err(io_error(&path)(source));
        }
        Ok(())
    }
}

/// The header's bytes before the checksum.
fn header(class: Material, width: usize, slots: usize) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(&MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend(class.groups().map(|g| g as u8));
    h.extend_from_slice(&(width as u32).to_le_bytes());
    h.extend_from_slice(&(slots as u64).to_le_bytes());
    h
}

/// What the checksum covers besides the header and the values: the men placements of a file of
/// reachable positions, so that a file renamed to another puzzle's is not trusted.
fn key_bytes(extent: Extent) -> Vec<u8> {
    match extent {
        Extent::Whole => Vec::new(),
        Extent::Halved => b"halved".to_vec(),
        Extent::Reach([red, black]) => [red.to_le_bytes(), black.to_le_bytes()].concat(),
    }
}

/// The whole file of `class` over `extent`.
fn encode(class: Material, extent: Extent, table: &Table) -> Vec<u8> {
    let mut out = header(class, table.width(), table.len());
    out.reserve(4 + table.bytes());
    let start = out.len() + 4;
    out.extend_from_slice(&[0; 4]);
    match table {
        Table::Bytes(b) => out.extend_from_slice(b),
        Table::Words(w) => out.extend(w.iter().flat_map(|v| v.to_le_bytes())),
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&out[..start - 4]);
    crc.update(&key_bytes(extent));
    crc.update(&out[start..]);
    out[start - 4..start].copy_from_slice(&crc.finalize().to_le_bytes());
    out
}

/// The table in the file `bytes` of `class` over `extent`, of `expected` positions, or what is
/// wrong with it.
fn decode(class: Material, extent: Extent, expected: usize, bytes: &[u8]) -> Result<Table, String> {
    if bytes.len() < HEADER {
        return Err(format!("{} bytes, shorter than the header", bytes.len()));
    }
    let (head, values) = bytes.split_at(HEADER);
    if head[..8] != MAGIC {
        return Err("not a database file".to_string());
    }
    let word = |at: usize| u32::from_le_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
    if word(8) != VERSION {
        return Err(format!("format version {}, expected {VERSION}", word(8)));
    }
    if head[12..16] != class.groups().map(|g| g as u8) {
        return Err(format!("not the database of {class}"));
    }
    let width = word(16) as usize;
    let mut slots = [0u8; 8];
    slots.copy_from_slice(&head[20..28]);
    let slots = u64::from_le_bytes(slots);
    if !(1..=2).contains(&width) || slots != expected as u64 {
        return Err(format!("{slots} positions of {width} bytes"));
    }
    if values.len() as u64 != slots * width as u64 {
        return Err(format!(
            "{} bytes of values, expected {}",
            values.len(),
            slots * width as u64
        ));
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head[..28]);
    crc.update(&key_bytes(extent));
    crc.update(values);
    if crc.finalize() != word(28) {
        return Err("checksum mismatch".to_string());
    }
    Ok(if width == 1 {
        Table::Bytes(values.to_vec())
    } else {
        Table::Words(
            values
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect(),
        )
    })
}

/// What `checkers egdb build` did with one class.
#[derive(Debug, Clone, PartialEq, Eq)]
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
}

impl EndgameDb {
    /// Makes the store hold every class of at most `pieces` pieces (at most
    /// five a side): classes with an undamaged file are read (the larger classes need them),
    /// the others built and written. `report` hears of each class when it is done.
    ///
    /// # Errors
    /// [`StoreError::Io`] when a file cannot be read or written, and
    /// [`StoreError::Damaged`] (naming the class) when a build failed, which is a bug.
    pub fn build_store(
        &mut self,
        pieces: usize,
        report: &mut impl FnMut(&ClassReport),
    ) -> Result<(), StoreError> {
        let Some(store) = self.store.clone() else {
            return Ok(());
        };
        let guard = Guard::until(None);
        for class in Material::all_up_to(pieces, MAX_GROUP) {
            if !class.is_canonical() {
                continue;
            }
            let mut damaged = None;
            // Every file is verified, also of a class already held.
            let kept = match store.load(class) {
                Ok(kept) => kept,
                Err(e @ StoreError::Damaged { .. }) => {
                    damaged = Some(e.to_string());
                    None
                }
                Err(e) => return Err(e),
            };
            let built = kept.is_none();
            let table = match kept {
                Some(table) => table,
                None => {
                    let table = self.build(class, &guard).map_err(|e| StoreError::Damaged {
                        path: store.path(class),
                        reason: e.to_string(),
                    })?;
                    store.save(class, &table)?;
                    table
                }
            };
            self.classes.insert(class, table);
            let file_bytes = fs::metadata(store.path(class)).map_or(0, |m| m.len());
            report(&ClassReport {
                class: class.to_string(),
                positions: class.size(),
                file_bytes,
                built,
                damaged,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::pieces::Pieces;
    use super::*;
    use crate::rules::piece::Color;
    use crate::rules::position::Position;
    use crate::rules::square::Square;

    /// A fresh build of every class of at most `pieces` pieces, in memory.
    fn fresh(pieces: usize) -> EndgameDb {
        let mut db = EndgameDb::default();
        let guard = Guard::until(None);
        for class in Material::all_up_to(pieces, MAX_GROUP) {
            if !class.is_canonical() {
                continue;
            }
            let table = db.build(class, &guard).expect("smaller classes first");
            db.classes.insert(class, table);
        }
        db
    }

    fn stored(dir: &Path, pieces: usize) -> Vec<ClassReport> {
        let mut db = EndgameDb::with_store(Store::new(dir));
        let mut reports = Vec::new();
        db.build_store(pieces, &mut |r| reports.push(r.clone()))
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
            assert!(db.prepare_for(&pos));
            db.score(&pos, 0)
        };
        assert!(truth.is_some_and(|s| s.is_win()));
        // Made up: every position drawn, with a valid checksum.
        let fake = Table::Bytes(vec![0; class.size()]);
        store.save(class, &fake).expect("written");
        let mut db = EndgameDb::with_store(store.clone());
        assert!(db.prepare_for(&pos));
        assert_eq!(db.score(&pos, 0), Some(crate::search::Score::ZERO));
        // Damaged: one byte flipped, so rebuilt in memory with the true values.
        let mut bytes = fs::read(store.path(class)).expect("written");
        bytes[HEADER + 7] ^= 0x40;
        fs::write(store.path(class), &bytes).expect("written");
        let mut db = EndgameDb::with_store(store);
        assert!(db.prepare_for(&pos));
        assert_eq!(db.score(&pos, 0), truth);
        assert!(db.damaged_file().is_some_and(|d| d.contains("checksum")));
    }
}
