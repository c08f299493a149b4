//! The listener: accepts connections under a cap, hands each to a handler task, and stops
//! accepting at shutdown while the games in progress finish.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{mpsc, Semaphore};
use tokio::time::Instant;

use crate::play::player::SplitMix64;
use crate::protocols::dd2380::{parse_mode, Mode};

use super::connection::Connection;
use super::lobby::{Lobby, Paired};
use super::session::{play_game, Seat};
use super::shutdown::Shutdown;
use super::{note, ServerConfig, ServerSummary};

/// What every handler shares.
struct Shared {
    config: ServerConfig,
    lobby: Lobby,
    next_game: AtomicU64,
    finished: AtomicU64,
    rng: Mutex<SplitMix64>,
}

impl Shared {
    /// A fair coin from the server's generator: whether the first connection of a pair (or the
    /// client in a standalone game) moves first.
    fn coin(&self) -> bool {
        self.rng.lock().map_or(true, |mut r| r.next_u64() & 1 == 1)
    }
}

/// Accepts connections until `shutdown` fires, then waits for every game to finish.
pub async fn serve(
    listener: TcpListener,
    config: ServerConfig,
    seed: u64,
    mut shutdown: Shutdown,
) -> ServerSummary {
    let shared = Arc::new(Shared {
        lobby: Lobby::default(),
        next_game: AtomicU64::new(1),
        finished: AtomicU64::new(0),
        rng: Mutex::new(SplitMix64::new(seed)),
        config,
    });
    let slots = Arc::new(Semaphore::new(shared.config.max_connections.max(1)));
    // Every handler holds a sender; when all are dropped, every game is over.
    let (done_tx, mut done_rx) = mpsc::channel::<()>(1);
    let mut connections = 0u64;
    let mut backoff = Duration::from_millis(10);
    loop {
        let permit = tokio::select! {
            p = slots.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            () = shutdown.recv() => break,
        };
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = shutdown.recv() => break,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => {
                backoff = Duration::from_millis(10);
                pair
            }
            Err(e) => {
                // Out of descriptors or a transient network error: wait a little and go on.
                note(
                    &shared.config,
                    &format!("accept failed: {e}; retrying in {backoff:?}"),
                );
                tokio::select! {
                    () = tokio::time::sleep(backoff) => {},
                    () = shutdown.recv() => break,
                }
                backoff = (backoff * 2).min(Duration::from_secs(1));
                continue;
            }
        };
        connections += 1;
        let conn = Connection::new(stream, peer, shared.config.max_line, Some(permit));
        let shared = Arc::clone(&shared);
        let done = done_tx.clone();
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            handle(conn, &shared, shutdown).await;
            drop(done);
        });
    }
    drop(listener);
    drop(done_tx);
    note(
        &shared.config,
        "no longer accepting connections; waiting for the games in progress",
    );
    let _ = done_rx.recv().await;
    ServerSummary {
        connections,
        games: shared.finished.load(Ordering::Relaxed),
    }
}

/// Reads a client's mode, finds its game, and plays it.
async fn handle(mut conn: Connection, shared: &Shared, mut shutdown: Shutdown) {
    let config = &shared.config;
    let peer = conn.peer();
    let deadline = Instant::now() + config.handshake_timeout;
    let line = tokio::select! {
        l = conn.read_line(deadline) => l,
        () = shutdown.recv() => return,
    };
    let mode = match line
        .map_err(|e| e.to_string())
        .and_then(|l| parse_mode(&l).map_err(|e| e.to_string()))
    {
        Ok(mode) => mode,
        Err(e) => {
            note(config, &format!("{peer}: no valid mode line: {e}"));
            conn.close(config.write_timeout).await;
            return;
        }
    };
    let (red, black, label) = match &mode {
        Mode::Standalone => {
            let builtin = Seat::Builtin(
                config
                    .opponent
                    .build(shared.next_game.load(Ordering::Relaxed)),
            );
            let client = Seat::Remote(Box::new(conn));
            let (red, black) = if shared.coin() {
                (client, builtin)
            } else {
                (builtin, client)
            };
            (red, black, "standalone".to_owned())
        }
        Mode::Key(key) | Mode::Game(key) => {
            match shared
                .lobby
                .pair(key, conn, config.pair_timeout, &mut shutdown)
                .await
            {
                Paired::Play(waited, joined) => {
                    let (a, b) = (Seat::Remote(waited), Seat::Remote(joined));
                    let (red, black) = if shared.coin() { (a, b) } else { (b, a) };
                    (red, black, format!("key {key}"))
                }
                Paired::Handed => return,
                Paired::Alone(why) => {
                    note(config, &format!("{peer}: key `{key}`: {why}"));
                    return;
                }
            }
        }
    };
    let id = shared.next_game.fetch_add(1, Ordering::Relaxed);
    note(
        config,
        &format!(
            "game {id} ({label}) starts: {} against {}",
            red.name(),
            black.name()
        ),
    );
    let record = play_game(id, label, red, black, config).await;
    shared.finished.fetch_add(1, Ordering::Relaxed);
    note(
        config,
        &format!(
            "game {id} over after {} plies: {} (code {})",
            record.moves.len(),
            super::record::termination(&record.outcome),
            record.code().code()
        ),
    );
    if let Some(dir) = &config.log_dir {
        let dir = dir.clone();
        let written = tokio::task::spawn_blocking(move || record.write_to(&dir)).await;
        match written {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => note(config, &format!("game {id}: cannot write its log: {e}")),
            Err(e) => note(config, &format!("game {id}: cannot write its log: {e}")),
        }
    }
}
