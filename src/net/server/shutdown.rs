//! The server's shutdown signal: one small type every task can wait on.
//!
//! The listener flips it when Ctrl-C (or the caller's own signal) arrives. Tasks that wait for
//! something that may never come (a mode line, a partner) give up when it flips; games in
//! progress do not listen to it and play to their end.

use tokio::sync::watch;

/// A receiver of the shutdown signal.
#[derive(Clone, Debug)]
pub struct Shutdown {
    rx: watch::Receiver<bool>,
}

/// The sending side, held by the listener.
#[derive(Debug)]
pub struct Trigger {
    tx: watch::Sender<bool>,
}

/// A new signal, not yet given.
#[must_use]
pub fn channel() -> (Trigger, Shutdown) {
    let (tx, rx) = watch::channel(false);
    (Trigger { tx }, Shutdown { rx })
}

impl Trigger {
    /// Gives the signal to every [`Shutdown`].
    pub fn fire(&self) {
        self.tx.send_replace(true);
    }
}

impl Shutdown {
    /// Whether the signal was given.
    #[must_use]
    pub fn is_shutdown(&self) -> bool {
        *self.rx.borrow()
    }

    /// Waits until the signal is given (at once if it already was). If the trigger is dropped
    /// without firing, waits forever: the listener holds it until it fires.
    pub async fn recv(&mut self) {
        if self.rx.wait_for(|&down| down).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
