//! The [`Player`] interface every player implements, and the two simple built-in opponents.
//!
//! A match runner or a protocol front end holds players as `Box<dyn Player>` and asks each for a
//! move with the game so far and a started [`Clock`]. The built-in engine
//! ([`Engine`](super::engine::Engine)), [`RandomPlayer`] and [`MinimaxPlayer`] implement it here;
//! a child process speaking a file protocol or a network peer implements the same trait in the
//! protocol layers, so one match loop serves them all.

use std::time::Duration;

use thiserror::Error;

use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::position::Position;

use super::clock::Clock;
use crate::rules::game::Game;

/// Why a player gave no move.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PlayerError {
    /// The position has no legal move (the game is over; the caller should not have asked).
    #[error("the position has no legal move")]
    NoLegalMove,
    /// The player answered with something that is not a legal move of the position.
    #[error("illegal move: {0}")]
    Illegal(String),
    /// The player failed (a crashed child process, a closed connection, a bug), with the reason.
    #[error("{0}")]
    Failed(String),
}

/// Anything that chooses moves: the engine, a built-in opponent, an external program.
pub trait Player: Send {
    /// A short name for reports and game records (e.g. `engine`, `minimax:4`).
    fn name(&self) -> String;

    /// Called before each new game, so a player can forget what it learnt in the last one.
    fn new_game(&mut self) {}

    /// A legal move for the current position of `game`, within `clock`.
    ///
    /// The clock was started when the move was asked for; the caller judges whether the answer
    /// came in time. The returned move must be one of `game.legal_moves()`; callers check it.
    fn choose(&mut self, game: &Game, clock: &Clock) -> Result<Move, PlayerError>;

    /// What the last [`Player::choose`] cost, when the player measures it itself (a child
    /// process's CPU time, which the caller's clock cannot see); `None` to be timed by the
    /// caller's clock.
    fn move_cost(&self) -> Option<Duration> {
        None
    }
}

/// SplitMix64: a small, fast, well-mixed generator, so seeded games repeat exactly everywhere.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number below `n` (`n` > 0), without modulo bias worth speaking of for small `n`
    /// (Lemire's multiply-shift).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// Plays a uniformly random legal move, from a seeded generator.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    seed: u64,
    rng: SplitMix64,
}

impl RandomPlayer {
    /// A random player with `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            seed,
            rng: SplitMix64::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        format!("random:seed={}", self.seed)
    }

    fn choose(&mut self, game: &Game, _clock: &Clock) -> Result<Move, PlayerError> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return Err(PlayerError::NoLegalMove);
        }
        Ok(moves[self.rng.below(moves.len())])
    }
}

/// Plain minimax to a fixed depth, no pruning, counting material only: what the CSCI561
/// reference agent is. Among equal moves the first in generation order is played, so it is
/// deterministic. It knows nothing of the game's history or draw rules.
#[derive(Clone, Debug)]
pub struct MinimaxPlayer {
    depth: u32,
}

/// Material value of a man for [`MinimaxPlayer`].
const MINIMAX_MAN: i32 = 100;
/// Material value of a king for [`MinimaxPlayer`].
const MINIMAX_KING: i32 = 150;
/// Score of a position whose side to move has no move, for [`MinimaxPlayer`].
const MINIMAX_LOSS: i32 = -1_000_000;

impl MinimaxPlayer {
    /// A minimax player searching `depth` plies (at least 1).
    #[must_use]
    pub fn new(depth: u32) -> MinimaxPlayer {
        MinimaxPlayer {
            depth: depth.max(1),
        }
    }

    /// Material balance for the side to move: men 100, kings 150.
    fn material(pos: &Position) -> i32 {
        let us = pos.side_to_move();
        let value = |c| {
            let own = pos.pieces(c);
            MINIMAX_MAN * (own & !pos.kings()).count() as i32
                + MINIMAX_KING * (own & pos.kings()).count() as i32
        };
        value(us) - value(us.opponent())
    }

    /// Negamax value of `pos` searched `depth` plies deep.
    fn value(pos: &Position, depth: u32) -> i32 {
        let moves = movegen::legal_moves(pos);
        if moves.is_empty() {
            return MINIMAX_LOSS;
        }
        if depth == 0 {
            return Self::material(pos);
        }
        moves
            .iter()
            .map(|&mv| -Self::value(&pos.play(mv), depth - 1))
            .max()
            .unwrap_or(MINIMAX_LOSS)
    }
}

impl Player for MinimaxPlayer {
    fn name(&self) -> String {
        format!("minimax:{}", self.depth)
    }

    fn choose(&mut self, game: &Game, _clock: &Clock) -> Result<Move, PlayerError> {
        let pos = game.current();
        let mut best: Option<(i32, Move)> = None;
        for &mv in &movegen::legal_moves(pos) {
            let v = -Self::value(&pos.play(mv), self.depth - 1);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, mv));
            }
        }
        best.map(|(_, mv)| mv).ok_or(PlayerError::NoLegalMove)
    }
}
