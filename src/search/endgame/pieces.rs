//! Positions of the databases (four groups of cells and the side to move) and their moves,
//! generated on the cell masks with the rules of `movegen`.

use crate::rules::bitboard::Bitboard;
use crate::rules::piece::Color;
use crate::rules::position::Position;

use super::cells::{
    cells, BINOM, BLACK_CROWN, BLACK_FORWARD, CELL_OF, NEXT, NONE, RED_CROWN, RED_FORWARD,
};

/// A material class: how many red kings, red men, black kings and black men.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    red_kings: u8,
    red_men: u8,
    black_kings: u8,
    black_men: u8,
}

impl Material {
    /// The four group sizes in index order.
    pub(super) fn groups(self) -> [usize; 4] {
        [
            usize::from(self.red_kings),
            usize::from(self.red_men),
            usize::from(self.black_kings),
            usize::from(self.black_men),
        ]
    }

    /// The class with the colours exchanged (the board turned half a turn): its positions
    /// have the values of this one's (see `index`).
    pub(super) fn mirrored(self) -> Material {
        Material {
            red_kings: self.black_kings,
            red_men: self.black_men,
            black_kings: self.red_kings,
            black_men: self.red_men,
        }
    }

    /// Whether this class is the one of its mirrored pair that has a table: red's side is at
    /// least black's (kings, then men), which holds for both when they are alike.
    pub(super) fn is_canonical(self) -> bool {
        (self.red_kings, self.red_men) >= (self.black_kings, self.black_men)
    }

    /// The class of the mirrored pair that has a table.
    pub(super) fn canonical(self) -> Material {
        if self.is_canonical() {
            self
        } else {
            self.mirrored()
        }
    }

    /// Index slots of the class (both sides to move) in the plain index, each group ranked over
    /// all 32 cells: the measure of a build's cost that the solver's budgets are set in.
    pub(super) fn slots(self) -> usize {
        self.groups()
            .iter()
            .map(|&n| BINOM[32][n] as usize)
            .product::<usize>()
            * 2
    }

    pub(super) fn reds(self) -> usize {
        usize::from(self.red_kings + self.red_men)
    }

    pub(super) fn blacks(self) -> usize {
        usize::from(self.black_kings + self.black_men)
    }

    /// Positions of the class's table (both sides to move): see `index`.
    #[must_use]
    pub fn positions(self) -> usize {
        self.size()
    }

    /// Pieces of both sides.
    #[must_use]
    pub fn pieces(self) -> usize {
        self.reds() + self.blacks()
    }

    /// Men of both sides.
    pub(super) fn men(self) -> usize {
        usize::from(self.red_men + self.black_men)
    }

    /// Every class a game from this one can reach, itself included: captures remove pieces,
    /// crownings turn men into kings, nothing else changes the material. Each side keeps at least
    /// one piece (a side with none has lost; no table is needed for that). Sorted so that every
    /// class comes after the classes it leads to.
    pub(super) fn reachable(self) -> Vec<Material> {
        let mut out = Vec::new();
        for red_men in 0..=self.red_men {
            for red_kings in 0..=(self.reds() - usize::from(red_men)) as u8 {
                for black_men in 0..=self.black_men {
                    for black_kings in 0..=(self.blacks() - usize::from(black_men)) as u8 {
                        let m = Material {
                            red_kings,
                            red_men,
                            black_kings,
                            black_men,
                        };
                        if m.reds() > 0 && m.blacks() > 0 {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.reds() + m.blacks(), m.red_men + m.black_men, *m));
        out
    }
}

impl Material {
    /// Every class of at most `pieces` pieces with at least one piece a side and at most
    /// `max_side` a side, each after the classes it leads to.
    pub(super) fn all_up_to(pieces: usize, max_side: usize) -> Vec<Material> {
        let mut out = Vec::new();
        let n = pieces.min(2 * max_side) as u8;
        for red_kings in 0..=n {
            for red_men in 0..=n - red_kings {
                for black_kings in 0..=n - red_kings - red_men {
                    for black_men in 0..=n - red_kings - red_men - black_kings {
                        let m = Material {
                            red_kings,
                            red_men,
                            black_kings,
                            black_men,
                        };
                        if (1..=max_side).contains(&m.reds())
                            && (1..=max_side).contains(&m.blacks())
                        {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.reds() + m.blacks(), m.red_men + m.black_men, *m));
        out
    }
}

impl std::fmt::Display for Material {
    /// Red's kings and men against black's, as in `2K1M v 2K`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = |kings: u8, men: u8| match (kings, men) {
            (k, 0) => format!("{k}K"),
            (0, m) => format!("{m}M"),
            (k, m) => format!("{k}K{m}M"),
        };
        write!(
            f,
            "{} v {}",
            side(self.red_kings, self.red_men),
            side(self.black_kings, self.black_men)
        )
    }
}

/// A position of the database's kind: four groups of cells and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Pieces {
    /// Red kings, red men, black kings, black men.
    pub(super) groups: [u32; 4],
    pub(super) side: Color,
}

/// What stays fixed for the side to move while its moves are listed.
pub(super) struct Mover {
    pub(super) kings: u32,
    pub(super) men: u32,
    pub(super) enemies: u32,
    pub(super) forward: [usize; 2],
    pub(super) crown: u32,
}

impl Pieces {
    pub(super) fn material(self) -> Material {
        let n = |g: u32| g.count_ones() as u8;
        Material {
            red_kings: n(self.groups[0]),
            red_men: n(self.groups[1]),
            black_kings: n(self.groups[2]),
            black_men: n(self.groups[3]),
        }
    }

    pub(super) fn occupied(self) -> u32 {
        self.groups.iter().fold(0, |a, &g| a | g)
    }

    /// The side to move's view.
    pub(super) fn mover(self) -> Mover {
        let [rk, rm, bk, bm] = self.groups;
        match self.side {
            Color::Red => Mover {
                kings: rk,
                men: rm,
                enemies: bk | bm,
                forward: RED_FORWARD,
                crown: RED_CROWN,
            },
            Color::Black => Mover {
                kings: bk,
                men: bm,
                enemies: rk | rm,
                forward: BLACK_FORWARD,
                crown: BLACK_CROWN,
            },
        }
    }

    /// The position after the side to move's piece on `from` ends a move on `to` (crowned when
    /// `king`) taking `taken`; the other side is then to move.
    pub(super) fn after(self, from: u32, to: u32, king: bool, taken: u32) -> Pieces {
        let mut groups = self.groups;
        let (own, theirs) = match self.side {
            Color::Red => (0, 2),
            Color::Black => (2, 0),
        };
        groups[own] &= !(1 << from);
        groups[own + 1] &= !(1 << from);
        groups[own + usize::from(!king)] |= 1 << to;
        groups[theirs] &= !taken;
        groups[theirs + 1] &= !taken;
        Pieces {
            groups,
            side: self.side.opponent(),
        }
    }

    /// The position on the board's dark squares (`None` if the groups overlap).
    pub(super) fn to_position(self) -> Option<Position> {
        let board = |g: u32| {
            Bitboard(cells(g).fold(0u64, |b, c| b | 1 << super::cells::SQUARE_OF[c as usize]))
        };
        let [rk, rm, bk, bm] = self.groups;
        Position::new(board(rk | rm), board(bk | bm), board(rk | bk), self.side).ok()
    }

    /// The pieces of `pos` when they all stand on cells of one colour. Light cells map to dark
    /// ones by mirroring the columns, which keeps rows, and so every move and crowning.
    pub(super) fn of(pos: &Position) -> Option<Pieces> {
        let occupied = pos.occupied();
        let dark = (occupied & Bitboard::DARK) == occupied;
        if !dark && (occupied & Bitboard::DARK) != Bitboard::EMPTY {
            return None;
        }
        let cells = |b: Bitboard| {
            b.iter().fold(0u32, |m, s| {
                let sq = if dark {
                    s.index()
                } else {
                    s.index() - usize::from(s.col()) + 7 - usize::from(s.col())
                };
                m | 1 << CELL_OF[sq]
            })
        };
        let kings = pos.kings();
        let red = pos.pieces(Color::Red);
        let black = pos.pieces(Color::Black);
        Some(Pieces {
            groups: [
                cells(red & kings),
                cells(red & !kings),
                cells(black & kings),
                cells(black & !kings),
            ],
            side: pos.side_to_move(),
        })
    }
}

/// Whether the side to move has a jump.
pub(super) fn has_jump(p: Pieces) -> bool {
    let m = p.mover();
    let empty = !p.occupied();
    let can_jump = |from: u32, dirs: &[usize]| {
        dirs.iter().any(|&d| {
            let over = NEXT[from as usize][d];
            over != NONE && (m.enemies >> over) & 1 != 0 && {
                let land = NEXT[over as usize][d];
                land != NONE && (empty >> land) & 1 != 0
            }
        })
    };
    cells(m.kings).any(|k| can_jump(k, &[0, 1, 2, 3]))
        || cells(m.men).any(|k| can_jump(k, &m.forward))
}

/// The plain steps of the side to move: those that stay in the class (king steps, men steps
/// that do not crown) are counted; those that crown are passed to `leaving` as (from, to,
/// true). When `men_leave` (an analysis of one level of a class split by its men's advancement,
/// see `retro`), every man step is passed to `leaving` (`false` when it does not crown) and
/// only king steps are counted.
pub(super) fn steps(p: Pieces, men_leave: bool, leaving: &mut impl FnMut(u32, u32, bool)) -> u16 {
    let m = p.mover();
    let empty = !p.occupied();
    let mut n = 0;
    for k in cells(m.kings) {
        for t in NEXT[k as usize] {
            if t != NONE && (empty >> t) & 1 != 0 {
                n += 1;
            }
        }
    }
    for k in cells(m.men) {
        for d in m.forward {
            let t = NEXT[k as usize][d];
            if t != NONE && (empty >> t) & 1 != 0 {
                if (m.crown >> t) & 1 != 0 {
                    leaving(k, u32::from(t), true);
                } else if men_leave {
                    leaving(k, u32::from(t), false);
                } else {
                    n += 1;
                }
            }
        }
    }
    n
}

/// Calls `finish` with the position after each capture sequence of the side to move.
///
/// The jumps are followed on the cell masks as `movegen` does on the board: a jumped piece stays
/// in the way until the sequence ends but cannot be jumped again, the start cell counts as empty,
/// men jump forward only, and a man that reaches its crowning row is crowned and stops. Two
/// routes to the same end are both reported; the values they lead to are the same.
pub(super) fn captures(p: Pieces, finish: &mut impl FnMut(Pieces)) {
    let m = p.mover();
    let empty = !p.occupied();
    for (group, king, dirs) in [
        (m.kings, true, &[0usize, 1, 2, 3][..]),
        (m.men, false, &m.forward[..]),
    ] {
        for from in cells(group) {
            let walk = CaptureWalk {
                p,
                from,
                king,
                dirs,
                crown: m.crown,
                landing: empty | (1 << from),
            };
            follow(&walk, from, m.enemies, 0, finish);
        }
    }
}

/// What stays fixed while one piece's jump sequences are followed.
struct CaptureWalk<'a> {
    p: Pieces,
    from: u32,
    king: bool,
    dirs: &'a [usize],
    crown: u32,
    /// Cells a jump may land on: the empty cells and the piece's own start cell.
    landing: u32,
}

/// Depth-first search over the continuations of a jump sequence standing at `at`.
fn follow(walk: &CaptureWalk, at: u32, enemies: u32, taken: u32, finish: &mut impl FnMut(Pieces)) {
    let mut extended = false;
    for &d in walk.dirs {
        let over = NEXT[at as usize][d];
        if over == NONE || (enemies >> over) & 1 == 0 {
            continue;
        }
        let land = NEXT[over as usize][d];
        if land == NONE || (walk.landing >> land) & 1 == 0 {
            continue;
        }
        extended = true;
        let taken = taken | (1 << over);
        let land = u32::from(land);
        if !walk.king && (walk.crown >> land) & 1 != 0 {
            finish(walk.p.after(walk.from, land, true, taken));
        } else {
            follow(walk, land, enemies & !(1 << over), taken, finish);
        }
    }
    if !extended && taken != 0 {
        finish(walk.p.after(walk.from, at, walk.king, taken));
    }
}
