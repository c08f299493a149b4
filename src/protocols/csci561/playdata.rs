//! `playdata.txt`: what the agent keeps between the moves of one game, because each move is a
//! new process and `input.txt` holds the board alone.
//!
//! It holds the time the agent had at its first move of the game and every position of the game
//! as the agent saw it: its first input, then the position after each move, ending with the
//! position after the agent's own last move. With it the agent rebuilds the game (so the engine
//! sees repetitions and the count of moves without a capture or crowning) once it has found the
//! opponent's reply that leads to the new `input.txt`.
//!
//! ```text
//! csci561-playdata 1
//! colour WHITE
//! initial 300
//! position b .b.b.b.bb.b.b.b..b.b.b.b................w.w.w.w..w.w.w.ww.w.w.w.
//! position w ...
//! ```
//!
//! `position` lines give the side to move (`b` or `w`) and the 64 cells row by row from the top.
//! The host deletes the file before each game. A missing, unreadable, corrupt or unrelated file
//! (another game, the other colour) never stops the agent: it then starts a new record from the
//! current input, knowing nothing of the moves before.

use thiserror::Error;

use crate::play::Game;
use crate::rules::draw::DrawRule;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;

use super::{board_line, colour_keyword, position_of_line};

/// The file's name in the agent's folder.
pub const PLAYDATA_FILE: &str = "playdata.txt";

/// First line of the file, with its format version.
const HEADER: &str = "csci561-playdata 1";

/// What the agent kept from the moves of the game so far.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayData {
    /// The colour the agent plays.
    pub colour: Color,
    /// Seconds the agent had at its first move of the game.
    pub initial_seconds: f64,
    /// The positions of the game as seen, oldest first; consecutive positions are joined by a
    /// legal move.
    pub positions: Vec<Position>,
}

/// Why a `playdata.txt` was not used.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("playdata line {line}: {reason}")]
pub struct PlayDataError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl PlayData {
    /// The text of the file.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{HEADER}\ncolour {}\ninitial {}\n",
            colour_keyword(self.colour),
            self.initial_seconds
        );
        for pos in &self.positions {
            let side = match pos.side_to_move() {
                Color::Black => 'b',
                Color::Red => 'w',
            };
            out.push_str(&format!("position {side} {}\n", board_line(pos)));
        }
        out
    }

    /// Reads the file's text, checking that every position follows from the one before by a
    /// legal move.
    pub fn parse(text: &str) -> Result<PlayData, PlayDataError> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
        let bad = |line: usize, reason: &str| PlayDataError {
            line,
            reason: reason.to_owned(),
        };
        match lines.next() {
            Some((_, HEADER)) => {}
            _ => return Err(bad(1, "not a playdata file (wrong first line)")),
        }
        let colour = match lines.next() {
            Some((_, "colour BLACK")) => Color::Black,
            Some((_, "colour WHITE")) => Color::Red,
            _ => return Err(bad(2, "expected `colour BLACK` or `colour WHITE`")),
        };
        let initial_seconds = lines
            .next()
            .and_then(|(_, l)| l.strip_prefix("initial "))
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0)
            .ok_or_else(|| bad(3, "expected `initial SECONDS`"))?;
        let mut positions: Vec<Position> = Vec::new();
        for (n, line) in lines {
            if line.is_empty() {
                continue;
            }
            let pos = line
                .strip_prefix("position ")
                .and_then(|rest| {
                    let (side, board) = rest.split_once(' ')?;
                    let side = match side {
                        "b" => Color::Black,
                        "w" => Color::Red,
                        _ => return None,
                    };
                    position_of_line(board, side)
                })
                .ok_or_else(|| bad(n, "expected `position b|w` and 64 board characters"))?;
            if let Some(prev) = positions.last() {
                if move_between(prev, &pos).is_none() {
                    return Err(bad(
                        n,
                        "no legal move leads here from the previous position",
                    ));
                }
            }
            positions.push(pos);
        }
        if positions.is_empty() {
            return Err(bad(4, "no positions"));
        }
        Ok(PlayData {
            colour,
            initial_seconds,
            positions,
        })
    }

    /// The game up to `current` (the new input, the agent's colour to move), if it continues
    /// this record: `current` follows from the last recorded position by one move of the
    /// opponent, or is the position before the agent's last move (the same input asked again).
    /// `None` when the record belongs to another game or colour. (A repeated board is not taken
    /// for a rerun: in a repetition the reply is found first, so the history is kept.)
    #[must_use]
    pub fn continue_game(&self, current: &Position) -> Option<Game> {
        if current.side_to_move() != self.colour {
            return None;
        }
        let start = *self.positions.first()?;
        let mut moves: Vec<Move> = self
            .positions
            .windows(2)
            .map(|w| move_between(&w[0], &w[1]))
            .collect::<Option<_>>()?;
        let n = self.positions.len();
        if let Some(reply) = move_between(&self.positions[n - 1], current) {
            moves.push(reply);
        } else if n >= 2 && self.positions[n - 2] == *current {
            // The same input again (the last move is being asked for once more).
            moves.truncate(n - 2);
        } else {
            return None;
        }
        Game::from_moves(start, DrawRule::Csci561, &moves).ok()
    }

    /// The record of `game` after the agent plays `mv` in its current position.
    #[must_use]
    pub fn after_move(game: &Game, mv: Move, colour: Color, initial_seconds: f64) -> PlayData {
        let mut positions = game.positions().to_vec();
        positions.push(game.current().play(mv));
        PlayData {
            colour,
            initial_seconds,
            positions,
        }
    }
}

/// A legal move of `from` that leads to `to` (same pieces, the other side to move), if any.
#[must_use]
pub fn move_between(from: &Position, to: &Position) -> Option<Move> {
    movegen::legal_moves(from)
        .into_iter()
        .find(|&m| from.play(m) == *to)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Position {
        Position::start().with_side_to_move(Color::Black)
    }

    #[test]
    fn round_trips_and_continues_after_the_opponent_move() {
        let game = Game::new(start(), DrawRule::Csci561);
        let mine = game.legal_moves()[0];
        let data = PlayData::after_move(&game, mine, Color::Black, 300.0);
        let parsed = PlayData::parse(&data.to_text()).unwrap();
        assert_eq!(parsed, data);
        let after = start().play(mine);
        let reply = movegen::legal_moves(&after)[2];
        let now = after.play(reply);
        let game = parsed.continue_game(&now).unwrap();
        assert_eq!(game.moves(), &[mine, reply]);
        // The same input asked again resumes at that position.
        let again = parsed.continue_game(&start()).unwrap();
        assert_eq!(again.ply(), 0);
    }

    #[test]
    fn unrelated_or_corrupt_records_are_refused() {
        let game = Game::new(start(), DrawRule::Csci561);
        let mine = game.legal_moves()[0];
        let data = PlayData::after_move(&game, mine, Color::Black, 300.0);
        // Another colour, or a board no single move reaches.
        assert!(data
            .continue_game(&start().with_side_to_move(Color::Red))
            .is_none());
        let far = start().play(mine).with_side_to_move(Color::Black);
        assert!(data.continue_game(&far).is_none());
        for text in [
            "",
            "garbage",
            "csci561-playdata 1\ncolour GREEN\n",
            "csci561-playdata 1\ncolour BLACK\ninitial -3\n",
            "csci561-playdata 1\ncolour BLACK\ninitial 3\n",
            "csci561-playdata 1\ncolour BLACK\ninitial 3\nposition b xyz\n",
        ] {
            assert!(PlayData::parse(text).is_err(), "{text:?}");
        }
        // Two positions no move joins.
        let mut text = data.to_text();
        let repeated = text.lines().nth(3).unwrap().to_owned();
        text.push_str(&repeated);
        text.push('\n');
        assert!(PlayData::parse(&text).is_err());
    }
}
