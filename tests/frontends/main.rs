//! The front ends, through the binary and real processes and sockets: the puzzle CLI and its
//! outputs, the player and matches, and the CSCI561, DD2380 and HackerRank protocols.

mod cli;
mod common;
mod csci561;
mod dd2380;
mod hackerrank;
mod matches;
mod newcomer;
mod outputs;
mod play;
mod training;
