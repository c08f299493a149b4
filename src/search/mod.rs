//! The search: one core and two drivers.
//!
//! The core: scores ([`score`]: one integer scale for heuristic values and game ends, with the
//! node-relative form the table stores), the transposition table ([`tt`]), move ordering
//! ([`ordering`]) and the evaluations ([`eval`], one weight set per use).
//!
//! The drivers: the puzzle driver ([`alphabeta`]'s exact negamax, the per-turn deepening in
//! [`iterdeep`], the proof search in [`proof`], the choice of the moves it cannot prove in
//! [`unproven`], the whole game in [`solve`], the backward pass that checks its unproven moves in
//! [`repair`] and its turn's budget in [`budget`]) is exact where it
//! claims to be: no forward pruning (no null move, no late-move reductions, no futility), game
//! ends scored by their distance, and a result counted as proven only when its distance is
//! within the depth searched. The game driver ([`game`]) plays under a clock with the game's draw
//! rules and claims no proofs. The endgame databases ([`endgame`]) are a store of exact values,
//! read by the puzzle driver.

pub mod alphabeta;
pub mod budget;
pub mod dfpn;
pub mod endgame;
pub mod eval;
pub mod game;
pub mod iterdeep;
pub mod ordering;
pub mod proof;
pub mod race;
pub mod repair;
pub mod score;
pub mod solve;
pub mod split;
pub mod stop;
pub mod tt;
pub mod unproven;

pub use alphabeta::{Features, Limits, PuzzleSearcher, SearchStats};
pub use budget::BuildCaps;
pub use eval::Evaluator;
pub use game::{GameLimits, GameOptions, GameRoot, GameSearcher, GameThought, Stopwatch};
pub use iterdeep::{Known, PuzzleThought};
pub use proof::Proof;
pub use score::Score;
pub use stop::Stop;
