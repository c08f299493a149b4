//! The playing search's transposition table: one entry per slot, replaced when the new result is
//! at least as deep or the old one is from an earlier move of the game.
//!
//! The puzzle solver has its own exact table in `search::tt`; this one is simpler because play
//! needs no proofs: a bound, a depth, a score and the index of the best move.

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least the score (the search failed high).
    Lower,
    /// At most the score (the search failed low).
    Upper,
}

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

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    score: i16,
    depth: i8,
    /// 0 empty, 1 exact, 2 lower, 3 upper.
    bound: u8,
    /// Best move index + 1, or 0.
    best: u8,
    generation: u8,
}

/// A fixed-size table of `2^k` slots.
pub struct Table {
    slots: Vec<Slot>,
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of at most `megabytes` MiB (at least 1024 slots).
    #[must_use]
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / std::mem::size_of::<Slot>();
        let n = (1usize << (usize::BITS - 1 - wanted.max(1024).leading_zeros())).max(1024);
        Table {
            slots: vec![Slot::default(); n],
            mask: n - 1,
            generation: 0,
        }
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.generation = 0;
    }

    /// Marks later stores as newer than all earlier ones (a new move of the game).
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The entry for `key`, if stored.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = self.slots[key as usize & self.mask];
        if s.key != key || s.bound == 0 {
            return None;
        }
        Some(Entry {
            score: i32::from(s.score),
            depth: i32::from(s.depth),
            bound: match s.bound {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: s.best.checked_sub(1),
        })
    }

    /// Stores `entry` for `key` unless a deeper result of this search is there.
    pub fn store(&mut self, key: u64, entry: Entry) {
        let slot = &mut self.slots[key as usize & self.mask];
        if slot.key == key
            || slot.generation != self.generation
            || i32::from(slot.depth) <= entry.depth
        {
            let keep_best = if slot.key == key && entry.best.is_none() {
                slot.best
            } else {
                entry.best.map_or(0, |b| b.saturating_add(1))
            };
            *slot = Slot {
                key,
                score: entry.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
                depth: entry.depth.clamp(-1, 127) as i8,
                bound: match entry.bound {
                    Bound::Exact => 1,
                    Bound::Lower => 2,
                    Bound::Upper => 3,
                },
                best: keep_best,
                generation: self.generation,
            };
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
