//! `checkers think`: one move for one position, the way scripts call an engine.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::{Args, ValueEnum};

use checkers::formats::{input, notation};

use super::output::{self, BadInput};
use super::solve::EvalArg;
use checkers::play::{default_egdb, Clock, Engine, EngineOptions, Game};
use checkers::rules::draw::DrawRule;
use checkers::search::eval::{Evaluator, Weights};
use checkers::{Color, Position};

/// The side to move in a board file.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Side {
    /// Red (at the bottom, moving up).
    Red,
    /// Black (at the top, moving down).
    Black,
}

/// Arguments of `think`.
#[derive(Debug, Args)]
pub struct ThinkArgs {
    /// The position in FEN, e.g. `W:W21,22,K23:B1,2,3` (W: red to move). Without --fen or
    /// --inputfile: the start position, red to move.
    #[arg(long, value_name = "FEN", conflicts_with = "inputfile")]
    pub fen: Option<String>,

    /// The position as a file: a board (8 lines of `.rRbB`), a FEN, or a PDN game (its end).
    #[arg(long, value_name = "FILE")]
    pub inputfile: Option<PathBuf>,

    /// The side to move in the board file (default red; FEN and PDN files say it themselves).
    #[arg(long, value_enum, requires = "inputfile")]
    pub side: Option<Side>,

    /// Think this many milliseconds (wall time, from process start to answer); without
    /// --time-ms, --nodes or --depth: 1000 (one second).
    #[arg(long = "time-ms", value_name = "N", conflicts_with_all = ["nodes", "depth"],
          value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub time_ms: Option<u64>,

    /// Search this many nodes (deterministic).
    #[arg(long, value_name = "N", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,

    /// Search to this depth.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=200))]
    pub depth: Option<u32>,

    /// The draw rule the engine looks ahead under: none, fifty-moves, csci561 or dd2380, as on
    /// every subcommand. The position starts a game, so only repetitions and quiet moves within
    /// the search count.
    #[arg(long = "draw-rule", value_name = "RULE", default_value = "none")]
    pub draw_rule: DrawRule,

    /// Also print the depth, score, nodes, speed, the process's CPU time and the expected line on
    /// stderr.
    #[arg(long)]
    pub info: bool,

    /// The evaluation (default: trained): `trained`, the trained tables with the shipped weights,
    /// `net`, those tables with a small network beside them, or `hand`, the player's
    /// hand-written set (the baseline).
    #[arg(long, value_enum, value_name = "EVAL", conflicts_with = "weights")]
    pub eval: Option<EvalArg>,

    /// Trained weights to evaluate with instead of the shipped ones (`checkers train --out`).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,

    /// Endgame databases to read (`checkers egdb build`), or `none` (default: $CHECKERS_EGDB,
    /// else the platform's cache directory, when it exists).
    #[arg(long, value_name = "DIR|none")]
    pub egdb: Option<PathBuf>,
}

/// Default thinking time when no limit is given.
const DEFAULT_TIME_MS: u64 = 1000;

/// Runs `think`.
pub fn run(args: &ThinkArgs, started: std::time::Instant) -> Result<ExitCode> {
    let pos = match (&args.fen, &args.inputfile) {
        (Some(fen), _) => input::fen_position(fen)?,
        (None, Some(path)) => {
            let pos = input::read_position(path, None)?;
            match args.side {
                Some(Side::Red) => pos.with_side_to_move(Color::Red),
                Some(Side::Black) => pos.with_side_to_move(Color::Black),
                None => pos,
            }
        }
        (None, None) => Position::start(),
    };
    let limited = args.nodes.is_some() || args.depth.is_some();
    let clock = if limited {
        Clock::unlimited()
    } else {
        let total = Duration::from_millis(args.time_ms.unwrap_or(DEFAULT_TIME_MS));
        // The time counts from process start: what was spent reading the input is gone.
        Clock::per_move(total.saturating_sub(started.elapsed()))
    };
    let egdb = match &args.egdb {
        Some(dir) if dir.as_os_str() == "none" => None,
        Some(dir) if !dir.is_dir() => {
            return Err(BadInput(format!(
                "--egdb {}: not a directory of endgame databases",
                dir.display()
            ))
            .into())
        }
        Some(dir) => Some(dir.clone()),
        None => default_egdb(),
    };
    let mut options = EngineOptions {
        nodes: args.nodes,
        depth: args.depth,
        egdb,
        ..EngineOptions::default()
    };
    match (args.eval, &args.weights) {
        (_, Some(path)) => {
            options.search.evaluator =
                Evaluator::from_file(path).map_err(|e| BadInput(e.to_string()))?;
        }
        (Some(EvalArg::Hand), None) => {
            options.search.evaluator = Evaluator::Hand(Weights::default());
        }
        (Some(EvalArg::Trained), None) => options.search.evaluator = Evaluator::shipped()?,
        (Some(EvalArg::Net), None) => options.search.evaluator = Evaluator::shipped_net()?,
        (None, None) => {}
    }
    let mut engine = Engine::new(options);
    let game = Game::new(pos, args.draw_rule);
    let Some(thought) = engine.think(&game, &clock) else {
        output::println("none")?;
        return Ok(ExitCode::from(1));
    };
    output::println(&notation::move_text(&pos, thought.best))?;
    if args.info {
        let secs = thought.elapsed.as_secs_f64();
        let mut line = Vec::new();
        let mut p = pos;
        for &mv in &thought.pv {
            line.push(notation::move_text(&p, mv));
            p = p.play(mv);
        }
        output::eprintln(&format!(
            "depth {} score {} nodes {} time {:.3} s nps {:.0} process cpu {} pv {}",
            thought.depth,
            thought.score,
            thought.nodes,
            secs,
            thought.nodes as f64 / secs.max(1e-9),
            cpu_time::ProcessTime::try_now()
                .map(|t| format!("{:.3} s", t.as_duration().as_secs_f64()))
                .unwrap_or_else(|_| "unknown".to_owned()),
            line.join(" ")
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
