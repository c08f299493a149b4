//! The board as the databases see it: the 32 dark cells as bits of a `u32`, their diagonal
//! neighbours, each side's forward directions and crowning row, and the combinatorial number
//! system that ranks a set of cells.

/// Marks a cell with no neighbour in some direction.
pub(super) const NONE: u8 = 0xFF;

/// Board square (`row * 8 + col`) of each dark cell, in reading order.
pub(super) const SQUARE_OF: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        let row = i / 4;
        let col = 2 * (i % 4) + if row % 2 == 0 { 1 } else { 0 };
        t[i] = (row * 8 + col) as u8;
        i += 1;
    }
    t
};

/// Dark cell index of each board square, or [`NONE`] for a light square.
pub(super) const CELL_OF: [u8; 64] = {
    let mut t = [NONE; 64];
    let mut i = 0;
    while i < 32 {
        t[SQUARE_OF[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The diagonal neighbour of each dark cell in the four directions, or [`NONE`] at the edge.
pub(super) const NEXT: [[u8; 4]; 32] = {
    let mut t = [[NONE; 4]; 32];
    let deltas: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
    let mut i = 0;
    while i < 32 {
        let sq = SQUARE_OF[i] as i32;
        let mut d = 0;
        while d < 4 {
            let (r, c) = (sq / 8 + deltas[d].0, sq % 8 + deltas[d].1);
            if r >= 0 && r < 8 && c >= 0 && c < 8 {
                t[i][d] = CELL_OF[(r * 8 + c) as usize];
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// Most cells of one group the index ranks (a side of seven pieces, all kings or all men).
pub(super) const MAX_RANKED: usize = 7;

/// Binomial coefficients `C(n, k)` for `n <= 32`, `k <=` [`MAX_RANKED`]: the combinatorial
/// number system. `C(32, 7)` is 3,365,856, well within a `u32`.
pub(super) const BINOM: [[u32; MAX_RANKED + 1]; 33] = {
    let mut t = [[0u32; MAX_RANKED + 1]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_RANKED && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Directions (indexes into [`NEXT`]) in which red men move: up the board.
pub(super) const RED_FORWARD: [usize; 2] = [0, 1];
/// Directions in which black men move: down the board.
pub(super) const BLACK_FORWARD: [usize; 2] = [2, 3];
/// Red's crowning row (row 0) as cells.
pub(super) const RED_CROWN: u32 = 0x0000_000F;
/// Black's crowning row (row 7) as cells.
pub(super) const BLACK_CROWN: u32 = 0xF000_0000;

/// Rank of a set of `mask.count_ones()` cells among cells `0..n`, in `0..C(n, k)`.
pub(super) fn rank(mask: u32) -> u32 {
    let mut r = 0;
    let mut m = mask;
    let mut k = 1;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        r += BINOM[c][k];
        k += 1;
        m &= m - 1;
    }
    r
}

/// Every set of `k` cells among `0..n`, in rank order.
pub(super) fn combinations(n: usize, k: usize) -> Vec<u32> {
    if k == 0 {
        return vec![0];
    }
    let mut out = Vec::with_capacity(BINOM[n][k] as usize);
    let mut cells: Vec<usize> = (0..k).collect();
    loop {
        out.push(cells.iter().fold(0u32, |m, &c| m | 1 << c));
        // The next combination in colexicographic order, which is rank order.
        let mut i = 0;
        while i < k
            && (i + 1 < k && cells[i] + 1 == cells[i + 1] || i + 1 == k && cells[i] + 1 == n)
        {
            cells[i] = i;
            i += 1;
        }
        if i == k {
            return out;
        }
        cells[i] += 1;
    }
}

/// The cells of a mask, lowest first.
pub(super) fn cells(mask: u32) -> impl Iterator<Item = u32> {
    let mut m = mask;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = m.trailing_zeros();
            m &= m - 1;
            c
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree() {
        for (i, &sq) in SQUARE_OF.iter().enumerate() {
            assert_eq!(CELL_OF[sq as usize] as usize, i);
            assert_eq!((sq / 8 + sq % 8) % 2, 1, "dark");
        }
        assert_eq!(BINOM[32][5], 201_376);
        assert_eq!(BINOM[5][5], 1);
        assert_eq!(BINOM[32][6], 906_192);
        assert_eq!(BINOM[32][7], 3_365_856);
        assert_eq!(BINOM[7][7], 1);
    }

    #[test]
    fn ranks_enumerate_combinations_in_order() {
        let all = combinations(10, 3);
        assert_eq!(all.len(), 120);
        for (i, &m) in all.iter().enumerate() {
            assert_eq!(rank(m) as usize, i);
        }
        // Groups of six and seven (a side of seven pieces).
        for k in [6, 7] {
            let all = combinations(14, k);
            assert_eq!(all.len(), BINOM[14][k] as usize);
            for (i, &m) in all.iter().enumerate() {
                assert_eq!(m.count_ones() as usize, k);
                assert_eq!(rank(m) as usize, i);
            }
        }
        assert_eq!(rank(0xFE00_0000), BINOM[32][7] - 1);
    }
}
