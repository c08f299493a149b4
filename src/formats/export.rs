//! A solved puzzle in each output format: the course's board text, PDN with the proven value of
//! each move as a comment, or one FEN per state.

use crate::formats::board_text::format_solution;
use crate::formats::fen::{self, NotStandard};
use crate::formats::pdn::{self, Game, GameResult};
use crate::rules::game::Outcome;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::search::puzzle::solve::{Solution, UnprovenMove};

/// The format a solution is written in.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum OutputFormat {
    /// Every state as 8 rows of `.rRbB`, one empty line between states (the course's format).
    #[default]
    Text,
    /// One PDN game: setup tags, moves, a comment with each move's value when known, result.
    Pdn,
    /// One FEN per state, one per line.
    Fen,
}

/// How a finished game's outcome is written in PDN.
#[must_use]
pub fn result_of(outcome: &Outcome) -> GameResult {
    match outcome.winner() {
        Some(color) => GameResult::win(color),
        None => GameResult::Draw,
    }
}

/// A game value as a person reads it: `red wins in 5 plies`, or `red has won` at the end.
#[must_use]
pub fn value_text(winner: Color, plies_left: u32) -> String {
    match plies_left {
        0 => format!("{} has won", winner.name()),
        1 => format!("{} wins in 1 ply", winner.name()),
        n => format!("{} wins in {n} plies", winner.name()),
    }
}

/// The proven value of the puzzle (before the first move), when the solver proved it.
#[must_use]
pub fn puzzle_value(solution: &Solution) -> Option<String> {
    let score = solution.root_score?;
    let plies = score.plies_to_end()?;
    // The root score is red's, and red moves first in a puzzle.
    let winner = if score.is_win() {
        Color::Red
    } else {
        Color::Black
    };
    Some(value_text(winner, plies))
}

/// The value after each move (one entry per move), where it is known.
///
/// The puzzle's proven value (the root score) gives the value after every move when the whole
/// line is proven optimal (each move then keeps the distance to the end one ply shorter), and the
/// value after the first move only otherwise (the first move was the proven one).
#[must_use]
pub fn move_values(solution: &Solution) -> Vec<Option<String>> {
    let moves = solution.moves();
    let known = match solution.root_score {
        Some(score) if score.plies_to_end().is_some() => {
            if solution.proven {
                moves
            } else {
                moves.min(1)
            }
        }
        _ => 0,
    };
    let (winner, plies) = match solution.root_score {
        Some(score) if score.is_win() => (Color::Red, score.plies_to_end().unwrap_or(0)),
        Some(score) => (Color::Black, score.plies_to_end().unwrap_or(0)),
        None => (Color::Red, 0),
    };
    (1..=moves)
        .map(|k| {
            let left = u32::try_from(k).ok().and_then(|k| plies.checked_sub(k));
            left.filter(|_| k <= known)
                .map(|left| value_text(winner, left))
        })
        .collect()
}

/// The solution as a PDN game named `event`, each move commented with its value when known.
///
/// Fails when the puzzle has a piece on a light cell (no standard notation exists for it).
pub fn solution_game(solution: &Solution, event: &str) -> Result<Game, NotStandard> {
    // The solver always returns at least the puzzle; an empty list would give the start position.
    let start = solution
        .states
        .first()
        .copied()
        .unwrap_or_else(Position::start);
    fen::write(&start)?;
    // The solver's states are a game by construction; an inconsistent pair ends the record there.
    let mut game = Game::from_states(&solution.states).unwrap_or_else(|_| Game::new(start));
    game.set_tag("Event", event);
    game.set_tag("White", "checkers (red)");
    game.set_tag("Black", "checkers (black)");
    game.comments = move_values(solution);
    game.comments.truncate(game.moves.len());
    game.comments.resize(game.moves.len(), None);
    game.result = result_of(&solution.outcome);
    Ok(game)
}

/// The solution written in `format`; `event` names the game in PDN.
///
/// Text never fails; PDN and FEN fail when a piece stands on a light cell.
pub fn write_solution(
    solution: &Solution,
    format: OutputFormat,
    event: &str,
) -> Result<String, NotStandard> {
    match format {
        OutputFormat::Text => Ok(format_solution(&solution.states)),
        OutputFormat::Pdn => pdn::write_game(&solution_game(solution, event)?),
        OutputFormat::Fen => {
            let lines: Result<Vec<String>, NotStandard> =
                solution.states.iter().map(fen::write).collect();
            Ok(lines?.iter().map(|l| format!("{l}\n")).collect())
        }
    }
}

/// The one-line report of a solved game that the command line prints on stderr, for example
/// `red wins after 7 plies (proven optimal); 8 states; 0.001 s; 489 nodes; table hit rate 74%`.
#[must_use]
pub fn summary(s: &Solution) -> String {
    let result = match &s.outcome {
        Outcome::Win { winner } => format!("{} wins", winner.name()),
        Outcome::QuietMoves => "draw by the 50-move rule".to_string(),
        other => other.to_string(),
    };
    let proof = if s.proven {
        "proven optimal"
    } else if s.time_limited {
        "not proven, time limit reached"
    } else {
        "not proven"
    };
    let proof = match s.unproven.as_slice() {
        [] => proof.to_string(),
        moves => format!("{proof}: {}", unproven_moves(moves)),
    };
    let databases = if s.endgame_positions == 0 {
        String::new()
    } else {
        format!(
            "; endgame databases of {:.1} M positions",
            s.endgame_positions as f64 / 1e6
        )
    };
    let databases = if s.endgame_lookups == 0 {
        databases
    } else {
        format!(
            "{databases}; {} look-ups in database files, {} blocks read",
            s.endgame_lookups, s.endgame_blocks_read
        )
    };
    let databases = match &s.endgame_error {
        Some(e) => format!("{databases}; {e}"),
        None => databases,
    };
    format!(
        "{result} after {} ({proof}); {}; {:.3} s; {} nodes; table hit rate {:.0}%{databases}",
        plural(s.moves() as u64, "ply", "plies"),
        plural(s.states.len() as u64, "state", "states"),
        s.elapsed.as_secs_f64(),
        s.stats.nodes,
        100.0 * s.tt_hit_rate
    )
}

/// `n` and the noun, `one` when `n` is 1 and `many` otherwise: "1 ply", "7 plies", "0 draws".
#[must_use]
pub fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// How far the proofs of the unproven moves got, the first few of them: "move 1: no end within
/// 11 plies, scored win in 25".
fn unproven_moves(moves: &[UnprovenMove]) -> String {
    const SHOWN: usize = 3;
    let mut parts: Vec<String> = moves
        .iter()
        .take(SHOWN)
        .map(|m| {
            let score = m.score.map_or(String::new(), |s| format!(", scored {s}"));
            format!(
                "move {}: no end within {} plies{score}",
                m.number, m.no_end_within
            )
        })
        .collect();
    if moves.len() > SHOWN {
        parts.push(format!("{} more", moves.len() - SHOWN));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Score;

    #[test]
    fn unproven_moves_name_their_bound_and_score() {
        let moves = [
            UnprovenMove {
                number: 1,
                no_end_within: 19,
                score: None,
            },
            UnprovenMove {
                number: 3,
                no_end_within: 8,
                score: Some(Score(-201)),
            },
            UnprovenMove {
                number: 5,
                no_end_within: 11,
                score: Some(Score::won_at(25)),
            },
            UnprovenMove {
                number: 7,
                no_end_within: 2,
                score: None,
            },
        ];
        assert_eq!(
            unproven_moves(&moves),
            "move 1: no end within 19 plies; move 3: no end within 8 plies, scored -201; move 5: \
             no end within 11 plies, scored win in 25; 1 more"
        );
    }

    #[test]
    fn one_ply_is_singular() {
        assert_eq!(plural(1, "ply", "plies"), "1 ply");
        assert_eq!(plural(0, "ply", "plies"), "0 plies");
        assert_eq!(plural(7, "ply", "plies"), "7 plies");
    }
}
