//! Playing whole games under a clock: the player interface ([`player`]), the clock ([`clock`]),
//! games with their draw rules ([`game`]), the engine ([`engine`]: the game driver of
//! `search::game` answering under a clock), and player specifications such as `minimax:4`
//! ([`spec`]).

pub mod clock;
pub mod dataset;
pub mod engine;
pub mod game;
mod legacy;
pub mod player;
pub mod selfplay;
pub mod spec;
pub mod train;

pub use clock::{Budget, Clock, TimeBudget, TimeMeasure};
pub use engine::{Engine, EngineOptions, Thought};
pub use game::{Game, GameEnd, GameError};
pub use player::{MinimaxPlayer, Player, PlayerError, RandomPlayer};
pub use spec::{PlayerSpec, SpecError};
