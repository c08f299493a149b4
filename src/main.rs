//! The `checkers` command: parses arguments and calls the library (see `cli`).

mod cli;

use std::process::ExitCode;

use clap::Parser;

use checkers::formats::files::InputError;

fn main() -> ExitCode {
    let started = std::time::Instant::now();
    match cli::Cli::parse().run(started) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("checkers: error: {err:#}");
            if err.downcast_ref::<InputError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
