//! The `checkers` command: parses arguments and calls the library.

mod cli;

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Parser;

use checkers::board_text::format_solution;
use checkers::files::{self, InputError};
use checkers::game::Outcome;
use checkers::movegen::Routes;
use checkers::notation;
use checkers::perft;
use checkers::solve::{self, Solution, SolveOptions};
use checkers::Position;

use cli::{BenchArgs, Cli, Command, EngineArgs, PerftArgs, SolveArgs, VerifyArgs};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("checkers: error: {err:#}");
            if err.downcast_ref::<InputError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Some(Command::Perft(args)) => run_perft(&args),
        Some(Command::Bench(args)) => run_bench(&args),
        Some(Command::Verify(args)) => run_verify(&args),
        None => run_solve(&cli.solve),
    }
}

/// Turns the engine arguments into solver options.
fn solve_options(engine: &EngineArgs) -> SolveOptions {
    SolveOptions {
        tt_megabytes: engine.tt_mb as usize,
        max_depth: engine.depth,
        time_limit: Duration::from_secs_f64(engine.time_limit),
        nodes_per_move: engine.nodes_per_move,
        fifty_move_rule: engine.draw_rule,
        features: checkers::search::Features {
            table: !engine.no_table,
            ordering: !engine.no_ordering,
            endgame_db: !engine.no_endgame_db,
        },
    }
}

fn run_solve(args: &SolveArgs) -> Result<ExitCode> {
    let (Some(input), Some(output)) = (&args.inputfile, &args.outputfile) else {
        anyhow::bail!("--inputfile and --outputfile are required");
    };
    let puzzle = files::read_puzzle(input)?;
    if !args.quiet {
        for warning in puzzle.setup_warnings() {
            eprintln!("checkers: warning: {}: {warning}", input.display());
        }
    }
    let solution = solve::solve(puzzle, &solve_options(&args.engine));
    files::write_atomic(output, &format_solution(&solution.states))?;
    if !args.quiet {
        eprintln!("{}", summary(&solution));
    }
    Ok(ExitCode::SUCCESS)
}

/// The one-line report of a solved game.
fn summary(s: &Solution) -> String {
    let result = match s.outcome {
        Outcome::Win(c) => format!("{} wins", c.name()),
        Outcome::DrawByRepetition => "draw by threefold repetition".to_string(),
        Outcome::DrawByFiftyMoves => "draw by the 50-move rule".to_string(),
    };
    let proof = if s.proven {
        "proven optimal"
    } else if s.time_limited {
        "not proven, time limit reached"
    } else {
        "not proven"
    };
    let databases = if s.endgame_positions == 0 {
        String::new()
    } else {
        format!(
            "; endgame databases of {:.1} M positions",
            s.endgame_positions as f64 / 1e6
        )
    };
    format!(
        "{result} after {} moves ({proof}); {} states; {:.3} s; {} nodes; table hit rate {:.0}%{databases}",
        s.moves(),
        s.states.len(),
        s.elapsed.as_secs_f64(),
        s.stats.nodes,
        100.0 * s.tt_hit_rate
    )
}

fn run_perft(args: &PerftArgs) -> Result<ExitCode> {
    let pos = match &args.inputfile {
        Some(path) => files::read_puzzle(path)?,
        None => Position::start(),
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
    let table = perft::PerftTable::new(usize::try_from(args.hash_mb)?);
    let total = pool.install(|| {
        if args.divide {
            let rows = perft::divide(&pos, args.depth, routes, &table);
            for (mv, n) in &rows {
                println!("{} {n}", notation::move_text(&pos, *mv));
            }
            rows.iter().map(|(_, n)| n).sum()
        } else {
            perft::perft_parallel(&pos, args.depth, routes, &table)
        }
    });
    let secs = started.elapsed().as_secs_f64();
    println!("{total}");
    eprintln!(
        "perft {}: {total} leaves in {secs:.3} s ({:.1} M leaves/s)",
        args.depth,
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(ExitCode::SUCCESS)
}

fn run_bench(args: &BenchArgs) -> Result<ExitCode> {
    use std::io::IsTerminal;

    let puzzles = checkers::bench::collect_puzzles(&args.paths)?;
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
        pool.install(|| checkers::bench::bench_all(&puzzles, &options, &|| progress.inc(1)));
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
        print!("{}", checkers::bench::format_table(&rows));
    }
    Ok(if unreadable == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

fn run_verify(args: &VerifyArgs) -> Result<ExitCode> {
    let puzzle = files::read_puzzle(&args.inputfile)?;
    let states = files::read_solution(&args.solution)?;
    let expected = args
        .expected
        .as_deref()
        .map(files::read_solution)
        .transpose()?;
    let verdict = checkers::verify::verify(&puzzle, &states, expected.as_deref());
    println!("{verdict}");
    Ok(if verdict.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
