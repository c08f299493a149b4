//! The assignments' protocols: how other programs talk to this one.
//!
//! - [`csci561`]: USC CSCI561's file protocol (`input.txt` in, `output.txt` out), the agent
//!   playing it, and what it keeps between moves.
//!
//! This layer sits above [`play`](crate::play) and [`formats`](crate::formats): it turns the
//! protocols' texts into positions and moves, and back.

pub mod csci561;
