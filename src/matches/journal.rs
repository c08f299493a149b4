//! The journal of a match: each finished game appended to a file as it ends, so that a match
//! stopped at any point (Ctrl-C, `kill -9`, the end of a session) is resumed by running the same
//! command again, which plays only the games not yet recorded and reports the whole match.
//!
//! The file is text. Its first line is [`MAGIC`]; then one line `field<TAB>value` per setting
//! that fixes the games (the players, the clock, the draw rule, the ply limit, the start, the
//! openings: see [`identity`]); then one line per finished game, in the order they finished:
//!
//! ```text
//! game <index> <player 1 red: 1|0> <outcome> <moves> <move times> <time left> <crc>
//! ```
//!
//! separated by tabs: the outcome as `win:red`, `repetition`, `quiet-moves`, `ply-limit`,
//! `no-game` or `forfeit:<loser>:<how>` (`time:<used ns>:<allowed ns>`, `timeout`,
//! `illegal:<text>`, `no-move:<text>`, the text with `\`, tab and line breaks escaped); the moves
//! in standard notation from the game's start, separated by spaces; the clock's charge for each
//! chosen move in nanoseconds, separated by commas; red's and black's time left in nanoseconds;
//! and a CRC-32 (hexadecimal) of everything before its tab. The header is written whole (a
//! temporary file renamed); each game line is one write, flushed to disk. A last line without its
//! line break or with a wrong checksum is a record cut short by a stop: it is ignored and cut off
//! before the next game is appended. Any other damaged line, a game recorded twice, a game
//! beyond the match's count, or a header of another match is refused with the file named.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use thiserror::Error;

use crate::formats::{fen, files, notation};
use crate::rules::game::{Forfeit, Outcome};
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;

use super::arena::{MatchConfig, PlayedGame, TimeControl};

/// The first line of a journal.
pub const MAGIC: &str = "checkers match journal 1";

/// Why a journal cannot be used.
#[derive(Debug, Error)]
pub enum JournalError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The journal.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file is not a match journal.
    #[error("{path}: not a match journal (its first line is not `{MAGIC}`)")]
    NotAJournal {
        /// The file.
        path: PathBuf,
    },
    /// The journal records another match.
    #[error(
        "{path}: the journal of another match: its {field} is `{there}`, this match's is `{here}` \
         (use another journal file, or the same settings)"
    )]
    OtherMatch {
        /// The file.
        path: PathBuf,
        /// The setting that differs.
        field: String,
        /// The journal's value (`(none)` when it has none).
        there: String,
        /// This match's value (`(none)` when it has none).
        here: String,
    },
    /// A line is not a whole record of this match's game.
    #[error("{path}: line {line}: damaged record ({reason})")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// Line number from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A game is beyond the match's count.
    #[error(
        "{path}: line {line}: game {number} recorded, but this match has {games} games: the \
         journal of a longer match (ask for at least {number} games, or use another journal)"
    )]
    Beyond {
        /// The file.
        path: PathBuf,
        /// Line number from 1.
        line: usize,
        /// The game's number (from 1).
        number: usize,
        /// Games in this match.
        games: usize,
    },
}

/// The settings that fix a match's games, as `(field, value)` pairs in the journal's order. The
/// number of games is not one of them: game `i` is the same in a match of any length, so a
/// journal of a shorter match is extended by a longer one.
#[must_use]
pub fn identity(config: &MatchConfig) -> Vec<(String, String)> {
    let time = match config.time {
        TimeControl::Unlimited => "none".to_owned(),
        TimeControl::PerMove(d) => format!("{} s a move", d.as_secs_f64()),
        TimeControl::PerGame(d) => format!("{} s a game", d.as_secs_f64()),
    };
    let mut digest = crc32fast::Hasher::new();
    for o in &config.openings {
        digest.update(o.name.as_bytes());
        digest.update(b"\n");
        if let Some(start) = &o.start {
            digest.update(position_text(start).as_bytes());
        }
        digest.update(b"\n");
    }
    vec![
        ("player1".to_owned(), config.player1.name().to_owned()),
        ("player2".to_owned(), config.player2.name().to_owned()),
        ("time".to_owned(), time),
        ("clock".to_owned(), format!("{:?}", config.measure)),
        ("draw-rule".to_owned(), config.draw_rule.to_string()),
        ("max-plies".to_owned(), config.max_plies.to_string()),
        ("start".to_owned(), position_text(&config.start)),
        (
            "openings".to_owned(),
            format!(
                "{} from {}, crc32 {:08x}",
                config.openings.len(),
                config.openings.first().map_or("", |o| o.name.as_str()),
                digest.finalize()
            ),
        ),
    ]
}

/// A position's FEN, or its debug text when it has none (pieces on light cells).
fn position_text(pos: &Position) -> String {
    fen::write(pos).unwrap_or_else(|_| format!("{pos:?}"))
}

/// An open journal: the games read from it, and the file to append new ones to.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Opens the journal at `path` for `config`'s match, creating it (its header) when it does
    /// not exist; returns it with the games already recorded, in index order. A record cut short
    /// at the end is cut off the file.
    ///
    /// # Errors
    /// [`JournalError`] when the file cannot be read or written, is not a journal, is of another
    /// match, or holds a damaged record before its last or a game beyond `config.games`.
    pub fn open(
        path: &Path,
        config: &MatchConfig,
    ) -> Result<(Journal, Vec<PlayedGame>), JournalError> {
        let io_err = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        let header = header_text(config);
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io_err(e)),
        };
        if bytes.is_empty() {
            files::write_atomic(path, &header)
                .map_err(|e| io_err(io::Error::other(e.to_string())))?;
        }
        let (games, keep) = if bytes.is_empty() {
            (Vec::new(), header.len() as u64)
        } else {
            read_records(path, &bytes, config)?
        };
        let file = OpenOptions::new().append(true).open(path).map_err(io_err)?;
        if keep < file.metadata().map_err(io_err)?.len() {
            file.set_len(keep).map_err(io_err)?;
            file.sync_data().map_err(io_err)?;
        }
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
            },
            games,
        ))
    }

    /// Appends `game` as one line, flushed to disk.
    ///
    /// # Errors
    /// [`JournalError::Io`] when it cannot be written.
    pub fn append(&mut self, game: &PlayedGame) -> Result<(), JournalError> {
        let line = record(game);
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|source| JournalError::Io {
                path: self.path.clone(),
                source,
            })
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The header: the magic line and the match's settings.
fn header_text(config: &MatchConfig) -> String {
    let mut text = format!("{MAGIC}\n");
    for (field, value) in identity(config) {
        text.push_str(&format!("{field}\t{}\n", escape(&value)));
    }
    text
}

/// The games recorded in a journal's `bytes`, in index order, and how many bytes of the file are
/// whole records (the rest, a record cut short, is to be cut off).
fn read_records(
    path: &Path,
    bytes: &[u8],
    config: &MatchConfig,
) -> Result<(Vec<PlayedGame>, u64), JournalError> {
    let not_journal = || JournalError::NotAJournal {
        path: path.to_path_buf(),
    };
    let damaged = |line: usize, reason: String| JournalError::Damaged {
        path: path.to_path_buf(),
        line,
        reason,
    };
    // Whole lines only: what follows the last line break is a record cut short.
    let whole = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    let text = std::str::from_utf8(&bytes[..whole]).map_err(|_| not_journal())?;
    let mut lines = text.split_inclusive('\n').enumerate().peekable();
    match lines.next() {
        Some((_, first)) if first.trim_end() == MAGIC => {}
        _ => return Err(not_journal()),
    }
    // The header, checked field by field against this match's.
    let mut offset = MAGIC.len() as u64 + 1;
    let expected = identity(config);
    let mut fields = Vec::new();
    while let Some(&(_, line)) = lines.peek() {
        if line.starts_with("game\t") {
            break;
        }
        lines.next();
        offset += line.len() as u64;
        let line = line.trim_end_matches('\n');
        let (field, value) = line.split_once('\t').unwrap_or((line, ""));
        fields.push((field.to_owned(), unescape(value)));
    }
    for (field, here) in &expected {
        let there = fields
            .iter()
            .find(|(f, _)| f == field)
            .map_or_else(|| "(none)".to_owned(), |(_, v)| v.clone());
        if &there != here {
            return Err(JournalError::OtherMatch {
                path: path.to_path_buf(),
                field: field.clone(),
                there,
                here: here.clone(),
            });
        }
    }
    if let Some((field, there)) = fields
        .iter()
        .find(|(f, _)| !expected.iter().any(|(e, _)| e == f))
    {
        return Err(JournalError::OtherMatch {
            path: path.to_path_buf(),
            field: field.clone(),
            there: there.clone(),
            here: "(none)".to_owned(),
        });
    }
    let mut slots: Vec<Option<PlayedGame>> = vec![None; config.games];
    let mut keep = offset;
    // The highest game beyond this match's count, with its line: records are appended as games
    // end, so the first such record met depends on which job finished first.
    let mut beyond: Option<(usize, usize)> = None;
    while let Some((i, line)) = lines.next() {
        let number = i + 1;
        let last = lines.peek().is_none();
        match parse_record(line.trim_end_matches('\n'), config) {
            Ok(game) => {
                let index = game.index;
                let Some(slot) = slots.get_mut(index) else {
                    if beyond.is_none_or(|(highest, _)| index > highest) {
                        beyond = Some((index, number));
                    }
                    continue;
                };
                if slot.is_some() {
                    return Err(damaged(
                        number,
                        format!("game {} recorded twice", index + 1),
                    ));
                }
                *slot = Some(game);
                keep += line.len() as u64;
            }
            // A checksum that fails on the last line: written in part when the match stopped.
            Err(RecordError::Checksum) if last => {}
            Err(e) => return Err(damaged(number, e.to_string())),
        }
    }
    if let Some((index, line)) = beyond {
        return Err(JournalError::Beyond {
            path: path.to_path_buf(),
            line,
            number: index + 1,
            games: config.games,
        });
    }
    Ok((slots.into_iter().flatten().collect(), keep))
}

/// Why a game line cannot be read.
#[derive(Debug, Error)]
enum RecordError {
    #[error("its checksum does not match")]
    Checksum,
    #[error("{0}")]
    Bad(String),
}

/// One game as a journal line (with its line break).
fn record(g: &PlayedGame) -> String {
    let mut pos = g.start;
    let mut moves = Vec::with_capacity(g.moves.len());
    for &mv in &g.moves {
        moves.push(notation::move_text(&pos, mv));
        pos = pos.play(mv);
    }
    let times: Vec<String> = g
        .move_times
        .iter()
        .map(|d| d.as_nanos().to_string())
        .collect();
    let body = format!(
        "game\t{}\t{}\t{}\t{}\t{}\t{},{}",
        g.index,
        u8::from(g.player1_red),
        outcome_text(&g.outcome),
        moves.join(" "),
        times.join(","),
        g.time_left[0].as_nanos(),
        g.time_left[1].as_nanos(),
    );
    let crc = crc32fast::hash(body.as_bytes());
    format!("{body}\t{crc:08x}\n")
}

/// A game line (without its line break) read back as the game of `config`'s match it records.
fn parse_record(line: &str, config: &MatchConfig) -> Result<PlayedGame, RecordError> {
    let bad = |what: &str| RecordError::Bad(what.to_owned());
    let (body, crc) = line.rsplit_once('\t').ok_or(RecordError::Checksum)?;
    if u32::from_str_radix(crc, 16).ok() != Some(crc32fast::hash(body.as_bytes())) || crc.len() != 8
    {
        return Err(RecordError::Checksum);
    }
    let fields: Vec<&str> = body.split('\t').collect();
    let [tag, index, p1red, outcome, moves, times, left] = fields[..] else {
        return Err(bad("not the seven fields of a game"));
    };
    if tag != "game" {
        return Err(bad("not a game"));
    }
    let index: usize = index.parse().map_err(|_| bad("bad game index"))?;
    let player1_red = match p1red {
        "1" => true,
        "0" => false,
        _ => return Err(bad("bad colours")),
    };
    if player1_red != (index % 2 == 0) {
        return Err(bad("colours not those of the game's index"));
    }
    let opening = &config.openings[(index / 2) % config.openings.len().max(1)];
    let start = opening.start.unwrap_or(config.start);
    let mut pos = start;
    let mut played: Vec<Move> = Vec::new();
    for token in moves.split_whitespace() {
        let legal = movegen::legal_moves(&pos);
        let mv = legal
            .iter()
            .copied()
            .find(|&mv| notation::move_text(&pos, mv) == token)
            .ok_or_else(|| {
                RecordError::Bad(format!(
                    "move {} `{token}` is not legal in the game's opening",
                    played.len() + 1
                ))
            })?;
        played.push(mv);
        pos = pos.play(mv);
    }
    let nanos = |t: &str| -> Result<Duration, RecordError> {
        t.parse::<u64>()
            .map(Duration::from_nanos)
            .map_err(|_| bad("bad time"))
    };
    let move_times = times
        .split(',')
        .filter(|t| !t.is_empty())
        .map(nanos)
        .collect::<Result<Vec<_>, _>>()?;
    let (red_left, black_left) = left.split_once(',').ok_or_else(|| bad("bad time left"))?;
    let (p1, p2) = (config.player1.name(), config.player2.name());
    let (red, black) = if player1_red { (p1, p2) } else { (p2, p1) };
    Ok(PlayedGame {
        index,
        opening: opening.name.clone(),
        player1_red,
        red: red.to_owned(),
        black: black.to_owned(),
        start,
        moves: played,
        move_times,
        time_left: [nanos(red_left)?, nanos(black_left)?],
        outcome: parse_outcome(outcome).ok_or_else(|| bad("bad outcome"))?,
    })
}

fn color_text(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

fn color_of(text: &str) -> Option<Color> {
    match text {
        "red" => Some(Color::Red),
        "black" => Some(Color::Black),
        _ => None,
    }
}

fn outcome_text(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Win { winner } => format!("win:{}", color_text(*winner)),
        Outcome::Repetition => "repetition".to_owned(),
        Outcome::QuietMoves => "quiet-moves".to_owned(),
        Outcome::PlyLimit => "ply-limit".to_owned(),
        Outcome::NoGame => "no-game".to_owned(),
        Outcome::Forfeit { loser, why } => {
            let how = match why {
                Forfeit::Time { used, allowed } => {
                    format!("time:{}:{}", used.as_nanos(), allowed.as_nanos())
                }
                Forfeit::Timeout => "timeout".to_owned(),
                Forfeit::Illegal(text) => format!("illegal:{}", escape(text)),
                Forfeit::NoMove(text) => format!("no-move:{}", escape(text)),
            };
            format!("forfeit:{}:{how}", color_text(*loser))
        }
    }
}

fn parse_outcome(text: &str) -> Option<Outcome> {
    Some(match text {
        "repetition" => Outcome::Repetition,
        "quiet-moves" => Outcome::QuietMoves,
        "ply-limit" => Outcome::PlyLimit,
        "no-game" => Outcome::NoGame,
        _ => {
            if let Some(c) = text.strip_prefix("win:") {
                return Some(Outcome::Win {
                    winner: color_of(c)?,
                });
            }
            let rest = text.strip_prefix("forfeit:")?;
            let (loser, how) = rest.split_once(':')?;
            let loser = color_of(loser)?;
            let (kind, detail) = how.split_once(':').unwrap_or((how, ""));
            let why = match kind {
                "time" => {
                    let (used, allowed) = detail.split_once(':')?;
                    Forfeit::Time {
                        used: Duration::from_nanos(used.parse().ok()?),
                        allowed: Duration::from_nanos(allowed.parse().ok()?),
                    }
                }
                "timeout" => Forfeit::Timeout,
                "illegal" => Forfeit::Illegal(unescape(detail)),
                "no-move" => Forfeit::NoMove(unescape(detail)),
                _ => return None,
            };
            Outcome::Forfeit { loser, why }
        }
    })
}

/// `text` with `\`, tabs and line breaks escaped, so it stays within one field of one line.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// The text [`escape`] was given.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_and_texts_round_trip() {
        let texts = ["plain", "tab\there", "line\nbreak\\n", "\\", "end\\"];
        for t in texts {
            assert_eq!(unescape(&escape(t)), t);
            assert!(!escape(t).contains(['\t', '\n']));
        }
        let outcomes = [
            Outcome::Win {
                winner: Color::Black,
            },
            Outcome::Repetition,
            Outcome::QuietMoves,
            Outcome::PlyLimit,
            Outcome::NoGame,
            Outcome::Forfeit {
                loser: Color::Red,
                why: Forfeit::Time {
                    used: Duration::from_micros(100_123),
                    allowed: Duration::from_millis(100),
                },
            },
            Outcome::Forfeit {
                loser: Color::Black,
                why: Forfeit::Timeout,
            },
            Outcome::Forfeit {
                loser: Color::Red,
                why: Forfeit::Illegal("bad: move\t1:2".to_owned()),
            },
            Outcome::Forfeit {
                loser: Color::Red,
                why: Forfeit::NoMove(String::new()),
            },
        ];
        for o in outcomes {
            assert_eq!(parse_outcome(&outcome_text(&o)), Some(o.clone()), "{o}");
        }
        assert_eq!(parse_outcome("win:blue"), None);
        assert_eq!(parse_outcome("forfeit:red:lunch"), None);
    }
}
