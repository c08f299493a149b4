//! A cell of the 8x8 board.
//!
//! All 64 cells are addressable: the course's puzzles put pieces on light cells too, so the engine
//! never assumes the standard dark-cell-only layout.

use std::fmt;

use crate::rules::bitboard::Bitboard;

/// One of the 64 cells, indexed `row * 8 + col` with row 0 at the top of the file (black's home
/// row) and column 0 on the left.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// Number of cells on the board.
    pub const COUNT: usize = 64;

    /// The cell at `row`, `col` (both from 0 at the top-left), or `None` when off the board.
    #[must_use]
    pub const fn new(row: u8, col: u8) -> Option<Square> {
        if row < 8 && col < 8 {
            Some(Square(row * 8 + col))
        } else {
            None
        }
    }

    /// The cell with the given index `row * 8 + col`, or `None` when the index is 64 or more.
    #[must_use]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The cell for a bit index that is known to be below 64 (bitboard iteration only).
    pub(crate) const fn from_bit(index: u32) -> Square {
        debug_assert!(index < 64);
        Square((index & 63) as u8)
    }

    /// The index `row * 8 + col`, usable for table look-ups.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row from 0 (top of the file) to 7.
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// Column from 0 (left) to 7.
    #[must_use]
    pub const fn col(self) -> u8 {
        self.0 % 8
    }

    /// Whether the cell is dark, where the standard game places its pieces: row + col odd.
    #[must_use]
    pub const fn is_dark(self) -> bool {
        (self.row() + self.col()) % 2 == 1
    }

    /// The single-cell bitboard of this square.
    #[must_use]
    pub const fn bit(self) -> Bitboard {
        Bitboard(1u64 << self.0)
    }

    /// Iterator over all 64 squares in reading order (row by row from the top, left to right).
    pub fn all() -> impl Iterator<Item = Square> {
        (0u8..64).map(Square)
    }
}

impl fmt::Display for Square {
    /// Row and column counted from 1, as a person reading the puzzle file counts them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {} col {}", self.row() + 1, self.col() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::new(sq.row(), sq.col()), Some(sq));
        }
        assert_eq!(Square::new(8, 0), None);
        assert_eq!(Square::from_index(64), None);
    }

    #[test]
    fn top_left_is_light_and_bottom_left_is_dark() {
        assert!(!Square::new(0, 0).unwrap().is_dark());
        assert!(Square::new(7, 0).unwrap().is_dark());
    }
}
