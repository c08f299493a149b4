//! A game record: the positions played so far, and the rules that end a game.

use rustc_hash::FxHashMap;

use crate::rules::movegen;
use crate::rules::piece::Color;
use crate::rules::position::Position;

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The side to move had no legal move; the other side won.
    Win(Color),
    /// The same position with the same side to move occurred for the third time.
    DrawByRepetition,
    /// Under the optional tournament rule: 50 moves of each side without a capture or a crowning.
    DrawByFiftyMoves,
}

/// Plies without capture or crowning after which the optional tournament rule draws.
pub const FIFTY_MOVE_PLIES: u32 = 100;

/// The positions of a game in order, with occurrence counts for the repetition rule.
#[derive(Clone, Debug)]
pub struct GameRecord {
    states: Vec<Position>,
    seen: FxHashMap<Position, u8>,
    quiet_plies: u32,
    fifty_move_rule: bool,
}

impl GameRecord {
    /// A game starting at `start`; `fifty_move_rule` turns on the optional tournament draw.
    #[must_use]
    pub fn new(start: Position, fifty_move_rule: bool) -> GameRecord {
        let mut seen = FxHashMap::default();
        seen.insert(start, 1);
        GameRecord {
            states: vec![start],
            seen,
            quiet_plies: 0,
            fifty_move_rule,
        }
    }

    /// Adds the next position of the game.
    pub fn push(&mut self, next: Position) {
        let prev = self.current();
        let captured = next.occupied().count() < prev.occupied().count();
        let crowned = next.kings().count() > prev.kings().count();
        self.quiet_plies = if captured || crowned {
            0
        } else {
            self.quiet_plies + 1
        };
        *self.seen.entry(next).or_insert(0) += 1;
        self.states.push(next);
    }

    /// The position now on the board.
    #[must_use]
    pub fn current(&self) -> Position {
        self.states[self.states.len() - 1]
    }

    /// All positions so far, the start first.
    #[must_use]
    pub fn states(&self) -> &[Position] {
        &self.states
    }

    /// How often `pos` has occurred in this game.
    #[must_use]
    pub fn occurrences(&self, pos: &Position) -> u8 {
        self.seen.get(pos).copied().unwrap_or(0)
    }

    /// Whether the game is over, and how.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.current();
        if movegen::legal_moves(&pos).is_empty() {
            return Some(Outcome::Win(pos.side_to_move().opponent()));
        }
        if self.occurrences(&pos) >= 3 {
            return Some(Outcome::DrawByRepetition);
        }
        if self.fifty_move_rule && self.quiet_plies >= FIFTY_MOVE_PLIES {
            return Some(Outcome::DrawByFiftyMoves);
        }
        None
    }
}
