//! Tools built on the engine, the analyser and the formats: checking a written solution
//! ([`verify`]), solving many puzzles with figures ([`mod@bench`]), and matches between players
//! ([`arena`]) from opening lists ([`openings`]).

pub mod arena;
pub mod bench;
pub mod openings;
pub mod verify;
