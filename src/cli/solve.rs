//! The default command: solve a puzzle and write the whole game.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use checkers::formats::board_text::format_solution;
use checkers::formats::files;
use checkers::rules::game::Outcome;
use checkers::search::solve::{self, Solution, SolveOptions, UnprovenMove};

/// Options of the solver.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle file: 8 lines of 8 characters from `.rRbB`, red to move.
    #[arg(long, value_name = "FILE", required = true)]
    pub inputfile: Option<PathBuf>,

    /// Where to write the solution: every state of the game, one empty line between states.
    /// Written atomically; left untouched on any error.
    #[arg(long, value_name = "FILE", required = true)]
    pub outputfile: Option<PathBuf>,

    #[command(flatten)]
    pub engine: EngineArgs,

    /// Print nothing on stderr but errors (no warnings, no summary line).
    #[arg(short, long)]
    pub quiet: bool,
}

/// Search settings shared by the solver and the benchmark.
#[derive(Debug, Args, Clone, Copy)]
pub struct EngineArgs {
    /// Largest transposition table in MiB; it starts at 512 KiB and grows as the search needs it
    /// (one table per game).
    #[arg(long = "tt-mb", value_name = "MIB", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub tt_mb: u32,

    /// Deepest search per move, in plies (default: no limit; the search stops when the result is
    /// proven or the move's node budget is spent).
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=990))]
    pub depth: Option<u32>,

    /// The whole game is played within this many seconds; near the end the sides play quick
    /// shallow moves so that the game still finishes.
    #[arg(long = "time-limit", value_name = "SECONDS", default_value_t = 50.0,
          value_parser = parse_seconds)]
    pub time_limit: f64,

    /// Nodes a move may search before the best move found so far is played (each side's first
    /// move gets 20 times as many, to prove the puzzle's value). Counting nodes, not time, keeps
    /// the output identical from run to run.
    #[arg(long = "nodes-per-move", value_name = "NODES", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes_per_move: u64,

    /// The search speed assumed when turning the time limit into the game's budget of nodes
    /// for proving unproven moves (proof searches): the budget is this times 85% of the time
    /// limit; each side's first unproven move may spend a quarter of what is left, later ones an
    /// eighth when their side's previous search saw a game end. A count fixed by the settings,
    /// so the same puzzle and settings always give the same line. 0: no proof searches.
    #[arg(long = "nodes-per-second", value_name = "NODES",
          default_value_t = checkers::search::solve::DEFAULT_NODES_PER_SECOND)]
    pub nodes_per_second: u64,

    /// Also end the game as a draw after 50 moves of each side without a capture or a crowning.
    #[arg(long = "draw-rule")]
    pub draw_rule: bool,

    /// Measurement baseline: search without the transposition table. Same results, more work.
    #[arg(long = "no-table")]
    pub no_table: bool,

    /// Measurement baseline: search moves in generation order. Same results, more work.
    #[arg(long = "no-ordering")]
    pub no_ordering: bool,

    /// Measurement baseline: solve endgames of a few pieces by search alone, without building
    /// their endgame databases. Same results when the search can prove them; far more work.
    #[arg(long = "no-endgame-db")]
    pub no_endgame_db: bool,
}

/// A positive, finite number of seconds.
fn parse_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if v.is_finite() && v > 0.0 && v <= 1.0e6 {
        Ok(v)
    } else {
        Err(format!(
            "'{s}' must be a positive number of seconds, at most 1000000"
        ))
    }
}

/// Turns the engine arguments into solver options.
pub fn solve_options(engine: &EngineArgs) -> SolveOptions {
    SolveOptions {
        tt_megabytes: engine.tt_mb as usize,
        max_depth: engine.depth,
        time_limit: Duration::from_secs_f64(engine.time_limit),
        nodes_per_move: engine.nodes_per_move,
        nodes_per_second: engine.nodes_per_second,
        fifty_move_rule: engine.draw_rule,
        features: checkers::search::Features {
            table: !engine.no_table,
            ordering: !engine.no_ordering,
            endgame_db: !engine.no_endgame_db,
        },
    }
}

/// Solves the puzzle and writes the solution.
pub fn run(args: &SolveArgs) -> Result<ExitCode> {
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
    let proof = match s.unproven.as_slice() {
        [] => proof.to_string(),
        moves => format!("{proof}: {}", unproven_moves(moves)),
    };
    let databases = if s.endgame_positions == 0 {
        String::new()
    } else {
        format!(
            "; endgame databases of {:.1} M positions",
            s.endgame_positions as f64 / 1e6
        )
    };
    let databases = match &s.endgame_error {
        Some(e) => format!("{databases}; {e}"),
        None => databases,
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

/// How far the proofs of the unproven moves got, the first few of them: "move 1: no end within
/// 11 plies, scored win in 25".
fn unproven_moves(moves: &[UnprovenMove]) -> String {
    const SHOWN: usize = 3;
    let mut parts: Vec<String> = moves
        .iter()
        .take(SHOWN)
        .map(|m| {
            let score = m.score.map_or(String::new(), |s| format!(", scored {s}"));
            format!(
                "move {}: no end within {} plies{score}",
                m.number, m.no_end_within
            )
        })
        .collect();
    if moves.len() > SHOWN {
        parts.push(format!("{} more", moves.len() - SHOWN));
    }
    parts.join("; ")
}
