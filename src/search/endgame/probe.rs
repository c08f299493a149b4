//! Look-ups in the database files of a store, one block at a time: the classes are not read
//! whole, only the blocks the positions asked about fall in, kept in a cache of decoded blocks.
//!
//! A look-up whose block is cached takes one uncontended lock, one array access for its class
//! and one hash of a `u64` for its block, and reads the value in place (no reference counting).
//! A block not cached is read and decoded with the lock released, so other threads' look-ups go
//! on meanwhile. When the cache is full, each block read puts out the least recently used
//! blocks, a few at a time: no look-up waits for a large part of the cache to be freed at once
//! (which took 6-20 ms, enough to make a player overrun a 20 ms move).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use lru::LruCache;
use rustc_hash::FxBuildHasher;

use crate::rules::piece::Color;

use super::file::ClassFile;
use super::index;
use super::pieces::{Material, Pieces};
use super::store::Store;
use crate::search::knobs::CACHE_BYTES;

/// Group sizes run from 0 to 7 (`cells::MAX_RANKED`): a class's code is its four sizes in
/// this base.
const BASE: usize = super::cells::MAX_RANKED + 1;
/// Class codes.
const CLASSES: usize = BASE * BASE * BASE * BASE;

/// The files of a store opened for look-ups, and the blocks decoded so far.
#[derive(Debug, Default)]
pub(super) struct Probe {
    inner: Mutex<Inner>,
    /// Blocks read from the files (read without the lock: the game search asks after every
    /// look-up whether one was read).
    reads: AtomicU64,
}

/// What is known of a class's file.
#[derive(Debug, Clone, Default)]
enum Slot {
    /// Not asked about yet.
    #[default]
    Unknown,
    /// No file, or a damaged one.
    Missing,
    /// The file, opened, with its values per block and bytes per value.
    File {
        file: Arc<ClassFile>,
        per_block: usize,
        width: usize,
    },
}

#[derive(Debug)]
struct Inner {
    /// Each class by its code ([`code`]); empty until the first look-up.
    classes: Vec<Slot>,
    /// Decoded blocks by [`key`], the least recently used first out.
    blocks: LruCache<u64, Box<[u8]>, FxBuildHasher>,
    /// Bytes of the blocks held.
    held: usize,
    /// Look-ups so far.
    lookups: u64,
    /// The first file or block found damaged, with why.
    damaged: Option<String>,
}

impl Default for Inner {
    fn default() -> Inner {
        Inner {
            classes: Vec::new(),
            blocks: LruCache::unbounded_with_hasher(FxBuildHasher),
            held: 0,
            lookups: 0,
            damaged: None,
        }
    }
}

/// A class's place in [`Inner::classes`].
fn code(class: Material) -> usize {
    class
        .groups()
        .iter()
        .fold(0, |c, &g| c * BASE + g.min(BASE - 1))
}

/// A block's key in the cache: its class's code and its number.
fn key(code: usize, block: usize) -> u64 {
    (code as u64) << 40 | block as u64
}

/// Value `at` of a decoded block of `width`-byte values.
fn value(block: &[u8], at: usize, width: usize) -> Option<u16> {
    if width == 1 {
        block.get(at).map(|&v| u16::from(v))
    } else {
        let b = block.get(2 * at..2 * at + 2)?;
        Some(u16::from_le_bytes([b[0], b[1]]))
    }
}

impl Probe {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether `class` (canonical) has an undamaged file header in `store` (opening it once).
    pub(super) fn has(&self, store: &Store, class: Material) -> bool {
        self.lock().slot(store, class).is_some()
    }

    /// The stored value of `p` (placeable, of class `material`) read from the file of its
    /// canonical class, `None` when that class has no undamaged file or the block is damaged.
    pub(super) fn raw(&self, store: &Store, p: Pieces, material: Material) -> Option<u16> {
        let (p, class) = if material.is_canonical() {
            (p, material)
        } else {
            (p.mirrored(), material.mirrored())
        };
        let index = (index::digits_in(p, class) << 1) | usize::from(p.side == Color::Black);
        let code = code(class);
        let mut inner = self.lock();
        let (per_block, width) = inner.slot(store, class)?;
        let (b, at) = (index / per_block, index % per_block);
        let key = key(code, b);
        inner.lookups += 1;
        if let Some(block) = inner.blocks.get(&key) {
            return value(block, at, width);
        }
        // Not cached: read and decode it without holding the lock.
        let Slot::File { file, .. } = &inner.classes[code] else {
            return None;
        };
        let file = Arc::clone(file);
        drop(inner);
        let read = file.block(b);
        let mut inner = self.lock();
        let block = match read {
            Ok(block) => block.into_boxed_slice(),
            Err(why) => {
                inner
                    .damaged
                    .get_or_insert_with(|| format!("{}: {why}", file.path().display()));
                inner.classes[code] = Slot::Missing;
                return None;
            }
        };
        self.reads.fetch_add(1, Ordering::Relaxed);
        let v = value(&block, at, width);
        if !inner.blocks.contains(&key) {
            inner.held += block.len();
            inner.blocks.put(key, block);
            inner.evict();
        }
        v
    }

    /// Blocks read from the files so far.
    pub(super) fn reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }

    /// Look-ups in the files so far (cached or not).
    pub(super) fn lookups(&self) -> u64 {
        self.lock().lookups
    }

    /// The first damaged file or block met, with why.
    pub(super) fn damaged(&self) -> Option<String> {
        self.lock().damaged.clone()
    }
}

impl Inner {
    /// Values per block and bytes per value of `class`'s file, opening it the first time;
    /// `None` when it has no undamaged file.
    fn slot(&mut self, store: &Store, class: Material) -> Option<(usize, usize)> {
        if self.classes.is_empty() {
            self.classes = vec![Slot::Unknown; CLASSES];
        }
        let c = code(class);
        if matches!(self.classes[c], Slot::Unknown) {
            self.classes[c] = match store.open(class) {
                Ok(Some(file)) => Slot::File {
                    per_block: file.block_values().max(1),
                    width: file.header().width.max(1),
                    file: Arc::new(file),
                },
                Ok(None) => Slot::Missing,
                Err(e) => {
                    self.damaged.get_or_insert(e.to_string());
                    Slot::Missing
                }
            };
        }
        match &self.classes[c] {
            Slot::File {
                per_block, width, ..
            } => Some((*per_block, *width)),
            _ => None,
        }
    }

    /// Puts out the least recently used blocks while they hold more than [`CACHE_BYTES`].
    fn evict(&mut self) {
        while self.held > CACHE_BYTES {
            let Some((_, block)) = self.blocks.pop_lru() else {
                break;
            };
            self.held -= block.len();
        }
    }
}
