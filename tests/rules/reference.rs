//! A deliberately naive reference move generator, written from the rules alone, to check the
//! engine's bitboard generator (`tests/rules/perft_reference.rs`) and the analyser's own generator
//! (`tests/rules/analysis_rules.rs`) against: a third opinion, kept apart from both.
//!
//! The board is an array of 64 characters from `.rRbB` (index `row * 8 + col`, row 0 at the top),
//! jumps are followed by recursion that really moves the piece and really removes each captured
//! piece, and every cell is treated alike (no dark-cell assumption). Nothing is shared with the
//! engine except the `Position` type at the boundary.
//!
//! Removing a captured piece at once, rather than at the end of the move, cannot change the result:
//! every jump moves the piece two cells in each coordinate, so its landing cells are always an even
//! number of rows away from its start while the pieces it jumps are an odd number away; a captured
//! cell is never a landing cell, and a removed piece cannot be jumped twice. Moving the piece for
//! real also makes its starting cell empty during its own sequence, as the rules demand
//! (`docs/rules.md`).

// Each test binary that includes this module uses a different part of it.
#![allow(dead_code)]

use std::collections::BTreeMap;

use checkers::{Color, Kind, Position, Square};

/// A board and the side to move, in the simplest representation there is.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Board {
    /// `.`, `r`, `R`, `b` or `B` for each cell, row by row from the top.
    pub cells: [u8; 64],
    /// Whose turn it is.
    pub red_to_move: bool,
}

/// Whether `c` is a piece of the side whose men move up (`red == true`) or down.
fn belongs(c: u8, red: bool) -> bool {
    if red {
        c == b'r' || c == b'R'
    } else {
        c == b'b' || c == b'B'
    }
}

fn is_king(c: u8) -> bool {
    c == b'R' || c == b'B'
}

fn crown(c: u8) -> u8 {
    c.to_ascii_uppercase()
}

/// The cell `(row, col)` if it is on the board.
fn cell(row: i32, col: i32) -> Option<usize> {
    if (0..8).contains(&row) && (0..8).contains(&col) {
        Some((row * 8 + col) as usize)
    } else {
        None
    }
}

/// The (row, col) steps a piece may take: men forward only (red up, black down), kings all four.
fn directions(piece: u8) -> Vec<(i32, i32)> {
    match piece {
        b'r' => vec![(-1, -1), (-1, 1)],
        b'b' => vec![(1, -1), (1, 1)],
        _ => vec![(-1, -1), (-1, 1), (1, -1), (1, 1)],
    }
}

/// The row where a man of this piece's side is crowned.
fn far_row(piece: u8) -> i32 {
    if belongs(piece, true) {
        0
    } else {
        7
    }
}

impl Board {
    /// The board of an engine position, read cell by cell.
    pub fn from_position(pos: &Position) -> Board {
        let mut cells = [b'.'; 64];
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                cells[sq.index()] = match (p.color, p.kind) {
                    (Color::Red, Kind::Man) => b'r',
                    (Color::Red, Kind::King) => b'R',
                    (Color::Black, Kind::Man) => b'b',
                    (Color::Black, Kind::King) => b'B',
                };
            }
        }
        Board {
            cells,
            red_to_move: pos.side_to_move() == Color::Red,
        }
    }

    /// The 8 rows, each followed by a newline (the same layout as a puzzle file).
    pub fn text(&self) -> String {
        let mut s = String::new();
        for row in self.cells.chunks(8) {
            s.extend(row.iter().map(|&c| c as char));
            s.push('\n');
        }
        s
    }

    /// Every legal successor, one per jump route (a capture reached by two routes appears twice).
    pub fn successors(&self) -> Vec<Board> {
        self.successors_under(false)
    }

    /// [`Board::successors`] under HackerRank's rule when `jumps_on`: a man crowned during a
    /// capture goes on jumping as a king when it can.
    pub fn successors_under(&self, jumps_on: bool) -> Vec<Board> {
        let mut jumps = Vec::new();
        for from in 0..64 {
            let piece = self.cells[from];
            if belongs(piece, self.red_to_move) {
                let (row, col) = ((from / 8) as i32, (from % 8) as i32);
                let mut cells = self.cells;
                cells[from] = b'.';
                self.follow_jumps(cells, row, col, piece, false, jumps_on, &mut jumps);
            }
        }
        if !jumps.is_empty() {
            return jumps;
        }
        let mut steps = Vec::new();
        for from in 0..64 {
            let piece = self.cells[from];
            if !belongs(piece, self.red_to_move) {
                continue;
            }
            let (row, col) = ((from / 8) as i32, (from % 8) as i32);
            for (dr, dc) in directions(piece) {
                let Some(to) = cell(row + dr, col + dc) else {
                    continue;
                };
                if self.cells[to] != b'.' {
                    continue;
                }
                let mut cells = self.cells;
                cells[from] = b'.';
                cells[to] = if !is_king(piece) && row + dr == far_row(piece) {
                    crown(piece)
                } else {
                    piece
                };
                steps.push(self.finish(cells));
            }
        }
        steps
    }

    /// The successors as a set of distinct boards.
    pub fn distinct_successors(&self) -> Vec<Board> {
        self.distinct_successors_under(false)
    }

    /// [`Board::distinct_successors`], crowning as `jumps_on` says.
    pub fn distinct_successors_under(&self, jumps_on: bool) -> Vec<Board> {
        let mut v = self.successors_under(jumps_on);
        v.sort();
        v.dedup();
        v
    }

    /// The position after the move, with the other side to move.
    fn finish(&self, cells: [u8; 64]) -> Board {
        Board {
            cells,
            red_to_move: !self.red_to_move,
        }
    }

    /// Continues a jump sequence of `piece`, which stands (lifted off `cells`) at `row`, `col`.
    /// A man crowned on the way ends the move, or jumps on as a king when `jumps_on`.
    #[allow(clippy::too_many_arguments)]
    fn follow_jumps(
        &self,
        cells: [u8; 64],
        row: i32,
        col: i32,
        piece: u8,
        jumped: bool,
        jumps_on: bool,
        out: &mut Vec<Board>,
    ) {
        let mut went_on = false;
        for (dr, dc) in directions(piece) {
            let (Some(over), Some(land)) =
                (cell(row + dr, col + dc), cell(row + 2 * dr, col + 2 * dc))
            else {
                continue;
            };
            if !belongs(cells[over], !self.red_to_move) || cells[land] != b'.' {
                continue;
            }
            went_on = true;
            let mut next = cells;
            next[over] = b'.';
            if !is_king(piece) && row + 2 * dr == far_row(piece) {
                if jumps_on {
                    // HackerRank: the new king jumps on if it can.
                    let king = crown(piece);
                    self.follow_jumps(next, row + 2 * dr, col + 2 * dc, king, true, true, out);
                } else {
                    // Crowned: the move ends here even if the new king could jump on.
                    next[land] = crown(piece);
                    out.push(self.finish(next));
                }
            } else {
                let (r, c) = (row + 2 * dr, col + 2 * dc);
                self.follow_jumps(next, r, c, piece, true, jumps_on, out);
            }
        }
        if !went_on && jumped {
            let mut done = cells;
            done[(row * 8 + col) as usize] = piece;
            out.push(self.finish(done));
        }
    }
}

/// Perft by the reference generator: routes counted separately when `all_routes`, else
/// successors counted once per distinct board.
pub fn perft(board: &Board, depth: u32, all_routes: bool) -> u64 {
    perft_under(board, depth, all_routes, false)
}

/// [`perft`], crowning as `jumps_on` says (HackerRank's rule when true).
pub fn perft_under(board: &Board, depth: u32, all_routes: bool, jumps_on: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let next = if all_routes {
        board.successors_under(jumps_on)
    } else {
        board.distinct_successors_under(jumps_on)
    };
    if depth == 1 {
        return next.len() as u64;
    }
    next.iter()
        .map(|b| perft_under(b, depth - 1, all_routes, jumps_on))
        .sum()
}

/// A multiset of boards: board -> how many times it occurs.
pub fn multiset(boards: impl IntoIterator<Item = Board>) -> BTreeMap<Board, usize> {
    let mut m = BTreeMap::new();
    for b in boards {
        *m.entry(b).or_insert(0) += 1;
    }
    m
}
