//! `checkers agent`: the USC CSCI561 agent (one move from `input.txt` to `output.txt`) and
//! `checkers calibrate` (writes `calibration.txt`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use checkers::formats::files;
use checkers::play::PlayerSpec;
use checkers::protocols::csci561::agent::{self, AgentOptions};
use checkers::protocols::csci561::calibration::{Calibration, CALIBRATION_FILE};
use checkers::protocols::csci561::{cell_name, colour_keyword};

use super::output::{self, BadInput};

/// Arguments of `agent`.
#[derive(Debug, Args)]
pub struct AgentArgs {
    /// The folder holding input.txt, where output.txt and playdata.txt are written.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// Play as this player instead of the engine: `minimax:4` (the course's reference agent's
    /// kind), `random`, `engine:nodes=N` (repeatable). The CPU-time clock still applies.
    #[arg(long, value_name = "SPEC")]
    pub player: Option<PlayerSpec>,

    /// Say on stderr what the agent thought.
    #[arg(long, short)]
    pub verbose: bool,
}

/// Plays one move. Exit codes: 0 a move was written; 2 input.txt is missing or malformed (the
/// line is named, and no output.txt is left); 1 anything else (no legal move, a write failure).
pub fn run(args: &AgentArgs) -> Result<ExitCode> {
    let options = AgentOptions {
        player: args.player.clone(),
    };
    let report = match agent::run(&args.dir, &options) {
        Ok(r) => r,
        Err(e) if e.is_bad_input() => return Err(BadInput(e.to_string()).into()),
        Err(e) => return Err(e.into()),
    };
    for note in &report.notes {
        output::eprintln(&format!("checkers agent: {note}"))?;
    }
    if args.verbose {
        let pos = report.input.position;
        let mut line = format!(
            "{} {} -> {}{}, limit {:.3} s, {} plies known",
            colour_keyword(pos.side_to_move()),
            cell_name(report.mv.from()),
            cell_name(report.mv.to()),
            if report.mv.is_capture() {
                " (capture)"
            } else {
                ""
            },
            report.limit.as_secs_f64(),
            report.known_plies
        );
        if let Some(t) = &report.thought {
            line.push_str(&format!(
                "; depth {}, score {}, {} nodes in {:.3} s",
                t.depth,
                t.score,
                t.nodes,
                t.elapsed.as_secs_f64()
            ));
        }
        output::eprintln(&line)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Arguments of `calibrate`.
#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// The folder to write calibration.txt in (the agent's folder).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// CPU seconds to measure for.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    pub seconds: f64,
}

/// Measures the engine's speed and writes calibration.txt.
pub fn calibrate(args: &CalibrateArgs) -> Result<ExitCode> {
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 600.0) {
        return Err(BadInput(format!(
            "--seconds {}: expected a number of seconds between 0 and 600",
            args.seconds
        ))
        .into());
    }
    let c = Calibration::measure(Duration::from_secs_f64(args.seconds));
    let path = args.dir.join(CALIBRATION_FILE);
    files::write_output(&path, c.to_text().as_bytes())?;
    output::println(&format!(
        "{}: {} nodes per second",
        path.display(),
        c.nodes_per_second
    ))?;
    Ok(ExitCode::SUCCESS)
}
