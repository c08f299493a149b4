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
}
