//! How a game on the server ended, and its record written as PDN.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::formats::pdn::{self, GameResult};
use crate::protocols::dd2380::EndCode;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;

/// Why a player lost by the referee's decision rather than on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// No answer before the deadline.
    Timeout,
    /// The connection closed (or failed) during the game.
    Disconnected,
    /// A line that is not what the protocol allows here, with the error.
    Garbled(String),
    /// A well-formed move that is not legal, with the error.
    Illegal(String),
    /// The built-in player failed (a bug), with the reason.
    PlayerFailed(String),
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::Timeout => f.write_str("timeout: no answer before the deadline"),
            Forfeit::Disconnected => f.write_str("disconnected"),
            Forfeit::Garbled(e) => write!(f, "garbled line: {e}"),
            Forfeit::Illegal(e) => write!(f, "illegal move: {e}"),
            Forfeit::PlayerFailed(e) => write!(f, "the built-in player failed: {e}"),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move had no legal move.
    NoLegalMove {
        /// The side that could not move (and lost).
        loser: Color,
    },
    /// The same position for the third time.
    Repetition,
    /// 50 plies (25 of each player) without a capture.
    QuietMoves,
    /// A player lost by breaking the protocol or the clock.
    Forfeit {
        /// The side that forfeited.
        loser: Color,
        /// How.
        why: Forfeit,
    },
    /// Both players failed to initialise; nobody wins.
    NeitherReady,
}

impl EndReason {
    /// The winner, if any (the first player is red).
    #[must_use]
    pub const fn winner(&self) -> Option<Color> {
        match self {
            EndReason::NoLegalMove { loser } | EndReason::Forfeit { loser, .. } => {
                Some(loser.opponent())
            }
            EndReason::Repetition | EndReason::QuietMoves | EndReason::NeitherReady => None,
        }
    }

    /// The code the players are told.
    #[must_use]
    pub const fn code(&self) -> EndCode {
        EndCode::for_winner(self.winner())
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seat = |c: &Color| match c {
            Color::Red => "the first player (red)",
            Color::Black => "the second player (black)",
        };
        match self {
            EndReason::NoLegalMove { loser } => write!(f, "{} has no legal move", seat(loser)),
            EndReason::Repetition => f.write_str("draw by threefold repetition"),
            EndReason::QuietMoves => f.write_str("draw: 50 turns without a capture"),
            EndReason::Forfeit { loser, why } => write!(f, "{} forfeits: {why}", seat(loser)),
            EndReason::NeitherReady => f.write_str("neither player initialised: no game"),
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The server's number for the game (from 1).
    pub id: u64,
    /// Who played red (first), e.g. `client 127.0.0.1:5000` or `built-in minimax:2`.
    pub red: String,
    /// Who played black (second).
    pub black: String,
    /// `standalone` or `key KEY`.
    pub mode: String,
    /// The moves, from the standard start.
    pub moves: Vec<Move>,
    /// How it ended.
    pub reason: EndReason,
}

impl GameRecord {
    /// The game as PDN, with its players, result and the reason in a `Termination` tag.
    #[must_use]
    pub fn to_pdn(&self) -> String {
        let mut game = pdn::Game::new(Position::start());
        game.set_tag("Event", &format!("DD2380 {}", self.mode));
        game.set_tag("Date", &date_today());
        game.set_tag("Round", &self.id.to_string());
        game.set_tag("White", &self.red);
        game.set_tag("Black", &self.black);
        game.set_tag("Termination", &self.reason.to_string());
        for &mv in &self.moves {
            game.push(mv, None);
        }
        game.result = match self.reason.winner() {
            Some(c) => GameResult::win(c),
            None => GameResult::Draw,
        };
        // The standard start has no light-cell pieces, so the write cannot fail; say so if it does.
        pdn::write_game(&game).unwrap_or_else(|e| format!("; game {}: {e}\n", self.id))
    }

    /// Writes the game's PDN as a new file in `dir` (named by the time and the game number, never
    /// replacing a file) and returns its path.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<PathBuf> {
        use std::io::Write;
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let path = dir.join(format!("dd2380-{secs}-{:06}.pdn", self.id));
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        file.write_all(self.to_pdn().as_bytes())?;
        Ok(path)
    }
}

/// Today's date (UTC) as PDN writes it: `2026.11.22`.
fn date_today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_reads_back_with_its_reason() {
        let pos = Position::start();
        let mv = crate::rules::movegen::legal_moves(&pos)[0];
        let record = GameRecord {
            id: 7,
            red: "client 127.0.0.1:1".into(),
            black: "built-in minimax:2".into(),
            mode: "standalone".into(),
            moves: vec![mv],
            reason: EndReason::Forfeit {
                loser: Color::Black,
                why: Forfeit::Timeout,
            },
        };
        let text = record.to_pdn();
        let games = pdn::parse_games(&text).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves, vec![mv]);
        assert_eq!(games[0].result, GameResult::RedWins);
        let termination = games[0].tag("Termination").unwrap();
        assert!(termination.contains("second player (black) forfeits: timeout"));
        assert_eq!(record.reason.code(), EndCode::FirstWon);
        let date = date_today();
        assert_eq!(date.len(), 10);
        assert!(date.as_str() >= "2024.01.01", "{date}");
    }
}
