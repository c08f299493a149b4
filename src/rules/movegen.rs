//! Legal move generation over all 64 cells, with mandatory capture and complete multi-jumps.
//!
//! Steps are generated for all pieces at once with shifts and masks; jumps, which are rare, are
//! followed piece by piece with a depth-first search that records each finished sequence.

use crate::rules::bitboard::{Bitboard, Direction};
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::square::Square;

/// How jump sequences that take the same pieces by different routes are listed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Routes {
    /// One move per distinct resulting position: what the search and the game need.
    Distinct,
    /// One move per route: what the published perft counts do (a king taking the same pieces
    /// clockwise and anticlockwise counts twice).
    All,
}

const RED_FORWARD: [Direction; 2] = [Direction::NorthWest, Direction::NorthEast];
const BLACK_FORWARD: [Direction; 2] = [Direction::SouthWest, Direction::SouthEast];

/// The directions a man of `color` may move and jump in.
const fn forward(color: Color) -> &'static [Direction] {
    match color {
        Color::Red => &RED_FORWARD,
        Color::Black => &BLACK_FORWARD,
    }
}

/// Whether `dir` is forward for men of `color`.
const fn is_forward(color: Color, dir: Direction) -> bool {
    match color {
        Color::Red => matches!(dir, Direction::NorthWest | Direction::NorthEast),
        Color::Black => matches!(dir, Direction::SouthWest | Direction::SouthEast),
    }
}

/// Pieces of the side to move that may go in `dir`: kings always, men only forward.
fn movers(pos: &Position, dir: Direction) -> Bitboard {
    let side = pos.side_to_move();
    let own = pos.pieces(side);
    if is_forward(side, dir) {
        own
    } else {
        own & pos.kings()
    }
}

/// Pieces of the side to move that have at least one jump.
#[must_use]
pub fn jumpers(pos: &Position) -> Bitboard {
    let enemy = pos.pieces(pos.side_to_move().opponent());
    let empty = !pos.occupied();
    let mut result = Bitboard::EMPTY;
    for dir in Direction::ALL {
        let landing = ((movers(pos, dir).shift(dir) & enemy).shift(dir)) & empty;
        if !landing.is_empty() {
            let back = dir.opposite();
            result |= landing.shift(back).shift(back);
        }
    }
    result
}

/// Whether the side to move must capture.
#[must_use]
pub fn has_jump(pos: &Position) -> bool {
    !jumpers(pos).is_empty()
}

/// All legal moves of the side to move, written into `out` (cleared first).
pub fn generate(pos: &Position, routes: Routes, out: &mut MoveList) {
    out.clear();
    let jumping = jumpers(pos);
    if jumping.is_empty() {
        generate_steps(pos, out);
    } else {
        for from in jumping {
            let mut sink = |mv: Move| push_jump(out, mv, routes);
            follow_jumps(pos, from, &mut sink);
        }
    }
}

/// The legal moves of the side to move, one per distinct successor position.
#[must_use]
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, Routes::Distinct, &mut list);
    list
}

/// Number of legal moves (routes counted as `routes` says), without building a list when no
/// jump exists: the bulk count at perft's last ply.
#[must_use]
pub fn count_moves(pos: &Position, routes: Routes) -> u64 {
    let jumping = jumpers(pos);
    if jumping.is_empty() {
        let empty = !pos.occupied();
        return Direction::ALL
            .iter()
            .map(|&dir| u64::from((movers(pos, dir).shift(dir) & empty).count()))
            .sum();
    }
    match routes {
        Routes::All => {
            let mut n = 0u64;
            for from in jumping {
                follow_jumps(pos, from, &mut |_| n += 1);
            }
            n
        }
        Routes::Distinct => {
            let mut list = MoveList::new();
            generate(pos, routes, &mut list);
            list.len() as u64
        }
    }
}

/// Every simple step of the side to move, as if no capture were mandatory. Not legal moves when a
/// capture exists: used to explain why a submitted solution's move is illegal.
#[must_use]
pub fn steps_ignoring_captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_steps(pos, &mut list);
    list
}

/// Every step of the side to move (no capture exists).
fn generate_steps(pos: &Position, out: &mut MoveList) {
    let empty = !pos.occupied();
    for dir in Direction::ALL {
        let back = dir.opposite();
        for to in movers(pos, dir).shift(dir) & empty {
            if let Some(from) = to.step(back) {
                out.push(Move::new(from, to, Bitboard::EMPTY));
            }
        }
    }
}

/// Adds a finished jump sequence, skipping a repeat of an already listed one in `Distinct` mode.
/// Only kings can reach the same end with the same captures by two routes (a man's route is
/// fixed by its captures), and they are rare, so a linear scan is cheap.
fn push_jump(out: &mut MoveList, mv: Move, routes: Routes) {
    if routes == Routes::Distinct && out.contains(&mv) {
        return;
    }
    out.push(mv);
}

/// What stays fixed while one piece's jump sequences are followed.
struct JumpWalk<'a, F: FnMut(Move)> {
    from: Square,
    dirs: &'a [Direction],
    /// `Some(row)` for a man: landing there crowns it and ends the move.
    crown: Option<Bitboard>,
    /// Cells a jump may land on: empty cells plus the mover's own starting cell.
    landing: Bitboard,
    sink: &'a mut F,
}

/// Calls `sink` with every complete jump sequence of the piece on `from`.
fn follow_jumps<F: FnMut(Move)>(pos: &Position, from: Square, sink: &mut F) {
    let side = pos.side_to_move();
    let king = pos.kings().contains(from);
    let mut walk = JumpWalk {
        from,
        dirs: if king { &Direction::ALL } else { forward(side) },
        crown: (!king).then(|| Position::crowning_row(side)),
        landing: !pos.occupied() | from.bit(),
        sink,
    };
    let enemies = pos.pieces(side.opponent());
    extend(&mut walk, from, enemies, Bitboard::EMPTY);
}

/// Depth-first search over the continuations of a jump sequence standing at `at`.
///
/// A sequence ends only where no further jump exists, or where a man is crowned.
fn extend<F: FnMut(Move)>(
    walk: &mut JumpWalk<'_, F>,
    at: Square,
    enemies: Bitboard,
    taken: Bitboard,
) {
    let mut extended = false;
    for i in 0..walk.dirs.len() {
        let dir = walk.dirs[i];
        let Some(over) = at.step(dir) else { continue };
        if !enemies.contains(over) {
            continue;
        }
        let Some(land) = over.step(dir) else { continue };
        if !walk.landing.contains(land) {
            continue;
        }
        extended = true;
        let taken = taken | over.bit();
        if walk.crown.is_some_and(|row| row.contains(land)) {
            (walk.sink)(Move::new(walk.from, land, taken));
        } else {
            extend(walk, land, enemies & !over.bit(), taken);
        }
    }
    if !extended && !taken.is_empty() {
        (walk.sink)(Move::new(walk.from, at, taken));
    }
}
