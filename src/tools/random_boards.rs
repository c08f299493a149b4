//! Seeded random puzzles, for benchmarks beyond the hand-made ones: one to eight pieces a side on
//! the dark cells, each a king or a man with even odds, no man on its own crowning row, red to
//! move with at least one legal move. The same seed gives the same boards on every machine.
//!
//! A [`Shape`] asks for another mix (a fixed number of pieces on the board, kings more or less
//! likely), and [`long_wins`] keeps only the boards that complete endgame databases value as
//! long wins, as many red wins as black ones: boards whose exact winner and length are known,
//! to check the solver's lines without databases against.

use std::path::{Path, PathBuf};

use crate::formats::board_text::format_board;
use crate::formats::files::{self, OutputError};
use crate::rules::bitboard::Bitboard;
use crate::rules::movegen;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::search::endgame::EndgameDb;

/// Most pieces of one side on a random board.
pub const MAX_PIECES_A_SIDE: u64 = 8;

/// What the boards are made of: the default is the benchmark's mix (one to
/// [`MAX_PIECES_A_SIDE`] pieces a side, each a king with even odds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Pieces on the board (2 to `2 * MAX_PIECES_A_SIDE`), shared out at random between the
    /// sides, at least one each; `None`: each side draws its own count.
    pub pieces: Option<u32>,
    /// Percent chance that a piece is a king; `None`: even odds.
    pub king_percent: Option<u32>,
}

/// A SplitMix64 stream: small, fast and well mixed, and fixed by its seed.
#[derive(Clone, Debug)]
pub struct BoardGenerator {
    state: u64,
    shape: Shape,
}

impl BoardGenerator {
    /// The boards of `seed`.
    #[must_use]
    pub fn new(seed: u64) -> BoardGenerator {
        BoardGenerator::with_shape(seed, Shape::default())
    }

    /// The boards of `seed` made to `shape` (the default shape gives the boards of
    /// [`new`](Self::new)). A count of pieces outside 2 to `2 * MAX_PIECES_A_SIDE` is brought
    /// within it, and a percent over 100 counts as 100.
    #[must_use]
    pub fn with_shape(seed: u64, shape: Shape) -> BoardGenerator {
        let max = 2 * MAX_PIECES_A_SIDE as u32;
        let shape = Shape {
            pieces: shape.pieces.map(|n| n.clamp(2, max)),
            king_percent: shape.king_percent.map(|p| p.min(100)),
        };
        BoardGenerator { state: seed, shape }
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
        // With a fixed total, red's share first (each side at least one, at most
        // MAX_PIECES_A_SIDE), black the rest.
        let counts = self.shape.pieces.map(|total| {
            let total = u64::from(total);
            let least = total.saturating_sub(MAX_PIECES_A_SIDE).max(1);
            let most = (total - 1).min(MAX_PIECES_A_SIDE);
            let red = least + self.below(most - least + 1);
            [red, total - red]
        });
        for (i, color) in [Color::Red, Color::Black].into_iter().enumerate() {
            let count = match counts {
                Some(counts) => counts[i],
                None => 1 + self.below(MAX_PIECES_A_SIDE),
            };
            for _ in 0..count {
                let king = match self.shape.king_percent {
                    None => self.below(2) == 0,
                    Some(percent) => self.below(100) < u64::from(percent),
                };
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
    random_boards_of(count, seed, Shape::default())
}

/// The first `count` boards of `seed` made to `shape`.
#[must_use]
pub fn random_boards_of(count: usize, seed: u64, shape: Shape) -> Vec<Position> {
    let mut generator = BoardGenerator::with_shape(seed, shape);
    (0..count).map(|_| generator.next_board()).collect()
}

/// A board with its exact value from the endgame databases: the side that wins and in how
/// many plies (both sides playing their best).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValuedBoard {
    /// The board (red to move).
    pub board: Position,
    /// The side that wins.
    pub winner: Color,
    /// Plies to the end of the game.
    pub plies: u32,
}

/// Most boards [`long_wins`] draws before it gives up looking for more.
pub const MAX_DRAWS: usize = 10_000_000;

/// The first `count` boards of `seed` made to `shape` that `db` values as wins of at least
/// `min_plies` plies: the first `count - count / 2` red wins and the first `count / 2` black
/// wins among the boards drawn, in the order drawn. Boards `db` does not cover, and draws, are
/// passed over. Fewer when [`MAX_DRAWS`] boards did not hold enough (a shape of more pieces
/// than `db` covers holds none).
#[must_use]
pub fn long_wins(
    db: &EndgameDb,
    count: usize,
    seed: u64,
    shape: Shape,
    min_plies: u32,
) -> Vec<ValuedBoard> {
    let mut wanted = [count - count / 2, count / 2];
    let mut generator = BoardGenerator::with_shape(seed, shape);
    let mut found = Vec::with_capacity(count);
    for _ in 0..MAX_DRAWS {
        if wanted == [0, 0] {
            break;
        }
        let board = generator.next_board();
        let Some(score) = db.score(&board, 0) else {
            continue;
        };
        let Some(plies) = score.plies_to_end().filter(|&p| p >= min_plies) else {
            continue;
        };
        // Red is to move: a win of the side to move is red's.
        let winner = if score.is_win() {
            Color::Red
        } else {
            Color::Black
        };
        let side = &mut wanted[winner as usize];
        if *side > 0 {
            *side -= 1;
            found.push(ValuedBoard {
                board,
                winner,
                plies,
            });
        }
    }
    found
}

/// Writes the first `count` boards of `seed` into `dir` (which must exist) as
/// `random-SEED-NNN.txt`, and returns their paths in order.
///
/// # Errors
/// The first file that could not be written.
pub fn write_boards(dir: &Path, count: usize, seed: u64) -> Result<Vec<PathBuf>, OutputError> {
    write_positions(dir, &random_boards(count, seed), seed)
}

/// Writes `boards` into `dir` (which must exist) as `random-SEED-NNN.txt`, numbered from 1 in
/// order, and returns their paths in order.
///
/// # Errors
/// The first file that could not be written.
pub fn write_positions(
    dir: &Path,
    boards: &[Position],
    seed: u64,
) -> Result<Vec<PathBuf>, OutputError> {
    let width = boards.len().to_string().len().max(3);
    boards
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

    #[test]
    fn a_shape_fixes_the_pieces_and_the_odds_of_kings() {
        // The default shape is the benchmark's boards, draw for draw.
        let mut plain = BoardGenerator::with_shape(1126, Shape::default());
        assert_eq!(
            (0..50).map(|_| plain.next_board()).collect::<Vec<_>>(),
            random_boards(50, 1126)
        );
        let shape = Shape {
            pieces: Some(6),
            king_percent: Some(80),
        };
        let mut generator = BoardGenerator::with_shape(3, shape);
        let mut kings = 0;
        let mut reds = std::collections::BTreeSet::new();
        for _ in 0..500 {
            let b = generator.next_board();
            assert_eq!(b.occupied().count(), 6);
            assert!(b.setup_warnings().is_empty(), "{b:?}");
            reds.insert(b.pieces(Color::Red).count());
            kings += b.kings().count();
        }
        assert_eq!(reds.into_iter().collect::<Vec<_>>(), vec![1, 2, 3, 4, 5]);
        // 80% of 3000 pieces, give or take.
        assert!((2200..2600).contains(&kings), "{kings} kings");
        // Out-of-range shapes are brought within range.
        let mut all_kings = BoardGenerator::with_shape(
            4,
            Shape {
                pieces: Some(40),
                king_percent: Some(300),
            },
        );
        let b = all_kings.next_board();
        assert_eq!(b.occupied().count(), 16);
        assert_eq!(b.kings(), b.occupied());
    }

    #[test]
    fn long_wins_are_valued_by_the_databases_half_of_each_colour() {
        // Kings only, three pieces: the databases built on the spot cover them.
        let shape = Shape {
            pieces: Some(3),
            king_percent: Some(100),
        };
        let mut db = EndgameDb::default();
        let mut generator = BoardGenerator::with_shape(5, shape);
        for _ in 0..200 {
            let b = generator.next_board();
            assert!(db.build_classes_for(&b));
        }
        let boards = long_wins(&db, 5, 5, shape, 9);
        assert_eq!(boards.len(), 5);
        let reds = boards.iter().filter(|b| b.winner == Color::Red).count();
        assert_eq!(reds, 3);
        for b in &boards {
            assert!(b.plies >= 9);
            let score = db.score(&b.board, 0).expect("covered");
            assert_eq!(score.is_win(), b.winner == Color::Red);
            assert_eq!(score.plies_to_end(), Some(b.plies));
        }
    }
}
