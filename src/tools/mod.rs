//! Tools built on the engine, the analyser and the formats: checking a written solution
//! ([`verify`]) and solving many puzzles with figures ([`mod@bench`]).

pub mod bench;
pub mod verify;
