//! Standard checkers notation: dark cells numbered 1-32 row by row from the top, moves written
//! `22-18` for a step and `15x22x31` for a jump with every landing square.
//!
//! Pieces on light cells have no standard number; their moves are written with cell coordinates
//! instead (`r6c3-r5c4`: row and column from 1 at the top-left of the file).

use crate::rules::bitboard::Direction;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Square;

/// The standard number (1-32) of a dark cell; `None` for a light cell.
#[must_use]
pub fn standard_number(sq: Square) -> Option<u8> {
    sq.is_dark().then(|| sq.row() * 4 + sq.col() / 2 + 1)
}

/// The dark cell with standard number `n` (1-32).
#[must_use]
pub fn square_of_number(n: u8) -> Option<Square> {
    if !(1..=32).contains(&n) {
        return None;
    }
    let row = (n - 1) / 4;
    let col = 2 * ((n - 1) % 4) + (1 - row % 2);
    Square::new(row, col)
}

/// The squares a move passes through: its start, every landing square, its end.
///
/// Jumps are stored without their route; the route is recovered by following jumps over exactly
/// the captured pieces. When two routes exist, the one trying directions in the generator's order
/// (north-west, north-east, south-west, south-east) first is returned.
#[must_use]
pub fn move_path(pos: &Position, mv: Move) -> Vec<Square> {
    let mut path = vec![mv.from()];
    let routed = mv.is_capture() && find_route(pos, mv, mv.from(), mv.captured(), &mut path);
    if !routed {
        path.push(mv.to());
    }
    path
}

/// Depth-first search for a route from `at` that takes exactly the pieces in `left` and ends on
/// the move's destination; pushes the landing squares onto `path`.
fn find_route(
    pos: &Position,
    mv: Move,
    at: Square,
    left: crate::Bitboard,
    path: &mut Vec<Square>,
) -> bool {
    if left.is_empty() {
        return at == mv.to();
    }
    let empty = !pos.occupied() | mv.from().bit();
    for dir in Direction::ALL {
        let Some(over) = at.step(dir) else { continue };
        let Some(land) = over.step(dir) else { continue };
        if left.contains(over) && empty.contains(land) {
            path.push(land);
            if find_route(pos, mv, land, left & !over.bit(), path) {
                return true;
            }
            path.pop();
        }
    }
    false
}

/// A move in standard notation, or in cell coordinates when it touches a light cell.
#[must_use]
pub fn move_text(pos: &Position, mv: Move) -> String {
    let path = move_path(pos, mv);
    let sep = if mv.is_capture() { "x" } else { "-" };
    let numbers: Option<Vec<String>> = path
        .iter()
        .map(|&sq| standard_number(sq).map(|n| n.to_string()))
        .collect();
    let parts = numbers.unwrap_or_else(|| {
        path.iter()
            .map(|sq| format!("r{}c{}", sq.row() + 1, sq.col() + 1))
            .collect()
    });
    parts.join(sep)
}

/// Why a path of squares is not a legal move in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// No legal move starts and ends where the path does (or takes what it takes).
    #[error("not a legal move for {side} here; legal moves: {legal}")]
    Illegal {
        /// The side to move, by name.
        side: &'static str,
        /// The legal moves in standard notation, separated by spaces (or "none").
        legal: String,
    },
    /// A multi-jump written with its two ends only, when several captures share them.
    #[error("ambiguous: several captures go from {from} to {to}; write every landing square")]
    Ambiguous {
        /// The start, as written.
        from: u8,
        /// The end, as written.
        to: u8,
    },
}

/// The squares of a move written in standard notation, `22-18` or `15x22x31`; `None` when the
/// text is not numbers 1-32 joined by `-` or `x`. Which separator is used is not checked here:
/// the path alone identifies the move.
#[must_use]
pub fn parse_path(text: &str) -> Option<Vec<Square>> {
    let squares: Option<Vec<Square>> = text
        .split(['-', 'x', 'X'])
        .map(|part| {
            let all_digits =
                !part.is_empty() && part.len() <= 2 && part.bytes().all(|b| b.is_ascii_digit());
            all_digits
                .then(|| part.parse::<u8>().ok())
                .flatten()
                .and_then(square_of_number)
        })
        .collect();
    squares.filter(|s| s.len() >= 2)
}

/// The legal move of `pos` that follows `path` (start, every landing square, end).
///
/// A capture may also be written with its two ends only when that names one capture. A full
/// path is checked jump by jump: each hop jumps an enemy piece not yet taken onto a free square,
/// forward only for a man, and the whole must be a complete legal move of the generator.
pub fn move_from_path(pos: &Position, path: &[Square]) -> Result<Move, PathError> {
    let legal = crate::rules::movegen::legal_moves(pos);
    let illegal = || PathError::Illegal {
        side: pos.side_to_move().name(),
        legal: if legal.is_empty() {
            "none".to_string()
        } else {
            legal
                .iter()
                .map(|&m| move_text(pos, m))
                .collect::<Vec<_>>()
                .join(" ")
        },
    };
    let (Some(&from), Some(&to)) = (path.first(), path.last()) else {
        return Err(illegal());
    };
    let ends: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.from() == from && m.to() == to)
        .collect();
    if path.len() == 2 {
        return match ends.as_slice() {
            [only] => Ok(*only),
            [] => Err(illegal()),
            // Two squares a jump apart are also the full path of a single jump, which names one
            // capture even when a longer one (a king's loop back to its start) ends there too.
            several => jumped(pos, path)
                .and_then(|taken| several.iter().find(|m| m.captured() == taken).copied())
                .ok_or(PathError::Ambiguous {
                    from: standard_number(from).unwrap_or(0),
                    to: standard_number(to).unwrap_or(0),
                }),
        };
    }
    let Some(taken) = jumped(pos, path) else {
        return Err(illegal());
    };
    ends.into_iter()
        .find(|m| m.captured() == taken)
        .ok_or_else(illegal)
}

/// The pieces a path of jumps takes, if every hop is a jump the moving piece may make.
fn jumped(pos: &Position, path: &[Square]) -> Option<crate::Bitboard> {
    let from = *path.first()?;
    let mover = pos.piece_at(from)?;
    if mover.color != pos.side_to_move() {
        return None;
    }
    let enemies = pos.pieces(mover.color.opponent());
    let free = !pos.occupied() | from.bit();
    let mut taken = crate::Bitboard::EMPTY;
    for hop in path.windows(2) {
        let (at, land) = (hop[0], hop[1]);
        let dir = Direction::ALL
            .into_iter()
            .find(|&d| at.step(d).and_then(|over| over.step(d)) == Some(land))?;
        let forward = match mover.color {
            crate::Color::Red => matches!(dir, Direction::NorthWest | Direction::NorthEast),
            crate::Color::Black => matches!(dir, Direction::SouthWest | Direction::SouthEast),
        };
        let over = at.step(dir)?;
        let is_man = mover.kind == crate::Kind::Man;
        if (is_man && !forward)
            || !enemies.contains(over)
            || taken.contains(over)
            || !free.contains(land)
        {
            return None;
        }
        taken |= over.bit();
    }
    Some(taken)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_contract() {
        // Row 1 holds squares 1-4 in columns 2, 4, 6, 8; row 2 holds 5-8 in columns 1, 3, 5, 7.
        assert_eq!(standard_number(Square::new(0, 1).unwrap()), Some(1));
        assert_eq!(standard_number(Square::new(0, 7).unwrap()), Some(4));
        assert_eq!(standard_number(Square::new(1, 0).unwrap()), Some(5));
        assert_eq!(standard_number(Square::new(7, 6).unwrap()), Some(32));
        assert_eq!(standard_number(Square::new(0, 0).unwrap()), None);
        for n in 1..=32 {
            assert_eq!(square_of_number(n).and_then(standard_number), Some(n));
        }
    }

    #[test]
    fn opening_moves_in_standard_notation() {
        let pos = Position::start();
        let mut texts: Vec<String> = crate::rules::movegen::legal_moves(&pos)
            .iter()
            .map(|&m| move_text(&pos, m))
            .collect();
        texts.sort();
        assert_eq!(
            texts,
            ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]
        );
    }

    #[test]
    fn paths_identify_moves() {
        // Red man on 22 (row 6, col 3) can jump black men on 18 and 11: 22x15x8.
        let sq = |n| square_of_number(n).unwrap();
        let pos = crate::formats::fen::parse("W:W22:B18,11,1").unwrap();
        let mv = move_from_path(&pos, &parse_path("22x15x8").unwrap()).unwrap();
        assert_eq!((mv.from(), mv.to()), (sq(22), sq(8)));
        assert_eq!(mv.captured(), sq(18).bit() | sq(11).bit());
        assert_eq!(move_text(&pos, mv), "22x15x8");
        // The short form names the same move; a step is not legal when a capture exists.
        assert_eq!(move_from_path(&pos, &parse_path("22x8").unwrap()), Ok(mv));
        assert!(matches!(
            move_from_path(&pos, &parse_path("22-17").unwrap()),
            Err(PathError::Illegal { .. })
        ));
        // Stopping half-way is not a complete move.
        assert!(move_from_path(&pos, &parse_path("22x15").unwrap()).is_err());
        assert_eq!(parse_path("22-33"), None);
        assert_eq!(parse_path("22"), None);
        assert_eq!(parse_path("a-b"), None);
    }

    #[test]
    fn a_single_jump_is_not_ambiguous_beside_a_loop_with_the_same_ends() {
        // A red king on 15 can jump 11 to 8 at once, or first loop round 19, 27, 26 and 18 back
        // to 15 and then jump 11: both end on 8. "15x8" is the single jump's full path; the
        // loop must be written in full.
        let sq = |n| square_of_number(n).unwrap();
        let pos = crate::formats::fen::parse("W:WK15:B11,18,19,26,27").unwrap();
        let ends: Vec<Move> = crate::rules::movegen::legal_moves(&pos)
            .iter()
            .copied()
            .filter(|m| m.from() == sq(15) && m.to() == sq(8))
            .collect();
        assert!(ends.len() >= 2, "{ends:?}");
        let single = move_from_path(&pos, &parse_path("15x8").unwrap()).unwrap();
        assert_eq!(single.captured(), sq(11).bit());
        assert_eq!(move_text(&pos, single), "15x8");
        for mv in ends {
            assert_eq!(move_from_path(&pos, &move_path(&pos, mv)), Ok(mv));
        }
    }

    #[test]
    fn every_route_written_reads_back_and_men_never_jump_backwards() {
        // A red king on 15 among black men: every legal capture, written, reads back as itself.
        let pos = crate::formats::fen::parse("W:WK15:B10,11,18,19").unwrap();
        for mv in crate::rules::movegen::legal_moves(&pos) {
            assert_eq!(move_from_path(&pos, &move_path(&pos, mv)), Ok(mv));
        }
        // A red man on 15 with a black man behind it on 18 has no jump over it.
        let men = crate::formats::fen::parse("W:W15:B18,1").unwrap();
        assert!(move_from_path(&men, &parse_path("15x22").unwrap()).is_err());
        assert!(move_from_path(&men, &parse_path("15-10").unwrap()).is_ok());
    }
}
