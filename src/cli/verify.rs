//! `checkers verify`: check a written solution, within a time and memory budget.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;

use checkers::formats::files;
use checkers::tools::verify::{self, Optimality};

use super::{memory, output};

/// Arguments of `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The puzzle the solution starts from (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub inputfile: PathBuf,

    /// The solution to check: states separated by one empty line (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub solution: PathBuf,

    /// An expected solution to compare with (length and states).
    #[arg(long, value_name = "FILE")]
    pub expected: Option<PathBuf>,

    /// Seconds allowed for the exact analysis of optimality.
    ///
    /// When they run out the solution is reported as not proven; the move checks are always
    /// made.
    #[arg(long = "max-seconds", value_name = "SECONDS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub max_seconds: u64,

    /// Memory allowed for the exact analysis, in MiB.
    ///
    /// It sizes the analysis's tables, and the analysis stops (not proven) if the process grows
    /// past it.
    #[arg(long = "max-mb", value_name = "MIB", default_value_t = 1024,
          value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    pub max_mb: u64,
}

/// Runs the check.
pub fn run(args: &VerifyArgs) -> Result<ExitCode> {
    if [
        Some(&args.inputfile),
        Some(&args.solution),
        args.expected.as_ref(),
    ]
    .iter()
    .flatten()
    .filter(|p| files::is_stdio(p))
    .count()
        > 1
    {
        return Err(output::BadInput(
            "only one of --inputfile, --solution and --expected can be `-` (standard input)"
                .to_string(),
        )
        .into());
    }
    let puzzle = files::read_puzzle(&args.inputfile)?;
    let states = files::read_solution(&args.solution)?;
    let expected = args
        .expected
        .as_deref()
        .map(files::read_solution)
        .transpose()?;
    let mut verdict = verify::check_moves(&puzzle, &states, expected.as_deref());
    if verdict.needs_analysis() {
        verdict.optimality = analyse_within_budget(states, args);
    }
    output::println(&verdict.to_string())?;
    Ok(if verdict.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// How often the budget is checked and the progress line redrawn.
const TICK: Duration = Duration::from_millis(100);

/// Stack of the analysis thread: the bounded search recurses once per ply.
const ANALYSIS_STACK_BYTES: usize = 64 << 20;

/// The exact analysis of `states` on its own thread, watched from this one: it is abandoned
/// (and reported as not proven) when `--max-seconds` pass or the process's resident memory
/// passes `--max-mb`. The process ends soon after, which stops the abandoned thread. Progress
/// is drawn on standard error when it is a terminal.
fn analyse_within_budget(states: Vec<checkers::Position>, args: &VerifyArgs) -> Optimality {
    use std::io::IsTerminal;

    let max_bytes = args.max_mb << 20;
    let limits = verify::limits_for_memory(max_bytes);
    let (send, receive) = mpsc::channel();
    let count = states.len();
    let spawned = std::thread::Builder::new()
        .name("analysis".to_string())
        .stack_size(ANALYSIS_STACK_BYTES)
        .spawn(move || {
            // The receiver is gone only when the budget ran out; the result is then unwanted.
            let _ = send.send(verify::analyse(&states, limits));
        });
    if let Err(e) = spawned {
        return Optimality::Unproven(format!("the analysis could not be started: {e}"));
    }
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new_spinner()
    } else {
        indicatif::ProgressBar::hidden()
    };
    let started = Instant::now();
    let deadline = Duration::from_secs(args.max_seconds);
    let result = loop {
        match receive.recv_timeout(TICK) {
            Ok(optimality) => break optimality,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                break Optimality::Unproven("the analysis stopped without an answer".to_string())
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let elapsed = started.elapsed();
        let resident = memory::resident_bytes();
        if elapsed >= deadline {
            break Optimality::Unproven(format!(
                "too large to prove within the time budget of {} s (--max-seconds)",
                args.max_seconds
            ));
        }
        if resident.is_some_and(|r| r > max_bytes) {
            break Optimality::Unproven(format!(
                "too large to prove within the memory budget of {} MiB (--max-mb)",
                args.max_mb
            ));
        }
        progress.set_message(format!(
            "exact analysis of {count} states: {:.0} s of {} s, {} MiB of {} MiB",
            elapsed.as_secs_f64(),
            args.max_seconds,
            resident.map_or(0, memory::mib),
            args.max_mb
        ));
        progress.tick();
    };
    progress.finish_and_clear();
    result
}
