//! Opening lists for matches: lines of moves in standard notation from the start position, such
//! as the three-move ballots of English checkers shipped in `data/openings-3move.txt`, and (for
//! [`parse_match_openings`]) starting positions written as FEN, such as the endgame starts of
//! `data/endgame-starts.txt`.

use thiserror::Error;

use crate::formats::{fen, notation};
use crate::rules::draw::DrawRule;
use crate::rules::game::Game;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// The ACF three-move ballots (156 playable), in this program's orientation; see the file's
/// header for its source.
pub const THREE_MOVE_BALLOTS: &str = include_str!("../../data/openings-3move.txt");

/// An opening: a name (its text) and its moves from the start position, or a position of its
/// own to start from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves as written, e.g. `24-20 12-16 28-24`, or the FEN as written.
    pub name: String,
    /// Where the game starts instead of the match's start position (a FEN line), `None` for a
    /// line of moves.
    pub start: Option<Position>,
    /// The moves, each legal in turn from the start position (none after a FEN).
    pub moves: Vec<Move>,
}

impl Opening {
    /// No opening moves: games from the start position.
    #[must_use]
    pub fn start() -> Opening {
        Opening {
            name: "start".to_owned(),
            start: None,
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
    /// A FEN line is not a position (only [`parse_match_openings`] reads them).
    #[error("line {line}: {reason}")]
    Fen {
        /// Line number from 1.
        line: usize,
        /// What is wrong, at which column.
        reason: String,
    },
    /// The text holds no opening.
    #[error("no opening found (lines of moves such as `24-20 12-16 28-24`)")]
    Empty,
}

/// Reads openings, one per line; `#` starts a comment, blank lines are skipped. A capture may be
/// written with every landing square (`22x15x8`) or with its start and end only (`22x8`).
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, OpeningError> {
    parse(text, false)
}

/// Reads openings as [`parse_openings`] does, and also lines holding a FEN (any line with a
/// `:`, such as `W:W21,22,K23:B1,2,3`, as `docs/rules.md` defines it): a game from that
/// position, its side to move first.
pub fn parse_match_openings(text: &str) -> Result<Vec<Opening>, OpeningError> {
    parse(text, true)
}

fn parse(text: &str, fens: bool) -> Result<Vec<Opening>, OpeningError> {
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if fens && line.contains(':') {
            let start = fen::parse(line).map_err(|e| OpeningError::Fen {
                line: i + 1,
                reason: format!("column {}: {}", e.column, e.kind),
            })?;
            openings.push(Opening {
                name: line.to_owned(),
                start: Some(start),
                moves: Vec::new(),
            });
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
            start: None,
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

/// How [`endgame_starts`] finds its positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndgameStartOptions {
    /// The piece counts wanted, fewest first (6 to 10 for issue 22's match).
    pub pieces: std::ops::RangeInclusive<u32>,
    /// Nodes a move of the games the positions are taken from.
    pub play_nodes: u64,
    /// Nodes of the search that scores each position.
    pub score_nodes: u64,
    /// Positions whose score is further from even than this (in hundredths of a man) are left
    /// out.
    pub bound: i32,
    /// Random moves played after each opening, from a generator seeded with this and the
    /// opening's number, so one opening gives other games for other seeds.
    pub seed: u64,
    /// How many random moves (0: the engine's games from the openings as they are).
    pub random_plies: usize,
    /// Games from each opening, each after its own random moves.
    pub variations: usize,
    /// The draw rules of the games (and of the scoring search).
    pub draw_rule: DrawRule,
}

impl Default for EndgameStartOptions {
    fn default() -> EndgameStartOptions {
        EndgameStartOptions {
            pieces: 6..=10,
            play_nodes: 4_000,
            score_nodes: 50_000,
            bound: 60,
            seed: 22,
            random_plies: 2,
            variations: 1,
            draw_rule: DrawRule::FiftyMoves,
        }
    }
}

/// A starting position found by [`endgame_starts`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndgameStart {
    /// The position (its side to move has no capture).
    pub position: Position,
    /// Its pieces.
    pub pieces: u32,
    /// The scoring search's score for the side to move, in hundredths of a man.
    pub score: i32,
    /// The opening of the game it was taken from.
    pub opening: String,
}

/// Starting positions for endgame matches: from each opening (`variations` times, each game
/// after its own `random_plies` seeded random moves), the engine (default evaluation, `play_nodes` a move) plays itself; the first position
/// of the game with each piece count of `pieces` whose side to move has no capture is scored by
/// a search of `score_nodes` and kept when the score is within `bound` of even. Positions found
/// twice are kept once. The result depends only on the openings and the options (the games run
/// in parallel, in the current thread pool, and are collected in the openings' order).
#[must_use]
pub fn endgame_starts(openings: &[Opening], options: &EndgameStartOptions) -> Vec<EndgameStart> {
    use rayon::prelude::*;
    let per = options.variations.max(1);
    let found: Vec<Vec<EndgameStart>> = (0..openings.len() * per)
        .into_par_iter()
        .with_max_len(1)
        .map(|g| starts_of_opening(g, &openings[g / per], options))
        .collect();
    let mut seen = rustc_hash::FxHashSet::default();
    found
        .into_iter()
        .flatten()
        .filter(|s| seen.insert(s.position))
        .collect()
}

/// The endgame starts of game `index` (its random moves' seed), from `opening`.
fn starts_of_opening(
    index: usize,
    opening: &Opening,
    options: &EndgameStartOptions,
) -> Vec<EndgameStart> {
    use crate::play::{Clock, Engine, EngineOptions};
    let engine_with = |nodes| {
        Engine::new(EngineOptions {
            nodes: Some(nodes),
            ..EngineOptions::default()
        })
    };
    let mut game = Game::new(
        opening.start.unwrap_or_else(Position::start),
        options.draw_rule,
    );
    for &mv in &opening.moves {
        if game.play(mv).is_err() {
            return Vec::new();
        }
    }
    let mut rng = crate::play::player::SplitMix64::new(
        options.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    for _ in 0..options.random_plies {
        let legal = game.legal_moves();
        if game.outcome().is_some() || legal.is_empty() {
            return Vec::new();
        }
        let mv = legal[rng.below(legal.len())];
        if game.play(mv).is_err() {
            return Vec::new();
        }
    }
    let fewest = *options.pieces.start();
    let mut wanted: Vec<u32> = options.pieces.clone().collect();
    let mut picked = Vec::new();
    let mut player = engine_with(options.play_nodes);
    while game.outcome().is_none() && game.ply() < 300 {
        let pos = *game.current();
        let pieces = pos.occupied().count();
        if pieces < fewest {
            break;
        }
        let legal = game.legal_moves();
        if let Some(at) = wanted.iter().position(|&n| n == pieces) {
            if !legal.iter().any(|m| m.is_capture()) {
                wanted.remove(at);
                picked.push(pos);
            }
        }
        let Some(thought) = player.think(&game, &Clock::unlimited()) else {
            break;
        };
        if game.play(thought.best).is_err() {
            break;
        }
    }
    picked
        .into_iter()
        .filter_map(|pos| {
            let mut judge = engine_with(options.score_nodes);
            let thought = judge.think(&Game::new(pos, options.draw_rule), &Clock::unlimited())?;
            let score = thought.score.0;
            (!thought.score.is_game_end() && score.abs() <= options.bound).then(|| EndgameStart {
                position: pos,
                pieces: pos.occupied().count(),
                score,
                opening: opening.name.clone(),
            })
        })
        .collect()
}

/// The starts as an openings file: a header of comment lines, then one FEN a line with its piece
/// count, score and opening as a comment.
///
/// # Errors
/// [`NotStandard`](crate::formats::fen::NotStandard) when a position has no FEN (never for
/// positions of games from the standard start).
pub fn endgame_starts_text(
    starts: &[EndgameStart],
    header: &str,
) -> Result<String, crate::formats::fen::NotStandard> {
    let mut text = String::new();
    for line in header.lines() {
        text.push_str(&format!("# {line}\n"));
    }
    for s in starts {
        text.push_str(&format!(
            "{}  # {} pieces, score {:+}, from {}\n",
            fen::write(&s.position)?,
            s.pieces,
            s.score,
            s.opening
        ));
    }
    Ok(text)
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

    /// The shipped endgame starts: 508 distinct positions of 6 to 10 pieces, none with a capture
    /// to make.
    #[test]
    fn the_shipped_endgame_starts_read_back() {
        let starts = parse_match_openings(include_str!("../../data/endgame-starts.txt")).unwrap();
        assert_eq!(starts.len(), 508);
        let mut seen = rustc_hash::FxHashSet::default();
        for o in &starts {
            let pos = o.start.unwrap();
            assert!((6..=10).contains(&pos.occupied().count()), "{}", o.name);
            assert!(!movegen::legal_moves(&pos).iter().any(|m| m.is_capture()));
            assert!(seen.insert(pos), "{} twice", o.name);
        }
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
