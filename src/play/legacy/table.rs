//! The playing search's transposition table: one entry per slot, replaced when the new result is
//! at least as deep or the old one is from an earlier move of the game.
//!
//! The puzzle solver has its own exact table in `search::tt`; this one is simpler because play
//! needs no proofs: a bound, a depth, a score and the index of the best move.

/// What a stored score says about the true value: the same three kinds as the puzzle solver's
/// table.
pub use crate::search::tt::Bound;

/// One stored result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Score, relative to the node for game ends (see [`to_node`](super::search::to_node)).
    pub score: i32,
    /// Remaining depth it was searched with.
    pub depth: i32,
    /// Kind of bound.
    pub bound: Bound,
    /// Index of the best move in the node's generated list.
    pub best: Option<u8>,
}

/// A slot's data packed into one word: score (16 bits), depth (8), bound (2: 0 empty, 1 exact,
/// 2 lower, 3 upper), best move index + 1 (8, 0 for none) and generation (8).
#[derive(Clone, Copy)]
struct Data(u64);

impl Data {
    fn pack(entry: Entry, generation: u8, best: u8) -> Data {
        let score = entry.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16 as u16;
        let depth = entry.depth.clamp(-1, 127) as i8 as u8;
        let bound: u64 = match entry.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        Data(
            u64::from(score)
                | (u64::from(depth) << 16)
                | (bound << 24)
                | (u64::from(best) << 32)
                | (u64::from(generation) << 40),
        )
    }

    fn bound(self) -> u64 {
        (self.0 >> 24) & 3
    }

    fn depth(self) -> i32 {
        i32::from((self.0 >> 16) as u8 as i8)
    }

    fn best(self) -> u8 {
        (self.0 >> 32) as u8
    }

    fn generation(self) -> u8 {
        (self.0 >> 40) as u8
    }
}

/// A fixed-size table of `2^k` slots, each two words (key, data). All-zero words are an empty
/// slot, so a new table is one zeroed allocation that the system hands out page by page as the
/// search touches it: a short search pays only for what it uses.
pub struct Table {
    words: Vec<u64>,
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of at most `megabytes` MiB (at least 1024 slots).
    #[must_use]
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / 16;
        let n = (1usize << (usize::BITS - 1 - wanted.max(1024).leading_zeros())).max(1024);
        Table {
            words: vec![0; 2 * n],
            mask: n - 1,
            generation: 0,
        }
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        self.words.fill(0);
        self.generation = 0;
    }

    /// Marks later stores as newer than all earlier ones (a new move of the game).
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn slot(&self, key: u64) -> usize {
        2 * (key as usize & self.mask)
    }

    /// The entry for `key`, if stored.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let i = self.slot(key);
        let data = Data(self.words[i + 1]);
        if self.words[i] != key || data.bound() == 0 {
            return None;
        }
        Some(Entry {
            score: i32::from(data.0 as u16 as i16),
            depth: data.depth(),
            bound: match data.bound() {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: data.best().checked_sub(1),
        })
    }

    /// Stores `entry` for `key` unless a deeper result of this search is there.
    pub fn store(&mut self, key: u64, entry: Entry) {
        let i = self.slot(key);
        let old = Data(self.words[i + 1]);
        let same = self.words[i] == key;
        if same || old.generation() != self.generation || old.depth() <= entry.depth {
            let best = match entry.best {
                Some(b) => b.saturating_add(1),
                None if same => old.best(),
                None => 0,
            };
            self.words[i] = key;
            self.words[i + 1] = Data::pack(entry, self.generation, best).0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let mut t = Table::new(1);
        let e = Entry {
            score: -123,
            depth: 7,
            bound: Bound::Lower,
            best: Some(3),
        };
        t.store(42, e);
        assert_eq!(t.probe(42), Some(e));
        assert_eq!(t.probe(43), None);
        // A shallower result of the same search does not replace a deeper one of another key.
        let other = 42 + (t.mask as u64 + 1);
        t.store(other, Entry { depth: 2, ..e });
        assert_eq!(t.probe(42), Some(e));
        t.new_search();
        t.store(other, Entry { depth: 2, ..e });
        assert_eq!(t.probe(other).map(|x| x.depth), Some(2));
        t.clear();
        assert_eq!(t.probe(other), None);
    }
}
