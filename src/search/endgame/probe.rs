//! Look-ups in the database files of a store, one block at a time: the classes are not read
//! whole, only the blocks the positions asked about fall in, kept in a cache of decoded blocks.

use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::FxHashMap;

use super::file::ClassFile;
use super::pieces::{Material, Pieces};
use super::store::Store;

/// Decoded bytes kept by default (64 MiB: a thousand blocks).
pub const CACHE_BYTES: usize = 64 << 20;

/// The files of a store opened for look-ups, and the blocks decoded so far.
#[derive(Debug, Default)]
pub(super) struct Probe {
    inner: Mutex<Inner>,
}

/// A decoded block and when it was last used.
type Cached = (Arc<Vec<u8>>, u64);

#[derive(Debug, Default)]
struct Inner {
    /// Each class asked about: its file, or `None` when it has none (or a damaged one).
    files: FxHashMap<Material, Option<Arc<ClassFile>>>,
    /// Decoded blocks by class and block number, with when each was last used.
    blocks: FxHashMap<(Material, u32), Cached>,
    /// Bytes of the blocks held.
    held: usize,
    /// Look-ups so far (the clock of `blocks`).
    clock: u64,
    /// Blocks read from the files.
    reads: u64,
    /// The first file or block found damaged, with why.
    damaged: Option<String>,
}

impl Probe {
    /// Whether `class` (canonical) has an undamaged file header in `store` (opening it once).
    pub(super) fn has(&self, store: &Store, class: Material) -> bool {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.file(store, class).is_some()
    }

    /// The stored value of `p` (placeable, of a canonical class) read from its file, `None`
    /// when the class has no undamaged file or the block is damaged.
    pub(super) fn raw(&self, store: &Store, p: Pieces) -> Option<u16> {
        let class = p.material().canonical();
        let index = p.index();
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let file = inner.file(store, class)?;
        let per_block = file.block_values();
        let b = index / per_block;
        let at = index % per_block;
        inner.clock += 1;
        let clock = inner.clock;
        let key = (class, b as u32);
        let block = match inner.blocks.get_mut(&key) {
            Some((block, used)) => {
                *used = clock;
                Arc::clone(block)
            }
            None => {
                let block = match file.block(b) {
                    Ok(block) => Arc::new(block),
                    Err(why) => {
                        inner
                            .damaged
                            .get_or_insert_with(|| format!("{}: {why}", file.path().display()));
                        inner.files.insert(class, None);
                        return None;
                    }
                };
                inner.reads += 1;
                inner.held += block.len();
                inner.blocks.insert(key, (Arc::clone(&block), clock));
                inner.evict();
                block
            }
        };
        Some(match file.header().width {
            1 => u16::from(*block.get(at)?),
            _ => u16::from_le_bytes([*block.get(2 * at)?, *block.get(2 * at + 1)?]),
        })
    }

    /// Blocks read from the files so far.
    pub(super) fn reads(&self) -> u64 {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .reads
    }

    /// The first damaged file or block met, with why.
    pub(super) fn damaged(&self) -> Option<String> {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .damaged
            .clone()
    }
}

impl Inner {
    fn file(&mut self, store: &Store, class: Material) -> Option<Arc<ClassFile>> {
        if let Some(f) = self.files.get(&class) {
            return f.clone();
        }
        let opened = match store.open(class) {
            Ok(f) => f.map(Arc::new),
            Err(e) => {
                self.damaged.get_or_insert(e.to_string());
                None
            }
        };
        self.files.insert(class, opened.clone());
        opened
    }

    /// Drops the least recently used half of the blocks when they hold more than
    /// [`CACHE_BYTES`].
    fn evict(&mut self) {
        if self.held <= CACHE_BYTES {
            return;
        }
        let mut used: Vec<u64> = self.blocks.values().map(|(_, u)| *u).collect();
        used.sort_unstable();
        let cut = used[used.len() / 2];
        self.blocks.retain(|_, (_, u)| *u > cut);
        self.held = self.blocks.values().map(|(b, _)| b.len()).sum();
    }
}
