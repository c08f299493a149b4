//! `checkers host`: the CSCI561 referee, playing two file-protocol agents against each other.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

use checkers::formats::export::plural;
use checkers::formats::{files, pdn};
use checkers::matches::host::{self, AgentCommand, HostOptions};
use checkers::protocols::csci561::{colour_keyword, format_move};
use checkers::rules::piece::Color;

use super::output::{self, BadInput};

/// Arguments of `host`.
#[derive(Debug, Args)]
pub struct HostArgs {
    /// The command of the agent playing black in the first game, run with `sh -c` in a
    /// temporary folder of its own (so give programs and files by absolute path), e.g.
    /// "/path/to/checkers agent".
    #[arg(long, value_name = "CMD")]
    pub black: String,

    /// The command of the agent playing white in the first game.
    #[arg(long, value_name = "CMD")]
    pub white: String,

    /// CPU seconds of each agent for each game.
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub time: f64,

    /// Games to play.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub games: usize,

    /// Change colours after every game.
    #[arg(long)]
    pub swap: bool,

    /// Write every game as PDN to this file (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<PathBuf>,

    /// Instead of games, time one SINGLE move of each agent with this many CPU seconds: the
    /// --black agent as BLACK from the start position, the --white agent as WHITE from the
    /// start position with white to move. Exit code 1 when an answer is illegal or late.
    #[arg(long, value_name = "SECONDS")]
    pub single: Option<f64>,
}

/// Plays the games; prints each result and the totals. Exit code 0 when every game was played.
pub fn run(args: &HostArgs) -> Result<ExitCode> {
    if !(args.time.is_finite() && args.time > 0.0 && args.time <= 86_400.0) {
        return Err(BadInput(format!(
            "--time {}: expected a positive number of seconds (at most a day)",
            args.time
        ))
        .into());
    }
    for (flag, cmd) in [("--black", &args.black), ("--white", &args.white)] {
        if cmd.trim().is_empty() {
            return Err(BadInput(format!("{flag}: the command is empty")).into());
        }
    }
    if let Some(seconds) = args.single {
        return single(args, seconds);
    }
    let first = AgentCommand {
        name: args.black.clone(),
        command: args.black.clone(),
    };
    let second = AgentCommand {
        name: args.white.clone(),
        command: args.white.clone(),
    };
    let dir_a = tempfile::Builder::new()
        .prefix("csci561-first")
        .tempdir()
        .context("cannot create the first agent's folder")?;
    let dir_b = tempfile::Builder::new()
        .prefix("csci561-second")
        .tempdir()
        .context("cannot create the second agent's folder")?;
    let options = HostOptions::new(Duration::from_secs_f64(args.time));
    let mut printed: Result<(), output::StreamError> = Ok(());
    let reports = host::play_match(
        &first,
        &second,
        [dir_a.path(), dir_b.path()],
        args.games,
        args.swap,
        options,
        |n, report| {
            if printed.is_ok() {
                printed = output::println(&format!("game {n}: {}", report.summary()));
            }
        },
    )?;
    printed?;

    // Totals for the first agent (the one given as --black).
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for (g, r) in reports.iter().enumerate() {
        let first_colour = if args.swap && g % 2 == 1 {
            Color::Red
        } else {
            Color::Black
        };
        match r.winner() {
            Some(c) if c == first_colour => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    output::println(&format!(
        "{}: {}, {}, {} against {}",
        first.name,
        plural(wins, "win", "wins"),
        plural(losses, "loss", "losses"),
        plural(draws, "draw", "draws"),
        second.name
    ))?;
    if let Some(path) = &args.pdn {
        let games: Vec<pdn::Game> = reports
            .iter()
            .enumerate()
            .map(|(i, r)| r.to_pdn(i + 1))
            .collect();
        let text = pdn::write_games(&games)?;
        files::write_output(path, text.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `--single`: one timed SINGLE move of each agent.
fn single(args: &HostArgs, seconds: f64) -> Result<ExitCode> {
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 86_400.0) {
        return Err(BadInput(format!(
            "--single {seconds}: expected a positive number of seconds (at most a day)"
        ))
        .into());
    }
    let time = Duration::from_secs_f64(seconds);
    let mut all_good = true;
    let start = host::start_position();
    for (cmd, pos) in [
        (&args.black, start),
        (&args.white, start.with_side_to_move(Color::Red)),
    ] {
        let dir = tempfile::Builder::new()
            .prefix("csci561-single")
            .tempdir()
            .context("cannot create the agent's folder")?;
        let report = host::single_move(cmd, dir.path(), &pos, time)?;
        let verdict = match &report.result {
            Ok(mv) => format!(
                "legal {}",
                format_move(&pos, *mv).trim().replace('\n', ", ")
            ),
            Err(reason) => {
                all_good = false;
                format!("LOST: {reason}")
            }
        };
        output::println(&format!(
            "SINGLE {} with {seconds} s: {verdict}; CPU {:.4} s",
            colour_keyword(pos.side_to_move()),
            report.cpu.as_secs_f64(),
        ))?;
    }
    Ok(if all_good {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
