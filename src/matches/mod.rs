//! Matches between players: the match runner ([`arena`]: two players over a list of openings,
//! colours swapped, score and Elo), the opening lists ([`openings`]: the three-move ballots, FEN
//! starts, endgame starts), the journal that makes a match resumable ([`journal`]), and the
//! CSCI561 referee ([`host`]), which plays agents run as child processes ([`process`]) through
//! the match runner's game loop under a CPU-time clock.

pub mod arena;
#[cfg(all(unix, feature = "referee"))]
pub mod host;
pub mod journal;
pub mod openings;
#[cfg(all(unix, feature = "referee"))]
pub mod process;
