//! Tools built on the engine, the analyser and the formats: checking a written solution
//! ([`verify`]), solving many puzzles with figures ([`mod@bench`]), seeded random puzzles
//! ([`random_boards`]), matches between players ([`arena`]) from opening lists ([`openings`]), resumable
//! through a [`journal`],
//! and refereeing CSCI561 agents run as child processes ([`host`], on [`process`]).

pub mod arena;
pub mod bench;
pub mod egdb_check;
#[cfg(unix)]
pub mod host;
pub mod journal;
pub mod openings;
#[cfg(unix)]
pub mod process;
pub mod random_boards;
pub mod verify;
