//! `checkers selfplay`: the engine plays itself from the ballots and writes labelled positions
//! for `checkers train`, one chunk file per range of games, resumable and shardable.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use checkers::formats::files;
use checkers::matches::openings;
use checkers::play::PlayerSpec;
use checkers::search::endgame::store::Store;
use checkers::search::endgame::EndgameDb;
use checkers::training::dataset::{self, DatasetError};
use checkers::training::selfplay::{play_chunk, shard_chunks, Labeller, SelfPlayConfig};

use super::output::{self, BadInput};

/// Arguments of `selfplay`.
#[derive(Debug, Args)]
pub struct SelfPlayArgs {
    /// Folder the chunk files are written to (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,

    /// Games in the whole data set (over all shards).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub games: u64,

    /// Games per chunk file.
    #[arg(long = "chunk-games", value_name = "N", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub chunk_games: u64,

    /// Seed of the random moves played after each opening.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,

    /// The engine playing both sides; give it a node budget so the games repeat exactly.
    #[arg(long, value_name = "SPEC", default_value = "engine:nodes=4000")]
    pub player: PlayerSpec,

    /// This process plays shard K of N: chunks K, K+N, K+2N, ... (from 0); the shards' files
    /// together are the whole data set.
    #[arg(long, value_name = "K/N", default_value = "0/1", value_parser = parse_shard)]
    pub shard: (u64, u64),

    /// Chunks played at once (default: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Most random moves after the opening (each game draws 0 to this many).
    #[arg(long = "random-plies", value_name = "N", default_value_t = 3)]
    pub random_plies: u32,

    /// Openings file (lines of moves from the start); default: the 156 ACF three-move ballots.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// Endgame databases labelling small positions with their exact values (default:
    /// $CHECKERS_EGDB, else the platform's cache directory, when it exists).
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,

    /// Positions of at most this many pieces are looked up in the databases (0: none); the
    /// folder should hold every class of that size (`checkers egdb build --pieces N`).
    #[arg(long = "egdb-pieces", value_name = "N", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(0..=6))]
    pub egdb_pieces: u32,

    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse::<u64>().ok()?, n.parse::<u64>().ok()?)));
    match parsed {
        Some((k, n)) if n > 0 && k < n => Ok((k, n)),
        _ => Err(format!(
            "`{text}` is not K/N with 0 <= K < N (shard K of N, from 0)"
        )),
    }
}

/// Runs `selfplay`.
pub fn run(args: &SelfPlayArgs) -> Result<ExitCode> {
    let PlayerSpec::Engine(engine) = args.player.clone() else {
        return Err(BadInput(format!(
            "--player {}: self-play needs the engine (engine:nodes=N)",
            args.player
        ))
        .into());
    };
    let text = match &args.openings {
        Some(path) => String::from_utf8_lossy(&files::read_bytes(path)?).into_owned(),
        None => openings::THREE_MOVE_BALLOTS.to_owned(),
    };
    let lines = openings::parse_openings(&text).map_err(|e| BadInput(format!("openings: {e}")))?;
    let egdb_dir = args
        .egdb
        .clone()
        .or_else(|| Store::default_dir().filter(|d| d.is_dir()));
    let exact_pieces = if egdb_dir.is_some() {
        args.egdb_pieces
    } else {
        0
    };
    let config = SelfPlayConfig {
        seed: args.seed,
        engine,
        openings: lines.into_iter().map(|o| o.moves).collect(),
        random_plies: args.random_plies,
        max_plies: 300,
        after_exact: 16,
        exact_pieces,
        chunk_games: args.chunk_games,
    };
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let (shard, shards) = args.shard;
    let settings = config.settings_hash();
    // Chunks already written with these settings are kept; others are an error.
    let mut todo = Vec::new();
    let mut done_games = 0;
    for c in shard_chunks(&config, args.games, shard, shards) {
        let path = args.out.join(dataset::chunk_name(c));
        let want = config.header(c, args.games);
        if path.exists() {
            match dataset::read_chunk(&path) {
                Ok((h, _)) if h == want => {
                    done_games += u64::from(h.games);
                    continue;
                }
                Ok((h, _)) if h.settings != settings => bail!(
                    "{}: written with other settings (seed, player, openings or chunk size); \
                     use another --out folder",
                    path.display()
                ),
                Ok(_) | Err(DatasetError::Bad { .. }) => {
                    if !args.quiet {
                        eprintln!("{}: incomplete or damaged, played again", path.display());
                    }
                }
                Err(e) => return Err(e.into()),
            }
        }
        todo.push((c, path, want.games));
    }
    let total: u64 = todo.iter().map(|t| u64::from(t.2)).sum();
    if !args.quiet {
        eprintln!(
            "shard {shard}/{shards}: {} chunks to play ({total} games), {} already written ({done_games} games); labels from the databases up to {exact_pieces} pieces{}",
            todo.len(),
            shard_chunks(&config, args.games, shard, shards).len() - todo.len(),
            egdb_dir
                .as_ref()
                .map(|d| format!(" in {}", d.display()))
                .unwrap_or_default()
        );
    }
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} ETA {eta} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("starting the worker threads")?;
    let positions = std::sync::atomic::AtomicU64::new(0);
    let log_lines = !args.quiet && !std::io::stderr().is_terminal();
    let began = std::time::Instant::now();
    let result: Result<(), DatasetError> = pool.install(|| {
        todo.par_iter().try_for_each_init(
            || match &egdb_dir {
                Some(dir) if exact_pieces > 0 => {
                    Labeller::new(EndgameDb::with_store(Store::new(dir)), exact_pieces)
                }
                _ => Labeller::none(),
            },
            |labels, (c, path, _)| {
                let (header, records) = play_chunk(&config, *c, args.games, labels, &|| bar.inc(1));
                let n = positions
                    .fetch_add(records.len() as u64, std::sync::atomic::Ordering::Relaxed)
                    + records.len() as u64;
                bar.set_message(format!("{n} positions"));
                dataset::write_chunk(path, &header, &records)?;
                if log_lines {
                    // No progress bar off a terminal: one line per chunk for the log.
                    let done = bar.position();
                    let secs = began.elapsed().as_secs_f64();
                    let rate = done as f64 / secs.max(1e-9);
                    eprintln!(
                        "{}: {} positions; {done}/{total} games, {n} positions, {rate:.2} games/s, ETA {:.0} s",
                        path.display(),
                        records.len(),
                        (total - done) as f64 / rate.max(1e-9)
                    );
                }
                Ok(())
            },
        )
    });
    bar.finish_and_clear();
    result?;
    output::println(&format!(
        "shard {shard}/{shards}: {} games played, {} positions written to {}",
        total,
        positions.into_inner(),
        args.out.display()
    ))?;
    Ok(ExitCode::SUCCESS)
}
