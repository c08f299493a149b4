//! The network evaluation: the trained tables ([`super::trained`]) plus a small network over the
//! pieces, both fitted together to self-play positions (`checkers train --model net`), read
//! with integer arithmetic and no allocation.
//!
//! The tables see material and 4x4 regions; the network sees the whole board at once. Its
//! inputs are the 128 piece-square features of the tables (own man, own king, enemy man, enemy
//! king on each of the 32 dark cells, seen from the side to move), at most 24 of them active:
//!
//! - layer 1: [`H1`] sums, each a bias plus the weights of the active inputs (16-bit, added
//!   with saturation), clipped to 0..=[`ONE`] (a clipped ReLU; [`ONE`] stands for 1.0);
//! - layer 2: [`H2`] dot products of layer 1 with 16-bit weights (in 1/[`W_ONE`]) into 32 bits,
//!   plus a bias, divided by [`W_ONE`] (an arithmetic shift) and clipped to 0..=[`ONE`];
//! - the output: a dot product of layer 2 with 16-bit weights plus a bias, in units of
//!   1/([`ONE`] × [`W_ONE`]) of a logit, added to the tables' logit.
//!
//! The evaluation is the sum, in hundredths of a logit, as the tables' is.
//!
//! Only the search's horizon evaluates (quiet leaves), so the first layer is summed afresh for
//! each position: at most 24 rows of [`H1`] weights. The loops work on fixed-size blocks of
//! [`LANES`] 16-bit numbers, which the compiler turns into vector instructions (SSE2 on every
//! x86-64, NEON on aarch64) without `unsafe`; [`NetWeights::evaluate_scalar`] computes the same
//! numbers one at a time, and a test checks that the two agree.
//!
//! # The weights file
//!
//! All integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `CKNN` |
//! | 2 | format version (1) |
//! | 2 | inputs (128) |
//! | 2 | layer 1 size ([`H1`]) |
//! | 2 | layer 2 size ([`H2`]) |
//! | 4 | the tables' features (59,363; feature set 1, two phases) |
//! | 4 × features | the tables: per feature one i16 per phase, as in a `CKEV` file |
//! | 2 × inputs × H1 | layer 1 weights, input by input (i16) |
//! | 2 × H1 | layer 1 biases (i16) |
//! | 2 × H2 × H1 | layer 2 weights, output by output (i16) |
//! | 4 × H2 | layer 2 biases (i32) |
//! | 2 × H2 | output weights (i16) |
//! | 4 | output bias (i32) |
//! | 4 | CRC-32 of everything before it |
//!
//! A file whose magic, version, shape or checksum does not match is refused with
//! [`WeightsError`], naming the file and what is wrong.

use std::sync::OnceLock;

use crate::rules::position::Position;

use super::trained::{self, TrainedWeights, View, WeightsError, FEATURES, PHASES};

/// The first bytes of a network weights file.
pub const MAGIC: [u8; 4] = *b"CKNN";
/// The format version written and read.
pub const VERSION: u16 = 1;
/// Network inputs: the tables' piece-square features.
pub const INPUTS: usize = 128;
/// Layer 1 size.
pub const H1: usize = 64;
/// Layer 2 size.
pub const H2: usize = 16;
/// An activation of 1.0.
pub const ONE: i32 = 127;
/// A weight of 1.0 in layers 2 and 3 (a power of two: layer 2 divides by a shift).
pub const W_ONE: i32 = 256;
const W_SHIFT: u32 = 8;
/// 16-bit numbers per block of the vector loops.
pub const LANES: usize = 16;
/// Output units per logit.
pub const OUT_ONE: i64 = (ONE * W_ONE) as i64;
/// Bytes of the header.
const HEADER_BYTES: usize = 4 + 2 + 2 + 2 + 2 + 4;
/// Bytes of the whole file.
pub const FILE_BYTES: usize = HEADER_BYTES
    + FEATURES * PHASES * 2
    + INPUTS * H1 * 2
    + H1 * 2
    + H2 * H1 * 2
    + H2 * 4
    + H2 * 2
    + 4
    + 4;

const _: () = assert!(H1 % LANES == 0 && 1 << W_SHIFT == W_ONE && INPUTS == trained::PSQ_FEATURES);

/// The network's integer weights.
#[derive(Clone, PartialEq, Eq)]
pub struct Layers {
    /// Layer 1, input by input.
    pub w1: Vec<[i16; H1]>,
    /// Layer 1 biases.
    pub b1: [i16; H1],
    /// Layer 2, output by output.
    pub w2: Vec<[i16; H1]>,
    /// Layer 2 biases.
    pub b2: [i32; H2],
    /// Output weights.
    pub w3: [i16; H2],
    /// Output bias.
    pub b3: i32,
}

impl Layers {
    /// A network that adds nothing (every weight 0).
    #[must_use]
    pub fn zero() -> Layers {
        Layers {
            w1: vec![[0; H1]; INPUTS],
            b1: [0; H1],
            w2: vec![[0; H1]; H2],
            b2: [0; H2],
            w3: [0; H2],
            b3: 0,
        }
    }
}

/// A set of network weights: the tables and the network.
#[derive(Clone, PartialEq, Eq)]
pub struct NetWeights {
    tables: TrainedWeights,
    layers: Layers,
    source: String,
}

impl std::fmt::Debug for NetWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NetWeights({})", self.source)
    }
}

/// The shipped network weights (`data/weights/net.cknn`), built into the binary.
pub const EMBEDDED_BYTES: &[u8] = include_bytes!("../../../data/weights/net.cknn");

/// The shipped network weights, read once.
///
/// # Errors
/// [`WeightsError`] if the embedded file is damaged (a test makes sure it is not).
pub fn embedded() -> Result<&'static NetWeights, WeightsError> {
    static CELL: OnceLock<Result<NetWeights, WeightsError>> = OnceLock::new();
    CELL.get_or_init(|| NetWeights::from_bytes("embedded", EMBEDDED_BYTES))
        .as_ref()
        .map_err(Clone::clone)
}

/// Reads little-endian integers from a byte slice, front to back.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        // The caller checked the length first; a short read gives zeros rather than a panic.
        if let Some(s) = self.bytes.get(self.at..self.at + N) {
            out.copy_from_slice(s);
        }
        self.at += N;
        out
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
}

impl NetWeights {
    /// Weights from their parts, named `source`.
    #[must_use]
    pub fn new(source: &str, tables: TrainedWeights, layers: Layers) -> NetWeights {
        NetWeights {
            tables,
            layers,
            source: source.to_owned(),
        }
    }

    /// Where the weights came from (`embedded` or a file name).
    #[must_use]
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The tables.
    #[must_use]
    pub fn tables(&self) -> &TrainedWeights {
        &self.tables
    }

    /// The network.
    #[must_use]
    pub fn layers(&self) -> &Layers {
        &self.layers
    }

    /// Reads weights from the bytes of a network weights file; `source` names it in errors.
    ///
    /// # Errors
    /// [`WeightsError`] naming what does not match: magic, version, shape, length, checksum.
    pub fn from_bytes(source: &str, bytes: &[u8]) -> Result<NetWeights, WeightsError> {
        let bad = |reason: String| WeightsError {
            source_name: source.to_owned(),
            reason,
        };
        if bytes.len() < HEADER_BYTES + 4 {
            return Err(bad(format!(
                "{} bytes: too short for a network weights file",
                bytes.len()
            )));
        }
        if bytes[0..4] != MAGIC {
            return Err(bad(
                "not a network weights file of this program (no `CKNN` magic)".to_owned(),
            ));
        }
        let mut r = Reader { bytes, at: 4 };
        let version = r.u16();
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}; this program reads version {VERSION}"
            )));
        }
        let (inputs, h1, h2) = (r.u16(), r.u16(), r.u16());
        if (usize::from(inputs), usize::from(h1), usize::from(h2)) != (INPUTS, H1, H2) {
            return Err(bad(format!(
                "a {inputs}-{h1}-{h2} network; this program reads {INPUTS}-{H1}-{H2}"
            )));
        }
        let features = r.u32() as usize;
        if features != FEATURES {
            return Err(bad(format!(
                "{features} table features; feature set {} has {FEATURES}",
                trained::FEATURE_SET
            )));
        }
        if bytes.len() != FILE_BYTES {
            return Err(bad(format!(
                "{} bytes; a file of this shape has {FILE_BYTES}: truncated or damaged",
                bytes.len()
            )));
        }
        let body = bytes.len() - 4;
        let stored = u32::from_le_bytes([
            bytes[body],
            bytes[body + 1],
            bytes[body + 2],
            bytes[body + 3],
        ]);
        if crc32fast::hash(&bytes[..body]) != stored {
            return Err(bad("checksum mismatch: the file is damaged".to_owned()));
        }
        let mut tables = Vec::with_capacity(FEATURES);
        for _ in 0..FEATURES {
            let mut pair = [0i16; PHASES];
            for w in &mut pair {
                *w = r.i16();
            }
            tables.push(pair);
        }
        let tables = TrainedWeights::new(source, tables)?;
        let mut layers = Layers::zero();
        for row in &mut layers.w1 {
            for w in row.iter_mut() {
                *w = r.i16();
            }
        }
        for b in &mut layers.b1 {
            *b = r.i16();
        }
        for row in &mut layers.w2 {
            for w in row.iter_mut() {
                *w = r.i16();
            }
        }
        for b in &mut layers.b2 {
            *b = r.i32();
        }
        for w in &mut layers.w3 {
            *w = r.i16();
        }
        layers.b3 = r.i32();
        Ok(NetWeights::new(source, tables, layers))
    }

    /// Reads a network weights file.
    ///
    /// # Errors
    /// [`WeightsError`] when it cannot be read or is refused.
    pub fn from_file(path: &std::path::Path) -> Result<NetWeights, WeightsError> {
        let (name, bytes) = trained::read_file(path)?;
        NetWeights::from_bytes(&name, &bytes)
    }

    /// The bytes of the weights file.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for n in [INPUTS, H1, H2] {
            out.extend_from_slice(&(n as u16).to_le_bytes());
        }
        out.extend_from_slice(&(FEATURES as u32).to_le_bytes());
        for pair in self.tables.weights() {
            for w in pair {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        let l = &self.layers;
        for row in &l.w1 {
            for w in row {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &l.b1 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for row in &l.w2 {
            for w in row {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &l.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for w in &l.w3 {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&l.b3.to_le_bytes());
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// The evaluation of `pos` for the side to move, in hundredths of a logit; `None` when a
    /// piece stands on a light cell (which the tables do not cover).
    #[must_use]
    pub fn evaluate(&self, pos: &Position) -> Option<i32> {
        let view = View::of(pos)?;
        Some(self.combine(&view, self.network(&view)))
    }

    /// The same number as [`NetWeights::evaluate`], computed one weight at a time (the
    /// reference the vector loops are tested against).
    #[must_use]
    pub fn evaluate_scalar(&self, pos: &Position) -> Option<i32> {
        let view = View::of(pos)?;
        Some(self.combine(&view, self.network_scalar(&view)))
    }

    /// The tables' blended sum and the network's output, in hundredths of a logit.
    fn combine(&self, view: &View, out: i32) -> i32 {
        let mixed = self.tables.mixed_sum(view);
        let unit = i64::from(trained::WEIGHT_ONE) * i64::from(trained::FULL_BOARD);
        let total = mixed * OUT_ONE + i64::from(out) * unit;
        let scaled = total * i64::from(trained::EVAL_ONE) / (unit * OUT_ONE);
        scaled.clamp(-10_000, 10_000) as i32
    }

    /// The network's output for the view, in 1/[`OUT_ONE`] logits (block by block).
    fn network(&self, view: &View) -> i32 {
        let l = &self.layers;
        // The active inputs (one per piece: at most 32), then layer 1 a block of sums at a
        // time, each block summed over every input in the same order as the scalar path.
        let mut inputs = [0usize; 32];
        let mut n = 0;
        for_each_input(view, |f| {
            if let Some(slot) = inputs.get_mut(n) {
                *slot = f;
                n += 1;
            }
        });
        let inputs = &inputs[..n];
        let mut h1 = [0i16; H1];
        for (block, (h, b)) in h1
            .chunks_exact_mut(LANES)
            .zip(l.b1.chunks_exact(LANES))
            .enumerate()
        {
            let mut acc = [0i16; LANES];
            acc.copy_from_slice(b);
            for &f in inputs {
                if let Some(row) = l.w1.get(f) {
                    add_block(&mut acc, &row[block * LANES..(block + 1) * LANES]);
                }
            }
            for (h, &a) in h.iter_mut().zip(&acc) {
                *h = a.clamp(0, ONE as i16);
            }
        }
        let mut h2 = [0i32; H2];
        for ((h, row), &b) in h2.iter_mut().zip(&l.w2).zip(&l.b2) {
            // At most H1 × 127 × 32,767 in magnitude: no overflow before the bias.
            *h = (b.saturating_add(dot(&h1, row)) >> W_SHIFT).clamp(0, ONE);
        }
        l.b3.saturating_add(
            h2.iter()
                .zip(&l.w3)
                .map(|(&h, &w)| h * i32::from(w))
                .sum::<i32>(),
        )
    }

    /// [`NetWeights::network`] one number at a time.
    #[allow(clippy::needless_range_loop)] // the reference: plain indices, nothing clever
    fn network_scalar(&self, view: &View) -> i32 {
        let l = &self.layers;
        let mut acc = [0i32; H1];
        for j in 0..H1 {
            acc[j] = i32::from(l.b1[j]);
        }
        for_each_input(view, |f| {
            if f < INPUTS {
                for j in 0..H1 {
                    acc[j] = (acc[j] + i32::from(l.w1[f][j])).clamp(-32768, 32767);
                }
            }
        });
        let mut out = 0i32;
        for k in 0..H2 {
            let mut z = 0i32;
            for j in 0..H1 {
                z += acc[j].clamp(0, ONE) * i32::from(l.w2[k][j]);
            }
            out += (l.b2[k].saturating_add(z) >> W_SHIFT).clamp(0, ONE) * i32::from(l.w3[k]);
        }
        l.b3.saturating_add(out)
    }
}

/// The dot product of two rows of 16-bit numbers in 32 bits, as sums of adjacent pairs (the
/// shape of a multiply-add vector instruction). Not inlined: inlined into the loop over the
/// outputs, the compiler vectorises across outputs with gathers, which is slower.
#[inline(never)]
fn dot(a: &[i16; H1], b: &[i16; H1]) -> i32 {
    let mut sums = [0i32; LANES / 2];
    for (x, w) in a.chunks_exact(LANES).zip(b.chunks_exact(LANES)) {
        for (i, s) in sums.iter_mut().enumerate() {
            *s += i32::from(x[2 * i]) * i32::from(w[2 * i])
                + i32::from(x[2 * i + 1]) * i32::from(w[2 * i + 1]);
        }
    }
    sums.iter().sum()
}

/// Adds a block of weights to a block of sums, saturating at the 16-bit limits.
#[inline]
fn add_block(acc: &mut [i16; LANES], w: &[i16]) {
    let Ok(w) = <&[i16; LANES]>::try_from(w) else {
        return;
    };
    for (a, &w) in acc.iter_mut().zip(w) {
        *a = a.saturating_add(w);
    }
}

/// Calls `f` with every active input of the view (the tables' piece-square features).
#[inline]
pub fn for_each_input(v: &View, f: impl FnMut(usize)) {
    trained::for_each_piece_square(v, f);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::player::SplitMix64;
    use crate::rules::movegen;

    fn random_layers(seed: u64, spread: i32) -> Layers {
        let mut rng = SplitMix64::new(seed);
        let mut r = |n: i32| (rng.below(2 * n as usize + 1) as i32 - n) as i16;
        let mut l = Layers::zero();
        for row in &mut l.w1 {
            for w in row.iter_mut() {
                *w = r(spread);
            }
        }
        for b in &mut l.b1 {
            *b = r(spread);
        }
        for row in &mut l.w2 {
            for w in row.iter_mut() {
                *w = r(200);
            }
        }
        for b in &mut l.b2 {
            *b = i32::from(r(3000));
        }
        for w in &mut l.w3 {
            *w = r(300);
        }
        l.b3 = 17;
        l
    }

    /// Positions from random games.
    fn positions(seed: u64, n: usize) -> Vec<Position> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Position::start();
            for _ in 0..120 {
                let moves = movegen::legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.below(moves.len())]);
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn the_vector_and_scalar_paths_agree() {
        let tables = trained::embedded().unwrap().clone();
        // Wide weights make the first layer saturate and clip often, narrow ones rarely.
        for (seed, spread) in [(1, 40), (2, 3000), (3, 20_000)] {
            let net = NetWeights::new("t", tables.clone(), random_layers(seed, spread));
            for pos in positions(seed, 3000) {
                assert_eq!(net.evaluate(&pos), net.evaluate_scalar(&pos), "{pos:?}");
            }
        }
    }

    #[test]
    fn a_zero_network_is_the_tables() {
        let tables = trained::embedded().unwrap().clone();
        let net = NetWeights::new("t", tables.clone(), Layers::zero());
        for pos in positions(9, 500) {
            assert_eq!(net.evaluate(&pos), tables.evaluate(&pos));
        }
    }

    #[test]
    fn file_round_trips_and_damage_is_refused() {
        let tables = trained::embedded().unwrap().clone();
        let net = NetWeights::new("t", tables, random_layers(4, 100));
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        assert_eq!(
            NetWeights::from_bytes("t", &bytes).unwrap().to_bytes(),
            bytes
        );
        let mut bad = bytes.clone();
        bad[FILE_BYTES - 100] ^= 1;
        let e = NetWeights::from_bytes("n.cknn", &bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("n.cknn") && e.contains("checksum"), "{e}");
        let e = NetWeights::from_bytes("n", &bytes[..1000])
            .unwrap_err()
            .to_string();
        assert!(e.contains("truncated"), "{e}");
        let mut other = bytes.clone();
        other[4] = 7;
        assert!(NetWeights::from_bytes("n", &other)
            .unwrap_err()
            .to_string()
            .contains("version 7"));
        let mut shape = bytes.clone();
        shape[8] = 32;
        assert!(NetWeights::from_bytes("n", &shape)
            .unwrap_err()
            .to_string()
            .contains("128-32-16"));
        assert!(
            NetWeights::from_bytes("n", b"CKEV and more bytes than a header")
                .unwrap_err()
                .to_string()
                .contains("magic")
        );
    }

    #[test]
    fn the_shipped_network_loads_quickly() {
        let w = embedded().unwrap();
        assert!(w.evaluate(&Position::start()).is_some());
        // Loading (parsing and checking) is timed by `docs/training.md`'s figure, not here.
        assert_eq!(w.to_bytes(), EMBEDDED_BYTES);
    }
}
