//! FEN for checkers: a position as one line, `W:W21,22,K23:B1,2,3`.
//!
//! The side to move comes first (`W`: red, playing White's role at the bottom; `B`: black), then
//! each colour's list of standard square numbers (1-32, see [`notation`](super::notation)), a `K`
//! marking a king. Readers also accept what other programs write: the colour lists in either
//! order, ranges such as `W21-32`, lower-case letters, spaces around the separators, a final `.`
//! and surrounding blank lines.
//!
//! Standard notation covers the dark cells only, so a position with a piece on a light cell has
//! no FEN: [`write()`] returns a [`NotStandard`] error for it.

use thiserror::Error;

use crate::formats::notation::{square_of_number, standard_number};
use crate::rules::bitboard::Bitboard;
use crate::rules::piece::{Color, Kind};
use crate::rules::position::Position;
use crate::rules::square::Square;

/// What is wrong at a place in a FEN.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FenErrorKind {
    /// Nothing but blanks.
    #[error("the FEN is empty; expected something like W:W21,22,K23:B1,2,3")]
    Empty,
    /// The first letter is not a side.
    #[error("found {found}; expected the side to move, W (red) or B (black)")]
    ExpectedSide {
        /// What was found.
        found: String,
    },
    /// A `:` is missing.
    #[error("found {found}; expected ':'")]
    ExpectedColon {
        /// What was found.
        found: String,
    },
    /// A colour list does not start with `W` or `B`.
    #[error("found {found}; expected a colour, W (red) or B (black), before its squares")]
    ExpectedColour {
        /// What was found.
        found: String,
    },
    /// The same colour is listed twice.
    #[error("the colour {colour} is listed twice")]
    ColourTwice {
        /// `W` or `B`.
        colour: char,
    },
    /// A square number was expected.
    #[error("found {found}; expected a square number from 1 to 32")]
    ExpectedSquare {
        /// What was found.
        found: String,
    },
    /// A number outside 1-32.
    #[error("square {number} does not exist; squares are numbered 1 to 32")]
    SquareOutOfRange {
        /// The number read.
        number: u64,
    },
    /// A range whose end comes before its start.
    #[error("the range {first}-{last} is empty; expected the smaller square first")]
    EmptyRange {
        /// Its first square.
        first: u8,
        /// Its last square.
        last: u8,
    },
    /// A square listed twice (for one colour or both).
    #[error("square {number} is listed twice")]
    SquareTwice {
        /// The square.
        number: u8,
    },
    /// Text after the end of the FEN.
    #[error("found {found} after the end of the FEN")]
    TrailingText {
        /// What was found.
        found: String,
    },
}

/// An error at a line and column of a FEN (both from 1, columns counted in characters).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{line}:{column}: {kind}")]
pub struct FenError {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: FenErrorKind,
}

/// A position that has no FEN: a piece stands on a light cell, which has no standard number.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[error("the position has no FEN: a piece stands on a light cell ({square}), which has no standard square number")]
pub struct NotStandard {
    /// The first light cell holding a piece, in reading order.
    pub square: Square,
}

/// The line and column (from 1, in characters) of byte `offset` of `text`.
#[must_use]
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |p| p + 1);
    let column = before[start..].chars().count() + 1;
    (line, column)
}

/// A short quotation of what stands at `offset`, for messages.
pub(crate) fn found_at(text: &str, offset: usize) -> String {
    let rest = text.get(offset..).unwrap_or("");
    match rest.chars().next() {
        None => "the end of the text".to_string(),
        Some('\n' | '\r') => "the end of the line".to_string(),
        Some(_) => {
            let word: String = rest
                .chars()
                .take_while(|c| !c.is_whitespace())
                .take(12)
                .collect();
            format!("{word:?}")
        }
    }
}

/// A reader over the FEN text that knows its byte offset.
struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<char> {
        self.text.get(self.at..).and_then(|s| s.chars().next())
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.at += c.len_utf8();
        }
    }

    /// Skips spaces and tabs (not line ends: a FEN is one line).
    fn blanks(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
    }

    fn error(&self, kind: FenErrorKind) -> FenError {
        self.error_at(self.at, kind)
    }

    fn error_at(&self, offset: usize, kind: FenErrorKind) -> FenError {
        let (line, column) = line_column(self.text, offset);
        FenError { line, column, kind }
    }

    fn found(&self) -> String {
        found_at(self.text, self.at)
    }

    /// Reads `W` or `B` (either case) as a colour.
    fn colour(&mut self) -> Option<Color> {
        let c = match self.peek()? {
            'W' | 'w' => Color::Red,
            'B' | 'b' => Color::Black,
            _ => return None,
        };
        self.bump();
        Some(c)
    }

    fn colon(&mut self) -> Result<(), FenError> {
        self.blanks();
        if self.peek() == Some(':') {
            self.bump();
            self.blanks();
            Ok(())
        } else {
            Err(self.error(FenErrorKind::ExpectedColon {
                found: self.found(),
            }))
        }
    }

    /// Reads a square number 1-32.
    fn number(&mut self) -> Result<u8, FenError> {
        let start = self.at;
        let mut value: u64 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            value = value.saturating_mul(10).saturating_add(u64::from(d));
            self.bump();
        }
        if self.at == start {
            return Err(self.error(FenErrorKind::ExpectedSquare {
                found: self.found(),
            }));
        }
        match u8::try_from(value) {
            Ok(n) if (1..=32).contains(&n) => Ok(n),
            _ => Err(self.error_at(start, FenErrorKind::SquareOutOfRange { number: value })),
        }
    }
}

/// Squares read so far, to place pieces and catch duplicates.
#[derive(Default)]
struct Placed {
    red: Bitboard,
    black: Bitboard,
    kings: Bitboard,
}

/// Reads one colour's list after its letter: `K23,21-22` and so on, up to `:` or the end.
fn read_list(r: &mut Reader<'_>, color: Color, placed: &mut Placed) -> Result<(), FenError> {
    r.blanks();
    // An empty list is allowed: the colour has no pieces.
    if matches!(r.peek(), None | Some(':' | '.' | '\n' | '\r')) {
        return Ok(());
    }
    loop {
        r.blanks();
        let item_start = r.at;
        let king = matches!(r.peek(), Some('K' | 'k'));
        if king {
            r.bump();
        }
        let first_at = r.at;
        let first = r.number()?;
        let mut last = first;
        if r.peek() == Some('-') {
            r.bump();
            last = r.number()?;
            if last < first {
                return Err(r.error_at(first_at, FenErrorKind::EmptyRange { first, last }));
            }
        }
        for n in first..=last {
            let Some(sq) = square_of_number(n) else {
                continue;
            };
            if (placed.red | placed.black).contains(sq) {
                return Err(r.error_at(item_start, FenErrorKind::SquareTwice { number: n }));
            }
            match color {
                Color::Red => placed.red |= sq.bit(),
                Color::Black => placed.black |= sq.bit(),
            }
            if king {
                placed.kings |= sq.bit();
            }
        }
        r.blanks();
        if r.peek() == Some(',') {
            r.bump();
        } else {
            return Ok(());
        }
    }
}

/// Parses a FEN such as `W:W21,22,K23:B1,2,3` into a position.
///
/// Blank lines before and after it are allowed; errors name the line and column.
pub fn parse(text: &str) -> Result<Position, FenError> {
    let mut r = Reader { text, at: 0 };
    while matches!(r.peek(), Some(c) if c.is_whitespace()) {
        r.bump();
    }
    if r.peek().is_none() {
        return Err(r.error_at(0, FenErrorKind::Empty));
    }
    // An optional pair of quotes, as in a PDN tag copied whole.
    let quoted = r.peek() == Some('"');
    if quoted {
        r.bump();
    }
    let Some(side) = r.colour() else {
        return Err(r.error(FenErrorKind::ExpectedSide { found: r.found() }));
    };
    let mut placed = Placed::default();
    let mut seen: Vec<Color> = Vec::new();
    for _ in 0..2 {
        r.colon()?;
        let at = r.at;
        let Some(color) = r.colour() else {
            return Err(r.error(FenErrorKind::ExpectedColour { found: r.found() }));
        };
        if seen.contains(&color) {
            let colour = if color == Color::Red { 'W' } else { 'B' };
            return Err(r.error_at(at, FenErrorKind::ColourTwice { colour }));
        }
        seen.push(color);
        read_list(&mut r, color, &mut placed)?;
    }
    r.blanks();
    if r.peek() == Some('.') {
        r.bump();
    }
    if quoted && r.peek() == Some('"') {
        r.bump();
    }
    while matches!(r.peek(), Some(c) if c.is_whitespace()) {
        r.bump();
    }
    if r.peek().is_some() {
        return Err(r.error(FenErrorKind::TrailingText { found: r.found() }));
    }
    // Red and black were kept apart and every king was placed with its piece, so this succeeds;
    // the error branch reports the first square as a duplicate rather than panicking.
    Position::new(placed.red, placed.black, placed.kings, side).map_err(|_| {
        r.error_at(
            0,
            FenErrorKind::SquareTwice {
                number: (placed.red & placed.black)
                    .first()
                    .and_then(standard_number)
                    .unwrap_or(1),
            },
        )
    })
}

/// The squares of `color` in ascending order, kings marked with `K`, joined by commas.
fn list(pos: &Position, color: Color) -> String {
    let mut numbered: Vec<(u8, bool)> = pos
        .pieces(color)
        .iter()
        .filter_map(|sq| {
            let king = pos.piece_at(sq).is_some_and(|p| p.kind == Kind::King);
            standard_number(sq).map(|n| (n, king))
        })
        .collect();
    numbered.sort_unstable();
    numbered
        .iter()
        .map(|&(n, king)| if king { format!("K{n}") } else { n.to_string() })
        .collect::<Vec<_>>()
        .join(",")
}

/// The FEN of a position, red's list first: `W:W21,22,K23:B1,2,3`.
pub fn write(pos: &Position) -> Result<String, NotStandard> {
    if let Some(square) = (pos.occupied() & !Bitboard::DARK).first() {
        return Err(NotStandard { square });
    }
    let side = match pos.side_to_move() {
        Color::Red => 'W',
        Color::Black => 'B',
    };
    Ok(format!(
        "{side}:W{}:B{}",
        list(pos, Color::Red),
        list(pos, Color::Black)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::piece::Piece;

    fn at(n: u8) -> Square {
        square_of_number(n).unwrap()
    }

    #[test]
    fn reads_the_contract_example() {
        let pos = parse("W:W21,22,K23:B1,2,3").unwrap();
        assert_eq!(pos.side_to_move(), Color::Red);
        assert_eq!(pos.pieces(Color::Red).count(), 3);
        assert_eq!(pos.pieces(Color::Black).count(), 3);
        assert_eq!(
            pos.piece_at(at(23)),
            Some(Piece {
                color: Color::Red,
                kind: Kind::King
            })
        );
        assert_eq!(
            pos.piece_at(at(1)),
            Some(Piece {
                color: Color::Black,
                kind: Kind::Man
            })
        );
        assert_eq!(write(&pos).unwrap(), "W:W21,22,K23:B1,2,3");
    }

    #[test]
    fn start_position_with_ranges_and_other_spellings() {
        let start = Position::start();
        assert_eq!(parse("W:W21-32:B1-12").unwrap(), start);
        assert_eq!(parse("w:b1-12:w21-32.\n").unwrap(), start);
        assert_eq!(parse("\n  W : W21-32 : B1-12 \n\n").unwrap(), start);
        assert_eq!(parse("\"W:W21-32:B1-12\"").unwrap(), start);
        assert_eq!(
            write(&start).unwrap(),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
    }

    #[test]
    fn black_to_move_and_empty_lists() {
        let pos = parse("B:W:BK5").unwrap();
        assert_eq!(pos.side_to_move(), Color::Black);
        assert!(pos.pieces(Color::Red).is_empty());
        assert_eq!(write(&pos).unwrap(), "B:W:BK5");
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases: [(&str, usize, usize, FenErrorKind); 9] = [
            ("", 1, 1, FenErrorKind::Empty),
            (
                "X:W1:B2",
                1,
                1,
                FenErrorKind::ExpectedSide {
                    found: "\"X:W1:B2\"".into(),
                },
            ),
            (
                "W:W1;B2",
                1,
                5,
                FenErrorKind::ExpectedColon {
                    found: "\";B2\"".into(),
                },
            ),
            ("W:W1:W2", 1, 6, FenErrorKind::ColourTwice { colour: 'W' }),
            (
                "\nW:W1,33:B2",
                2,
                6,
                FenErrorKind::SquareOutOfRange { number: 33 },
            ),
            (
                "W:W1,,2:B3",
                1,
                6,
                FenErrorKind::ExpectedSquare {
                    found: "\",2:B3\"".into(),
                },
            ),
            ("W:W1,2:B2", 1, 9, FenErrorKind::SquareTwice { number: 2 }),
            (
                "W:W9-5:B2",
                1,
                4,
                FenErrorKind::EmptyRange { first: 9, last: 5 },
            ),
            (
                "W:W1:B2 junk",
                1,
                9,
                FenErrorKind::TrailingText {
                    found: "\"junk\"".into(),
                },
            ),
        ];
        for (text, line, column, kind) in cases {
            let err = parse(text).unwrap_err();
            assert_eq!(err, FenError { line, column, kind }, "{text:?}");
        }
    }

    #[test]
    fn no_fen_for_light_cells() {
        let light = Square::new(0, 0).unwrap();
        let pos = Position::new(light.bit(), Bitboard::EMPTY, Bitboard::EMPTY, Color::Red).unwrap();
        assert_eq!(write(&pos), Err(NotStandard { square: light }));
    }
}
