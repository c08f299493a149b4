//! How a game on the server ended, and its record written as PDN.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::formats::pdn::{self, GameResult};
use crate::protocols::dd2380::EndCode;
use crate::rules::game::Outcome;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;

/// The game's end as the log says it: the seats named as the protocol names them (the first
/// player is red).
#[must_use]
pub fn termination(outcome: &Outcome) -> String {
    let seat = |c: Color| match c {
        Color::Red => "the first player (red)",
        Color::Black => "the second player (black)",
    };
    match outcome {
        Outcome::Win { winner } => format!("{} has no legal move", seat(winner.opponent())),
        Outcome::QuietMoves => "draw: 50 turns without a capture".to_owned(),
        Outcome::Forfeit { loser, why } => format!("{} forfeits: {why}", seat(*loser)),
        Outcome::NoGame => "neither player initialised: no game".to_owned(),
        Outcome::Repetition | Outcome::PlyLimit => outcome.to_string(),
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
    pub outcome: Outcome,
}

impl GameRecord {
    /// The code the players are told.
    #[must_use]
    pub fn code(&self) -> EndCode {
        EndCode::for_winner(self.outcome.winner())
    }

    /// The game as PDN, with its players, result and the reason in a `Termination` tag.
    #[must_use]
    pub fn to_pdn(&self) -> String {
        let mut game = pdn::Game::new(Position::start());
        game.set_tag("Event", &format!("DD2380 {}", self.mode));
        game.set_tag("Date", &date_today());
        game.set_tag("Round", &self.id.to_string());
        game.set_tag("White", &self.red);
        game.set_tag("Black", &self.black);
        game.set_tag("Termination", &termination(&self.outcome));
        for &mv in &self.moves {
            game.push(mv, None);
        }
        game.result = match self.outcome.winner() {
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
    use crate::rules::game::Forfeit;

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
            outcome: Outcome::Forfeit {
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
        assert_eq!(record.code(), EndCode::FirstWon);
        let date = date_today();
        assert_eq!(date.len(), 10);
        assert!(date.as_str() >= "2024.01.01", "{date}");
    }
}
