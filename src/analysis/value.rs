//! The game-theoretic value of a position, counted in plies to the end of the game.

use std::cmp::Ordering;
use std::fmt;

/// Exact value for the side to move with perfect play, counting plies to the end of the game.
///
/// Both sides play the puzzle's objective: the winner ends the game as soon as it can, the loser
/// makes it last as long as it can. The game ends when the side to move has no legal move.
///
/// The repetition rule is ignored on purpose. It only turns endless play into a draw, and a
/// winner playing a shortest forced win never repeats a position (its distance to the end
/// strictly decreases with every move), so the values of won and lost positions are exactly
/// those of the game with the repetition rule; the positions where neither side can force a win
/// are exactly the draws.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// The side to move wins; the game ends after this many more plies (always odd).
    Win(u32),
    /// The side to move loses; the game ends after this many more plies (always even).
    /// `Loss(0)`: the side to move has no legal move now.
    Loss(u32),
    /// Neither side can force a win: play would go on forever, ended by threefold repetition.
    Draw,
}

impl Value {
    /// The value of a parent position when the side to move plays into a child of value `child`
    /// (given for the child's side to move): the child's loss is the parent's win, one ply later.
    #[must_use]
    pub const fn from_child(child: Value) -> Value {
        match child {
            Value::Loss(n) => Value::Win(n.saturating_add(1)),
            Value::Win(n) => Value::Loss(n.saturating_add(1)),
            Value::Draw => Value::Draw,
        }
    }

    /// Plies to the end of the game, `None` for a draw.
    #[must_use]
    pub const fn plies(self) -> Option<u32> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw => None,
        }
    }

    /// How much the side to move likes this value; a larger key is better.
    ///
    /// Wins beat draws beat losses; a shorter win beats a longer one and a longer loss beats a
    /// shorter one. Spelled out as a key so that [`Ord`] is obviously a total order.
    #[must_use]
    pub const fn preference(self) -> (u8, i64) {
        match self {
            Value::Win(n) => (2, -(n as i64)),
            Value::Draw => (1, 0),
            Value::Loss(n) => (0, n as i64),
        }
    }
}

impl Ord for Value {
    /// Compares from the mover's view: `Win(1) > Win(9) > Draw > Loss(8) > Loss(0)`.
    fn cmp(&self, other: &Value) -> Ordering {
        self.preference().cmp(&other.preference())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    /// `win in 7 plies`, `loss in 0 plies`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n} plies"),
            Value::Loss(n) => write!(f, "loss in {n} plies"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_from_the_movers_view() {
        let ranked = [
            Value::Win(1),
            Value::Win(3),
            Value::Win(61),
            Value::Draw,
            Value::Loss(60),
            Value::Loss(2),
            Value::Loss(0),
        ];
        for pair in ranked.windows(2) {
            assert!(pair[0] > pair[1], "{:?} should beat {:?}", pair[0], pair[1]);
        }
        assert_eq!(ranked.iter().max(), Some(&Value::Win(1)));
        assert_eq!(ranked.iter().min(), Some(&Value::Loss(0)));
        assert_eq!(Value::Win(5).cmp(&Value::Win(5)), Ordering::Equal);
    }

    #[test]
    fn from_child_flips_and_adds_a_ply() {
        assert_eq!(Value::from_child(Value::Loss(0)), Value::Win(1));
        assert_eq!(Value::from_child(Value::Loss(12)), Value::Win(13));
        assert_eq!(Value::from_child(Value::Win(7)), Value::Loss(8));
        assert_eq!(Value::from_child(Value::Draw), Value::Draw);
    }

    #[test]
    fn best_child_gives_the_parent_value() {
        // The mover picks the child whose value is best for itself, i.e. the max of from_child.
        let children = [Value::Win(3), Value::Loss(4), Value::Loss(8), Value::Draw];
        let best = children.iter().map(|&c| Value::from_child(c)).max();
        assert_eq!(best, Some(Value::Win(5)));
        let all_lost = [Value::Win(3), Value::Win(9), Value::Win(1)];
        let best = all_lost.iter().map(|&c| Value::from_child(c)).max();
        assert_eq!(best, Some(Value::Loss(10)));
    }
}
