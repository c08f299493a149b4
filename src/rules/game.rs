//! The one game model: a [`Game`] (its start, the moves played, the counters of its
//! [`DrawRule`]) and the one [`Outcome`] type that says how any game ended, by the rules or by a
//! referee's decision.
//!
//! Every move is checked against the move generator before it is played, so a [`Game`] only ever
//! holds legal games. The puzzle solver, the player, the match runner, the CSCI561 host and the
//! DD2380 server all keep their games here; records that only write a finished game out (PDN
//! games, the server's log) read from it.

use std::time::Duration;

use rustc_hash::FxHashMap;
use thiserror::Error;

use crate::rules::draw::DrawRule;
use crate::rules::movegen::CrowningRule;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::Color;
use crate::rules::position::Position;

/// How a game ended: by the rules ([`Game::outcome`]) or by a referee's decision.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The side to move had no legal move: `winner` (the other side) won.
    Win {
        /// The side that won.
        winner: Color,
    },
    /// The same position (as the draw rule compares them) occurred for the third time.
    Repetition,
    /// The draw rule's number of plies passed without progress.
    QuietMoves,
    /// The game reached a referee's ply limit and was adjudicated a draw.
    PlyLimit,
    /// `loser` lost by breaking the clock or the protocol.
    Forfeit {
        /// The side that forfeited.
        loser: Color,
        /// How.
        why: Forfeit,
    },
    /// Neither player was ready to play: no game, nobody wins.
    NoGame,
}

/// Why a player forfeited. The texts are the front end's own words, so that each reports in the
/// terms of its protocol (`bad output.txt: ...`, `garbled line: ...`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Forfeit {
    /// The move took longer than the clock allowed.
    Time {
        /// Time used on the move (or in the game, under a game clock).
        used: Duration,
        /// What the clock allowed.
        allowed: Duration,
    },
    /// No answer came before the deadline (the time used is not known).
    Timeout,
    /// The answer is not a legal move (garbage, an illegal or incomplete move): what was wrong.
    Illegal(String),
    /// No answer at all (a crash, a hang, a closed connection, no output file): the reason.
    NoMove(String),
}

impl std::fmt::Display for Forfeit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Forfeit::Time { used, allowed } => write!(
                f,
                "out of time: used {:.3} s with {:.3} s left",
                used.as_secs_f64(),
                allowed.as_secs_f64()
            ),
            Forfeit::Timeout => f.write_str("timeout: no answer before the deadline"),
            Forfeit::Illegal(text) | Forfeit::NoMove(text) => f.write_str(text),
        }
    }
}

impl Outcome {
    /// The winner, or `None` for a draw (or no game).
    #[must_use]
    pub const fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner } => Some(*winner),
            Outcome::Forfeit { loser, .. } => Some(loser.opponent()),
            Outcome::Repetition | Outcome::QuietMoves | Outcome::PlyLimit | Outcome::NoGame => None,
        }
    }

    /// Whether the rules of the game ended it (not a referee's decision).
    #[must_use]
    pub const fn by_the_rules(&self) -> bool {
        matches!(
            self,
            Outcome::Win { .. } | Outcome::Repetition | Outcome::QuietMoves
        )
    }

    /// The side that lost by a forfeit, and the forfeit.
    #[must_use]
    pub const fn forfeit(&self) -> Option<(Color, &Forfeit)> {
        match self {
            Outcome::Forfeit { loser, why } => Some((*loser, why)),
            _ => None,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Win { winner } => write!(
                f,
                "{} wins: {} has no legal move",
                winner.name(),
                winner.opponent().name()
            ),
            Outcome::Repetition => f.write_str("draw by threefold repetition"),
            Outcome::QuietMoves => f.write_str("draw: no capture or crowning for too long"),
            Outcome::PlyLimit => f.write_str("draw: ply limit reached (adjudicated)"),
            Outcome::Forfeit { loser, why } => write!(f, "{} forfeits: {why}", loser.name()),
            Outcome::NoGame => f.write_str("no game: neither player was ready"),
        }
    }
}

/// Why a move cannot be played.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GameError {
    /// The move is not among the legal moves of the current position.
    #[error("illegal move at ply {ply}: {mv:?} is not legal in this position")]
    Illegal {
        /// Plies played before the move.
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// The game is already over.
    #[error("the game is over ({0})")]
    Over(Outcome),
    /// No legal move leads to the given position.
    #[error("no legal move at ply {ply} leads to the given position")]
    NoSuchMove {
        /// Plies played before the move.
        ply: usize,
    },
}

/// A game: the start position, the moves played, and the counters of its draw rule.
#[derive(Clone, Debug)]
pub struct Game {
    rule: DrawRule,
    /// Whether a man crowned during a capture jumps on (HackerRank) or stops (the default).
    crowning: CrowningRule,
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Quiet plies before the current position, one entry per position.
    quiet: Vec<u32>,
    /// Occurrences of each position, keyed as the draw rule compares positions.
    seen: FxHashMap<Position, u8>,
}

impl Game {
    /// A new game from `start` under `rule`.
    #[must_use]
    pub fn new(start: Position, rule: DrawRule) -> Game {
        Game::resumed(start, rule, 0)
    }

    /// A game joined in progress at `start`, where `quiet_plies` plies without progress have
    /// already been played (as a protocol may report; earlier positions are unknown).
    #[must_use]
    pub fn resumed(start: Position, rule: DrawRule, quiet_plies: u32) -> Game {
        let mut seen = FxHashMap::default();
        seen.insert(rule.repetition_key(&start), 1);
        Game {
            rule,
            crowning: CrowningRule::default(),
            positions: vec![start],
            moves: Vec::new(),
            quiet: vec![quiet_plies],
            seen,
        }
    }

    /// The standard game from the start position.
    #[must_use]
    pub fn standard(rule: DrawRule) -> Game {
        Game::new(Position::start(), rule)
    }

    /// A game from `start` with `moves` played, each checked.
    pub fn from_moves(start: Position, rule: DrawRule, moves: &[Move]) -> Result<Game, GameError> {
        let mut game = Game::new(start, rule);
        for &mv in moves {
            game.play(mv)?;
        }
        Ok(game)
    }

    /// The draw rule.
    #[must_use]
    pub const fn draw_rule(&self) -> DrawRule {
        self.rule
    }

    /// The same game played under `crowning` (set it before any move is played: the moves
    /// already played are not checked again).
    #[must_use]
    pub fn with_crowning(mut self, crowning: CrowningRule) -> Game {
        self.crowning = crowning;
        self
    }

    /// The crowning rule the game's moves are generated under ([`CrowningRule::EndsMove`]
    /// unless [`Game::with_crowning`] said otherwise).
    #[must_use]
    pub const fn crowning_rule(&self) -> CrowningRule {
        self.crowning
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The position now on the board.
    #[must_use]
    pub fn current(&self) -> &Position {
        &self.positions[self.positions.len() - 1]
    }

    /// Every position of the game, the start first and the current one last.
    #[must_use]
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played, in order (`moves()[i]` leads from `positions()[i]` to `positions()[i+1]`).
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plies played since the start.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Plies played without progress (as the draw rule counts it) up to the current position.
    #[must_use]
    pub fn quiet_plies(&self) -> u32 {
        self.quiet[self.quiet.len() - 1]
    }

    /// How often `pos` has occurred in this game, compared as the draw rule compares positions.
    #[must_use]
    pub fn occurrences(&self, pos: &Position) -> u8 {
        self.seen
            .get(&self.rule.repetition_key(pos))
            .copied()
            .unwrap_or(0)
    }

    /// The legal moves of the current position.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        self.crowning.legal_moves(self.current())
    }

    /// Plays `mv` after checking that the game is not over and that the move is legal.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        if let Some(end) = self.outcome() {
            return Err(GameError::Over(end));
        }
        let pos = *self.current();
        if !self.crowning.legal_moves(&pos).contains(&mv) {
            return Err(GameError::Illegal {
                ply: self.ply(),
                mv,
            });
        }
        let quiet = if self.rule.is_progress(&pos, mv) {
            0
        } else {
            self.quiet_plies().saturating_add(1)
        };
        let next = pos.play(mv);
        *self
            .seen
            .entry(self.rule.repetition_key(&next))
            .or_insert(0) += 1;
        self.positions.push(next);
        self.moves.push(mv);
        self.quiet.push(quiet);
        Ok(())
    }

    /// Plays the legal move that leads to `next` (for lines given as positions, not moves).
    pub fn play_to(&mut self, next: &Position) -> Result<Move, GameError> {
        if let Some(end) = self.outcome() {
            return Err(GameError::Over(end));
        }
        let pos = *self.current();
        let mv = self
            .legal_moves()
            .iter()
            .copied()
            .find(|&mv| pos.play(mv) == *next)
            .ok_or(GameError::NoSuchMove { ply: self.ply() })?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        let pos = self.positions.pop()?;
        self.quiet.pop();
        let key = self.rule.repetition_key(&pos);
        if let Some(n) = self.seen.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                self.seen.remove(&key);
            }
        }
        Some(mv)
    }

    /// Whether the game is over, and how: no legal move first (a loss), then the third
    /// occurrence of a position, then the quiet-move limit of the draw rule.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.current();
        if self.crowning.legal_moves(pos).is_empty() {
            return Some(Outcome::Win {
                winner: pos.side_to_move().opponent(),
            });
        }
        if self.occurrences(pos) >= 3 {
            return Some(Outcome::Repetition);
        }
        if self
            .rule
            .quiet_limit()
            .is_some_and(|limit| self.quiet_plies() >= limit)
        {
            return Some(Outcome::QuietMoves);
        }
        None
    }

    /// The positions since the last irreversible move (anything but a king's step, see
    /// [`is_reversible`]), oldest first, ending with the current one: the only ones a later
    /// position can repeat.
    #[must_use]
    pub fn reversible_tail(&self) -> &[Position] {
        let mut first = self.positions.len() - 1;
        while first > 0 && is_reversible(&self.positions[first - 1], self.moves[first - 1]) {
            first -= 1;
        }
        &self.positions[first..]
    }
}

/// Whether `mv` in `pos` could be undone: a king's step (no capture, no man moved).
#[must_use]
pub fn is_reversible(pos: &Position, mv: Move) -> bool {
    !mv.is_capture() && pos.kings().contains(mv.from())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_to_finds_the_move_and_refuses_a_position_no_move_reaches() {
        let start = Position::start();
        let mut game = Game::new(start, DrawRule::None);
        let mv = start.play(game.legal_moves()[0]);
        assert_eq!(game.play_to(&mv).map(|m| start.play(m)), Ok(mv));
        assert_eq!(game.ply(), 1);
        assert_eq!(
            game.play_to(&start),
            Err(GameError::NoSuchMove { ply: 1 }),
            "the start again is no successor"
        );
        assert_eq!(game.ply(), 1);
    }

    #[test]
    fn winners_of_every_outcome() {
        let forfeit = Outcome::Forfeit {
            loser: Color::Red,
            why: Forfeit::Timeout,
        };
        assert_eq!(forfeit.winner(), Some(Color::Black));
        assert!(!forfeit.by_the_rules());
        let win = Outcome::Win { winner: Color::Red };
        assert_eq!(win.winner(), Some(Color::Red));
        assert!(win.by_the_rules());
        for draw in [
            Outcome::Repetition,
            Outcome::QuietMoves,
            Outcome::PlyLimit,
            Outcome::NoGame,
        ] {
            assert_eq!(draw.winner(), None, "{draw}");
        }
        assert_eq!(
            forfeit.to_string(),
            "red forfeits: timeout: no answer before the deadline"
        );
    }
}
