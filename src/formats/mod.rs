//! Text in and out: the puzzle and solution board format ([`board_text`]), standard square
//! notation for moves ([`notation`]), FEN positions ([`fen`]) and PDN games ([`pdn`]), and
//! reading puzzles and writing outputs ([`files`]).

pub mod board_text;
pub mod export;
pub mod fen;
pub mod files;
pub mod input;
pub mod notation;
pub mod pdn;
