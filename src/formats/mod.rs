//! Text in and out: the puzzle and solution board format ([`board_text`]), standard square
//! notation for moves ([`notation`]), FEN positions ([`fen`]) and PDN games ([`pdn`]), and
//! reading puzzles and writing outputs ([`files`]), any input format told apart by its content
//! ([`input`]), solutions in each output format ([`export`]), and pictures of a game ([`svg`],
//! [`html`], [`terminal`], drawing from a [`replay`]).

pub mod board_text;
pub mod export;
pub mod fen;
pub mod files;
pub mod html;
pub mod input;
pub mod notation;
pub mod pdn;
pub mod replay;
pub mod svg;
pub mod terminal;
