//! One class's values held compactly: a byte per position when every value fits (nearly always:
//! values are plies to the end plus one), two bytes otherwise.

/// The values of one class (or of the positions an analysis covers), by index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Table {
    /// Every value below 256: one byte each.
    Bytes(Vec<u8>),
    /// Some value of 256 or more: two bytes each.
    Words(Vec<u16>),
}

impl Table {
    /// The value at `index` (`plies + 1`, or 0 for a draw).
    pub(super) fn get(&self, index: usize) -> u16 {
        match self {
            Table::Bytes(b) => u16::from(b[index]),
            Table::Words(w) => w[index],
        }
    }

    /// Number of positions (index slots).
    pub(super) fn len(&self) -> usize {
        match self {
            Table::Bytes(b) => b.len(),
            Table::Words(w) => w.len(),
        }
    }

    /// Bytes per position: 1 or 2.
    pub(super) fn width(&self) -> usize {
        match self {
            Table::Bytes(_) => 1,
            Table::Words(_) => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_take_a_byte_and_large_ones_two() {
        let t = Table::Bytes(vec![0, 1, 255]);
        assert_eq!((t.width(), t.len(), t.get(2)), (1, 3, 255));
        let t = Table::Words(vec![0, 256, 3]);
        assert_eq!((t.width(), t.get(1), t.get(2)), (2, 256, 3));
    }
}
