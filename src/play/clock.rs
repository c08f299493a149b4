//! The clock a player moves under: how much time this move may take, counted in wall time or in
//! the process's CPU time, and how a whole game's time is shared out between its moves.
//!
//! A [`Clock`] is started when the player is asked for a move ([`Clock::per_move`] and the other
//! constructors read the time then). The search turns it into a [`TimeBudget`]: a *soft* target,
//! after which no new iteration of iterative deepening starts, and a *hard* limit, at which the
//! search stops wherever it is. The hard limit keeps a safety margin below what the clock allows,
//! so the move is returned before the limit even when the process is descheduled for a moment.

use std::time::{Duration, Instant};

use cpu_time::{ProcessTime, ThreadTime};

/// What a clock counts.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum TimeMeasure {
    /// Elapsed real time.
    #[default]
    Wall,
    /// CPU time of the whole process, all threads together (what CSCI561's referee counts).
    /// Where the operating system cannot tell it, wall time is used instead, which is never less
    /// for a single-threaded search.
    ProcessCpu,
    /// CPU time of the thread that started the clock; it must also be read from that thread.
    /// A match on a busy machine times in-process players this way, so time the operating
    /// system gives to other programs is not charged to them.
    ThreadCpu,
}

/// The time control for one move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Budget {
    /// No time limit (node or depth limits stop the search).
    Unlimited,
    /// This move may take up to this long; the player is expected to use most of it.
    PerMove(Duration),
    /// This much time is left for all the player's remaining moves in the game; the player shares
    /// it out (more in the middle game, little in forced positions).
    GameLeft(Duration),
    /// The move must be in before this much time has passed: a hard deadline, of which the player
    /// uses a safe part.
    Deadline(Duration),
}

/// A started clock: a budget and the moment (wall and CPU) it started.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    budget: Budget,
    measure: TimeMeasure,
    wall_start: Instant,
    /// CPU time at the start, when the clock counts CPU time and the system can tell it.
    cpu_start: Option<Duration>,
}

/// Smallest safety margin kept below a limit.
const MIN_MARGIN: Duration = Duration::from_millis(2);
/// Largest safety margin kept below a limit.
const MAX_MARGIN: Duration = Duration::from_millis(50);

impl Clock {
    /// A clock with `budget`, counting `measure`, started now.
    #[must_use]
    pub fn new(budget: Budget, measure: TimeMeasure) -> Clock {
        let cpu_start = cpu_now(measure);
        Clock {
            budget,
            measure,
            wall_start: Instant::now(),
            cpu_start,
        }
    }

    /// A wall clock allowing `limit` for this move, started now.
    #[must_use]
    pub fn per_move(limit: Duration) -> Clock {
        Clock::new(Budget::PerMove(limit), TimeMeasure::Wall)
    }

    /// A wall clock with `left` for the rest of the game, started now.
    #[must_use]
    pub fn game_left(left: Duration) -> Clock {
        Clock::new(Budget::GameLeft(left), TimeMeasure::Wall)
    }

    /// A wall clock whose move must be in within `limit`, started now.
    #[must_use]
    pub fn deadline(limit: Duration) -> Clock {
        Clock::new(Budget::Deadline(limit), TimeMeasure::Wall)
    }

    /// A clock without a time limit.
    #[must_use]
    pub fn unlimited() -> Clock {
        Clock::new(Budget::Unlimited, TimeMeasure::Wall)
    }

    /// The same budget counted in the process's CPU time, restarted now.
    #[must_use]
    pub fn with_cpu_time(self) -> Clock {
        Clock::new(self.budget, TimeMeasure::ProcessCpu)
    }

    /// The same budget counted in `measure`, restarted now.
    #[must_use]
    pub fn measured_in(self, measure: TimeMeasure) -> Clock {
        Clock::new(self.budget, measure)
    }

    /// The budget.
    #[must_use]
    pub const fn budget(&self) -> Budget {
        self.budget
    }

    /// What the clock counts.
    #[must_use]
    pub const fn measure(&self) -> TimeMeasure {
        self.measure
    }

    /// Time counted since the clock started.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        match (self.cpu_start, cpu_now(self.measure)) {
            (Some(start), Some(now)) => now.saturating_sub(start),
            _ => self.wall_start.elapsed(),
        }
    }

    /// The outer limit the clock allows for this move, if any (before any safety margin).
    #[must_use]
    pub fn limit(&self) -> Option<Duration> {
        match self.budget {
            Budget::Unlimited => None,
            Budget::PerMove(d) | Budget::GameLeft(d) | Budget::Deadline(d) => Some(d),
        }
    }

    /// How much of the clock to spend on this move, given the game so far: `ply` moves played
    /// since the start, `pieces` on the board and `legal_moves` to choose from.
    #[must_use]
    pub fn allocate(&self, ply: usize, pieces: u32, legal_moves: usize) -> TimeBudget {
        let forced = legal_moves <= 1;
        let (soft, hard) = match self.budget {
            Budget::Unlimited => return TimeBudget::unlimited(),
            Budget::PerMove(d) => {
                let hard = minus_margin(d);
                (hard.mul_f64(0.55), hard)
            }
            Budget::Deadline(d) => {
                let hard = minus_margin(d).mul_f64(0.8);
                (hard.mul_f64(0.5), hard)
            }
            Budget::GameLeft(left) => {
                let usable = minus_margin(left).saturating_sub(reserve(left));
                let target = usable.div_f64(moves_to_go(ply, pieces));
                let hard = (target * 4).min(usable.div_f64(4.0));
                (target, hard)
            }
        };
        if forced {
            return TimeBudget {
                soft: Some(Duration::ZERO),
                hard: Some(Duration::ZERO),
            };
        }
        TimeBudget {
            soft: Some(soft.min(hard)),
            hard: Some(hard),
        }
    }
}

/// The CPU time `measure` counts, now; `None` for wall time or when the system cannot tell.
fn cpu_now(measure: TimeMeasure) -> Option<Duration> {
    match measure {
        TimeMeasure::Wall => None,
        TimeMeasure::ProcessCpu => ProcessTime::try_now().ok().map(|t| t.as_duration()),
        TimeMeasure::ThreadCpu => ThreadTime::try_now().ok().map(|t| t.as_duration()),
    }
}

/// The safety margin below a limit `d`: a fifth of it, within [`MIN_MARGIN`] and [`MAX_MARGIN`],
/// and never more than half of it.
fn minus_margin(d: Duration) -> Duration {
    let margin = (d / 5).clamp(MIN_MARGIN, MAX_MARGIN).min(d / 2);
    d.saturating_sub(margin)
}

/// Time kept back from a whole game's clock for the very end (a twentieth).
fn reserve(left: Duration) -> Duration {
    left / 20
}

/// How many more moves of ours the remaining game time should cover, by the game's stage: many
/// at the start, where book-like positions need less, fewest in the middle game, and a steady
/// number in the endgame so a long ending never runs dry.
fn moves_to_go(ply: usize, pieces: u32) -> f64 {
    let opening = if ply < 8 { 40.0 } else { 0.0 };
    let by_material = match pieces {
        0..=6 => 24.0,
        7..=14 => 20.0,
        _ => 26.0,
    };
    f64::max(opening, by_material)
}

/// What the search may spend on one move, derived from a [`Clock`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TimeBudget {
    /// No new iteration of iterative deepening starts after this.
    pub soft: Option<Duration>,
    /// The search stops at this, wherever it is.
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// No time limit.
    #[must_use]
    pub const fn unlimited() -> TimeBudget {
        TimeBudget {
            soft: None,
            hard: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_move_budget_stays_below_the_limit() {
        for ms in [1u64, 10, 100, 1000, 10_000] {
            let d = Duration::from_millis(ms);
            let b = Clock::per_move(d).allocate(10, 20, 7);
            let hard = b.hard.unwrap();
            assert!(hard < d, "{ms} ms: hard {hard:?}");
            assert!(hard >= d / 2, "{ms} ms: hard {hard:?} wastes the clock");
            assert!(b.soft.unwrap() <= hard);
        }
    }

    #[test]
    fn a_forced_move_takes_no_time() {
        let b = Clock::per_move(Duration::from_secs(1)).allocate(10, 20, 1);
        assert_eq!(b.hard, Some(Duration::ZERO));
    }

    #[test]
    fn game_time_is_shared_out() {
        let left = Duration::from_secs(300);
        let b = Clock::game_left(left).allocate(20, 20, 7);
        let hard = b.hard.unwrap();
        assert!(hard <= left / 4);
        assert!(b.soft.unwrap() >= Duration::from_secs(5));
        // Almost no time left: still a positive but tiny budget.
        let b = Clock::game_left(Duration::from_millis(20)).allocate(20, 20, 7);
        assert!(b.hard.unwrap() < Duration::from_millis(10));
    }

    #[test]
    fn unlimited_has_no_limit() {
        assert_eq!(
            Clock::unlimited().allocate(0, 24, 7),
            TimeBudget::unlimited()
        );
    }

    #[test]
    fn cpu_clock_counts_forward() {
        let c = Clock::per_move(Duration::from_secs(1)).with_cpu_time();
        assert_eq!(c.measure(), TimeMeasure::ProcessCpu);
        let before = c.elapsed();
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(c.elapsed() >= before, "{x}");
    }
}
