//! `checkers hackerrank`: the HackerRank bot. Reads one position on standard input, prints one
//! move on standard output.

use std::io::Read;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use checkers::protocols::hackerrank::{self, AnswerError};

use super::output::{self, BadInput};

/// Arguments of `hackerrank`.
#[derive(Debug, Args)]
pub struct HackerRankArgs {
    /// Thinking time for the move, in seconds of wall time (more than 0).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    pub time: Duration,
}

/// A strictly positive, finite number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if secs.is_nan() || secs <= 0.0 {
        return Err(format!("`{text}`: the time must be more than 0 seconds"));
    }
    Duration::try_from_secs_f64(secs).map_err(|_| format!("`{text}`: the time is too large"))
}

/// More input than any board with generous spacing: reading stops there (a stream that never
/// ends is refused instead of filling memory).
const MAX_INPUT_BYTES: u64 = 64 * 1024;

/// Runs the bot: bad input exits 2 naming the line; a position without a legal move exits 1.
pub fn run(args: &HackerRankArgs) -> Result<ExitCode> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| BadInput(format!("cannot read standard input: {e}")))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(BadInput(format!(
            "standard input is longer than {MAX_INPUT_BYTES} bytes; expected the player, the \
             board size and 8 rows"
        ))
        .into());
    }
    let pos =
        hackerrank::parse_input(&bytes).map_err(|e| BadInput(format!("standard input, {e}")))?;
    match hackerrank::answer(&pos, args.time) {
        Ok(answer) => {
            output::print(&answer.text)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e @ AnswerError::NoLegalMove(_)) => {
            output::eprintln(&format!("checkers: {e}"))?;
            Ok(ExitCode::FAILURE)
        }
        Err(e) => Err(e.into()),
    }
}
