//! The move type and the move list.

use smallvec::SmallVec;

use crate::rules::bitboard::Bitboard;
use crate::rules::square::Square;

/// A move: where the piece starts, where it ends, and which enemy pieces it takes.
///
/// A jump sequence is stored by its end points and captured set only (16 bytes in all); that is
/// all that is needed to play it. The full path, needed only for standard notation, is recovered
/// by `formats::notation::move_path`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Move {
    from: Square,
    to: Square,
    captured: Bitboard,
}

impl Move {
    /// A move of the piece on `from` to `to`, capturing `captured` (empty for a step).
    #[must_use]
    pub const fn new(from: Square, to: Square, captured: Bitboard) -> Move {
        Move { from, to, captured }
    }

    /// Where the moving piece starts.
    #[must_use]
    pub const fn from(self) -> Square {
        self.from
    }

    /// Where the moving piece ends.
    #[must_use]
    pub const fn to(self) -> Square {
        self.to
    }

    /// The enemy pieces taken; empty for a step.
    #[must_use]
    pub const fn captured(self) -> Bitboard {
        self.captured
    }

    /// Whether the move takes at least one piece.
    #[must_use]
    pub const fn is_capture(self) -> bool {
        !self.captured.is_empty()
    }

    /// The canonical order used to break ties between equally good moves: origin cell in reading
    /// order, then destination cell, then the captured set as a number. `Ord` on `Move` is this
    /// order; the key is spelled out so documentation and code cannot drift apart.
    #[must_use]
    pub const fn canonical_key(self) -> (u8, u8, u64) {
        (
            self.from.index() as u8,
            self.to.index() as u8,
            self.captured.0,
        )
    }
}

// Two cells and a captured set: 16 bytes, as the documentation says.
const _: () = assert!(std::mem::size_of::<Move>() == 16);

/// Moves of one position. Inline storage covers every realistic position without allocating;
/// pathological puzzles (dozens of kings) spill to the heap instead of failing.
pub type MoveList = SmallVec<[Move; 48]>;
