//! Text in and out: the puzzle and solution board format ([`board_text`]), standard square
//! notation for moves ([`notation`]), and reading puzzles and writing outputs ([`files`]).

pub mod board_text;
pub mod files;
pub mod notation;
