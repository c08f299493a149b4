//! `checkers verify`: check a written solution.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use checkers::formats::files;

use super::output;

/// Arguments of `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The puzzle the solution starts from.
    #[arg(long, value_name = "FILE")]
    pub inputfile: PathBuf,

    /// The solution to check: states separated by one empty line.
    #[arg(long, value_name = "FILE")]
    pub solution: PathBuf,

    /// An expected solution to compare with (length and states).
    #[arg(long, value_name = "FILE")]
    pub expected: Option<PathBuf>,
}

/// Runs the check.
pub fn run(args: &VerifyArgs) -> Result<ExitCode> {
    let puzzle = files::read_puzzle(&args.inputfile)?;
    let states = files::read_solution(&args.solution)?;
    let expected = args
        .expected
        .as_deref()
        .map(files::read_solution)
        .transpose()?;
    let verdict = checkers::tools::verify::verify(&puzzle, &states, expected.as_deref());
    output::println(&verdict.to_string())?;
    Ok(if verdict.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
