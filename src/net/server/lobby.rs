//! Pairing by key: the first client with a key waits, the second with the same key joins it.
//!
//! The waiting client's task keeps its connection and a one-shot receiver in which the partner's
//! connection arrives; it then runs the game. It gives up after the pairing timeout, when its
//! client sends anything or disconnects while waiting, or at shutdown.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::oneshot;

use super::connection::Connection;
use super::shutdown::Shutdown;

/// A client waiting for its partner.
struct Waiter {
    /// Which wait this is, so a late give-up never removes a newer waiter.
    ticket: u64,
    /// Where the partner's connection is sent.
    tx: oneshot::Sender<Connection>,
}

/// The clients waiting for a partner, by key.
#[derive(Default)]
pub struct Lobby {
    waiting: Mutex<HashMap<String, Waiter>>,
    tickets: std::sync::atomic::AtomicU64,
}

/// How a wait for a partner ended.
pub enum Paired {
    /// This task runs the game: the first connection waited, the second joined.
    Play(Box<Connection>, Box<Connection>),
    /// The connection went to a waiting partner, whose task runs the game.
    Handed,
    /// No partner came (or the client misbehaved while waiting, or the server is stopping).
    Alone(&'static str),
}

impl Lobby {
    /// Takes the waiter for `key`, if any.
    fn take(&self, key: &str) -> Option<Waiter> {
        self.waiting
            .lock()
            .map_or(None, |mut waiting| waiting.remove(key))
    }

    /// Pairs `conn` with the client that gave the same `key`, waiting up to `limit` for one.
    pub async fn pair(
        &self,
        key: &str,
        mut conn: Connection,
        limit: Duration,
        shutdown: &mut Shutdown,
    ) -> Paired {
        // Join a waiting partner, unless it gave up in the meantime.
        while let Some(waiter) = self.take(key) {
            match waiter.tx.send(conn) {
                Ok(()) => return Paired::Handed,
                Err(back) => conn = back,
            }
        }
        let ticket = self
            .tickets
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (tx, mut rx) = oneshot::channel();
        match self.waiting.lock() {
            Ok(mut waiting) => {
                waiting.insert(key.to_owned(), Waiter { ticket, tx });
            }
            Err(_) => return Paired::Alone("the lobby is unusable"),
        }
        let why = tokio::select! {
            partner = &mut rx => match partner {
                Ok(other) => return Paired::Play(Box::new(conn), Box::new(other)),
                Err(_) => "the pairing was dropped",
            },
            () = tokio::time::sleep(limit) => "no partner came in time",
            () = conn.readable_or_closed() => "the client spoke or disconnected while waiting",
            () = shutdown.recv() => "the server is shutting down",
        };
        if let Ok(mut waiting) = self.waiting.lock() {
            if waiting.get(key).is_some_and(|w| w.ticket == ticket) {
                waiting.remove(key);
            }
        }
        // A partner may have arrived while we gave up: then the game is on after all.
        match rx.try_recv() {
            Ok(other) => Paired::Play(Box::new(conn), Box::new(other)),
            Err(_) => Paired::Alone(why),
        }
    }
}
