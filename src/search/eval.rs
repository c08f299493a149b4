//! Static evaluation of a position that is not a game end, in hundredths of a man from the side
//! to move's point of view: one module, one weight set per use.
//!
//! Exact game ends never come from here (the searches score them by their distance), so an
//! evaluation only steers move ordering and the choice among moves that are not proven. The
//! puzzle solver's proofs are searched with the puzzle set ([`hand::puzzle`]); the moves it
//! cannot prove and the player's game search take their evaluation from one field, an
//! [`Evaluator`]. One default per use, each named: the solver's unproven moves
//! ([`Evaluator::solver_default`], `SolveOptions::evaluator`) and the player
//! ([`Evaluator::game_default`], `GameOptions::evaluator`) both use the shipped trained tables;
//! `Evaluator::default()` is the player's hand-written set ([`hand::game`] with [`Weights`],
//! `eval=hand`, tuned by matches), no command's default; a lone
//! [`PuzzleSearcher`](crate::search::PuzzleSearcher) chooses with the puzzle set until told otherwise.

pub mod hand;
pub mod net;
pub mod trained;

pub use hand::Weights;

use std::path::Path;
use std::sync::Arc;

use crate::rules::bitboard::Bitboard;
use crate::rules::position::Position;
use crate::rules::square::Square;

use super::score::Score;

/// Value of a man: the unit of every evaluation.
pub const MAN: i32 = 100;

/// The 16 cells of the middle 4x4 square of the board: rows 3 to 6 and columns 3 to 6 counted
/// from 1 (8 of them dark), where a piece reaches the most cells.
pub const CENTRE: Bitboard = Bitboard(0x0000_3C3C_3C3C_0000);

/// Chebyshev distance (king steps, ignoring the colour of the cells) from `from` to the nearest
/// cell of `targets` (0 when there is none).
#[must_use]
pub fn nearest_distance(from: Square, targets: Bitboard) -> i32 {
    targets
        .iter()
        .map(|t| {
            let dr = (i32::from(t.row()) - i32::from(from.row())).abs();
            let dc = (i32::from(t.col()) - i32::from(from.col())).abs();
            dr.max(dc)
        })
        .min()
        .unwrap_or(0)
}

/// Which evaluation a search uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evaluator {
    /// The puzzle solver's hand-written set ([`hand::puzzle`]): its proofs' evaluation always,
    /// and with `--eval puzzle` the one of its unproven moves too.
    Puzzle,
    /// The player's hand-written set with these weights ([`hand::game`]).
    Hand(Weights),
    /// Trained tables ([`trained`]): the shipped weights, or a file's (`engine:weights=FILE`).
    Trained(Arc<trained::TrainedWeights>),
    /// Trained tables plus a network ([`net`]): the shipped weights (`eval=net`), or a file's.
    Net(Arc<net::NetWeights>),
}

impl Default for Evaluator {
    /// The player's hand-written set with its default weights (`eval=hand`): no command's
    /// default (see [`Evaluator::game_default`] and [`Evaluator::solver_default`]).
    fn default() -> Self {
        Evaluator::Hand(Weights::default())
    }
}

impl Evaluator {
    /// The value of `pos` for its side to move.
    #[must_use]
    pub fn evaluate(&self, pos: &Position) -> Score {
        match self {
            Evaluator::Puzzle => hand::puzzle(pos),
            Evaluator::Hand(w) => hand::game(pos, w),
            // Positions the tables do not cover (pieces on light cells) get the hand-set value.
            Evaluator::Trained(t) => t
                .evaluate(pos)
                .map_or_else(|| hand::game(pos, &Weights::default()), Score),
            Evaluator::Net(n) => n
                .evaluate(pos)
                .map_or_else(|| hand::game(pos, &Weights::default()), Score),
        }
    }

    /// The evaluation the player uses unless told otherwise: the shipped trained weights (the
    /// hand-written set if they could not be read, which a test rules out).
    #[must_use]
    pub fn game_default() -> Evaluator {
        Evaluator::shipped().unwrap_or_default()
    }

    /// The evaluation that chooses the solver's unproven moves unless told otherwise
    /// (`SolveOptions::default`, `checkers --inputfile`, the Python package's `solve`): the
    /// shipped trained weights (the puzzle set if they could not be read, which a test rules
    /// out).
    #[must_use]
    pub fn solver_default() -> Evaluator {
        Evaluator::shipped().unwrap_or(Evaluator::Puzzle)
    }

    /// The shipped trained weights.
    ///
    /// # Errors
    /// [`trained::WeightsError`] if the embedded file is damaged.
    pub fn shipped() -> Result<Evaluator, trained::WeightsError> {
        static SHIPPED: std::sync::OnceLock<Arc<trained::TrainedWeights>> =
            std::sync::OnceLock::new();
        let w = trained::embedded()?;
        Ok(Evaluator::Trained(Arc::clone(
            SHIPPED.get_or_init(|| Arc::new(w.clone())),
        )))
    }

    /// The shipped network weights (`eval=net`).
    ///
    /// # Errors
    /// [`trained::WeightsError`] if the embedded file is damaged.
    pub fn shipped_net() -> Result<Evaluator, trained::WeightsError> {
        static SHIPPED: std::sync::OnceLock<Arc<net::NetWeights>> = std::sync::OnceLock::new();
        let w = net::embedded()?;
        Ok(Evaluator::Net(Arc::clone(
            SHIPPED.get_or_init(|| Arc::new(w.clone())),
        )))
    }

    /// Weights read from `path`: trained tables (a `CKEV` file) or tables and a network
    /// (`CKNN`), told apart by the file's magic.
    ///
    /// # Errors
    /// [`trained::WeightsError`] when the file cannot be read or is refused.
    pub fn from_file(path: &Path) -> Result<Evaluator, trained::WeightsError> {
        let (name, bytes) = trained::read_file(path)?;
        if bytes.starts_with(&net::MAGIC) {
            Ok(Evaluator::Net(Arc::new(net::NetWeights::from_bytes(
                &name, &bytes,
            )?)))
        } else {
            Ok(Evaluator::Trained(Arc::new(
                trained::TrainedWeights::from_bytes(&name, &bytes)?,
            )))
        }
    }

    /// How a player spec names this evaluation: `eval=hand`, `eval=trained` (the shipped
    /// weights), `weights=FILE`; `None` for the puzzle set, which no spec selects.
    #[must_use]
    pub fn spec_option(&self) -> Option<String> {
        match self {
            Evaluator::Puzzle => None,
            Evaluator::Hand(_) => Some("eval=hand".to_owned()),
            Evaluator::Trained(w) if w.source() == "embedded" => Some("eval=trained".to_owned()),
            Evaluator::Trained(w) => Some(format!("weights={}", w.source())),
            Evaluator::Net(w) if w.source() == "embedded" => Some("eval=net".to_owned()),
            Evaluator::Net(w) => Some(format!("weights={}", w.source())),
        }
    }

    /// The hand-written weights, to set them one by one from a player specification (`None`
    /// for an evaluator without them).
    pub fn weights_mut(&mut self) -> Option<&mut Weights> {
        match self {
            Evaluator::Hand(w) => Some(w),
            Evaluator::Puzzle | Evaluator::Trained(_) | Evaluator::Net(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_is_in_king_steps() {
        let sq = |r, c| Square::new(r, c).expect("on the board");
        let targets = sq(0, 1).bit() | sq(5, 6).bit();
        assert_eq!(nearest_distance(sq(3, 4), targets), 2);
        assert_eq!(nearest_distance(sq(0, 1), targets), 0);
        assert_eq!(nearest_distance(sq(0, 1), Bitboard::EMPTY), 0);
    }

    #[test]
    fn each_evaluator_is_its_set() {
        let pos = Position::start().play(crate::rules::movegen::legal_moves(&Position::start())[0]);
        assert_eq!(Evaluator::Puzzle.evaluate(&pos), hand::puzzle(&pos));
        let w = Weights::default();
        assert_eq!(Evaluator::default().evaluate(&pos), hand::game(&pos, &w));
    }

    #[test]
    fn a_file_is_read_by_its_magic() {
        let dir = tempfile::tempdir().unwrap();
        let (tables, network) = (dir.path().join("t.ckw"), dir.path().join("n.cknn"));
        std::fs::write(&tables, trained::EMBEDDED_BYTES).unwrap();
        std::fs::write(&network, net::EMBEDDED_BYTES).unwrap();
        assert!(matches!(
            Evaluator::from_file(&tables),
            Ok(Evaluator::Trained(_))
        ));
        let Ok(Evaluator::Net(n)) = Evaluator::from_file(&network) else {
            panic!("not read as a network");
        };
        assert_eq!(
            Evaluator::Net(n).spec_option(),
            Some(format!("weights={}", network.display()))
        );
        let mut damaged = net::EMBEDDED_BYTES.to_vec();
        damaged[5000] ^= 0x10;
        std::fs::write(&network, damaged).unwrap();
        let e = Evaluator::from_file(&network).unwrap_err().to_string();
        assert!(e.contains("n.cknn") && e.contains("checksum"), "{e}");
        assert_eq!(
            Evaluator::shipped_net().unwrap().spec_option().as_deref(),
            Some("eval=net")
        );
    }
}
