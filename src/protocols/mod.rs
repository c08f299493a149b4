//! The assignments' protocols as pure codecs, without files or sockets: each module turns the
//! assignment's text into the crate's types and back, checked against the rules.

pub mod dd2380;
