//! `checkers verify`: check a written solution, within a time and memory budget.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use cpu_time::ProcessTime;

use checkers::formats::files;
use checkers::search::puzzle::solve::endgame_databases;
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
    /// They set its node budget (a fixed number of positions a second, so that the verdicts do
    /// not depend on the machine's speed or load), spent on the moves still undecided, the
    /// cheapest questions first; the clock itself is a safety net. Moves not decided within it
    /// are reported undecided with what was established; the move checks are always made.
    #[arg(long = "max-seconds", value_name = "SECONDS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub max_seconds: u64,

    /// Memory allowed for the exact analysis, in MiB.
    ///
    /// Half sizes the full analyses' tables, half the positions the bounded search remembers
    /// (forgotten when full); the analysis stops with what it established if the process grows
    /// past it.
    #[arg(long = "max-mb", value_name = "MIB", default_value_t = 1024,
          value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    pub max_mb: u64,

    /// Endgame databases (`checkers egdb build --pieces 6` or 7) whose exact values answer the
    /// analysis at positions of the classes whose files are there (at most seven pieces).
    ///
    /// Off by default: the analyser then uses nothing of the engine's rules, search or
    /// databases. With it, positions the databases hold are trusted as they are (`checkers egdb
    /// verify` checks them).
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,
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
    if let Some(dir) = args.egdb.as_deref().filter(|d| !d.is_dir()) {
        return Err(output::BadInput(format!(
            "--egdb {}: not a directory of endgame databases",
            dir.display()
        ))
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
        (verdict.optimality, verdict.plies, verdict.analysed) = analyse_within_budget(states, args);
    }
    output::println(&verdict.to_string())?;
    Ok(if !verdict.passed() {
        ExitCode::from(1)
    } else if matches!(verdict.optimality, Optimality::Optimal(_)) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    })
}

/// How often the budget is checked and the progress line redrawn.
const TICK: Duration = Duration::from_millis(100);

/// The analysis's verdict, its verdicts per move, and its positions and node budget.
type Analysed = (Optimality, Vec<verify::PlyReport>, Option<(u64, u64)>);

/// The clock's safety net in wall time, as a multiple of `--max-seconds`: the budget itself is
/// in positions, and a loaded machine gives the analysis only part of a core.
const WALL_FACTOR: u32 = 4;

/// How long the analysis may take to hand back what it established once told to stop.
const GRACE: Duration = Duration::from_secs(10);

/// Stack of the analysis thread: the bounded search recurses once per ply.
const ANALYSIS_STACK_BYTES: usize = 64 << 20;

/// The per-move analysis of `states` on its own thread, watched from this one. Its node budget
/// comes from `--max-seconds` (`search::knobs::VERIFY_NODES_PER_SECOND`), so the verdicts do not depend on
/// the machine's speed or load; the process's CPU time (past `--max-seconds`), the wall clock
/// (past [`WALL_FACTOR`] times that) and its resident memory (past `--max-mb`) are safety nets:
/// the analysis is then told to stop and reports what it established.
/// Progress is drawn on standard error when it is a terminal.
fn analyse_within_budget(states: Vec<checkers::Position>, args: &VerifyArgs) -> Analysed {
    use std::io::IsTerminal;

    let max_bytes = args.max_mb << 20;
    let limits = verify::budget_limits(args.max_seconds, max_bytes);
    let stop = Arc::new(AtomicBool::new(false));
    let reason = Arc::new(Mutex::new(String::new()));
    let (send, receive) = mpsc::channel();
    let count = states.len();
    let endgame = args
        .egdb
        .as_ref()
        .map(|dir| Arc::new(verify::DatabaseValues(endgame_databases(Some(dir)))));
    let spawned = {
        let (stop, reason) = (Arc::clone(&stop), Arc::clone(&reason));
        std::thread::Builder::new()
            .name("analysis".to_string())
            .stack_size(ANALYSIS_STACK_BYTES)
            .spawn(move || {
                let judged = verify::judge(&states, limits, Some(stop), endgame, "");
                let result = (judged.optimality, judged.plies, judged.nodes);
                let why = reason.lock().map(|r| r.clone()).unwrap_or_default();
                // The receiver is gone only after the grace period; the result is then unwanted.
                let _ = send.send((result, why));
            })
    };
    if let Err(e) = spawned {
        let why = format!("the analysis could not be started: {e}");
        return (Optimality::Unproven(why), Vec::new(), None);
    }
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new_spinner()
    } else {
        indicatif::ProgressBar::hidden()
    };
    let started = Instant::now();
    let cpu_at_start = ProcessTime::try_now().map_or(Duration::ZERO, |t| t.as_duration());
    let deadline = Duration::from_secs(args.max_seconds);
    let mut stopped_at: Option<Instant> = None;
    let result = loop {
        match receive.recv_timeout(TICK) {
            Ok(((optimality, plies, nodes), why)) => {
                break (
                    with_reason(optimality, &why),
                    plies,
                    Some((nodes, limits.node_budget)),
                )
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let why = "the analysis stopped without an answer".to_string();
                break (Optimality::Unproven(why), Vec::new(), None);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if let Some(at) = stopped_at {
            if at.elapsed() > GRACE {
                let why = reason.lock().map(|r| r.clone()).unwrap_or_default();
                break (Optimality::Unproven(why), Vec::new(), None);
            }
            continue;
        }
        let elapsed = started.elapsed();
        let cpu = ProcessTime::try_now()
            .ok()
            .map(|t| t.as_duration().saturating_sub(cpu_at_start));
        let resident = memory::resident_bytes();
        let why = if cpu.is_some_and(|c| c >= deadline) || elapsed >= deadline * WALL_FACTOR {
            Some(format!(
                "the time budget of {} s (--max-seconds) ran out",
                args.max_seconds
            ))
        } else if resident.is_some_and(|r| r > max_bytes) {
            Some(format!(
                "the memory budget of {} MiB (--max-mb) ran out",
                args.max_mb
            ))
        } else {
            None
        };
        if let Some(why) = why {
            if let Ok(mut r) = reason.lock() {
                *r = why;
            }
            stop.store(true, Ordering::Relaxed);
            stopped_at = Some(Instant::now());
            continue;
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

/// An undecided verdict stopped from outside says why (`why` is empty when it was not stopped).
fn with_reason(optimality: Optimality, why: &str) -> Optimality {
    match optimality {
        Optimality::Unproven(text) if !why.is_empty() => {
            Optimality::Unproven(text.replace("(the analysis was stopped)", &format!("({why})")))
        }
        other => other,
    }
}
