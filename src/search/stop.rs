//! A flag that stops a search from outside, beside its deadline and node budget: set from
//! another thread (a Ctrl-C handler, a GUI's stop button), read wherever the deadline is read.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A shared stop flag: clones share one flag. A search given one ends as if its deadline had
/// passed once the flag is set, and a flag stays set. The default flag is never set by anyone
/// else, so a search given none runs as before.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A flag not set.
    #[must_use]
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Sets the flag: every search holding a clone stops at its next look at the clock.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is set.
    #[must_use]
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Whether the flag is set or `deadline`, if any, has passed: the one look at the clock of
    /// every search.
    #[must_use]
    pub fn is_set_or_past(&self, deadline: Option<Instant>) -> bool {
        self.is_set() || deadline.is_some_and(|d| Instant::now() >= d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag() {
        let a = Stop::new();
        let b = a.clone();
        assert!(!b.is_set());
        a.stop();
        assert!(b.is_set());
        assert!(!Stop::default().is_set());
    }
}
