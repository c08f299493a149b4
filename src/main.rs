//! The `checkers` command: parses arguments and calls the library (see `cli`).

mod cli;

use std::process::ExitCode;

use clap::Parser;

use checkers::formats::files::InputError;

fn main() -> ExitCode {
    let started = std::time::Instant::now();
    // A bare `checkers`: how to start, rather than clap's list of missing arguments.
    if std::env::args_os().len() == 1 {
        let _ = cli::output::eprintln(cli::short_usage().trim_end());
        return ExitCode::from(2);
    }
    match cli::Cli::parse().run(started) {
        Ok(code) => code,
        Err(err) => {
            if let Some(code) = cli::output::quiet_exit(&err) {
                return ExitCode::from(code);
            }
            let code = if err.downcast_ref::<InputError>().is_some()
                || err.downcast_ref::<cli::output::BadInput>().is_some()
            {
                2
            } else {
                1
            };
            // When standard error fails too, there is nowhere left to say so; the code says it.
            let _ = cli::output::eprintln(&format!("checkers: error: {err:#}"));
            ExitCode::from(code)
        }
    }
}
