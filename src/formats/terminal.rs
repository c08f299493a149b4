//! Boards for the terminal with Unicode draughts pieces: `⛀` red man, `⛁` red king, `⛂` black
//! man, `⛃` black king (red plays White's role, so it gets the white glyphs). With colour (ANSI
//! escapes, only for a terminal), cells get their light and dark backgrounds, the pieces their
//! colours, and the last move's squares a highlight.
//!
//! Each row ends with the standard numbers of its dark squares, as notation reads them.

use std::fmt::Write as _;

use crate::formats::notation::standard_number;
use crate::formats::replay::Replay;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::square::Square;

/// The glyph of a piece.
#[must_use]
pub const fn glyph(piece: Piece) -> char {
    match (piece.color, piece.kind) {
        (Color::Red, Kind::Man) => '⛀',
        (Color::Red, Kind::King) => '⛁',
        (Color::Black, Kind::Man) => '⛂',
        (Color::Black, Kind::King) => '⛃',
    }
}

const RESET: &str = "\x1b[0m";
const LIGHT_BG: &str = "\x1b[48;5;180m";
const DARK_BG: &str = "\x1b[48;5;65m";
const MOVED_BG: &str = "\x1b[48;5;32m";
const RED_FG: &str = "\x1b[1;38;5;196m";
const BLACK_FG: &str = "\x1b[1;38;5;16m";

/// The legend of the glyphs, one line.
pub const LEGEND: &str = "⛀ red man  ⛁ red king  ⛂ black man  ⛃ black king";

/// One board: 8 rows between a frame, each followed by its dark squares' standard numbers.
/// `last_move` squares are highlighted (with colour) or marked with `*` (without).
#[must_use]
pub fn board(pos: &Position, last_move: Option<&[Square]>, colour: bool) -> String {
    let moved = |sq: Square| last_move.is_some_and(|p| p.contains(&sq));
    let mut out = String::new();
    out.push_str("┌────────────────────────┐\n");
    for row in 0..8u8 {
        out.push('│');
        for col in 0..8u8 {
            let Some(sq) = Square::new(row, col) else {
                continue;
            };
            let piece = pos.piece_at(sq);
            if colour {
                let bg = if moved(sq) {
                    MOVED_BG
                } else if sq.is_dark() {
                    DARK_BG
                } else {
                    LIGHT_BG
                };
                match piece {
                    Some(p) => {
                        let fg = match p.color {
                            Color::Red => RED_FG,
                            Color::Black => BLACK_FG,
                        };
                        let _ = write!(out, "{bg}{fg} {} {RESET}", glyph(p));
                    }
                    None => {
                        let _ = write!(out, "{bg}   {RESET}");
                    }
                }
            } else {
                let mark = if moved(sq) { '*' } else { ' ' };
                match piece {
                    Some(p) => {
                        let _ = write!(out, "{mark}{} ", glyph(p));
                    }
                    None if sq.is_dark() => {
                        let _ = write!(out, "{mark}· ");
                    }
                    None => {
                        let _ = write!(out, "{mark}  ");
                    }
                }
            }
        }
        let numbers: Vec<u8> = (0..8u8)
            .filter_map(|col| Square::new(row, col).and_then(standard_number))
            .collect();
        let first = numbers.first().copied().unwrap_or(0);
        let last = numbers.last().copied().unwrap_or(0);
        let _ = writeln!(out, "│ {first}-{last}");
    }
    out.push_str("└────────────────────────┘\n");
    out
}

/// Every state of a replay, each under its caption, with the legend at the end.
#[must_use]
pub fn replay(replay: &Replay, colour: bool) -> String {
    let mut out = String::new();
    if !replay.title.is_empty() {
        let _ = writeln!(out, "{}", replay.title);
    }
    let n = replay.states.len();
    for (k, pos) in replay.states.iter().enumerate() {
        let last = k
            .checked_sub(1)
            .and_then(|i| replay.paths.get(i))
            .map(Vec::as_slice);
        let _ = writeln!(out, "\nState {} of {n}: {}", k + 1, replay.caption(k));
        out.push_str(&board(pos, last, colour));
    }
    let _ = writeln!(out, "\n{LEGEND}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::fen;

    #[test]
    fn plain_board_shows_pieces_and_numbers() {
        let pos = fen::parse("W:W21,K32:B1,K12").unwrap();
        let text = board(&pos, None, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 10);
        // Square 1 is row 1, column 2; square 12 is row 3, column 8.
        assert_eq!(lines[1], "│    ⛂     ·     ·     · │ 1-4");
        assert!(lines[3].contains("⛃ │ 9-12"), "{}", lines[3]);
        assert!(lines[6].starts_with("│ ⛀ "), "{}", lines[6]);
        assert!(lines[8].contains(" ⛁    │ 29-32"), "{}", lines[8]);
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn colour_only_on_request() {
        let pos = Position::start();
        let text = board(&pos, None, true);
        assert!(text.contains(RED_FG) && text.contains(BLACK_FG) && text.contains(DARK_BG));
    }
}
