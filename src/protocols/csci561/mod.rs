//! USC CSCI561's checkers protocol: the agent reads `input.txt` and writes `output.txt`.
//!
//! `input.txt` (see [`parse_input`]):
//!
//! ```text
//! GAME          line 1: SINGLE (one move) or GAME (a move of a whole game)
//! WHITE         line 2: the colour to play, BLACK or WHITE
//! 299.93        line 3: seconds of CPU time left, strictly positive
//! .b.b.b.b      lines 4-11: the board, `b B w W .`, the top row first
//! ...
//! ```
//!
//! `output.txt` (see [`format_move`] and [`parse_output`]): `E FROM TO` for a step, or one
//! `J FROM TO` line per jump of a capture, in order, LF line ends.
//!
//! Coordinates: columns `a`-`h` from the left, rows `1`-`8` from the bottom, so the top-left cell
//! is `a8`. Black starts at the top and moves down (this crate's black); white starts at the
//! bottom and moves up (this crate's red).
//!
//! What the agent keeps between moves is in [`playdata`], the machine's speed in
//! [`calibration`], and the agent itself in [`agent`].

pub mod agent;
pub mod calibration;
pub mod playdata;

use thiserror::Error;

use crate::rules::bitboard::Bitboard;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::square::Square;

/// File the agent reads.
pub const INPUT_FILE: &str = "input.txt";
/// File the agent writes its move to.
pub const OUTPUT_FILE: &str = "output.txt";

/// Whether the agent plays one move or a move of a whole game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// One move; the time given is for this move alone.
    Single,
    /// A move of a game; the time given is what is left for the rest of the game.
    Game,
}

impl Mode {
    /// The keyword of line 1.
    #[must_use]
    pub const fn keyword(self) -> &'static str {
        match self {
            Mode::Single => "SINGLE",
            Mode::Game => "GAME",
        }
    }
}

/// The protocol's name of a colour: `BLACK` for black, `WHITE` for red.
#[must_use]
pub const fn colour_keyword(color: Color) -> &'static str {
    match color {
        Color::Black => "BLACK",
        Color::Red => "WHITE",
    }
}

/// What `input.txt` says.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Input {
    /// SINGLE or GAME.
    pub mode: Mode,
    /// The colour to play (also the side to move of [`Input::position`]).
    pub colour: Color,
    /// Seconds of CPU time left, finite and strictly positive.
    pub seconds: f64,
    /// The board with the agent's colour to move.
    pub position: Position,
}

/// What is wrong with a line of `input.txt`.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum InputErrorKind {
    /// The file has no line with this number.
    #[error("missing: expected {0}")]
    Missing(&'static str),
    /// Line 1 is not SINGLE or GAME.
    #[error("expected SINGLE or GAME, found `{0}`")]
    Mode(String),
    /// Line 2 is not BLACK or WHITE.
    #[error("expected BLACK or WHITE, found `{0}`")]
    Colour(String),
    /// Line 3 is not a strictly positive number of seconds.
    #[error("expected a positive number of seconds (such as 300 or 299.93), found `{0}`")]
    Time(String),
    /// A board line does not have 8 cells.
    #[error("a board row needs 8 characters from `b B w W .`, found {found}: `{text}`")]
    RowLength {
        /// How many characters the line has.
        found: usize,
        /// The line.
        text: String,
    },
    /// A board cell is not one of `b B w W .`.
    #[error("column {column}: `{found}` is not one of `b B w W .`")]
    Cell {
        /// The column, from 1.
        column: usize,
        /// The character found.
        found: char,
    },
    /// Text after the board.
    #[error("unexpected text after the 8 board rows: `{0}`")]
    Extra(String),
}

/// Why `input.txt` cannot be used: the line (from 1) and what is wrong there.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("line {line}: {kind}")]
pub struct InputError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: InputErrorKind,
}

/// Largest time accepted, in seconds (a week; anything above is a typo).
const MAX_SECONDS: f64 = 604_800.0;

/// Reads the text of `input.txt`. LF or CRLF line ends, surrounding spaces on a line and empty
/// lines after the board are tolerated; anything else wrong is an error naming its line.
pub fn parse_input(text: &str) -> Result<Input, InputError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().map(str::trim);
    let mut next = |line: usize, what: &'static str| {
        lines.next().ok_or(InputError {
            line,
            kind: InputErrorKind::Missing(what),
        })
    };
    let err = |line, kind| InputError { line, kind };

    let mode = match next(1, "SINGLE or GAME")? {
        "SINGLE" => Mode::Single,
        "GAME" => Mode::Game,
        other => return Err(err(1, InputErrorKind::Mode(other.to_owned()))),
    };
    let colour = match next(2, "BLACK or WHITE")? {
        "BLACK" => Color::Black,
        "WHITE" => Color::Red,
        other => return Err(err(2, InputErrorKind::Colour(other.to_owned()))),
    };
    let time_text = next(3, "the seconds of time left")?;
    let seconds = time_text
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= MAX_SECONDS)
        .ok_or_else(|| err(3, InputErrorKind::Time(time_text.to_owned())))?;

    let mut red = Bitboard::EMPTY;
    let mut black = Bitboard::EMPTY;
    let mut kings = Bitboard::EMPTY;
    for row in 0..8u8 {
        let line = 4 + usize::from(row);
        let text = next(line, "a board row of 8 characters from `b B w W .`")?;
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 8 {
            return Err(err(
                line,
                InputErrorKind::RowLength {
                    found: chars.len(),
                    text: text.to_owned(),
                },
            ));
        }
        for (col, &c) in chars.iter().enumerate() {
            let piece = piece_of_char(c).ok_or_else(|| {
                err(
                    line,
                    InputErrorKind::Cell {
                        column: col + 1,
                        found: c,
                    },
                )
            })?;
            let Some(piece) = piece else { continue };
            let Some(sq) = Square::new(row, col as u8) else {
                continue;
            };
            match piece.color {
                Color::Red => red |= sq.bit(),
                Color::Black => black |= sq.bit(),
            }
            if piece.kind == Kind::King {
                kings |= sq.bit();
            }
        }
    }
    for (i, rest) in lines.enumerate() {
        if !rest.is_empty() {
            return Err(err(12 + i, InputErrorKind::Extra(rest.to_owned())));
        }
    }
    // Each cell was set once from one character, so the sides cannot overlap.
    let position = Position::new(red, black, kings, colour)
        .map_err(|_| err(4, InputErrorKind::Extra("inconsistent board".to_owned())))?;
    Ok(Input {
        mode,
        colour,
        seconds,
        position,
    })
}

/// The piece a board character stands for: `Some(None)` for an empty cell, `None` for a
/// character that is not one of `b B w W .`.
fn piece_of_char(c: char) -> Option<Option<Piece>> {
    let (color, kind) = match c {
        '.' => return Some(None),
        'b' => (Color::Black, Kind::Man),
        'B' => (Color::Black, Kind::King),
        'w' => (Color::Red, Kind::Man),
        'W' => (Color::Red, Kind::King),
        _ => return None,
    };
    Some(Some(Piece { color, kind }))
}

/// The board character of a cell's content.
fn char_of_piece(piece: Option<Piece>) -> char {
    match piece {
        None => '.',
        Some(Piece { color, kind }) => match (color, kind) {
            (Color::Black, Kind::Man) => 'b',
            (Color::Black, Kind::King) => 'B',
            (Color::Red, Kind::Man) => 'w',
            (Color::Red, Kind::King) => 'W',
        },
    }
}

/// The 8 board lines of `pos` in the protocol's characters, each ending with LF.
#[must_use]
pub fn format_board(pos: &Position) -> String {
    let mut out = String::with_capacity(72);
    for row in 0..8 {
        for col in 0..8 {
            let piece = Square::new(row, col).and_then(|sq| pos.piece_at(sq));
            out.push(char_of_piece(piece));
        }
        out.push('\n');
    }
    out
}

/// The board of `pos` as one line of 64 characters (for [`playdata`]).
#[must_use]
pub fn board_line(pos: &Position) -> String {
    format_board(pos).replace('\n', "")
}

/// The position of a 64-character board line with `side` to move; `None` if malformed.
#[must_use]
pub fn position_of_line(line: &str, side: Color) -> Option<Position> {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() != 64 {
        return None;
    }
    let mut red = Bitboard::EMPTY;
    let mut black = Bitboard::EMPTY;
    let mut kings = Bitboard::EMPTY;
    for (i, &c) in chars.iter().enumerate() {
        let sq = Square::from_index(i as u8)?;
        if let Some(piece) = piece_of_char(c)? {
            match piece.color {
                Color::Red => red |= sq.bit(),
                Color::Black => black |= sq.bit(),
            }
            if piece.kind == Kind::King {
                kings |= sq.bit();
            }
        }
    }
    Position::new(red, black, kings, side).ok()
}

/// The text of an `input.txt`: mode, colour to play (the side to move of `pos`), the seconds
/// left and the board. The time is written with up to three decimals and never as zero.
#[must_use]
pub fn format_input(mode: Mode, seconds: f64, pos: &Position) -> String {
    format!(
        "{}\n{}\n{}\n{}",
        mode.keyword(),
        colour_keyword(pos.side_to_move()),
        format_seconds(seconds),
        format_board(pos)
    )
}

/// Seconds as `300`, `299.93` or `0.001`: at most three decimals, trailing zeros dropped, and at
/// least 0.001 so the number stays strictly positive.
#[must_use]
pub fn format_seconds(seconds: f64) -> String {
    let s = if seconds.is_finite() {
        seconds.max(0.001)
    } else {
        0.001
    };
    let text = format!("{s:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    text.to_owned()
}

/// The protocol's name of a cell: column letter and row number from the bottom (`a8` is the
/// top-left).
#[must_use]
pub fn cell_name(sq: Square) -> String {
    format!("{}{}", char::from(b'a' + sq.col()), 8 - sq.row())
}

/// The cell named `text` (`a1` to `h8`), if it is one.
#[must_use]
pub fn parse_cell(text: &str) -> Option<Square> {
    let &[c, r] = text.as_bytes() else {
        return None;
    };
    if !(b'a'..=b'h').contains(&c) || !(b'1'..=b'8').contains(&r) {
        return None;
    }
    Square::new(8 - (r - b'0'), c - b'a')
}

/// The cells a move of `pos` visits: its start, then each landing cell. For a capture taking
/// the same pieces along two routes, the first found is given.
#[must_use]
pub fn move_cells(pos: &Position, mv: Move) -> Vec<Square> {
    crate::formats::notation::move_path(pos, mv)
}

/// The `output.txt` text of move `mv` in `pos`: `E FROM TO`, or one `J FROM TO` line per jump;
/// every line ends with LF.
#[must_use]
pub fn format_move(pos: &Position, mv: Move) -> String {
    let cells = move_cells(pos, mv);
    let tag = if mv.is_capture() { 'J' } else { 'E' };
    cells
        .windows(2)
        .map(|w| format!("{tag} {} {}\n", cell_name(w[0]), cell_name(w[1])))
        .collect()
}

/// Why an `output.txt` is not a legal move.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum OutputError {
    /// The file holds no move.
    #[error("no move: the output is empty")]
    Empty,
    /// A line is not `E FROM TO` or `J FROM TO` with cells `a1`-`h8`.
    #[error("line {line}: not `E FROM TO` or `J FROM TO`: `{text}`")]
    Garbage {
        /// The line, from 1.
        line: usize,
        /// The line's text (shortened).
        text: String,
    },
    /// The lines are well formed but do not make one move: a step with more lines, steps and
    /// jumps mixed, or a jump not starting where the last one landed.
    #[error("line {line}: {reason}")]
    Malformed {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The move is not legal in the position.
    #[error("illegal move `{text}`: {reason}")]
    Illegal {
        /// The move as written, lines joined by `, `.
        text: String,
        /// Why.
        reason: String,
    },
    /// Legal jumps that stop while the same piece can still jump.
    #[error("incomplete jump sequence `{text}`: the piece on {at} must jump again")]
    Incomplete {
        /// The move as written, lines joined by `, `.
        text: String,
        /// Where the piece stopped.
        at: String,
    },
}

/// Longest piece of a bad line quoted in an error.
const QUOTE_CHARS: usize = 60;

/// Reads an `output.txt` as a move of `pos` and checks it against the legal moves: well-formed
/// lines, one step or one chain of jumps, each jump over an enemy piece onto a free cell
/// (forwards only for a man), and the whole a complete legal move (mandatory capture, no
/// stopping while the piece can jump on, crowning ending the move).
pub fn parse_output(text: &str, pos: &Position) -> Result<Move, OutputError> {
    let mut hops: Vec<(char, Square, Square)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let garbage = || OutputError::Garbage {
            line: i + 1,
            text: line.chars().take(QUOTE_CHARS).collect(),
        };
        let parts: Vec<&str> = line.split_whitespace().collect();
        let &[tag, from, to] = parts.as_slice() else {
            return Err(garbage());
        };
        let tag = match tag {
            "E" => 'E',
            "J" => 'J',
            _ => return Err(garbage()),
        };
        let (Some(from), Some(to)) = (parse_cell(from), parse_cell(to)) else {
            return Err(garbage());
        };
        if let Some(&(last_tag, _, last_to)) = hops.last() {
            let malformed = |reason: &str| OutputError::Malformed {
                line: i + 1,
                reason: reason.to_owned(),
            };
            if last_tag == 'E' || tag == 'E' {
                return Err(malformed("a step (E) must be the only line of the move"));
            }
            if from != last_to {
                return Err(malformed(
                    "a jump must start where the previous jump landed",
                ));
            }
        }
        hops.push((tag, from, to));
    }
    let written = hops
        .iter()
        .map(|(t, f, to)| format!("{t} {} {}", cell_name(*f), cell_name(*to)))
        .collect::<Vec<_>>()
        .join(", ");
    let Some(&(tag, start, _)) = hops.first() else {
        return Err(OutputError::Empty);
    };
    let illegal = |reason: String| OutputError::Illegal {
        text: written.clone(),
        reason,
    };
    let legal = movegen::legal_moves(pos);
    let us = pos.side_to_move();
    match pos.piece_at(start) {
        Some(p) if p.color == us => {}
        Some(_) => {
            return Err(illegal(format!(
                "{} holds an enemy piece",
                cell_name(start)
            )))
        }
        None => return Err(illegal(format!("{} is empty", cell_name(start)))),
    }
    if tag == 'E' {
        let to = hops[0].2;
        let mv = Move::new(start, to, Bitboard::EMPTY);
        if legal.contains(&mv) {
            return Ok(mv);
        }
        let reason = if legal.iter().any(|m| m.is_capture()) {
            "a capture is available, and capturing is mandatory".to_owned()
        } else {
            format!(
                "the piece on {} cannot step to {}",
                cell_name(start),
                cell_name(to)
            )
        };
        return Err(illegal(reason));
    }
    let king = pos.kings().contains(start);
    let mut captured = Bitboard::EMPTY;
    let mut at = start;
    for &(_, from, to) in &hops {
        let (dr, dc) = (
            i32::from(to.row()) - i32::from(from.row()),
            i32::from(to.col()) - i32::from(from.col()),
        );
        if dr.abs() != 2 || dc.abs() != 2 {
            return Err(illegal(format!(
                "{} to {} is not a jump (two cells diagonally)",
                cell_name(from),
                cell_name(to)
            )));
        }
        let forward = if us == Color::Red { -2 } else { 2 };
        if !king && dr != forward {
            return Err(illegal(format!(
                "a man cannot jump backwards ({} to {})",
                cell_name(from),
                cell_name(to)
            )));
        }
        let over = Square::new(
            (i32::from(from.row()) + dr / 2) as u8,
            (i32::from(from.col()) + dc / 2) as u8,
        );
        let Some(over) = over else {
            return Err(illegal("jump off the board".to_owned()));
        };
        let enemy = pos.pieces(us.opponent()) & !captured;
        if !enemy.contains(over) {
            return Err(illegal(format!(
                "no enemy piece to take on {} (jumping {} to {})",
                cell_name(over),
                cell_name(from),
                cell_name(to)
            )));
        }
        let free = (!pos.occupied() | start.bit()).contains(to);
        if !free {
            return Err(illegal(format!("{} is not empty", cell_name(to))));
        }
        captured |= over.bit();
        at = to;
    }
    let mv = Move::new(start, at, captured);
    if legal.contains(&mv) {
        return Ok(mv);
    }
    let continues = legal.iter().any(|m| {
        m.from() == start && m.captured() != captured && (m.captured() & captured) == captured
    });
    let crowned_on_the_way = !king && Position::crowning_row(us).contains(at);
    if continues && !crowned_on_the_way {
        return Err(OutputError::Incomplete {
            text: written,
            at: cell_name(at),
        });
    }
    Err(illegal(
        "the jumps do not make a legal capture (a man crowned during a capture stops there)"
            .to_owned(),
    ))
}

#[cfg(test)]
mod tests;
