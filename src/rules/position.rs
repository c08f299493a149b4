//! A position: where the pieces stand and who moves, with its Zobrist hash kept up to date.

use thiserror::Error;

use crate::rules::bitboard::Bitboard;
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::square::Square;
use crate::rules::zobrist;

/// A legal arrangement of pieces with a side to move. Any cell may hold a piece.
///
/// Built only through [`Position::new`] (checked) or by playing moves, so the invariants hold:
/// red and black never share a cell and every king is a piece of one side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    red: Bitboard,
    black: Bitboard,
    kings: Bitboard,
    side: Color,
    hash: u64,
}

// Three cell masks, the side to move and the hash: 40 bytes, as the documentation says.
const _: () = assert!(std::mem::size_of::<Position>() == 40);

/// Why a set of bitboards is not a position.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PositionError {
    /// A cell holds both a red and a black piece.
    #[error("{0} holds both a red and a black piece")]
    Overlap(Square),
    /// A king is marked on an empty cell.
    #[error("{0} is marked as a king but holds no piece")]
    KingWithoutPiece(Square),
}

/// Something unusual about a puzzle that is still solved, reported to the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupWarning {
    /// Pieces stand on light cells (row + col even), outside the standard game.
    LightCells {
        /// How many pieces stand on light cells.
        count: u32,
        /// The first such cell in reading order.
        first: Square,
    },
    /// A side has more than the 12 pieces of the standard game.
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many pieces it has.
        count: u32,
    },
    /// A man stands on its own crowning row; it stays a man and cannot move.
    ManOnCrowningRow {
        /// The side of the man.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// A side has no piece: it has no move, so it loses at its first turn.
    NoPieces {
        /// The side without pieces.
        color: Color,
    },
}

impl std::fmt::Display for SetupWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupWarning::LightCells { count, first } => write!(
                f,
                "{count} piece(s) stand on light cells (first at {first}); they move on their own \
                 diagonals and never meet the pieces on dark cells"
            ),
            SetupWarning::TooManyPieces { color, count } => write!(
                f,
                "{} has {count} pieces, more than the 12 of a standard game",
                color.name()
            ),
            SetupWarning::ManOnCrowningRow { color, square } => write!(
                f,
                "a {} man stands on its crowning row at {square}; it stays a man and cannot move",
                color.name()
            ),
            SetupWarning::NoPieces { color } => write!(
                f,
                "{} has no piece on the board, so it loses at its first turn",
                color.name()
            ),
        }
    }
}

impl Position {
    /// A position from the cells of each side and the set of kings, checked for consistency.
    pub fn new(
        red: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Result<Position, PositionError> {
        if let Some(sq) = (red & black).first() {
            return Err(PositionError::Overlap(sq));
        }
        if let Some(sq) = (kings & !(red | black)).first() {
            return Err(PositionError::KingWithoutPiece(sq));
        }
        let mut pos = Position {
            red,
            black,
            kings,
            side,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The standard starting position: 12 men each on the dark cells of the three rows nearest
    /// each side, red (at the bottom) to move.
    #[must_use]
    pub fn start() -> Position {
        let black = Bitboard(0x0000_0000_00FF_FFFF) & Bitboard::DARK;
        let red = Bitboard(0xFFFF_FF00_0000_0000) & Bitboard::DARK;
        let mut pos = Position {
            red,
            black,
            kings: Bitboard::EMPTY,
            side: Color::Red,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// The side to move.
    #[must_use]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces of `color`.
    #[must_use]
    pub const fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::Red => self.red,
            Color::Black => self.black,
        }
    }

    /// All kings of both sides.
    #[must_use]
    pub const fn kings(&self) -> Bitboard {
        self.kings
    }

    /// Every occupied cell.
    #[must_use]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.red.0 | self.black.0)
    }

    /// The piece on `sq`, if any.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.red.contains(sq) {
            Color::Red
        } else if self.black.contains(sq) {
            Color::Black
        } else {
            return None;
        };
        let kind = if self.kings.contains(sq) {
            Kind::King
        } else {
            Kind::Man
        };
        Some(Piece { color, kind })
    }

    /// The Zobrist hash, maintained incrementally by [`Position::play`].
    #[must_use]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The same pieces with the other side to move.
    #[must_use]
    pub fn with_side_to_move(&self, side: Color) -> Position {
        let mut pos = *self;
        if side != self.side {
            pos.side = side;
            pos.hash ^= zobrist::BLACK_TO_MOVE;
        }
        pos
    }

    /// The hash computed from scratch; equals [`Position::hash`] (checked by property tests).
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Color::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for sq in self.occupied() {
            if let Some(piece) = self.piece_at(sq) {
                h ^= zobrist::piece_key(piece, sq);
            }
        }
        h
    }

    /// Cells where a man of `color` is crowned.
    #[must_use]
    pub const fn crowning_row(color: Color) -> Bitboard {
        match color {
            Color::Red => Bitboard::ROW_1,
            Color::Black => Bitboard::ROW_8,
        }
    }

    /// Whether `mv` (a legal move of this position) crowns a man: it ends on the far row, or,
    /// under [`CrowningRule::JumpsOn`](crate::rules::movegen::CrowningRule::JumpsOn), the man
    /// was crowned on the way and jumped on as a king.
    #[must_use]
    pub fn crowns(&self, mv: Move) -> bool {
        !self.kings.contains(mv.from()) && crowned_by(self.side, mv)
    }

    /// The position after the side to move plays `mv` (assumed legal here), under either
    /// crowning rule: a man that was crowned during a capture and jumped on is a king at the end
    /// (see [`Position::crowns`]).
    ///
    /// Copy-make: the position is 40 bytes, so copying is cheaper than undoing.
    #[must_use]
    pub fn play(&self, mv: Move) -> Position {
        let side = self.side;
        let from = mv.from();
        let to = mv.to();
        let captured = mv.captured();
        let was_king = self.kings.contains(from);
        let mover = Piece {
            color: side,
            kind: if was_king { Kind::King } else { Kind::Man },
        };
        let crowned = !was_king && crowned_by(side, mv);
        let landed = Piece {
            color: side,
            kind: if was_king || crowned {
                Kind::King
            } else {
                Kind::Man
            },
        };

        let mut hash = self.hash ^ zobrist::BLACK_TO_MOVE;
        hash ^= zobrist::piece_key(mover, from) ^ zobrist::piece_key(landed, to);
        let enemy = side.opponent();
        for sq in captured {
            let kind = if self.kings.contains(sq) {
                Kind::King
            } else {
                Kind::Man
            };
            hash ^= zobrist::piece_key(Piece { color: enemy, kind }, sq);
        }

        let path = from.bit() ^ to.bit();
        let (mut red, mut black) = (self.red, self.black);
        match side {
            Color::Red => {
                red ^= path;
                black &= !captured;
            }
            Color::Black => {
                black ^= path;
                red &= !captured;
            }
        }
        let mut kings = self.kings & !captured;
        if was_king {
            kings ^= path;
        } else if crowned {
            kings |= to.bit();
        }
        Position {
            red,
            black,
            kings,
            side: enemy,
            hash,
        }
    }

    /// Things about this position that the standard game would not allow, for warnings.
    #[must_use]
    pub fn setup_warnings(&self) -> Vec<SetupWarning> {
        let mut warnings = Vec::new();
        let light = self.occupied() & !Bitboard::DARK;
        if let Some(first) = light.first() {
            warnings.push(SetupWarning::LightCells {
                count: light.count(),
                first,
            });
        }
        for color in [Color::Red, Color::Black] {
            let count = self.pieces(color).count();
            if count == 0 {
                warnings.push(SetupWarning::NoPieces { color });
            }
            if count > 12 {
                warnings.push(SetupWarning::TooManyPieces { color, count });
            }
            let stuck = self.pieces(color) & !self.kings & Position::crowning_row(color);
            for square in stuck {
                warnings.push(SetupWarning::ManOnCrowningRow { color, square });
            }
        }
        warnings
    }
}

/// Whether `mv`, played by a man of `side`, crowns it. Either it ends on the far row, or it was
/// crowned during a capture and jumped on (only under the HackerRank rule). The move itself tells:
/// a man can only take a piece on the row next to its far row by landing on the far row, which
/// crowns it; so a man's capture that took such a piece crowned it, wherever it ended. (Under
/// the default rules such a capture always ends on the far row, so nothing changes there.)
/// Branch-free, as it runs on every move the search and perft play.
#[inline]
fn crowned_by(side: Color, mv: Move) -> bool {
    // The captured pieces moved one row towards the far row: those next to it land on it.
    let captured = mv.captured().0;
    let toward_far = match side {
        Color::Red => captured >> 8,
        Color::Black => captured << 8,
    };
    (mv.to().bit().0 | toward_far) & Position::crowning_row(side).0 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_twelve_men_a_side_on_dark_cells() {
        let p = Position::start();
        assert_eq!(p.pieces(Color::Red).count(), 12);
        assert_eq!(p.pieces(Color::Black).count(), 12);
        assert_eq!(p.occupied() & !Bitboard::DARK, Bitboard::EMPTY);
        assert_eq!(p.side_to_move(), Color::Red);
        assert!(p.setup_warnings().is_empty());
    }

    #[test]
    fn new_rejects_overlap_and_stray_kings() {
        let a = Square::new(0, 1).unwrap();
        let b = Square::new(2, 1).unwrap();
        assert_eq!(
            Position::new(a.bit(), a.bit(), Bitboard::EMPTY, Color::Red),
            Err(PositionError::Overlap(a))
        );
        assert_eq!(
            Position::new(a.bit(), Bitboard::EMPTY, b.bit(), Color::Red),
            Err(PositionError::KingWithoutPiece(b))
        );
    }
}
