//! A solved puzzle in each output format: the course's board text, PDN with the proven value of
//! each move as a comment, or one FEN per state.

use crate::formats::board_text::format_solution;
use crate::formats::fen::{self, NotStandard};
use crate::formats::pdn::{self, Game, GameResult};
use crate::rules::game::Outcome;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::search::solve::Solution;

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
