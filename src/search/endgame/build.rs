//! The retrograde analysis that fills one class of a database.

use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::rules::piece::Color;

use super::cells::{cells, combinations, rank, BLACK_FORWARD, NEXT, NONE, RED_FORWARD};
use super::pieces::{captures, has_jump, steps, Material, Pieces};
use super::{BuildError, EndgameDb};

/// What makes a build give up: a deadline, read between the passes and in every task of a pass,
/// with the flag that tells the other tasks once one has seen it pass; and a look-up into a
/// smaller class that is not built. A build that gives up leaves nothing behind, so the classes
/// held are always complete.
#[derive(Debug, Default)]
pub(super) struct Guard {
    deadline: Option<Instant>,
    hit: AtomicBool,
    missing: AtomicBool,
}

impl Guard {
    pub(super) fn until(deadline: Option<Instant>) -> Guard {
        Guard {
            deadline,
            hit: AtomicBool::new(false),
            missing: AtomicBool::new(false),
        }
    }

    /// Whether the build must stop now (the deadline has passed, here or in another task).
    pub(super) fn stop(&self) -> bool {
        if self.hit.load(Ordering::Relaxed) {
            return true;
        }
        let passed = self.deadline.is_some_and(|d| Instant::now() >= d);
        if passed {
            self.hit.store(true, Ordering::Relaxed);
        }
        passed
    }

    /// Whether a look-up found a class missing (the build must fail).
    pub(super) fn found_missing(&self) -> bool {
        self.missing.load(Ordering::Relaxed)
    }
}

/// Flag of a settled position during the analysis.
pub(super) const SETTLED: u16 = 0x8000;

/// Bitmap words (of 32 positions) per task when one distance's positions are shared out over
/// the rayon pool.
pub(super) const BITMAP_CHUNK: usize = 512;

/// The list of positions at `distance`, the lists growing as far as needed.
pub(super) fn at(lists: &mut Vec<Vec<u32>>, distance: usize) -> &mut Vec<u32> {
    if lists.len() <= distance {
        lists.resize_with(distance + 1, Vec::new);
    }
    &mut lists[distance]
}

/// The best result over some of a position's moves.
#[derive(Clone, Copy, Debug)]
pub(super) struct Outcome {
    /// Plies of the fastest win found.
    pub(super) best_win: Option<usize>,
    /// Plies of the slowest loss found (0 when none).
    pub(super) longest_loss: usize,
    /// Whether some move leads to a draw.
    pub(super) draw: bool,
}

impl Outcome {
    pub(super) const NONE: Outcome = Outcome {
        best_win: None,
        longest_loss: 0,
        draw: false,
    };

    /// Adds a move into a position (the opponent to move) of stored value `raw`.
    pub(super) fn add(&mut self, raw: u16) {
        match raw {
            0 => self.draw = true,
            v if (v - 1) % 2 == 0 => {
                let plies = usize::from(v);
                self.best_win = Some(self.best_win.map_or(plies, |b| b.min(plies)));
            }
            v => self.longest_loss = self.longest_loss.max(usize::from(v)),
        }
    }

    /// The value when these are all the moves: plies to the end, `None` for a draw.
    pub(super) fn value(self) -> Option<usize> {
        match (self.best_win, self.draw) {
            (Some(w), _) => Some(w),
            (None, true) => None,
            (None, false) => Some(self.longest_loss),
        }
    }
}

/// Counts the backward moves from `k`, settled at `plies`, into its predecessors in the class.
/// Each predecessor this settles at `plies + 1` is passed to `settled`; one that has now lost
/// but whose crowning moves lose later is passed to `deferred` with its distance.
fn settle_predecessors(
    word: &[AtomicU16],
    crown_loss: Option<&[AtomicU16]>,
    k: Pieces,
    plies: usize,
    settled: &mut impl FnMut(u32),
    deferred: &mut impl FnMut(usize, u32),
) {
    let won = plies % 2 == 1;
    let value = SETTLED | (plies as u16 + 2);
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
    let weights = k.material().weights();
    let ranks = k.groups.map(rank);
    let all: usize = (0..4).map(|g| ranks[g] as usize * weights[g]).sum();
    let side_bit = usize::from(before.side == Color::Black);
    let mut visit = |group: usize, to: u32, from: u8| {
        let moved = (k.groups[group] & !(1 << to)) | (1 << from);
        let digits =
            all - ranks[group] as usize * weights[group] + rank(moved) as usize * weights[group];
        let index = (digits << 1) | side_bit;
        debug_assert_eq!(index, {
            let mut groups = k.groups;
            groups[group] = moved;
            Pieces {
                groups,
                side: before.side,
            }
            .index()
        });
        let w = &word[index];
        let current = w.load(Ordering::Relaxed);
        // Settled already, or a position with a jump, where a step was not legal.
        if current & SETTLED != 0 {
            return;
        }
        // A step into a lost position is a win, found at its shortest. A step into a won
        // position counts down; the last one settles a loss, at its longest (or later, when a
        // crowning move loses later still). Positions of one distance are all won or all
        // lost, so the two never race with each other.
        if won {
            if w.fetch_sub(1, Ordering::Relaxed) != 1 {
                return;
            }
            let crowning = crown_loss.map_or(0, |c| usize::from(c[index].load(Ordering::Relaxed)));
            if crowning > plies + 1 {
                deferred(crowning, index as u32);
                return;
            }
            w.store(value, Ordering::Relaxed);
            settled(index as u32);
        } else if w
            .compare_exchange(current, value, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            settled(index as u32);
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

impl EndgameDb {
    /// Retrograde analysis of one class, the classes its captures and crownings lead to being
    /// built.
    ///
    /// Each position's word holds, until it is settled, the number of its moves within the class
    /// not yet known to lose (plus one that never goes, when a crowning move wins or draws);
    /// once settled, [`SETTLED`] plus its value. A second word per position, for classes with
    /// men, keeps how late its crowning moves lose. Both passes run on the rayon pool:
    /// positions of one distance are independent, so the values do not depend on the threads.
    ///
    /// Fails when `cancel` says to stop, and when a class a capture or a crowning leads to is not
    /// built (a caller's bug that would otherwise read those positions as draws).
    pub(super) fn build(&self, class: Material, guard: &Guard) -> Result<Vec<u16>, BuildError> {
        if let Some(missing) = class
            .reachable()
            .into_iter()
            .find(|c| *c != class && !self.classes.contains_key(c))
        {
            return Err(BuildError::MissingClass(missing.to_string()));
        }
        if guard.stop() {
            return Err(BuildError::Cancelled);
        }
        let lists: Vec<Vec<u32>> = class
            .groups()
            .iter()
            .map(|&n| combinations(32, n))
            .collect();
        let radix: Vec<usize> = lists.iter().map(Vec::len).collect();
        let per_first = 2 * radix[1] * radix[2] * radix[3];
        let slots = radix[0] * per_first;
        let word: Vec<AtomicU16> = (0..slots).map(|_| AtomicU16::new(0)).collect();
        let has_men = class.has_men();
        let crown_loss: Option<Vec<AtomicU16>> =
            has_men.then(|| (0..slots).map(|_| AtomicU16::new(0)).collect());
        let decode = |i: u32| {
            let i = i as usize;
            let side = if i & 1 == 0 { Color::Red } else { Color::Black };
            let mut rest = i >> 1;
            let mut groups = [0u32; 4];
            for g in (0..4).rev() {
                // Empty groups (radix 1) are common: skip their division.
                if radix[g] > 1 {
                    groups[g] = lists[g][rest % radix[g]];
                    rest /= radix[g];
                }
            }
            Pieces { groups, side }
        };
        // Settled positions by distance, and positions due to settle at a distance if nothing
        // settles them sooner (wins by crowning, losses deferred by a crowning move).
        let (mut by_distance, mut due) = (0..radix[0])
            .into_par_iter()
            .fold(
                || (Vec::new(), Vec::new()),
                |(mut settled, mut due), first| {
                    if guard.stop() {
                        return (settled, due);
                    }
                    let range = first * per_first..(first + 1) * per_first;
                    self.first_pass(
                        guard,
                        &lists,
                        first,
                        &word[range.clone()],
                        crown_loss.as_deref().map(|c| &c[range.clone()]),
                        range.start,
                        &mut settled,
                        &mut due,
                    );
                    (settled, due)
                },
            )
            .reduce(
                || (Vec::new(), Vec::new()),
                |(a1, a2), (b1, b2)| (merge(a1, b1), merge(a2, b2)),
            );
        let mut bits = vec![0u32; slots.div_ceil(32)];
        let mut plies = 0;
        while plies < by_distance.len().max(due.len()) {
            if guard.stop() {
                return Err(BuildError::Cancelled);
            }
            // Positions due now settle unless something settled them sooner.
            if let Some(list) = due.get_mut(plies) {
                let target = SETTLED | (plies as u16 + 1);
                for i in std::mem::take(list) {
                    let w = &word[i as usize];
                    let current = w.load(Ordering::Relaxed);
                    if current & SETTLED == 0 {
                        w.store(target, Ordering::Relaxed);
                        at(&mut by_distance, plies).push(i);
                    }
                }
            }
            // In index order, consecutive positions share most of their predecessors' blocks of
            // the table, which then stay in cache: a third less time than in settling order. A
            // bitmap of the class puts them in order without sorting, and is left cleared.
            for i in std::mem::take(at(&mut by_distance, plies)) {
                bits[i as usize / 32] |= 1 << (i % 32);
            }
            let (next, later) = bits
                .par_chunks_mut(BITMAP_CHUNK)
                .enumerate()
                .fold(
                    || (Vec::new(), Vec::new()),
                    |(mut next, mut later), (c, chunk)| {
                        if guard.stop() {
                            return (next, later);
                        }
                        for (w, word_bits) in chunk.iter_mut().enumerate() {
                            let base = ((c * BITMAP_CHUNK + w) * 32) as u32;
                            for bit in cells(std::mem::take(word_bits)) {
                                settle_predecessors(
                                    &word,
                                    crown_loss.as_deref(),
                                    decode(base + bit),
                                    plies,
                                    &mut |j| next.push(j),
                                    &mut |d, j| later.push((d, j)),
                                );
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
                );
            if !next.is_empty() {
                at(&mut by_distance, plies + 1).extend(next);
            }
            for (d, j) in later {
                at(&mut due, d).push(j);
            }
            plies += 1;
        }
        if guard.stop() {
            return Err(BuildError::Cancelled);
        }
        if guard.missing.load(Ordering::Relaxed) {
            return Err(BuildError::MissingClass(format!(
                "one that {class} leads to"
            )));
        }
        Ok(word
            .into_iter()
            .map(|w| {
                let w = w.into_inner();
                if w & SETTLED != 0 {
                    w & !SETTLED
                } else {
                    0
                }
            })
            .collect())
    }

    /// Initial words of the positions whose first group is the `first`-th combination: positions
    /// with a jump are settled from the classes their captures lead to, positions without a move
    /// are lost, the others count their moves. Settled positions go to `settled` and wins by
    /// crowning to `due`, by distance.
    #[allow(clippy::too_many_arguments)]
    fn first_pass(
        &self,
        guard: &Guard,
        lists: &[Vec<u32>],
        first: usize,
        chunk: &[AtomicU16],
        crown_chunk: Option<&[AtomicU16]>,
        base: usize,
        settled: &mut Vec<Vec<u32>>,
        due: &mut Vec<Vec<u32>>,
    ) {
        let g0 = lists[0][first];
        let mut offset = 0;
        for &g1 in &lists[1] {
            for &g2 in &lists[2] {
                for &g3 in &lists[3] {
                    let groups = [g0, g1, g2, g3];
                    let overlap = g0 & g1 != 0 || (g0 | g1) & g2 != 0 || (g0 | g1 | g2) & g3 != 0;
                    for side in [Color::Red, Color::Black] {
                        let here = offset;
                        offset += 1;
                        if overlap {
                            continue;
                        }
                        let p = Pieces { groups, side };
                        let index = (base + here) as u32;
                        // A settled word: its value, and the position listed at its distance.
                        let mut settle = |value: Option<usize>| match value {
                            Some(plies) => {
                                at(settled, plies).push(index);
                                SETTLED | (plies as u16 + 1)
                            }
                            None => SETTLED,
                        };
                        let w = if has_jump(p) {
                            settle(self.capture_outcome(p, guard).value())
                        } else {
                            let mut crowning = Outcome::NONE;
                            let mut crownings = 0;
                            let within = steps(p, &mut |from, to| {
                                crownings += 1;
                                let child = p.after(from, to, true, 0);
                                crowning.add(self.built(child, guard));
                            });
                            if within == 0 {
                                // Only crowning moves, or none at all (lost now).
                                settle(if crownings == 0 {
                                    Some(0)
                                } else {
                                    crowning.value()
                                })
                            } else {
                                if let Some(win) = crowning.best_win {
                                    at(due, win).push(index);
                                }
                                if let Some(c) = crown_chunk {
                                    c[here].store(crowning.longest_loss as u16, Ordering::Relaxed);
                                }
                                let keeps_going =
                                    u16::from(crowning.best_win.is_some() || crowning.draw);
                                within + keeps_going
                            }
                        };
                        chunk[here].store(w, Ordering::Relaxed);
                    }
                }
            }
        }
    }

    /// The best result over the capture sequences of a position whose side to move must
    /// capture, from the classes they lead to.
    pub(super) fn capture_outcome(&self, p: Pieces, guard: &Guard) -> Outcome {
        let mut outcome = Outcome::NONE;
        captures(p, &mut |child| outcome.add(self.built(child, guard)));
        outcome
    }

    /// The stored value of `p`, whose class is built before any class that leads to it.
    /// A missing class sets the guard's flag, which fails the build: its positions are never
    /// read as draws.
    pub(super) fn built(&self, p: Pieces, guard: &Guard) -> u16 {
        self.raw(p).unwrap_or_else(|| {
            guard.missing.store(true, Ordering::Relaxed);
            0
        })
    }
}

/// Concatenates two lists of lists, index by index.
pub(super) fn merge(mut a: Vec<Vec<u32>>, b: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    if a.len() < b.len() {
        a.resize_with(b.len(), Vec::new);
    }
    for (into, from) in a.iter_mut().zip(b) {
        into.extend(from);
    }
    a
}
