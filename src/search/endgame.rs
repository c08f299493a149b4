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

/// Most index slots built for a position the search could not prove: four kings against two (43
/// million, 86 MiB, several seconds) fit; three against three does not.
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

/// Most pieces of one side the index supports (all of them may become kings).
const MAX_GROUP: usize = 5;

/// Directions (indexes into [`NEXT`]) in which red men move: up the board.
const RED_FORWARD: [usize; 2] = [0, 1];
/// Directions in which black men move: down the board.
const BLACK_FORWARD: [usize; 2] = [2, 3];
/// Red's crowning row (row 0) as cells.
const RED_CROWN: u32 = 0x0000_000F;
/// Black's crowning row (row 7) as cells.
const BLACK_CROWN: u32 = 0xF000_0000;

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
    if k == 0 {
        return vec![0];
    }
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

/// A material class: how many red kings, red men, black kings and black men.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    red_kings: u8,
    red_men: u8,
    black_kings: u8,
    black_men: u8,
}

impl Material {
    /// The four group sizes in index order.
    fn groups(self) -> [usize; 4] {
        [
            usize::from(self.red_kings),
            usize::from(self.red_men),
            usize::from(self.black_kings),
            usize::from(self.black_men),
        ]
    }

    /// The weight of each group's rank in the index (before the side to move's bit).
    fn weights(self) -> [usize; 4] {
        let n = self.groups().map(|k| BINOM[32][k] as usize);
        [n[1] * n[2] * n[3], n[2] * n[3], n[3], 1]
    }

    /// Index slots of the class (both sides to move).
    fn slots(self) -> usize {
        self.groups()
            .iter()
            .map(|&n| BINOM[32][n] as usize)
            .product::<usize>()
            * 2
    }

    fn reds(self) -> usize {
        usize::from(self.red_kings + self.red_men)
    }

    fn blacks(self) -> usize {
        usize::from(self.black_kings + self.black_men)
    }

    /// Every class a game from this one can reach, itself included: captures remove pieces,
    /// crownings turn men into kings, nothing else changes the material. Each side keeps at least
    /// one piece (a side with none has lost; no table is needed for that). Sorted so that every
    /// class comes after the classes it leads to.
    fn reachable(self) -> Vec<Material> {
        let mut out = Vec::new();
        for red_men in 0..=self.red_men {
            for red_kings in 0..=(self.reds() - usize::from(red_men)) as u8 {
                for black_men in 0..=self.black_men {
                    for black_kings in 0..=(self.blacks() - usize::from(black_men)) as u8 {
                        let m = Material {
                            red_kings,
                            red_men,
                            black_kings,
                            black_men,
                        };
                        if m.reds() > 0 && m.blacks() > 0 {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.reds() + m.blacks(), m.red_men + m.black_men, *m));
        out
    }
}

/// A position of the database's kind: four groups of cells and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Pieces {
    /// Red kings, red men, black kings, black men.
    groups: [u32; 4],
    side: Color,
}

/// What stays fixed for the side to move while its moves are listed.
struct Mover {
    kings: u32,
    men: u32,
    enemies: u32,
    forward: [usize; 2],
    crown: u32,
}

impl Pieces {
    fn material(self) -> Material {
        let n = |g: u32| g.count_ones() as u8;
        Material {
            red_kings: n(self.groups[0]),
            red_men: n(self.groups[1]),
            black_kings: n(self.groups[2]),
            black_men: n(self.groups[3]),
        }
    }

    fn occupied(self) -> u32 {
        self.groups.iter().fold(0, |a, &g| a | g)
    }

    /// The side to move's view.
    fn mover(self) -> Mover {
        let [rk, rm, bk, bm] = self.groups;
        match self.side {
            Color::Red => Mover {
                kings: rk,
                men: rm,
                enemies: bk | bm,
                forward: RED_FORWARD,
                crown: RED_CROWN,
            },
            Color::Black => Mover {
                kings: bk,
                men: bm,
                enemies: rk | rm,
                forward: BLACK_FORWARD,
                crown: BLACK_CROWN,
            },
        }
    }

    /// Index within its class: the four groups' ranks in mixed radix, then the side to move.
    fn index(self) -> usize {
        let weights = self.material().weights();
        let digits: usize = (0..4)
            .map(|g| rank(self.groups[g]) as usize * weights[g])
            .sum();
        (digits << 1) | usize::from(self.side == Color::Black)
    }

    /// The position after the side to move's piece on `from` ends a move on `to` (crowned when
    /// `king`) taking `taken`; the other side is then to move.
    fn after(self, from: u32, to: u32, king: bool, taken: u32) -> Pieces {
        let mut groups = self.groups;
        let (own, theirs) = match self.side {
            Color::Red => (0, 2),
            Color::Black => (2, 0),
        };
        groups[own] &= !(1 << from);
        groups[own + 1] &= !(1 << from);
        groups[own + usize::from(!king)] |= 1 << to;
        groups[theirs] &= !taken;
        groups[theirs + 1] &= !taken;
        Pieces {
            groups,
            side: self.side.opponent(),
        }
    }

    /// The pieces of `pos` when they all stand on cells of one colour. Light cells map to dark
    /// ones by mirroring the columns, which keeps rows, and so every move and crowning.
    fn of(pos: &Position) -> Option<Pieces> {
        let occupied = pos.occupied();
        let dark = (occupied & DARK_SQUARES) == occupied;
        if !dark && (occupied & DARK_SQUARES) != Bitboard::EMPTY {
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
        let kings = pos.kings();
        let red = pos.pieces(Color::Red);
        let black = pos.pieces(Color::Black);
        Some(Pieces {
            groups: [
                cells(red & kings),
                cells(red & !kings),
                cells(black & kings),
                cells(black & !kings),
            ],
            side: pos.side_to_move(),
        })
    }
}

/// The dark squares of the board, where the database's cells are.
const DARK_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);

/// Whether the side to move has a jump.
fn has_jump(p: Pieces) -> bool {
    let m = p.mover();
    let empty = !p.occupied();
    let can_jump = |from: u32, dirs: &[usize]| {
        dirs.iter().any(|&d| {
            let over = NEXT[from as usize][d];
            over != NONE && (m.enemies >> over) & 1 != 0 && {
                let land = NEXT[over as usize][d];
                land != NONE && (empty >> land) & 1 != 0
            }
        })
    };
    cells(m.kings).any(|k| can_jump(k, &[0, 1, 2, 3]))
        || cells(m.men).any(|k| can_jump(k, &m.forward))
}

/// The cells of a mask, lowest first.
fn cells(mask: u32) -> impl Iterator<Item = u32> {
    let mut m = mask;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = m.trailing_zeros();
            m &= m - 1;
            c
        })
    })
}

/// The plain steps of the side to move: those that stay in the class (king steps, men steps
/// that do not crown) are counted; those that crown are passed to `crowning` as (from, to).
fn steps(p: Pieces, crowning: &mut impl FnMut(u32, u32)) -> u16 {
    let m = p.mover();
    let empty = !p.occupied();
    let mut n = 0;
    for k in cells(m.kings) {
        for t in NEXT[k as usize] {
            if t != NONE && (empty >> t) & 1 != 0 {
                n += 1;
            }
        }
    }
    for k in cells(m.men) {
        for d in m.forward {
            let t = NEXT[k as usize][d];
            if t != NONE && (empty >> t) & 1 != 0 {
                if (m.crown >> t) & 1 != 0 {
                    crowning(k, u32::from(t));
                } else {
                    n += 1;
                }
            }
        }
    }
    n
}

/// The best result over some of a position's moves.
#[derive(Clone, Copy, Debug)]
struct Outcome {
    /// Plies of the fastest win found.
    best_win: Option<usize>,
    /// Plies of the slowest loss found (0 when none).
    longest_loss: usize,
    /// Whether some move leads to a draw.
    draw: bool,
}

impl Outcome {
    const NONE: Outcome = Outcome {
        best_win: None,
        longest_loss: 0,
        draw: false,
    };

    /// Adds a move into a position (the opponent to move) of stored value `raw`.
    fn add(&mut self, raw: u16) {
        match raw {
            0 => self.draw = true,
            v if (v - 1) % 2 == 0 => {
                let plies = usize::from(v);
                self.best_win = Some(self.best_win.map_or(plies, |b| b.min(plies)));
            }
            v => self.longest_loss = self.longest_loss.max(usize::from(v)),
        }
    }

    /// The value when these are all the moves: plies to the end, `None` for a draw.
    fn value(self) -> Option<usize> {
        match (self.best_win, self.draw) {
            (Some(w), _) => Some(w),
            (None, true) => None,
            (None, false) => Some(self.longest_loss),
        }
    }
}

/// Counts the backward moves from `k`, settled at `plies`, into its predecessors in the class.
/// Each predecessor this settles at `plies + 1` is passed to `settled`; one that has now lost
/// but whose crowning moves lose later is passed to `deferred` with its distance.
fn settle_predecessors(
    word: &[AtomicU16],
    crown_loss: Option<&[AtomicU16]>,
    k: Pieces,
    plies: usize,
    settled: &mut impl FnMut(u32),
    deferred: &mut impl FnMut(usize, u32),
) {
    let won = plies % 2 == 1;
    let value = SETTLED | (plies as u16 + 2);
    let before = Pieces {
        groups: k.groups,
        side: k.side.opponent(),
    };
    // The side that moved into `k`: a king stepped in from any neighbour, a man from behind
    // (a man on its crowning row would have been crowned, so it did not just step there).
    let m = before.mover();
    let empty = !k.occupied();
    let (kings_group, men_group) = match before.side {
        Color::Red => (0, 1),
        Color::Black => (2, 3),
    };
    // Only the moving group's rank differs between the predecessors: the rest of the index is
    // computed once.
    let weights = k.material().weights();
    let ranks = k.groups.map(rank);
    let all: usize = (0..4).map(|g| ranks[g] as usize * weights[g]).sum();
    let side_bit = usize::from(before.side == Color::Black);
    let mut visit = |group: usize, to: u32, from: u8| {
        let moved = (k.groups[group] & !(1 << to)) | (1 << from);
        let digits =
            all - ranks[group] as usize * weights[group] + rank(moved) as usize * weights[group];
        let index = (digits << 1) | side_bit;
        debug_assert_eq!(index, {
            let mut groups = k.groups;
            groups[group] = moved;
            Pieces {
                groups,
                side: before.side,
            }
            .index()
        });
        let w = &word[index];
        let current = w.load(Ordering::Relaxed);
        // Settled already, or a position with a jump, where a step was not legal.
        if current & SETTLED != 0 {
            return;
        }
        // A step into a lost position is a win, found at its shortest. A step into a won
        // position counts down; the last one settles a loss, at its longest (or later, when a
        // crowning move loses later still). Positions of one distance are all won or all
        // lost, so the two never race with each other.
        if won {
            if w.fetch_sub(1, Ordering::Relaxed) != 1 {
                return;
            }
            let crowning = crown_loss.map_or(0, |c| usize::from(c[index].load(Ordering::Relaxed)));
            if crowning > plies + 1 {
                deferred(crowning, index as u32);
                return;
            }
            w.store(value, Ordering::Relaxed);
            settled(index as u32);
        } else if w
            .compare_exchange(current, value, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            settled(index as u32);
        }
    };
    for to in cells(m.kings) {
        for from in NEXT[to as usize] {
            if from != NONE && (empty >> from) & 1 != 0 {
                visit(kings_group, to, from);
            }
        }
    }
    let backward = match before.side {
        Color::Red => BLACK_FORWARD,
        Color::Black => RED_FORWARD,
    };
    for to in cells(m.men & !m.crown) {
        for d in backward {
            let from = NEXT[to as usize][d];
            if from != NONE && (empty >> from) & 1 != 0 {
                visit(men_group, to, from);
            }
        }
    }
}

/// Exact values of positions of a few pieces, class by class.
#[derive(Debug, Default)]
pub struct EndgameDb {
    classes: FxHashMap<Material, Vec<u16>>,
}

/// Flag of a settled position during the analysis.
const SETTLED: u16 = 0x8000;

impl EndgameDb {
    /// The material of `pos` when it can have a database: all pieces on cells of one colour,
    /// each side with one to [`MAX_GROUP`] pieces.
    fn material(pos: &Position) -> Option<Material> {
        let m = Pieces::of(pos)?.material();
        // Crowning can turn every man of a side into a king: bound the sides, not the groups.
        let fits = (1..=MAX_GROUP).contains(&m.reds()) && (1..=MAX_GROUP).contains(&m.blacks());
        fits.then_some(m)
    }

    /// Index slots of the classes `pos` can reach that are not built yet.
    fn missing_slots(&self, m: Material) -> usize {
        m.reachable()
            .iter()
            .filter(|c| !self.classes.contains_key(c))
            .map(|c| c.slots())
            .sum()
    }

    /// All index slots of the classes `pos` can reach, or `None` when it cannot have a database.
    #[must_use]
    pub fn size_for(pos: &Position) -> Option<usize> {
        let m = Self::material(pos)?;
        Some(m.reachable().iter().map(|c| c.slots()).sum())
    }

    /// Whether `pos` is covered: its classes are built, or it is a kings-only position small
    /// enough ([`QUICK_POSITIONS`]) to build now, which this does. Positions with men are left
    /// to the search first: the short official puzzles need no database.
    pub fn prepare(&mut self, pos: &Position) -> bool {
        if self.covers(pos) {
            return true;
        }
        let quick = pos.kings() == pos.occupied()
            && Self::size_for(pos).is_some_and(|size| size <= QUICK_POSITIONS);
        quick && self.prepare_for(pos)
    }

    /// Whether the class of `pos` is built.
    #[must_use]
    pub fn covers(&self, pos: &Position) -> bool {
        Pieces::of(pos).is_some_and(|p| self.classes.contains_key(&p.material()))
    }

    /// Whether [`prepare_for`](Self::prepare_for) would build anything for `pos`.
    #[must_use]
    pub fn could_prepare_for(&self, pos: &Position) -> bool {
        self.slots_to_build(pos) > 0
    }

    /// Index slots [`prepare_for`](Self::prepare_for) would build for `pos` (0 if none, or if
    /// over [`MAX_POSITIONS`]), to judge whether there is time for it.
    #[must_use]
    pub fn slots_to_build(&self, pos: &Position) -> usize {
        match Self::size_for(pos) {
            Some(size) if size <= MAX_POSITIONS => {
                Self::material(pos).map_or(0, |m| self.missing_slots(m))
            }
            _ => 0,
        }
    }

    /// Builds the databases of every class `pos` can reach (up to [`MAX_POSITIONS`] in all).
    /// False when `pos` does not fit.
    pub fn prepare_for(&mut self, pos: &Position) -> bool {
        if Self::size_for(pos).is_none_or(|size| size > MAX_POSITIONS) {
            return false;
        }
        let Some(m) = Self::material(pos) else {
            return false;
        };
        for class in m.reachable() {
            if !self.classes.contains_key(&class) {
                let table = self.build(class);
                self.classes.insert(class, table);
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
        self.classes.get(&m).map(|t| t[p.index()])
    }

    /// Retrograde analysis of one class, the classes its captures and crownings lead to being
    /// built.
    ///
    /// Each position's word holds, until it is settled, the number of its moves within the class
    /// not yet known to lose (plus one that never goes, when a crowning move wins or draws);
    /// once settled, [`SETTLED`] plus its value. A second word per position, for classes with
    /// men, keeps how late its crowning moves lose. Both passes run on the rayon pool:
    /// positions of one distance are independent, so the values do not depend on the threads.
    fn build(&self, class: Material) -> Vec<u16> {
        let lists: Vec<Vec<u32>> = class
            .groups()
            .iter()
            .map(|&n| combinations(32, n))
            .collect();
        let radix: Vec<usize> = lists.iter().map(Vec::len).collect();
        let per_first = 2 * radix[1] * radix[2] * radix[3];
        let slots = radix[0] * per_first;
        let word: Vec<AtomicU16> = (0..slots).map(|_| AtomicU16::new(0)).collect();
        let has_men = class.red_men + class.black_men > 0;
        let crown_loss: Option<Vec<AtomicU16>> =
            has_men.then(|| (0..slots).map(|_| AtomicU16::new(0)).collect());
        let decode = |i: u32| {
            let i = i as usize;
            let side = if i & 1 == 0 { Color::Red } else { Color::Black };
            let mut rest = i >> 1;
            let mut groups = [0u32; 4];
            for g in (0..4).rev() {
                groups[g] = lists[g][rest % radix[g]];
                rest /= radix[g];
            }
            Pieces { groups, side }
        };
        // Settled positions by distance, and positions due to settle at a distance if nothing
        // settles them sooner (wins by crowning, losses deferred by a crowning move).
        let (mut by_distance, mut due) = (0..radix[0])
            .into_par_iter()
            .fold(
                || (Vec::new(), Vec::new()),
                |(mut settled, mut due), first| {
                    let range = first * per_first..(first + 1) * per_first;
                    self.first_pass(
                        &lists,
                        first,
                        &word[range.clone()],
                        crown_loss.as_deref().map(|c| &c[range.clone()]),
                        range.start,
                        &mut settled,
                        &mut due,
                    );
                    (settled, due)
                },
            )
            .reduce(
                || (Vec::new(), Vec::new()),
                |(a1, a2), (b1, b2)| (merge(a1, b1), merge(a2, b2)),
            );
        let mut plies = 0;
        while plies < by_distance.len().max(due.len()) {
            if by_distance.len() <= plies {
                by_distance.resize_with(plies + 1, Vec::new);
            }
            // Positions due now settle unless something settled them sooner.
            if let Some(list) = due.get_mut(plies) {
                let target = SETTLED | (plies as u16 + 1);
                for i in std::mem::take(list) {
                    let w = &word[i as usize];
                    let current = w.load(Ordering::Relaxed);
                    if current & SETTLED == 0 {
                        w.store(target, Ordering::Relaxed);
                        by_distance[plies].push(i);
                    }
                }
            }
            let settled = std::mem::take(&mut by_distance[plies]);
            let (next, later) = settled
                .par_iter()
                .with_min_len(1024)
                .fold(
                    || (Vec::new(), Vec::new()),
                    |(mut next, mut later), &i| {
                        settle_predecessors(
                            &word,
                            crown_loss.as_deref(),
                            decode(i),
                            plies,
                            &mut |j| next.push(j),
                            &mut |d, j| later.push((d, j)),
                        );
                        (next, later)
                    },
                )
                .reduce(
                    || (Vec::new(), Vec::new()),
                    |(mut a, mut b), (c, d)| {
                        a.extend(c);
                        b.extend(d);
                        (a, b)
                    },
                );
            drop(settled);
            if !next.is_empty() {
                if by_distance.len() <= plies + 1 {
                    by_distance.resize_with(plies + 2, Vec::new);
                }
                by_distance[plies + 1].extend(next);
            }
            for (d, j) in later {
                if due.len() <= d {
                    due.resize_with(d + 1, Vec::new);
                }
                due[d].push(j);
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

    /// Initial words of the positions whose first group is the `first`-th combination: positions
    /// with a jump are settled from the classes their captures lead to, positions without a move
    /// are lost, the others count their moves. Settled positions go to `settled` and wins by
    /// crowning to `due`, by distance.
    #[allow(clippy::too_many_arguments)]
    fn first_pass(
        &self,
        lists: &[Vec<u32>],
        first: usize,
        chunk: &[AtomicU16],
        crown_chunk: Option<&[AtomicU16]>,
        base: usize,
        settled: &mut Vec<Vec<u32>>,
        due: &mut Vec<Vec<u32>>,
    ) {
        let push = |to: &mut Vec<Vec<u32>>, plies: usize, index: u32| {
            if to.len() <= plies {
                to.resize_with(plies + 1, Vec::new);
            }
            to[plies].push(index);
        };
        let g0 = lists[0][first];
        let mut offset = 0;
        for &g1 in &lists[1] {
            for &g2 in &lists[2] {
                for &g3 in &lists[3] {
                    let groups = [g0, g1, g2, g3];
                    let overlap = g0 & g1 != 0 || (g0 | g1) & g2 != 0 || (g0 | g1 | g2) & g3 != 0;
                    for side in [Color::Red, Color::Black] {
                        let here = offset;
                        offset += 1;
                        if overlap {
                            continue;
                        }
                        let p = Pieces { groups, side };
                        let index = (base + here) as u32;
                        let w = if has_jump(p) {
                            match self.capture_outcome(p).value() {
                                Some(plies) => {
                                    push(settled, plies, index);
                                    SETTLED | (plies as u16 + 1)
                                }
                                None => SETTLED,
                            }
                        } else {
                            let mut crowning = Outcome::NONE;
                            let mut crownings = 0;
                            let within = steps(p, &mut |from, to| {
                                crownings += 1;
                                let child = p.after(from, to, true, 0);
                                crowning.add(self.raw(child).unwrap_or(0));
                            });
                            if within == 0 {
                                // Only crowning moves, or none at all (lost now).
                                let outcome = if crownings == 0 {
                                    Some(0)
                                } else {
                                    crowning.value()
                                };
                                match outcome {
                                    Some(plies) => {
                                        push(settled, plies, index);
                                        SETTLED | (plies as u16 + 1)
                                    }
                                    None => SETTLED,
                                }
                            } else {
                                if let Some(win) = crowning.best_win {
                                    push(due, win, index);
                                }
                                if let Some(c) = crown_chunk {
                                    c[here].store(crowning.longest_loss as u16, Ordering::Relaxed);
                                }
                                let keeps_going =
                                    u16::from(crowning.best_win.is_some() || crowning.draw);
                                within + keeps_going
                            }
                        };
                        chunk[here].store(w, Ordering::Relaxed);
                    }
                }
            }
        }
    }

    /// The best result over the capture sequences of a position whose side to move must
    /// capture, from the classes they lead to.
    ///
    /// The jumps are followed here on the cell masks, as `movegen` does on the board: a jumped
    /// piece stays in the way until the sequence ends but cannot be jumped again, the start cell
    /// counts as empty, men jump forward only, and a man that reaches its crowning row is
    /// crowned and stops.
    fn capture_outcome(&self, p: Pieces) -> Outcome {
        let m = p.mover();
        let mut outcome = Outcome::NONE;
        let empty = !p.occupied();
        for (group, dirs) in [(m.kings, &[0usize, 1, 2, 3][..]), (m.men, &m.forward[..])] {
            for from in cells(group) {
                let walk = CaptureWalk {
                    p,
                    from,
                    king: group == m.kings,
                    dirs,
                    crown: m.crown,
                    landing: empty | (1 << from),
                };
                self.follow(&walk, from, m.enemies, 0, &mut outcome);
            }
        }
        outcome
    }

    /// Depth-first search over the continuations of a jump sequence standing at `at`, scoring
    /// each finished sequence into `outcome`.
    fn follow(&self, walk: &CaptureWalk, at: u32, enemies: u32, taken: u32, outcome: &mut Outcome) {
        let mut extended = false;
        for &d in walk.dirs {
            let over = NEXT[at as usize][d];
            if over == NONE || (enemies >> over) & 1 == 0 {
                continue;
            }
            let land = NEXT[over as usize][d];
            if land == NONE || (walk.landing >> land) & 1 == 0 {
                continue;
            }
            extended = true;
            let taken = taken | (1 << over);
            let land = u32::from(land);
            if !walk.king && (walk.crown >> land) & 1 != 0 {
                let child = walk.p.after(walk.from, land, true, taken);
                outcome.add(self.raw(child).unwrap_or(0));
            } else {
                self.follow(walk, land, enemies & !(1 << over), taken, outcome);
            }
        }
        if !extended && taken != 0 {
            let child = walk.p.after(walk.from, at, walk.king, taken);
            outcome.add(self.raw(child).unwrap_or(0));
        }
    }
}

/// Concatenates two lists of lists, index by index.
fn merge(mut a: Vec<Vec<u32>>, b: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    if a.len() < b.len() {
        a.resize_with(b.len(), Vec::new);
    }
    for (into, from) in a.iter_mut().zip(b) {
        into.extend(from);
    }
    a
}

/// What stays fixed while one piece's jump sequences are followed.
struct CaptureWalk<'a> {
    p: Pieces,
    from: u32,
    king: bool,
    dirs: &'a [usize],
    crown: u32,
    /// Cells a jump may land on: the empty cells and the piece's own start cell.
    landing: u32,
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
