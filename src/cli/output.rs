//! Writing to standard output and standard error without panicking.
//!
//! `println!` and `eprintln!` panic when the stream fails, and the release profile turns a panic
//! into an abort (exit 134). These helpers return the failure instead, as a [`StreamError`] that
//! `main` turns into an exit code:
//! - standard output closed by its reader (`checkers bench | head -1`): the run ends quietly
//!   with exit 0, as the reader wanted no more;
//! - any other standard output failure (a full disk): a message and exit 1;
//! - standard error failing: exit 1 without a message, there being nowhere to write one.

use std::io::{self, Write};

use thiserror::Error;

/// A failure to write to standard output or standard error.
#[derive(Debug, Error)]
pub enum StreamError {
    /// The reader of standard output went away.
    #[error("standard output was closed by its reader")]
    Closed,
    /// Standard output failed otherwise.
    #[error("cannot write to standard output: {0}")]
    Stdout(io::Error),
    /// Standard error failed.
    #[error("cannot write to standard error")]
    Stderr,
}

/// Input that cannot be used, found by the command line itself rather than by the library
/// (which reports [`checkers::formats::files::InputError`]); exit code 2 like those.
#[derive(Debug, Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Writes `text` to standard output and flushes it.
pub fn print(text: &str) -> Result<(), StreamError> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                StreamError::Closed
            } else {
                StreamError::Stdout(e)
            }
        })
}

/// Writes `line` and a newline to standard output.
pub fn println(line: &str) -> Result<(), StreamError> {
    print(&format!("{line}\n"))
}

/// Writes `line` and a newline to standard error.
pub fn eprintln(line: &str) -> Result<(), StreamError> {
    let mut err = io::stderr().lock();
    writeln!(err, "{line}")
        .and_then(|()| err.flush())
        .map_err(|_| StreamError::Stderr)
}

/// How an error ends the run: `None` to print it with the given exit code, or `Some(code)` to
/// exit with `code` and print nothing (standard output closed by its reader, or standard error
/// itself failing).
pub fn quiet_exit(err: &anyhow::Error) -> Option<u8> {
    for cause in err.chain() {
        if let Some(stream) = cause.downcast_ref::<StreamError>() {
            return match stream {
                StreamError::Closed => Some(0),
                StreamError::Stdout(_) => None,
                StreamError::Stderr => Some(1),
            };
        }
        if let Some(output) = cause.downcast_ref::<checkers::formats::files::OutputError>() {
            if output.is_broken_pipe() {
                return Some(0);
            }
        }
    }
    None
}
