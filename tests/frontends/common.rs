//! Helpers shared by the front-end tests: the binary under test, the repository's files, and
//! cells by row and column.

use std::path::PathBuf;

use checkers::Square;

/// The `checkers` binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_checkers");

/// The repository's root (where `puzzles/` and `expected/` are).
pub fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The binary as an `assert_cmd` command, ready for arguments. It reads no endgame databases
/// unless a test says so: `$CHECKERS_EGDB` points nowhere, so databases in the cache directory
/// of the machine running the tests cannot change what the players do.
pub fn checkers() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new(BIN);
    cmd.env("CHECKERS_EGDB", "/nonexistent/checkers-egdb-test");
    cmd
}

/// The cell at `row` (0 at the top) and `col` (0 at the left).
pub fn sq(row: u8, col: u8) -> Square {
    Square::new(row, col).expect("cell on the board")
}
