//! Seeded random puzzles, for benchmarks beyond the hand-made ones: one to eight pieces a side on
//! the dark cells, each a king or a man with even odds, no man on its own crowning row, red to
//! move with at least one legal move. The same seed gives the same boards on every machine.

use std::path::{Path, PathBuf};

use crate::formats::board_text::format_board;
use crate::formats::files::{self, OutputError};
use crate::rules::bitboard::Bitboard;
use crate::rules::movegen;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::square::Square;

/// Most pieces of one side on a random board.
pub const MAX_PIECES_A_SIDE: u64 = 8;

/// A SplitMix64 stream: small, fast and well mixed, and fixed by its seed.
#[derive(Clone, Debug)]
pub struct BoardGenerator {
    state: u64,
}

impl BoardGenerator {
    /// The boards of `seed`.
    #[must_use]
    pub fn new(seed: u64) -> BoardGenerator {
        BoardGenerator { state: seed }
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0; the tiny bias of the modulo does not matter here).
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// The next board: red to move, with a legal move.
    pub fn next_board(&mut self) -> Position {
        loop {
            if let Some(pos) = self.try_board() {
                if !movegen::legal_moves(&pos).is_empty() {
                    return pos;
                }
            }
        }
    }

    /// One draw of the pieces; `None` when a man drew no cell it may stand on.
    fn try_board(&mut self) -> Option<Position> {
        let mut free: Vec<Square> = Square::all().filter(|s| s.is_dark()).collect();
        let mut sides = [Bitboard::EMPTY; 2];
        let mut kings = Bitboard::EMPTY;
        for (i, color) in [Color::Red, Color::Black].into_iter().enumerate() {
            let count = 1 + self.below(MAX_PIECES_A_SIDE);
            for _ in 0..count {
                let king = self.below(2) == 0;
                let index = self.below(free.len() as u64) as usize;
                let cell = free[index];
                if !king && Position::crowning_row(color).contains(cell) {
                    return None;
                }
                free.swap_remove(index);
                sides[i] |= cell.bit();
                if king {
                    kings |= cell.bit();
                }
            }
        }
        Position::new(sides[0], sides[1], kings, Color::Red).ok()
    }
}

/// The first `count` boards of `seed`.
#[must_use]
pub fn random_boards(count: usize, seed: u64) -> Vec<Position> {
    let mut generator = BoardGenerator::new(seed);
    (0..count).map(|_| generator.next_board()).collect()
}

/// Writes the first `count` boards of `seed` into `dir` (which must exist) as
/// `random-SEED-NNN.txt`, and returns their paths in order.
///
/// # Errors
/// The first file that could not be written.
pub fn write_boards(dir: &Path, count: usize, seed: u64) -> Result<Vec<PathBuf>, OutputError> {
    let width = count.to_string().len().max(3);
    random_boards(count, seed)
        .iter()
        .enumerate()
        .map(|(i, board)| {
            let path = dir.join(format!("random-{seed}-{:0width$}.txt", i + 1));
            files::write_atomic(&path, &format_board(board))?;
            Ok(path)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_boards() {
        assert_eq!(random_boards(20, 7), random_boards(20, 7));
        assert_ne!(random_boards(20, 7), random_boards(20, 8));
    }

    #[test]
    fn boards_keep_to_the_rules_of_the_generator() {
        let boards = random_boards(300, 1);
        let mut kings = 0;
        let mut men = 0;
        for b in &boards {
            assert_eq!(b.side_to_move(), Color::Red);
            assert!(!movegen::legal_moves(b).is_empty());
            assert!(b.setup_warnings().is_empty(), "{b:?}");
            for color in [Color::Red, Color::Black] {
                let n = u64::from(b.pieces(color).count());
                assert!((1..=MAX_PIECES_A_SIDE).contains(&n));
            }
            kings += b.kings().count();
            men += (b.occupied() & !b.kings()).count();
        }
        // Both kinds of piece are common, and the sizes vary.
        assert!(kings > 500 && men > 500, "{kings} kings, {men} men");
        let sizes: std::collections::BTreeSet<u32> =
            boards.iter().map(|b| b.occupied().count()).collect();
        assert!(sizes.len() >= 12, "{sizes:?}");
    }
}
