//! `checkers`: an optimal solver for checkers (English draughts) endgame puzzles.
//!
//! The engine is split by concept: vocabulary ([`Square`], [`Bitboard`], [`Piece`], [`Move`]),
//! rules ([`Position`], [`movegen`], [`game`]), text formats ([`board_text`]), files ([`files`]),
//! search ([`search`], [`solve`]), an independent exact analyser that uses no search
//! ([`analysis`]), and the tools built on them ([`perft`], [`bench`]).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod analysis;
pub mod bench;
pub mod bitboard;
pub mod board_text;
pub mod files;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod search;
pub mod solve;
pub mod square;
pub mod verify;
pub mod zobrist;

pub use bitboard::{Bitboard, Direction};
pub use moves::{Move, MoveList};
pub use piece::{Color, Kind, Piece};
pub use position::{Position, SetupWarning};
pub use square::Square;
