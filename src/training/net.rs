//! Fitting the network evaluation ([`crate::search::eval::net`]): the trained tables and the
//! network over the pieces, together, by mini-batch Adam on the log-loss, as [`super::train`]
//! fits the tables alone (the same samples, split, targets and settings).
//!
//! The network trains in floating point with the integer network's shape (clipped ReLUs at 1.0)
//! and is rounded to the file's integers at the end. Reproducible as the tables' training is:
//! one thread, seeded initial weights and shuffles, sums in a fixed order, the exponential by a
//! fixed polynomial.

use crate::play::player::SplitMix64;
use crate::rules::position::Position;
use crate::search::eval::net::{self, Layers, NetWeights, H1, H2, INPUTS, ONE, W_ONE};
use crate::search::eval::trained::{self, TrainedWeights, WeightsError, FEATURES, PHASES};

use super::dataset::Record;
use super::train::{sigmoid, EpochReport, Model, Samples, TrainConfig};

/// The network being fitted, in logits and activations of 1.0.
#[derive(Clone)]
struct Layer {
    w1: Vec<[f64; H1]>,
    b1: [f64; H1],
    w2: Vec<[f64; H1]>,
    b2: [f64; H2],
    w3: [f64; H2],
    b3: f64,
}

impl Layer {
    fn zero() -> Layer {
        Layer {
            w1: vec![[0.0; H1]; INPUTS],
            b1: [0.0; H1],
            w2: vec![[0.0; H1]; H2],
            b2: [0.0; H2],
            w3: [0.0; H2],
            b3: 0.0,
        }
    }

    /// Every parameter, in a fixed order (for the optimiser).
    fn params_mut(&mut self) -> impl Iterator<Item = &mut f64> {
        self.w1
            .iter_mut()
            .flat_map(|r| r.iter_mut())
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut().flat_map(|r| r.iter_mut()))
            .chain(self.b2.iter_mut())
            .chain(self.w3.iter_mut())
            .chain(std::iter::once(&mut self.b3))
    }
}

/// Number of network parameters.
const PARAMS: usize = INPUTS * H1 + H1 + H2 * H1 + H2 + H2 + 1;

/// The tables and the network being fitted.
pub struct NetModel {
    tables: Model,
    layer: Layer,
}

/// One sample's intermediate values.
struct Forward {
    a1: [f64; H1],
    h1: [f64; H1],
    a2: [f64; H2],
    h2: [f64; H2],
    logit: f64,
}

fn uniform(rng: &mut SplitMix64, spread: f64) -> f64 {
    ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) * spread
}

impl NetModel {
    /// Tables at zero (or at `init`'s weights), the network at seeded small weights (its output
    /// starts near 0).
    #[must_use]
    pub fn new(seed: u64, init: Option<&TrainedWeights>) -> NetModel {
        let mut rng = SplitMix64::new(seed ^ 0x4E45_5400);
        let mut layer = Layer::zero();
        for row in &mut layer.w1 {
            for w in row.iter_mut() {
                *w = uniform(&mut rng, 0.15);
            }
        }
        layer.b1 = [0.5; H1];
        for row in &mut layer.w2 {
            for w in row.iter_mut() {
                *w = uniform(&mut rng, 0.25);
            }
        }
        layer.b2 = [0.5; H2];
        for w in &mut layer.w3 {
            *w = uniform(&mut rng, 0.05);
        }
        NetModel {
            tables: init.map_or_else(Model::zero, Model::from_weights),
            layer,
        }
    }

    fn forward(&self, features: &[u16], share: f64) -> Forward {
        let l = &self.layer;
        let mut a1 = l.b1;
        for &f in features {
            if let Some(row) = l.w1.get(usize::from(f)) {
                for (a, w) in a1.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
        let mut h1 = [0.0; H1];
        for (h, a) in h1.iter_mut().zip(&a1) {
            *h = a.clamp(0.0, 1.0);
        }
        let mut a2 = l.b2;
        for (a, row) in a2.iter_mut().zip(&l.w2) {
            *a += row.iter().zip(&h1).map(|(w, h)| w * h).sum::<f64>();
        }
        let mut h2 = [0.0; H2];
        for (h, a) in h2.iter_mut().zip(&a2) {
            *h = a.clamp(0.0, 1.0);
        }
        let out = l.b3 + l.w3.iter().zip(&h2).map(|(w, h)| w * h).sum::<f64>();
        Forward {
            a1,
            h1,
            a2,
            h2,
            logit: self.tables.logit_of(features, share) + out,
        }
    }

    /// Mean log-loss over `s`.
    #[must_use]
    pub fn loss(&self, s: &Samples) -> f64 {
        if s.is_empty() {
            return 0.0;
        }
        let mut sum = 0.0;
        for i in 0..s.len() {
            let p = sigmoid(self.forward(s.features_of(i), s.share(i)).logit);
            sum += super::train::log_loss(p, s.target(i));
        }
        sum / s.len() as f64
    }

    /// The weights rounded to the file's integers (saturating).
    ///
    /// # Errors
    /// Never in practice: the tables have one pair per feature.
    pub fn quantize(&self, source: &str) -> Result<NetWeights, WeightsError> {
        let tables = self.tables.quantize(source)?;
        let q16 = |x: f64, unit: f64| (x * unit).round().clamp(-32767.0, 32767.0) as i16;
        let q32 = |x: f64, unit: f64| (x * unit).round().clamp(-1e9, 1e9) as i32;
        let (a, w) = (f64::from(ONE), f64::from(W_ONE));
        let l = &self.layer;
        let mut out = Layers::zero();
        for (o, r) in out.w1.iter_mut().zip(&l.w1) {
            for (o, &x) in o.iter_mut().zip(r) {
                *o = q16(x, a);
            }
        }
        for (o, &x) in out.b1.iter_mut().zip(&l.b1) {
            *o = q16(x, a);
        }
        for (o, r) in out.w2.iter_mut().zip(&l.w2) {
            for (o, &x) in o.iter_mut().zip(r) {
                *o = q16(x, w);
            }
        }
        for (o, &x) in out.b2.iter_mut().zip(&l.b2) {
            *o = q32(x, a * w);
        }
        for (o, &x) in out.w3.iter_mut().zip(&l.w3) {
            *o = q16(x, w);
        }
        out.b3 = q32(l.b3, a * w);
        Ok(NetWeights::new(source, tables, out))
    }
}

/// Adam's moments for the network (every parameter moves every step).
struct DenseAdam {
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
}

/// Fits the tables (from zero, or from `init`) and the network to `train`, calling `report`
/// after each epoch with the held-out loss. The tables learn at `config.learning_rate`, the
/// network at `net_rate`.
pub fn fit(
    train: &Samples,
    held: &Samples,
    config: &TrainConfig,
    net_rate: f64,
    init: Option<&TrainedWeights>,
    report: &mut dyn FnMut(&EpochReport),
) -> NetModel {
    const B1: f64 = 0.9;
    const B2: f64 = 0.999;
    const EPS: f64 = 1e-8;
    let mut model = NetModel::new(config.seed, init);
    let mut tables = super::train::LazyAdam::new();
    let mut adam = DenseAdam {
        m: vec![0.0; PARAMS],
        v: vec![0.0; PARAMS],
        steps: 0,
    };
    let mut grad = Layer::zero();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let (mut rate, mut nrate) = (config.learning_rate, net_rate);
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
                let share = train.share(i);
                let fw = model.forward(f, share);
                let p = sigmoid(fw.logit);
                let t = train.target(i);
                total += super::train::log_loss(p, t);
                let g = (p - t) / chunk.len() as f64;
                tables.add_gradient(f, share, g);
                backward(&model.layer, &fw, f, g, &mut grad);
            }
            tables.step(&mut model.tables, rate, config.l2);
            adam.steps += 1;
            let (c1, c2) = (1.0 - B1.powi(adam.steps), 1.0 - B2.powi(adam.steps));
            let params = model.layer.params_mut();
            let grads = grad.params_mut();
            for (((w, g), m), v) in params.zip(grads).zip(&mut adam.m).zip(&mut adam.v) {
                *m = B1 * *m + (1.0 - B1) * *g;
                *v = B2 * *v + (1.0 - B2) * *g * *g;
                *w -= nrate * (*m / c1) / ((*v / c2).sqrt() + EPS);
                *g = 0.0;
            }
        }
        rate *= config.decay;
        nrate *= config.decay;
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

/// Adds one sample's gradient (`g`: the loss's derivative by the logit) to `grad`.
#[allow(clippy::needless_range_loop)] // layer 2's arrays indexed alike
fn backward(l: &Layer, fw: &Forward, features: &[u16], g: f64, grad: &mut Layer) {
    grad.b3 += g;
    let mut d2 = [0.0; H2];
    for k in 0..H2 {
        grad.w3[k] += g * fw.h2[k];
        if fw.a2[k] > 0.0 && fw.a2[k] < 1.0 {
            d2[k] = g * l.w3[k];
        }
    }
    let mut d1 = [0.0; H1];
    for k in 0..H2 {
        if d2[k] == 0.0 {
            continue;
        }
        grad.b2[k] += d2[k];
        for ((gw, d), (&h, &w)) in grad.w2[k]
            .iter_mut()
            .zip(d1.iter_mut())
            .zip(fw.h1.iter().zip(&l.w2[k]))
        {
            *gw += d2[k] * h;
            *d += d2[k] * w;
        }
    }
    for (d, &a) in d1.iter_mut().zip(&fw.a1) {
        if !(a > 0.0 && a < 1.0) {
            *d = 0.0;
        }
    }
    for (b, d) in grad.b1.iter_mut().zip(&d1) {
        *b += d;
    }
    for &f in features {
        if let Some(row) = grad.w1.get_mut(usize::from(f)) {
            for (w, d) in row.iter_mut().zip(&d1) {
                *w += d;
            }
        }
    }
}

/// Mean log-loss of the integer evaluation of `weights` over `records` (as the engine sees them).
#[must_use]
pub fn quantized_loss(weights: &NetWeights, records: &[Record]) -> f64 {
    super::train::evaluation_loss(records, |pos| weights.evaluate(pos))
}

/// A position's evaluation by a model in training, in logits (for tests).
#[must_use]
pub fn model_logit(model: &NetModel, pos: &Position) -> Option<f64> {
    let (view, f) = trained::features(pos)?;
    Some(model.forward(&f, f64::from(view.opening_share())).logit)
}

// The network's inputs are the tables' first features: a sample's feature list serves both.
const _: () = assert!(INPUTS == trained::PSQ_FEATURES && INPUTS <= FEATURES && PHASES == 2);
const _: () = assert!(net::H1 == H1);

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::bitboard::Bitboard;
    use crate::rules::piece::Color;
    use crate::training::dataset::{self, Label};
    use crate::training::train::{constant_loss, split};

    const TINY: &[u8] = include_bytes!("../../tests/data/training/tiny-selfplay.ckd");

    #[test]
    fn the_tiny_pipeline_gives_the_committed_network() {
        let (_, records) = dataset::decode_chunk(std::path::Path::new("tiny"), TINY).unwrap();
        let config = TrainConfig {
            epochs: 3,
            batch: 64,
            score_weight: 0.5,
            score_scale: 45.0,
            ..TrainConfig::default()
        };
        let (train, held) = split(&records, &config);
        let mut losses = Vec::new();
        let model = fit(&train, &held, &config, 0.002, None, &mut |r| {
            losses.push(r.train_loss);
        });
        assert!(losses[2] < losses[0], "{losses:?}");
        let bytes = model.quantize("tiny").unwrap().to_bytes();
        let crc = crc32fast::hash(&bytes[..bytes.len() - 4]);
        assert_eq!(crc, TINY_NET_CRC, "{crc:#010x}");
    }

    /// CRC-32 of the network weights file the tiny pipeline writes (header and weights).
    const TINY_NET_CRC: u32 = 0x301e_41c4;

    #[test]
    fn a_signal_beyond_the_tables_is_learnt() {
        // Red to move wins exactly when one, and only one, of two far-apart cells holds a red
        // man: no 4x4 region sees both cells and no sum of single-cell weights gives an
        // exclusive or, so only the network can learn it.
        let (a, b) = (dataset::dark_cell(5), dataset::dark_cell(26));
        let board = |rng: &mut SplitMix64| {
            let (mut red, mut black) = (0u64, 0u64);
            for k in 4..32 {
                let cell = dataset::dark_cell(k);
                match rng.below(4) {
                    0 => red |= 1 << cell,
                    1 if k < 28 => black |= 1 << cell,
                    _ => {}
                }
            }
            // Each of the two cells holds a red man half of the time.
            let red =
                red & !(1 << a | 1 << b) | (rng.below(2) as u64) << a | (rng.below(2) as u64) << b;
            (red, black & !(1 << a | 1 << b))
        };
        let position =
            |red, black| Position::new(Bitboard(red), Bitboard(black), Bitboard(0), Color::Red);
        let mut rng = SplitMix64::new(3);
        let mut records = Vec::new();
        for _ in 0..8000 {
            let (red, black) = board(&mut rng);
            let label = if (red >> a & 1) != (red >> b & 1) {
                Label::Win
            } else {
                Label::Loss
            };
            records.push(Record {
                position: position(red, black).unwrap(),
                label,
                exact: false,
                ply: 0,
                score: 0,
            });
        }
        let config = TrainConfig {
            epochs: 12,
            batch: 64,
            score_weight: 0.0,
            ..TrainConfig::default()
        };
        let (train, held) = split(&records, &config);
        let model = fit(&train, &held, &config, 0.005, None, &mut |_| {});
        let constant = constant_loss(&train, &held);
        assert!(model.loss(&held) < 0.5 * constant, "{}", model.loss(&held));
        // The integer network tells the four cases apart on fresh boards.
        let weights = model.quantize("t").unwrap();
        let mut right = 0;
        for _ in 0..100 {
            let (red, black) = board(&mut rng);
            let red = red & !(1 << a | 1 << b);
            for (with, wins) in [
                (0, false),
                (1 << a, true),
                (1 << b, true),
                (1 << a | 1 << b, false),
            ] {
                let e = weights
                    .evaluate(&position(red | with, black).unwrap())
                    .unwrap();
                right += usize::from((e > 0) == wins);
            }
        }
        assert!(right >= 360, "{right} of 400 right");
    }
}
