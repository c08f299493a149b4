//! The DD2380 game server, on tokio, built like tokio's mini-redis: a [`listener`] that accepts
//! under a connection cap and hands each socket to a task, a [`connection`] that frames lines
//! with a length cap and deadlines, a [`lobby`] that pairs clients by key, a game [`session`]
//! that referees one game, the game [`record`] written as PDN, and a [`shutdown`] signal.
//!
//! Clients ask for `MODE STANDALONE` (a game against the built-in player,
//! [`ServerConfig::opponent`]) or `MODE KEY key` / `MODE GAME key` (a game against the other
//! client with the same key). Who moves first is drawn at random. Every move is checked against
//! the rules; a late answer, a garbled line, an illegal move or a disconnection loses the game
//! for that client, and both are told `-1 code`. Ctrl-C (or the caller's signal) stops accepting
//! connections; the games in progress play to their end.

pub mod connection;
pub mod listener;
pub mod lobby;
pub mod record;
pub mod session;
pub mod shutdown;

use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use crate::play::spec::PlayerSpec;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Time for each move, from the moment it is asked for.
    pub move_time: Duration,
    /// Time for a client to answer the initialisation with `INIT`.
    pub init_time: Duration,
    /// A reply this late after its deadline still counts (the server's own scheduling delay).
    pub grace: Duration,
    /// Time for a new connection to send its mode line.
    pub handshake_timeout: Duration,
    /// How long the first client with a key waits for the second.
    pub pair_timeout: Duration,
    /// Time for a line to be written to a client.
    pub write_timeout: Duration,
    /// Connections served at once; more wait in the listen queue.
    pub max_connections: usize,
    /// Longest line accepted from a client, in bytes.
    pub max_line: usize,
    /// The built-in player of standalone games.
    pub opponent: PlayerSpec,
    /// Where each finished game is written as PDN.
    pub log_dir: Option<PathBuf>,
    /// Seed of the draw for who moves first; `None` for a seed from the operating system.
    pub seed: Option<u64>,
    /// Whether to write what happens to standard error.
    pub verbose: bool,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            move_time: Duration::from_secs(10),
            init_time: Duration::from_secs(20),
            grace: Duration::from_millis(50),
            handshake_timeout: Duration::from_secs(30),
            pair_timeout: Duration::from_secs(120),
            write_timeout: Duration::from_secs(5),
            max_connections: 1024,
            max_line: 256,
            opponent: PlayerSpec::Minimax { depth: 2 },
            log_dir: None,
            seed: None,
            verbose: true,
        }
    }
}

/// What the server did, when it stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerSummary {
    /// Connections accepted.
    pub connections: u64,
    /// Games played to their end.
    pub games: u64,
}

/// A line on standard error when the server is verbose; a closed standard error is ignored.
fn note(config: &ServerConfig, text: &str) {
    if config.verbose {
        let _ = writeln!(std::io::stderr(), "server: {text}");
    }
}

/// A seed from the operating system's randomness (through the standard library's hasher keys).
fn os_seed() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(u64::from(std::process::id()));
    h.finish()
}

/// Serves on `listener` (already bound; it is made non-blocking) until `stop` completes, then
/// waits for the games in progress and returns. Runs its own multi-threaded tokio runtime, so
/// the caller need not have one.
pub fn run(
    listener: std::net::TcpListener,
    config: ServerConfig,
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<ServerSummary> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let (trigger, shutdown) = shutdown::channel();
        tokio::spawn(async move {
            stop.await;
            trigger.fire();
        });
        let seed = config.seed.unwrap_or_else(os_seed);
        Ok(listener::serve(listener, config, seed, shutdown).await)
    })
}
