//! Legal move generation over all 64 cells, with mandatory capture and complete multi-jumps.
//!
//! Steps are generated for all pieces at once with shifts and masks; jumps, which are rare, are
//! followed piece by piece with a depth-first search that records each finished sequence.
//!
//! The rules of `docs/rules.md` end a move when a man is crowned. HackerRank's variant lets the
//! new king jump on ([`CrowningRule::JumpsOn`]). The variant is a value: a game holds its
//! [`CrowningRule`] and generates through it ([`CrowningRule::generate`],
//! [`CrowningRule::legal_moves`], [`CrowningRule::count_moves`], and
//! [`CrowningRule::perft`](crate::rules::perft)). Each rule is its own instantiation of the jump
//! walk (a const generic), and the free functions ([`generate`], [`legal_moves`],
//! [`count_moves`]) are the rule of `docs/rules.md`, which the puzzle search calls in its hot path.

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

/// What happens when a man reaches the far row in the middle of a capture.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum CrowningRule {
    /// The man is crowned and the move ends there, even if the new king could jump on
    /// (`docs/rules.md`, and the CSCI561 and DD2380 assignments).
    #[default]
    EndsMove,
    /// The man is crowned and, as a king, goes on jumping when it can (HackerRank).
    JumpsOn,
}

impl CrowningRule {
    /// Whether a man crowned during a capture goes on jumping.
    #[must_use]
    pub const fn jumps_on(self) -> bool {
        matches!(self, CrowningRule::JumpsOn)
    }

    /// All legal moves of the side to move under this rule, written into `out` (cleared first).
    pub fn generate(self, pos: &Position, routes: Routes, out: &mut MoveList) {
        match self {
            CrowningRule::EndsMove => generate_impl::<false>(pos, routes, out),
            CrowningRule::JumpsOn => generate_impl::<true>(pos, routes, out),
        }
    }

    /// The legal moves of the side to move under this rule, one per distinct successor.
    #[must_use]
    pub fn legal_moves(self, pos: &Position) -> MoveList {
        let mut list = MoveList::new();
        self.generate(pos, Routes::Distinct, &mut list);
        list
    }

    /// [`count_moves`] under this rule.
    #[must_use]
    pub fn count_moves(self, pos: &Position, routes: Routes) -> u64 {
        match self {
            CrowningRule::EndsMove => count_impl::<false>(pos, routes),
            CrowningRule::JumpsOn => count_impl::<true>(pos, routes),
        }
    }
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

/// All legal moves of the side to move under `docs/rules.md`, written into `out` (cleared first).
pub fn generate(pos: &Position, routes: Routes, out: &mut MoveList) {
    generate_impl::<false>(pos, routes, out);
}

/// [`generate`] with the crowning rule fixed at compile time (`JUMPS_ON`: a man crowned during
/// a capture jumps on).
fn generate_impl<const JUMPS_ON: bool>(pos: &Position, routes: Routes, out: &mut MoveList) {
    out.clear();
    let jumping = jumpers(pos);
    if jumping.is_empty() {
        generate_steps(pos, out);
    } else {
        for from in jumping {
            let mut sink = |mv: Move| push_jump(out, mv, routes);
            follow_jumps::<_, JUMPS_ON>(pos, from, &mut sink);
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

/// [`legal_moves`] in their fixed order (`Move`'s `Ord`): the order in which the solver's
/// searches try moves and choose among equals, whatever order generation gives.
#[must_use]
pub fn sorted_legal_moves(pos: &Position) -> MoveList {
    let mut list = legal_moves(pos);
    list.sort();
    list
}

/// Number of legal moves (routes counted as `routes` says), without building a list when no
/// jump exists: the bulk count at perft's last ply.
#[must_use]
pub fn count_moves(pos: &Position, routes: Routes) -> u64 {
    count_impl::<false>(pos, routes)
}

fn count_impl<const JUMPS_ON: bool>(pos: &Position, routes: Routes) -> u64 {
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
                follow_jumps::<_, JUMPS_ON>(pos, from, &mut |_| n += 1);
            }
            n
        }
        Routes::Distinct => {
            let mut list = MoveList::new();
            generate_impl::<JUMPS_ON>(pos, routes, &mut list);
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
    /// `Some(row)` for a man: landing there crowns it (and ends the move unless the crowning
    /// rule lets it jump on).
    crown: Option<Bitboard>,
    /// Cells a jump may land on: empty cells plus the mover's own starting cell.
    landing: Bitboard,
    sink: &'a mut F,
}

/// Calls `sink` with every complete jump sequence of the piece on `from`.
fn follow_jumps<F: FnMut(Move), const JUMPS_ON: bool>(pos: &Position, from: Square, sink: &mut F) {
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
    extend::<F, JUMPS_ON>(&mut walk, from, enemies, Bitboard::EMPTY);
}

/// Depth-first search over the continuations of a jump sequence standing at `at`.
///
/// A sequence ends only where no further jump exists, or where a man is crowned (unless
/// `JUMPS_ON`: then the man goes on as a king, in all four directions).
fn extend<F: FnMut(Move), const JUMPS_ON: bool>(
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
            if JUMPS_ON {
                let (dirs, crown) = (walk.dirs, walk.crown);
                walk.dirs = &Direction::ALL;
                walk.crown = None;
                extend::<F, JUMPS_ON>(walk, land, enemies & !over.bit(), taken);
                walk.dirs = dirs;
                walk.crown = crown;
            } else {
                (walk.sink)(Move::new(walk.from, land, taken));
            }
        } else {
            extend::<F, JUMPS_ON>(walk, land, enemies & !over.bit(), taken);
        }
    }
    if !extended && !taken.is_empty() {
        (walk.sink)(Move::new(walk.from, at, taken));
    }
}

/// The cells a legal move of `pos` passes through under `crowning`: its start, then every
/// landing cell (a step gives its start and end). A capture's route is recovered by following
/// the jumps the moving piece may make (a man forward only until it is crowned) over exactly
/// the captured pieces; when several routes take them, the first in direction order is given.
/// `None` when `mv` is not a legal move of `pos` under `crowning`.
#[must_use]
pub fn route(pos: &Position, mv: Move, crowning: CrowningRule) -> Option<Vec<Square>> {
    if !crowning.legal_moves(pos).contains(&mv) {
        return None;
    }
    let mut path = vec![mv.from()];
    if !mv.is_capture() {
        path.push(mv.to());
        return Some(path);
    }
    let king = pos.kings().contains(mv.from());
    find_route(pos, mv, crowning, mv.from(), mv.captured(), king, &mut path).then_some(path)
}

/// Depth-first search for the rest of a route standing at `at` (as a king or not) that takes
/// exactly the pieces in `left` and ends on the move's destination; pushes landing cells onto
/// `path`.
fn find_route(
    pos: &Position,
    mv: Move,
    crowning: CrowningRule,
    at: Square,
    left: Bitboard,
    king: bool,
    path: &mut Vec<Square>,
) -> bool {
    if left.is_empty() {
        return at == mv.to();
    }
    let side = pos.side_to_move();
    let dirs: &[Direction] = if king { &Direction::ALL } else { forward(side) };
    let landing = !pos.occupied() | mv.from().bit();
    for &dir in dirs {
        let Some(over) = at.step(dir) else { continue };
        let Some(land) = over.step(dir) else { continue };
        if !left.contains(over) || !landing.contains(land) {
            continue;
        }
        let crowned = !king && Position::crowning_row(side).contains(land);
        if crowned && !crowning.jumps_on() && left != over.bit() {
            // Crowning ends the move, so this hop would have to take the last piece.
            continue;
        }
        path.push(land);
        if find_route(
            pos,
            mv,
            crowning,
            land,
            left & !over.bit(),
            king || crowned,
            path,
        ) {
            return true;
        }
        path.pop();
    }
    false
}

/// The legal move of `pos` under `crowning` that visits exactly `cells` (its start, then every
/// landing cell), checked hop by hop: a single step in a direction the piece may take, or jumps
/// each over an enemy piece not yet taken onto a free cell (a man forward only; once crowned, a
/// man jumps on as a king only under [`CrowningRule::JumpsOn`]). The move must then also be
/// among the legal moves (capture is mandatory, a sequence must be completed). `None` otherwise.
#[must_use]
pub fn move_from_route(pos: &Position, cells: &[Square], crowning: CrowningRule) -> Option<Move> {
    let (&from, hops) = cells.split_first()?;
    let &to = hops.last()?;
    let side = pos.side_to_move();
    if !pos.pieces(side).contains(from) {
        return None;
    }
    let mut king = pos.kings().contains(from);
    let allowed = |king: bool, dir: Direction| king || is_forward(side, dir);
    let free = !pos.occupied() | from.bit();
    let is_step = hops.len() == 1
        && Direction::ALL
            .iter()
            .any(|&d| from.step(d) == Some(to) && allowed(king, d) && free.contains(to));
    let candidate = if is_step {
        Move::new(from, to, Bitboard::EMPTY)
    } else {
        let enemies = pos.pieces(side.opponent());
        let mut taken = Bitboard::EMPTY;
        let mut at = from;
        for (i, &next) in hops.iter().enumerate() {
            let dir = Direction::ALL
                .iter()
                .copied()
                .find(|&d| at.step(d).and_then(|o| o.step(d)) == Some(next))?;
            let over = at.step(dir)?;
            if !allowed(king, dir)
                || !enemies.contains(over)
                || taken.contains(over)
                || !free.contains(next)
            {
                return None;
            }
            taken |= over.bit();
            if !king && Position::crowning_row(side).contains(next) {
                if !crowning.jumps_on() && i + 1 != hops.len() {
                    return None;
                }
                king = true;
            }
            at = next;
        }
        Move::new(from, to, taken)
    };
    crowning
        .legal_moves(pos)
        .contains(&candidate)
        .then_some(candidate)
}
