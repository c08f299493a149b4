//! The assignments' protocols: front ends built on the player in [`crate::play`], and pure
//! codecs without files or sockets that turn an assignment's text into the crate's types and
//! back, checked against the rules.
//!
//! - [`csci561`]: USC CSCI561's file protocol (`input.txt` in, `output.txt` out), the agent
//!   playing it, and what it keeps between moves.
//! - [`dd2380`]: KTH DD2380's network lines and relative cell numbers.
//! - [`hackerrank`]: the HackerRank bot (stdin to stdout).

pub mod csci561;
pub mod dd2380;
pub mod hackerrank;
