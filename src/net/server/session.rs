//! One game on the server: two seats (a client connection or the built-in player), the
//! initialisation, every move validated against the rules, and the end told to both clients.
//!
//! A client loses by forfeit when it answers late, sends a line the protocol does not allow, an
//! illegal move, or disconnects; both clients are then told `-1 code`. A session touches only its
//! own two connections, so nothing a client does reaches another game.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::time::Instant;

use crate::play::clock::Clock;
use crate::play::player::Player;
use crate::protocols::dd2380::{
    decode_move, encode_move, parse_client_move, parse_init_ack, CellMove, EndCode, Event,
    ServerInit, Turn,
};
use crate::rules::draw::DrawRule;
use crate::rules::game::{Forfeit, Game, Outcome};
use crate::rules::moves::Move;
use crate::rules::piece::Color;

use super::connection::{ConnError, Connection};
use super::record::GameRecord;
use super::ServerConfig;

/// Who sits on one side of the board.
pub enum Seat {
    /// A client over the network.
    Remote(Box<Connection>),
    /// The server's own player (standalone games).
    Builtin(Box<dyn Player>),
}

impl Seat {
    /// The name written in the game record.
    pub fn name(&self) -> String {
        match self {
            Seat::Remote(conn) => format!("client {}", conn.peer()),
            Seat::Builtin(p) => format!("built-in {}", p.name()),
        }
    }
}

/// Microseconds since the Unix epoch, `after` from now, as deadlines are written.
fn deadline_us(after: Duration) -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(after, |d| d + after)
        .as_micros()
        .try_into()
        .unwrap_or(u64::MAX)
}

/// The forfeit for a failed read or write.
fn forfeit_of(err: ConnError) -> Forfeit {
    match err {
        ConnError::Timeout => Forfeit::Timeout,
        ConnError::Closed | ConnError::Io(_) => Forfeit::NoMove("disconnected".to_owned()),
        ConnError::TooLong(_) | ConnError::NotText => garbled(err),
    }
}

/// Sends the initialisation to a client seat and waits for its `INIT`.
async fn initialise(seat: &mut Seat, first: bool, config: &ServerConfig) -> Result<(), Forfeit> {
    let Seat::Remote(conn) = seat else {
        return Ok(());
    };
    let init = ServerInit {
        deadline_us: deadline_us(config.init_time),
        first,
    };
    let start = Instant::now();
    conn.write_line(&init.to_string(), config.write_timeout)
        .await
        .map_err(forfeit_of)?;
    let line = conn
        .read_line(start + config.init_time + config.grace)
        .await
        .map_err(forfeit_of)?;
    parse_init_ack(&line).map_err(garbled)
}

/// Asks the seat of the side to move for its move, telling a client what happened before.
async fn ask(
    seat: &mut Seat,
    game: &Game,
    news: Event,
    config: &ServerConfig,
) -> Result<Move, Forfeit> {
    let pos = *game.current();
    let side = pos.side_to_move();
    match seat {
        Seat::Remote(conn) => {
            let turn = Turn {
                deadline_us: deadline_us(config.move_time),
                event: news,
            };
            let start = Instant::now();
            conn.write_line(&turn.to_string(), config.write_timeout)
                .await
                .map_err(forfeit_of)?;
            let line = conn
                .read_line(start + config.move_time + config.grace)
                .await
                .map_err(forfeit_of)?;
            let wire = parse_client_move(&line).map_err(garbled)?;
            decode_move(&pos, &wire, side)
                .map_err(|e| Forfeit::Illegal(format!("illegal move: {e}")))
        }
        Seat::Builtin(player) => {
            let mut owned = std::mem::replace(player, Box::new(Placeholder));
            let snapshot = game.clone();
            let budget = config.move_time;
            let (back, chosen) = tokio::task::spawn_blocking(move || {
                let chosen = owned.choose(&snapshot, &Clock::deadline(budget));
                (owned, chosen)
            })
            .await
            .map_err(player_failed)?;
            *player = back;
            let mv = chosen.map_err(player_failed)?;
            if game.legal_moves().contains(&mv) {
                Ok(mv)
            } else {
                Err(player_failed(format!("illegal move {mv:?}")))
            }
        }
    }
}

/// Stands in for the built-in player while it thinks on a blocking thread.
struct Placeholder;

impl Player for Placeholder {
    fn name(&self) -> String {
        "placeholder".into()
    }
    fn choose(
        &mut self,
        _game: &Game,
        _clock: &Clock,
    ) -> Result<Move, crate::play::player::PlayerError> {
        Err(crate::play::player::PlayerError::Failed(
            "the built-in player is busy".into(),
        ))
    }
}

/// A line the protocol does not allow here: a forfeit, with the error.
fn garbled(e: impl std::fmt::Display) -> Forfeit {
    Forfeit::Illegal(format!("garbled line: {e}"))
}

/// The built-in player failed (a bug): a forfeit, with the reason.
fn player_failed(e: impl std::fmt::Display) -> Forfeit {
    Forfeit::NoMove(format!("the built-in player failed: {e}"))
}

/// Plays one game between `red` (the first player) and `black`, tells both clients the end and
/// closes their connections; returns the record.
pub async fn play_game(
    id: u64,
    mode: String,
    mut red: Seat,
    mut black: Seat,
    config: &ServerConfig,
) -> GameRecord {
    let names = (red.name(), black.name());
    let mut game = Game::standard(DrawRule::Dd2380);
    let (r, b) = tokio::join!(
        initialise(&mut red, true, config),
        initialise(&mut black, false, config)
    );
    let mut reason = match (r, b) {
        (Err(_), Err(_)) => Some(Outcome::NoGame),
        (Err(why), Ok(())) => Some(Outcome::Forfeit {
            loser: Color::Red,
            why,
        }),
        (Ok(()), Err(why)) => Some(Outcome::Forfeit {
            loser: Color::Black,
            why,
        }),
        (Ok(()), Ok(())) => None,
    };
    let mut last: Option<CellMove> = None;
    while reason.is_none() {
        let side = game.current().side_to_move();
        if let Some(end) = game.outcome() {
            reason = Some(end);
            break;
        }
        let news = match last.take() {
            None => Event::Begin,
            Some(m) => Event::Move(m),
        };
        let seat = match side {
            Color::Red => &mut red,
            Color::Black => &mut black,
        };
        match ask(seat, &game, news, config).await {
            Ok(mv) => {
                let pos = *game.current();
                // Tell the other side in its own cells; the standard start has only dark cells.
                last = encode_move(&pos, mv, side.opponent()).ok();
                if game.play(mv).is_err() {
                    reason = Some(Outcome::Forfeit {
                        loser: side,
                        why: Forfeit::Illegal(format!("illegal move: {mv:?}")),
                    });
                }
            }
            Err(why) => reason = Some(Outcome::Forfeit { loser: side, why }),
        }
    }
    let outcome = reason.unwrap_or(Outcome::NoGame);
    let end = Turn {
        deadline_us: deadline_us(config.move_time),
        event: Event::End(EndCode::for_winner(outcome.winner())),
    }
    .to_string();
    let (_, _) = tokio::join!(
        tell_end(&mut red, &end, config),
        tell_end(&mut black, &end, config)
    );
    GameRecord {
        id,
        red: names.0,
        black: names.1,
        mode,
        moves: game.moves().to_vec(),
        outcome,
    }
}

/// Sends the end of the game to a client seat and closes it; a client that is gone is not
/// waited for.
async fn tell_end(seat: &mut Seat, line: &str, config: &ServerConfig) {
    if let Seat::Remote(conn) = seat {
        let _ = conn.write_line(line, config.write_timeout).await;
        conn.close(config.write_timeout).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::spec::PlayerSpec;

    #[tokio::test]
    async fn a_game_between_built_in_players_ends_by_the_rules() {
        let config = ServerConfig::default();
        for seed in 1..4 {
            let red: PlayerSpec = "minimax:2".parse().unwrap();
            let black = PlayerSpec::Random { seed };
            let record = play_game(
                seed,
                "test".into(),
                Seat::Builtin(red.build(0)),
                Seat::Builtin(black.build(0)),
                &config,
            )
            .await;
            assert_eq!(record.red, "built-in minimax:2");
            // Every move was legal, and the game ended where the record says.
            let game = Game::from_moves(
                crate::rules::position::Position::start(),
                DrawRule::Dd2380,
                &record.moves,
            )
            .unwrap();
            let end = game.outcome().expect("the game is over");
            assert_eq!(record.outcome, end);
            assert_eq!(record.code(), EndCode::for_winner(end.winner()));
        }
    }
}
