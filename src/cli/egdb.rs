//! `checkers egdb build` and `checkers egdb reach`: build the endgame databases, or analyse the
//! positions puzzles can reach, once into a directory that later runs read.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use checkers::formats::input;
use checkers::search::endgame::store::Store;
use checkers::search::endgame::EndgameDb;

use super::output;

/// Arguments of `checkers egdb`.
#[derive(Debug, Args)]
pub struct EgdbArgs {
    #[command(subcommand)]
    action: EgdbAction,
}

/// What to do with the databases.
#[derive(Debug, Subcommand)]
enum EgdbAction {
    /// Build every database of at most N pieces into the directory, once.
    ///
    /// Classes whose file is already there and undamaged are kept; damaged or half-written
    /// ones are rebuilt. The 5-piece set holds about 500 M positions (one byte each on disk
    /// and in memory).
    Build {
        /// Most pieces on the board (both sides together).
        #[arg(long, value_name = "N", default_value_t = 5,
              value_parser = clap::value_parser!(u8).range(2..=6))]
        pieces: u8,

        /// Directory of the databases (default: $CHECKERS_EGDB, else the platform's cache
        /// directory, e.g. ~/.cache/checkers/egdb).
        #[arg(long, value_name = "DIR")]
        egdb: Option<PathBuf>,

        /// Threads of the build (default: one per core).
        #[arg(long, value_name = "N")]
        threads: Option<usize>,

        /// Most memory the build may take, in MiB (default: the memory the system says is
        /// available). A build whose estimated peak is larger is refused before it starts.
        #[arg(long, value_name = "MIB")]
        max_memory: Option<usize>,

        /// Print nothing but errors.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Analyse the positions each puzzle can reach (6 pieces) into the directory, once.
    ///
    /// Material whose whole classes are too large to build (six pieces) is solved over only the
    /// positions a puzzle can reach; this keeps the result, one file per class, so that solving
    /// the puzzle (or a position of its line) later reads it in a fraction of a second. Whole
    /// classes already in the directory are read instead of analysed. The solver writes the
    /// same files itself when it analyses such a puzzle with a database directory.
    Reach {
        /// Puzzle files.
        #[arg(required = true, value_name = "PUZZLE")]
        puzzles: Vec<PathBuf>,

        /// Directory of the databases (default: $CHECKERS_EGDB, else the platform's cache
        /// directory, e.g. ~/.cache/checkers/egdb).
        #[arg(long, value_name = "DIR")]
        egdb: Option<PathBuf>,

        /// Print nothing but errors.
        #[arg(short, long)]
        quiet: bool,
    },
}

/// The directory chosen on the command line, else the default one.
pub fn store_dir(chosen: Option<&PathBuf>) -> Option<PathBuf> {
    chosen.cloned().or_else(Store::default_dir)
}

/// Runs `checkers egdb`.
pub fn run(args: &EgdbArgs) -> Result<ExitCode> {
    match &args.action {
        EgdbAction::Build {
            pieces,
            egdb,
            threads,
            max_memory,
            quiet,
        } => build(*pieces, egdb.as_ref(), *threads, *max_memory, *quiet),
        EgdbAction::Reach {
            puzzles,
            egdb,
            quiet,
        } => reach(puzzles, egdb.as_ref(), *quiet),
    }
}

/// Runs `checkers egdb reach`.
fn reach(puzzles: &[PathBuf], egdb: Option<&PathBuf>, quiet: bool) -> Result<ExitCode> {
    let dir = store_dir(egdb)
        .context("no cache directory on this platform: choose one with --egdb DIR")?;
    let mut db = EndgameDb::with_store(Store::new(&dir));
    let started = Instant::now();
    for path in puzzles {
        let pos = input::read_puzzle(path, None)?;
        let before = db.analysed();
        let covered = db
            .prepare_reachable(&pos, None)
            .with_context(|| format!("analysing {}", path.display()))?;
        if !covered {
            anyhow::bail!(
                "{}: not a position the reachable-only analysis covers (one to five pieces a \
                 side, at most six in all, on cells of one colour)",
                path.display()
            );
        }
        if let Some(why) = db.damaged_file() {
            output::eprintln(&format!("checkers: warning: {why}"))?;
        }
        if !quiet {
            output::eprintln(&format!(
                "{}: {:.1} M positions held, {:.1} M analysed now ({:.1} s)",
                path.display(),
                db.positions() as f64 / 1e6,
                (db.analysed() - before) as f64 / 1e6,
                started.elapsed().as_secs_f64()
            ))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Memory the system says is available, in bytes (Linux's `/proc/meminfo`), if it says.
fn available_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Sets the threads of rayon's pool (the builds' parallel passes).
fn set_threads(threads: Option<usize>) -> Result<()> {
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global()
            .context("starting the build's threads")?;
    }
    Ok(())
}

/// Runs `checkers egdb build`.
fn build(
    pieces: u8,
    egdb: Option<&PathBuf>,
    threads: Option<usize>,
    max_memory: Option<usize>,
    quiet: bool,
) -> Result<ExitCode> {
    let dir = store_dir(egdb)
        .context("no cache directory on this platform: choose one with --egdb DIR")?;
    set_threads(threads)?;
    let mut db = EndgameDb::with_store(Store::new(&dir));
    let plan = db.build_plan(usize::from(pieces));
    let limit = max_memory.map(|m| m << 20).or_else(available_memory);
    if let Some(limit) = limit {
        if plan.peak_bytes > limit {
            anyhow::bail!(
                "building every class of up to {pieces} pieces needs about {} MiB at its peak, \
                 more than the {} MiB allowed{}",
                plan.peak_bytes >> 20,
                limit >> 20,
                if max_memory.is_some() {
                    " by --max-memory"
                } else {
                    " (the memory available)"
                }
            );
        }
    }
    let started = Instant::now();
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        output::eprintln(&format!(
            "{}: {} classes, {:.1} M positions, {:.1} M to build, peak about {} MiB",
            dir.display(),
            plan.classes.len(),
            plan.positions as f64 / 1e6,
            plan.to_build as f64 / 1e6,
            plan.peak_bytes >> 20
        ))?;
        ProgressBar::new(plan.to_build as u64)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {percent:>3}% {msg} {per_sec} ETA {eta} ({elapsed})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (mut positions, mut bytes, mut built) = (0usize, 0u64, 0usize);
    db.build_store(
        usize::from(pieces),
        &mut |class, size| bar.set_message(format!("{class} ({:.1} M)", size as f64 / 1e6)),
        &mut |r| {
            positions += r.positions;
            bytes += r.file_bytes;
            built += usize::from(r.built);
            if r.built {
                bar.inc(r.positions as u64);
            }
            if let Some(why) = &r.damaged {
                bar.println(format!("checkers: warning: {why}"));
            }
            if !quiet {
                bar.println(format!(
                    "{:>12} {:>8.1} M positions, {:>8.2} MB{} ({:.1} s)",
                    r.class,
                    r.positions as f64 / 1e6,
                    r.file_bytes as f64 / 1e6,
                    if r.built {
                        format!(", built in {:.1} s", r.seconds)
                    } else {
                        String::new()
                    },
                    started.elapsed().as_secs_f64()
                ));
            }
        },
    )
    .with_context(|| format!("building the endgame databases in {}", dir.display()))?;
    bar.finish_and_clear();
    if !quiet {
        output::eprintln(&format!(
            "{}: {built} classes built, {:.1} M positions in all, {:.1} MB on disk, {:.1} s",
            dir.display(),
            positions as f64 / 1e6,
            bytes as f64 / 1e6,
            started.elapsed().as_secs_f64()
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
