//! `checkers think`: one move for one position, the way scripts call an engine.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::{Args, ValueEnum};

use checkers::formats::{files, notation};
use checkers::play::{Clock, Engine, EngineOptions, Game};
use checkers::rules::draw::DrawRule;
use checkers::{Bitboard, Color, Position};

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
    /// The position in FEN, e.g. `W:W21,22,K23:B1,2,3` (W: red to move).
    #[arg(long, value_name = "FEN", conflicts_with = "inputfile")]
    pub fen: Option<String>,

    /// The position as a board file (8 lines of `.rRbB`).
    #[arg(long, value_name = "FILE")]
    pub inputfile: Option<PathBuf>,

    /// The side to move in the board file.
    #[arg(long, value_enum, default_value = "red", requires = "inputfile")]
    pub side: Side,

    /// Think this many milliseconds (wall time, from process start to answer).
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

    /// Also print the depth, score, nodes, speed and expected line on stderr.
    #[arg(long)]
    pub info: bool,
}

/// Default thinking time when no limit is given.
const DEFAULT_TIME_MS: u64 = 1000;

/// Runs `think`.
pub fn run(args: &ThinkArgs, started: std::time::Instant) -> Result<ExitCode> {
    let pos = match (&args.fen, &args.inputfile) {
        (Some(fen), _) => match parse_fen(fen) {
            Ok(pos) => pos,
            Err(msg) => {
                eprintln!("checkers: error: bad FEN `{fen}`: {msg}");
                return Ok(ExitCode::from(2));
            }
        },
        (None, Some(path)) => {
            let side = match args.side {
                Side::Red => Color::Red,
                Side::Black => Color::Black,
            };
            files::read_puzzle(path)?.with_side_to_move(side)
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
    let mut engine = Engine::new(EngineOptions {
        nodes: args.nodes,
        depth: args.depth,
        ..EngineOptions::default()
    });
    let game = Game::new(pos, DrawRule::None);
    let Some(thought) = engine.think(&game, &clock) else {
        println!("none");
        return Ok(ExitCode::from(1));
    };
    println!("{}", notation::move_text(&pos, thought.best));
    if args.info {
        let secs = thought.elapsed.as_secs_f64();
        let mut line = Vec::new();
        let mut p = pos;
        for &mv in &thought.pv {
            line.push(notation::move_text(&p, mv));
            p = p.play(mv);
        }
        eprintln!(
            "depth {} score {} nodes {} time {:.3} s nps {:.0} pv {}",
            thought.depth,
            thought.score,
            thought.nodes,
            secs,
            thought.nodes as f64 / secs.max(1e-9),
            line.join(" ")
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads a FEN such as `W:W21,22,K23:B1,2,3` (ranges like `21-32` allowed, a final `.`
/// tolerated). A stop-gap until the formats layer has its own FEN reader.
fn parse_fen(text: &str) -> Result<Position, String> {
    let text = text.trim().trim_end_matches('.');
    let mut parts = text.split(':');
    let side = match parts.next().map(str::trim) {
        Some("W") => Color::Red,
        Some("B") => Color::Black,
        other => {
            return Err(format!(
                "the side to move must be W or B, found `{}`",
                other.unwrap_or("")
            ))
        }
    };
    let mut boards = [Bitboard::EMPTY; 2];
    let mut kings = Bitboard::EMPTY;
    let mut seen = [false; 2];
    for part in parts {
        let part = part.trim();
        let (color, list) = match part.split_at_checked(1) {
            Some(("W", rest)) => (0, rest),
            Some(("B", rest)) => (1, rest),
            _ => {
                return Err(format!(
                    "a piece list must start with W or B, found `{part}`"
                ))
            }
        };
        if seen[color] {
            return Err(format!("two piece lists for {}", ["W", "B"][color]));
        }
        seen[color] = true;
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (king, num) = match item.strip_prefix('K') {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let (lo, hi) = match num.split_once('-') {
                Some((a, b)) => (square_number(a)?, square_number(b)?),
                None => (square_number(num)?, square_number(num)?),
            };
            if lo > hi {
                return Err(format!("empty range `{item}`"));
            }
            for n in lo..=hi {
                let sq = notation::square_of_number(n).ok_or(format!("no square {n}"))?;
                if (boards[0] | boards[1]).contains(sq) {
                    return Err(format!("square {n} is listed twice"));
                }
                boards[color] |= sq.bit();
                if king {
                    kings |= sq.bit();
                }
            }
        }
    }
    if !(seen[0] && seen[1]) {
        return Err("expected a W list and a B list".to_owned());
    }
    Position::new(boards[0], boards[1], kings, side).map_err(|e| e.to_string())
}

/// A square number 1-32.
fn square_number(text: &str) -> Result<u8, String> {
    text.trim()
        .parse::<u8>()
        .ok()
        .filter(|n| (1..=32).contains(n))
        .ok_or_else(|| format!("`{text}` is not a square number from 1 to 32"))
}
