//! How much thread CPU time the operating system charges to a thread that does nothing but read
//! its clocks: the part of a move's charge no search can control. A loop reads the thread's CPU
//! clock (what `checkers match` charges a player) and the monotonic clock, and reports every
//! step of the CPU clock over half a millisecond between two consecutive reads, with the wall
//! time of that step and when it happened.
//!
//! ```text
//! cargo run --release --example clock_jumps -- [SECONDS]
//! ```
//!
//! On a kernel without separate interrupt-time accounting (`CONFIG_IRQ_TIME_ACCOUNTING` unset),
//! interrupts and soft interrupts handled while the thread runs are charged to it: another
//! process's disk writes or its exit can show here as a step of many milliseconds.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use cpu_time::ThreadTime;

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(60.0);
    let run = Duration::from_secs_f64(seconds.max(0.0));
    let Ok(first) = ThreadTime::try_now() else {
        eprintln!("clock_jumps: this platform has no thread CPU clock");
        std::process::exit(1);
    };
    let start = Instant::now();
    let (mut cpu_before, mut wall_before) = (first.as_duration(), start);
    let mut reads = 0u64;
    let mut over = [0u64; 3];
    let mut largest = Duration::ZERO;
    while wall_before.duration_since(start) < run {
        let wall = Instant::now();
        let cpu = ThreadTime::try_now().map_or(cpu_before, |t| t.as_duration());
        reads += 1;
        let step = cpu.saturating_sub(cpu_before);
        for (count, limit_us) in over.iter_mut().zip([100, 1_000, 5_000]) {
            if step > Duration::from_micros(limit_us) {
                *count += 1;
            }
        }
        largest = largest.max(step);
        if step > Duration::from_micros(500) {
            let utc = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            println!(
                "step of {:.3} ms of CPU ({:.3} ms of wall) at {:.1} s, {:02}:{:02}:{:02} UTC",
                step.as_secs_f64() * 1e3,
                wall.duration_since(wall_before).as_secs_f64() * 1e3,
                wall.duration_since(start).as_secs_f64(),
                utc / 3600 % 24,
                utc / 60 % 60,
                utc % 60
            );
        }
        cpu_before = cpu;
        wall_before = wall;
    }
    let used = cpu_before.saturating_sub(first.as_duration());
    println!(
        "{reads} reads in {:.1} s of wall, {:.1} s of CPU; steps over 0.1 ms: {}, over 1 ms: {}, \
         over 5 ms: {}; the largest {:.3} ms",
        start.elapsed().as_secs_f64(),
        used.as_secs_f64(),
        over[0],
        over[1],
        over[2],
        largest.as_secs_f64() * 1e3
    );
}
