//! The default command: solve a puzzle and write the whole game.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use checkers::formats::export::{self, OutputFormat};
use checkers::formats::{files, input};
use checkers::rules::draw::DrawRule;
use checkers::search::eval::Evaluator;
use checkers::search::knobs;
use checkers::search::puzzle::solve::{self, SolveOptions};
use checkers::{Color, SetupWarning};

use super::output;

/// Options of the solver.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle file (`-`: standard input): a board, a FEN or a PDN game.
    ///
    /// A board is 8 lines of 8 characters from `.rRbB`, red to move; a PDN game gives the
    /// position after its moves. The format is told apart by the content.
    #[arg(long, value_name = "FILE", required_unless_present = "fen")]
    pub inputfile: Option<PathBuf>,

    /// The puzzle as a FEN instead of a file, e.g. `W:WK19,K23:BK28,12` (W: red to move).
    #[arg(long, value_name = "FEN", conflicts_with = "inputfile")]
    pub fen: Option<String>,

    /// Which game of a PDN file holding several, from 1.
    #[arg(long, value_name = "N", requires = "inputfile",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub game: Option<u32>,

    /// Format of the solution: board text (default), PDN with each move's value, or FEN lines.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,

    /// Where to write the solution (`-`: standard output).
    ///
    /// Every state of the game, one empty line between states.
    /// A regular file is replaced atomically, keeping its permissions (a new one gets 0666 less
    /// the umask), and is left untouched on any error; a symbolic link's target is replaced.
    /// Devices and fifos (`/dev/null`, `/dev/stdout`) are written directly. A file in a
    /// read-only folder is rewritten in place, the only way to update it.
    #[arg(long, value_name = "FILE", required = true)]
    pub outputfile: Option<PathBuf>,

    #[command(flatten)]
    pub engine: EngineArgs,

    /// Directory of endgame databases built by `checkers egdb build`, read instead of building
    /// them (default: $CHECKERS_EGDB, else the platform's cache directory, when it exists).
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,

    /// Print nothing on stderr but errors.
    ///
    /// No warnings, no summary line.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The solution formats, as written on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Every state as 8 rows of `.rRbB`, one empty line between states.
    Text,
    /// A PDN game: setup tags, moves in standard notation, values as comments, result.
    Pdn,
    /// One FEN per state.
    Fen,
}

/// The evaluations, as `--eval` names them on every subcommand: the hand-written set of that
/// use (the solver's puzzle set, the player's game set) or the trained one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalArg {
    /// The hand-written evaluation.
    #[value(alias = "puzzle")]
    Hand,
    /// The trained evaluation with the shipped weights.
    Trained,
    /// The trained tables plus a network, with the shipped weights.
    Net,
}

impl From<FormatArg> for OutputFormat {
    fn from(f: FormatArg) -> OutputFormat {
        match f {
            FormatArg::Text => OutputFormat::Text,
            FormatArg::Pdn => OutputFormat::Pdn,
            FormatArg::Fen => OutputFormat::Fen,
        }
    }
}

/// Search settings shared by the solver and the benchmark.
#[derive(Debug, Args, Clone)]
pub struct EngineArgs {
    /// Largest transposition table, in MiB.
    ///
    /// The table starts at 512 KiB and grows as the search needs it (one table per game).
    #[arg(long = "tt-mb", value_name = "MIB",
          default_value_t = knobs::DEFAULT_TT_MEGABYTES as u32,
          value_parser = clap::value_parser!(u32).range(1..=SolveOptions::MAX_TT_MEGABYTES as i64))]
    pub tt_mb: u32,

    /// Deepest search per move, in plies (default: no limit).
    ///
    /// Without it the search of a move stops when the result is proven or the move's node
    /// budget is spent.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=i64::from(SolveOptions::MAX_DEPTH)))]
    pub depth: Option<u32>,

    /// The whole game is played within this many seconds.
    ///
    /// Near the end the sides play quick shallow moves so that the game still finishes.
    #[arg(long = "time-limit", value_name = "SECONDS", default_value_t = knobs::DEFAULT_TIME_LIMIT.as_secs_f64(),
          value_parser = parse_seconds)]
    pub time_limit: f64,

    /// Nodes a move's iterative deepening may search before the best move found so far is
    /// played.
    ///
    /// Each side's first move gets 20 times as many, to prove the puzzle's value. Counting
    /// nodes, not time, keeps the output identical from run to run. How each turn's budget is
    /// set (deepening, proof share, database builds, deadline): design.md.
    #[arg(long = "nodes-per-move", value_name = "NODES",
          default_value_t = knobs::DEFAULT_NODES_PER_MOVE,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes_per_move: u64,

    /// The search speed assumed when turning the time limit into the game's budget of nodes
    /// for proving unproven moves (proof searches): the budget is this times 85% of the time
    /// limit, shared out among the turns as `search::puzzle::budget` describes. A count fixed by the
    /// settings, so the same puzzle and settings always give the same line. 0: no proof
    /// searches.
    #[arg(long = "nodes-per-second", value_name = "NODES",
          default_value_t = knobs::DEFAULT_NODES_PER_SECOND)]
    pub nodes_per_second: u64,

    /// The draw rule the game is played under: none (the puzzle rules: threefold repetition
    /// only), fifty-moves, csci561 or dd2380, as on every subcommand.
    ///
    /// A bare `--draw-rule` means `fifty-moves`: the game is also drawn after 50 moves of each
    /// side without a capture or a crowning.
    #[arg(long = "draw-rule", value_name = "RULE", num_args = 0..=1,
          default_value = "none", default_missing_value = "fifty-moves")]
    pub draw_rule: DrawRule,

    /// Measurement baseline: search without the transposition table.
    ///
    /// Same results, more work.
    #[arg(long = "no-table")]
    pub no_table: bool,

    /// Measurement baseline: search moves in generation order.
    ///
    /// Same results, more work.
    #[arg(long = "no-ordering")]
    pub no_ordering: bool,

    /// Measurement baseline: no endgame databases.
    ///
    /// Endgames of a few pieces are solved by search alone, without building their endgame
    /// databases. Same results when the search can prove them; far more work.
    #[arg(long = "no-endgame-db")]
    pub no_endgame_db: bool,

    /// Measurement baseline: no backward pass over a won game's unproven moves.
    ///
    /// The line is the one the turns played, without the check of its unproven moves from the
    /// end backwards (and the replay from a move proven suboptimal), and without the search for
    /// the win of a side that looked clearly ahead in a game drawn by repetition.
    #[arg(long = "no-repair")]
    pub no_repair: bool,

    /// Measurement baseline: the backward pass's bounded questions by the alpha-beta proof alone,
    /// on one thread.
    ///
    /// Without it each of the pass's questions ("a shorter win?", "every other move lost within n
    /// plies?") is asked at once of df-pn on a second thread, and the answer of whichever settles
    /// it first counted in nodes is taken, so the line does not depend on the threads' timing.
    /// Proven values are the same either way; unproven moves and the nodes differ.
    #[arg(long = "no-race")]
    pub no_race: bool,

    /// The evaluation that chooses the moves the solver cannot prove (default: trained).
    ///
    /// `trained`: the player's shipped weights choose among the moves the deepening scores
    /// within a quarter of a man of its best. `hand`: the solver's hand-written set, the one its
    /// proofs search with, plays the deepening's own move (`puzzle` is another name for it).
    /// `net`: as `trained`, with the shipped tables-and-network weights.
    /// Proven moves, and the work to prove them, are the same with either: a proven move is the
    /// canonical one.
    #[arg(long, value_enum, value_name = "EVAL", conflicts_with = "weights")]
    pub eval: Option<EvalArg>,

    /// Trained weights to evaluate with instead of the shipped ones (`checkers train --out`).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
}

/// A positive, finite number of seconds.
fn parse_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    match SolveOptions::time_limit_from_secs(v) {
        Ok(_) => Ok(v),
        Err(e) => Err(format!("'{s}' {e}")),
    }
}

/// Turns the engine arguments into solver options; an unreadable or refused weights file is an
/// error of the input.
pub fn solve_options(engine: &EngineArgs) -> Result<SolveOptions> {
    let evaluator = match (engine.eval, &engine.weights) {
        (_, Some(path)) => {
            Evaluator::from_file(path).map_err(|e| output::BadInput(e.to_string()))?
        }
        (Some(EvalArg::Hand), None) => Evaluator::Puzzle,
        (Some(EvalArg::Trained), None) => Evaluator::shipped()?,
        (Some(EvalArg::Net), None) => Evaluator::shipped_net()?,
        (None, None) => Evaluator::solver_default(),
    };
    let options = SolveOptions {
        tt_megabytes: engine.tt_mb as usize,
        max_depth: engine.depth,
        time_limit: Duration::from_secs_f64(engine.time_limit),
        nodes_per_move: engine.nodes_per_move,
        nodes_per_second: engine.nodes_per_second,
        draw_rule: engine.draw_rule,
        features: checkers::search::Features {
            table: !engine.no_table,
            ordering: !engine.no_ordering,
            endgame_db: !engine.no_endgame_db,
            repair: !engine.no_repair,
            race: !engine.no_race,
        },
        evaluator,
    };
    options
        .validate()
        .map_err(|e| output::BadInput(e.to_string()))?;
    Ok(options)
}

/// Solves the puzzle and writes the solution.
pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    let Some(output) = &args.outputfile else {
        anyhow::bail!("--outputfile is required");
    };
    let (puzzle, name) = match (&args.inputfile, &args.fen) {
        (Some(input), _) => (
            input::read_puzzle(input, args.game.map(|g| g as usize))?,
            files::input_name(input).display().to_string(),
        ),
        (None, Some(fen)) => (input::fen_puzzle(fen)?, "--fen".to_string()),
        (None, None) => anyhow::bail!("--inputfile or --fen is required"),
    };
    if puzzle.occupied().is_empty() {
        return Err(output::BadInput(format!(
            "{name}: the board is empty: a puzzle needs pieces (8 lines of `.rRbB`, red to move)"
        ))
        .into());
    }
    let format = OutputFormat::from(args.format);
    if format != OutputFormat::Text {
        input::require_standard(&puzzle, &name)?;
    }
    if !args.quiet {
        for warning in warning_lines(&puzzle.setup_warnings()) {
            output::eprintln(&format!("checkers: warning: {name}: {warning}"))?;
        }
    }
    let endgame = solve::endgame_databases(args.egdb.as_deref());
    let solution = solve::solve_with(puzzle, &solve_options(&args.engine)?, endgame);
    let event = args
        .inputfile
        .as_ref()
        .and_then(|p| p.file_stem())
        .map_or("puzzle".to_string(), |s| s.to_string_lossy().into_owned());
    let text = export::write_solution(&solution, format, &event)?;
    files::write_output(output, text.as_bytes())?;
    if !args.quiet {
        output::eprintln(&export::summary(&solution))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One line per kind of warning: the men standing on their crowning row are listed together,
/// one line per side, instead of one line per man.
fn warning_lines(warnings: &[SetupWarning]) -> Vec<String> {
    let mut lines = Vec::new();
    for color in [Color::Red, Color::Black] {
        let squares: Vec<String> = warnings
            .iter()
            .filter_map(|w| match w {
                SetupWarning::ManOnCrowningRow { color: c, square } if *c == color => {
                    Some(square.to_string())
                }
                _ => None,
            })
            .collect();
        if squares.len() > 1 {
            lines.push(format!(
                "{} {} men stand on their crowning row ({}); they stay men and cannot move",
                squares.len(),
                color.name(),
                squares.join(", ")
            ));
        }
    }
    let grouped =
        |w: &SetupWarning| match w {
            SetupWarning::ManOnCrowningRow { color, .. } => warnings
                .iter()
                .filter(
                    |o| matches!(o, SetupWarning::ManOnCrowningRow { color: c, .. } if c == color),
                )
                .count()
                > 1,
            _ => false,
        };
    let single: Vec<String> = warnings
        .iter()
        .filter(|w| !grouped(w))
        .map(ToString::to_string)
        .collect();
    single.into_iter().chain(lines).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers::Square;

    #[test]
    fn men_on_their_crowning_row_make_one_line_per_side() {
        let at = |row, col| Square::new(row, col).expect("square");
        let warnings = [
            SetupWarning::ManOnCrowningRow {
                color: Color::Red,
                square: at(0, 1),
            },
            SetupWarning::ManOnCrowningRow {
                color: Color::Red,
                square: at(0, 3),
            },
            SetupWarning::ManOnCrowningRow {
                color: Color::Black,
                square: at(7, 0),
            },
            SetupWarning::TooManyPieces {
                color: Color::Red,
                count: 13,
            },
        ];
        let lines = warning_lines(&warnings);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].starts_with("a black man stands on its crowning row at row 8 col 1"));
        assert!(lines[1].starts_with("red has 13 pieces"));
        assert_eq!(
            lines[2],
            "2 red men stand on their crowning row (row 1 col 2, row 1 col 4); they stay men and \
             cannot move"
        );
    }
}
