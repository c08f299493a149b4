//! `checkers show`: pictures of a puzzle and its solution: an SVG diagram, an offline HTML page
//! stepping through the game, or boards in the terminal.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use checkers::formats::export;
use checkers::formats::input::{self, ReadError};
use checkers::formats::replay::Replay;
use checkers::formats::svg::{self, SvgOptions};
use checkers::formats::{files, html, terminal};
use checkers::search::puzzle::solve::{self, SolveOptions};

/// Arguments of `show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The puzzle: a board, a FEN or a PDN file (a PDN game is shown whole, from its start).
    #[arg(long, value_name = "FILE", required_unless_present = "fen")]
    pub inputfile: Option<PathBuf>,

    /// The puzzle as a FEN instead of a file.
    #[arg(long, value_name = "FEN", conflicts_with = "inputfile")]
    pub fen: Option<String>,

    /// Which game of a PDN file holding several (input or solution), from 1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub game: Option<u32>,

    /// A solution to step through: the solver's board text, or its PDN (whose comments give
    /// each move's value). It must start from the puzzle.
    #[arg(long, value_name = "FILE")]
    pub solution: Option<PathBuf>,

    /// Solve the puzzle first (default solver settings) and show the solution with the proven
    /// value of each move.
    #[arg(long, conflicts_with = "solution")]
    pub solve: bool,

    /// Write an SVG diagram of one state (see --state) to this file.
    #[arg(long, value_name = "FILE", conflicts_with = "html")]
    pub svg: Option<PathBuf>,

    /// Write one self-contained HTML page stepping through the whole game to this file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// The state the SVG shows, from 1 (the puzzle); a later state shows the move that led to it
    /// as an arrow. Default: 1.
    #[arg(long, value_name = "N", requires = "svg",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub state: Option<u32>,

    /// Write the standard square numbers (1-32) on the dark cells of the diagrams.
    #[arg(long)]
    pub numbers: bool,

    /// Colour the terminal boards: auto (only when stdout is a terminal and NO_COLOR is unset),
    /// always or never.
    #[arg(long, value_enum, default_value_t = ColourArg::Auto)]
    pub color: ColourArg,
}

/// When to colour the terminal output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColourArg {
    /// When stdout is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The game to show: the puzzle alone, its given solution, or the one solved now.
fn replay(args: &ShowArgs) -> Result<Replay> {
    let game = args.game.map(|g| g as usize);
    let (puzzle, name) = match (&args.inputfile, &args.fen) {
        (Some(path), _) => (input::read_replay(path, game)?, path.display().to_string()),
        (None, Some(fen)) => {
            let pos = input::fen_position(fen)?;
            let replay = Replay::from_states(&[pos], &[], fen)
                .map_err(|e| input::source_error("--fen", ReadError::NotAGame(e)))?;
            (replay, "--fen".to_string())
        }
        (None, None) => anyhow::bail!("--inputfile or --fen is required"),
    };
    // The position the solution starts from: the end of a PDN game, or the board.
    let start = puzzle.states.last().copied();
    let Some(start) = start else {
        anyhow::bail!("{name}: no position to show");
    };
    if let Some(path) = &args.solution {
        let mut solution = input::read_replay(path, game)?;
        input::check_start(&solution, &start, path)?;
        solution.title = puzzle.title;
        return Ok(solution);
    }
    if args.solve {
        // Read again as a puzzle: black to move is an error naming where the side is set.
        match (&args.inputfile, &args.fen) {
            (Some(path), _) => input::read_puzzle(path, game)?,
            (None, Some(fen)) => input::fen_puzzle(fen)?,
            (None, None) => start,
        };
        let solved = solve::solve(start, &SolveOptions::default());
        let mut replay =
            Replay::from_states(&solved.states, &export::move_values(&solved), &puzzle.title)
                .map_err(|e| input::source_error(&name, ReadError::NotAGame(e)))?;
        replay.start_value = export::puzzle_value(&solved);
        return Ok(replay);
    }
    Ok(puzzle)
}

/// Runs `show`.
pub fn run(args: &ShowArgs) -> Result<ExitCode> {
    let replay = replay(args)?;
    let options = SvgOptions {
        numbers: args.numbers,
        ..SvgOptions::default()
    };
    if let Some(path) = &args.svg {
        let n = replay.states.len();
        let k = args.state.map_or(0, |s| s as usize - 1);
        let Some(pos) = replay.states.get(k) else {
            anyhow::bail!("--state {}: the game has {n} state(s)", k + 1);
        };
        let last = k
            .checked_sub(1)
            .and_then(|i| replay.paths.get(i))
            .map(Vec::as_slice);
        files::write_atomic(path, &svg::diagram(pos, last, &options))?;
    } else if let Some(path) = &args.html {
        files::write_atomic(path, &html::page(&replay, &options))?;
    } else {
        let colour = match args.color {
            ColourArg::Always => true,
            ColourArg::Never => false,
            ColourArg::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        print!("{}", terminal::replay(&replay, colour));
    }
    Ok(ExitCode::SUCCESS)
}
