//! `checkers`: an engine for checkers (English draughts): an optimal puzzle solver, a player, and
//! the formats and protocols around them.
//!
//! The crate is layered, and each layer only uses the ones above it in this list:
//!
//! - [`rules`]: the game itself: squares, bitboards, pieces, positions, move generation, game
//!   records and perft. Knows nothing of search or text.
//! - [`search`]: alpha-beta search, the transposition table, the evaluation, the endgame
//!   databases and the puzzle solver built on them. Knows nothing of formats.
//! - [`analysis`]: an independent exact analyser with its own move generation, used to certify
//!   solutions; it shares only the board type with the engine.
//! - [`formats`]: text in and out: the puzzle board format, standard notation, reading and
//!   atomically writing files.
//! - [`play`]: playing whole games under a clock: the player interface, the clock, the playing
//!   engine, the built-in opponents and player specifications.
//! - [`training`]: the trained evaluation's pipeline: self-play games, their data set on disk,
//!   and fitting the weights.
//! - [`protocols`]: the assignments' front ends and codecs on top of the player (CSCI561's
//!   `input.txt`/`output.txt` agent, the HackerRank bot, KTH DD2380's lines and cells).
//! - [`net`]: the DD2380 network client and game server, on top of [`play`] and [`protocols`].
//! - [`matches`](mod@matches): matches between players: the match runner, opening lists, the
//!   resumable journal, and the CSCI561 referee, which runs agents as child processes.
//! - [`tools`]: checking and measuring the solver: checking a written solution
//!   ([`tools::verify`]), benchmarking ([`tools::bench`]), seeded random puzzles, and checking
//!   the endgame databases against the analyser.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod analysis;
pub mod formats;
pub mod matches;
pub mod net;
pub mod play;
pub mod protocols;
pub mod rules;
pub mod search;
pub mod tools;
pub mod training;

pub use rules::bitboard::{Bitboard, Direction};
pub use rules::moves::{Move, MoveList};
pub use rules::piece::{Color, Kind, Piece};
pub use rules::position::{Position, SetupWarning};
pub use rules::square::Square;
