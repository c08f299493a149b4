//! The analyser's own rules: a board of 64 cells and a move generator written from the rules alone
//! (`docs/rules.md`), cell by cell, for obviousness rather than speed.
//!
//! Nothing here comes from the engine's rules (`crate::rules::movegen` and `Position::play`):
//! the analysis must not share a rules bug with the solver it certifies. The engine's
//! [`Position`] is only read at the boundary ([`Board::from_position`]) and rebuilt from the
//! three cell masks of a [`Board`] ([`Board::to_position`]); both go through its checked,
//! documented constructor and accessors, never through its move code.
//!
//! The generator reads and writes one cell at a time through [`Board::at`] and `Board::put`,
//! steps with `(row, column)` arithmetic that stays on the 8x8 board, treats every cell alike
//! (pieces on light cells follow the same rules), and plays a jump sequence for real: the piece
//! is lifted off its starting cell (which counts as empty during its own sequence) and each
//! captured piece is taken off the board as soon as it is jumped. Taking it at once rather than
//! at the end of the sequence changes nothing: a jumping piece moves two rows and two columns at
//! a time, so it only ever lands on cells whose row has the parity of its starting row, while the
//! pieces it jumps stand on rows of the other parity. A captured cell is therefore never a landing
//! cell, and a piece that is gone cannot be jumped a second time, which is the rule.

use crate::rules::bitboard::Bitboard;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::square::Square;

/// What stands on an occupied cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Red's piece (its men move up), or black's (its men move down).
    pub red: bool,
    /// A king (moves and jumps in all four directions) or a man (forward only).
    pub king: bool,
}

/// A board: the 64 cells, indexed `row * 8 + column` with row 0 at the top of the file, and the
/// side to move.
///
/// Stored as three 64-bit masks (bit `i` is cell `i`) so that it is small (32 bytes, less than an
/// engine position) and hashes quickly as a table key; the rules only ever see it cell by cell. The masks stay consistent by
/// construction: every write goes through `Board::put`, so no cell is both red and black and
/// every king stands on an occupied cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    red: u64,
    black: u64,
    kings: u64,
    red_to_move: bool,
}

// Three masks and the side to move, padded: 32 bytes, as the documentation says.
const _: () = assert!(std::mem::size_of::<Board>() == 32);

impl std::hash::Hash for Board {
    /// One well-mixed word per board. The masks of nearby boards differ in a few bits only, and
    /// the hash maps' own fast hasher spreads such keys poorly (measured: lookups dominated the
    /// analysis), so the words are mixed here with a multiply-xorshift finaliser first.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let mut h = u64::from(self.red_to_move);
        for word in [self.red, self.black, self.kings] {
            h = (h ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        state.write_u64(h);
    }
}

/// A move of the analyser: where the piece starts, where it ends, and the cells it captures
/// (bit `i` for cell `i`; zero for a step).
///
/// The derived order compares `from`, then `to`, then `captured` as a number: the canonical order
/// of `docs/rules.md` and of the solver's output (lowest origin cell in reading order, then
/// destination, then captured set), stated here again on the analyser's own type.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Move {
    /// The starting cell, `row * 8 + column`.
    pub from: u8,
    /// The cell where the piece ends, `row * 8 + column`.
    pub to: u8,
    /// The captured cells as a mask, bit `i` for cell `i`.
    pub captured: u64,
}

impl Move {
    /// The move as the engine's [`crate::Move::canonical_key`] spells it, for comparisons.
    #[must_use]
    pub const fn key(self) -> (u8, u8, u64) {
        (self.from, self.to, self.captured)
    }
}

/// The four diagonal directions as (row step, column step); rows grow downwards.
const UP_LEFT: (i32, i32) = (-1, -1);
const UP_RIGHT: (i32, i32) = (-1, 1);
const DOWN_LEFT: (i32, i32) = (1, -1);
const DOWN_RIGHT: (i32, i32) = (1, 1);

impl Piece {
    /// The directions the piece may step and jump in: a red man up, a black man down, a king all
    /// four.
    fn directions(self) -> &'static [(i32, i32)] {
        const RED_MAN: [(i32, i32); 2] = [UP_LEFT, UP_RIGHT];
        const BLACK_MAN: [(i32, i32); 2] = [DOWN_LEFT, DOWN_RIGHT];
        const KING: [(i32, i32); 4] = [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT];
        match (self.king, self.red) {
            (true, _) => &KING,
            (false, true) => &RED_MAN,
            (false, false) => &BLACK_MAN,
        }
    }

    /// Whether this piece, arriving on `row`, is a man crowned there: row 0 for red, row 7 for
    /// black.
    fn crowned_on(self, row: i32) -> bool {
        let far_row = if self.red { 0 } else { 7 };
        !self.king && row == far_row
    }
}

/// The cell `steps` diagonal steps from `cell` in `direction`, or `None` off the board.
fn cell_towards(cell: usize, direction: (i32, i32), steps: i32) -> Option<usize> {
    let row = (cell / 8) as i32 + direction.0 * steps;
    let col = (cell % 8) as i32 + direction.1 * steps;
    if (0..8).contains(&row) && (0..8).contains(&col) {
        Some((row * 8 + col) as usize)
    } else {
        None
    }
}

impl Board {
    /// The board of an engine position, read cell by cell.
    #[must_use]
    pub fn from_position(pos: &Position) -> Board {
        let mut board = Board {
            red: 0,
            black: 0,
            kings: 0,
            red_to_move: pos.side_to_move() == Color::Red,
        };
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                let piece = Piece {
                    red: p.color == Color::Red,
                    king: p.kind == crate::rules::piece::Kind::King,
                };
                board.put(sq.index(), Some(piece));
            }
        }
        board
    }

    /// The engine position with the same pieces and side to move, built by its checked
    /// constructor.
    ///
    /// # Panics
    /// Never in practice: the constructor only rejects a cell that is both red and black or a
    /// king on an empty cell, and `Board::put` never writes either. A failure would be a bug in
    /// this module, and is reported loudly rather than turned into a wrong position.
    #[must_use]
    pub fn to_position(&self) -> Position {
        let side = if self.red_to_move {
            Color::Red
        } else {
            Color::Black
        };
        Position::new(
            Bitboard(self.red),
            Bitboard(self.black),
            Bitboard(self.kings),
            side,
        )
        .expect("Board::put keeps the sides apart and every king on a piece")
    }

    /// Whether red is to move.
    #[must_use]
    pub const fn red_to_move(&self) -> bool {
        self.red_to_move
    }

    /// What stands on `cell` (0 to 63), if anything.
    #[must_use]
    pub fn at(&self, cell: usize) -> Option<Piece> {
        let bit = 1u64 << cell;
        let king = self.kings & bit != 0;
        if self.red & bit != 0 {
            Some(Piece { red: true, king })
        } else if self.black & bit != 0 {
            Some(Piece { red: false, king })
        } else {
            None
        }
    }

    /// Puts `piece` on `cell` (0 to 63), or empties it with `None`.
    fn put(&mut self, cell: usize, piece: Option<Piece>) {
        let bit = 1u64 << cell;
        self.red &= !bit;
        self.black &= !bit;
        self.kings &= !bit;
        if let Some(piece) = piece {
            if piece.red {
                self.red |= bit;
            } else {
                self.black |= bit;
            }
            if piece.king {
                self.kings |= bit;
            }
        }
    }

    /// Numbers of (red men, red kings, black men, black kings).
    #[must_use]
    pub fn material(&self) -> (u32, u32, u32, u32) {
        let mut count = (0, 0, 0, 0);
        for cell in 0..64 {
            match self.at(cell) {
                Some(Piece {
                    red: true,
                    king: false,
                }) => count.0 += 1,
                Some(Piece {
                    red: true,
                    king: true,
                }) => count.1 += 1,
                Some(Piece {
                    red: false,
                    king: false,
                }) => count.2 += 1,
                Some(Piece {
                    red: false,
                    king: true,
                }) => count.3 += 1,
                None => {}
            }
        }
        count
    }

    /// The same board with the other side to move.
    fn turned(mut self) -> Board {
        self.red_to_move = !self.red_to_move;
        self
    }

    /// Whether `piece` belongs to the side to move.
    fn is_mover(&self, piece: Piece) -> bool {
        piece.red == self.red_to_move
    }

    /// Every legal move of the side to move with the board it leads to (the other side to move),
    /// in canonical [`Move`] order, each move once.
    ///
    /// Captures are mandatory: when any piece of the side to move can jump, only complete jump
    /// sequences are returned. A jump sequence goes on while the piece can jump again, possibly
    /// changing direction, and ends at once when a man is crowned. Two routes that start and end
    /// on the same cells and capture the same pieces are one move (they lead to the same board).
    #[must_use]
    pub fn moves(&self) -> Vec<(Move, Board)> {
        let mut moves = self.jumps();
        if moves.is_empty() {
            moves = self.steps();
        }
        moves.sort_unstable_by_key(|&(mv, _)| mv);
        moves.dedup_by_key(|&mut (mv, _)| mv);
        moves
    }

    /// Whether the side to move has a legal move.
    #[must_use]
    pub fn has_moves(&self) -> bool {
        !self.moves().is_empty()
    }

    /// The boards the legal moves lead to, in canonical move order.
    #[must_use]
    pub fn successors(&self) -> Vec<Board> {
        self.moves().into_iter().map(|(_, board)| board).collect()
    }

    /// Every one-cell step of the side to move's pieces to an empty neighbouring cell.
    fn steps(&self) -> Vec<(Move, Board)> {
        let mut out = Vec::new();
        for from in 0..64 {
            let Some(piece) = self.at(from).filter(|&p| self.is_mover(p)) else {
                continue;
            };
            for &direction in piece.directions() {
                let Some(to) = cell_towards(from, direction, 1) else {
                    continue;
                };
                if self.at(to).is_some() {
                    continue;
                }
                let mut after = *self;
                after.put(from, None);
                let king = piece.king || piece.crowned_on((to / 8) as i32);
                after.put(to, Some(Piece { king, ..piece }));
                let mv = Move {
                    from: from as u8,
                    to: to as u8,
                    captured: 0,
                };
                out.push((mv, after.turned()));
            }
        }
        out
    }

    /// Every complete jump sequence of the side to move's pieces.
    fn jumps(&self) -> Vec<(Move, Board)> {
        let mut out = Vec::new();
        for from in 0..64 {
            let Some(piece) = self.at(from).filter(|&p| self.is_mover(p)) else {
                continue;
            };
            let mut lifted = *self;
            lifted.put(from, None);
            let start = Move {
                from: from as u8,
                to: from as u8,
                captured: 0,
            };
            lifted.continue_jumps(start, piece, &mut out);
        }
        out
    }

    /// Continues a jump sequence: `self` is the board without the jumping `piece`, which stands
    /// on `so_far.to` having captured `so_far.captured`. Pushes every way to complete it.
    fn continue_jumps(&self, so_far: Move, piece: Piece, out: &mut Vec<(Move, Board)>) {
        let at = so_far.to as usize;
        let mut jumped_again = false;
        for &direction in piece.directions() {
            let (Some(over), Some(land)) = (
                cell_towards(at, direction, 1),
                cell_towards(at, direction, 2),
            ) else {
                continue;
            };
            let takes_enemy = self.at(over).is_some_and(|p| p.red != piece.red);
            if !takes_enemy || self.at(land).is_some() {
                continue;
            }
            jumped_again = true;
            let mut after = *self;
            after.put(over, None);
            let next = Move {
                from: so_far.from,
                to: land as u8,
                captured: so_far.captured | 1u64 << over,
            };
            if piece.crowned_on((land / 8) as i32) {
                // Crowned: the move ends here, even if the new king could jump on.
                after.put(
                    land,
                    Some(Piece {
                        king: true,
                        ..piece
                    }),
                );
                out.push((next, after.turned()));
            } else {
                after.continue_jumps(next, piece, out);
            }
        }
        if !jumped_again && so_far.captured != 0 {
            let mut after = *self;
            after.put(at, Some(piece));
            out.push((so_far, after.turned()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_boards::board;

    fn moves_of(rows: &str) -> Vec<(Move, Board)> {
        Board::from_position(&board(rows)).moves()
    }

    #[test]
    fn position_round_trip() {
        let pos = board(
            ".b.B....\n........\n........\n........\n........\n........\n.R......\nr.......\n",
        );
        let b = Board::from_position(&pos);
        assert_eq!(b.to_position(), pos);
        assert_eq!(
            b.at(1),
            Some(Piece {
                red: false,
                king: false
            })
        );
        assert_eq!(
            b.at(3),
            Some(Piece {
                red: false,
                king: true
            })
        );
        assert_eq!(
            b.at(49),
            Some(Piece {
                red: true,
                king: true
            })
        );
        assert_eq!(
            b.at(56),
            Some(Piece {
                red: true,
                king: false
            })
        );
        assert_eq!(b.at(0), None);
        assert_eq!(b.material(), (1, 1, 1, 1));
        assert!(b.red_to_move());
    }

    #[test]
    fn a_man_steps_forward_only_and_is_crowned_on_the_far_row() {
        // Red man on row 1 (0-based), column 2: two steps up, both onto row 0, both crowned.
        let moves = moves_of(
            "........\n..r.....\n........\n........\n........\n........\n........\n.......b\n",
        );
        let targets: Vec<(u8, u8)> = moves.iter().map(|(m, _)| (m.from, m.to)).collect();
        assert_eq!(targets, vec![(10, 1), (10, 3)]);
        for (mv, after) in &moves {
            assert_eq!(
                after.at(mv.to as usize),
                Some(Piece {
                    red: true,
                    king: true
                })
            );
            assert_eq!(after.at(10), None);
            assert!(!after.red_to_move());
        }
    }

    #[test]
    fn capture_is_mandatory_and_the_sequence_goes_on() {
        // Red man at row 6 col 1 jumps row 5 col 2, then row 3 col 4; the other red man could
        // step, but must not.
        let moves = moves_of(
            "........\n........\n........\n....b...\n........\n..b.....\n.r......\n......r.\n",
        );
        assert_eq!(moves.len(), 1);
        let (mv, after) = moves[0];
        assert_eq!((mv.from, mv.to), (49, 21));
        assert_eq!(mv.captured, 1 << 42 | 1 << 28);
        assert_eq!(after.material(), (2, 0, 0, 0));
    }

    #[test]
    fn crowning_ends_a_jump_sequence() {
        // Red man jumps onto row 0 and is crowned; as a king it could jump back, but it stops.
        let moves = moves_of(
            "........\n..b.b...\n.r......\n........\n........\n........\n........\n........\n",
        );
        assert_eq!(moves.len(), 1);
        let (mv, after) = moves[0];
        assert_eq!((mv.from, mv.to, mv.captured), (17, 3, 1 << 10));
        assert_eq!(
            after.at(3),
            Some(Piece {
                red: true,
                king: true
            })
        );
        assert_eq!(
            after.at(12),
            Some(Piece {
                red: false,
                king: false
            })
        );
    }

    #[test]
    fn a_king_may_end_on_its_starting_cell() {
        // A red king circles around four black men and returns to where it started; its start
        // counts as empty during the sequence.
        let moves = moves_of(
            "........\n........\n...b.b..\n..R.....\n...b.b..\n........\n........\n........\n",
        );
        let circles: Vec<&Move> = moves
            .iter()
            .map(|(m, _)| m)
            .filter(|m| m.from == m.to)
            .collect();
        assert_eq!(circles.len(), 1, "{moves:?}");
        assert_eq!(circles[0].captured.count_ones(), 4);
    }

    #[test]
    fn no_piece_or_blocked_means_no_move() {
        let blocked = Board::from_position(&board(
            ".r......\n........\n........\n........\n........\n........\n........\n.......b\n",
        ));
        assert!(!blocked.has_moves());
        assert!(blocked.moves().is_empty());
    }
}
