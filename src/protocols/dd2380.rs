//! The KTH DD2380 checkers protocol, without sockets: the cell numbering of each player, and the
//! lines the client and the server exchange, parsed into types and written back.
//!
//! The protocol is line based (LF; a CR before it is accepted). The client opens with a mode
//! line, the server answers `time first`, the client `INIT`; then every server line is
//! `deadline move` and every client line a move:
//!
//! ```text
//! client MODE STANDALONE        (or MODE KEY key, or MODE GAME key as the course's skeletons say)
//! server 123456789 1            init deadline (µs since the Unix epoch), 1 = this client is first
//! client INIT
//! server 234567890 -2           begin: the first player moves now
//! client 0 9 13                 a step from cell 9 to cell 13
//! server 345678901 0 22 17      the opponent's step, in this client's cells
//! client 1 13 22                a capture of 1 jump through cells 13 and 22
//! server 901234567 -1 1         the end: 1 first player won, 2 second player won, 3 draw
//! ```
//!
//! Cells 0-31 are relative to the player the line is for: 0 is that player's lower-right dark
//! cell, each row numbered right to left, rows from that player's side outward. The first player
//! is red here (at the bottom, moving first), so red's cells run from the bottom-right corner and
//! black's cell `c` is red's `31 - c`.
//!
//! Tokens may be separated by any run of spaces or tabs; a line that is empty or has an extra,
//! missing or non-numeric token is a [`LineError`]. A move that parses is checked against the
//! legal moves by [`decode_move`].

use std::fmt;

use thiserror::Error;

use crate::formats::notation::{move_from_path, move_path, move_text};
use crate::rules::movegen::legal_moves;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::square::Square;

/// Number of cells a player can name.
pub const CELLS: u8 = 32;

/// Longest key accepted in `MODE KEY key` (bytes).
pub const MAX_KEY_LEN: usize = 128;

/// Most jumps one capture can make on an 8x8 board (12 enemy pieces at most); longer is garbage.
pub const MAX_JUMPS: usize = 12;

/// The square of `cell` (0-31) as the player of colour `viewer` numbers it, or `None` for a
/// number out of range. The first player is red.
#[must_use]
pub fn cell_square(cell: u8, viewer: Color) -> Option<Square> {
    if cell >= CELLS {
        return None;
    }
    let red_cell = match viewer {
        Color::Red => cell,
        Color::Black => CELLS - 1 - cell,
    };
    let row = 7 - red_cell / 4;
    // A row's rightmost dark cell is column 7 on even rows, 6 on odd ones.
    let rightmost = if row % 2 == 0 { 7 } else { 6 };
    Square::new(row, rightmost - 2 * (red_cell % 4))
}

/// The cell number (0-31) of `sq` for the player of colour `viewer`; `None` for a light cell.
#[must_use]
pub fn square_cell(sq: Square, viewer: Color) -> Option<u8> {
    if !sq.is_dark() {
        return None;
    }
    let rightmost = if sq.row() % 2 == 0 { 7 } else { 6 };
    let red_cell = (7 - sq.row()) * 4 + (rightmost - sq.col()) / 2;
    Some(match viewer {
        Color::Red => red_cell,
        Color::Black => CELLS - 1 - red_cell,
    })
}

/// A move as the protocol writes it: the cells the piece passes through, in one player's numbers.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum CellMove {
    /// `0 a b`: a step from `a` to `b`.
    Step {
        /// Start cell.
        from: u8,
        /// End cell.
        to: u8,
    },
    /// `n c0 c1 ... cn`: a capture of `n` jumps through those `n + 1` cells.
    Jump(Vec<u8>),
}

impl fmt::Display for CellMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellMove::Step { from, to } => write!(f, "0 {from} {to}"),
            CellMove::Jump(cells) => {
                write!(f, "{}", cells.len().saturating_sub(1))?;
                for c in cells {
                    write!(f, " {c}")?;
                }
                Ok(())
            }
        }
    }
}

/// How a game ended, as the server says it in `-1 code`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndCode {
    /// `1`: the player who moved first won.
    FirstWon,
    /// `2`: the player who moved second won.
    SecondWon,
    /// `3`: a draw.
    Draw,
}

/// A game's result relative to one player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// This player won.
    Won,
    /// This player lost.
    Lost,
    /// Nobody won.
    Draw,
}

impl EndCode {
    /// The number the protocol sends.
    #[must_use]
    pub const fn code(self) -> u8 {
        match self {
            EndCode::FirstWon => 1,
            EndCode::SecondWon => 2,
            EndCode::Draw => 3,
        }
    }

    /// The end code for a number, if it is one.
    #[must_use]
    pub const fn from_code(code: i64) -> Option<EndCode> {
        match code {
            1 => Some(EndCode::FirstWon),
            2 => Some(EndCode::SecondWon),
            3 => Some(EndCode::Draw),
            _ => None,
        }
    }

    /// The code for a win of `winner` (the first player is red), or a draw for `None`.
    #[must_use]
    pub const fn for_winner(winner: Option<Color>) -> EndCode {
        match winner {
            Some(Color::Red) => EndCode::FirstWon,
            Some(Color::Black) => EndCode::SecondWon,
            None => EndCode::Draw,
        }
    }

    /// The result for the player who moved first (`first`) or second.
    #[must_use]
    pub const fn verdict(self, first: bool) -> Verdict {
        match (self, first) {
            (EndCode::Draw, _) => Verdict::Draw,
            (EndCode::FirstWon, true) | (EndCode::SecondWon, false) => Verdict::Won,
            _ => Verdict::Lost,
        }
    }
}

/// What a server line after the initialisation carries besides its deadline.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Event {
    /// `-2`: the game begins and this client, the first player, moves now.
    Begin,
    /// `-1 code`: the game is over; the server closes the connection.
    End(EndCode),
    /// The opponent's move, in this client's cells; this client moves now.
    Move(CellMove),
}

/// The server's first line: `time first`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ServerInit {
    /// Deadline for `INIT`, in microseconds since the Unix epoch.
    pub deadline_us: u64,
    /// Whether this client moves first.
    pub first: bool,
}

/// A server line during the game: `deadline move`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Turn {
    /// Deadline for this client's answer, in microseconds since the Unix epoch.
    pub deadline_us: u64,
    /// What happened.
    pub event: Event,
}

/// How a client asks to be matched.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Mode {
    /// `MODE STANDALONE`: play the server's built-in player.
    Standalone,
    /// `MODE KEY key`: play the other client that gives the same key.
    Key(String),
    /// `MODE GAME key`: the same as `MODE KEY`, as the course's skeleton clients write it.
    Game(String),
}

impl Mode {
    /// The pairing key, if any.
    #[must_use]
    pub fn key(&self) -> Option<&str> {
        match self {
            Mode::Standalone => None,
            Mode::Key(k) | Mode::Game(k) => Some(k),
        }
    }
}

impl fmt::Display for ServerInit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.deadline_us, u8::from(self.first))
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.event {
            Event::Begin => write!(f, "{} -2", self.deadline_us),
            Event::End(code) => write!(f, "{} -1 {}", self.deadline_us, code.code()),
            Event::Move(mv) => write!(f, "{} {mv}", self.deadline_us),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mode::Standalone => f.write_str("MODE STANDALONE"),
            Mode::Key(k) => write!(f, "MODE KEY {k}"),
            Mode::Game(k) => write!(f, "MODE GAME {k}"),
        }
    }
}

/// The client's answer to the initialisation.
pub const INIT: &str = "INIT";

/// What is wrong with a line.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum LineErrorKind {
    /// Nothing but blanks.
    #[error("the line is empty")]
    Empty,
    /// A token that should be a number is not one.
    #[error("`{0}` is not a number")]
    NotANumber(String),
    /// A cell number outside 0-31.
    #[error("cell {0} is not between 0 and 31")]
    BadCell(i64),
    /// The line has too few or too many tokens.
    #[error("expected {expected}, found {found} token(s)")]
    TokenCount {
        /// What the line should hold.
        expected: &'static str,
        /// How many tokens it holds.
        found: usize,
    },
    /// A jump count that does not match the cells given, or is out of range.
    #[error("a capture of {declared} jump(s) must list {} cells, found {cells}", declared + 1)]
    JumpCount {
        /// The number of jumps the line declares.
        declared: i64,
        /// The cells that follow it.
        cells: usize,
    },
    /// A move code that is none of `-2`, `-1`, `0` or a jump count.
    #[error("`{0}` is not a move code (-2, -1, 0, or the number of jumps 1-12)")]
    BadMoveCode(String),
    /// An end code other than 1, 2 or 3.
    #[error("`{0}` is not an end code (1, 2 or 3)")]
    BadEndCode(String),
    /// Something other than `MODE STANDALONE`, `MODE KEY key` or `MODE GAME key`.
    #[error("expected `MODE STANDALONE`, `MODE KEY key` or `MODE GAME key`")]
    BadMode,
    /// A key too long to be one.
    #[error("the key is longer than {MAX_KEY_LEN} bytes")]
    KeyTooLong,
    /// Something other than `INIT`.
    #[error("expected `INIT`")]
    NotInit,
    /// `-2` or `-1` where the client must send a move.
    #[error("a client sends moves only, not `{0}`")]
    NotAMove(String),
}

/// A line that is not what the protocol expects here, with the line itself.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("`{line}`: {kind}")]
pub struct LineError {
    /// The line received (without its line end), cut to 80 characters.
    pub line: String,
    /// What is wrong.
    pub kind: LineErrorKind,
}

/// Longest part of a bad line quoted in an error.
const QUOTE_LEN: usize = 80;

impl LineError {
    fn new(line: &str, kind: LineErrorKind) -> LineError {
        let mut quoted: String = line.chars().take(QUOTE_LEN).collect();
        if line.chars().count() > QUOTE_LEN {
            quoted.push_str("...");
        }
        LineError { line: quoted, kind }
    }
}

/// The tokens of a line, without its line end.
fn tokens(line: &str) -> Result<Vec<&str>, LineError> {
    let trimmed = line.strip_suffix('\n').unwrap_or(line);
    let trimmed = trimmed.strip_suffix('\r').unwrap_or(trimmed);
    let toks: Vec<&str> = trimmed
        .split([' ', '\t'])
        .filter(|t| !t.is_empty())
        .collect();
    if toks.is_empty() {
        return Err(LineError::new(trimmed, LineErrorKind::Empty));
    }
    Ok(toks)
}

/// A line without its line end, for error messages.
fn bare(line: &str) -> &str {
    line.trim_end_matches(['\n', '\r'])
}

/// An integer token (optionally signed).
fn number(line: &str, tok: &str) -> Result<i64, LineError> {
    let digits = tok.strip_prefix('-').unwrap_or(tok);
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LineError::new(
            bare(line),
            LineErrorKind::NotANumber(tok.to_owned()),
        ));
    }
    tok.parse()
        .map_err(|_| LineError::new(bare(line), LineErrorKind::NotANumber(tok.to_owned())))
}

/// A non-negative time in microseconds.
fn micros(line: &str, tok: &str) -> Result<u64, LineError> {
    let n = number(line, tok)?;
    u64::try_from(n)
        .map_err(|_| LineError::new(bare(line), LineErrorKind::NotANumber(tok.to_owned())))
}

/// A cell number 0-31.
fn cell(line: &str, tok: &str) -> Result<u8, LineError> {
    let n = number(line, tok)?;
    u8::try_from(n)
        .ok()
        .filter(|&c| c < CELLS)
        .ok_or_else(|| LineError::new(bare(line), LineErrorKind::BadCell(n)))
}

/// Reads a move from its tokens (`0 a b` or `n c0 ... cn`), the code first.
fn parse_move_tokens(line: &str, toks: &[&str]) -> Result<CellMove, LineError> {
    let code_tok = toks[0];
    let code = number(line, code_tok)?;
    let rest = &toks[1..];
    match code {
        0 => {
            if rest.len() != 2 {
                return Err(LineError::new(
                    bare(line),
                    LineErrorKind::TokenCount {
                        expected: "`0 from to` (3 tokens)",
                        found: toks.len(),
                    },
                ));
            }
            Ok(CellMove::Step {
                from: cell(line, rest[0])?,
                to: cell(line, rest[1])?,
            })
        }
        n if (1..=MAX_JUMPS as i64).contains(&n) => {
            if rest.len() as i64 != n + 1 {
                return Err(LineError::new(
                    bare(line),
                    LineErrorKind::JumpCount {
                        declared: n,
                        cells: rest.len(),
                    },
                ));
            }
            let cells = rest
                .iter()
                .map(|t| cell(line, t))
                .collect::<Result<Vec<u8>, LineError>>()?;
            Ok(CellMove::Jump(cells))
        }
        -1 | -2 => Err(LineError::new(
            bare(line),
            LineErrorKind::NotAMove(code_tok.to_owned()),
        )),
        _ => Err(LineError::new(
            bare(line),
            LineErrorKind::BadMoveCode(code_tok.to_owned()),
        )),
    }
}

/// Reads a client's move line: `0 a b` or `n c0 ... cn`.
pub fn parse_client_move(line: &str) -> Result<CellMove, LineError> {
    let toks = tokens(line)?;
    parse_move_tokens(line, &toks)
}

/// Reads a client's mode line: `MODE STANDALONE`, `MODE KEY key` or `MODE GAME key`.
pub fn parse_mode(line: &str) -> Result<Mode, LineError> {
    let toks = tokens(line)?;
    let bad = || LineError::new(bare(line), LineErrorKind::BadMode);
    let mode = match toks.as_slice() {
        ["MODE", "STANDALONE"] => Mode::Standalone,
        ["MODE", "KEY", key] => Mode::Key((*key).to_owned()),
        ["MODE", "GAME", key] => Mode::Game((*key).to_owned()),
        _ => return Err(bad()),
    };
    if mode.key().is_some_and(|k| k.len() > MAX_KEY_LEN) {
        return Err(LineError::new(bare(line), LineErrorKind::KeyTooLong));
    }
    Ok(mode)
}

/// Checks a client's answer to the initialisation: `INIT`.
pub fn parse_init_ack(line: &str) -> Result<(), LineError> {
    match tokens(line)?.as_slice() {
        ["INIT"] => Ok(()),
        _ => Err(LineError::new(bare(line), LineErrorKind::NotInit)),
    }
}

/// Reads the server's first line: `time first`.
pub fn parse_server_init(line: &str) -> Result<ServerInit, LineError> {
    let toks = tokens(line)?;
    let [time, first] = toks.as_slice() else {
        return Err(LineError::new(
            bare(line),
            LineErrorKind::TokenCount {
                expected: "`time first` (2 tokens)",
                found: toks.len(),
            },
        ));
    };
    Ok(ServerInit {
        deadline_us: micros(line, time)?,
        first: number(line, first)? != 0,
    })
}

/// Reads a server line during the game: `deadline -2`, `deadline -1 code`, `deadline 0 a b` or
/// `deadline n c0 ... cn`.
pub fn parse_turn(line: &str) -> Result<Turn, LineError> {
    let toks = tokens(line)?;
    if toks.len() < 2 {
        return Err(LineError::new(
            bare(line),
            LineErrorKind::TokenCount {
                expected: "`deadline move` (at least 2 tokens)",
                found: toks.len(),
            },
        ));
    }
    let deadline_us = micros(line, toks[0])?;
    let event = match toks[1] {
        "-2" if toks.len() == 2 => Event::Begin,
        "-2" => {
            return Err(LineError::new(
                bare(line),
                LineErrorKind::TokenCount {
                    expected: "`deadline -2` (2 tokens)",
                    found: toks.len(),
                },
            ))
        }
        "-1" => {
            let [_, _, code] = toks.as_slice() else {
                return Err(LineError::new(
                    bare(line),
                    LineErrorKind::TokenCount {
                        expected: "`deadline -1 code` (3 tokens)",
                        found: toks.len(),
                    },
                ));
            };
            let end = number(line, code)
                .ok()
                .and_then(EndCode::from_code)
                .ok_or_else(|| {
                    LineError::new(bare(line), LineErrorKind::BadEndCode((*code).to_owned()))
                })?;
            Event::End(end)
        }
        _ => Event::Move(parse_move_tokens(line, &toks[1..])?),
    };
    Ok(Turn { deadline_us, event })
}

/// Why a move that parsed cannot be played.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum MoveError {
    /// No legal move of the position goes that way.
    #[error("`{wire}` ({path}) is not a legal move for {side}; legal: {legal}")]
    Illegal {
        /// The move as received.
        wire: String,
        /// Its cells as standard squares (`22-18`), for people reading the board.
        path: String,
        /// The side to move.
        side: &'static str,
        /// The legal moves in this player's cells.
        legal: String,
    },
    /// The move touches a light cell, which has no cell number (only in non-standard setups).
    #[error("the move passes a light cell, which the protocol cannot name")]
    LightCell,
}

/// The move `mv` of `pos` in the cells of the player of colour `viewer`, every landing cell of a
/// capture listed.
pub fn encode_move(pos: &Position, mv: Move, viewer: Color) -> Result<CellMove, MoveError> {
    let cells = move_path(pos, mv)
        .into_iter()
        .map(|sq| square_cell(sq, viewer))
        .collect::<Option<Vec<u8>>>()
        .ok_or(MoveError::LightCell)?;
    if mv.is_capture() {
        Ok(CellMove::Jump(cells))
    } else {
        match cells.as_slice() {
            [from, to] => Ok(CellMove::Step {
                from: *from,
                to: *to,
            }),
            _ => Err(MoveError::LightCell),
        }
    }
}

/// The legal move of `pos` that `wire` names in the cells of the player of colour `viewer`.
///
/// A step must be a legal step (so not when a capture is obligatory); a capture must list every
/// landing cell, each hop jumping an enemy piece onto a free cell, the whole a complete legal
/// capture taking exactly as many pieces as it declares jumps.
pub fn decode_move(pos: &Position, wire: &CellMove, viewer: Color) -> Result<Move, MoveError> {
    let legal = legal_moves(pos);
    let squares: Vec<Square> = match wire {
        CellMove::Step { from, to } => vec![*from, *to],
        CellMove::Jump(cells) => cells.clone(),
    }
    .into_iter()
    .filter_map(|c| cell_square(c, viewer))
    .collect();
    let illegal = || MoveError::Illegal {
        wire: wire.to_string(),
        path: squares
            .iter()
            .map(|&sq| {
                crate::formats::notation::standard_number(sq).map_or("?".into(), |n| n.to_string())
            })
            .collect::<Vec<_>>()
            .join(if matches!(wire, CellMove::Jump(_)) {
                "x"
            } else {
                "-"
            }),
        side: pos.side_to_move().name(),
        legal: if legal.is_empty() {
            "none".to_owned()
        } else {
            legal
                .iter()
                .map(|&m| {
                    encode_move(pos, m, viewer)
                        .map_or_else(|_| move_text(pos, m), |c| format!("`{c}`"))
                })
                .collect::<Vec<_>>()
                .join(", ")
        },
    };
    let (Some(&from), Some(&to)) = (squares.first(), squares.last()) else {
        return Err(illegal());
    };
    let found = match wire {
        CellMove::Step { .. } => legal
            .iter()
            .copied()
            .find(|m| !m.is_capture() && m.from() == from && m.to() == to),
        CellMove::Jump(cells) if cells.len() == 2 => legal
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && m.captured().count() == 1),
        CellMove::Jump(cells) => move_from_path(pos, &squares)
            .ok()
            .filter(|m| m.captured().count() as usize == cells.len() - 1),
    };
    found.ok_or_else(illegal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::fen;
    use crate::formats::notation::square_of_number;

    fn sq(n: u8) -> Square {
        square_of_number(n).unwrap()
    }

    #[test]
    fn cells_follow_the_assignment_numbering() {
        // Red (the first player) at the bottom: 0 is its lower-right dark cell, right to left.
        assert_eq!(cell_square(0, Color::Red), Square::new(7, 6));
        assert_eq!(cell_square(3, Color::Red), Square::new(7, 0));
        assert_eq!(cell_square(4, Color::Red), Square::new(6, 7));
        assert_eq!(cell_square(7, Color::Red), Square::new(6, 1));
        assert_eq!(cell_square(31, Color::Red), Square::new(0, 1));
        // Black sees the board turned round: its 0 is red's 31, top-left seen from above.
        assert_eq!(cell_square(0, Color::Black), Square::new(0, 1));
        assert_eq!(cell_square(32, Color::Red), None);
        for c in 0..CELLS {
            for viewer in [Color::Red, Color::Black] {
                let s = cell_square(c, viewer).unwrap();
                assert!(s.is_dark());
                assert_eq!(square_cell(s, viewer), Some(c));
                assert_eq!(cell_square(CELLS - 1 - c, viewer.opponent()), Some(s));
            }
        }
        assert_eq!(square_cell(Square::new(0, 0).unwrap(), Color::Red), None);
        // Each player's first three rows (cells 0-11) hold its men at the start.
        let start = Position::start();
        for c in 0..12 {
            assert!(start
                .pieces(Color::Red)
                .contains(cell_square(c, Color::Red).unwrap()));
            assert!(start
                .pieces(Color::Black)
                .contains(cell_square(c, Color::Black).unwrap()));
        }
    }

    #[test]
    fn the_assignment_example_replays_exactly() {
        // The assignment's example: the client moves first (red) and sees every move in its cells.
        let script = [
            ("client", "MODE STANDALONE"),
            ("server", "123456789 1"),
            ("client", "INIT"),
            ("server", "234567890 -2"),
            ("client", "0 9 13"),
            ("server", "345678901 0 22 17"),
            ("client", "1 13 22"),
            ("server", "456789012 1 25 18"),
            ("client", "0 8 12"),
        ];
        assert_eq!(parse_mode(script[0].1), Ok(Mode::Standalone));
        let init = parse_server_init(script[1].1).unwrap();
        assert_eq!(
            init,
            ServerInit {
                deadline_us: 123_456_789,
                first: true
            }
        );
        assert_eq!(init.to_string(), script[1].1);
        assert_eq!(parse_init_ack(script[2].1), Ok(()));
        let begin = parse_turn(script[3].1).unwrap();
        assert_eq!(begin.event, Event::Begin);
        assert_eq!(begin.to_string(), script[3].1);

        let mut pos = Position::start();
        let mut played = Vec::new();
        for (who, line) in &script[4..] {
            let wire = if *who == "client" {
                parse_client_move(line).unwrap()
            } else {
                let turn = parse_turn(line).unwrap();
                assert_eq!(turn.to_string(), *line);
                let Event::Move(m) = turn.event else {
                    panic!("{line}: not a move")
                };
                m
            };
            // Every move is named in the client's (red's) cells.
            let mv = decode_move(&pos, &wire, Color::Red).unwrap();
            assert_eq!(encode_move(&pos, mv, Color::Red).unwrap(), wire);
            // The server sends the client's moves to black in black's cells: 31 - c.
            let for_black = encode_move(&pos, mv, Color::Black).unwrap();
            assert_eq!(decode_move(&pos, &for_black, Color::Black), Ok(mv));
            played.push(move_text(&pos, mv));
            pos = pos.play(mv);
        }
        // In standard notation (squares 1-32 from the top-left).
        assert_eq!(played, ["23-19", "10-15", "19x10", "7x14", "24-20"]);
        let end = parse_turn("901234567 -1 1").unwrap();
        assert_eq!(end.event, Event::End(EndCode::FirstWon));
        assert_eq!(end.to_string(), "901234567 -1 1");
    }

    #[test]
    fn black_sees_the_example_in_its_own_cells() {
        // The same opening from the second player's side: 9 -> 13 is red's; black sees 22 -> 18.
        let pos = Position::start();
        let red = decode_move(&pos, &parse_client_move("0 9 13").unwrap(), Color::Red).unwrap();
        assert_eq!(
            encode_move(&pos, red, Color::Black).unwrap().to_string(),
            "0 22 18"
        );
        let pos = pos.play(red);
        // Black's answer 0 9 14 in its cells is red's 0 22 17, as the example shows.
        let black = decode_move(&pos, &parse_client_move("0 9 14").unwrap(), Color::Black).unwrap();
        assert_eq!(
            encode_move(&pos, black, Color::Red).unwrap().to_string(),
            "0 22 17"
        );
    }

    #[test]
    fn mode_lines() {
        assert_eq!(parse_mode("MODE STANDALONE\r\n"), Ok(Mode::Standalone));
        assert_eq!(parse_mode("MODE KEY abc"), Ok(Mode::Key("abc".into())));
        assert_eq!(parse_mode("MODE  GAME\tk1\n"), Ok(Mode::Game("k1".into())));
        assert_eq!(Mode::Game("k1".into()).key(), Some("k1"));
        for bad in [
            "MODE",
            "MODE KEY",
            "mode standalone",
            "MODE STANDALONE x",
            "MODE KEY a b",
            "HELLO",
        ] {
            assert_eq!(
                parse_mode(bad).unwrap_err().kind,
                LineErrorKind::BadMode,
                "{bad}"
            );
        }
        assert_eq!(parse_mode("").unwrap_err().kind, LineErrorKind::Empty);
        let long = format!("MODE KEY {}", "k".repeat(MAX_KEY_LEN + 1));
        assert_eq!(
            parse_mode(&long).unwrap_err().kind,
            LineErrorKind::KeyTooLong
        );
        for m in [
            Mode::Standalone,
            Mode::Key("x".into()),
            Mode::Game("y".into()),
        ] {
            assert_eq!(parse_mode(&m.to_string()), Ok(m));
        }
        assert_eq!(parse_init_ack("INIT\r\n"), Ok(()));
        assert_eq!(
            parse_init_ack("INIT 1").unwrap_err().kind,
            LineErrorKind::NotInit
        );
    }

    #[test]
    fn server_lines() {
        assert_eq!(
            parse_server_init("5 0"),
            Ok(ServerInit {
                deadline_us: 5,
                first: false
            })
        );
        assert_eq!(
            parse_turn("7 -1 3").unwrap().event,
            Event::End(EndCode::Draw)
        );
        assert_eq!(
            parse_turn("7 2 1 10 19").unwrap().event,
            Event::Move(CellMove::Jump(vec![1, 10, 19]))
        );
        let err = |l: &str| parse_turn(l).unwrap_err().kind;
        assert_eq!(err(""), LineErrorKind::Empty);
        assert!(matches!(err("7"), LineErrorKind::TokenCount { .. }));
        assert!(matches!(err("7 -2 1"), LineErrorKind::TokenCount { .. }));
        assert!(matches!(err("7 -1"), LineErrorKind::TokenCount { .. }));
        assert_eq!(err("7 -1 4"), LineErrorKind::BadEndCode("4".into()));
        assert_eq!(err("x -2"), LineErrorKind::NotANumber("x".into()));
        assert_eq!(err("-7 -2"), LineErrorKind::NotANumber("-7".into()));
        assert_eq!(err("7 0 1 32"), LineErrorKind::BadCell(32));
        assert_eq!(err("7 -3 1"), LineErrorKind::BadMoveCode("-3".into()));
        assert_eq!(err("7 13 1"), LineErrorKind::BadMoveCode("13".into()));
        assert!(matches!(
            err("7 2 1 10"),
            LineErrorKind::JumpCount {
                declared: 2,
                cells: 2
            }
        ));
        assert!(matches!(
            parse_server_init("1 2 3").unwrap_err().kind,
            LineErrorKind::TokenCount { .. }
        ));
        assert!(parse_server_init("99999999999999999999 1").is_err());
    }

    #[test]
    fn client_move_lines() {
        assert_eq!(
            parse_client_move("0 9 13\r\n"),
            Ok(CellMove::Step { from: 9, to: 13 })
        );
        let err = |l: &str| parse_client_move(l).unwrap_err().kind;
        assert_eq!(err("-2"), LineErrorKind::NotAMove("-2".into()));
        assert_eq!(err("-1 1"), LineErrorKind::NotAMove("-1".into()));
        assert!(matches!(err("0 9"), LineErrorKind::TokenCount { .. }));
        assert!(matches!(err("0 9 13 17"), LineErrorKind::TokenCount { .. }));
        assert_eq!(err("0 9 x"), LineErrorKind::NotANumber("x".into()));
        assert_eq!(err("0 9 -1"), LineErrorKind::BadCell(-1));
        assert_eq!(
            err("\u{0}\u{1}garbage"),
            LineErrorKind::NotANumber("\u{0}\u{1}garbage".into())
        );
        assert_eq!(err("   "), LineErrorKind::Empty);
        // The error quotes the line, cut short.
        let e = parse_client_move(&"9".repeat(500)).unwrap_err();
        assert!(e.line.len() < 100 && e.to_string().starts_with('`'));
        for text in ["0 9 13", "1 13 22", "3 1 10 19 28"] {
            assert_eq!(parse_client_move(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn moves_are_checked_against_the_legal_moves() {
        let pos = Position::start();
        let step = |a, b| CellMove::Step { from: a, to: b };
        // From the start red has 7 steps; each names one move and comes back the same.
        let legal = legal_moves(&pos);
        assert_eq!(legal.len(), 7);
        for &mv in &legal {
            let wire = encode_move(&pos, mv, Color::Red).unwrap();
            assert_eq!(decode_move(&pos, &wire, Color::Red), Ok(mv));
        }
        // Backwards, sideways, onto an occupied cell, from an empty or enemy cell: illegal.
        for (a, b) in [(9, 5), (9, 10), (5, 9), (13, 17), (20, 16), (9, 18)] {
            let e = decode_move(&pos, &step(a, b), Color::Red).unwrap_err();
            assert!(matches!(e, MoveError::Illegal { .. }), "{a}-{b}");
        }
        // The cells are the viewer's: black's 9-13 is red's 22-18, a black man's step, so it is
        // not a move while red is to move.
        assert!(decode_move(&pos, &step(9, 13), Color::Black).is_err());
        let msg = decode_move(&pos, &step(9, 5), Color::Red)
            .unwrap_err()
            .to_string();
        assert!(msg.contains("`0 9 5`") && msg.contains("`0 9 13`"), "{msg}");
    }

    #[test]
    fn captures_must_be_whole_and_obligatory() {
        // Red man on 22 can jump black men on 18 and 11: 22x15x8, the only legal move.
        let pos = fen::parse("W:W22:B18,11,1").unwrap();
        let legal = legal_moves(&pos);
        assert_eq!(legal.len(), 1);
        let wire = encode_move(&pos, legal[0], Color::Red).unwrap();
        let cells: Vec<u8> = [22, 15, 8]
            .iter()
            .map(|&n| square_cell(sq(n), Color::Red).unwrap())
            .collect();
        assert_eq!(wire, CellMove::Jump(cells.clone()));
        assert_eq!(
            wire.to_string(),
            format!("2 {} {} {}", cells[0], cells[1], cells[2])
        );
        assert_eq!(decode_move(&pos, &wire, Color::Red), Ok(legal[0]));
        // Stopping after the first jump, the ends only, or a step: all illegal.
        for bad in [
            CellMove::Jump(cells[..2].to_vec()),
            CellMove::Jump(vec![cells[0], cells[2]]),
            CellMove::Step {
                from: cells[0],
                to: square_cell(sq(17), Color::Red).unwrap(),
            },
        ] {
            assert!(decode_move(&pos, &bad, Color::Red).is_err(), "{bad}");
        }
        // A capture from black's side, in black's cells.
        let pos = fen::parse("B:W18:B15,1").unwrap();
        let mv = legal_moves(&pos)[0];
        let wire = encode_move(&pos, mv, Color::Black).unwrap();
        assert_eq!(
            wire,
            CellMove::Jump(vec![
                square_cell(sq(15), Color::Black).unwrap(),
                square_cell(sq(22), Color::Black).unwrap()
            ])
        );
        assert_eq!(decode_move(&pos, &wire, Color::Black), Ok(mv));
    }

    #[test]
    fn end_codes_relative_to_each_player() {
        assert_eq!(EndCode::FirstWon.verdict(true), Verdict::Won);
        assert_eq!(EndCode::FirstWon.verdict(false), Verdict::Lost);
        assert_eq!(EndCode::SecondWon.verdict(false), Verdict::Won);
        assert_eq!(EndCode::SecondWon.verdict(true), Verdict::Lost);
        assert_eq!(EndCode::Draw.verdict(true), Verdict::Draw);
        assert_eq!(EndCode::for_winner(Some(Color::Red)), EndCode::FirstWon);
        assert_eq!(EndCode::for_winner(Some(Color::Black)), EndCode::SecondWon);
        assert_eq!(EndCode::for_winner(None), EndCode::Draw);
        for c in 1..=3 {
            assert_eq!(EndCode::from_code(c).map(EndCode::code), Some(c as u8));
        }
        assert_eq!(EndCode::from_code(0), None);
    }
}
