//! The course's text format: a board is 8 lines of 8 characters from `.rRbB`, a solution is a
//! sequence of boards separated by one empty line.
//!
//! Parsing never panics: any byte string gives a position or an error that names the line and the
//! column (both from 1) and says what was found and what was expected.

use thiserror::Error;

use crate::rules::bitboard::Bitboard;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::square::Square;

/// What is wrong at a place in a board file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BoardErrorKind {
    /// The file has no bytes at all.
    #[error("the file is empty; expected 8 rows of 8 cells")]
    Empty,
    /// A NUL byte or bytes that are not UTF-8.
    #[error("not a text file (byte 0x{byte:02x}); expected 8 rows of 8 cells from . r R b B")]
    Binary {
        /// The first offending byte.
        byte: u8,
    },
    /// A character outside `.rRbB`.
    #[error("found {found:?}; expected one of . r R b B")]
    BadChar {
        /// The character found.
        found: char,
    },
    /// A row with fewer than 8 cells.
    #[error("the row has {found} cells; expected 8")]
    ShortRow {
        /// How many cells it has.
        found: usize,
    },
    /// A row with more than 8 cells.
    #[error("the row has {found} cells; expected 8")]
    LongRow {
        /// How many cells it has.
        found: usize,
    },
    /// An empty line where a row was expected.
    #[error("found an empty line; expected a row of 8 cells")]
    EmptyLine,
    /// The board stops early.
    #[error("the board ends after row {found}; expected 8 rows")]
    TooFewRows {
        /// How many rows were read.
        found: usize,
    },
    /// Text after the eighth row.
    #[error("found a ninth row; expected exactly 8 rows")]
    TooManyRows,
    /// In a solution file, something other than one empty line between two boards.
    #[error("found {found:?}; expected one empty line between two boards")]
    MissingSeparator {
        /// The start of the line found.
        found: String,
    },
    /// The cells read do not make a position. Each cell is read from one character, so this
    /// cannot happen; it is an error rather than a silently different board if it ever does.
    #[error("the board is not a valid position: {reason}")]
    NotAPosition {
        /// Why [`Position::new`] refused the cells.
        reason: String,
    },
}

/// An error at a line and column of a board or solution file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{line}:{column}: {kind}")]
pub struct BoardError {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, counted in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: BoardErrorKind,
}

impl BoardError {
    fn at(line: usize, column: usize, kind: BoardErrorKind) -> BoardError {
        BoardError { line, column, kind }
    }
}

/// One line of the file: its number from 1 and its text without line end or trailing spaces.
#[derive(Clone, Copy, Debug)]
struct Line<'a> {
    number: usize,
    text: &'a str,
}

/// The UTF-8 byte order mark that some editors put at the start of a text file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Checks that `bytes` are text and splits them into lines, tolerating a UTF-8 byte order mark,
/// CRLF and trailing spaces.
fn lines(bytes: &[u8]) -> Result<Vec<Line<'_>>, BoardError> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    if bytes.is_empty() {
        return Err(BoardError::at(1, 1, BoardErrorKind::Empty));
    }
    // The first NUL byte or the first byte that is not UTF-8, whichever comes first.
    let nul = bytes.iter().position(|&b| b == 0);
    let invalid = std::str::from_utf8(bytes).err().map(|e| e.valid_up_to());
    let bad = match (nul, invalid) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    if let Some(offset) = bad {
        let before = &bytes[..offset];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let column = String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count()
            + 1;
        let byte = bytes[offset];
        return Err(BoardError::at(
            line,
            column,
            BoardErrorKind::Binary { byte },
        ));
    }
    // Valid UTF-8 without NUL was checked above; lossy conversion changes nothing here.
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(_) => {
            return Err(BoardError::at(
                1,
                1,
                BoardErrorKind::Binary { byte: bytes[0] },
            ))
        }
    };
    let mut out: Vec<Line<'_>> = text
        .split('\n')
        .enumerate()
        .map(|(i, raw)| Line {
            number: i + 1,
            text: raw
                .strip_suffix('\r')
                .unwrap_or(raw)
                .trim_end_matches([' ', '\t']),
        })
        .collect();
    // A final newline leaves one empty piece after the last split; it is not a line.
    if text.ends_with('\n') {
        out.pop();
    }
    Ok(out)
}

/// Parses one row of 8 cells into `cells`.
fn parse_row(line: Line<'_>, row: u8, cells: &mut Cells) -> Result<(), BoardError> {
    if line.text.is_empty() {
        return Err(BoardError::at(line.number, 1, BoardErrorKind::EmptyLine));
    }
    let mut count = 0usize;
    for (i, c) in line.text.chars().enumerate() {
        count = i + 1;
        if i >= 8 {
            continue;
        }
        if c == '.' {
            continue;
        }
        let Some(piece) = Piece::from_char(c) else {
            return Err(BoardError::at(
                line.number,
                i + 1,
                BoardErrorKind::BadChar { found: c },
            ));
        };
        if let Some(sq) = Square::new(row, i as u8) {
            cells.put(piece, sq);
        }
    }
    match count {
        8 => Ok(()),
        n if n < 8 => Err(BoardError::at(
            line.number,
            n + 1,
            BoardErrorKind::ShortRow { found: n },
        )),
        n => Err(BoardError::at(
            line.number,
            9,
            BoardErrorKind::LongRow { found: n },
        )),
    }
}

/// The cells of a board being read.
#[derive(Default)]
struct Cells {
    red: Bitboard,
    black: Bitboard,
    kings: Bitboard,
}

impl Cells {
    fn put(&mut self, piece: Piece, sq: Square) {
        match piece.color {
            Color::Red => self.red |= sq.bit(),
            Color::Black => self.black |= sq.bit(),
        }
        if piece.kind == Kind::King {
            self.kings |= sq.bit();
        }
    }

    /// The position of the cells read. Each cell was written once from one character, so the
    /// sets are consistent and this does not fail; if it ever did, the board is refused with the
    /// reason (at `line`, the board's first row) rather than replaced by another.
    fn into_position(self, side: Color, line: usize) -> Result<Position, BoardError> {
        Position::new(self.red, self.black, self.kings, side).map_err(|e| {
            BoardError::at(
                line,
                1,
                BoardErrorKind::NotAPosition {
                    reason: e.to_string(),
                },
            )
        })
    }
}

/// Reads 8 rows from `rows` (which must hold at least 8 lines) as a board with `side` to move.
fn parse_rows(rows: &[Line<'_>], side: Color) -> Result<Position, BoardError> {
    let mut cells = Cells::default();
    for (r, line) in rows.iter().take(8).enumerate() {
        parse_row(*line, r as u8, &mut cells)?;
    }
    cells.into_position(side, rows.first().map_or(1, |l| l.number))
}

/// Parses a puzzle file: exactly 8 non-empty rows of 8 cells, red to move.
///
/// Tolerated: LF or CRLF, trailing spaces, and one trailing empty line.
pub fn parse_board(bytes: &[u8]) -> Result<Position, BoardError> {
    let mut rows = lines(bytes)?;
    if rows.len() > 8 && rows.last().is_some_and(|l| l.text.is_empty()) {
        rows.pop();
    }
    if rows.len() < 8 {
        for line in &rows {
            if line.text.is_empty() {
                return Err(BoardError::at(line.number, 1, BoardErrorKind::EmptyLine));
            }
        }
        let next = rows.last().map_or(1, |l| l.number + 1);
        let found = rows.len();
        // Check the rows that are there first: a bad character is the more useful message.
        let mut cells = Cells::default();
        for (r, line) in rows.iter().enumerate() {
            parse_row(*line, r as u8, &mut cells)?;
        }
        return Err(BoardError::at(
            next,
            1,
            BoardErrorKind::TooFewRows { found },
        ));
    }
    let position = parse_rows(&rows[..8], Color::Red)?;
    if let Some(extra) = rows.get(8) {
        return Err(BoardError::at(extra.number, 1, BoardErrorKind::TooManyRows));
    }
    Ok(position)
}

/// Parses a solution file: boards of 8 rows separated by one empty line, red to move in the
/// first, the sides alternating. Trailing empty lines and CRLF are tolerated.
pub fn parse_solution(bytes: &[u8]) -> Result<Vec<Position>, BoardError> {
    let mut rows = lines(bytes)?;
    while rows.last().is_some_and(|l| l.text.is_empty()) {
        rows.pop();
    }
    let mut states = Vec::new();
    let mut i = 0;
    let mut side = Color::Red;
    while i < rows.len() {
        if !states.is_empty() {
            let sep = rows[i];
            if !sep.text.is_empty() {
                let found: String = sep.text.chars().take(16).collect();
                return Err(BoardError::at(
                    sep.number,
                    1,
                    BoardErrorKind::MissingSeparator { found },
                ));
            }
            i += 1;
        }
        let board = &rows[i..rows.len().min(i + 8)];
        if board.len() < 8 {
            let next = rows.last().map_or(1, |l| l.number + 1);
            for (r, line) in board.iter().enumerate() {
                parse_row(*line, r as u8, &mut Cells::default())?;
            }
            return Err(BoardError::at(
                next,
                1,
                BoardErrorKind::TooFewRows { found: board.len() },
            ));
        }
        states.push(parse_rows(board, side)?);
        side = side.opponent();
        i += 8;
    }
    if states.is_empty() {
        return Err(BoardError::at(1, 1, BoardErrorKind::Empty));
    }
    Ok(states)
}

/// The 8 rows of a board, each ending with a newline.
#[must_use]
pub fn format_board(pos: &Position) -> String {
    let mut s = String::with_capacity(72);
    for row in 0..8u8 {
        for col in 0..8u8 {
            let c = Square::new(row, col)
                .and_then(|sq| pos.piece_at(sq))
                .map_or('.', Piece::to_char);
            s.push(c);
        }
        s.push('\n');
    }
    s
}

/// A solution file: every state, one empty line between two, LF only, final newline.
#[must_use]
pub fn format_solution(states: &[Position]) -> String {
    states
        .iter()
        .map(format_board)
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const P03: &str =
        "........\n....b...\n.......R\n..b.b...\n...b...r\n........\n...r....\n....B...\n";

    #[test]
    fn round_trip() {
        let pos = parse_board(P03.as_bytes()).unwrap();
        assert_eq!(format_board(&pos), P03);
        assert_eq!(pos.side_to_move(), Color::Red);
    }

    #[test]
    fn tolerates_crlf_trailing_spaces_and_one_empty_line() {
        let crlf = P03.replace('\n', "  \r\n") + "\r\n";
        assert_eq!(parse_board(crlf.as_bytes()), parse_board(P03.as_bytes()));
        let two_empty = format!("{P03}\n\n");
        assert_eq!(
            parse_board(two_empty.as_bytes()).unwrap_err().kind,
            BoardErrorKind::TooManyRows
        );
    }

    #[test]
    fn a_utf8_byte_order_mark_is_accepted() {
        let with_bom = [BOM, P03.as_bytes()].concat();
        assert_eq!(parse_board(&with_bom), parse_board(P03.as_bytes()));
        let pos = parse_board(P03.as_bytes()).unwrap();
        let solution = [BOM, format_solution(&[pos]).as_bytes()].concat();
        assert_eq!(parse_solution(&solution), Ok(vec![pos]));
        // A mark alone is an empty file; a mark elsewhere is a bad character.
        assert_eq!(parse_board(BOM).unwrap_err().kind, BoardErrorKind::Empty);
        let late = [&P03.as_bytes()[..9], BOM, &P03.as_bytes()[9..]].concat();
        assert!(matches!(
            parse_board(&late).unwrap_err().kind,
            BoardErrorKind::BadChar { found: '\u{feff}' }
        ));
    }

    #[test]
    fn solution_round_trip() {
        let pos = parse_board(P03.as_bytes()).unwrap();
        let text = format_solution(&[pos, pos.with_side_to_move(Color::Black)]);
        let states = parse_solution(text.as_bytes()).unwrap();
        assert_eq!(states, vec![pos, pos.with_side_to_move(Color::Black)]);
    }
}
