//! Two searches of one question side by side, on two threads, with a result that does not
//! depend on their timing (issue 23: the backward pass's questions, df-pn beside the alpha-beta
//! proof).
//!
//! Each search counts its own work (df-pn's nodes charged as the proof search's,
//! `dfpn::NODE_WEIGHT`) and, at the points where it reads the clock,
//! reports how many checkpoints of [`CHECKPOINT`] nodes it has passed, then waits until the other
//! has passed as many or has finished. A search stops at its checkpoint `k` when the other
//! settled the question before passing `k` checkpoints of its own; otherwise it goes on to its
//! own end. Both searches are deterministic up to each checkpoint, and whether one stops there
//! depends only on the other's work up to the same checkpoint, so where each stops, and so the
//! table each leaves, does not depend on the threads' speed.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use crate::search::knobs::CHECKPOINT;

/// What one side has reported.
#[derive(Clone, Copy, Debug, Default)]
struct Lane {
    /// Checkpoints passed.
    passed: u64,
    /// It has finished, and (`settled`) with an answer.
    done: bool,
    settled: bool,
}

/// The two sides' reports.
#[derive(Debug, Default)]
struct Race {
    lanes: Mutex<[Lane; 2]>,
    changed: Condvar,
}

impl Race {
    fn lanes(&self) -> MutexGuard<'_, [Lane; 2]> {
        self.lanes.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One side of a race: its reports and when it must next report. It reports itself finished,
/// without an answer, when dropped before [`finish`](Runner::finish) (a search that unwound).
#[derive(Debug)]
pub(crate) struct Runner {
    race: Arc<Race>,
    side: usize,
    /// The side's count when the race began, and what one node counts (a df-pn node, twice).
    start: u64,
    weight: u64,
    /// The count of the next checkpoint.
    next: u64,
    finished: bool,
}

impl Runner {
    /// The two sides of a new race, whose searches' counts now stand at `starts`, with the
    /// weights of their nodes.
    #[must_use]
    pub(crate) fn pair(starts: [u64; 2], weights: [u64; 2]) -> [Runner; 2] {
        let race = Arc::new(Race::default());
        [0, 1].map(|side| Runner {
            race: Arc::clone(&race),
            side,
            start: starts[side],
            weight: weights[side].max(1),
            next: starts[side] + CHECKPOINT.div_ceil(weights[side].max(1)),
            finished: false,
        })
    }

    /// Called where the search reads the clock, its count at `count`: whether it must stop
    /// because the other side settled the question first. Waits, at a checkpoint, for the
    /// other side to pass it or finish.
    pub(crate) fn must_stop(&mut self, count: u64) -> bool {
        if count < self.next || self.finished {
            return false;
        }
        let passed = (count - self.start).saturating_mul(self.weight) / CHECKPOINT;
        self.next = self.start + ((passed + 1) * CHECKPOINT).div_ceil(self.weight);
        let mut lanes = self.race.lanes();
        lanes[self.side].passed = passed;
        self.race.changed.notify_all();
        loop {
            let other = lanes[1 - self.side];
            if other.done {
                return other.settled && other.passed < passed;
            }
            if other.passed >= passed {
                return false;
            }
            lanes = self
                .race
                .changed
                .wait(lanes)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Reports the side's search finished, `settled` when it answered the question.
    pub(crate) fn finish(&mut self, settled: bool) {
        if self.finished {
            return;
        }
        self.finished = true;
        let mut lanes = self.race.lanes();
        lanes[self.side].done = true;
        lanes[self.side].settled = settled;
        self.race.changed.notify_all();
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.finish(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_stops_at_the_first_checkpoint_past_the_others_answer() {
        let [mut a, mut b] = Runner::pair([100, 0], [1, 2]);
        // b passes one checkpoint (its nodes count twice), then settles.
        let t = std::thread::spawn(move || {
            let stop = b.must_stop(CHECKPOINT / 2);
            b.finish(true);
            stop
        });
        // a at its first checkpoint: b had passed one, so a goes on; at its second it stops.
        assert!(!a.must_stop(100 + CHECKPOINT));
        assert!(!t.join().unwrap());
        assert!(a.must_stop(100 + 2 * CHECKPOINT));
    }

    #[test]
    fn an_unsettled_finish_never_stops_the_other() {
        let [mut a, b] = Runner::pair([0, 0], [1, 1]);
        drop(b);
        assert!(!a.must_stop(5 * CHECKPOINT));
        assert!(!a.must_stop(u64::MAX / 4));
    }
}
