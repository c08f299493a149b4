//! The DD2380 client: connects to a game server, asks for a game, and plays it with any
//! [`Player`] (the engine by default), answering every move before the server's deadline.
//!
//! The time for a move is worked out once, when the server's line arrives: the server's deadline
//! minus the wall clock then, capped by [`ClientOptions::max_move_time`], less a safety margin.
//! From then on only the monotonic clock counts, so a wall clock that is stepped while the engine
//! thinks does not make the answer late. (A wall clock that is skewed against the server's cannot
//! be told from a long deadline; the cap bounds the harm.)
//!
//! Blocking std sockets suffice: one game, one connection, one move at a time. Every failure is
//! a [`ClientError`] naming what was received or what went wrong; nothing panics on the
//! server's input.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use thiserror::Error;

use crate::formats::board_text::format_board;
use crate::formats::notation::move_text;
use crate::play::clock::Clock;
use crate::play::player::{Player, PlayerError};
use crate::protocols::dd2380::{
    self, decode_move, encode_move, parse_server_init, parse_turn, EndCode, Event, LineError, Mode,
    MoveError, Verdict,
};
use crate::rules::draw::DrawRule;
use crate::rules::game::Game;
use crate::rules::piece::Color;

/// How the client plays.
#[derive(Clone, Debug)]
pub struct ClientOptions {
    /// What to ask the server for.
    pub mode: Mode,
    /// Kept free before every deadline (besides a tenth of the time, whichever is larger), for
    /// the network and the scheduler.
    pub margin: Duration,
    /// Never think longer than this on a move, whatever the deadline says.
    pub max_move_time: Option<Duration>,
    /// Give up when the server says nothing for this long (pairing can take a while).
    pub read_timeout: Duration,
    /// Give up on connecting after this long.
    pub connect_timeout: Duration,
}

impl Default for ClientOptions {
    fn default() -> ClientOptions {
        ClientOptions {
            mode: Mode::Standalone,
            margin: Duration::from_millis(100),
            max_move_time: None,
            read_timeout: Duration::from_secs(300),
            connect_timeout: Duration::from_secs(10),
        }
    }
}

/// How a game went, for the client.
#[derive(Clone, Debug)]
pub struct ClientOutcome {
    /// Whether the client moved first (played red).
    pub first: bool,
    /// What the server said at the end.
    pub end: EndCode,
    /// The result for the client.
    pub verdict: Verdict,
    /// The game as the client saw it (the moves since the last restart, see [`Game::resumed`]).
    pub game: Game,
    /// Plies played in the whole game.
    pub plies: usize,
    /// For each of our moves the server answered: the time from sending it to the server's
    /// next line (the opponent's move or the end), as this client measured it.
    pub reply_times: Vec<Duration>,
}

/// Longest line accepted from the server (a 12-jump capture with its deadline is under 60 bytes).
pub const MAX_LINE: usize = 1024;

/// Why the client stopped without a finished game.
#[derive(Debug, Error)]
pub enum ClientError {
    /// The server could not be reached.
    #[error("cannot connect to {addr}: {source}")]
    Connect {
        /// The address tried.
        addr: String,
        /// Why it failed.
        source: io::Error,
    },
    /// The connection failed while reading or writing.
    #[error("connection lost while {doing}: {source}")]
    Io {
        /// What the client was doing.
        doing: &'static str,
        /// Why it failed.
        source: io::Error,
    },
    /// The server closed the connection before the game ended.
    #[error("the server closed the connection while we waited for {expecting}")]
    Closed {
        /// What the client waited for.
        expecting: &'static str,
    },
    /// The server said nothing for too long.
    #[error("no line from the server for {0:?} while we waited for {1}")]
    Timeout(Duration, &'static str),
    /// The server sent a line longer than [`MAX_LINE`].
    #[error("the server sent a line of more than {MAX_LINE} bytes while we waited for {0}")]
    LineTooLong(&'static str),
    /// The server sent bytes that are not text.
    #[error("the server sent a line that is not UTF-8 text while we waited for {0}: {1:?}")]
    NotText(&'static str, String),
    /// A line the protocol does not allow.
    #[error("malformed line from the server while we waited for {expecting}: {source}")]
    Malformed {
        /// What the client waited for.
        expecting: &'static str,
        /// What is wrong with the line.
        source: LineError,
    },
    /// A well-formed line that makes no sense at this point of the game.
    #[error("unexpected line from the server: `{line}`: {why}")]
    Unexpected {
        /// The line.
        line: String,
        /// Why it does not fit.
        why: &'static str,
    },
    /// The server reported an opponent's move that is not legal on the client's board.
    #[error("the server's line `{line}` has an illegal move: {source}")]
    IllegalMove {
        /// The line.
        line: String,
        /// Why the move is illegal.
        source: MoveError,
    },
    /// The player gave no usable move.
    #[error("our player gave no move: {0}")]
    Player(PlayerError),
}

/// Connects to `host`:`port`, plays one game with `player` and returns how it ended. Moves and
/// boards go to `log`.
pub fn connect_and_play(
    host: &str,
    port: u16,
    options: &ClientOptions,
    player: &mut dyn Player,
    log: &mut dyn Write,
) -> Result<ClientOutcome, ClientError> {
    let addr = format!("{host}:{port}");
    let connect_err = |source| ClientError::Connect {
        addr: addr.clone(),
        source,
    };
    let addrs: Vec<_> = (host, port)
        .to_socket_addrs()
        .map_err(connect_err)?
        .collect();
    let mut last = io::Error::new(io::ErrorKind::NotFound, "the host name has no address");
    let mut stream = None;
    for a in addrs {
        match TcpStream::connect_timeout(&a, options.connect_timeout) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = e,
        }
    }
    let stream = stream.ok_or_else(|| connect_err(last))?;
    let io_err = |source| ClientError::Io {
        doing: "setting up the connection",
        source,
    };
    stream.set_nodelay(true).map_err(io_err)?;
    stream
        .set_read_timeout(Some(options.read_timeout))
        .map_err(io_err)?;
    stream
        .set_write_timeout(Some(options.read_timeout))
        .map_err(io_err)?;
    let reader = BufReader::new(stream.try_clone().map_err(io_err)?);
    play(reader, stream, options, player, log)
}

/// Microseconds since the Unix epoch, by the wall clock.
fn now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
}

/// Reads the server's lines with a length cap.
struct Lines<R> {
    reader: R,
    timeout: Duration,
}

impl<R: BufRead> Lines<R> {
    /// The next line, without its line end, and when it arrived.
    fn next(&mut self, expecting: &'static str) -> Result<(String, Instant, u64), ClientError> {
        let mut buf = Vec::new();
        let n = (&mut self.reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| match e.kind() {
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => {
                    ClientError::Timeout(self.timeout, expecting)
                }
                _ => ClientError::Io {
                    doing: "reading from the server",
                    source: e,
                },
            })?;
        let arrived = (Instant::now(), now_us());
        if n == 0 {
            return Err(ClientError::Closed { expecting });
        }
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            return Err(ClientError::LineTooLong(expecting));
        }
        while matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        match String::from_utf8(buf) {
            Ok(line) => Ok((line, arrived.0, arrived.1)),
            Err(e) => Err(ClientError::NotText(
                expecting,
                String::from_utf8_lossy(e.as_bytes())
                    .chars()
                    .take(80)
                    .collect(),
            )),
        }
    }
}

/// Writes one line and flushes it.
fn send(writer: &mut impl Write, line: &str) -> Result<(), ClientError> {
    writer
        .write_all(format!("{line}\n").as_bytes())
        .and_then(|()| writer.flush())
        .map_err(|source| ClientError::Io {
            doing: "sending to the server",
            source,
        })
}

/// A log line; a log that cannot be written is not worth stopping the game for.
fn note(log: &mut dyn Write, text: &str) {
    let _ = writeln!(log, "{text}");
}

/// How long the player may think on a move whose deadline is `deadline_us`, the line having
/// arrived at wall time `arrived_us`.
#[must_use]
pub fn move_allowance(deadline_us: u64, arrived_us: u64, options: &ClientOptions) -> Duration {
    let mut left = Duration::from_micros(deadline_us.saturating_sub(arrived_us));
    if let Some(cap) = options.max_move_time {
        left = left.min(cap);
    }
    left.saturating_sub(options.margin.max(left / 10))
}

/// Plays one game over an established connection: sends the mode, initialises, then answers
/// every server line until the server ends the game.
pub fn play<R: BufRead, W: Write>(
    reader: R,
    mut writer: W,
    options: &ClientOptions,
    player: &mut dyn Player,
    log: &mut dyn Write,
) -> Result<ClientOutcome, ClientError> {
    let mut lines = Lines {
        reader,
        timeout: options.read_timeout,
    };
    send(&mut writer, &options.mode.to_string())?;
    note(log, &format!("sent `{}`", options.mode));

    let (line, _, _) = lines.next("the initialisation (`time first`)")?;
    let init = parse_server_init(&line).map_err(|source| ClientError::Malformed {
        expecting: "the initialisation (`time first`)",
        source,
    })?;
    let us = if init.first { Color::Red } else { Color::Black };
    note(
        log,
        &format!(
            "received `{line}`: we move {} and play {} (red starts at the bottom of the boards below)",
            if init.first { "first" } else { "second" },
            us.name()
        ),
    );
    player.new_game();
    let mut game = Game::standard(DrawRule::Dd2380);
    let mut plies = 0usize;
    send(&mut writer, dd2380::INIT)?;

    let expecting = "the next move or the end of the game";
    let mut begun = false;
    let mut reply_times = Vec::new();
    let mut sent_at: Option<Instant> = None;
    loop {
        let (line, arrived, arrived_us) = lines.next(expecting)?;
        if let Some(sent) = sent_at.take() {
            reply_times.push(arrived.saturating_duration_since(sent));
        }
        let turn =
            parse_turn(&line).map_err(|source| ClientError::Malformed { expecting, source })?;
        match turn.event {
            Event::End(end) => {
                let verdict = end.verdict(init.first);
                note(
                    log,
                    &format!("received `{line}`: the game is over after {plies} plies"),
                );
                return Ok(ClientOutcome {
                    first: init.first,
                    end,
                    verdict,
                    game,
                    plies,
                    reply_times,
                });
            }
            Event::Begin => {
                if !init.first || begun || plies > 0 {
                    return Err(ClientError::Unexpected {
                        line,
                        why: "the game can begin only once, for the player who moves first",
                    });
                }
                begun = true;
            }
            Event::Move(wire) => {
                let pos = *game.current();
                if pos.side_to_move() == us {
                    return Err(ClientError::Unexpected {
                        line,
                        why: "an opponent's move when it is our turn",
                    });
                }
                let mv =
                    decode_move(&pos, &wire, us).map_err(|source| ClientError::IllegalMove {
                        line: line.clone(),
                        source,
                    })?;
                note(
                    log,
                    &format!(
                        "ply {}: {} (opponent) plays `{wire}` ({})",
                        plies + 1,
                        pos.side_to_move().name(),
                        move_text(&pos, mv)
                    ),
                );
                play_into(&mut game, mv);
                plies += 1;
                begun = true;
                note(log, &format_board(game.current()));
            }
        }
        if game.current().side_to_move() != us {
            return Err(ClientError::Unexpected {
                line,
                why: "asked to move when it is the opponent's turn",
            });
        }
        if game.legal_moves().is_empty() {
            note(
                log,
                "we have no legal move; waiting for the server to end the game",
            );
            continue;
        }
        let allowance = move_allowance(turn.deadline_us, arrived_us, options);
        if turn.deadline_us <= arrived_us {
            note(
                log,
                "the deadline has already passed by our clock (skewed clocks?): answering at once",
            );
        }
        let clock = Clock::deadline(allowance.saturating_sub(arrived.elapsed()));
        let mv = player.choose(&game, &clock).map_err(ClientError::Player)?;
        let pos = *game.current();
        if !game.legal_moves().contains(&mv) {
            return Err(ClientError::Player(PlayerError::Illegal(move_text(
                &pos, mv,
            ))));
        }
        let wire = encode_move(&pos, mv, us).map_err(|e| {
            ClientError::Player(PlayerError::Failed(format!("cannot encode the move: {e}")))
        })?;
        send(&mut writer, &wire.to_string())?;
        sent_at = Some(Instant::now());
        note(
            log,
            &format!(
                "ply {}: {} (we) play `{wire}` ({}) after {} ms of {} ms",
                plies + 1,
                us.name(),
                move_text(&pos, mv),
                arrived.elapsed().as_millis(),
                allowance.as_millis()
            ),
        );
        play_into(&mut game, mv);
        plies += 1;
        note(log, &format_board(game.current()));
    }
}

/// Plays a legal move into `game`. When the game already counts as over by our draw rule (the
/// server may not apply threefold repetition) it goes on from the current position.
fn play_into(game: &mut Game, mv: crate::rules::moves::Move) {
    if game.play(mv).is_err() {
        let mut resumed = Game::resumed(*game.current(), game.draw_rule(), game.quiet_plies());
        // The move was checked against the legal moves, so only the end of the game can refuse
        // it, and a resumed game has no history to end it.
        if resumed.play(mv).is_ok() {
            *game = resumed;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::player::MinimaxPlayer;

    /// A player that replays fixed moves given in the client's cells.
    struct Scripted(Vec<&'static str>, Color);

    impl Player for Scripted {
        fn name(&self) -> String {
            "scripted".into()
        }
        fn choose(
            &mut self,
            game: &Game,
            _clock: &Clock,
        ) -> Result<crate::rules::moves::Move, PlayerError> {
            let text = self.0.remove(0);
            let wire =
                dd2380::parse_client_move(text).map_err(|e| PlayerError::Failed(e.to_string()))?;
            decode_move(game.current(), &wire, self.1)
                .map_err(|e| PlayerError::Failed(e.to_string()))
        }
    }

    fn run(server: &str, player: &mut dyn Player) -> (Result<ClientOutcome, ClientError>, String) {
        let mut sent = Vec::new();
        let mut log = Vec::new();
        let result = play(
            server.as_bytes(),
            &mut sent,
            &ClientOptions::default(),
            player,
            &mut log,
        );
        (result, String::from_utf8(sent).unwrap())
    }

    #[test]
    fn replays_the_assignment_example() {
        // The DD2380 assignment's example exchange; its last server line is the end, code 1.
        let far = now_us() + 60_000_000;
        let server = format!("{far} 1\n{far} -2\n{far} 0 22 17\n{far} 1 25 18\n{far} -1 1\n");
        let mut player = Scripted(vec!["0 9 13", "1 13 22", "0 8 12"], Color::Red);
        let (result, sent) = run(&server, &mut player);
        let outcome = result.unwrap();
        assert_eq!(sent, "MODE STANDALONE\nINIT\n0 9 13\n1 13 22\n0 8 12\n");
        assert!(outcome.first);
        assert_eq!(outcome.end, EndCode::FirstWon);
        assert_eq!(outcome.verdict, Verdict::Won);
        assert_eq!(outcome.plies, 5);
    }

    #[test]
    fn plays_second_with_the_engine_and_reads_the_end_relative_to_itself() {
        let far = now_us() + 60_000_000;
        // We are second: the first server line after INIT is red's 0 9 13 in black's cells.
        let server = format!("{far} 0\n{far} 0 22 18\n{far} -1 1\n");
        let (result, sent) = run(&server, &mut MinimaxPlayer::new(2));
        let outcome = result.unwrap();
        assert!(!outcome.first);
        assert_eq!(outcome.verdict, Verdict::Lost);
        let answer = sent.lines().nth(2).unwrap();
        // The answer is a legal black move, in black's cells, checked on the board.
        let pos = outcome.game.positions()[1];
        let wire = dd2380::parse_client_move(answer).unwrap();
        assert!(decode_move(&pos, &wire, Color::Black).is_ok(), "{answer}");
    }

    #[test]
    fn bad_server_lines_are_errors_naming_the_line() {
        let far = now_us() + 60_000_000;
        let cases = [
            (String::new(), "closed the connection"),
            ("hello\n".to_owned(), "`hello`"),
            (format!("{far} 1\n"), "closed the connection"),
            (format!("{far} 1\n{far} 0 22 17\n"), "our turn"),
            (format!("{far} 0\n{far} -2\n"), "begin only once"),
            (format!("{far} 0\n{far} 0 9 13\n"), "illegal move"),
            (format!("{far} 0\n{far} 0 22 18 7\n"), "0 22 18 7`"),
            (format!("{far} 1\n{far} -1 9\n"), "end code"),
            (format!("{far} 1\n{}\n", "7".repeat(2000)), "more than"),
        ];
        for (server, needle) in cases {
            let (result, _) = run(&server, &mut MinimaxPlayer::new(1));
            let err = result.unwrap_err().to_string();
            assert!(err.contains(needle), "{server:?}: {err}");
        }
    }

    #[test]
    fn the_allowance_keeps_a_margin_and_the_cap() {
        let o = ClientOptions::default();
        let a = move_allowance(10_000_000, 0, &o);
        assert_eq!(a, Duration::from_secs(9));
        let a = move_allowance(500_000, 0, &o);
        assert_eq!(a, Duration::from_millis(400));
        assert_eq!(move_allowance(5, 10, &o), Duration::ZERO);
        let capped = ClientOptions {
            max_move_time: Some(Duration::from_secs(2)),
            ..o
        };
        assert_eq!(
            move_allowance(10_000_000, 0, &capped),
            Duration::from_millis(1800)
        );
    }
}
