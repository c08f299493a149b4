//! Depth-limited alpha-beta search, split by concern: scores ([`score`]), the transposition table
//! ([`tt`]), the evaluation ([`eval`]), move ordering ([`ordering`]), the recursive search
//! ([`alphabeta`]) and the per-turn driver with iterative deepening ([`iterdeep`]).
//!
//! The search is exact where it claims to be: no forward pruning (no null move, no late-move
//! reductions, no futility), game ends scored by their distance, and a result counted as proven
//! only when its distance is within the depth searched.

pub mod alphabeta;
pub mod dfpn;
pub mod endgame;
pub mod eval;
pub mod iterdeep;
pub mod ordering;
pub mod proof;
pub mod score;
pub mod solve;
pub mod stop;
pub mod tt;

pub use alphabeta::{BuildCaps, Features, Limits, ProofEngine, SearchStats, Searcher};
pub use iterdeep::Thought;
pub use proof::Proof;
pub use score::Score;
pub use stop::Stop;
