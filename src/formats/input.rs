//! A position from any of the input formats, told apart by their content: the course's board text
//! (8 rows of `.rRbB`), a FEN (`W:W21,22,K23:B1,2,3`) or a PDN file (tags and moves; the position
//! after the moves of the chosen game).
//!
//! Puzzles are red to move, so [`parse_puzzle`] rejects a position with black to move; perft and
//! games take either side ([`parse_position`]).

use std::path::Path;

use thiserror::Error;

use crate::formats::board_text::{self, BoardError};
use crate::formats::fen::{self, line_column, FenError, NotStandard};
use crate::formats::files::{self, InputError};
use crate::formats::pdn::{self, NotAGame, PdnError, ReadGame};
use crate::formats::replay::Replay;
use crate::rules::piece::Color;
use crate::rules::position::Position;

/// The formats a position can be read from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// 8 rows of 8 characters from `.rRbB`, red to move.
    Board,
    /// One FEN line.
    Fen,
    /// A PDN file of one or several games.
    Pdn,
}

/// Why a text gives no usable position. Located errors display as `line:column: message`; the
/// others start with a space, so that `path:error` reads well either way.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// The board text is wrong.
    #[error("{0}")]
    Board(BoardError),
    /// The FEN is wrong.
    #[error("{0}")]
    Fen(FenError),
    /// The PDN is wrong.
    #[error("{0}")]
    Pdn(PdnError),
    /// A game number beyond the games of the file.
    #[error(" there is no game {asked}: the file holds {count} game(s)")]
    NoSuchGame {
        /// The game asked for, from 1.
        asked: usize,
        /// How many games the file holds.
        count: usize,
    },
    /// Several games and no choice among them.
    #[error(" the file holds {count} games; choose one with --game N")]
    SeveralGames {
        /// How many games the file holds.
        count: usize,
    },
    /// The output asked for needs standard notation, which the position has not.
    #[error(" {0}; write the solution with --format text")]
    NotStandard(NotStandard),
    /// A solution whose states do not follow from each other by legal moves.
    #[error(" {0}")]
    NotAGame(NotAGame),
    /// A solution that does not start from the puzzle it is shown with.
    #[error(" the solution does not start from the puzzle")]
    WrongStart,
    /// The position has black to move, and a puzzle must have red to move.
    #[error("{line}:{column}: black is to move here; a puzzle must have red (W) to move")]
    BlackToMove {
        /// Line of what sets the side to move, from 1.
        line: usize,
        /// Its column, from 1.
        column: usize,
    },
}

impl ReadError {
    /// The line and column of the error, when it has one.
    #[must_use]
    pub fn location(&self) -> Option<(usize, usize)> {
        match self {
            ReadError::Board(e) => Some((e.line, e.column)),
            ReadError::Fen(e) => Some((e.line, e.column)),
            ReadError::Pdn(e) => Some((e.line, e.column)),
            ReadError::BlackToMove { line, column } => Some((*line, *column)),
            ReadError::NoSuchGame { .. }
            | ReadError::SeveralGames { .. }
            | ReadError::NotStandard(_)
            | ReadError::NotAGame(_)
            | ReadError::WrongStart => None,
        }
    }
}

/// The format of a text, from its first non-blank characters: `[` or `{` start a PDN, and so does
/// a first word that is a move number (`1.`, `1...`) or a move (`22-18`); a side letter followed
/// by `:` starts a FEN; anything else (including bytes that are not text) is read as a board,
/// whose parser explains what is wrong.
#[must_use]
pub fn detect(bytes: &[u8]) -> Format {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Format::Board;
    };
    let trimmed = text.trim_start();
    let mut chars = trimmed.chars();
    match chars.next() {
        Some('[' | '{') => Format::Pdn,
        Some(c) if c.is_ascii_digit() => {
            let word = trimmed.split_whitespace().next().unwrap_or("");
            if starts_movetext(word) {
                Format::Pdn
            } else {
                Format::Board
            }
        }
        Some('"' | 'W' | 'w' | 'B' | 'b') => {
            let rest = chars
                .as_str()
                .trim_start_matches(['W', 'w', 'B', 'b', ' ', '\t']);
            if rest.starts_with(':') {
                Format::Fen
            } else {
                Format::Board
            }
        }
        _ => Format::Board,
    }
}

/// Whether `word` is a PDN move number (`12.`, `12...`, possibly glued to a move) or a move.
fn starts_movetext(word: &str) -> bool {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &word[digits..];
    let dots = rest.bytes().take_while(|&b| b == b'.').count();
    let is_move =
        |w: &str| crate::formats::notation::parse_path(w.trim_end_matches(['!', '?'])).is_some();
    match dots {
        1 | 3 => rest[dots..].is_empty() || is_move(&rest[dots..]),
        0 => is_move(word),
        _ => false,
    }
}

/// Game `game` (from 1) of a PDN text, or its only game.
fn choose_game(text: &str, game: Option<usize>) -> Result<ReadGame, ReadError> {
    let mut games = pdn::parse_games_located(text).map_err(ReadError::Pdn)?;
    let count = games.len();
    let index = match game {
        Some(n) if n >= 1 && n <= count => n - 1,
        Some(n) => return Err(ReadError::NoSuchGame { asked: n, count }),
        None if count == 1 => 0,
        None => return Err(ReadError::SeveralGames { count }),
    };
    Ok(games.swap_remove(index))
}

/// A game to show from a text: a PDN game whole (game `game` of several), the states of a
/// solution in board text, or a single position (a board or a FEN).
pub fn parse_replay(bytes: &[u8], game: Option<usize>, title: &str) -> Result<Replay, ReadError> {
    let text = std::str::from_utf8(bytes).unwrap_or("");
    match detect(bytes) {
        Format::Pdn => Ok(Replay::from_game(&choose_game(text, game)?.game, title)),
        Format::Fen => {
            let pos = fen::parse(text).map_err(ReadError::Fen)?;
            Replay::from_states(&[pos], &[], title).map_err(ReadError::NotAGame)
        }
        Format::Board => {
            let states = board_text::parse_solution(bytes).map_err(ReadError::Board)?;
            Replay::from_states(&states, &[], title).map_err(ReadError::NotAGame)
        }
    }
}

/// Reads a game to show from a file (see [`parse_replay`]); the title is the file's name.
pub fn read_replay(path: &Path, game: Option<usize>) -> Result<Replay, InputError> {
    let bytes = files::read_bytes(path)?;
    let title = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    parse_replay(&bytes, game, &title).map_err(|e| in_file(path, e))
}

/// Checks that `solution` starts from `puzzle`, naming `path` otherwise.
pub fn check_start(solution: &Replay, puzzle: &Position, path: &Path) -> Result<(), InputError> {
    if solution.states.first() == Some(puzzle) {
        Ok(())
    } else {
        Err(in_file(path, ReadError::WrongStart))
    }
}

/// The states of a solution in any format the solver writes (`--format`): board text (states
/// separated by one empty line), one FEN a line, or a PDN game (its start and the position after
/// each move; the only game of the file).
pub fn parse_solution(bytes: &[u8]) -> Result<Vec<Position>, ReadError> {
    let text = std::str::from_utf8(bytes).unwrap_or("");
    match detect(bytes) {
        Format::Board => board_text::parse_solution(bytes).map_err(ReadError::Board),
        Format::Pdn => Ok(choose_game(text, None)?.game.positions()),
        Format::Fen => text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(i, line)| {
                fen::parse(line).map_err(|mut e| {
                    e.line += i;
                    ReadError::Fen(e)
                })
            })
            .collect(),
    }
}

/// Reads a solution in any format the solver writes (see [`parse_solution`]); `-` reads
/// standard input.
pub fn read_solution(path: &Path) -> Result<Vec<Position>, InputError> {
    let bytes = files::read_bytes(path)?;
    parse_solution(&bytes).map_err(|e| in_file(path, e))
}

/// A position with where its side to move was set, for the black-to-move message.
fn located(bytes: &[u8], game: Option<usize>) -> Result<(Position, (usize, usize)), ReadError> {
    let text = std::str::from_utf8(bytes).unwrap_or("");
    match detect(bytes) {
        Format::Board => board_text::parse_board(bytes)
            .map(|p| (p, (1, 1)))
            .map_err(ReadError::Board),
        Format::Fen => {
            let pos = fen::parse(text).map_err(ReadError::Fen)?;
            let start = text.len() - text.trim_start().len();
            Ok((pos, line_column(text, start)))
        }
        Format::Pdn => {
            let read = choose_game(text, game)?;
            Ok((read.game.end(), read.at))
        }
    }
}

/// The position a text describes, with either side to move. `game` picks one game (from 1) of a
/// PDN file holding several; it is ignored for boards and FENs.
pub fn parse_position(bytes: &[u8], game: Option<usize>) -> Result<Position, ReadError> {
    located(bytes, game).map(|(pos, _)| pos)
}

/// The puzzle a text describes: like [`parse_position`], but black to move is an error.
pub fn parse_puzzle(bytes: &[u8], game: Option<usize>) -> Result<Position, ReadError> {
    let (pos, (line, column)) = located(bytes, game)?;
    if pos.side_to_move() == Color::Black {
        return Err(ReadError::BlackToMove { line, column });
    }
    Ok(pos)
}

/// Attaches the file name to a read error; board errors keep their own variant.
fn in_file(path: &Path, error: ReadError) -> InputError {
    match error {
        ReadError::Board(error) => InputError::Board {
            path: files::input_name(path),
            error,
        },
        error => InputError::Notation {
            path: files::input_name(path),
            error,
        },
    }
}

/// Reads a puzzle (red to move) from a board, FEN or PDN file.
pub fn read_puzzle(path: &Path, game: Option<usize>) -> Result<Position, InputError> {
    let bytes = files::read_bytes(path)?;
    parse_puzzle(&bytes, game).map_err(|e| in_file(path, e))
}

/// Reads a position with either side to move from a board, FEN or PDN file.
pub fn read_position(path: &Path, game: Option<usize>) -> Result<Position, InputError> {
    let bytes = files::read_bytes(path)?;
    parse_position(&bytes, game).map_err(|e| in_file(path, e))
}

/// A FEN given on the command line as a puzzle (red to move); errors name `--fen`.
pub fn fen_puzzle(text: &str) -> Result<Position, InputError> {
    let pos = fen_position(text)?;
    if pos.side_to_move() == Color::Black {
        let start = text.len() - text.trim_start().len();
        let (line, column) = line_column(text, start);
        return Err(in_file(
            Path::new("--fen"),
            ReadError::BlackToMove { line, column },
        ));
    }
    Ok(pos)
}

/// A FEN given on the command line, with either side to move; errors name `--fen`.
pub fn fen_position(text: &str) -> Result<Position, InputError> {
    fen::parse(text).map_err(|e| in_file(Path::new("--fen"), ReadError::Fen(e)))
}

/// Checks that `pos` can be written in standard notation (no piece on a light cell), naming
/// `source` (the input file, or `--fen`) otherwise: asked before solving, not after.
pub fn require_standard(pos: &Position, source: &str) -> Result<(), InputError> {
    match fen::write(pos) {
        Ok(_) => Ok(()),
        Err(e) => Err(in_file(Path::new(source), ReadError::NotStandard(e))),
    }
}

/// An error about `source` (a file, or `--fen`) that exits like any unusable input.
#[must_use]
pub fn source_error(source: &str, error: ReadError) -> InputError {
    in_file(Path::new(source), error)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P03: &str =
        "........\n....b...\n.......R\n..b.b...\n...b...r\n........\n...r....\n....B...\n";

    #[test]
    fn detects_each_format() {
        assert_eq!(detect(P03.as_bytes()), Format::Board);
        assert_eq!(detect(b"bbbbbbbb\n"), Format::Board);
        assert_eq!(detect(b"W:W21:B1\n"), Format::Fen);
        assert_eq!(detect(b"  B :W21:B1\n"), Format::Fen);
        assert_eq!(detect(b"\"W:W21:B1\"\n"), Format::Fen);
        assert_eq!(detect(b"[Event \"x\"]\n"), Format::Pdn);
        assert_eq!(detect(b"1. 22-18 *\n"), Format::Pdn);
        assert_eq!(detect(b"22-18 11-15 *\n"), Format::Pdn);
        assert_eq!(detect(b"1......."), Format::Board);
        assert_eq!(detect(b"12345678\n"), Format::Board);
        assert_eq!(detect(b"1...rrbb\n"), Format::Board);
        assert_eq!(detect(b"1...22-18\n"), Format::Pdn);
        assert_eq!(detect(b"\xff\xfe"), Format::Board);
    }

    #[test]
    fn the_same_puzzle_from_each_format() {
        let board = parse_puzzle(P03.as_bytes(), None).unwrap();
        let fen_text = fen::write(&board).unwrap();
        assert_eq!(parse_puzzle(fen_text.as_bytes(), None), Ok(board));
        let pdn_text = format!("[FEN \"{fen_text}\"]\n*\n");
        assert_eq!(parse_puzzle(pdn_text.as_bytes(), None), Ok(board));
    }

    #[test]
    fn black_to_move_is_an_error_for_a_puzzle_only() {
        let text = "\n  B:W21:B1\n";
        let pos = parse_position(text.as_bytes(), None).unwrap();
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!(
            parse_puzzle(text.as_bytes(), None),
            Err(ReadError::BlackToMove { line: 2, column: 3 })
        );
        // A PDN game whose moves end with black to move.
        let game = "[FEN \"W:W22:B1\"]\n1. 22-18 *\n";
        assert!(matches!(
            parse_puzzle(game.as_bytes(), None),
            Err(ReadError::BlackToMove { line: 1, column: 1 })
        ));
    }

    #[test]
    fn replays_from_each_format() {
        let pos = parse_puzzle(P03.as_bytes(), None).unwrap();
        let one = parse_replay(P03.as_bytes(), None, "p03").unwrap();
        assert_eq!(one.states, vec![pos]);
        let game = "[FEN \"W:W22:B1\"]\n1. 22-18 {v} 1-5 *\n";
        let two = parse_replay(game.as_bytes(), None, "g").unwrap();
        assert_eq!(two.states.len(), 3);
        assert_eq!(two.values, vec![Some("v".to_string()), None]);
        let broken = format!("{P03}\n{P03}");
        assert!(matches!(
            parse_replay(broken.as_bytes(), None, "b"),
            Err(ReadError::NotAGame(_))
        ));
    }

    #[test]
    fn games_are_chosen_by_number() {
        let two = "[FEN \"W:W22:B1\"]\n*\n[FEN \"W:W23:B2\"]\n*\n";
        assert_eq!(
            parse_puzzle(two.as_bytes(), None),
            Err(ReadError::SeveralGames { count: 2 })
        );
        assert_eq!(
            parse_puzzle(two.as_bytes(), Some(3)),
            Err(ReadError::NoSuchGame { asked: 3, count: 2 })
        );
        assert_eq!(
            parse_puzzle(two.as_bytes(), Some(2)),
            fen::parse("W:W23:B2").map_err(ReadError::Fen)
        );
    }
}
