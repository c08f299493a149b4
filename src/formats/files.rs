//! Reading puzzle and solution files, and writing outputs where the user says.
//!
//! Errors name the path the user gave (never a temporary file) and say what went wrong once;
//! board errors add the line and column. The path `-` means standard input when reading and
//! standard output when writing.
//!
//! How an output is written depends on what the path names (see [`write_output`]):
//! - `-`: standard output, written directly;
//! - a device, a fifo or a socket, or a file-descriptor alias such as `/dev/stdout`: opened and
//!   written directly, as a shell redirection would (no temporary file is made beside a device);
//! - a regular file, new or existing: written to a temporary file in the same folder and renamed
//!   over it, so a failed or killed run never leaves a half-written or clobbered output. The new
//!   file gets the permissions a plain write would give: the existing file's mode (and owner,
//!   where allowed), or for a new file `0666` less the umask. A symbolic link is followed and its
//!   final target is replaced; the link itself stays a link;
//! - an existing regular file in a folder where no file can be created (a read-only folder) is
//!   rewritten in place: the only way to update it, at the price of atomicity (a failure in the
//!   middle of the write can leave it truncated).

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::formats::board_text::BoardError;
use crate::formats::input::{self, ReadError};
use crate::rules::position::Position;

/// Largest file read as a puzzle or solution; anything bigger is not one.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// The path that stands for standard input or output.
pub const STDIO_PATH: &str = "-";

/// How standard input is named in messages.
const STDIN_NAME: &str = "<stdin>";

/// Why an input file could not be used.
#[derive(Debug, Error)]
pub enum InputError {
    /// The path could not be opened or read.
    #[error("{path}: cannot read the file: {reason}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        reason: io::Error,
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

/// Why an output could not be written.
///
/// The operating system's reason is part of the message and deliberately not a `source`, so a
/// report of the whole error chain says it once.
#[derive(Debug, Error)]
#[error("{path}: cannot write the output: {reason}")]
pub struct OutputError {
    /// The destination, as the user gave it.
    pub path: PathBuf,
    /// The operating system's reason.
    pub reason: io::Error,
}

impl OutputError {
    /// Whether the reader of a pipe (or fifo) went away: not a failure of this program, and
    /// usually meant (`checkers ... --outputfile - | head`).
    #[must_use]
    pub fn is_broken_pipe(&self) -> bool {
        self.reason.kind() == io::ErrorKind::BrokenPipe
    }
}

/// Whether `path` is `-`, standard input or output.
#[must_use]
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == STDIO_PATH
}

/// Reads a file's bytes (`-`: standard input), rejecting directories and oversized files with
/// clear errors.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, InputError> {
    if is_stdio(path) {
        return read_limited(io::stdin().lock(), Path::new(STDIN_NAME));
    }
    let io = |reason| InputError::Io {
        path: path.to_path_buf(),
        reason,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(InputError::Directory {
            path: path.to_path_buf(),
        });
    }
    read_limited(File::open(path).map_err(io)?, path)
}

/// Reads at most [`MAX_FILE_BYTES`] from `reader`, naming `path` in errors.
fn read_limited(reader: impl Read, path: &Path) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|reason| InputError::Io {
            path: path.to_path_buf(),
            reason,
        })?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            limit: MAX_FILE_BYTES,
        });
    }
    Ok(bytes)
}

/// The name of `path` in messages: `<stdin>` for `-`.
pub fn input_name(path: &Path) -> PathBuf {
    if is_stdio(path) {
        PathBuf::from(STDIN_NAME)
    } else {
        path.to_path_buf()
    }
}

/// Reads and parses a puzzle file (red to move): a board, a FEN or a one-game PDN; `-` reads
/// standard input.
pub fn read_puzzle(path: &Path) -> Result<Position, InputError> {
    input::read_puzzle(path, None)
}

/// Reads and parses a solution file in any format the solver writes (board text, FEN lines or
/// a PDN game: [`input::parse_solution`]); `-` reads standard input.
pub fn read_solution(path: &Path) -> Result<Vec<Position>, InputError> {
    input::read_solution(path)
}

/// Writes `contents` to `path`; the same as [`write_output`], kept for its callers.
pub fn write_atomic(path: &Path, contents: &str) -> Result<(), OutputError> {
    write_output(path, contents.as_bytes())
}

/// Writes `contents` where `path` says, as the module documentation describes: `-` to standard
/// output, devices and fifos directly, regular files through a temporary file and a rename (in
/// place only when their folder is read-only).
///
/// The data is not forced to disk before the rename: an `fsync` cost 3 ms, a third of the time
/// budget of a whole solve, and a solution lost to a power cut is simply solved again.
pub fn write_output(path: &Path, contents: &[u8]) -> Result<(), OutputError> {
    let err = |reason| OutputError {
        path: path.to_path_buf(),
        reason,
    };
    if is_stdio(path) {
        let mut out = io::stdout().lock();
        return out
            .write_all(contents)
            .and_then(|()| out.flush())
            .map_err(err);
    }
    if is_descriptor_alias(path) {
        return write_in_place(path, contents).map_err(err);
    }
    let target = resolve_links(path).map_err(err)?;
    match std::fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => Err(err(io::Error::other("is a directory"))),
        Ok(meta) if !meta.is_file() => write_in_place(&target, contents).map_err(err),
        Ok(meta) => match replace(&target, contents, Some(&meta)) {
            Err(Failure::NoTemporary(e)) if e.kind() == io::ErrorKind::PermissionDenied => {
                write_in_place(&target, contents).map_err(err)
            }
            Err(Failure::NoTemporary(e) | Failure::Other(e)) => Err(err(e)),
            Ok(()) => Ok(()),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            replace(&target, contents, None).map_err(|f| err(f.into_io()))
        }
        Err(e) => Err(err(e)),
    }
}

/// Paths that name an already open file descriptor (`/dev/stdout`, `/dev/fd/3`,
/// `/proc/self/fd/1`, ...): whatever they point at is written through them, never replaced.
fn is_descriptor_alias(path: &Path) -> bool {
    if [
        "/dev/stdin",
        "/dev/stdout",
        "/dev/stderr",
        "/dev/tty",
        "/dev/fd",
    ]
    .iter()
    .any(|p| path.starts_with(p))
    {
        return true;
    }
    let mut parts = path.components().map(|c| c.as_os_str());
    path.starts_with("/proc") && parts.nth(3).is_some_and(|c| c == "fd")
}

/// Most symbolic links followed in a chain before giving up, as the kernel does.
const MAX_LINKS: usize = 40;

/// The file that `path` finally names once every symbolic link at its end is followed; a link
/// that points nowhere gives the path it points to, where the file will be created.
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a chain"
    )))
}

/// Opens an existing file, device or fifo and writes `contents` to it from the start.
fn write_in_place(path: &Path, contents: &[u8]) -> io::Result<()> {
    let is_file = std::fs::metadata(path).is_ok_and(|m| m.is_file());
    let mut file = OpenOptions::new()
        .write(true)
        .truncate(is_file)
        .open(path)?;
    file.write_all(contents)?;
    file.flush()
}

/// Why [`replace`] failed: before a temporary file existed (the folder refuses new files), or
/// after.
enum Failure {
    NoTemporary(io::Error),
    Other(io::Error),
}

impl Failure {
    fn into_io(self) -> io::Error {
        match self {
            Failure::NoTemporary(e) | Failure::Other(e) => e,
        }
    }
}

/// A temporary file that is removed when dropped, unless it was renamed into place.
struct Temporary {
    path: PathBuf,
    file: Option<File>,
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            // Best effort: the file is ours, and nothing can be done if it cannot be removed.
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl Temporary {
    /// A new, empty file beside `target`, named `.NAME.checkers-PID-N.tmp`, created with mode
    /// `0666` less the umask (on Unix), as a plain write would create `target`.
    fn beside(target: &Path) -> io::Result<Temporary> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let folder = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        // The start of the target's name, short enough that the temporary name stays within
        // the 255 bytes a name may have.
        let name: String = target.file_name().map_or_else(String::new, |n| {
            n.to_string_lossy().chars().take(64).collect()
        });
        let mut last = None;
        for _ in 0..100 {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = folder.join(format!(".{name}.checkers-{}-{n}.tmp", std::process::id()));
            let mut options = OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o666);
            match options.open(&path) {
                Ok(file) => {
                    return Ok(Temporary {
                        path,
                        file: Some(file),
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
    }
}

/// Writes `contents` to a temporary file beside `target` and renames it over `target`, giving
/// it the mode (and owner, where permitted) of `existing` when there is one.
fn replace(
    target: &Path,
    contents: &[u8],
    existing: Option<&std::fs::Metadata>,
) -> Result<(), Failure> {
    let mut tmp = Temporary::beside(target).map_err(Failure::NoTemporary)?;
    let written = (|| {
        let file = tmp
            .file
            .as_mut()
            .ok_or_else(|| io::Error::other("temporary file already closed"))?;
        file.write_all(contents)?;
        if let Some(meta) = existing {
            file.set_permissions(meta.permissions())?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                // Only the owner or root may change the owner; otherwise the file simply
                // becomes this user's, as with any editor that saves by rename.
                let _ = std::os::unix::fs::fchown(&*file, Some(meta.uid()), Some(meta.gid()));
            }
        }
        file.flush()?;
        std::fs::rename(&tmp.path, target)
    })();
    written.map_err(Failure::Other)?;
    // Renamed into place: nothing left to remove.
    tmp.file = None;
    Ok(())
}
