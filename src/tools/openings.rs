//! Opening lists for matches: lines of moves in standard notation from the start position, such
//! as the three-move ballots of English checkers shipped in `data/openings-3move.txt`.

use thiserror::Error;

use crate::formats::notation;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// The ACF three-move ballots (156 playable), in this program's orientation; see the file's
/// header for its source.
pub const THREE_MOVE_BALLOTS: &str = include_str!("../../data/openings-3move.txt");

/// An opening: a name (its text) and its moves from the start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves as written, e.g. `24-20 12-16 28-24`.
    pub name: String,
    /// The moves, each legal in turn from the start position.
    pub moves: Vec<Move>,
}

impl Opening {
    /// No opening moves: games from the start position.
    #[must_use]
    pub fn start() -> Opening {
        Opening {
            name: "start".to_owned(),
            moves: Vec::new(),
        }
    }
}

/// Why an openings text could not be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum OpeningError {
    /// A move is not legal (or not written in standard notation) where it stands.
    #[error("line {line}: `{text}` is not a legal move here (legal: {legal})")]
    IllegalMove {
        /// Line number from 1.
        line: usize,
        /// The move as written.
        text: String,
        /// The legal moves, for the message.
        legal: String,
    },
    /// The text holds no opening.
    #[error("no opening found (lines of moves such as `24-20 12-16 28-24`)")]
    Empty,
}

/// Reads openings, one per line; `#` starts a comment, blank lines are skipped. A capture may be
/// written with every landing square (`22x15x8`) or with its start and end only (`22x8`).
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for token in line.split_whitespace() {
            let legal = movegen::legal_moves(&pos);
            let found = legal
                .iter()
                .copied()
                .find(|&mv| move_matches(&pos, mv, token));
            let Some(mv) = found else {
                let legal: Vec<String> = legal
                    .iter()
                    .map(|&m| notation::move_text(&pos, m))
                    .collect();
                return Err(OpeningError::IllegalMove {
                    line: i + 1,
                    text: token.to_owned(),
                    legal: legal.join(" "),
                });
            };
            moves.push(mv);
            pos = pos.play(mv);
        }
        openings.push(Opening {
            name: line.split_whitespace().collect::<Vec<_>>().join(" "),
            moves,
        });
    }
    if openings.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(openings)
}

/// The openings in a fixed pseudo-random order from `seed` (a Fisher-Yates shuffle), so a match
/// shorter than the list still samples every kind of opening rather than the first few.
#[must_use]
pub fn shuffled(mut openings: Vec<Opening>, seed: u64) -> Vec<Opening> {
    let mut rng = crate::play::player::SplitMix64::new(seed);
    for i in (1..openings.len()).rev() {
        let j = rng.below(i + 1);
        openings.swap(i, j);
    }
    openings
}

/// Whether `token` names `mv` in `pos`: its full text, or for a capture its start and end.
fn move_matches(pos: &Position, mv: Move, token: &str) -> bool {
    let full = notation::move_text(pos, mv);
    if full == token {
        return true;
    }
    if !mv.is_capture() {
        return false;
    }
    let ends = full.split('x').collect::<Vec<_>>();
    let short = format!(
        "{}x{}",
        ends.first().copied().unwrap_or(""),
        ends.last().copied().unwrap_or("")
    );
    short == token
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_ballots_are_156_legal_openings() {
        let openings = parse_openings(THREE_MOVE_BALLOTS).unwrap();
        assert_eq!(openings.len(), 156);
        assert!(openings.iter().all(|o| o.moves.len() == 3));
        // All distinct.
        let mut names: Vec<&str> = openings.iter().map(|o| o.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 156);
    }

    #[test]
    fn bad_lines_are_named() {
        let err = parse_openings("24-20 12-16\n24-20 12-17\n").unwrap_err();
        assert!(
            matches!(err, OpeningError::IllegalMove { line: 2, .. }),
            "{err}"
        );
        assert_eq!(parse_openings("# nothing\n\n"), Err(OpeningError::Empty));
    }
}
