//! The draw rules of real games, which depend on the path a game took: the same position for the
//! third time, and a run of moves without progress.
//!
//! Every game ([`Game`](super::game::Game)) is played under one [`DrawRule`]; the puzzle solver,
//! the player, the match runner and the protocol front ends all choose theirs by the same names
//! (`--draw-rule NAME` on every subcommand):
//!
//! | rule | repetition | no progress |
//! |---|---|---|
//! | [`DrawRule::None`] (the puzzle rules) | same position, same side to move, third time | none |
//! | [`DrawRule::FiftyMoves`] (the puzzle's optional tournament rule) | as `none` | 50 moves of each side (100 plies) without a capture or a crowning |
//! | [`DrawRule::Csci561`] | same board (pieces only, either side to move), third time | 50 plies, both sides together, without a capture or a crowning |
//! | [`DrawRule::Dd2380`] | same position, same side to move, third time | 50 plies (25 of each side) without a capture |

use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;

/// Which path-dependent draw rules a game is played under.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum DrawRule {
    /// Threefold repetition only (the puzzle rules).
    #[default]
    None,
    /// The puzzle's optional tournament rule: threefold repetition, and 50 moves of each side
    /// (100 plies) without a capture or a crowning.
    FiftyMoves,
    /// USC CSCI561: 50 moves in a row (both sides counted together) without a capture or a
    /// crowning; the same board, pieces only, for the third time.
    Csci561,
    /// KTH DD2380: 50 turns (25 of each side) without a capture; threefold repetition.
    Dd2380,
}

/// Plies without progress after which [`DrawRule::Csci561`] and [`DrawRule::Dd2380`] draw.
pub const QUIET_PLY_LIMIT: u32 = 50;

/// Plies without progress after which [`DrawRule::FiftyMoves`] draws: 50 moves of each side.
pub const FIFTY_MOVE_PLIES: u32 = 100;

/// Every rule, in the order the help text lists them.
pub const ALL: [DrawRule; 4] = [
    DrawRule::None,
    DrawRule::FiftyMoves,
    DrawRule::Csci561,
    DrawRule::Dd2380,
];

impl DrawRule {
    /// The rule named `none`, `fifty-moves`, `csci561` or `dd2380`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<DrawRule> {
        match name {
            "none" => Some(DrawRule::None),
            "fifty-moves" => Some(DrawRule::FiftyMoves),
            "csci561" => Some(DrawRule::Csci561),
            "dd2380" => Some(DrawRule::Dd2380),
            _ => None,
        }
    }

    /// The rule's name, as [`DrawRule::from_name`] reads it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            DrawRule::None => "none",
            DrawRule::FiftyMoves => "fifty-moves",
            DrawRule::Csci561 => "csci561",
            DrawRule::Dd2380 => "dd2380",
        }
    }

    /// What ends a game by the quiet-move count, as a report says it (`None` without a limit).
    #[must_use]
    pub const fn quiet_text(self) -> Option<&'static str> {
        match self {
            DrawRule::None => None,
            DrawRule::FiftyMoves => Some("50 moves of each side without a capture or a crowning"),
            DrawRule::Csci561 => Some("50 moves without a capture or a crowning"),
            DrawRule::Dd2380 => Some("50 turns without a capture"),
        }
    }

    /// Plies without progress that end the game in a draw, if the rule has such a limit.
    #[must_use]
    pub const fn quiet_limit(self) -> Option<u32> {
        match self {
            DrawRule::None => None,
            DrawRule::FiftyMoves => Some(FIFTY_MOVE_PLIES),
            DrawRule::Csci561 | DrawRule::Dd2380 => Some(QUIET_PLY_LIMIT),
        }
    }

    /// Whether playing `mv` in `pos` is progress that restarts the count of quiet plies.
    #[must_use]
    pub fn is_progress(self, pos: &Position, mv: Move) -> bool {
        match self {
            DrawRule::Dd2380 => mv.is_capture(),
            DrawRule::None | DrawRule::FiftyMoves | DrawRule::Csci561 => {
                mv.is_capture() || is_crowning(pos, mv)
            }
        }
    }

    /// The position as the repetition rule compares it: under CSCI561 the side to move does not
    /// count, so it is set to red for every position.
    #[must_use]
    pub fn repetition_key(self, pos: &Position) -> Position {
        match self {
            DrawRule::Csci561 => pos.with_side_to_move(Color::Red),
            DrawRule::None | DrawRule::FiftyMoves | DrawRule::Dd2380 => *pos,
        }
    }
}

/// Whether `mv` crowns a man in `pos` (see [`Position::crowns`]).
#[must_use]
pub fn is_crowning(pos: &Position, mv: Move) -> bool {
    pos.crowns(mv)
}

impl std::fmt::Display for DrawRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for DrawRule {
    type Err = String;

    fn from_str(s: &str) -> Result<DrawRule, String> {
        DrawRule::from_name(s).ok_or_else(|| {
            format!("unknown draw rule `{s}`: expected none, fifty-moves, csci561 or dd2380")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_reads_back_from_its_name() {
        for rule in ALL {
            assert_eq!(rule.name().parse::<DrawRule>(), Ok(rule));
            assert_eq!(rule.quiet_limit().is_some(), rule.quiet_text().is_some());
        }
        assert_eq!(DrawRule::FiftyMoves.quiet_limit(), Some(100));
        assert!("fifty".parse::<DrawRule>().is_err());
    }
}
