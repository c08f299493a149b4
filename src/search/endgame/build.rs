//! Building one whole class of a database, and what every retrograde analysis shares: when to
//! give up, and the values of the classes captures and crownings lead to.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::pieces::Material;
use super::retro::Layout;
use super::table::Table;
use super::{BuildError, EndgameDb};

/// What makes a build give up: a deadline, read between the passes and in every task of a pass,
/// with the flag that tells the other tasks once one has seen it pass; and a look-up into a
/// smaller class that is not built. A build that gives up leaves nothing behind, so the classes
/// held are always complete.
#[derive(Debug, Default)]
pub(super) struct Guard {
    deadline: Option<Instant>,
    hit: AtomicBool,
    missing: AtomicBool,
}

impl Guard {
    pub(super) fn until(deadline: Option<Instant>) -> Guard {
        Guard {
            deadline,
            hit: AtomicBool::new(false),
            missing: AtomicBool::new(false),
        }
    }

    /// Whether the build must stop now (the deadline has passed, here or in another task).
    pub(super) fn stop(&self) -> bool {
        if self.hit.load(Ordering::Relaxed) {
            return true;
        }
        let passed = self.deadline.is_some_and(|d| Instant::now() >= d);
        if passed {
            self.hit.store(true, Ordering::Relaxed);
        }
        passed
    }

    /// Notes that a look-up found a class missing (the build must fail).
    pub(super) fn note_missing(&self) {
        self.missing.store(true, Ordering::Relaxed);
    }

    /// Whether a look-up found a class missing (the build must fail).
    pub(super) fn found_missing(&self) -> bool {
        self.missing.load(Ordering::Relaxed)
    }
}

/// The list of positions at `distance`, the lists growing as far as needed.
pub(super) fn at(lists: &mut Vec<Vec<u32>>, distance: usize) -> &mut Vec<u32> {
    if lists.len() <= distance {
        lists.resize_with(distance + 1, Vec::new);
    }
    &mut lists[distance]
}

/// The best result over some of a position's moves.
#[derive(Clone, Copy, Debug)]
pub(super) struct Outcome {
    /// Plies of the fastest win found.
    pub(super) best_win: Option<usize>,
    /// Plies of the slowest loss found (0 when none).
    pub(super) longest_loss: usize,
    /// Whether some move leads to a draw.
    pub(super) draw: bool,
}

impl Outcome {
    pub(super) const NONE: Outcome = Outcome {
        best_win: None,
        longest_loss: 0,
        draw: false,
    };

    /// Adds a move into a position (the opponent to move) of stored value `raw`.
    pub(super) fn add(&mut self, raw: u16) {
        match raw {
            0 => self.draw = true,
            v if (v - 1) % 2 == 0 => {
                let plies = usize::from(v);
                self.best_win = Some(self.best_win.map_or(plies, |b| b.min(plies)));
            }
            v => self.longest_loss = self.longest_loss.max(usize::from(v)),
        }
    }

    /// The value when these are all the moves: plies to the end, `None` for a draw.
    pub(super) fn value(self) -> Option<usize> {
        match (self.best_win, self.draw) {
            (Some(w), _) => Some(w),
            (None, true) => None,
            (None, false) => Some(self.longest_loss),
        }
    }
}

impl EndgameDb {
    /// Retrograde analysis of one class (see `retro`), the classes its captures and crownings
    /// lead to being built.
    ///
    /// Fails when `guard` says to stop, and when a class a capture or a crowning leads to is not
    /// built (a caller's bug that would otherwise read those positions as draws).
    pub(super) fn build(&self, class: Material, guard: &Guard) -> Result<Table, BuildError> {
        if let Some(missing) = class
            .reachable()
            .into_iter()
            .find(|c| *c != class && !self.classes.contains_key(c))
        {
            return Err(BuildError::MissingClass(missing.to_string()));
        }
        self.analyse(class, &Layout::whole(class), guard)
            .map(Table::Bytes)
    }
}

/// Concatenates two lists of lists, index by index.
pub(super) fn merge(mut a: Vec<Vec<u32>>, b: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    if a.len() < b.len() {
        a.resize_with(b.len(), Vec::new);
    }
    for (into, from) in a.iter_mut().zip(b) {
        into.extend(from);
    }
    a
}
