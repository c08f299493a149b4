//! Building one whole class of a database, and what every retrograde analysis shares: when to
//! give up, and the values of the classes captures and crownings lead to.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::pieces::Material;
use crate::search::knobs::{KINGS_ONLY_WEIGHT, PACE_CLASS, PACE_MARGIN, PACE_SAMPLE};
use crate::search::stop::Stop;

/// What makes a build give up: a deadline, read between the passes and in every task of a pass,
/// with the flag that tells the other tasks once one has seen it pass; and a look-up into a
/// smaller class that is not built. A build that gives up leaves nothing behind, so the classes
/// held are always complete.
#[derive(Debug, Default)]
pub(super) struct Guard {
    deadline: Option<Instant>,
    hit: AtomicBool,
    missing: AtomicBool,
    /// Stops the build from outside, as the deadline does.
    stop: Stop,
}

impl Guard {
    pub(super) fn until(deadline: Option<Instant>) -> Guard {
        Guard {
            deadline,
            hit: AtomicBool::new(false),
            missing: AtomicBool::new(false),
            stop: Stop::default(),
        }
    }

    /// The same guard, also stopping once `stop` is set.
    pub(super) fn or(mut self, stop: &Stop) -> Guard {
        self.stop = stop.clone();
        self
    }

    /// Whether the build must stop now (the deadline has passed, here or in another task).
    pub(super) fn stop(&self) -> bool {
        if self.hit.load(Ordering::Relaxed) {
            return true;
        }
        let passed = self.stop.is_set_or_past(self.deadline);
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

/// The work of analysing `slots` index slots of `class`, in slots of a class with men
/// ([`KINGS_ONLY_WEIGHT`]).
pub(super) fn work(class: Material, slots: usize) -> usize {
    if class.men() == 0 {
        slots.saturating_mul(KINGS_ONLY_WEIGHT)
    } else {
        slots
    }
}

/// The speed of a sequence of class analyses, to give up as soon as the rest clearly cannot
/// finish by the guard's deadline at the speed measured so far (on a loaded machine, rather
/// than at the deadline, with the turn's time spent for nothing). Work is counted in slots
/// weighted by the kind of class ([`work`]).
#[derive(Debug)]
pub(super) struct Pace {
    /// Work and time of the large analyses finished.
    measured: usize,
    spent: Duration,
    /// Work not yet done.
    left: usize,
}

impl Pace {
    /// A sequence of analyses of `total` work ([`work`]).
    pub(super) fn new(total: usize) -> Pace {
        Pace {
            measured: 0,
            spent: Duration::ZERO,
            left: total,
        }
    }

    /// Notes that an analysis of `slots` index slots of `class`, begun at `began`, finished.
    pub(super) fn finished(&mut self, class: Material, slots: usize, began: Instant) {
        let done = work(class, slots);
        self.left = self.left.saturating_sub(done);
        if slots >= PACE_CLASS {
            self.measured += done;
            self.spent += began.elapsed();
        }
    }

    /// Whether the work left cannot be done before the guard's deadline at the speed measured
    /// so far, with [`PACE_MARGIN`] (once [`PACE_SAMPLE`] of large analyses' work is measured;
    /// never without a deadline).
    pub(super) fn hopeless(&self, guard: &Guard) -> bool {
        let Some(deadline) = guard.deadline else {
            return false;
        };
        if self.measured < PACE_SAMPLE || self.left == 0 {
            return false;
        }
        let per_unit = self.spent.as_secs_f64() / self.measured as f64;
        let needed = Duration::from_secs_f64(per_unit * self.left as f64 / PACE_MARGIN);
        Instant::now() + needed > deadline
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A sequence that analysed `measured` slots of large classes in a second, with `left` to
    /// go.
    fn measured(measured: usize, left: usize) -> Pace {
        Pace {
            measured,
            spent: Duration::from_secs(1),
            left,
        }
    }

    /// A class of three pieces, with men or of kings only.
    fn class_with_men(men: bool) -> Material {
        Material::all_up_to(3, 2)
            .into_iter()
            .find(|c| (c.men() > 0) == men)
            .expect("classes of both kinds")
    }

    #[test]
    fn a_sequence_gives_up_when_its_measured_speed_cannot_meet_the_deadline() {
        let in_a_minute = Guard::until(Some(Instant::now() + Duration::from_secs(60)));
        // Two million slots a second: a hundred more million need 50 s, 140 million 70 s (within
        // the margin), a billion 500 s.
        assert!(!measured(2_000_000, 100_000_000).hopeless(&in_a_minute));
        assert!(!measured(2_000_000, 140_000_000).hopeless(&in_a_minute));
        assert!(measured(2_000_000, 1_000_000_000).hopeless(&in_a_minute));
        // Without a deadline, or before enough is measured, it never gives up.
        assert!(!measured(2_000_000, 1_000_000_000).hopeless(&Guard::until(None)));
        assert!(!measured(1_000, 1_000_000_000).hopeless(&in_a_minute));
        // Small analyses count as done but not towards the speed.
        let with_men = class_with_men(true);
        let mut pace = Pace::new(3_000_000);
        pace.finished(with_men, 2_000, Instant::now());
        pace.finished(with_men, 2_000_000, Instant::now());
        assert_eq!((pace.measured, pace.left), (2_000_000, 998_000));
    }

    #[test]
    fn a_class_of_kings_only_counts_for_more_work_a_slot() {
        let kings = class_with_men(false);
        let with_men = class_with_men(true);
        assert_eq!(work(kings, 1_000_000), KINGS_ONLY_WEIGHT * 1_000_000);
        assert_eq!(work(with_men, 1_000_000), 1_000_000);
        // A kings-only class measured at 3 s for a million slots, a million slots with men
        // left: about a second's work, not three.
        let in_two_seconds = Guard::until(Some(Instant::now() + Duration::from_secs(2)));
        let mut pace = Pace::new(work(kings, 1_000_000) + work(with_men, 1_000_000));
        pace.finished(kings, 1_000_000, Instant::now());
        pace.spent = Duration::from_secs(3);
        assert_eq!(pace.left, 1_000_000);
        assert!(!pace.hopeless(&in_two_seconds));
    }
}
