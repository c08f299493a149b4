//! Playing whole games under a clock: the player interface and the built-in random and minimax
//! opponents ([`player`]), the clock ([`clock`]), the engine ([`engine`]: the game driver of
//! `search::game` answering under a clock), and player specifications such as `minimax:4`
//! ([`spec`]).

pub mod clock;
pub mod engine;
pub mod player;
pub mod spec;

/// The game model lives in the rules layer, so that the puzzle solver shares it.
pub use crate::rules::game::{Forfeit, Game, GameError, Outcome};
pub use clock::{Budget, Clock, TimeBudget, TimeMeasure, TimeUse};
pub use engine::{default_egdb, Engine, EngineOptions, Thought};
pub use player::{MinimaxPlayer, Player, PlayerError, RandomPlayer};
pub use spec::{PlayerSpec, SpecError};
