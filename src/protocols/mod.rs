//! The assignments' protocols: front ends built on the player in [`crate::play`], and pure
//! codecs without files or sockets that turn an assignment's text into the crate's types and
//! back, checked against the rules.

pub mod dd2380;
pub mod hackerrank;
