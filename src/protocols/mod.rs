//! Front ends for the assignments' protocols, built on the player in [`crate::play`]: they turn
//! the protocols' texts into positions and moves, and back.
//!
//! - [`csci561`]: USC CSCI561's file protocol (`input.txt` in, `output.txt` out), the agent
//!   playing it, and what it keeps between moves.
//! - [`hackerrank`]: the HackerRank bot (stdin to stdout).

pub mod csci561;
pub mod hackerrank;
