//! Perft: the number of move sequences of a given length, the standard test of a move generator.
//!
//! [`perft`] walks the whole tree and is the reference. [`perft_parallel`] and [`divide`] add a
//! shared table of subtree counts ([`PerftTable`]): the same position at the same remaining depth
//! is reached by many move orders, and its count is computed once.

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::rules::movegen::{self, CrowningRule, Routes};
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;

/// Leaf count of the game tree of `depth` plies from `pos`.
///
/// With [`Routes::All`] a king capture that takes the same pieces by two routes counts twice, as in
/// the published counts (OEIS A133046); with [`Routes::Distinct`] it counts once.
/// Under `docs/rules.md`: [`CrowningRule::perft`] of [`CrowningRule::EndsMove`].
#[must_use]
pub fn perft(pos: &Position, depth: u32, routes: Routes) -> u64 {
    CrowningRule::EndsMove.perft(pos, depth, routes)
}

impl CrowningRule {
    /// [`perft`] under this crowning rule ([`CrowningRule::JumpsOn`]: HackerRank's rules).
    #[must_use]
    pub fn perft(self, pos: &Position, depth: u32, routes: Routes) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(pos, routes),
            _ => {
                let mut list = MoveList::new();
                self.generate(pos, routes, &mut list);
                list.iter()
                    .map(|&mv| self.perft(&pos.play(mv), depth - 1, routes))
                    .sum()
            }
        }
    }
}

/// Bytes per slot of a [`PerftTable`].
const SLOT_BYTES: usize = 16;

/// Distinguishes the same position at different remaining depths in the table.
const DEPTH_KEY: u64 = 0x9E37_79B9_7F4A_7C15;

/// A lock-free table of subtree counts shared by all threads.
///
/// Each slot is two atomic words: the key xor the count, and the count. A slot torn by two
/// writers racing fails the xor check and reads as a miss, so no lock is needed and a wrong count
/// can only come from two positions sharing all 64 bits of their key (about one chance in 2^64
/// per probe). Slots are always replaced: the newest subtree is the likeliest to be met again.
#[derive(Debug)]
pub struct PerftTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl PerftTable {
    /// A table of at most `megabytes` MiB; 0 gives a table that stores nothing, and so does a
    /// size that cannot be allocated (the counts are the same, only slower). See
    /// [`PerftTable::try_new`] to know whether the memory was had.
    #[must_use]
    pub fn new(megabytes: usize) -> PerftTable {
        PerftTable::try_new(megabytes).unwrap_or_else(|_| PerftTable::empty())
    }

    /// A table of at most `megabytes` MiB (a power of two of 16-byte slots), or an error when
    /// that memory cannot be allocated. The allocation never aborts the process.
    ///
    /// # Errors
    /// The allocator refused the memory.
    pub fn try_new(megabytes: usize) -> Result<PerftTable, TryReserveError> {
        let len = PerftTable::slots_for(megabytes);
        let mut slots = Vec::new();
        slots.try_reserve_exact(len)?;
        slots.extend((0..len).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Ok(PerftTable {
            slots,
            mask: len.saturating_sub(1),
        })
    }

    /// A table that stores nothing.
    #[must_use]
    pub fn empty() -> PerftTable {
        PerftTable {
            slots: Vec::new(),
            mask: 0,
        }
    }

    /// Bytes a table of `megabytes` MiB really takes (its slots are a power of two).
    #[must_use]
    pub fn bytes_for(megabytes: usize) -> usize {
        PerftTable::slots_for(megabytes) * SLOT_BYTES
    }

    /// Bytes this table takes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    fn slots_for(megabytes: usize) -> usize {
        let wanted = megabytes.saturating_mul(1 << 20) / SLOT_BYTES;
        if wanted == 0 {
            0
        } else {
            1usize << (usize::BITS - 1 - wanted.leading_zeros())
        }
    }

    fn key(pos: &Position, depth: u32) -> u64 {
        pos.hash() ^ DEPTH_KEY.wrapping_mul(u64::from(depth))
    }

    fn probe(&self, key: u64) -> Option<u64> {
        let slot = self.slots.get(key as usize & self.mask)?;
        let check = slot[0].load(Ordering::Relaxed);
        let count = slot[1].load(Ordering::Relaxed);
        (check ^ count == key && count != 0).then_some(count)
    }

    fn store(&self, key: u64, count: u64) {
        let Some(slot) = self.slots.get(key as usize & self.mask) else {
            return;
        };
        slot[0].store(key ^ count, Ordering::Relaxed);
        slot[1].store(count, Ordering::Relaxed);
    }
}

/// [`perft`] with subtree counts shared through `table`.
#[must_use]
pub fn perft_cached(pos: &Position, depth: u32, routes: Routes, table: &PerftTable) -> u64 {
    if depth <= 2 {
        return perft(pos, depth, routes);
    }
    let key = PerftTable::key(pos, depth);
    if let Some(count) = table.probe(key) {
        return count;
    }
    let mut list = MoveList::new();
    movegen::generate(pos, routes, &mut list);
    let count = list
        .iter()
        .map(|&mv| perft_cached(&pos.play(mv), depth - 1, routes, table))
        .sum();
    table.store(key, count);
    count
}

/// Leaf count under each first move, in canonical move order, the moves shared out over the
/// rayon pool.
#[must_use]
pub fn divide(pos: &Position, depth: u32, routes: Routes, table: &PerftTable) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    movegen::generate(pos, routes, &mut list);
    list.sort();
    list.par_iter()
        .map(|&mv| {
            let child = pos.play(mv);
            (
                mv,
                perft_cached(&child, depth.saturating_sub(1), routes, table),
            )
        })
        .collect()
}

/// [`perft_cached`] with the subtrees of the first two plies shared out over the rayon pool.
#[must_use]
pub fn perft_parallel(pos: &Position, depth: u32, routes: Routes, table: &PerftTable) -> u64 {
    if depth <= 3 {
        return perft(pos, depth, routes);
    }
    let mut list = MoveList::new();
    movegen::generate(pos, routes, &mut list);
    let mut seconds = Vec::new();
    for &mv in &list {
        let child = pos.play(mv);
        let mut replies = MoveList::new();
        movegen::generate(&child, routes, &mut replies);
        seconds.extend(replies.iter().map(|&r| child.play(r)));
    }
    seconds
        .par_iter()
        .map(|p| perft_cached(p, depth - 2, routes, table))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table changes the work, never the count, whatever its size.
    #[test]
    fn cached_counts_equal_plain_counts() {
        let start = Position::start();
        let plain = perft(&start, 7, Routes::All);
        for megabytes in [0, 1, 16] {
            let table = PerftTable::new(megabytes);
            assert_eq!(perft_cached(&start, 7, Routes::All, &table), plain);
            assert_eq!(perft_parallel(&start, 7, Routes::All, &table), plain);
        }
    }

    /// A size no allocator can give is an error, not an abort; the plain constructor then
    /// gives a table that stores nothing and still counts right.
    #[test]
    fn an_impossible_table_is_an_error() {
        assert!(PerftTable::try_new(usize::MAX / (1 << 20)).is_err());
        let table = PerftTable::new(usize::MAX / (1 << 20));
        assert_eq!(table.bytes(), 0);
        let start = Position::start();
        assert_eq!(
            perft_parallel(&start, 6, Routes::All, &table),
            perft(&start, 6, Routes::All)
        );
        assert_eq!(PerftTable::bytes_for(3), 2 << 20);
    }
}
