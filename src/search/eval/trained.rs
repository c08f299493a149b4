//! The trained evaluation: tables of weights fitted to self-play positions by logistic
//! regression (`checkers train`), read with integer arithmetic and no allocation.
//!
//! The position is seen from the side to move: when black is to move the board is turned half
//! a turn and the colours exchanged, so one set of tables serves both sides ("own" men always
//! move up the board). Every feature is an index into one table of weight pairs, one weight per
//! game phase; the two sums are blended by the number of pieces on the board (all of the first
//! at 24 pieces, all of the second at none), as tapered evaluations do. The features:
//!
//! - piece-square: own man, own king, enemy man, enemy king on each of the 32 dark cells (128);
//! - material: own pieces (0-12) by enemy pieces (0-12), so that trading down when ahead can be
//!   learnt (169), and own kings (0-3, 3 meaning 3 or more) by enemy kings (16);
//! - patterns: the board's nine overlapping 4x4 regions (rows and columns 0-3, 2-5, 4-7 of the
//!   file), each region's 8 dark cells read as empty, own piece or enemy piece, a base-3
//!   number indexing a table of 6,561 weights per region (Scan's and Cake's kind of pattern
//!   table), which sees local formations, blocks and holes;
//! - a constant (the value of having the move).
//!
//! The sum is in units of 1/4096 of a logit (the log-odds of the side to move scoring the game);
//! the evaluation returns it as hundredths of a logit, about the hundredths of a man the hand
//! evaluation counts in.
//!
//! # The weights file
//!
//! All integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `CKEV` |
//! | 2 | format version (1) |
//! | 2 | phases (2) |
//! | 4 | feature set (1: the features above) |
//! | 4 | features (59,363) |
//! | 2 × phases × features | weights: for each feature, one signed 16-bit weight per phase |
//! | 4 | CRC-32 of everything before it |
//!
//! A file whose magic, version, shape or checksum does not match is refused with
//! [`WeightsError`], naming the file and what is wrong.

use std::sync::OnceLock;

use thiserror::Error;

use crate::rules::bitboard::Bitboard;
use crate::rules::piece::Color;
use crate::rules::position::Position;

/// The first bytes of a weights file.
pub const MAGIC: [u8; 4] = *b"CKEV";
/// The format version written and read.
pub const VERSION: u16 = 1;
/// Game phases (weights per feature).
pub const PHASES: usize = 2;
/// The feature set this code computes.
pub const FEATURE_SET: u32 = 1;

/// Piece-square features: 4 kinds of piece on 32 cells.
const PSQ: usize = 0;
const PSQ_LEN: usize = 4 * 32;
/// The piece-square features are the first ones, 0 to this number.
pub const PSQ_FEATURES: usize = PSQ + PSQ_LEN;
/// Material: own pieces by enemy pieces.
const MATERIAL: usize = PSQ + PSQ_LEN;
const MATERIAL_LEN: usize = 13 * 13;
/// Kings: own kings by enemy kings (each capped at 3).
const KINGS: usize = MATERIAL + MATERIAL_LEN;
const KINGS_LEN: usize = 16;
/// Pattern tables: 9 regions of 3^8 configurations.
const PATTERNS: usize = KINGS + KINGS_LEN;
/// Configurations of one region.
pub const REGION_CONFIGS: usize = 6561;
/// Regions.
pub const REGIONS: usize = 9;
const PATTERNS_LEN: usize = REGIONS * REGION_CONFIGS;
/// The constant feature.
const BIAS: usize = PATTERNS + PATTERNS_LEN;
/// Number of features.
pub const FEATURES: usize = BIAS + 1;
/// Most features active in one position (32 pieces, material, kings, 9 regions, constant).
pub const MAX_ACTIVE: usize = 32 + 1 + 1 + REGIONS + 1;

/// Weight units per logit.
pub const WEIGHT_ONE: i32 = 4096;
/// Evaluation units per logit.
pub const EVAL_ONE: i32 = 100;
/// Pieces at which the first phase's weights count fully.
pub const FULL_BOARD: i32 = 24;
/// Bytes of the header.
const HEADER_BYTES: usize = 4 + 2 + 2 + 4 + 4;

/// Why a weights file was refused.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("weights {source_name}: {reason}")]
pub struct WeightsError {
    /// The file (or `embedded`).
    pub source_name: String,
    /// What is wrong.
    pub reason: String,
}

/// A set of trained weights.
#[derive(Clone, PartialEq, Eq)]
pub struct TrainedWeights {
    /// Per feature, the weight of each phase, in 1/[`WEIGHT_ONE`] logits.
    weights: Box<[[i16; PHASES]]>,
    /// Where they came from, for names and messages.
    source: String,
}

impl std::fmt::Debug for TrainedWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TrainedWeights({})", self.source)
    }
}

/// The shipped weights (`data/weights/trained.ckw`), built into the binary.
pub const EMBEDDED_BYTES: &[u8] = include_bytes!("../../../data/weights/trained.ckw");

/// The shipped weights, read once.
///
/// # Errors
/// [`WeightsError`] if the embedded file is damaged (a test makes sure it is not).
pub fn embedded() -> Result<&'static TrainedWeights, WeightsError> {
    static CELL: OnceLock<Result<TrainedWeights, WeightsError>> = OnceLock::new();
    CELL.get_or_init(|| TrainedWeights::from_bytes("embedded", EMBEDDED_BYTES))
        .as_ref()
        .map_err(Clone::clone)
}

impl TrainedWeights {
    /// Weights from `weights` (one pair per feature; [`FEATURES`] of them), named `source`.
    ///
    /// # Errors
    /// [`WeightsError`] when the number of features is wrong.
    pub fn new(source: &str, weights: Vec<[i16; PHASES]>) -> Result<TrainedWeights, WeightsError> {
        if weights.len() != FEATURES {
            return Err(WeightsError {
                source_name: source.to_owned(),
                reason: format!("{} features; expected {FEATURES}", weights.len()),
            });
        }
        Ok(TrainedWeights {
            weights: weights.into_boxed_slice(),
            source: source.to_owned(),
        })
    }

    /// Where the weights came from (`embedded` or a file name).
    #[must_use]
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The weight pairs, feature by feature.
    #[must_use]
    pub fn weights(&self) -> &[[i16; PHASES]] {
        &self.weights
    }

    /// Reads weights from the bytes of a weights file; `source` names it in errors.
    ///
    /// # Errors
    /// [`WeightsError`] naming what does not match: magic, version, shape, length, checksum.
    pub fn from_bytes(source: &str, bytes: &[u8]) -> Result<TrainedWeights, WeightsError> {
        let bad = |reason: String| WeightsError {
            source_name: source.to_owned(),
            reason,
        };
        if bytes.len() < HEADER_BYTES + 4 {
            return Err(bad(format!(
                "{} bytes: too short for a weights file",
                bytes.len()
            )));
        }
        if bytes[0..4] != MAGIC {
            return Err(bad(
                "not a weights file of this program (no `CKEV` magic)".to_owned()
            ));
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let version = u16_at(4);
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}; this program reads version {VERSION}"
            )));
        }
        let phases = u16_at(6);
        if usize::from(phases) != PHASES {
            return Err(bad(format!("{phases} phases; this program uses {PHASES}")));
        }
        let set = u32_at(8);
        if set != FEATURE_SET {
            return Err(bad(format!(
                "feature set {set}; this program computes feature set {FEATURE_SET}"
            )));
        }
        let features = u32_at(12) as usize;
        if features != FEATURES {
            return Err(bad(format!(
                "{features} features; feature set {FEATURE_SET} has {FEATURES}"
            )));
        }
        let expected = HEADER_BYTES + FEATURES * PHASES * 2 + 4;
        if bytes.len() != expected {
            return Err(bad(format!(
                "{} bytes; a file of this shape has {expected}: truncated or damaged",
                bytes.len()
            )));
        }
        let body = bytes.len() - 4;
        if crc32fast::hash(&bytes[..body]) != u32_at(body) {
            return Err(bad("checksum mismatch: the file is damaged".to_owned()));
        }
        let weights = bytes[HEADER_BYTES..body]
            .chunks_exact(2 * PHASES)
            .map(|c| {
                let mut pair = [0i16; PHASES];
                for (p, w) in pair.iter_mut().enumerate() {
                    *w = i16::from_le_bytes([c[2 * p], c[2 * p + 1]]);
                }
                pair
            })
            .collect();
        TrainedWeights::new(source, weights)
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// [`WeightsError`] when it cannot be read or is refused.
    pub fn from_file(path: &std::path::Path) -> Result<TrainedWeights, WeightsError> {
        let (name, bytes) = read_file(path)?;
        TrainedWeights::from_bytes(&name, &bytes)
    }

    /// The bytes of the weights file.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + FEATURES * PHASES * 2 + 4);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(PHASES as u16).to_le_bytes());
        out.extend_from_slice(&FEATURE_SET.to_le_bytes());
        out.extend_from_slice(&(FEATURES as u32).to_le_bytes());
        for pair in self.weights.iter() {
            for w in pair {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// The evaluation of `pos` for the side to move, in hundredths of a logit; `None` when a
    /// piece stands on a light cell (which the tables do not cover).
    #[must_use]
    pub fn evaluate(&self, pos: &Position) -> Option<i32> {
        let view = View::of(pos)?;
        let mixed = self.mixed_sum(&view);
        let scaled = mixed * i64::from(EVAL_ONE) / (i64::from(WEIGHT_ONE) * i64::from(FULL_BOARD));
        Some(scaled.clamp(-10_000, 10_000) as i32)
    }

    /// The two phases' sums blended by the pieces on the board, in 1/([`WEIGHT_ONE`] ×
    /// [`FULL_BOARD`]) logits.
    #[must_use]
    pub fn mixed_sum(&self, view: &View) -> i64 {
        let (mut open, mut end) = (0i64, 0i64);
        for_each_feature(view, |f| {
            // `f` is below FEATURES by construction; `get` keeps it panic-free anyway.
            if let Some(w) = self.weights.get(f) {
                open += i64::from(w[0]);
                end += i64::from(w[1]);
            }
        });
        let n = i64::from(view.pieces());
        open * n + end * (i64::from(FULL_BOARD) - n)
    }
}

/// The bytes of a weights file of either kind, with the name errors give it.
///
/// # Errors
/// [`WeightsError`] when it cannot be read.
pub fn read_file(path: &std::path::Path) -> Result<(String, Vec<u8>), WeightsError> {
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => Ok((name, bytes)),
        Err(e) => Err(WeightsError {
            source_name: name,
            reason: e.to_string(),
        }),
    }
}

/// A position from the side to move's point of view: own men move towards row 0.
#[derive(Clone, Copy, Debug)]
pub struct View {
    own: u64,
    enemy: u64,
    kings: u64,
}

impl View {
    /// The view of `pos`, or `None` when a piece stands on a light cell.
    #[must_use]
    pub fn of(pos: &Position) -> Option<View> {
        if !(pos.occupied() & !Bitboard::DARK).is_empty() {
            return None;
        }
        let us = pos.side_to_move();
        let (own, enemy, kings) = (pos.pieces(us).0, pos.pieces(us.opponent()).0, pos.kings().0);
        Some(match us {
            Color::Red => View { own, enemy, kings },
            // Half a turn: cell i becomes cell 63 - i, which keeps dark cells dark.
            Color::Black => View {
                own: own.reverse_bits(),
                enemy: enemy.reverse_bits(),
                kings: kings.reverse_bits(),
            },
        })
    }

    /// Pieces on the board, capped at [`FULL_BOARD`].
    #[must_use]
    pub fn pieces(&self) -> i32 {
        ((self.own | self.enemy).count_ones() as i32).min(FULL_BOARD)
    }

    /// The weight of the first phase, from 0 to 1.
    #[must_use]
    pub fn opening_share(&self) -> f32 {
        self.pieces() as f32 / FULL_BOARD as f32
    }
}

/// The dark-cell number (0-31, reading order) of each of the 64 cells (light cells: 0, unused).
const DARK_INDEX: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let (row, col) = (i / 8, i % 8);
        if (row + col) % 2 == 1 {
            t[i] = (row * 4 + col / 2) as u8;
        }
        i += 1;
    }
    t
};

/// For a row's 4 cells of a region (a nibble) whose first cell is light (index 0) or dark
/// (index 1), the base-3 digits of its two dark cells as a number 0-4 (digit value 1 per
/// occupied cell: the first dark cell counts 1, the second 3).
const NIBBLE: [[u16; 16]; 2] = {
    let mut t = [[0u16; 16]; 2];
    let mut n = 0;
    while n < 16 {
        // First cell light: dark cells at offsets 1 and 3.
        t[0][n] = ((n >> 1) & 1) as u16 + 3 * ((n >> 3) & 1) as u16;
        // First cell dark: offsets 0 and 2.
        t[1][n] = (n & 1) as u16 + 3 * ((n >> 2) & 1) as u16;
        n += 1;
    }
    t
};

/// The top-left cells (row, column) of the nine regions.
const REGION_CORNERS: [(u32, u32); REGIONS] = [
    (0, 0),
    (0, 2),
    (0, 4),
    (2, 0),
    (2, 2),
    (2, 4),
    (4, 0),
    (4, 2),
    (4, 4),
];

/// The configuration (0 to 6560) of region `r` of the view.
#[inline]
fn region_index(v: &View, r: usize) -> usize {
    let (r0, c0) = REGION_CORNERS[r];
    let mut index = 0usize;
    let mut place = 1usize;
    for row in r0..r0 + 4 {
        let shift = row * 8 + c0;
        let parity = ((row + c0) % 2) as usize;
        let own = ((v.own >> shift) & 0xF) as usize;
        let enemy = ((v.enemy >> shift) & 0xF) as usize;
        let digits = usize::from(NIBBLE[parity][own]) + 2 * usize::from(NIBBLE[parity][enemy]);
        index += digits * place;
        place *= 9;
    }
    index
}

/// Calls `f` with the index of every active piece-square feature of the view (below
/// [`PSQ_FEATURES`]).
#[inline]
pub fn for_each_piece_square(v: &View, mut f: impl FnMut(usize)) {
    let (own_men, own_kings) = (v.own & !v.kings, v.own & v.kings);
    let (enemy_men, enemy_kings) = (v.enemy & !v.kings, v.enemy & v.kings);
    for (kind, set) in [own_men, own_kings, enemy_men, enemy_kings]
        .into_iter()
        .enumerate()
    {
        let mut bits = set;
        while bits != 0 {
            let cell = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            f(PSQ + kind * 32 + usize::from(DARK_INDEX[cell]));
        }
    }
}

/// Calls `f` with the index of every active feature of the view.
#[inline]
pub fn for_each_feature(v: &View, mut f: impl FnMut(usize)) {
    for_each_piece_square(v, &mut f);
    let (own_kings, enemy_kings) = (v.own & v.kings, v.enemy & v.kings);
    let own_n = (v.own.count_ones() as usize).min(12);
    let enemy_n = (v.enemy.count_ones() as usize).min(12);
    f(MATERIAL + own_n * 13 + enemy_n);
    let own_k = (own_kings.count_ones() as usize).min(3);
    let enemy_k = (enemy_kings.count_ones() as usize).min(3);
    f(KINGS + own_k * 4 + enemy_k);
    for r in 0..REGIONS {
        f(PATTERNS + r * REGION_CONFIGS + region_index(v, r));
    }
    f(BIAS);
}

/// The active features of `pos` (for training), or `None` when a piece is on a light cell.
#[must_use]
pub fn features(pos: &Position) -> Option<(View, smallvec::SmallVec<[u16; MAX_ACTIVE]>)> {
    let view = View::of(pos)?;
    let mut out = smallvec::SmallVec::new();
    // FEATURES < 65,536, so every index fits.
    for_each_feature(&view, |i| out.push(i as u16));
    Some((view, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_fit_and_the_start_is_symmetric() {
        const { assert!(FEATURES <= u16::MAX as usize) };
        let start = Position::start();
        let (_, a) = features(&start).unwrap();
        let (_, b) = features(&start.with_side_to_move(Color::Black)).unwrap();
        // The start position looks the same to either side.
        assert_eq!(a, b);
        assert_eq!(a.len(), 24 + 3 + REGIONS);
        assert!(a.iter().all(|&i| usize::from(i) < FEATURES));
    }

    #[test]
    fn file_round_trips_and_damage_is_refused() {
        let mut w = vec![[0i16; PHASES]; FEATURES];
        w[BIAS] = [40, -7];
        let t = TrainedWeights::new("t", w).unwrap();
        let bytes = t.to_bytes();
        assert_eq!(TrainedWeights::from_bytes("t", &bytes).unwrap(), t);
        let mut bad = bytes.clone();
        bad[HEADER_BYTES + 5] ^= 4;
        let e = TrainedWeights::from_bytes("w.ckw", &bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("w.ckw") && e.contains("checksum"), "{e}");
        let e = TrainedWeights::from_bytes("w", &bytes[..100])
            .unwrap_err()
            .to_string();
        assert!(e.contains("truncated"), "{e}");
        let mut other = bytes.clone();
        other[4] = 9;
        assert!(TrainedWeights::from_bytes("w", &other)
            .unwrap_err()
            .to_string()
            .contains("version 9"));
        assert!(TrainedWeights::from_bytes("w", b"hello world, not weights")
            .unwrap_err()
            .to_string()
            .contains("magic"));
    }

    #[test]
    fn the_shipped_weights_load() {
        let w = embedded().unwrap();
        assert_eq!(w.weights().len(), FEATURES);
        assert!(w.evaluate(&Position::start()).is_some());
    }
}
