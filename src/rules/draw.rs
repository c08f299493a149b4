//! The draw rules of real games, which depend on the path a game took: the same position for the
//! third time, and a run of moves without progress.
//!
//! The puzzle rules ([`game`](super::game)) know only threefold repetition of a position with the
//! same side to move (and an optional tournament rule). The assignments this crate also serves
//! apply their own rules, chosen by [`DrawRule`]:
//!
//! | rule | repetition | no progress |
//! |---|---|---|
//! | [`DrawRule::None`] | same position, same side to move, third time | none |
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
    /// USC CSCI561: 50 moves in a row (both sides counted together) without a capture or a
    /// crowning; the same board, pieces only, for the third time.
    Csci561,
    /// KTH DD2380: 50 turns (25 of each side) without a capture; threefold repetition.
    Dd2380,
}

/// Plies without progress after which [`DrawRule::Csci561`] and [`DrawRule::Dd2380`] draw.
pub const QUIET_PLY_LIMIT: u32 = 50;

impl DrawRule {
    /// The rule named `csci561`, `dd2380` or `none`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<DrawRule> {
        match name {
            "none" => Some(DrawRule::None),
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
            DrawRule::Csci561 => "csci561",
            DrawRule::Dd2380 => "dd2380",
        }
    }

    /// Plies without progress that end the game in a draw, if the rule has such a limit.
    #[must_use]
    pub const fn quiet_limit(self) -> Option<u32> {
        match self {
            DrawRule::None => None,
            DrawRule::Csci561 | DrawRule::Dd2380 => Some(QUIET_PLY_LIMIT),
        }
    }

    /// Whether playing `mv` in `pos` is progress that restarts the count of quiet plies.
    #[must_use]
    pub fn is_progress(self, pos: &Position, mv: Move) -> bool {
        match self {
            DrawRule::Dd2380 => mv.is_capture(),
            DrawRule::None | DrawRule::Csci561 => mv.is_capture() || is_crowning(pos, mv),
        }
    }

    /// The position as the repetition rule compares it: under CSCI561 the side to move does not
    /// count, so it is set to red for every position.
    #[must_use]
    pub fn repetition_key(self, pos: &Position) -> Position {
        match self {
            DrawRule::Csci561 => pos.with_side_to_move(Color::Red),
            DrawRule::None | DrawRule::Dd2380 => *pos,
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
        DrawRule::from_name(s)
            .ok_or_else(|| format!("unknown draw rule `{s}`: expected csci561, dd2380 or none"))
    }
}
