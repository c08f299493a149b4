//! The retrograde analysis shared by whole classes (`build`) and by the positions a puzzle can
//! reach (`reach`): one class over a [`Layout`], the classes its captures and crownings lead to
//! being held.
//!
//! Three bytes per index slot during the analysis: the value (kept afterwards as the class's
//! table), the count of moves not yet known to lose (or [`SETTLED`]), and how late the
//! position's crowning moves lose. The first pass settles positions with a jump (from the
//! classes their captures lead to) and positions without a move, and counts the others' moves.
//! Then, one distance after another, the positions settled at that distance are turned into
//! their predecessors' indexes, bucketed by the block of the class they fall in, and each block
//! applies its updates alone (a step into a lost position wins, the last step into a won
//! position loses). No atomic operation and no two tasks on one block: the many cache misses of
//! the predecessors overlap instead of waiting for each other, and the values do not depend on
//! the threads.

use rayon::prelude::*;

use crate::rules::piece::Color;

use super::build::{at, merge, Guard, Outcome};
use super::cells::{cells, combinations, rank, BLACK_FORWARD, NEXT, NONE, RED_FORWARD};
use super::index::{self, Decoder};
use super::pieces::{captures, has_jump, steps, Material, Pieces};
use super::probe::Probe;
use super::store::Store;
use super::table::Table;
#[cfg(test)]
use super::MAX_GROUP;
use super::{BuildError, EndgameDb};

/// The count of a settled position (and of an unused index slot).
const SETTLED: u8 = u8::MAX;

/// Largest value a byte holds: `plies + 1` up to 255.
const MAX_VALUE: usize = u8::MAX as usize;

/// Index slots per task of the first pass.
const FIRST_CHUNK: usize = 1 << 14;

/// Index slots per block of the backward passes (a block's three bytes a slot stay in cache
/// while its updates are applied).
const BLOCK_BITS: u32 = 17;

/// Settled positions turned into predecessors per round of a backward pass (bounds the memory
/// of the bucketed updates: about ten predecessors of four bytes each).
const ROUND: usize = 1 << 20;

/// Settled positions per task of a round.
const ROUND_CHUNK: usize = 1 << 14;

/// The index of a class: the four groups' places (red kings, red men, black kings, black men) in
/// mixed radix, then the side to move. A group is either whole (every combination of the 32
/// cells, ranked by the combinatorial number system) or listed (a sorted subset of them, such as
/// the men placements a puzzle can reach, placed by binary search). A class of whole groups is
/// indexed exactly as its database ([`Pieces::index`]).
///
/// A class of kings only, as many a side, can be halved: exchanging the colours of every piece
/// and the side to move gives a position of the same class and the same value (kings move alike
/// both ways), so only red's turns get a slot and black's are read with the colours exchanged.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    lists: [Vec<u32>; 4],
    whole: [bool; 4],
    /// Only red's turns have slots (no side-to-move bit).
    halved: bool,
    radix: [usize; 4],
    weights: [usize; 4],
    /// A whole class in the tight index (see `index`): the lists above are not used.
    tight: Option<Decoder>,
    /// With `tight`, only the placements whose men's digit is one of these (ascending): one
    /// level of a class split by its men's advancement (see `Levels`), indexed as the whole
    /// class is with the men's digit replaced by its place in this list.
    pairs: Option<Vec<u32>>,
}

impl Layout {
    /// Every position of `class`, a canonical class (see `index`), in the tight index: its
    /// database's layout.
    pub(super) fn whole(class: Material) -> Layout {
        debug_assert!(class.is_canonical());
        Layout {
            tight: Some(Decoder::new(class)),
            ..Layout::from_lists([vec![0], vec![0], vec![0], vec![0]], [false; 4])
        }
    }

    /// Every position of `class` with each group ranked over all 32 cells (overlapping groups
    /// and men on their crowning row included): the index the databases had before the tight
    /// one, kept to check the tight one against.
    #[cfg(test)]
    pub(super) fn plain(class: Material) -> Layout {
        Layout::from_lists(class.groups().map(|n| combinations(32, n)), [true; 4])
    }

    /// The positions of `class` (canonical) whose men's digit (see `index`) is one of `pairs`
    /// (ascending).
    pub(super) fn pairs(class: Material, pairs: Vec<u32>) -> Layout {
        Layout {
            pairs: Some(pairs),
            ..Layout::whole(class)
        }
    }

    /// Placements of each men's digit (the kings' digits' radix), for a layout of `pairs`.
    fn per_pair(&self) -> usize {
        self.tight.as_ref().map_or(1, |t| {
            let [_, r, b] = t.radix();
            r * b
        })
    }

    /// The placement of the whole class at the layout's placement `l`, and the place of its
    /// men's digit in `pairs` (0 without).
    fn placement(&self, l: usize) -> (usize, usize) {
        match &self.pairs {
            Some(pairs) => {
                let per = self.per_pair();
                let at = l / per;
                (pairs.get(at).map_or(0, |&m| m as usize) * per + l % per, at)
            }
            None => (l, 0),
        }
    }

    /// Every position of `class`, which has kings only and as many a side, halved by the
    /// exchange of colours.
    pub(super) fn halved(class: Material) -> Layout {
        debug_assert!(Layout::can_halve(class));
        Layout {
            halved: true,
            ..Layout::whole(class)
        }
    }

    /// Whether `class` has kings only, as many a side (so that it can be halved).
    pub(super) fn can_halve(class: Material) -> bool {
        let [red_kings, red_men, black_kings, black_men] = class.groups();
        red_men == 0 && black_men == 0 && red_kings == black_kings
    }

    /// The positions of `class` whose red men are among `red_men` and black men among
    /// `black_men` (sorted placements of the class's numbers of men).
    pub(super) fn within(class: Material, red_men: &[u32], black_men: &[u32]) -> Layout {
        let g = class.groups();
        Layout::from_lists(
            [
                combinations(32, g[0]),
                red_men.to_vec(),
                combinations(32, g[2]),
                black_men.to_vec(),
            ],
            [true, false, true, false],
        )
    }

    fn from_lists(lists: [Vec<u32>; 4], whole: [bool; 4]) -> Layout {
        let radix = [0, 1, 2, 3].map(|i| lists[i].len());
        let weights = [
            radix[1] * radix[2] * radix[3],
            radix[2] * radix[3],
            radix[3],
            1,
        ];
        Layout {
            lists,
            whole,
            halved: false,
            radix,
            weights,
            tight: None,
            pairs: None,
        }
    }

    /// Index slots (both sides to move, or red's only when halved).
    pub(super) fn slots(&self) -> usize {
        let placements = match (&self.tight, &self.pairs) {
            (Some(_), Some(pairs)) => pairs.len() * self.per_pair(),
            (Some(t), None) => t.placements(),
            (None, _) => self.radix.iter().product::<usize>(),
        };
        placements << self.side_bits()
    }

    /// Bits of the index for the side to move: none when halved.
    fn side_bits(&self) -> u32 {
        u32::from(!self.halved)
    }

    /// The place of group `g`'s cells `mask`; `None` when a listed group does not hold it.
    pub(super) fn rank(&self, g: usize, mask: u32) -> Option<usize> {
        if self.whole[g] {
            Some(rank(mask) as usize)
        } else {
            self.lists[g].binary_search(&mask).ok()
        }
    }

    /// The index of `p` (of this layout's class), `None` when a listed group does not hold its
    /// cells.
    pub(super) fn index(&self, p: Pieces) -> Option<usize> {
        let p = match (self.halved, p.side) {
            (true, Color::Black) => {
                let [red_kings, red_men, black_kings, black_men] = p.groups;
                Pieces {
                    groups: [black_kings, black_men, red_kings, red_men],
                    side: Color::Red,
                }
            }
            _ => p,
        };
        if let Some(t) = &self.tight {
            debug_assert_eq!(p.material(), t.class());
            let mut d = index::digits(p);
            if let Some(pairs) = &self.pairs {
                let per = self.per_pair();
                let at = pairs.binary_search(&u32::try_from(d / per).ok()?).ok()?;
                d = at * per + d % per;
            }
            return Some((d << self.side_bits()) | usize::from(p.side == Color::Black));
        }
        let mut digits = 0;
        for g in 0..4 {
            digits += self.rank(g, p.groups[g])? * self.weights[g];
        }
        Some((digits << self.side_bits()) | usize::from(p.side == Color::Black))
    }

    /// The side to move at index `i`.
    fn side(&self, i: usize) -> Color {
        if self.halved || i & 1 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The position at index `i` and its four digits.
    fn decode_digits(&self, i: usize) -> (Pieces, [usize; 4]) {
        let side = self.side(i);
        if let Some(t) = &self.tight {
            let (d, at) = self.placement(i >> self.side_bits());
            let [a, b, c] = index::split(t.class(), d);
            return (t.decode(d, side), [a, b, c, at]);
        }
        let mut rest = i >> self.side_bits();
        let mut groups = [0u32; 4];
        let mut digits = [0usize; 4];
        for g in (0..4).rev() {
            digits[g] = rest % self.radix[g];
            rest /= self.radix[g];
            groups[g] = self.lists[g][digits[g]];
        }
        (Pieces { groups, side }, digits)
    }

    /// Moves `p`, of digits `digits`, to the next index.
    fn advance(&self, p: &mut Pieces, digits: &mut [usize; 4]) {
        if !self.halved {
            if p.side == Color::Red {
                p.side = Color::Black;
                return;
            }
            p.side = Color::Red;
        }
        if let Some(t) = &self.tight {
            let radix = t.radix();
            for level in (0..3).rev() {
                digits[level] += 1;
                if level == 0 {
                    if let Some(pairs) = &self.pairs {
                        // The next men's digit of the list (none past the layout's end).
                        digits[3] += 1;
                        let Some(&m) = pairs.get(digits[3]) else {
                            return;
                        };
                        digits[0] = m as usize;
                    }
                }
                if digits[level] < radix[level] || level == 0 {
                    t.set(&mut p.groups, [digits[0], digits[1], digits[2]], level);
                    return;
                }
                digits[level] = 0;
            }
            return;
        }
        for g in (0..4).rev() {
            digits[g] += 1;
            if digits[g] < self.radix[g] {
                p.groups[g] = self.lists[g][digits[g]];
                return;
            }
            digits[g] = 0;
            p.groups[g] = self.lists[g][0];
        }
    }

    /// The position at index `i`.
    pub(super) fn decode(&self, i: usize) -> Pieces {
        let side = self.side(i);
        if let Some(t) = &self.tight {
            return t.decode(self.placement(i >> self.side_bits()).0, side);
        }
        let mut rest = i >> self.side_bits();
        let mut groups = [0u32; 4];
        for g in (0..4).rev() {
            // Groups of one entry (no piece, or a single placement) are common: no division.
            if self.radix[g] > 1 {
                groups[g] = self.lists[g][rest % self.radix[g]];
                rest /= self.radix[g];
            } else {
                groups[g] = self.lists[g][0];
            }
        }
        Pieces { groups, side }
    }
}

/// Whether two groups of `p` share a cell (an unused index slot).
fn overlaps(p: Pieces) -> bool {
    let [a, b, c, d] = p.groups;
    a & b != 0 || (a | b) & c != 0 || (a | b | c) & d != 0
}

/// What the first pass found for one position.
enum Start {
    /// Settled now: plies to the end, `None` for a draw.
    Settled(Option<usize>),
    /// Still open: its moves within the class (plus one that never goes when a crowning move
    /// wins or draws), how late its crowning moves lose (a stored value, 0 when none), and the
    /// fastest win by crowning.
    Open {
        count: u8,
        crowning_loss: usize,
        crowning_win: Option<usize>,
    },
}

/// Positions settled by a pass, by distance, and positions due to settle at a distance unless
/// something settles them sooner (wins by crowning, losses deferred by a crowning move).
type Lists = (Vec<Vec<u32>>, Vec<Vec<u32>>);

impl EndgameDb {
    /// Retrograde analysis of one class (below), the classes its captures and crownings
    /// lead to being built.
    ///
    /// Fails when `guard` says to stop, and when a class a capture or a crowning leads to is not
    /// built (a caller's bug that would otherwise read those positions as draws).
    pub(super) fn build(&self, class: Material, guard: &Guard) -> Result<Table, BuildError> {
        let class = class.canonical();
        if let Some(missing) = class
            .reachable()
            .into_iter()
            .filter(|c| {
                c.reds() + c.blacks() < class.reds() + class.blacks() || c.men() + 1 == class.men()
            })
            .find(|c| !self.classes.contains_key(&c.canonical()))
        {
            return Err(BuildError::MissingClass(missing.to_string()));
        }
        self.analyse(class, &Layout::whole(class), guard)
            .map(Table::Bytes)
    }
}

impl EndgameDb {
    /// The values (`plies + 1`, 0 for a draw) of every slot of `layout`, a layout of `class`,
    /// by retrograde analysis; the classes its captures and crownings lead to are read with
    /// [`built`](Self::built).
    ///
    /// # Errors
    /// [`BuildError::Cancelled`] when the guard stops it, [`BuildError::MissingClass`] when a
    /// class it reads is not held, [`BuildError::TooDeep`] when a value does not fit a byte.
    pub(super) fn analyse(
        &self,
        class: Material,
        layout: &Layout,
        guard: &Guard,
    ) -> Result<Vec<u8>, BuildError> {
        analyse_with(class, layout, &Sources::of(self), guard)
    }
}

/// What an analysis of one class reads besides the classes held (`checkers egdb build --class`
/// of a class of seven pieces, see `levels`).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Outside<'a> {
    /// The store's files, read a block at a time, for the classes not held.
    pub(super) files: Option<(&'a Probe, &'a Store)>,
    /// Whether the layout is one level of the class's men's advancement: men's steps then
    /// lead out of it, to the next level.
    pub(super) level: bool,
    /// The next level's layout and values (none for the last level).
    pub(super) next: Option<(&'a Layout, &'a Table)>,
}

impl EndgameDb {
    /// [`analyse`](Self::analyse), reading `outside` too.
    ///
    /// # Errors
    /// As [`analyse`](Self::analyse).
    pub(super) fn analyse_outside(
        &self,
        class: Material,
        layout: &Layout,
        outside: &Outside,
        guard: &Guard,
    ) -> Result<Vec<u8>, BuildError> {
        analyse_with(class, layout, &Sources::with(self, class, outside), guard)
    }
}

/// [`EndgameDb::analyse`] with the values outside the layout read from `sources`.
fn analyse_with(
    class: Material,
    layout: &Layout,
    sources: &Sources,
    guard: &Guard,
) -> Result<Vec<u8>, BuildError> {
    if guard.stop() {
        return Err(BuildError::Cancelled);
    }
    let slots = layout.slots();
    let mut value = vec![0u8; slots];
    let mut count = vec![0u8; slots];
    let mut crown = vec![0u8; slots];
    let too_deep = std::sync::atomic::AtomicBool::new(false);
    let (mut by_distance, mut due) = value
        .par_chunks_mut(FIRST_CHUNK)
        .zip(count.par_chunks_mut(FIRST_CHUNK))
        .zip(crown.par_chunks_mut(FIRST_CHUNK))
        .enumerate()
        .fold(
            || (Vec::new(), Vec::new()),
            |(mut settled, mut due): Lists, (c, ((value, count), crown))| {
                if guard.stop() {
                    return (settled, due);
                }
                let base = c * FIRST_CHUNK;
                let (mut p, mut digits) = layout.decode_digits(base);
                for k in 0..value.len() {
                    if k > 0 {
                        layout.advance(&mut p, &mut digits);
                    }
                    let index = base + k;
                    if overlaps(p) {
                        count[k] = SETTLED;
                        continue;
                    }
                    match sources.initial(p, guard) {
                        Start::Settled(plies) => {
                            count[k] = SETTLED;
                            if let Some(plies) = plies {
                                if plies >= MAX_VALUE {
                                    too_deep.store(true, std::sync::atomic::Ordering::Relaxed);
                                    continue;
                                }
                                value[k] = plies as u8 + 1;
                                at(&mut settled, plies).push(index as u32);
                            }
                        }
                        Start::Open {
                            count: n,
                            crowning_loss,
                            crowning_win,
                        } => {
                            count[k] = n;
                            if crowning_loss >= MAX_VALUE
                                || crowning_win.is_some_and(|w| w >= MAX_VALUE)
                            {
                                too_deep.store(true, std::sync::atomic::Ordering::Relaxed);
                                continue;
                            }
                            crown[k] = crowning_loss as u8;
                            if let Some(win) = crowning_win {
                                at(&mut due, win).push(index as u32);
                            }
                        }
                    }
                }
                (settled, due)
            },
        )
        .reduce(
            || (Vec::new(), Vec::new()),
            |(a1, a2), (b1, b2)| (merge(a1, b1), merge(a2, b2)),
        );
    let mut plies = 0;
    while plies < by_distance.len().max(due.len()) {
        if guard.stop() {
            return Err(BuildError::Cancelled);
        }
        if plies + 2 > MAX_VALUE {
            return Err(BuildError::TooDeep(class.to_string()));
        }
        // Positions due now settle unless something settled them sooner.
        if let Some(list) = due.get_mut(plies) {
            for i in std::mem::take(list) {
                let i = i as usize;
                if count[i] != SETTLED {
                    count[i] = SETTLED;
                    value[i] = plies as u8 + 1;
                    at(&mut by_distance, plies).push(i as u32);
                }
            }
        }
        let frontier = std::mem::take(at(&mut by_distance, plies));
        for round in frontier.chunks(ROUND) {
            let (next, later) =
                backward_round(layout, round, plies, &mut value, &mut count, &crown, guard);
            if !next.is_empty() {
                at(&mut by_distance, plies + 1).extend(next);
            }
            for (d, j) in later {
                at(&mut due, d).push(j);
            }
        }
        plies += 1;
    }
    if guard.stop() {
        return Err(BuildError::Cancelled);
    }
    if guard.found_missing() {
        return Err(BuildError::MissingClass(format!(
            "one that {class} leads to"
        )));
    }
    if too_deep.into_inner() {
        return Err(BuildError::TooDeep(class.to_string()));
    }
    Ok(value)
}

/// Where the first pass reads the values of the classes captures and crownings lead to: every
/// class held in full or analysed over a layout, by material, looked up without hashing.
struct Sources<'a> {
    by_material: Vec<Option<(Option<&'a Layout>, &'a Table)>>,
    /// Where the classes not held are read a block at a time (a class of seven pieces built
    /// with only some of its sources in memory).
    files: Option<(&'a Probe, &'a Store)>,
    /// Whether men's steps leave the layout (one level of a class split by its men's
    /// advancement: they lead to the next level, held as a layout of the class).
    men_leave: bool,
}

/// Group sizes run from 0 to 7 (`cells::MAX_RANKED`): a material's code is its four sizes
/// in this base.
const MATERIAL_BASE: usize = super::cells::MAX_RANKED + 1;

/// The place of a material (the four group sizes, each at most 7) in
/// [`Sources::by_material`]; [`usize::MAX`] (no place) for a group of more.
fn material_code(groups: [usize; 4]) -> usize {
    if groups.iter().any(|&n| n >= MATERIAL_BASE) {
        return usize::MAX;
    }
    groups.iter().fold(0, |code, &n| code * MATERIAL_BASE + n)
}

impl<'a> Sources<'a> {
    fn of(db: &'a EndgameDb) -> Sources<'a> {
        let mut by_material = vec![None; MATERIAL_BASE.pow(4)];
        if let Some(reach) = &db.reach {
            for (class, layout, table) in reach.tables() {
                if let Some(slot) = by_material.get_mut(material_code(class.groups())) {
                    *slot = Some((Some(layout), table));
                }
            }
        }
        // A class held in full answers before an analysed one, as `EndgameDb::raw` does.
        // Whole classes are kept canonical, and answer for their mirrored class too.
        for (class, table) in &db.classes {
            for code in [class.groups(), class.mirrored().groups()].map(material_code) {
                if let Some(slot) = by_material.get_mut(code) {
                    *slot = Some((None, table));
                }
            }
        }
        Sources {
            by_material,
            files: None,
            men_leave: false,
        }
    }

    /// The sources of an analysis of `class` that reads `outside` besides the classes `db`
    /// holds.
    fn with(db: &'a EndgameDb, class: Material, outside: &Outside<'a>) -> Sources<'a> {
        let mut sources = Sources::of(db);
        if let Some((layout, table)) = outside.next {
            if let Some(slot) = sources.by_material.get_mut(material_code(class.groups())) {
                *slot = Some((Some(layout), table));
            }
        }
        sources.files = outside.files;
        sources.men_leave = outside.level;
        sources
    }

    /// The stored value of `p` (`plies + 1`, 0 for a draw; a side without pieces has lost).
    /// A class not held, or men outside its layout, set the guard's flag, which fails the
    /// analysis: such positions are never read as draws.
    fn value(&self, p: Pieces, guard: &Guard) -> u16 {
        let groups = p.groups.map(|g| g.count_ones() as usize);
        let own = match p.side {
            Color::Red => groups[0] + groups[1],
            Color::Black => groups[2] + groups[3],
        };
        if own == 0 {
            return 1;
        }
        if !index::placeable(p) {
            // Only from an unused slot of a plain index (a man on its crowning row), whose
            // value is never read.
            return 0;
        }
        let found = match self
            .by_material
            .get(material_code(groups))
            .copied()
            .flatten()
        {
            Some((None, table)) => Some(table.get(p.index())),
            Some((Some(layout), table)) => layout.index(p).map(|i| table.get(i)),
            None => self
                .files
                .and_then(|(probe, store)| probe.raw(store, p, p.material())),
        };
        found.unwrap_or_else(|| {
            guard.note_missing();
            0
        })
    }

    /// The best result over the capture sequences of a position whose side to move must
    /// capture, from the classes they lead to.
    fn capture_outcome(&self, p: Pieces, guard: &Guard) -> Outcome {
        let mut outcome = Outcome::NONE;
        captures(p, &mut |child| outcome.add(self.value(child, guard)));
        outcome
    }

    /// The first pass's view of position `p`: settled from the classes its captures lead to
    /// when it has a jump, lost when it has no move, else its moves within the class counted.
    fn initial(&self, p: Pieces, guard: &Guard) -> Start {
        if has_jump(p) {
            return Start::Settled(self.capture_outcome(p, guard).value());
        }
        let mut crowning = Outcome::NONE;
        let mut crownings = 0;
        let within = steps(p, self.men_leave, &mut |from, to, king| {
            crownings += 1;
            crowning.add(self.value(p.after(from, to, king, 0), guard));
        });
        if within == 0 {
            // Only moves out of the layout (crownings, men steps of a level), or none at all
            // (lost now).
            return Start::Settled(if crownings == 0 {
                Some(0)
            } else {
                crowning.value()
            });
        }
        let keeps_going = u16::from(crowning.best_win.is_some() || crowning.draw);
        Start::Open {
            count: (within + keeps_going) as u8,
            crowning_loss: crowning.longest_loss,
            crowning_win: crowning.best_win,
        }
    }
}

/// One round of the backward pass at `plies`: the predecessors of the positions of `round`
/// (all settled at `plies`), bucketed by block, then each block's updates applied by one task.
/// Returns the positions settled at `plies + 1`, and the losses deferred by a crowning move
/// that loses later, with their distance.
fn backward_round(
    layout: &Layout,
    round: &[u32],
    plies: usize,
    value: &mut [u8],
    count: &mut [u8],
    crown: &[u8],
    guard: &Guard,
) -> (Vec<u32>, Vec<(usize, u32)>) {
    let blocks = value.len().div_ceil(1 << BLOCK_BITS);
    let buckets: Vec<Vec<Vec<u32>>> = round
        .par_chunks(ROUND_CHUNK)
        .map(|chunk| {
            let mut out = vec![Vec::new(); blocks];
            if guard.stop() {
                return out;
            }
            for &k in chunk {
                predecessors(layout, layout.decode(k as usize), &mut |j| {
                    out[j >> BLOCK_BITS].push(j as u32);
                });
            }
            out
        })
        .collect();
    let won = plies % 2 == 1;
    let settled_value = (plies + 2) as u8;
    let block = 1 << BLOCK_BITS;
    value
        .par_chunks_mut(block)
        .zip(count.par_chunks_mut(block))
        .zip(crown.par_chunks(block))
        .enumerate()
        .fold(
            || (Vec::new(), Vec::new()),
            |(mut next, mut later), (b, ((value, count), crown))| {
                let base = b << BLOCK_BITS;
                for task in &buckets {
                    for &j in &task[b] {
                        let k = j as usize - base;
                        if count[k] == SETTLED {
                            continue;
                        }
                        if won {
                            // A step into a won position: one fewer move left that does not
                            // lose. The last one settles a loss, at its longest (or later, when
                            // a crowning move loses later still).
                            count[k] -= 1;
                            if count[k] != 0 {
                                continue;
                            }
                            let crowning = usize::from(crown[k]);
                            if crowning > plies + 1 {
                                later.push((crowning, j));
                                continue;
                            }
                        }
                        // A step into a lost position wins, found at its shortest.
                        count[k] = SETTLED;
                        value[k] = settled_value;
                        next.push(j);
                    }
                }
                (next, later)
            },
        )
        .reduce(
            || (Vec::new(), Vec::new()),
            |(mut a, mut b), (c, d)| {
                a.extend(c);
                b.extend(d);
                (a, b)
            },
        )
}

/// Calls `found` with the index of every predecessor of `k` within `layout`: positions of the
/// other side to move from which a step (not a capture, not a crowning) leads to `k`. A
/// predecessor whose men a listed group does not hold has no slot and is skipped.
fn predecessors(layout: &Layout, k: Pieces, found: &mut impl FnMut(usize)) {
    let before = Pieces {
        groups: k.groups,
        side: k.side.opponent(),
    };
    // The side that moved into `k`: a king stepped in from any neighbour, a man from behind
    // (a man on its crowning row would have been crowned, so it did not just step there).
    let m = before.mover();
    let empty = !k.occupied();
    let (kings_group, men_group) = match before.side {
        Color::Red => (0, 1),
        Color::Black => (2, 3),
    };
    // Only the moving group's rank differs between the predecessors: the rest of the index is
    // computed once.
    let mut ranks = [0usize; 4];
    if layout.tight.is_none() {
        for (g, r) in ranks.iter_mut().enumerate() {
            match layout.rank(g, k.groups[g]) {
                Some(x) => *r = x,
                None => return,
            }
        }
    }
    let all: usize = (0..4).map(|g| ranks[g] * layout.weights[g]).sum();
    let side_bit = usize::from(before.side == Color::Black);
    let mut visit = |group: usize, to: u32, from: u8| {
        let moved = (k.groups[group] & !(1 << to)) | (1 << from);
        if layout.halved || layout.tight.is_some() {
            // Black's turn: its slot is red's with the colours exchanged.
            let mut groups = k.groups;
            groups[group] = moved;
            if let Some(i) = layout.index(Pieces {
                groups,
                side: before.side,
            }) {
                found(i);
            }
        } else if let Some(r) = layout.rank(group, moved) {
            let digits = all - ranks[group] * layout.weights[group] + r * layout.weights[group];
            found((digits << 1) | side_bit);
        }
    };
    for to in cells(m.kings) {
        for from in NEXT[to as usize] {
            if from != NONE && (empty >> from) & 1 != 0 {
                visit(kings_group, to, from);
            }
        }
    }
    let backward = match before.side {
        Color::Red => BLACK_FORWARD,
        Color::Black => RED_FORWARD,
    };
    for to in cells(m.men & !m.crown) {
        for d in backward {
            let from = NEXT[to as usize][d];
            if from != NONE && (empty >> from) & 1 != 0 {
                visit(men_group, to, from);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tight index holds exactly the values the plain one (every group over all 32 cells,
    /// the index before it) computes, for every class of up to four pieces and its mirrored
    /// class, position by position.
    #[test]
    fn the_tight_index_agrees_with_the_plain_one() {
        let mut db = EndgameDb::default();
        let guard = Guard::until(None);
        let classes = Material::all_up_to(4, MAX_GROUP);
        for &class in classes.iter().filter(|c| c.is_canonical()) {
            let table = db.build(class, &guard).expect("built");
            db.insert_class(class, table);
        }
        let mut compared = 0;
        let mut decided = 0;
        for &class in &classes {
            let plain = Layout::plain(class);
            let values = db.analyse(class, &plain, &guard).expect("analysed");
            for (i, &value) in values.iter().enumerate() {
                let p = plain.decode(i);
                if !index::placeable(p) {
                    continue;
                }
                assert_eq!(db.raw(p), Some(u16::from(value)), "{class} {p:?}");
                compared += 1;
                decided += usize::from(value != 0);
            }
        }
        assert!(
            compared > 1_000_000 && decided > 500_000,
            "{compared} {decided}"
        );
    }

    /// A halved class holds the same values as the whole one, for both sides to move: two
    /// kings against two (each position of black's turn read as red's with the colours
    /// exchanged), and the predecessors of red's turns found in black's slots.
    #[test]
    fn a_halved_class_has_the_whole_class_values() {
        let mut db = EndgameDb::default();
        let guard = Guard::until(None);
        let classes = Material::all_up_to(4, MAX_GROUP);
        let two_each = *classes
            .iter()
            .find(|c| c.groups() == [2, 0, 2, 0])
            .expect("2K v 2K");
        for &class in classes.iter().filter(|c| c.reds() + c.blacks() < 4) {
            if class.groups()[1] + class.groups()[3] == 0 {
                let table = db.build(class, &guard).expect("built");
                db.insert_class(class, table);
            }
        }
        let whole = Layout::whole(two_each);
        let halved = Layout::halved(two_each);
        assert_eq!(halved.slots() * 2, whole.slots());
        let full = db.analyse(two_each, &whole, &guard).expect("analysed");
        let half = db.analyse(two_each, &halved, &guard).expect("analysed");
        let mut decided = 0;
        for (i, &value) in full.iter().enumerate() {
            let p = whole.decode(i);
            if overlaps(p) {
                continue;
            }
            let j = halved.index(p).expect("every position has a slot");
            assert_eq!(half[j], value, "{p:?}");
            decided += usize::from(value != 0);
        }
        assert!(decided > 10_000, "many won or lost positions ({decided})");
    }
}
