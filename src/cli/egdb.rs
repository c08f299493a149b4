//! `checkers egdb build` and `checkers egdb reach`: build the endgame databases, or analyse the
//! positions puzzles can reach, once into a directory that later runs read.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};

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
              value_parser = clap::value_parser!(u8).range(2..=5))]
        pieces: u8,

        /// Directory of the databases (default: $CHECKERS_EGDB, else the platform's cache
        /// directory, e.g. ~/.cache/checkers/egdb).
        #[arg(long, value_name = "DIR")]
        egdb: Option<PathBuf>,

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
            quiet,
        } => build(*pieces, egdb.as_ref(), *quiet),
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

/// Runs `checkers egdb build`.
fn build(pieces: u8, egdb: Option<&PathBuf>, quiet: bool) -> Result<ExitCode> {
    let dir = store_dir(egdb)
        .context("no cache directory on this platform: choose one with --egdb DIR")?;
    let mut db = EndgameDb::with_store(Store::new(&dir));
    let started = Instant::now();
    let (mut positions, mut bytes, mut built) = (0usize, 0u64, 0usize);
    let mut lines = Vec::new();
    db.build_store(usize::from(pieces), &mut |r| {
        positions += r.positions;
        bytes += r.file_bytes;
        built += usize::from(r.built);
        if let Some(why) = &r.damaged {
            lines.push(format!("checkers: warning: {why}"));
        }
        if !quiet {
            lines.push(format!(
                "{:>12} {:>7.1} M positions, {:>7.1} MB{} ({:.1} s)",
                r.class,
                r.positions as f64 / 1e6,
                r.file_bytes as f64 / 1e6,
                if r.built { ", built" } else { "" },
                started.elapsed().as_secs_f64()
            ));
        }
        // Progress as it goes: a large build takes minutes.
        for line in lines.drain(..) {
            let _ = output::eprintln(&line);
        }
    })
    .with_context(|| format!("building the endgame databases in {}", dir.display()))?;
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
