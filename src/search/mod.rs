//! The search: one core and two drivers.
//!
//! The core: scores ([`score`]: one integer scale for heuristic values and game ends, with the
//! node-relative form the table stores), the transposition table ([`tt`]), move ordering
//! ([`ordering`]) and the evaluations ([`eval`], one weight set per use).
//!
//! The drivers: the puzzle driver ([`puzzle`], one file per job: the exact negamax, a turn's
//! deepening, the proofs, the backward pass, the budget, the whole game) is exact where it
//! claims to be: no forward pruning (no null move, no late-move reductions, no futility), game
//! ends scored by their distance, and a result counted as proven only when its distance is
//! within the depth searched. The game driver ([`game`]) plays under a clock with the game's draw
//! rules and claims no proofs. The endgame databases ([`endgame`]) are a store of exact values,
//! read by the puzzle driver.

pub mod endgame;
pub mod eval;
pub mod game;
pub mod knobs;
pub mod ordering;
pub mod puzzle;
pub mod score;
pub mod stop;
pub mod tt;

pub use eval::Evaluator;
pub use game::{GameLimits, GameOptions, GameRoot, GameSearcher, GameThought, Stopwatch};
pub use puzzle::{BuildCaps, Features, Known, Limits, PuzzleSearcher, PuzzleThought, SearchStats};
pub use score::Score;
pub use stop::Stop;
