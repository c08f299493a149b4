//! Search scores: heuristic values and exact game-end scores in one integer scale.
//!
//! A position whose side to move has no legal move is lost. Seen from the root it scores
//! `-(WIN - ply)`, so a win in fewer plies scores higher and a loss in more plies scores higher:
//! maximising the score is exactly "win fastest, lose slowest".

use std::ops::Neg;

/// A score from the point of view of the side to move.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Score(pub i32);

/// The score of winning right now (the opponent has no move at ply 0).
pub const WIN: i32 = 30_000;
/// Longest line the search can represent, in plies.
pub const MAX_PLY: usize = 1_000;
/// Scores at or beyond this magnitude are game ends, never heuristic values.
const END_BOUND: i32 = WIN - MAX_PLY as i32;

impl Score {
    /// Below every real score: the start of a maximisation.
    pub const MIN: Score = Score(-WIN - 1);
    /// Above every real score.
    pub const MAX: Score = Score(WIN + 1);
    /// The draw and the neutral heuristic value.
    pub const ZERO: Score = Score(0);

    /// The score of the side to move having no legal move at `ply` plies from the root.
    #[must_use]
    pub const fn lost_at(ply: usize) -> Score {
        Score(-(WIN - ply as i32))
    }

    /// The score of a win for the side to move `ply` plies from the root (a mirror of
    /// [`Score::lost_at`], the best score reachable at that ply).
    #[must_use]
    pub const fn won_at(ply: usize) -> Score {
        Score(WIN - ply as i32)
    }

    /// Whether the score is a forced game end (win or loss) rather than a heuristic value.
    #[must_use]
    pub const fn is_game_end(self) -> bool {
        self.0.abs() >= END_BOUND
    }

    /// Whether the score is a forced win for the side to move.
    #[must_use]
    pub const fn is_win(self) -> bool {
        self.0 >= END_BOUND
    }

    /// For a game-end score seen from the root, the plies from the root to the end of the game.
    #[must_use]
    pub const fn plies_to_end(self) -> Option<u32> {
        if self.is_game_end() {
            Some((WIN - self.0.abs()) as u32)
        } else {
            None
        }
    }

    /// Converts a score seen from the root into one seen from a node `ply` plies deep, for
    /// storing in the transposition table: game-end distances become relative to the node, so the
    /// entry is right wherever the same position is met again.
    #[must_use]
    pub const fn to_node(self, ply: usize) -> Score {
        if self.0 >= END_BOUND {
            Score(self.0 + ply as i32)
        } else if self.0 <= -END_BOUND {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// The inverse of [`Score::to_node`]: a stored node-relative score seen from the root again.
    #[must_use]
    pub const fn from_node(self, ply: usize) -> Score {
        if self.0 >= END_BOUND {
            Score(self.0 - ply as i32)
        } else if self.0 <= -END_BOUND {
            Score(self.0 + ply as i32)
        } else {
            self
        }
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl std::ops::Sub for Score {
    type Output = Score;
    fn sub(self, rhs: Score) -> Score {
        Score(self.0 - rhs.0)
    }
}

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, rhs: Score) -> Score {
        Score(self.0 + rhs.0)
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.plies_to_end() {
            Some(n) if self.is_win() => write!(f, "win in {n}"),
            Some(n) => write!(f, "loss in {n}"),
            None => write!(f, "{:+}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faster_wins_and_slower_losses_score_higher() {
        assert!(Score::won_at(3) > Score::won_at(5));
        assert!(Score::lost_at(6) > Score::lost_at(2));
        assert!(Score::lost_at(MAX_PLY - 1) < Score::ZERO);
        assert!(Score::won_at(MAX_PLY - 1).is_win());
        assert_eq!(Score::lost_at(4).plies_to_end(), Some(4));
        assert_eq!(Score(150).plies_to_end(), None);
    }

    #[test]
    fn node_relative_round_trip() {
        for s in [
            Score::won_at(9),
            Score::lost_at(8),
            Score(-250),
            Score::ZERO,
        ] {
            for ply in [0, 1, 7, 40] {
                assert_eq!(s.to_node(ply).from_node(ply), s);
            }
        }
        // A loss 10 plies from the root found at ply 4 is a loss in 6 from that node.
        assert_eq!(Score::lost_at(10).to_node(4), Score::lost_at(6));
    }
}
