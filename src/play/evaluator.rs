//! Which evaluation the playing search calls: the hand-set one ([`super::eval`]) or the trained
//! tables ([`crate::search::eval::trained`], the shipped weights unless a file is given).

use std::path::Path;

use crate::rules::position::Position;
use crate::search::eval::trained::{self, TrainedWeights, WeightsError};

use super::eval::{evaluate_with, Weights};

/// The evaluation of a search.
#[derive(Clone, Copy, Debug)]
pub enum Evaluator {
    /// The hand-set weights (the baseline, `engine:eval=hand`).
    Hand,
    /// Trained tables: the shipped ones or a file's (`engine:weights=FILE`).
    Trained(&'static TrainedWeights),
}

/// Whether the engine plays with the shipped trained weights by default (else the hand-set
/// evaluation, until trained weights measure stronger).
pub const TRAINED_BY_DEFAULT: bool = true;

impl Default for Evaluator {
    /// The shipped trained weights when [`TRAINED_BY_DEFAULT`] (the hand-set evaluation if they
    /// could not be read, which a test rules out).
    fn default() -> Self {
        if TRAINED_BY_DEFAULT {
            trained::embedded().map_or(Evaluator::Hand, Evaluator::Trained)
        } else {
            Evaluator::Hand
        }
    }
}

impl PartialEq for Evaluator {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Evaluator::Hand, Evaluator::Hand) => true,
            (Evaluator::Trained(a), Evaluator::Trained(b)) => {
                std::ptr::eq(*a, *b) || (a.source() == b.source() && a == b)
            }
            _ => false,
        }
    }
}

impl Eq for Evaluator {}

impl Evaluator {
    /// The shipped trained weights.
    ///
    /// # Errors
    /// [`WeightsError`] if the embedded file is damaged.
    pub fn shipped() -> Result<Evaluator, WeightsError> {
        trained::embedded().map(Evaluator::Trained)
    }

    /// Trained weights read from `path`. They live until the process ends (a player spec
    /// names them once, and every game of a match uses them).
    ///
    /// # Errors
    /// [`WeightsError`] when the file cannot be read or is refused.
    pub fn from_file(path: &Path) -> Result<Evaluator, WeightsError> {
        let w = TrainedWeights::from_file(path)?;
        Ok(Evaluator::Trained(Box::leak(Box::new(w))))
    }

    /// The score of `pos` for the side to move; `hand` weighs the hand-set evaluation, which
    /// also judges positions the tables do not cover (pieces on light cells).
    #[inline]
    #[must_use]
    pub fn evaluate(&self, pos: &Position, hand: &Weights) -> i32 {
        match self {
            Evaluator::Hand => evaluate_with(pos, hand),
            Evaluator::Trained(w) => w.evaluate(pos).unwrap_or_else(|| evaluate_with(pos, hand)),
        }
    }

    /// How a player spec writes this choice when it is not the default: `eval=hand` or
    /// `weights=FILE`.
    #[must_use]
    pub fn spec_option(&self) -> Option<String> {
        match self {
            Evaluator::Hand => Some("eval=hand".to_owned()),
            Evaluator::Trained(w) if w.source() == "embedded" => Some("eval=trained".to_owned()),
            Evaluator::Trained(w) => Some(format!("weights={}", w.source())),
        }
    }
}
