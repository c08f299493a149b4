//! `checkers client HOST PORT [KEY]`: play one DD2380 game against a server with the engine.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

use checkers::net::client::{connect_and_play, ClientOptions};
use checkers::play::spec::PlayerSpec;
use checkers::protocols::dd2380::{EndCode, Mode, Verdict};

use super::output;

/// Arguments of `client`.
#[derive(Debug, Args)]
pub struct ClientArgs {
    /// The server's host name or address.
    pub host: String,

    /// The server's port.
    pub port: u16,

    /// Play the other client that gives this key (sent as `MODE GAME KEY`, as the course's
    /// clients do); without a key, play the server's built-in player (`MODE STANDALONE`).
    pub key: Option<String>,

    /// Send the key as `MODE KEY KEY` instead of `MODE GAME KEY`.
    #[arg(long, requires = "key")]
    pub mode_key: bool,

    /// Who plays: `engine`, `engine:time=0.5`, `minimax:4`, `random`...
    #[arg(long, default_value = "engine", value_name = "SPEC")]
    pub player: PlayerSpec,

    /// Think at most this many seconds on a move, whatever the server's deadline allows.
    #[arg(long, value_name = "SECONDS", value_parser = super::server::parse_seconds)]
    pub max_move_time: Option<Duration>,

    /// Milliseconds kept free before each deadline (at least a tenth of the time is kept anyway).
    #[arg(long, default_value_t = 100, value_name = "MS")]
    pub margin: u64,

    /// Give up when the server says nothing for this many seconds.
    #[arg(long, default_value = "300", value_name = "SECONDS", value_parser = super::server::parse_seconds)]
    pub read_timeout: Duration,

    /// Write the game log (moves and boards) to this file instead of standard error.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

/// Plays the game and says who won: exit 0 when the game ended (won, lost or drawn), 1 when it
/// could not be played to its end.
pub fn run(args: &ClientArgs) -> Result<ExitCode> {
    let mode = match (&args.key, args.mode_key) {
        (None, _) => Mode::Standalone,
        (Some(k), false) => Mode::Game(k.clone()),
        (Some(k), true) => Mode::Key(k.clone()),
    };
    let options = ClientOptions {
        mode,
        margin: Duration::from_millis(args.margin),
        max_move_time: args.max_move_time,
        read_timeout: args.read_timeout,
        ..ClientOptions::default()
    };
    let mut log: Box<dyn Write> = match &args.log {
        Some(path) => Box::new(BufWriter::new(
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(io::stderr()),
    };
    let mut player = args.player.build(0);
    let outcome = connect_and_play(&args.host, args.port, &options, player.as_mut(), &mut log);
    let _ = log.flush();
    let outcome = outcome?;
    let seat = if outcome.first { "first" } else { "second" };
    let code = match outcome.end {
        EndCode::FirstWon => "the first player won",
        EndCode::SecondWon => "the second player won",
        EndCode::Draw => "a draw",
    };
    let verdict = match outcome.verdict {
        Verdict::Won => "we won",
        Verdict::Lost => "we lost",
        Verdict::Draw => "draw",
    };
    output::println(&format!(
        "{verdict}: the server ended the game after {} plies with code {} ({code}); we moved {seat}",
        outcome.plies,
        outcome.end.code()
    ))?;
    Ok(ExitCode::SUCCESS)
}
