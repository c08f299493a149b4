//! Playing whole games under a clock: the player interface ([`player`]), the clock ([`clock`]),
//! the engine ([`engine`]: search in [`search`] and
//! [`table`], evaluation in [`eval`]), and player specifications such as `minimax:4`
//! ([`spec`]).
//!
//! This layer uses `rules` only; the exact puzzle search in `search` stays as it is.

pub mod clock;
pub mod engine;
pub mod eval;
pub mod player;
pub mod search;
pub mod spec;
pub mod table;

/// The game model lives in the rules layer, so that the puzzle solver shares it.
pub use crate::rules::game::{Forfeit, Game, GameError, Outcome};
pub use clock::{Budget, Clock, TimeBudget, TimeMeasure};
pub use engine::{Engine, EngineOptions};
pub use player::{MinimaxPlayer, Player, PlayerError, RandomPlayer};
pub use search::Thought;
pub use spec::{PlayerSpec, SpecError};
