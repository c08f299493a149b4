//! Transposition table: a fixed-size, two-way set-associative cache of search results.
//!
//! Each bucket holds a depth-preferred entry and an always-replace entry, so deep results survive
//! a flood of shallow ones while recent shallow results are still cached. Entries are two `u64`
//! words (the full key and the packed data).
//!
//! The table starts small and grows (by four, up to the requested size) once half its slots are
//! in use. A search of a few thousand nodes then touches a few hundred kilobytes instead of
//! faulting in pages all over a large table: on the official puzzles the first touch of each page
//! of a 64 MiB table cost more than the search itself.

use std::ops::{Deref, DerefMut};

use super::score::Score;

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The score is the exact value.
    Exact,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (the search failed low).
    Upper,
}

/// A decoded table entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Score relative to the node (see `Score::to_node`).
    pub score: Score,
    /// Remaining depth the score was searched with.
    pub depth: u8,
    /// Kind of bound.
    pub bound: Bound,
    /// Index of the best move in the node's generated move list, if any.
    pub best: Option<u8>,
}

/// Bytes per bucket: two entries of two words.
const BUCKET_BYTES: usize = 32;
const _: () = assert!(BUCKET_BYTES == 2 * 2 * std::mem::size_of::<u64>());

/// Buckets a new table starts with (512 KiB).
const INITIAL_BUCKETS: usize = 1 << 14;

/// The table. Its size is a power of two of buckets not above the requested megabytes.
#[derive(Clone, Debug)]
pub struct TranspositionTable {
    /// Two words per entry, two entries per bucket: [key0, data0, key1, data1].
    words: Words,
    mask: usize,
    /// The size the table may grow to, in buckets.
    max_buckets: usize,
    /// Slots holding an entry; the table grows when this reaches half of all slots.
    used: usize,
    generation: u8,
    probes: u64,
    hits: u64,
}

/// Tables from this size on are mapped memory that the kernel is asked to back with huge pages.
const HUGE_PAGE_BYTES: usize = 2 << 20;

/// The table's words. A probe of a large table is a cache miss and, with the usual 4 KiB pages,
/// a TLB miss too; tables of [`HUGE_PAGE_BYTES`] or more are therefore an anonymous mapping
/// advised to use transparent huge pages (Linux; where the advice or the mapping is refused,
/// the same words on the heap). Either way the contents are the same, so are the searches.
pub(super) enum Words {
    Mapped(memmap2::MmapMut),
    Heap(Vec<u64>),
}

impl Words {
    /// `len` zeroed words, or `None` when the memory cannot be had.
    pub(super) fn zeroed(len: usize) -> Option<Words> {
        let bytes = len.checked_mul(8)?;
        if bytes >= HUGE_PAGE_BYTES {
            if let Ok(map) = memmap2::MmapMut::map_anon(bytes) {
                // A mapping is page-aligned, so it is a slice of words; checked all the same.
                if bytemuck::try_cast_slice::<u8, u64>(&map).is_ok() {
                    #[cfg(target_os = "linux")]
                    let _ = map.advise(memmap2::Advice::HugePage);
                    return Some(Words::Mapped(map));
                }
            }
        }
        // Ask for the memory without aborting first; the zeroed allocation then gets pages the
        // system only touches when they are written (a `resize` would write every one).
        Vec::<u64>::new().try_reserve_exact(len).ok()?;
        Some(Words::Heap(vec![0u64; len]))
    }
}

impl Deref for Words {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        match self {
            Words::Mapped(map) => bytemuck::cast_slice(map),
            Words::Heap(heap) => heap,
        }
    }
}

impl DerefMut for Words {
    fn deref_mut(&mut self) -> &mut [u64] {
        match self {
            Words::Mapped(map) => bytemuck::cast_slice_mut(map),
            Words::Heap(heap) => heap,
        }
    }
}

impl Clone for Words {
    fn clone(&self) -> Words {
        match Words::zeroed(self.len()) {
            Some(mut words) => {
                words.copy_from_slice(self);
                words
            }
            None => Words::Heap(self.to_vec()),
        }
    }
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} words", self.len())
    }
}

impl Entry {
    fn pack(self, generation: u8) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let best = self.best.map_or(0u64, |i| u64::from(i) + 1);
        (self.score.0 as i16 as u16 as u64)
            | (u64::from(self.depth) << 16)
            | (bound << 24)
            | (best << 32)
            | (u64::from(generation) << 48)
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 24) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let best = ((data >> 32) & 0x1FF) as u16;
        Some(Entry {
            score: Score(i32::from(data as u16 as i16)),
            depth: ((data >> 16) & 0xFF) as u8,
            bound,
            best: best.checked_sub(1).and_then(|b| u8::try_from(b).ok()),
        })
    }
}

fn generation_of(data: u64) -> u8 {
    ((data >> 48) & 0xFF) as u8
}

impl TranspositionTable {
    /// A table of at most `megabytes` MiB (at least one bucket).
    #[must_use]
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.saturating_mul(1 << 20).max(BUCKET_BYTES);
        let max_buckets = 1usize << (usize::BITS - 1 - (bytes / BUCKET_BYTES).leading_zeros());
        let buckets = max_buckets.min(INITIAL_BUCKETS);
        TranspositionTable {
            words: Words::zeroed(buckets * 4)
                .unwrap_or_else(|| Words::Heap(vec![0u64; buckets * 4])),
            mask: buckets - 1,
            max_buckets,
            used: 0,
            generation: 0,
            probes: 0,
            hits: 0,
        }
    }

    /// Forgets every entry (a new game); the table keeps its size.
    pub fn clear(&mut self) {
        self.words.fill(0);
        self.used = 0;
        self.generation = 0;
    }

    /// Grows the table to its full size now (keeping its entries), so that no later store pauses
    /// to grow it: for a search that reads a clock between stores. Where the memory cannot be had
    /// the table keeps the size it has.
    pub fn reserve_full(&mut self) {
        while self.buckets() < self.max_buckets {
            self.grow();
        }
    }

    /// Marks later stores as newer than everything stored so far (one generation per turn), so
    /// stale deep entries from earlier turns can be replaced.
    pub fn new_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.mask) * 4
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&mut self, key: u64) -> Option<Entry> {
        self.probes += 1;
        let b = self.bucket(key);
        for slot in [b, b + 2] {
            if self.words[slot] == key && self.words[slot + 1] != 0 {
                self.hits += 1;
                return Entry::unpack(self.words[slot + 1]);
            }
        }
        None
    }

    /// Stores `entry` for `key`: in the depth-preferred slot when it is as deep as what is there
    /// (or that is from an older turn or the same position), otherwise in the always-replace slot.
    pub fn store(&mut self, key: u64, entry: Entry) {
        self.store_packed(key, entry.pack(self.generation));
        if self.used * 2 >= self.words.len() / 2 && self.buckets() < self.max_buckets {
            self.grow();
        }
    }

    /// [`store`](Self::store) of an already packed entry, without growing.
    fn store_packed(&mut self, key: u64, data: u64) {
        let b = self.bucket(key);
        let old = self.words[b + 1];
        let old_depth = ((old >> 16) & 0xFF) as u8;
        let new_depth = ((data >> 16) & 0xFF) as u8;
        let replace_deep = old == 0
            || self.words[b] == key
            || new_depth >= old_depth
            || generation_of(old) != generation_of(data);
        let slot = if replace_deep { b } else { b + 2 };
        if self.words[slot + 1] == 0 {
            self.used += 1;
        }
        self.words[slot] = key;
        self.words[slot + 1] = data;
    }

    /// Buckets in use now.
    fn buckets(&self) -> usize {
        self.mask + 1
    }

    /// Quadruples the table (up to its maximum) and re-inserts every entry. When the memory
    /// cannot be had, the table stops growing and the search goes on with the table it has
    /// (same results, more work) instead of aborting.
    fn grow(&mut self) {
        let buckets = (self.buckets() * 4).min(self.max_buckets);
        // The memory is asked for without aborting; zeroed pages are only touched when written.
        let Some(words) = Words::zeroed(buckets * 4) else {
            self.max_buckets = self.buckets();
            return;
        };
        let old = std::mem::replace(&mut self.words, words);
        self.mask = buckets - 1;
        self.used = 0;
        // Deep slots first, so a deep entry keeps the depth-preferred slot in its new bucket.
        for first in [0, 2] {
            for pair in old.chunks_exact(4) {
                let (key, data) = (pair[first], pair[first + 1]);
                if data != 0 {
                    self.store_packed(key, data);
                }
            }
        }
    }

    /// A copy of this table written into `spare` (the words of a table no longer needed, see
    /// [`into_words`](Self::into_words)) when it has this table's size; otherwise into new
    /// memory, as [`clone`](Clone::clone) does. The same table either way: reusing the words
    /// only saves the system zeroing fresh pages that the copy then overwrites.
    #[must_use]
    pub(super) fn copy_into(&self, spare: Option<Words>) -> TranspositionTable {
        match spare {
            Some(mut words) if words.len() == self.words.len() => {
                words.copy_from_slice(&self.words);
                TranspositionTable { words, ..*self }
            }
            _ => self.clone(),
        }
    }

    /// The table's memory, for [`copy_into`](Self::copy_into) to reuse.
    #[must_use]
    pub(super) fn into_words(self) -> Words {
        self.words
    }

    /// Fraction of probes that found an entry, for statistics.
    #[must_use]
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 / self.probes as f64
        }
    }

    /// Size of the table in bytes now (it may grow up to the size it was created with).
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe() {
        let mut tt = TranspositionTable::new(1);
        let e = Entry {
            score: Score(-1234),
            depth: 17,
            bound: Bound::Lower,
            best: Some(3),
        };
        tt.store(0xDEAD_BEEF, e);
        assert_eq!(tt.probe(0xDEAD_BEEF), Some(e));
        assert_eq!(tt.probe(0xDEAD_BEF0), None);
        assert!(tt.bytes() <= 1 << 20);
    }

    /// A game end found 3 plies from the root and stored, then met again 5 plies from the root
    /// through another move order, is the same distance from the node: 2 plies further from the
    /// root. Plain scores are unchanged.
    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let cases = [
            (Score::won_at(9), Score::won_at(11)),
            (Score::lost_at(10), Score::lost_at(12)),
            (Score(-87), Score(-87)),
        ];
        for (found_at_ply_3, seen_at_ply_5) in cases {
            let mut tt = TranspositionTable::new(1);
            tt.store(
                42,
                Entry {
                    score: found_at_ply_3.to_node(3),
                    depth: 6,
                    bound: Bound::Exact,
                    best: None,
                },
            );
            let e = tt.probe(42).expect("stored");
            assert_eq!(e.score.from_node(5), seen_at_ply_5);
            assert_eq!(e.score.from_node(3), found_at_ply_3);
        }
    }

    /// Growing keeps what was stored, and stops at the requested size.
    #[test]
    fn growth_keeps_entries_up_to_the_requested_size() {
        let mut tt = TranspositionTable::new(4);
        let start = tt.bytes();
        let entry = |i: u64| Entry {
            score: Score((i % 1000) as i32),
            depth: (i % 50) as u8,
            bound: Bound::Exact,
            best: Some((i % 7) as u8),
        };
        // Keys spread over the buckets like Zobrist keys do (odd multiplier, distinct keys).
        let key = |i: u64| (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let n = 40_000u64;
        for i in 0..n {
            tt.store(key(i), entry(i));
        }
        assert!(tt.bytes() > start, "the table grew");
        assert!(tt.bytes() <= 4 << 20, "but not past 4 MiB");
        let kept = (0..n)
            .filter(|&i| tt.probe(key(i)) == Some(entry(i)))
            .count();
        assert!(kept as u64 > n * 9 / 10, "kept {kept} of {n}");
    }

    /// A table of mapped memory (from [`HUGE_PAGE_BYTES`] on) keeps what the heap would, and
    /// so does its copy.
    #[test]
    fn mapped_tables_and_their_copies_keep_entries() {
        let mut tt = TranspositionTable::new(8);
        let key = |i: u64| (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let entry = |i: u64| Entry {
            score: Score((i % 500) as i32),
            depth: (i % 40) as u8,
            bound: Bound::Upper,
            best: None,
        };
        for i in 0..200_000 {
            tt.store(key(i), entry(i));
        }
        assert!(tt.bytes() >= HUGE_PAGE_BYTES);
        let mut copy = tt.clone();
        let kept = (0..200_000)
            .filter(|&i| tt.probe(key(i)) == Some(entry(i)))
            .count();
        assert!(kept > 150_000, "kept {kept}");
        assert!((0..200_000).all(|i| copy.probe(key(i)) == tt.probe(key(i))));
        let heap = Words::Heap(tt.words.to_vec());
        assert_eq!(&heap[..], &tt.words[..]);
    }

    #[test]
    fn packing_keeps_extreme_scores() {
        for s in [
            Score::won_at(0),
            Score::lost_at(0),
            Score::lost_at(999),
            Score::ZERO,
        ] {
            let e = Entry {
                score: s,
                depth: 255,
                bound: Bound::Exact,
                best: Some(255),
            };
            assert_eq!(Entry::unpack(e.pack(7)), Some(e));
        }
    }
}
