//! Kings-only endgame database: the exact distance to the end of the game of every position of a
//! few kings, computed by retrograde analysis.
//!
//! Alpha-beta proves a win only by searching as deep as the win is long. King endgames are long
//! (three kings beat two in up to about 60 plies) and wide (every king moves four ways), so the
//! search cannot reach their end; checkers programs have always answered them with databases. This
//! one is built on demand, in well under a second, for the material of a pure king endgame, and
//! the player then reads the best move off it.
//!
//! Positions are indexed over the 32 dark cells: the red kings' cells as a combination of 32, the
//! black kings' cells as another combination of 32 (overlapping pairs are left unused), and the
//! side to move. A value is
//! `plies + 1` to the end of the game with best play (0: drawn); the side to move wins when the
//! number of plies is odd, because the winner makes the last move.

use std::sync::atomic::{AtomicU16, Ordering};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::bitboard::Bitboard;
use crate::piece::Color;
use crate::position::Position;

use super::score::Score;

/// Most index slots (both sides to move, smaller material included) built at once, without
/// trying the search first: three kings against two (5.8 million) fit, in under a second.
pub const QUICK_POSITIONS: usize = 6_000_000;

/// Most index slots built for a kings-only position the search could not prove: four kings
/// against two (43 million, 86 MiB, several seconds) fit; three against three does not.
pub const MAX_POSITIONS: usize = 45_000_000;

/// Marks a cell with no neighbour in some direction.
const NONE: u8 = 0xFF;

/// Board square (`row * 8 + col`) of each dark cell, in reading order.
const SQUARE_OF: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        let row = i / 4;
        let col = 2 * (i % 4) + if row % 2 == 0 { 1 } else { 0 };
        t[i] = (row * 8 + col) as u8;
        i += 1;
    }
    t
};

/// Dark cell index of each board square, or [`NONE`] for a light square.
const CELL_OF: [u8; 64] = {
    let mut t = [NONE; 64];
    let mut i = 0;
    while i < 32 {
        t[SQUARE_OF[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The diagonal neighbour of each dark cell in the four directions, or [`NONE`] at the edge.
const NEXT: [[u8; 4]; 32] = {
    let mut t = [[NONE; 4]; 32];
    let deltas: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
    let mut i = 0;
    while i < 32 {
        let sq = SQUARE_OF[i] as i32;
        let mut d = 0;
        while d < 4 {
            let (r, c) = (sq / 8 + deltas[d].0, sq % 8 + deltas[d].1);
            if r >= 0 && r < 8 && c >= 0 && c < 8 {
                t[i][d] = CELL_OF[(r * 8 + c) as usize];
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// Binomial coefficients `C(n, k)` for `n <= 32`, `k <= 5`: the combinatorial number system.
const BINOM: [[u32; 6]; 33] = {
    let mut t = [[0u32; 6]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 5 && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Most kings of one side the index supports.
const MAX_SIDE: usize = 5;

/// Rank of a set of `mask.count_ones()` cells among cells `0..n`, in `0..C(n, k)`.
fn rank(mask: u32) -> u32 {
    let mut r = 0;
    let mut m = mask;
    let mut k = 1;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        r += BINOM[c][k];
        k += 1;
        m &= m - 1;
    }
    r
}

/// Every set of `k` cells among `0..n`, in rank order.
fn combinations(n: usize, k: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(BINOM[n][k] as usize);
    let mut cells: Vec<usize> = (0..k).collect();
    loop {
        out.push(cells.iter().fold(0u32, |m, &c| m | 1 << c));
        // The next combination in colexicographic order, which is rank order.
        let mut i = 0;
        while i < k
            && (i + 1 < k && cells[i] + 1 == cells[i + 1] || i + 1 == k && cells[i] + 1 == n)
        {
            cells[i] = i;
            i += 1;
        }
        if i == k {
            return out;
        }
        cells[i] += 1;
    }
}

/// Index of the position with red cells of rank `red`, black cells of rank `black` among
/// `blacks` combinations, and `side` to move.
fn slot(red: u32, blacks: u32, black: u32, side: Color) -> usize {
    ((red as usize * blacks as usize + black as usize) << 1) | usize::from(side == Color::Black)
}

/// A kings-only position on the dark cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Kings {
    red: u32,
    black: u32,
    side: Color,
}

impl Kings {
    /// The side to move's cells and the opponent's.
    fn sides(self) -> (u32, u32) {
        match self.side {
            Color::Red => (self.red, self.black),
            Color::Black => (self.black, self.red),
        }
    }

    /// The material class: (red kings, black kings).
    fn class(self) -> (usize, usize) {
        (
            self.red.count_ones() as usize,
            self.black.count_ones() as usize,
        )
    }

    /// Index within its class: both sides' cells ranked among all 32 cells (combinations
    /// where they overlap are left unused, which costs a fifth more space and saves squeezing
    /// the black cells around the red ones on every look-up).
    fn index(self) -> usize {
        let nb = self.black.count_ones() as usize;
        slot(rank(self.red), BINOM[32][nb], rank(self.black), self.side)
    }

    /// The kings of `pos` when it is a kings-only position whose pieces all stand on cells of one
    /// colour. Light cells map to dark ones by mirroring the columns, which preserves every move.
    fn of(pos: &Position) -> Option<Kings> {
        if pos.kings() != pos.occupied() {
            return None;
        }
        let dark = pos.occupied().iter().all(|s| s.is_dark());
        let light = pos.occupied().iter().all(|s| !s.is_dark());
        if !dark && !light {
            return None;
        }
        let cells = |b: Bitboard| {
            b.iter().fold(0u32, |m, s| {
                let sq = if dark {
                    s.index()
                } else {
                    s.index() - usize::from(s.col()) + 7 - usize::from(s.col())
                };
                m | 1 << CELL_OF[sq]
            })
        };
        Some(Kings {
            red: cells(pos.pieces(Color::Red)),
            black: cells(pos.pieces(Color::Black)),
            side: pos.side_to_move(),
        })
    }
}

/// Whether the side owning `us` has a jump over `them`.
fn has_jump(us: u32, them: u32) -> bool {
    let empty = !(us | them);
    let mut m = us;
    while m != 0 {
        let k = m.trailing_zeros() as usize;
        for (d, &over) in NEXT[k].iter().enumerate() {
            if over != NONE && (them >> over) & 1 != 0 {
                let land = NEXT[over as usize][d];
                if land != NONE && (empty >> land) & 1 != 0 {
                    return true;
                }
            }
        }
        m &= m - 1;
    }
    false
}

/// Number of plain king steps of the side owning `us`.
fn steps(us: u32, them: u32) -> u8 {
    let empty = !(us | them);
    let mut n = 0;
    let mut m = us;
    while m != 0 {
        let k = m.trailing_zeros() as usize;
        for t in NEXT[k] {
            if t != NONE && (empty >> t) & 1 != 0 {
                n += 1;
            }
        }
        m &= m - 1;
    }
    n
}

/// Counts the backward steps from `k`, settled at `plies`, into its predecessors, and passes the
/// index of each predecessor this settles (at `plies + 1`) to `settled`.
fn settle_predecessors(word: &[AtomicU16], k: Kings, plies: usize, settled: &mut impl FnMut(u32)) {
    let won = plies % 2 == 1;
    let value = SETTLED | (plies as u16 + 2);
    // The side that moved into `k` stepped one king from a neighbouring empty cell. The other
    // side's rank is the same for every predecessor.
    let (movers, waiting) = match k.side {
        Color::Red => (k.black, k.red),
        Color::Black => (k.red, k.black),
    };
    let blacks = BINOM[32][k.black.count_ones() as usize];
    let waiting_rank = rank(waiting);
    let empty = !(movers | waiting);
    let mut m = movers;
    while m != 0 {
        let to = m.trailing_zeros() as usize;
        m &= m - 1;
        for from in NEXT[to] {
            if from == NONE || (empty >> from) & 1 == 0 {
                continue;
            }
            let before = (movers & !(1 << to)) | (1 << from);
            let (prev, index) = match k.side {
                Color::Red => (
                    Kings {
                        red: waiting,
                        black: before,
                        side: Color::Black,
                    },
                    slot(waiting_rank, blacks, rank(before), Color::Black),
                ),
                Color::Black => (
                    Kings {
                        red: before,
                        black: waiting,
                        side: Color::Red,
                    },
                    slot(rank(before), blacks, waiting_rank, Color::Red),
                ),
            };
            debug_assert_eq!(index, prev.index());
            let w = &word[index];
            let current = w.load(Ordering::Relaxed);
            // Settled already, or a position with a jump, where a step was not legal.
            if current & SETTLED != 0 {
                continue;
            }
            // A step into a lost position is a win, found at its shortest. A step into a won
            // position counts down; the last one settles a loss, at its longest. Positions of one
            // distance are all won or all lost, so the two never race with each other.
            let settles = if won {
                w.fetch_sub(1, Ordering::Relaxed) == 1
            } else {
                w.compare_exchange(current, value, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            };
            if settles {
                w.store(value, Ordering::Relaxed);
                settled(index as u32);
            }
        }
    }
}

/// Exact values of kings-only positions, class by class.
#[derive(Debug, Default)]
pub struct EndgameDb {
    classes: FxHashMap<(usize, usize), Vec<u16>>,
}

/// Flag of a settled position during the analysis.
const SETTLED: u16 = 0x8000;

impl EndgameDb {
    /// Index slots (both sides to move, all smaller classes included) of the databases for up
    /// to `nr` red and `nb` black kings.
    fn size_of_material(nr: usize, nb: usize) -> usize {
        let row = &BINOM[32];
        let reds: usize = row[1..=nr].iter().map(|&r| r as usize).sum();
        let blacks: usize = row[1..=nb].iter().map(|&b| b as usize).sum();
        2 * reds * blacks
    }

    /// The material (red, black) whose databases cover `pos` and what its captures and
    /// crownings lead to, when they fit: all pieces on cells of one colour, each side with at
    /// least one and at most [`MAX_SIDE`] pieces, at most `limit` index slots in all.
    fn material(pos: &Position, limit: usize) -> Option<(usize, usize)> {
        let occupied = pos.occupied();
        let dark = occupied.iter().filter(|s| s.is_dark()).count();
        if dark != 0 && dark != occupied.count() as usize {
            return None;
        }
        let nr = pos.pieces(Color::Red).count() as usize;
        let nb = pos.pieces(Color::Black).count() as usize;
        let fits = (1..=MAX_SIDE).contains(&nr)
            && (1..=MAX_SIDE).contains(&nb)
            && Self::size_of_material(nr, nb) <= limit;
        fits.then_some((nr, nb))
    }

    /// How large a database may be built for `pos` once the search has failed: kings-only
    /// positions are worth [`MAX_POSITIONS`]; with men, only [`QUICK_POSITIONS`], because the
    /// search must still crown every man before a database value is reached.
    fn limit_after_search(pos: &Position) -> usize {
        if pos.kings() == pos.occupied() {
            MAX_POSITIONS
        } else {
            QUICK_POSITIONS
        }
    }

    /// Index slots needed to cover the material of `pos`, or `None` when it is not a kings-only
    /// position on cells of one colour or the material is over [`MAX_POSITIONS`].
    #[must_use]
    pub fn size_for(pos: &Position) -> Option<usize> {
        if pos.kings() != pos.occupied() {
            return None;
        }
        let (nr, nb) = Self::material(pos, MAX_POSITIONS)?;
        Some(Self::size_of_material(nr, nb))
    }

    /// Whether `pos` (kings-only) is covered: its classes are built, or small enough
    /// ([`QUICK_POSITIONS`]) to build now, which this does.
    pub fn prepare(&mut self, pos: &Position) -> bool {
        if self.covers(pos) {
            return true;
        }
        match Self::size_for(pos) {
            Some(size) if size <= QUICK_POSITIONS => self.prepare_for(pos),
            _ => false,
        }
    }

    /// Whether the classes of kings-only `pos` are built.
    #[must_use]
    pub fn covers(&self, pos: &Position) -> bool {
        Kings::of(pos).is_some_and(|k| self.classes.contains_key(&k.class()))
    }

    /// Whether [`prepare_for`](Self::prepare_for) would build anything for `pos`: it has few
    /// enough pieces, and its databases are not built yet.
    #[must_use]
    pub fn could_prepare_for(&self, pos: &Position) -> bool {
        Self::material(pos, Self::limit_after_search(pos))
            .is_some_and(|(nr, nb)| !self.classes.contains_key(&(nr, nb)))
    }

    /// Index slots [`prepare_for`](Self::prepare_for) would build for `pos` (0 if none), to
    /// judge whether there is time for it.
    #[must_use]
    pub fn slots_to_build(&self, pos: &Position) -> usize {
        let Some((nr, nb)) = Self::material(pos, Self::limit_after_search(pos)) else {
            return 0;
        };
        let row = &BINOM[32];
        let mut total = 0;
        for r in 1..=nr {
            for (b, &blacks) in row.iter().enumerate().take(nb + 1).skip(1) {
                if !self.classes.contains_key(&(r, b)) {
                    total += 2 * row[r] as usize * blacks as usize;
                }
            }
        }
        total
    }

    /// Builds the databases of every kings-only material `pos` can turn into (each side keeps at
    /// most its present number of pieces). False when `pos` does not fit.
    pub fn prepare_for(&mut self, pos: &Position) -> bool {
        let Some((nr, nb)) = Self::material(pos, Self::limit_after_search(pos)) else {
            return false;
        };
        for total in 2..=nr + nb {
            for r in 1..=nr.min(total - 1) {
                let b = total - r;
                if (1..=nb).contains(&b) && !self.classes.contains_key(&(r, b)) {
                    let table = self.build(r, b);
                    self.classes.insert((r, b), table);
                }
            }
        }
        true
    }

    /// Index slots of all the databases built.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.classes.values().map(Vec::len).sum()
    }

    /// Whether no database is built yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// The exact score of `pos` seen `ply` plies from the root, when its class is built.
    #[must_use]
    pub fn score(&self, pos: &Position, ply: usize) -> Option<Score> {
        let k = Kings::of(pos)?;
        let raw = self.raw(k)?;
        Some(match raw {
            0 => Score::ZERO,
            v if (v - 1) % 2 == 1 => Score::won_at(ply + usize::from(v - 1)),
            v => Score::lost_at(ply + usize::from(v - 1)),
        })
    }

    /// Stored value of `k`: `plies + 1`, or 0 for a draw. A side without pieces has lost.
    fn raw(&self, k: Kings) -> Option<u16> {
        let (us, _) = k.sides();
        if us == 0 {
            return Some(1);
        }
        self.classes.get(&k.class()).map(|t| t[k.index()])
    }

    /// Retrograde analysis of one class, the smaller classes its captures lead to being built.
    ///
    /// Each position's word holds, until it is settled, the number of its steps not yet known to
    /// lose; once settled, [`SETTLED`] plus its value. One word per position keeps the random
    /// accesses of the backward steps to one cache line each. Both passes run on the rayon pool:
    /// positions of one distance are independent, so the values do not depend on the threads.
    fn build(&self, nr: usize, nb: usize) -> Vec<u16> {
        let reds = combinations(32, nr);
        let blacks = combinations(32, nb);
        let per_red = 2 * blacks.len();
        let word: Vec<AtomicU16> = (0..reds.len() * per_red)
            .map(|_| AtomicU16::new(0))
            .collect();
        // The positions settled at each distance, as indexes (4 bytes each, decoded through the
        // combination lists): four kings against two settle 36 million positions.
        let decode = |i: u32| {
            let i = i as usize;
            let pair = i >> 1;
            Kings {
                red: reds[pair / blacks.len()],
                black: blacks[pair % blacks.len()],
                side: if i & 1 == 0 { Color::Red } else { Color::Black },
            }
        };
        let mut by_distance: Vec<Vec<u32>> = word
            .par_chunks(per_red)
            .zip(reds.par_iter())
            .enumerate()
            .fold(Vec::new, |mut buckets, (r, (chunk, &red))| {
                self.first_pass(red, &blacks, chunk, r * per_red, &mut buckets);
                buckets
            })
            .reduce(Vec::new, |mut a, b| {
                if a.len() < b.len() {
                    a.resize_with(b.len(), Vec::new);
                }
                for (into, from) in a.iter_mut().zip(b) {
                    into.extend(from);
                }
                a
            });
        let mut plies = 0;
        while plies < by_distance.len() {
            let settled = std::mem::take(&mut by_distance[plies]);
            let next: Vec<u32> = settled
                .par_iter()
                .with_min_len(1024)
                .fold(Vec::new, |mut next, &i| {
                    settle_predecessors(&word, decode(i), plies, &mut |j| next.push(j));
                    next
                })
                .flatten()
                .collect();
            drop(settled);
            if !next.is_empty() {
                if by_distance.len() <= plies + 1 {
                    by_distance.push(Vec::new());
                }
                by_distance[plies + 1].extend(next);
            }
            plies += 1;
        }
        word.into_iter()
            .map(|w| {
                let w = w.into_inner();
                if w & SETTLED != 0 {
                    w & !SETTLED
                } else {
                    0
                }
            })
            .collect()
    }

    /// Initial words of the positions with the red kings on `red` (from index `base`): positions
    /// with a jump are settled from the smaller classes, positions without a move are lost, the
    /// others count their steps. The settled positions' indexes go to `buckets`, by distance.
    fn first_pass(
        &self,
        red: u32,
        blacks: &[u32],
        chunk: &[AtomicU16],
        base: usize,
        buckets: &mut Vec<Vec<u32>>,
    ) {
        let mut settle = |plies: usize, index: u32| {
            if buckets.len() <= plies {
                buckets.resize_with(plies + 1, Vec::new);
            }
            buckets[plies].push(index);
        };
        for (pair, &black) in blacks.iter().enumerate() {
            if black & red != 0 {
                // An unused index: the two sides cannot share a cell.
                continue;
            }
            for (s, side) in [Color::Red, Color::Black].into_iter().enumerate() {
                let k = Kings { red, black, side };
                let (us, them) = k.sides();
                let offset = 2 * pair + s;
                let index = (base + offset) as u32;
                let w = if has_jump(us, them) {
                    match self.capture_value(k) {
                        Some(plies) => {
                            settle(plies, index);
                            SETTLED | (plies as u16 + 1)
                        }
                        None => SETTLED,
                    }
                } else {
                    match steps(us, them) {
                        0 => {
                            settle(0, index);
                            SETTLED | 1
                        }
                        n => u16::from(n),
                    }
                };
                chunk[offset].store(w, Ordering::Relaxed);
            }
        }
    }

    /// Plies to the end from a position whose side to move must capture, from the smaller classes;
    /// `None` when it is a draw.
    ///
    /// The jumps are followed here on the cell masks, as `movegen` does on the board: a jumped
    /// king stays in the way until the sequence ends but cannot be jumped again, and the start
    /// cell counts as empty. Kings are never crowned, so every sequence runs to its end.
    fn capture_value(&self, k: Kings) -> Option<usize> {
        let (us, them) = k.sides();
        let mut outcome = CaptureOutcome {
            best_win: None,
            longest_loss: Some(0),
        };
        let mut m = us;
        while m != 0 {
            let from = m.trailing_zeros() as u8;
            m &= m - 1;
            let walk = CaptureWalk {
                k,
                from,
                landing: !(us | them) | (1 << from),
            };
            self.follow(&walk, from, them, 0, &mut outcome);
        }
        outcome.best_win.or(outcome.longest_loss)
    }

    /// Depth-first search over the continuations of a jump sequence standing at `at`, scoring
    /// each finished sequence into `outcome`.
    fn follow(
        &self,
        walk: &CaptureWalk,
        at: u8,
        enemies: u32,
        taken: u32,
        outcome: &mut CaptureOutcome,
    ) {
        let mut extended = false;
        for (d, &over) in NEXT[at as usize].iter().enumerate() {
            if over == NONE || (enemies >> over) & 1 == 0 {
                continue;
            }
            let land = NEXT[over as usize][d];
            if land == NONE || (walk.landing >> land) & 1 == 0 {
                continue;
            }
            extended = true;
            self.follow(
                walk,
                land,
                enemies & !(1 << over),
                taken | (1 << over),
                outcome,
            );
        }
        if extended || taken == 0 {
            return;
        }
        let k = walk.k;
        let moved = |own: u32| (own & !(1 << walk.from)) | (1 << at);
        let child = match k.side {
            Color::Red => Kings {
                red: moved(k.red),
                black: k.black & !taken,
                side: Color::Black,
            },
            Color::Black => Kings {
                red: k.red & !taken,
                black: moved(k.black),
                side: Color::Red,
            },
        };
        outcome.add(self.raw(child).unwrap_or(0));
    }
}

/// What stays fixed while one king's jump sequences are followed.
struct CaptureWalk {
    k: Kings,
    from: u8,
    /// Cells a jump may land on: the empty cells and the king's own start cell.
    landing: u32,
}

/// The best result over the capture sequences seen so far.
struct CaptureOutcome {
    best_win: Option<usize>,
    /// `None` once a drawn continuation is seen.
    longest_loss: Option<usize>,
}

impl CaptureOutcome {
    /// Adds a continuation whose position (the opponent to move) has stored value `raw`.
    fn add(&mut self, raw: u16) {
        match raw {
            0 => self.longest_loss = None,
            v if (v - 1) % 2 == 0 => {
                let plies = usize::from(v);
                self.best_win = Some(self.best_win.map_or(plies, |b| b.min(plies)));
            }
            v => {
                let plies = usize::from(v);
                self.longest_loss = self.longest_loss.map(|l| l.max(plies));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree() {
        for (i, &sq) in SQUARE_OF.iter().enumerate() {
            assert_eq!(CELL_OF[sq as usize] as usize, i);
            assert_eq!((sq / 8 + sq % 8) % 2, 1, "dark");
        }
        assert_eq!(BINOM[32][5], 201_376);
        assert_eq!(BINOM[5][5], 1);
    }

    #[test]
    fn ranks_enumerate_combinations_in_order() {
        let all = combinations(10, 3);
        assert_eq!(all.len(), 120);
        for (i, &m) in all.iter().enumerate() {
            assert_eq!(rank(m) as usize, i);
        }
    }
}
