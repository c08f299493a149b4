//! A set of cells as one 64-bit word, with the diagonal shifts move generation is built on.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::rules::square::Square;

/// A set of squares: bit `i` is the square with index `i` (`row * 8 + col`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct Bitboard(pub u64);

/// The four diagonal directions. "North" is towards row 0, the top of the file, where red men go.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    /// Up and to the left: index - 9.
    NorthWest,
    /// Up and to the right: index - 7.
    NorthEast,
    /// Down and to the left: index + 7.
    SouthWest,
    /// Down and to the right: index + 9.
    SouthEast,
}

impl Direction {
    /// All four directions, in the order the generator tries them.
    pub const ALL: [Direction; 4] = [
        Direction::NorthWest,
        Direction::NorthEast,
        Direction::SouthWest,
        Direction::SouthEast,
    ];

    /// Squares from which one step in this direction stays on the board.
    #[must_use]
    pub const fn step_sources(self) -> Bitboard {
        match self {
            Direction::NorthWest => Bitboard(!Bitboard::ROW_1.0 & !Bitboard::COL_A.0),
            Direction::NorthEast => Bitboard(!Bitboard::ROW_1.0 & !Bitboard::COL_H.0),
            Direction::SouthWest => Bitboard(!Bitboard::ROW_8.0 & !Bitboard::COL_A.0),
            Direction::SouthEast => Bitboard(!Bitboard::ROW_8.0 & !Bitboard::COL_H.0),
        }
    }

    /// Squares from which two steps in this direction stay on the board (jump origins).
    #[must_use]
    pub const fn jump_sources(self) -> Bitboard {
        Bitboard(self.step_sources().0 & self.step_sources().shift_const(self.opposite()).0)
    }

    /// The direction pointing the other way.
    #[must_use]
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::NorthWest => Direction::SouthEast,
            Direction::NorthEast => Direction::SouthWest,
            Direction::SouthWest => Direction::NorthEast,
            Direction::SouthEast => Direction::NorthWest,
        }
    }

    /// Change of square index for one step.
    #[must_use]
    pub const fn delta(self) -> i8 {
        match self {
            Direction::NorthWest => -9,
            Direction::NorthEast => -7,
            Direction::SouthWest => 7,
            Direction::SouthEast => 9,
        }
    }
}

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const ALL: Bitboard = Bitboard(u64::MAX);
    /// Row 1 of the file (index row 0): where red men are crowned.
    pub const ROW_1: Bitboard = Bitboard(0xFF);
    /// Row 8 of the file (index row 7): where black men are crowned.
    pub const ROW_8: Bitboard = Bitboard(0xFF << 56);
    /// The leftmost column.
    pub const COL_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The rightmost column.
    pub const COL_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// The 32 dark cells, where (row + col) is odd.
    pub const DARK: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);

    /// Whether the set has no square.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `sq` is in the set.
    #[must_use]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit().0 != 0
    }

    /// The lowest square of the set, in reading order.
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_bit(self.0.trailing_zeros()))
        }
    }

    /// Every square moved one step in `dir`; squares that would leave the board are dropped.
    #[must_use]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        Bitboard(self.0 & dir.step_sources().0).shift_const(dir)
    }

    /// Raw shift without the edge mask; callers mask first. Const so the masks can use it.
    const fn shift_const(self, dir: Direction) -> Bitboard {
        let d = dir.delta();
        if d < 0 {
            Bitboard(self.0 >> (-d) as u32)
        } else {
            Bitboard(self.0 << d as u32)
        }
    }

    /// Iterator over the squares in reading order.
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first.
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_bit(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;

    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |acc, sq| acc | sq.bit())
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// `NEIGHBOR[dir][sq]`: the square one step from `sq` in direction `dir`, as index, or 64 off board.
const NEIGHBOR: [[u8; 64]; 4] = {
    let mut table = [[64u8; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let dir = Direction::ALL[d];
        let mut i = 0;
        while i < 64 {
            if dir.step_sources().0 & (1u64 << i) != 0 {
                table[d][i] = (i as i32 + dir.delta() as i32) as u8;
            }
            i += 1;
        }
        d += 1;
    }
    table
};

impl Square {
    /// The square one step away in `dir`, or `None` at the edge of the board.
    #[must_use]
    pub const fn step(self, dir: Direction) -> Option<Square> {
        Square::from_index(NEIGHBOR[dir as usize][self.index()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_agree_with_coordinates() {
        for sq in Square::all() {
            for dir in Direction::ALL {
                let (dr, dc): (i8, i8) = match dir {
                    Direction::NorthWest => (-1, -1),
                    Direction::NorthEast => (-1, 1),
                    Direction::SouthWest => (1, -1),
                    Direction::SouthEast => (1, 1),
                };
                let r = sq.row() as i8 + dr;
                let c = sq.col() as i8 + dc;
                let expected = if (0..8).contains(&r) && (0..8).contains(&c) {
                    Square::new(r as u8, c as u8)
                } else {
                    None
                };
                assert_eq!(sq.step(dir), expected, "{sq} {dir:?}");
                assert_eq!(sq.bit().shift(dir).first(), expected, "{sq} {dir:?}");
            }
        }
    }

    #[test]
    fn dark_mask_matches_square_colour() {
        for sq in Square::all() {
            assert_eq!(Bitboard::DARK.contains(sq), sq.is_dark());
        }
    }

    #[test]
    fn iteration_is_in_reading_order() {
        let b: Bitboard = [5u8, 63, 0]
            .iter()
            .filter_map(|&i| Square::from_index(i))
            .collect();
        let v: Vec<usize> = b.iter().map(Square::index).collect();
        assert_eq!(v, vec![0, 5, 63]);
    }
}
