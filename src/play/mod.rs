//! Playing whole games under a clock: the player interface ([`player`]), the clock ([`clock`]),
//! games with their draw rules ([`game`]), the engine ([`engine`]: search in [`search`] and
//! [`table`], evaluation in [`eval`]), and player specifications such as `minimax:4`
//! ([`spec`]).
//!
//! This layer uses `rules` only; the exact puzzle search in `search` stays as it is.

pub mod clock;
pub mod dataset;
pub mod engine;
pub mod eval;
pub mod evaluator;
pub mod game;
pub mod player;
pub mod search;
pub mod selfplay;
pub mod spec;
pub mod table;
pub mod train;

pub use clock::{Budget, Clock, TimeBudget, TimeMeasure};
pub use engine::{Engine, EngineOptions};
pub use game::{Game, GameEnd, GameError};
pub use player::{MinimaxPlayer, Player, PlayerError, RandomPlayer};
pub use search::Thought;
pub use spec::{PlayerSpec, SpecError};
