//! Front ends for the assignments' protocols, built on the player in [`crate::play`].

pub mod hackerrank;
