//! Training the evaluation: self-play games of the engine against itself ([`selfplay`]), the
//! labelled positions they leave on disk ([`dataset`]), and fitting the trained evaluation's
//! weights to them ([`train`]), or the tables and a network together ([`net`]). Built on the player ([`crate::play`]) and the search; the
//! commands `checkers selfplay` and `checkers train` drive it (docs/training.md).

pub mod dataset;
pub mod net;
pub mod selfplay;
pub mod train;
