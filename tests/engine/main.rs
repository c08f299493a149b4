//! The engine: the search and its proofs, the endgame databases (built, stored and reachable-only),
//! and the independent analyser that certifies the shipped solutions and backs `verify`.

mod analysis;
mod budget;
mod certify;
mod common;
mod dfpn;
mod egdb;
mod endgame;
mod imports;
mod proof;
mod reach;
mod repair;
mod search_vs_analysis;
mod unproven;
mod verify;
mod verify_budget;
mod verify_refuted;
