//! Reading puzzle and solution files and writing solutions atomically.
//!
//! Errors name the file; board errors add the line and column. A solution is written to a
//! temporary file in the destination's folder and renamed over it, so a failed or killed run never
//! leaves a half-written or clobbered output.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::formats::board_text::{self, BoardError};
use crate::formats::input::{self, ReadError};
use crate::rules::position::Position;

/// Largest file read as a puzzle or solution; anything bigger is not one.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// Why an input file could not be used.
#[derive(Debug, Error)]
pub enum InputError {
    /// The path could not be opened or read.
    #[error("{path}: cannot read the file: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The path is a directory.
    #[error("{path}: is a directory; expected a puzzle file")]
    Directory {
        /// The path.
        path: PathBuf,
    },
    /// The file is far larger than any board or solution.
    #[error("{path}: the file is larger than {limit} bytes; expected a board file")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit.
        limit: u64,
    },
    /// The text is not a valid board or solution.
    #[error("{path}:{error}")]
    Board {
        /// The file.
        path: PathBuf,
        /// Where and what.
        error: BoardError,
    },
    /// The text is a FEN or PDN that cannot be used (see [`input`]).
    #[error("{path}:{error}")]
    Notation {
        /// The file.
        path: PathBuf,
        /// Where and what.
        error: ReadError,
    },
}

impl InputError {
    /// The line and column of a format error, if the error is one.
    #[must_use]
    pub fn location(&self) -> Option<(usize, usize)> {
        match self {
            InputError::Board { error, .. } => Some((error.line, error.column)),
            InputError::Notation { error, .. } => error.location(),
            _ => None,
        }
    }
}

/// Why an output file could not be written.
#[derive(Debug, Error)]
#[error("{path}: cannot write the output: {source}")]
pub struct OutputError {
    /// The destination.
    pub path: PathBuf,
    /// The operating system's reason.
    pub source: std::io::Error,
}

/// Reads a file's bytes, rejecting directories and oversized files with clear errors.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, InputError> {
    let io = |source| InputError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(InputError::Directory {
            path: path.to_path_buf(),
        });
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            limit: MAX_FILE_BYTES,
        });
    }
    Ok(bytes)
}

/// Reads and parses a puzzle file (red to move): a board, a FEN or a one-game PDN.
pub fn read_puzzle(path: &Path) -> Result<Position, InputError> {
    input::read_puzzle(path, None)
}

/// Reads and parses a solution file (a sequence of boards).
pub fn read_solution(path: &Path) -> Result<Vec<Position>, InputError> {
    let bytes = read_bytes(path)?;
    board_text::parse_solution(&bytes).map_err(|error| InputError::Board {
        path: path.to_path_buf(),
        error,
    })
}

/// Writes `contents` to `path` through a temporary file in the same folder and a rename.
///
/// Readers see the old file or the whole new one, never a part, and an error leaves the old file
/// as it was. The data is not forced to disk before the rename: an `fsync` cost 3 ms, a third of
/// the time budget of a whole solve, and a solution lost to a power cut is simply solved again.
pub fn write_atomic(path: &Path, contents: &str) -> Result<(), OutputError> {
    let err = |source| OutputError {
        path: path.to_path_buf(),
        source,
    };
    if path.is_dir() {
        return Err(err(std::io::Error::other("is a directory")));
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".checkers-")
        .suffix(".tmp")
        .tempfile_in(folder)
        .map_err(err)?;
    tmp.write_all(contents.as_bytes()).map_err(err)?;
    tmp.persist(path).map_err(|e| err(e.error))?;
    Ok(())
}
