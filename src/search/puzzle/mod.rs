//! The puzzle driver: the game played from a puzzle to its end with exact searches, each file
//! one job (the imports run one way only: see `tests::imports_have_no_cycle` in `search/mod.rs`).
//!
//! - `searcher.rs`: [`PuzzleSearcher`]'s state for a whole game and its counters.
//! - `limits.rs`: what a turn may spend ([`Limits`]), the enhancements in use ([`Features`]), the
//!   database build caps ([`BuildCaps`]).
//! - `thought.rs`: what a turn concludes ([`PuzzleThought`]), what earlier turns established
//!   ([`Known`]), and what a proof establishes.
//! - (`search/knobs.rs`, beside this folder: every tuning constant of the solver.)
//! - `alphabeta.rs`: the exact negamax alpha-beta and its null-window tests.
//! - `deepening.rs`: one turn: iterative deepening, then the proof search, the canonical move.
//! - `build_policy.rs`: when a turn builds endgame databases, and what a build is charged.
//! - `proof.rs`: the proof search (game end within `n` plies?) and the guard of what is known.
//! - `two_thread_proof.rs`: the proof split over the root's moves on two threads.
//! - `dfpn.rs`: the depth-bounded df-pn prover of the backward pass.
//! - `lockstep.rs`: two searches kept in step at node checkpoints, timing-independent.
//! - `proof_race.rs`: df-pn raced against the alpha-beta proof on one question.
//! - `unproven_choice.rs`: the tie break among moves a turn could not prove.
//! - `budget.rs`: the game's budget, turn by turn.
//! - `play_out.rs`: the game played turn by turn.
//! - `backward_pass.rs`: the check of a won game's unproven moves from its end.
//! - `solve.rs`: the whole-game solver ([`solve::solve`]) and its options.
//!
//! It is exact where it claims to be: no forward pruning (no null move, no late-move
//! reductions, no futility), game ends scored by their distance, and a result counted as proven
//! only when its distance is within the depth searched.

mod alphabeta;
mod backward_pass;
pub mod budget;
mod build_policy;
mod deepening;
pub mod dfpn;
mod limits;
mod lockstep;
mod play_out;
mod proof;
mod proof_race;
mod searcher;
pub mod solve;
mod thought;
mod two_thread_proof;
mod unproven_choice;

pub use limits::{BuildCaps, Features, Limits};
pub use searcher::{PuzzleSearcher, SearchStats};
pub use thought::{Known, PuzzleThought};
