//! `checkers perft`: count the leaves of the move tree.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use checkers::formats::{input, notation};
use checkers::rules::movegen::Routes;
use checkers::rules::perft;
use checkers::Position;

use super::{memory, output};

/// Arguments of `perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
    pub depth: u32,

    /// Start from this position instead of the standard start position: a board, a FEN or a
    /// PDN game (either side to move).
    #[arg(long, value_name = "FILE")]
    pub inputfile: Option<PathBuf>,

    /// Start from this FEN, e.g. `B:W21-32:B1-12` (either side to move).
    #[arg(long, value_name = "FEN", conflicts_with = "inputfile")]
    pub fen: Option<String>,

    /// Print the count under each first move.
    #[arg(long)]
    pub divide: bool,

    /// Count each distinct successor position once, merging capture routes.
    #[arg(long)]
    pub distinct: bool,

    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,

    /// Size of the table of subtree counts shared by the threads, in MiB (0: no table).
    #[arg(long = "hash-mb", value_name = "MIB", default_value_t = 32,
          value_parser = clap::value_parser!(u64).range(0..=65_536))]
    pub hash_mb: u64,
}

/// Runs perft.
pub fn run(args: &PerftArgs) -> Result<ExitCode> {
    let pos = match (&args.inputfile, &args.fen) {
        (Some(path), _) => input::read_position(path, None)?,
        (None, Some(fen)) => input::fen_position(fen)?,
        (None, None) => Position::start(),
    };
    let routes = if args.distinct {
        Routes::Distinct
    } else {
        Routes::All
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.map_or(0, |t| t as usize))
        .build()?;
    let started = std::time::Instant::now();
    let table = table(args.hash_mb)?;
    let mut out = String::new();
    let total = pool.install(|| {
        if args.divide {
            let rows = perft::divide(&pos, args.depth, routes, &table);
            for (mv, n) in &rows {
                out.push_str(&format!("{} {n}\n", notation::move_text(&pos, *mv)));
            }
            rows.iter().map(|(_, n)| n).sum()
        } else {
            perft::perft_parallel(&pos, args.depth, routes, &table)
        }
    });
    let secs = started.elapsed().as_secs_f64();
    out.push_str(&format!("{total}\n"));
    output::print(&out)?;
    output::eprintln(&format!(
        "perft {}: {total} leaves in {secs:.3} s ({:.1} M leaves/s)",
        args.depth,
        total as f64 / secs.max(1e-9) / 1e6
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// The table of `--hash-mb` MiB. A size beyond the memory the system has available is refused
/// with a message (exit 2) rather than pushing the machine into swap; a size the allocator
/// still refuses is halved until it is had, with one warning.
fn table(megabytes: u64) -> Result<perft::PerftTable> {
    let wanted = usize::try_from(megabytes).unwrap_or(usize::MAX);
    let bytes = perft::PerftTable::bytes_for(wanted) as u64;
    if let Some(available) = memory::available_bytes() {
        if bytes > available {
            return Err(output::BadInput(format!(
                "--hash-mb {megabytes}: a table of {} MiB does not fit in the {} MiB of memory \
                 available; ask for less",
                memory::mib(bytes),
                memory::mib(available)
            ))
            .into());
        }
    }
    let mut size = wanted;
    loop {
        match perft::PerftTable::try_new(size) {
            Ok(table) => {
                if size != wanted {
                    output::eprintln(&format!(
                        "checkers: warning: --hash-mb {megabytes}: the memory could not be had; \
                         using a table of {size} MiB"
                    ))?;
                }
                return Ok(table);
            }
            Err(_) if size > 1 => size /= 2,
            Err(_) => {
                output::eprintln(&format!(
                    "checkers: warning: --hash-mb {megabytes}: the memory could not be had; \
                     counting without a table"
                ))?;
                return Ok(perft::PerftTable::empty());
            }
        }
    }
}
