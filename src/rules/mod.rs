//! The rules core: the vocabulary of the game ([`square`], [`bitboard`], [`piece`], [`moves`]),
//! positions and their hashing ([`position`], [`zobrist`]), move generation ([`movegen`]), the one game model with its outcome
//! type ([`game`]), the path-dependent draw rules of real games
//! ([`draw`]) and move-path enumeration ([`perft`]).
//!
//! Nothing here knows of search, text or files.

pub mod bitboard;
pub mod draw;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod piece;
pub mod position;
pub mod square;
pub mod zobrist;
