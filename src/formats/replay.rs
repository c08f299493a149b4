//! A game ready to be shown: its states, each move in notation with its path, and the value after
//! each move where it is known. The pictures ([`svg`](super::svg), [`html`](super::html),
//! [`terminal`](super::terminal)) draw from it.

use crate::formats::notation::{move_path, move_text};
use crate::formats::pdn::{Game, NotAGame};
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::square::Square;

/// A game to show, move by move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// A title, such as the puzzle's name.
    pub title: String,
    /// Every state, the start first.
    pub states: Vec<Position>,
    /// Each move in standard notation (cell coordinates on light cells).
    pub moves: Vec<String>,
    /// Each move's path: start, every landing square, end.
    pub paths: Vec<Vec<Square>>,
    /// The value after each move, when known (`red wins in 5 plies`).
    pub values: Vec<Option<String>>,
    /// The value of the start, when known.
    pub start_value: Option<String>,
}

impl Replay {
    /// A replay of `game`, taking each move's comment as its value.
    #[must_use]
    pub fn from_game(game: &Game, title: &str) -> Replay {
        let states = game.positions();
        let moves = states
            .iter()
            .zip(&game.moves)
            .map(|(pos, &mv)| move_text(pos, mv))
            .collect();
        let paths = states
            .iter()
            .zip(&game.moves)
            .map(|(pos, &mv)| move_path(pos, mv))
            .collect();
        let mut values = game.comments.clone();
        values.resize(game.moves.len(), None);
        Replay {
            title: title.to_string(),
            states,
            moves,
            paths,
            values,
            start_value: None,
        }
    }

    /// A replay of a sequence of states (a solution), with values where known.
    pub fn from_states(
        states: &[Position],
        values: &[Option<String>],
        title: &str,
    ) -> Result<Replay, NotAGame> {
        let mut game = Game::from_states(states)?;
        game.comments = values.to_vec();
        Ok(Replay::from_game(&game, title))
    }

    /// The label of move `i` (from 0) with its number: `3. 22-18` for red, `3... 11-15` for black.
    #[must_use]
    pub fn label(&self, i: usize) -> String {
        let Some(text) = self.moves.get(i) else {
            return String::new();
        };
        let first_black = self
            .states
            .first()
            .is_some_and(|p| p.side_to_move() == Color::Black);
        // Move numbers count pairs of plies, red first; a start with black to move is move 1 too.
        let ply = i + usize::from(first_black);
        let number = ply / 2 + 1;
        if ply % 2 == 0 {
            format!("{number}. {text}")
        } else {
            format!("{number}... {text}")
        }
    }

    /// What the state `k` (from 0) shows: the move that led to it and its value.
    #[must_use]
    pub fn caption(&self, k: usize) -> String {
        let value = if k == 0 {
            self.start_value.clone()
        } else {
            self.values.get(k - 1).cloned().flatten()
        };
        let head = if k == 0 {
            "start".to_string()
        } else {
            format!("after {}", self.label(k - 1))
        };
        let turn = self.states.get(k).map_or("", |p| p.side_to_move().name());
        match value {
            Some(v) => format!("{head}; {turn} to move; {v}"),
            None => format!("{head}; {turn} to move"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::fen;
    use crate::rules::movegen::legal_moves;

    #[test]
    fn labels_and_captions() {
        let start = fen::parse("W:W22:B1").unwrap();
        let mv = legal_moves(&start)[0];
        let states = vec![start, start.play(mv)];
        let replay = Replay::from_states(&states, &[Some("x".into())], "t").unwrap();
        assert_eq!(replay.moves.len(), 1);
        assert!(replay.label(0).starts_with("1. 22-"));
        assert_eq!(replay.caption(0), "start; red to move");
        assert!(replay.caption(1).ends_with("; black to move; x"));
        let black = start.with_side_to_move(Color::Black);
        let mv = legal_moves(&black)[0];
        let replay = Replay::from_states(&[black, black.play(mv)], &[], "t").unwrap();
        assert!(replay.label(0).starts_with("1... 1-"));
    }
}
