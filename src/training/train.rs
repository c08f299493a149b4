//! Fitting the trained evaluation ([`crate::search::eval::trained`]) to labelled positions:
//! logistic regression by mini-batch Adam, minimising the log-loss of the predicted score of
//! the side to move against the label (1 win, 1/2 draw, 0 loss).
//!
//! Reproducible: one thread, data in the order given, shuffled by a seeded generator, every
//! sum taken in a fixed order, and the exponential computed by a fixed polynomial rather than
//! the platform's library, so the same data, settings and seed give bit-identical weights.
//!
//! A twentieth of the positions, chosen by blocks of consecutive records (about a game each, so
//! that positions of one game are not split between the two sets), is held out; its loss is
//! reported after every epoch.

use crate::rules::position::Position;
use crate::search::eval::trained::{
    self, TrainedWeights, View, WeightsError, FEATURES, PHASES, WEIGHT_ONE,
};

use super::dataset::Record;
use crate::play::player::SplitMix64;

/// Settings of a training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size, in logits.
    pub learning_rate: f64,
    /// Factor applied to the step size after each epoch.
    pub decay: f64,
    /// L2 penalty per weight and step (keeps rare patterns near 0).
    pub l2: f64,
    /// Seed of the shuffles.
    pub seed: u64,
    /// One block of this many consecutive records in `holdout` is held out (0: none).
    pub holdout: u64,
    /// Share of the target taken from the recorded search score instead of the game's result
    /// (0: results only); positions with exact values keep them.
    pub score_weight: f64,
    /// The search score that counts as one logit, for turning it into an expected score.
    pub score_scale: f64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 12,
            batch: 1024,
            learning_rate: 0.01,
            decay: 0.75,
            l2: 1e-6,
            seed: 1,
            holdout: 20,
            score_weight: 0.75,
            score_scale: 100.0,
        }
    }
}

/// Positions as the trainer reads them: active features, phase share and target.
pub struct Samples {
    /// Start of each sample's features in `features`, plus the end.
    offsets: Vec<u32>,
    features: Vec<u16>,
    /// Share of the first phase (pieces / 24).
    share: Vec<f32>,
    /// Label for the side to move.
    target: Vec<f32>,
}

impl Samples {
    /// Number of samples.
    #[must_use]
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// Whether there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    fn new() -> Samples {
        Samples {
            offsets: vec![0],
            features: Vec::new(),
            share: Vec::new(),
            target: Vec::new(),
        }
    }

    fn push(&mut self, view: &View, features: &[u16], target: f32) {
        self.features.extend_from_slice(features);
        self.offsets.push(self.features.len() as u32);
        self.share.push(view.opening_share());
        self.target.push(target);
    }

    /// The active features of sample `i` (the piece-square ones first).
    #[must_use]
    pub fn features_of(&self, i: usize) -> &[u16] {
        &self.features[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The first phase's share of sample `i`.
    #[must_use]
    pub fn share(&self, i: usize) -> f64 {
        f64::from(self.share[i])
    }

    /// The target of sample `i`.
    #[must_use]
    pub fn target(&self, i: usize) -> f64 {
        f64::from(self.target[i])
    }
}

/// The label of `r` for its side to move.
#[must_use]
pub fn target(r: &Record) -> f32 {
    r.label.for_color(r.position.side_to_move()).target()
}

/// The training target of `r`: its label, blended with its search score as `config` says.
#[must_use]
pub fn blended_target(r: &Record, config: &TrainConfig) -> f32 {
    let t = f64::from(target(r));
    if r.exact || config.score_weight <= 0.0 {
        return t as f32;
    }
    let from_score = sigmoid(f64::from(r.score) / config.score_scale.max(1e-9));
    ((1.0 - config.score_weight) * t + config.score_weight * from_score) as f32
}

/// Splits `records` into training and held-out samples (positions with pieces on light cells,
/// which the tables do not cover, are skipped).
#[must_use]
pub fn split(records: &[Record], config: &TrainConfig) -> (Samples, Samples) {
    const BLOCK: usize = 128;
    let (mut train, mut held) = (Samples::new(), Samples::new());
    for (i, r) in records.iter().enumerate() {
        let Some((view, f)) = trained::features(&r.position) else {
            continue;
        };
        let block = (i / BLOCK) as u64;
        let out =
            config.holdout > 0 && SplitMix64::new(block ^ 0x5EED).next_u64() % config.holdout == 0;
        // The held-out loss is always measured against results, what the play is judged by.
        if out {
            held.push(&view, &f, target(r));
        } else {
            train.push(&view, &f, blended_target(r, config));
        }
    }
    (train, held)
}

/// e^x for |x| up to about 700, by range reduction and a fixed polynomial: the same bits on
/// every platform (only additions and multiplications, which IEEE 754 rounds exactly).
#[must_use]
pub fn exp(x: f64) -> f64 {
    let x = x.clamp(-700.0, 700.0);
    const LN2_HI: f64 = 0.693_147_180_369_123_8;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    let k = (x * std::f64::consts::LOG2_E).round();
    let r = (x - k * LN2_HI) - k * LN2_LO;
    // Taylor series to r^13 / 13!: |r| <= 0.35 makes the error below 1e-16 relative.
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..=13 {
        term = term * r / f64::from(n);
        sum += term;
    }
    sum * f64::from_bits(((k as i64 + 1023) as u64) << 52)
}

/// The logistic function.
#[must_use]
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + exp(-z))
}

/// Log-loss of predicting `p` for target `t`.
pub(crate) fn log_loss(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The model being fitted: one weight pair per feature, in logits.
pub struct Model {
    w: Vec<[f64; PHASES]>,
}

impl Model {
    /// All weights zero.
    #[must_use]
    pub fn zero() -> Model {
        Model {
            w: vec![[0.0; PHASES]; FEATURES],
        }
    }

    /// The logit of a sample's features with first-phase share `share`.
    pub(crate) fn logit_of(&self, features: &[u16], share: f64) -> f64 {
        let (mut a, mut b) = (0.0, 0.0);
        for &f in features {
            let w = &self.w[usize::from(f)];
            a += w[0];
            b += w[1];
        }
        share * a + (1.0 - share) * b
    }

    /// Mean log-loss over `s`.
    #[must_use]
    pub fn loss(&self, s: &Samples) -> f64 {
        if s.is_empty() {
            return 0.0;
        }
        let mut sum = 0.0;
        for i in 0..s.len() {
            let p = sigmoid(self.logit_of(s.features_of(i), f64::from(s.share[i])));
            sum += log_loss(p, f64::from(s.target[i]));
        }
        sum / s.len() as f64
    }

    /// The weights of a weights file, as a starting point.
    #[must_use]
    pub fn from_weights(weights: &TrainedWeights) -> Model {
        let one = f64::from(WEIGHT_ONE);
        Model {
            w: weights
                .weights()
                .iter()
                .map(|p| [f64::from(p[0]) / one, f64::from(p[1]) / one])
                .collect(),
        }
    }

    /// The weights rounded to the file's integers (saturating).
    ///
    /// # Errors
    /// Never in practice: the model has one pair per feature.
    pub fn quantize(&self, source: &str) -> Result<TrainedWeights, WeightsError> {
        let q = |x: f64| (x * f64::from(WEIGHT_ONE)).round().clamp(-32767.0, 32767.0) as i16;
        let w = self.w.iter().map(|p| [q(p[0]), q(p[1])]).collect();
        TrainedWeights::new(source, w)
    }
}

/// Mean log-loss of the integer evaluation of `weights` over `records` (as the engine sees them).
#[must_use]
pub fn quantized_loss(weights: &TrainedWeights, records: &[Record]) -> f64 {
    evaluation_loss(records, |pos| weights.evaluate(pos))
}

/// Mean log-loss of an integer evaluation (in hundredths of a logit; `None` skips the
/// position) over `records`, against their labels.
pub fn evaluation_loss(records: &[Record], evaluate: impl Fn(&Position) -> Option<i32>) -> f64 {
    let mut sum = 0.0;
    let mut n = 0usize;
    for r in records {
        let Some(e) = evaluate(&r.position) else {
            continue;
        };
        let p = sigmoid(f64::from(e) / f64::from(trained::EVAL_ONE));
        sum += log_loss(p, f64::from(target(r)));
        n += 1;
    }
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// From 1.
    pub epoch: u32,
    /// Mean log-loss over the training positions during the epoch.
    pub train_loss: f64,
    /// Mean log-loss over the held-out positions after the epoch.
    pub held_out_loss: f64,
}

/// Adam for the tables: moments per weight, and the batch's gradient; lazy: only the features
/// seen in a batch move, in the order first met (a fixed order for a fixed shuffle).
pub(crate) struct LazyAdam {
    m: Vec<[f64; PHASES]>,
    v: Vec<[f64; PHASES]>,
    /// Steps applied to each feature.
    steps: Vec<u32>,
    grad: Vec<[f64; PHASES]>,
    touched: Vec<u16>,
    seen: Vec<bool>,
}

impl LazyAdam {
    pub(crate) fn new() -> LazyAdam {
        LazyAdam {
            m: vec![[0.0; PHASES]; FEATURES],
            v: vec![[0.0; PHASES]; FEATURES],
            steps: vec![0; FEATURES],
            grad: vec![[0.0f64; PHASES]; FEATURES],
            touched: Vec::new(),
            seen: vec![false; FEATURES],
        }
    }

    /// Adds a sample's gradient: `g`, the loss's derivative by the logit, spread over the
    /// phases by `share`.
    pub(crate) fn add_gradient(&mut self, features: &[u16], share: f64, g: f64) {
        for &x in features {
            let x = usize::from(x);
            self.grad[x][0] += g * share;
            self.grad[x][1] += g * (1.0 - share);
            if !self.seen[x] {
                self.seen[x] = true;
                self.touched.push(x as u16);
            }
        }
    }

    /// Applies the batch's gradient to `model` at step size `rate`, with L2 penalty `l2`.
    pub(crate) fn step(&mut self, model: &mut Model, rate: f64, l2: f64) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        const EPS: f64 = 1e-8;
        for &x in &self.touched {
            let x = usize::from(x);
            self.seen[x] = false;
            self.steps[x] += 1;
            let t = self.steps[x] as i32;
            let (c1, c2) = (1.0 - B1.powi(t), 1.0 - B2.powi(t));
            #[allow(clippy::needless_range_loop)] // five arrays indexed alike
            for p in 0..PHASES {
                let g = self.grad[x][p] + l2 * model.w[x][p];
                self.m[x][p] = B1 * self.m[x][p] + (1.0 - B1) * g;
                self.v[x][p] = B2 * self.v[x][p] + (1.0 - B2) * g * g;
                let step = rate * (self.m[x][p] / c1) / ((self.v[x][p] / c2).sqrt() + EPS);
                model.w[x][p] -= step;
                self.grad[x][p] = 0.0;
            }
        }
        self.touched.clear();
    }
}

/// Fits a model to `train`, calling `report` after each epoch with the held-out loss.
pub fn fit(
    train: &Samples,
    held: &Samples,
    config: &TrainConfig,
    report: &mut dyn FnMut(&EpochReport),
) -> Model {
    fit_from(Model::zero(), train, held, config, report)
}

/// [`fit`] from `model`'s weights rather than zero.
pub fn fit_from(
    mut model: Model,
    train: &Samples,
    held: &Samples,
    config: &TrainConfig,
    report: &mut dyn FnMut(&EpochReport),
) -> Model {
    let mut adam = LazyAdam::new();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rate = config.learning_rate;
    let batch = config.batch.max(1);
    for epoch in 1..=config.epochs {
        let mut rng = SplitMix64::new(config.seed ^ u64::from(epoch).wrapping_mul(0x9E37));
        for i in (1..order.len()).rev() {
            let j = rng.below(i + 1);
            order.swap(i, j);
        }
        let mut total = 0.0;
        for chunk in order.chunks(batch) {
            for &i in chunk {
                let i = i as usize;
                let f = train.features_of(i);
                let share = f64::from(train.share[i]);
                let p = sigmoid(model.logit_of(f, share));
                let t = f64::from(train.target[i]);
                total += log_loss(p, t);
                let g = (p - t) / chunk.len() as f64;
                adam.add_gradient(f, share, g);
            }
            adam.step(&mut model, rate, config.l2);
        }
        rate *= config.decay;
        report(&EpochReport {
            epoch,
            train_loss: if train.is_empty() {
                0.0
            } else {
                total / train.len() as f64
            },
            held_out_loss: model.loss(held),
        });
    }
    model
}

/// Mean log-loss of always predicting the training targets' mean (what the features must beat).
#[must_use]
pub fn constant_loss(train: &Samples, held: &Samples) -> f64 {
    if train.is_empty() || held.is_empty() {
        return 0.0;
    }
    let mean = train.target.iter().map(|&t| f64::from(t)).sum::<f64>() / train.len() as f64;
    held.target
        .iter()
        .map(|&t| log_loss(mean, f64::from(t)))
        .sum::<f64>()
        / held.len() as f64
}

/// A position's evaluation by a model in training, in logits (for tests).
#[must_use]
pub fn model_logit(model: &Model, pos: &Position) -> Option<f64> {
    let (view, f) = trained::features(pos)?;
    Some(model.logit_of(&f, f64::from(view.opening_share())))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::bitboard::Bitboard;
    use crate::rules::piece::Color;
    use crate::training::dataset::{self, Label, Record};

    /// The committed tiny data set: 8 self-play games (`checkers selfplay --games 8
    /// --chunk-games 8 --seed 5 --player engine:nodes=500,eval=hand --egdb-pieces 5`).
    const TINY: &[u8] = include_bytes!("../../tests/data/training/tiny-selfplay.ckd");

    #[test]
    fn the_tiny_pipeline_gives_the_committed_weights() {
        let (_, records) = dataset::decode_chunk(std::path::Path::new("tiny"), TINY).unwrap();
        assert_eq!(records.len(), 810);
        let config = TrainConfig {
            epochs: 3,
            batch: 64,
            score_weight: 0.5,
            score_scale: 45.0,
            ..TrainConfig::default()
        };
        let (train, held) = split(&records, &config);
        let mut losses = Vec::new();
        let model = fit(&train, &held, &config, &mut |r| losses.push(r.train_loss));
        assert!(losses[2] < losses[0], "{losses:?}");
        let bytes = model.quantize("tiny").unwrap().to_bytes();
        // Bit-identical weights from the same data, settings and seed. (The checksum of the
        // weights and header, as the file's last 4 bytes store it; a CRC over the whole file,
        // trailer included, is the same constant for every file.)
        let crc = crc32fast::hash(&bytes[..bytes.len() - 4]);
        assert_eq!(crc, TINY_WEIGHTS_CRC, "{crc:#010x}");
    }

    /// CRC-32 of the weights file the tiny pipeline writes.
    const TINY_WEIGHTS_CRC: u32 = 0xcea6_0d5d;

    #[test]
    fn a_synthetic_signal_is_learnt() {
        // Red to move wins exactly when it has a man on the marked cell; the rest is noise.
        let marked = dataset::dark_cell(17);
        let mut rng = SplitMix64::new(3);
        let mut records = Vec::new();
        for _ in 0..6000 {
            let (mut red, mut black) = (0u64, 0u64);
            for k in 4..32 {
                let cell = dataset::dark_cell(k);
                match rng.below(4) {
                    0 => red |= 1 << cell,
                    1 if k < 28 => black |= 1 << cell,
                    _ => {}
                }
            }
            black &= !(1 << marked);
            let pos =
                Position::new(Bitboard(red), Bitboard(black), Bitboard(0), Color::Red).unwrap();
            let label = if red >> marked & 1 == 1 {
                Label::Win
            } else {
                Label::Loss
            };
            records.push(Record {
                position: pos,
                label,
                exact: false,
                ply: 0,
                score: 0,
            });
        }
        let config = TrainConfig {
            epochs: 6,
            batch: 64,
            learning_rate: 0.05,
            score_weight: 0.0,
            ..TrainConfig::default()
        };
        let (train, held) = split(&records, &config);
        let model = fit(&train, &held, &config, &mut |_| {});
        assert!(
            model.loss(&held) < 0.5 * constant_loss(&train, &held),
            "{}",
            model.loss(&held)
        );
        // The same board with and without the man on the marked cell.
        let with = Position::new(
            Bitboard(1 << marked | 1 << dataset::dark_cell(30)),
            Bitboard(1 << dataset::dark_cell(5)),
            Bitboard(0),
            Color::Red,
        )
        .unwrap();
        let without = Position::new(
            Bitboard(1 << dataset::dark_cell(16) | 1 << dataset::dark_cell(30)),
            Bitboard(1 << dataset::dark_cell(5)),
            Bitboard(0),
            Color::Red,
        )
        .unwrap();
        let gap = model_logit(&model, &with).unwrap() - model_logit(&model, &without).unwrap();
        assert!(gap > 2.0, "{gap}");
    }

    #[test]
    fn exp_is_accurate() {
        for x in [-30.0, -3.3, -1.0, 0.0, 0.5, 1.0, 2.7, 20.0] {
            let (a, b) = (exp(x), f64::exp(x));
            assert!((a - b).abs() <= 1e-14 * b, "{x}: {a} {b}");
        }
    }
}
