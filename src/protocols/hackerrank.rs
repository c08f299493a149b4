//! The HackerRank "Checkers" bot: one position on standard input, one move on standard output.
//!
//! Input: the player (`b` or `w`), the board size (`8`), then 8 rows of 8 cells where `_` is
//! empty and `b w B W` are pieces (capitals are kings). Black stands at the top and its men move
//! down (row index growing): that is this crate's [`Color::Black`]; white stands at the bottom and
//! moves up: this crate's [`Color::Red`]. Rows and columns count from 0 at the top-left, exactly
//! as [`Square`] does, so the protocol's `row col` is a square's own row and column.
//!
//! Output: the number of hops H, then H + 1 lines `row col`: the starting cell, then every
//! landing cell (a step is one hop).
//!
//! Rules: as in `docs/rules.md` except that a man crowned during a capture goes on jumping as a
//! king when it can ([`CrowningRule::JumpsOn`]), as the challenge's own capture sample does.
//!
//! Parsing never panics; an error names the line (from 1) and, for a cell, the column (from 1).
//! Where the format is silent: a leading byte-order mark, CRLF line ends, spaces around a line
//! and blank lines after the board are accepted; anything else after the board is refused.

use std::time::Duration;

use thiserror::Error;

use crate::play::{default_egdb, Clock, Engine, EngineOptions, Game, Thought};
use crate::rules::bitboard::Bitboard;
use crate::rules::draw::DrawRule;
use crate::rules::movegen::{self, CrowningRule};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::{Position, PositionError};
use crate::rules::square::Square;

/// The crowning rule of the HackerRank challenge.
pub const CROWNING: CrowningRule = CrowningRule::JumpsOn;

/// The only board size the challenge uses.
pub const BOARD_SIZE: usize = 8;

/// What is wrong with a HackerRank input.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum InputErrorKind {
    /// The input ends before this line.
    #[error("the input ends here; expected {expected}")]
    Missing {
        /// What the line should have held.
        expected: &'static str,
    },
    /// An empty line where something was expected.
    #[error("found an empty line; expected {expected}")]
    EmptyLine {
        /// What the line should have held.
        expected: &'static str,
    },
    /// The player line is not `b` or `w`.
    #[error("found {found:?}; expected the player, `b` or `w`")]
    Player {
        /// The line found (trimmed, shortened).
        found: String,
    },
    /// The size line is not `8`.
    #[error("found {found:?}; expected the board size 8")]
    Size {
        /// The line found (trimmed, shortened).
        found: String,
    },
    /// A board row of the wrong length.
    #[error("the row has {found} cells; expected 8")]
    RowLength {
        /// How many cells it has.
        found: usize,
    },
    /// A cell that is not one of `_ b w B W`.
    #[error("column {column}: found {found:?}; expected one of _ b w B W")]
    Cell {
        /// The column, from 1.
        column: usize,
        /// The character found.
        found: char,
    },
    /// Text after the eighth row.
    #[error("found {found:?} after the board; expected nothing more")]
    Trailing {
        /// The line found (trimmed, shortened).
        found: String,
    },
    /// The pieces do not make a position (cannot happen for text, kept for completeness).
    #[error("{0}")]
    Position(PositionError),
}

/// A HackerRank input that cannot be used, and the line (from 1) where that shows.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("line {line}: {kind}")]
pub struct InputError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong there.
    pub kind: InputErrorKind,
}

/// Why the bot has nothing to print.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum AnswerError {
    /// The player to move has no legal move: the game is lost.
    #[error("{} (the player to move) has no legal move", side_name(*.0))]
    NoLegalMove(Color),
    /// The chosen move failed the check against the move generator (a bug, never printed).
    #[error("internal error: the chosen move {0:?} is not legal under the HackerRank rules")]
    Unchecked(Move),
}

/// The protocol's name of a side: `b` for black, `w` for white (our red).
const fn side_name(color: Color) -> &'static str {
    match color {
        Color::Black => "b",
        Color::Red => "w",
    }
}

/// A line shortened for an error message.
fn shown(line: &str) -> String {
    line.chars().take(20).collect()
}

/// Reads a HackerRank input into the position to play, with the player as the side to move.
///
/// # Errors
/// An [`InputError`] naming the first line that is wrong.
pub fn parse_input(bytes: &[u8]) -> Result<Position, InputError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.split('\n').map(str::trim).collect();
    let err = |index: usize, kind| InputError {
        line: index + 1,
        kind,
    };
    // The line at `index` (from 0), which must hold `expected`.
    let line = |index: usize, expected: &'static str| match lines.get(index) {
        Some(l) if !l.is_empty() => Ok(*l),
        Some(_) if lines[index..].iter().any(|l| !l.is_empty()) => {
            Err(err(index, InputErrorKind::EmptyLine { expected }))
        }
        _ => Err(err(index, InputErrorKind::Missing { expected })),
    };

    let side = match line(0, "the player, `b` or `w`")? {
        "b" => Color::Black,
        "w" => Color::Red,
        other => {
            return Err(err(
                0,
                InputErrorKind::Player {
                    found: shown(other),
                },
            ))
        }
    };
    let size = line(1, "the board size 8")?;
    if size.parse::<usize>() != Ok(BOARD_SIZE) {
        return Err(err(1, InputErrorKind::Size { found: shown(size) }));
    }
    let (mut red, mut black, mut kings) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
    for row in 0..BOARD_SIZE {
        let n = 2 + row;
        let cells: Vec<char> = line(n, "a row of 8 cells from _ b w B W")?
            .chars()
            .collect();
        if cells.len() != BOARD_SIZE {
            return Err(err(n, InputErrorKind::RowLength { found: cells.len() }));
        }
        for (col, &c) in cells.iter().enumerate() {
            let bad = || {
                err(
                    n,
                    InputErrorKind::Cell {
                        column: col + 1,
                        found: c,
                    },
                )
            };
            // Both indices are below 8, so the square exists.
            let Some(sq) = Square::new(row as u8, col as u8) else {
                return Err(bad());
            };
            match c {
                '_' => {}
                'b' => black |= sq.bit(),
                'B' => {
                    black |= sq.bit();
                    kings |= sq.bit();
                }
                'w' => red |= sq.bit(),
                'W' => {
                    red |= sq.bit();
                    kings |= sq.bit();
                }
                _ => return Err(bad()),
            }
        }
    }
    let after = 2 + BOARD_SIZE;
    if let Some((n, extra)) = lines
        .iter()
        .enumerate()
        .skip(after)
        .find(|(_, l)| !l.is_empty())
    {
        return Err(err(
            n,
            InputErrorKind::Trailing {
                found: shown(extra),
            },
        ));
    }
    Position::new(red, black, kings, side).map_err(|e| err(0, InputErrorKind::Position(e)))
}

/// The cells a legal move visits under the HackerRank rules: its start, then every landing cell.
/// `None` when the move is not legal in `pos` under those rules.
#[must_use]
pub fn move_cells(pos: &Position, mv: Move) -> Option<Vec<Square>> {
    movegen::route(pos, mv, CROWNING)
}

/// The protocol's text of a route: the number of hops, then one `row col` line per cell.
#[must_use]
pub fn format_cells(cells: &[Square]) -> String {
    let mut out = format!("{}\n", cells.len().saturating_sub(1));
    for sq in cells {
        out.push_str(&format!("{} {}\n", sq.row(), sq.col()));
    }
    out
}

/// Why a text is not a move in the protocol's output format.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum OutputError {
    /// A line that is not what the format wants there.
    #[error("line {line}: found {found:?}; expected {expected}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// The line found (shortened).
        found: String,
        /// What the format wants.
        expected: &'static str,
    },
    /// The route is not a legal move of the position under the HackerRank rules.
    #[error("the route {0:?} is not a legal move under the HackerRank rules")]
    Illegal(Vec<(u8, u8)>),
}

/// Reads the protocol's text of a move back into its cells (the inverse of [`format_cells`]).
///
/// # Errors
/// An [`OutputError::Line`] for a line that is not a hop count, a cell, or is missing or extra.
pub fn parse_cells(text: &str) -> Result<Vec<Square>, OutputError> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let bad = |line: usize, expected: &'static str| OutputError::Line {
        line: line + 1,
        found: lines.get(line).map_or_else(String::new, |l| shown(l)),
        expected,
    };
    let hops: usize = lines
        .first()
        .and_then(|l| l.parse().ok())
        .filter(|&h| (1..=64).contains(&h))
        .ok_or_else(|| bad(0, "the number of hops"))?;
    let mut cells = Vec::with_capacity(hops + 1);
    for i in 1..=hops + 1 {
        let line = lines.get(i).ok_or_else(|| bad(i, "a cell `row col`"))?;
        let mut parts = line.split_whitespace().map(str::parse::<u8>);
        let cell = match (parts.next(), parts.next(), parts.next()) {
            (Some(Ok(r)), Some(Ok(c)), None) => Square::new(r, c),
            _ => None,
        };
        cells.push(cell.ok_or_else(|| bad(i, "a cell `row col` with both from 0 to 7"))?);
    }
    if lines[hops + 2..].iter().any(|l| !l.is_empty()) {
        return Err(bad(hops + 2, "nothing after the last cell"));
    }
    Ok(cells)
}

/// The legal move of `pos` that the protocol's `text` describes, checked hop by hop against the
/// HackerRank rules.
///
/// # Errors
/// The text is not in the output format, or its route is not a legal move.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, OutputError> {
    let cells = parse_cells(text)?;
    movegen::move_from_route(pos, &cells, CROWNING)
        .ok_or_else(|| OutputError::Illegal(cells.iter().map(|sq| (sq.row(), sq.col())).collect()))
}

/// The bot's answer: the move, its text, and what the search found.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The move chosen.
    pub mv: Move,
    /// The protocol's text of it, ready to print.
    pub text: String,
    /// What the search found (`None` when the move was forced and not searched).
    pub thought: Option<Thought>,
}

/// Chooses a move for the side to move of `pos` under the HackerRank rules within `move_time`
/// (wall time), and writes it in the protocol's format. The text is read back and checked
/// against the move generator before it is returned.
///
/// # Errors
/// [`AnswerError::NoLegalMove`] when the side to move cannot move; [`AnswerError::Unchecked`]
/// if the move failed its check (a bug; nothing is printed then).
pub fn answer(pos: &Position, move_time: Duration) -> Result<Answer, AnswerError> {
    let game = Game::new(*pos, DrawRule::None).with_crowning(CROWNING);
    let legal = game.legal_moves();
    let (mv, thought) = match legal.as_slice() {
        [] => return Err(AnswerError::NoLegalMove(pos.side_to_move())),
        [only] => (*only, None),
        _ => {
            let mut engine = Engine::new(EngineOptions {
                move_time: Some(move_time),
                egdb: default_egdb(),
                ..EngineOptions::default()
            });
            let thought = engine.think(&game, &Clock::per_move(move_time));
            match thought {
                Some(t) => (t.best, Some(t)),
                None => return Err(AnswerError::NoLegalMove(pos.side_to_move())),
            }
        }
    };
    let text = move_cells(pos, mv)
        .map(|cells| format_cells(&cells))
        .ok_or(AnswerError::Unchecked(mv))?;
    if parse_move(pos, &text) != Ok(mv) || !legal.contains(&mv) {
        return Err(AnswerError::Unchecked(mv));
    }
    Ok(Answer { mv, text, thought })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_round_trips_through_the_output_format() {
        for sq in Square::all() {
            let text = format_cells(&[sq, sq]);
            assert_eq!(
                text,
                format!("1\n{} {}\n{} {}\n", sq.row(), sq.col(), sq.row(), sq.col())
            );
            assert_eq!(parse_cells(&text), Ok(vec![sq, sq]));
        }
    }

    #[test]
    fn bad_output_lines_are_named() {
        let line = |r: Result<Vec<Square>, OutputError>| match r {
            Err(OutputError::Line { line, .. }) => line,
            other => panic!("expected a line error, got {other:?}"),
        };
        assert_eq!(line(parse_cells("")), 1);
        assert_eq!(line(parse_cells("0\n1 1\n")), 1);
        assert_eq!(line(parse_cells("x\n")), 1);
        assert_eq!(line(parse_cells("1\n1 0\n")), 3);
        assert_eq!(line(parse_cells("1\n1 0\n2 8\n")), 3);
        assert_eq!(line(parse_cells("1\n1 0\n2 1 3\n")), 3);
        assert_eq!(line(parse_cells("1\n1 0\n2 1\n3 2\n")), 4);
        assert_eq!(parse_cells("1\r\n1 0\r\n2 1\r\n\n").map(|c| c.len()), Ok(2));
    }
}
