//! The clock a player moves under: how much time this move may take, counted in wall time or in
//! the process's CPU time, and how a whole game's time is shared out between its moves.
//!
//! A [`Clock`] is started when the player is asked for a move ([`Clock::per_move`] and the other
//! constructors read the time then). The search turns it into a [`TimeBudget`]: a *soft* target,
//! after which no new iteration of iterative deepening starts, and a *hard* limit, at which the
//! search stops wherever it is. The hard limit keeps a safety margin below what the clock allows,
//! so the move is returned before the limit: under a CPU-time clock a measured bound on how far a
//! search runs past its limit before it returns ([`CPU_MARGIN`]), under a wall clock a share of the
//! limit as well ([`WALL_MARGIN_SHARE`]), since the process may be descheduled at any moment.
//!
//! At a time per move (or a deadline) time left unused is lost, so by default ([`TimeUse::All`])
//! iterations go on until the hard limit and the search stops part-way through the last one
//! (keeping its move when it was searched fully and scored better). Under a game clock unused time
//! carries over to the later moves, and the soft target stays.

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

/// How a player spends its clock.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum TimeUse {
    /// Iterations go on to the hard limit at a time per move or a deadline, whose margin is
    /// measured ([`CPU_MARGIN`], [`WALL_MARGIN_SHARE`]); under a game clock the soft target stays.
    #[default]
    All,
    /// The allocation of commit 4d5eb1a, kept as the baseline of matches: no new iteration after
    /// [`EARLY_SOFT_SHARE`] of a time per move, a hard limit a fifth below every limit.
    Early,
}

/// Under a CPU-time clock, the hard limit's margin below a limit: a bound on how far a search
/// runs past its hard limit before the move is returned (the clock is read every 256 nodes; the
/// stopped search unwinds and returns). Measured by `examples/time_use.rs` at 20 ms a move over
/// 1,023 moves stopped at the hard limit (load 14-18): past it by 32 us at the median, 184 us at
/// the 99th percentile, 354 us at most; the margin is over twice that; trades 0.8 ms of every
/// move for never losing one on time.
pub const CPU_MARGIN: Duration = Duration::from_micros(800);
/// Under a CPU-time clock, a further share of the limit kept as margin: the CPU clock of a
/// virtual machine also counts moments the host takes the processor away, more of them in a
/// longer move; trades a hundredth of a long move for safety.
pub const CPU_MARGIN_SHARE: f64 = 0.01;
/// Under a wall clock, the share of the limit kept as margin (within [`MIN_MARGIN`] and
/// [`MAX_MARGIN`]): a descheduled process loses wall time that no measurement bounds; trades
/// thinking time for safety on a busy machine.
pub const WALL_MARGIN_SHARE: f64 = 0.05;
/// Smallest safety margin kept below a wall-clock limit (and below every limit under
/// [`TimeUse::Early`]); trades a little of a short move for safety.
pub const MIN_MARGIN: Duration = Duration::from_millis(2);
/// Largest safety margin kept below any limit; trades safety for the time of a long move.
pub const MAX_MARGIN: Duration = Duration::from_millis(50);
/// [`TimeUse::Early`]: the margin is this share of the limit (a fifth), within [`MIN_MARGIN`] and
/// [`MAX_MARGIN`]; trades thinking time for safety.
const EARLY_MARGIN_SHARE: f64 = 0.2;
/// [`TimeUse::Early`]: at a time per move no new iteration starts after this share of the hard
/// limit; trades the time a last iteration could use (lost at a time per move) for never starting
/// one that cannot finish.
pub const EARLY_SOFT_SHARE: f64 = 0.55;
/// At a deadline the hard limit is this share of what the margin leaves: a deadline is a wall
/// time met over a network or a pipe, so a fifth more is kept for delays outside the process;
/// trades thinking time for safety.
const DEADLINE_HARD_SHARE: f64 = 0.8;
/// [`TimeUse::Early`]: at a deadline no new iteration starts after this share of the hard limit;
/// trades the time a last iteration could use for never starting one that cannot finish.
const DEADLINE_SOFT_SHARE: f64 = 0.5;
/// Under a game clock a move may run to this many times its share of the time (the soft
/// target) when an iteration started before the target runs on; trades a deeper look at the
/// moves that need it for time taken from the later moves.
const GAME_HARD_PER_TARGET: u32 = 4;
/// Under a game clock a move never takes more than this share of what is left, however far it
/// runs past its target; trades one move's depth for never draining the clock.
const GAME_HARD_SHARE_OF_LEFT: f64 = 0.25;
/// Under a game clock this share of what is left is kept back for the very end (a twentieth);
/// trades a little of every move's time for never running dry in a long ending.
const GAME_RESERVE_SHARE: f64 = 0.05;

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
    /// since the start, `pieces` on the board and `legal_moves` to choose from, spent as `time_use`
    /// says.
    #[must_use]
    pub fn allocate(
        &self,
        ply: usize,
        pieces: u32,
        legal_moves: usize,
        time_use: TimeUse,
    ) -> TimeBudget {
        let forced = legal_moves <= 1;
        let early = time_use == TimeUse::Early;
        let (soft, hard) = match self.budget {
            Budget::Unlimited => return TimeBudget::unlimited(),
            Budget::PerMove(d) => {
                let hard = self.minus_margin(d, time_use);
                let soft = if early {
                    hard.mul_f64(EARLY_SOFT_SHARE)
                } else {
                    hard
                };
                (soft, hard)
            }
            Budget::Deadline(d) => {
                let hard = self.minus_margin(d, time_use).mul_f64(DEADLINE_HARD_SHARE);
                let soft = if early {
                    hard.mul_f64(DEADLINE_SOFT_SHARE)
                } else {
                    hard
                };
                (soft, hard)
            }
            Budget::GameLeft(left) => {
                let usable = self
                    .minus_margin(left, time_use)
                    .saturating_sub(left.mul_f64(GAME_RESERVE_SHARE));
                let target = usable.div_f64(moves_to_go(ply, pieces));
                let hard =
                    (target * GAME_HARD_PER_TARGET).min(usable.mul_f64(GAME_HARD_SHARE_OF_LEFT));
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

    /// `d` less the safety margin for this clock's measure and `time_use`, never more than half of
    /// `d`: under a CPU-time clock [`CPU_MARGIN`] and [`CPU_MARGIN_SHARE`] of `d`, at most
    /// [`MAX_MARGIN`]; under a wall
    /// clock [`WALL_MARGIN_SHARE`] of it within [`MIN_MARGIN`] and [`MAX_MARGIN`]; under
    /// [`TimeUse::Early`] a fifth of it within the same bounds, whatever the measure.
    fn minus_margin(&self, d: Duration, time_use: TimeUse) -> Duration {
        let bounded = |share: f64| d.mul_f64(share).clamp(MIN_MARGIN, MAX_MARGIN);
        let margin = match (time_use, self.measure) {
            (TimeUse::Early, _) => bounded(EARLY_MARGIN_SHARE),
            (TimeUse::All, TimeMeasure::Wall) => bounded(WALL_MARGIN_SHARE),
            (TimeUse::All, TimeMeasure::ProcessCpu | TimeMeasure::ThreadCpu) => {
                (CPU_MARGIN + d.mul_f64(CPU_MARGIN_SHARE)).min(MAX_MARGIN)
            }
        };
        d.saturating_sub(margin.min(d / 2))
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
            let b = Clock::per_move(d).allocate(10, 20, 7, TimeUse::All);
            let hard = b.hard.unwrap();
            assert!(hard < d, "{ms} ms: hard {hard:?}");
            assert!(hard >= d / 2, "{ms} ms: hard {hard:?} wastes the clock");
            assert!(b.soft.unwrap() <= hard);
        }
    }

    #[test]
    fn a_time_per_move_is_used_to_the_hard_limit_and_the_old_use_stops_early() {
        for measure in [TimeMeasure::Wall, TimeMeasure::ThreadCpu] {
            for ms in [20u64, 100, 300, 10_000] {
                let d = Duration::from_millis(ms);
                let clock = Clock::new(Budget::PerMove(d), measure);
                let all = clock.allocate(10, 20, 7, TimeUse::All);
                assert_eq!(all.soft, all.hard, "{measure:?} {ms} ms");
                let hard = all.hard.unwrap();
                assert!(hard >= d.mul_f64(0.9), "{measure:?} {ms} ms: hard {hard:?}");
                let early = clock.allocate(10, 20, 7, TimeUse::Early);
                let early_hard = early.hard.unwrap();
                assert!(early_hard <= hard, "{measure:?} {ms} ms");
                assert_eq!(early.soft, Some(early_hard.mul_f64(EARLY_SOFT_SHARE)));
            }
        }
        // Under a CPU-time clock only the measured margin is kept: 20 ms leaves 19 ms.
        let cpu = Clock::new(
            Budget::PerMove(Duration::from_millis(20)),
            TimeMeasure::ThreadCpu,
        );
        let hard = cpu.allocate(10, 20, 7, TimeUse::All).hard.unwrap();
        assert!(hard >= Duration::from_millis(19), "{hard:?}");
        // A deadline keeps its share for delays outside the process, but iterations go on.
        let deadline = Clock::deadline(Duration::from_secs(1)).allocate(10, 20, 7, TimeUse::All);
        assert_eq!(deadline.soft, deadline.hard);
        assert!(deadline.hard.unwrap() <= Duration::from_millis(800));
    }

    #[test]
    fn a_forced_move_takes_no_time() {
        let b = Clock::per_move(Duration::from_secs(1)).allocate(10, 20, 1, TimeUse::All);
        assert_eq!(b.hard, Some(Duration::ZERO));
    }

    #[test]
    fn game_time_is_shared_out() {
        let left = Duration::from_secs(300);
        let b = Clock::game_left(left).allocate(20, 20, 7, TimeUse::All);
        let hard = b.hard.unwrap();
        assert!(hard <= left / 4);
        assert!(b.soft.unwrap() >= Duration::from_secs(5));
        // Almost no time left: still a positive but tiny budget.
        let b = Clock::game_left(Duration::from_millis(20)).allocate(20, 20, 7, TimeUse::All);
        assert!(b.hard.unwrap() < Duration::from_millis(10));
    }

    #[test]
    fn unlimited_has_no_limit() {
        assert_eq!(
            Clock::unlimited().allocate(0, 24, 7, TimeUse::All),
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
