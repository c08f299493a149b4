//! Tools built on the engine, the analyser and the formats: checking a written solution
//! ([`verify`]), solving many puzzles with figures ([`mod@bench`]), and seeded random puzzles
//! ([`random_boards`]).

pub mod bench;
pub mod random_boards;
pub mod verify;
