//! `checkers bench`: solve many puzzles and report figures.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::solve::{solve_options, EngineArgs};

/// Arguments of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files or folders of `*.txt` puzzles.
    #[arg(value_name = "PATH", default_value = "puzzles")]
    pub paths: Vec<PathBuf>,

    /// Puzzles solved at once (default: all cores). Each is timed on its own.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,

    /// Print the rows as JSON instead of a table.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Runs the benchmark.
pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    use std::io::IsTerminal;

    let puzzles = checkers::tools::bench::collect_puzzles(&args.paths)?;
    if puzzles.is_empty() {
        anyhow::bail!("no puzzle files (*.txt) found in the given paths");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.map_or(0, |j| j as usize))
        .build()?;
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(puzzles.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let options = solve_options(&args.engine);
    let results =
        pool.install(|| checkers::tools::bench::bench_all(&puzzles, &options, &|| progress.inc(1)));
    progress.finish_and_clear();
    // An unreadable file (a solution lying beside the puzzles, say) is reported and skipped, so
    // the other puzzles' figures are not lost; the exit code still says that one was bad.
    let mut rows = Vec::with_capacity(results.len());
    let mut unreadable = 0;
    for result in results {
        match result {
            Ok(row) => rows.push(row),
            Err(e) => {
                eprintln!("checkers: skipped: {e}");
                unreadable += 1;
            }
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{}", checkers::tools::bench::format_table(&rows));
    }
    Ok(if unreadable == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}
