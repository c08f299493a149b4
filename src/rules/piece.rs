//! Sides and pieces.

/// One of the two sides. Red starts at the bottom and moves first; black starts at the top.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    /// The side at the bottom of the file, moving up; plays the role of White in standard notation.
    Red,
    /// The side at the top of the file, moving down.
    Black,
}

impl Color {
    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// Lower-case name, for messages.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

/// Man or king.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Kind {
    /// Moves and jumps forward only.
    Man,
    /// Moves and jumps in all four diagonal directions, one cell at a time.
    King,
}

/// A piece: a side and a kind.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Man or king.
    pub kind: Kind,
}

impl Piece {
    /// The piece for a character of the puzzle file: `r`, `R`, `b` or `B`.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Piece> {
        let (color, kind) = match c {
            'r' => (Color::Red, Kind::Man),
            'R' => (Color::Red, Kind::King),
            'b' => (Color::Black, Kind::Man),
            'B' => (Color::Black, Kind::King),
            _ => return None,
        };
        Some(Piece { color, kind })
    }

    /// The character of the puzzle file for this piece.
    #[must_use]
    pub const fn to_char(self) -> char {
        match (self.color, self.kind) {
            (Color::Red, Kind::Man) => 'r',
            (Color::Red, Kind::King) => 'R',
            (Color::Black, Kind::Man) => 'b',
            (Color::Black, Kind::King) => 'B',
        }
    }
}
