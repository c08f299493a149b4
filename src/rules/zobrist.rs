//! Zobrist keys: one random 64-bit key per (piece, square) and one for the side to move.
//!
//! The keys come from a fixed-seed SplitMix64 stream computed at compile time, so hashes (and
//! with them every table-dependent choice of the search) are identical on every run and machine.

use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::square::Square;

/// One step of SplitMix64: a well-mixed 64-bit value from a counter.
const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `PIECE_KEYS[piece_index][square]`.
const PIECE_KEYS: [[u64; 64]; 4] = {
    let mut keys = [[0u64; 64]; 4];
    let mut p = 0;
    while p < 4 {
        let mut s = 0;
        while s < 64 {
            keys[p][s] = splitmix64(((p * 64 + s) as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D));
            s += 1;
        }
        p += 1;
    }
    keys
};

/// Key toggled when black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix64(0xC0FF_EE00_DEAD_BEEF);

/// Index of a piece in [`PIECE_KEYS`].
const fn piece_index(piece: Piece) -> usize {
    match (piece.color, piece.kind) {
        (Color::Red, Kind::Man) => 0,
        (Color::Red, Kind::King) => 1,
        (Color::Black, Kind::Man) => 2,
        (Color::Black, Kind::King) => 3,
    }
}

/// The key of `piece` standing on `sq`.
#[must_use]
pub const fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece_index(piece)][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE_KEYS.iter().flatten().copied().collect();
        all.push(BLACK_TO_MOVE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
