//! Checking and measuring the solver: checking a written solution with the independent analyser
//! ([`verify`]), solving many puzzles with figures ([`mod@bench`]), seeded random puzzles for the
//! benchmark ([`random_boards`]), and checking the endgame databases against the analyser
//! ([`egdb_check`]).

pub mod bench;
pub mod egdb_check;
pub mod random_boards;
pub mod verify;
