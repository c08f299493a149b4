//! The tight index of a whole class: every placement of its pieces gets one slot, and nearly
//! every slot is a placement.
//!
//! The men are placed first, each side's on the 28 cells a man can stand on (never its crowning
//! row): red's ranked among cells 4-31, black's among cells 0-27 less those red's men hold, so
//! that no two men share a cell. The pair is one digit: the offset of red's placement (a table
//! per number of men, since how many cells black has left depends on how many of red's men stand
//! on black's 28 cells) plus black's rank among the cells left. Then red's kings are ranked among
//! the cells the men left, and black's kings among the cells the men and red's kings left. The
//! index is `((men * R + red_kings) * B + black_kings) * 2 + side`, `R` and `B` the numbers of
//! placements of red's and black's kings.
//!
//! Turning the board half a turn and exchanging the colours (and the side to move) maps every
//! position onto one of the mirrored class (a red man moving up becomes a black man moving down)
//! with the same value, so of each pair of mirrored classes only the canonical one has a table
//! (see [`Material::canonical`]); the other is read through [`Pieces::mirrored`].

use std::sync::OnceLock;

use crate::rules::piece::Color;

use super::cells::{cells, combinations, rank, BINOM};
use super::pieces::{Material, Pieces};

/// Cells a red man can stand on (all but row 0, its crowning row).
const RED_MEN_CELLS: u32 = 0xFFFF_FFF0;
/// Cells a black man can stand on (all but row 7).
const BLACK_MEN_CELLS: u32 = 0x0FFF_FFFF;
/// Cells a man can stand on, per side.
const MEN_CELLS: u32 = 28;
/// Most pieces of one group (the binomial table's limit): a side of up to seven pieces.
const GROUP: usize = super::cells::MAX_RANKED;

/// `x` with the bits of `removed` (none of which it holds) taken out, the bits above each moved
/// down one: `x`'s cells numbered among the cells `removed` leaves ([`rank_among`] ranks it
/// without building it).
#[cfg(test)]
fn squeeze(x: u32, removed: u32) -> u32 {
    let mut x = x;
    let mut r = removed;
    while r != 0 {
        let c = 31 - r.leading_zeros();
        r &= !(1 << c);
        let low = (1u32 << c) - 1;
        x = (x & low) | ((x >> 1) & !low);
    }
    x
}

/// The inverse of [`squeeze`]: cells numbered among those `removed` leaves, back on the board.
fn expand(x: u32, removed: u32) -> u32 {
    let mut x = x;
    for c in cells(removed) {
        let low = (1u32 << c) - 1;
        x = (x & low) | ((x & !low) << 1);
    }
    x
}

/// `rank(squeeze(x, removed))` without the squeeze: each of `x`'s cells numbered among the
/// cells `removed` leaves (one count of the removed cells below it), the ranks summed as
/// [`rank`] does. One step per piece of `x` rather than per removed cell.
fn rank_among(x: u32, removed: u32) -> u32 {
    let mut r = 0;
    let mut m = x;
    let mut k = 1;
    while m != 0 {
        let bit = m & m.wrapping_neg();
        let c = (m.trailing_zeros() - (removed & (bit - 1)).count_ones()) as usize;
        r += BINOM[c][k];
        k += 1;
        m ^= bit;
    }
    r
}

/// Every set of `k` cells among `n`, in rank order, computed once.
fn combos(n: usize, k: usize) -> &'static [u32] {
    static TABLES: [[OnceLock<Vec<u32>>; GROUP + 1]; 33] =
        [const { [const { OnceLock::new() }; GROUP + 1] }; 33];
    TABLES[n][k].get_or_init(|| combinations(n, k))
}

/// For red's men placements (by rank among their 28 cells), where their pairs with `black`
/// black men begin in the men's digit; one entry more holds the number of pairs.
fn offsets(red: usize, black: usize) -> &'static [u32] {
    static TABLES: [[OnceLock<Vec<u32>>; GROUP + 1]; GROUP + 1] =
        [const { [const { OnceLock::new() }; GROUP + 1] }; GROUP + 1];
    TABLES[red][black].get_or_init(|| {
        let mut out = Vec::with_capacity(BINOM[28][red] as usize + 1);
        let mut total = 0u32;
        for &r in combos(MEN_CELLS as usize, red) {
            out.push(total);
            let left = MEN_CELLS - (r << 4 & BLACK_MEN_CELLS).count_ones();
            total += BINOM[left as usize][black];
        }
        out.push(total);
        out
    })
}

/// The advancement of every men's digit of `class`, in digit order: the rows red's men have
/// advanced from row 7 and black's from row 0, summed. A man's step (not a capture) adds one;
/// a king's step keeps it (see `levels`).
pub(super) fn men_levels(class: Material) -> Vec<u8> {
    let [_, rm, _, bm] = class.groups();
    let row = |c: u32| c / 4;
    let mut out = Vec::with_capacity(radix(class)[0]);
    for &r in combos(MEN_CELLS as usize, rm) {
        let red = r << 4;
        let taken = red & BLACK_MEN_CELLS;
        let red_level: u32 = cells(red).map(|c| 7 - row(c)).sum();
        for &b in combos((MEN_CELLS - taken.count_ones()) as usize, bm) {
            let black: u32 = cells(expand(b, taken)).map(row).sum();
            out.push((red_level + black) as u8);
        }
    }
    out
}

/// The numbers of placements of the three digits of `class`: the men's pair, red's kings,
/// black's kings.
pub(super) fn radix(class: Material) -> [usize; 3] {
    let [red_kings, red_men, black_kings, black_men] = class.groups();
    let men = red_men + black_men;
    let pairs = *offsets(red_men, black_men).last().unwrap_or(&0) as usize;
    [
        pairs,
        BINOM[32 - men][red_kings] as usize,
        BINOM[32 - men - red_kings][black_kings] as usize,
    ]
}

/// Placements of a class's pieces (positions of one side to move).
pub(super) fn placements(class: Material) -> usize {
    radix(class).iter().product()
}

/// The place of `p`'s pieces among its class's placements, with the side to move left out.
pub(super) fn digits(p: Pieces) -> usize {
    digits_in(p, p.material())
}

/// [`digits`] of `p`, whose class (`p.material()`) the caller already knows.
pub(super) fn digits_in(p: Pieces, class: Material) -> usize {
    let [red_kings, red_men, black_kings, black_men] = p.groups;
    let [rk, rm, bk, bm] = class.groups();
    let men_count = rm + bm;
    // The radix of the kings' digits, as `radix` gives them.
    let r = BINOM[32 - men_count][rk] as usize;
    let b = BINOM[32 - men_count - rk][bk] as usize;
    let red_rank = rank(red_men >> 4) as usize;
    let table = offsets(rm, bm);
    let men = table[red_rank] as usize + rank_among(black_men, red_men & BLACK_MEN_CELLS) as usize;
    let all_men = red_men | black_men;
    let red = rank_among(red_kings, all_men) as usize;
    let black = rank_among(black_kings, all_men | red_kings) as usize;
    (men * r + red) * b + black
}

/// The digits of placement `d` of `class`: the men's pair, red's kings, black's kings.
pub(super) fn split(class: Material, d: usize) -> [usize; 3] {
    let [_, r, b] = radix(class);
    [d / b / r, d / b % r, d % b]
}

/// Decodes placements of one class digit by digit, so that a walk through consecutive
/// placements redoes only the digits that changed.
#[derive(Debug, Clone)]
pub(super) struct Decoder {
    class: Material,
    radix: [usize; 3],
    offsets: &'static [u32],
    red_men: &'static [u32],
    /// Black's men placements by the number of cells red's men take from them.
    black_men: Vec<&'static [u32]>,
    red_kings: &'static [u32],
    black_kings: &'static [u32],
}

impl Decoder {
    pub(super) fn new(class: Material) -> Decoder {
        let [rk, rm, bk, bm] = class.groups();
        let men = rm + bm;
        Decoder {
            class,
            radix: radix(class),
            offsets: offsets(rm, bm),
            red_men: combos(MEN_CELLS as usize, rm),
            black_men: (0..=rm.min(MEN_CELLS as usize))
                .map(|taken| combos(MEN_CELLS as usize - taken, bm))
                .collect(),
            red_kings: combos(32 - men, rk),
            black_kings: combos(32 - men - rk, bk),
        }
    }

    /// The class decoded.
    pub(super) fn class(&self) -> Material {
        self.class
    }

    /// Placements of the class.
    pub(super) fn placements(&self) -> usize {
        self.radix.iter().product()
    }

    /// The numbers of values of the three digits.
    pub(super) fn radix(&self) -> [usize; 3] {
        self.radix
    }

    /// The men of the pair `men`: red's and black's.
    fn men(&self, men: usize) -> [u32; 2] {
        let r = self.offsets.partition_point(|&o| o as usize <= men) - 1;
        let red = self.red_men[r] << 4;
        let taken = red & BLACK_MEN_CELLS;
        let black = expand(
            self.black_men[taken.count_ones() as usize][men - self.offsets[r] as usize],
            taken,
        );
        [red, black]
    }

    /// Groups (red kings, red men, black kings, black men) after digit `level` (0 men, 1 red
    /// kings, 2 black kings) and those below it are set to `digits`, the others kept from
    /// `groups`.
    pub(super) fn set(&self, groups: &mut [u32; 4], digits: [usize; 3], level: usize) {
        if level == 0 {
            let [red, black] = self.men(digits[0]);
            groups[1] = red;
            groups[3] = black;
        }
        let men = groups[1] | groups[3];
        if level <= 1 {
            groups[0] = expand(self.red_kings[digits[1]], men);
        }
        groups[2] = expand(self.black_kings[digits[2]], men | groups[0]);
    }

    /// The pieces of placement `d`, `side` to move.
    pub(super) fn decode(&self, d: usize, side: Color) -> Pieces {
        let mut groups = [0; 4];
        let [_, r, b] = self.radix;
        self.set(&mut groups, [d / b / r, d / b % r, d % b], 0);
        Pieces { groups, side }
    }
}

impl Pieces {
    /// The same position turned half a turn with the colours exchanged: a position of the
    /// mirrored class with the same value.
    pub(super) fn mirrored(self) -> Pieces {
        let [red_kings, red_men, black_kings, black_men] = self.groups.map(u32::reverse_bits);
        Pieces {
            groups: [black_kings, black_men, red_kings, red_men],
            side: self.side.opponent(),
        }
    }

    /// The position as its class's table holds it: itself when its class is canonical, else
    /// mirrored.
    pub(super) fn canonical(self) -> Pieces {
        if self.material().is_canonical() {
            self
        } else {
            self.mirrored()
        }
    }
}

/// Men of `red` on cells a red man may stand on, and so on: whether `p` is a position a tight
/// index holds (men off their crowning rows, no two pieces on one cell).
pub(super) fn placeable(p: Pieces) -> bool {
    let [a, b, c, d] = p.groups;
    b & !RED_MEN_CELLS == 0
        && d & !BLACK_MEN_CELLS == 0
        && a & b == 0
        && (a | b) & c == 0
        && (a | b | c) & d == 0
}

impl Material {
    /// Positions of the class (both sides to move) in its tight index (see `index`): the
    /// length of its table.
    pub(super) fn size(self) -> usize {
        placements(self) * 2
    }
}

impl Pieces {
    /// Index in the table of its canonical class (see `index`): the placement of the pieces
    /// in the tight index, then the side to move. The position must be placeable (men off
    /// their crowning rows, one piece a cell), as every position of a game is.
    pub(super) fn index(self) -> usize {
        let p = self.canonical();
        (digits(p) << 1) | usize::from(p.side == Color::Black)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fused rank equals the rank of the squeezed mask, on seeded masks of up to five
    /// cells among up to ten removed.
    #[test]
    fn rank_among_is_rank_of_squeeze() {
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 32) as u32
        };
        for _ in 0..20_000 {
            let mut removed = 0u32;
            for _ in 0..next() % 11 {
                removed |= 1 << (next() % 32);
            }
            let mut x = 0u32;
            while x.count_ones() < next() % 6 {
                x |= 1 << (next() % 32);
                x &= !removed;
            }
            assert_eq!(
                rank_among(x, removed),
                rank(squeeze(x, removed)),
                "{x:#x} {removed:#x}"
            );
        }
    }

    #[test]
    fn squeeze_and_expand_are_inverse() {
        let removed = 0b1001_0110u32 | 1 << 31;
        for x in [0u32, 1, 0b1000, 0b1_0000_0000, 0x4000_0000 >> 2] {
            let x = x & !removed;
            assert_eq!(expand(squeeze(x, removed), removed), x, "{x:#x}");
        }
        assert_eq!(squeeze(0b1000, 0b0010), 0b0100);
        assert_eq!(expand(0b0100, 0b0010), 0b1000);
    }

    /// Every class of up to four pieces: each placement decodes to a position whose index is
    /// that placement, and every position of the class is reached exactly once.
    #[test]
    fn index_and_decode_round_trip() {
        for class in Material::all_up_to(4, 5) {
            let decoder = Decoder::new(class);
            let n = decoder.placements();
            let mut count = 0usize;
            for d in 0..n {
                let p = decoder.decode(d, Color::Red);
                assert!(placeable(p), "{class} {d}");
                assert_eq!(p.material(), class);
                assert_eq!(digits(p), d, "{class}");
                count += 1;
            }
            // The positions of the class, counted another way.
            let [rk, rm, bk, bm] = class.groups();
            let mut expected = 0usize;
            for red in combinations(28, rm) {
                let red = red << 4;
                let left = 28 - (red & BLACK_MEN_CELLS).count_ones() as usize;
                expected += BINOM[left][bm] as usize;
            }
            expected *= BINOM[32 - rm - bm][rk] as usize * BINOM[32 - rm - bm - rk][bk] as usize;
            assert_eq!(count, expected, "{class}");
        }
    }

    /// Every class of seven pieces (groups of up to six: `6K v 1K`, `1K v 6M`): seeded
    /// placements, the first and the last, decode to positions of the class whose index is
    /// that placement, mirrored ones too; the men's pairs are counted another way.
    #[test]
    fn seven_piece_classes_round_trip_on_samples() {
        let sevens: Vec<Material> = Material::all_up_to(7, 6)
            .into_iter()
            .filter(|c| c.pieces() == 7 && c.is_canonical())
            .collect();
        assert_eq!(sevens.len(), 52);
        assert!(sevens.iter().any(|c| c.groups().contains(&6)));
        let mut state = 11u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state >> 17
        };
        let mut total = 0usize;
        for class in sevens {
            let decoder = Decoder::new(class);
            let n = decoder.placements();
            total += 2 * n;
            let [rk, rm, bk, bm] = class.groups();
            let mut pairs = 0usize;
            for red in combinations(28, rm) {
                let left = 28 - ((red << 4) & BLACK_MEN_CELLS).count_ones() as usize;
                pairs += BINOM[left][bm] as usize;
            }
            assert_eq!(radix(class)[0], pairs, "{class}");
            let kings = BINOM[32 - rm - bm][rk] as usize * BINOM[32 - rm - bm - rk][bk] as usize;
            assert_eq!(n, pairs * kings, "{class}");
            let samples = (0..500).map(|_| next() as usize % n).chain([0, n - 1]);
            for d in samples {
                let p = decoder.decode(d, Color::Red);
                assert!(placeable(p), "{class} {d}");
                assert_eq!(p.material(), class);
                assert_eq!(p.occupied().count_ones(), 7);
                assert_eq!(digits(p), d, "{class}");
                assert_eq!(p.mirrored().index(), 2 * d, "{class} {d} mirrored");
            }
        }
        assert_eq!(
            total, 34_243_113_624,
            "the seven-piece positions of docs/egdb.md"
        );
    }

    #[test]
    fn mirroring_twice_is_the_identity_and_maps_classes() {
        let decoder = Decoder::new(Material::all_up_to(4, 5)[20]);
        for d in (0..decoder.placements()).step_by(97) {
            let p = decoder.decode(d, Color::Black);
            let m = p.mirrored();
            assert_eq!(m.mirrored(), p);
            assert!(placeable(m));
            assert_eq!(m.material(), p.material().mirrored());
            assert_eq!(m.side, Color::Red);
        }
    }
}
