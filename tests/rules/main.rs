//! The rules core: one small position per rule, perft against published counts, and the three
//! move generators (the engine's, the analyser's own, and the naive reference of `reference.rs`)
//! against each other.

mod analysis_rules;
mod by_rule;
mod crowning_variant;
mod perft;
mod perft_reference;
mod properties;
mod reference;
