//! The default command: solve a puzzle and write the whole game.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use checkers::formats::board_text::format_solution;
use checkers::formats::files;
use checkers::rules::game::Outcome;
use checkers::search::solve::{self, Solution, SolveOptions};
use checkers::{Color, SetupWarning};

use super::output;

/// Options of the solver.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle file (`-`: standard input).
    ///
    /// 8 lines of 8 characters from `.rRbB`, red to move.
    #[arg(long, value_name = "FILE", required = true)]
    pub inputfile: Option<PathBuf>,

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

    /// Print nothing on stderr but errors.
    ///
    /// No warnings, no summary line.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Search settings shared by the solver and the benchmark.
#[derive(Debug, Args, Clone, Copy)]
pub struct EngineArgs {
    /// Largest transposition table, in MiB.
    ///
    /// The table starts at 512 KiB and grows as the search needs it (one table per game).
    #[arg(long = "tt-mb", value_name = "MIB", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub tt_mb: u32,

    /// Deepest search per move, in plies (default: no limit).
    ///
    /// Without it the search of a move stops when the result is proven or the move's node
    /// budget is spent.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=990))]
    pub depth: Option<u32>,

    /// The whole game is played within this many seconds.
    ///
    /// Near the end the sides play quick shallow moves so that the game still finishes.
    #[arg(long = "time-limit", value_name = "SECONDS", default_value_t = 50.0,
          value_parser = parse_seconds)]
    pub time_limit: f64,

    /// Nodes a move may search before the best move found so far is played.
    ///
    /// Each side's first move gets 20 times as many, to prove the puzzle's value. Counting
    /// nodes, not time, keeps the output identical from run to run.
    #[arg(long = "nodes-per-move", value_name = "NODES", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes_per_move: u64,

    /// Also end the game as a draw after 50 moves of each side without a capture or a crowning.
    #[arg(long = "draw-rule")]
    pub draw_rule: bool,

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
        let name = if files::is_stdio(input) {
            "<stdin>".to_string()
        } else {
            input.display().to_string()
        };
        for warning in warning_lines(&puzzle.setup_warnings()) {
            output::eprintln(&format!("checkers: warning: {name}: {warning}"))?;
        }
    }
    let solution = solve::solve(puzzle, &solve_options(&args.engine));
    files::write_output(output, format_solution(&solution.states).as_bytes())?;
    if !args.quiet {
        output::eprintln(&summary(&solution))?;
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
        "{result} after {} ({proof}); {} states; {:.3} s; {} nodes; table hit rate {:.0}%{databases}",
        plural(s.moves(), "move"),
        s.states.len(),
        s.elapsed.as_secs_f64(),
        s.stats.nodes,
        100.0 * s.tt_hit_rate
    )
}

/// `n` and the noun, plural unless `n` is 1: "1 move", "7 moves".
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
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

    #[test]
    fn one_move_is_singular() {
        assert_eq!(plural(1, "move"), "1 move");
        assert_eq!(plural(0, "move"), "0 moves");
        assert_eq!(plural(7, "move"), "7 moves");
    }
}
