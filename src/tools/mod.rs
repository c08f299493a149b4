//! Tools built on the engine, the analyser and the formats: checking a written solution
//! ([`verify`]), solving many puzzles with figures ([`mod@bench`]), seeded random puzzles
//! ([`random_boards`]), and matches between players ([`arena`]) from opening lists ([`openings`]).

pub mod arena;
pub mod bench;
pub mod openings;
pub mod random_boards;
pub mod verify;
