//! A depth-bounded df-pn (depth-first proof-number search) for the backward pass's questions
//! (issue 23): "does the attacker win within `d` plies?".
//!
//! It answers the same questions as the alpha-beta proof (`proof`) and is far cheaper
//! where the answer is yes and its proof tree is narrow for the attacker (a shorter win, or every
//! move losing within a bound), because it expands the most promising leaf rather than a depth
//! order. Its table is keyed by position and attacker, not by the bound: a proof within `d`
//! plies holds within any longer bound, and a disproof within `d` holds within any shorter one,
//! so what one question settles serves the next bound and the next question.
//!
//! Two things save work: unexplored positions start from their mobility (as many to
//! prove as the defender has moves, as many to disprove as the attacker has), and within two
//! plies of the bound the answer is read off the moves without the table. Exact: checked
//! against the independent analyser (`tests/engine/dfpn.rs`).

use crate::rules::movegen::{self, Routes};
use crate::rules::moves::MoveList;
use crate::rules::position::Position;
use crate::search::endgame::EndgameDb;
use crate::search::stop::Stop;
use crate::search::tt::Words;

use super::lockstep::Runner;
use crate::search::knobs::{DFPN_BUCKET_BITS, DFPN_CLOCK_INTERVAL};

/// Infinite proof or disproof number.
const INF: u32 = (1 << 28) - 1;

/// Entries per bucket.
const WAYS: usize = 4;

/// The attacker's proof and disproof numbers of a position.
type Numbers = (u32, u32);

fn pack(d: u32, (pn, dn): Numbers) -> u64 {
    (u64::from(pn) << 36) | (u64::from(dn) << 8) | u64::from(d.min(255))
}

fn unpack(v: u64) -> (u32, Numbers) {
    (
        (v & 0xFF) as u32,
        ((v >> 36) as u32, ((v >> 8) as u32) & INF),
    )
}

/// What the table says of a position at bound `d` from an entry stored at bound `at`.
fn reading(at: u32, (pn, dn): Numbers, d: u32) -> Option<Numbers> {
    if pn == 0 && at <= d {
        Some((0, INF))
    } else if dn == 0 && at >= d {
        Some((INF, 0))
    } else if at == d && pn != 0 && dn != 0 {
        Some((pn, dn))
    } else {
        None
    }
}

/// The answer to one question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The attacker wins within the bound.
    Proven,
    /// It does not.
    Disproven,
    /// The node limit (or the stop) came first.
    Unknown,
}

/// A depth-bounded df-pn with its table; the table lives as long as the searcher, across
/// questions.
pub struct Dfpn {
    /// Entries of two words (key, numbers), four a bucket of one cache line, on huge pages
    /// where the system gives them ([`Words`]).
    table: Words,
    /// Buckets less one (a power of two less one).
    mask: usize,
    /// Positions whose moves were generated, over the searcher's life.
    pub nodes: u64,
    stop_at: u64,
    aborted: bool,
    /// Node count at which the clock is next read (every [`DFPN_CLOCK_INTERVAL`] nodes; a node near
    /// the bound counts its children too, so the count can step past a multiple).
    next_clock: u64,
    /// Read at `next_clock`: the deadline or a stop from outside.
    pub(super) deadline: Option<std::time::Instant>,
    pub(super) stop: Stop,
    /// While it races the alpha-beta proof on a question: its side of the race.
    pub(super) race: Option<Runner>,
}

impl Dfpn {
    /// A searcher with an empty table.
    #[must_use]
    pub fn new() -> Dfpn {
        // The full size, or the largest power of two below it the memory allows.
        let (table, bits) = (0..=DFPN_BUCKET_BITS)
            .rev()
            .find_map(|bits| Words::zeroed((2 * WAYS) << bits).map(|t| (t, bits)))
            .unwrap_or_else(|| (Words::Heap(vec![0; 2 * WAYS]), 0));
        Dfpn {
            table,
            mask: (1 << bits) - 1,
            nodes: 0,
            stop_at: u64::MAX,
            aborted: false,
            next_clock: DFPN_CLOCK_INTERVAL,
            deadline: None,
            stop: Stop::default(),
            race: None,
        }
    }

    /// Whether the side to move in `pos` wins within `n` plies (`n` odd) or loses within `n`
    /// (`n` even), within `limit` nodes, with no endgame databases.
    pub fn bound(&mut self, pos: &Position, n: u32, limit: u64) -> Answer {
        if n == 0 {
            // Lost at once: only when it has no move.
            return if has_moves(pos) {
                Answer::Disproven
            } else {
                Answer::Proven
            };
        }
        let children: Vec<Position> = movegen::legal_moves(pos)
            .iter()
            .map(|&m| pos.play(m))
            .collect();
        self.ask(&children, n - 1, n % 2 == 0, limit, None).0
    }

    /// The root's question over `children`, the positions after the root's moves in question,
    /// each with `d` plies left: for `all`, whether the root's mover loses within `d + 1` plies
    /// whatever it plays (every child a win for its mover within `d`); otherwise whether one of
    /// its moves wins within `d + 1` (a child lost for its mover within `d`). Within `limit`
    /// nodes; `endgame` answers the positions it covers. With the answer, the child that decided
    /// it, if any: a winning one, or (for `all`) one that does not lose.
    pub fn ask(
        &mut self,
        children: &[Position],
        d: u32,
        all: bool,
        limit: u64,
        endgame: Option<&EndgameDb>,
    ) -> (Answer, Option<usize>) {
        self.stop_at = self.nodes.saturating_add(limit);
        self.aborted = false;
        // The root: for `all` the children are OR nodes of the opponent (the attacker); the root
        // is an AND node. Otherwise the root's mover attacks: an OR node over AND children.
        let attacker_red = match children.first() {
            Some(c) => {
                let child_mover_red = c.side_to_move() == crate::rules::piece::Color::Red;
                if all {
                    child_mover_red
                } else {
                    !child_mover_red
                }
            }
            None => {
                return (
                    if all {
                        Answer::Proven
                    } else {
                        Answer::Disproven
                    },
                    None,
                )
            }
        };
        let ctx = Ctx {
            attacker_red,
            endgame,
        };
        let or = !all;
        let mut numbers = self.look_all(&ctx, children, d, !or);
        loop {
            let (pn, dn, best, b2) = combine(&numbers, or);
            if pn == 0 || dn == 0 || self.aborted {
                let answer = if pn == 0 {
                    Answer::Proven
                } else if dn == 0 {
                    Answer::Disproven
                } else {
                    Answer::Unknown
                };
                // The child that decided: the winning move (any), or the refuting one (all).
                let decider = numbers.iter().position(|&(cpn, cdn)| {
                    if answer == Answer::Proven && or {
                        cpn == 0
                    } else if answer == Answer::Disproven && !or {
                        cdn == 0
                    } else {
                        false
                    }
                });
                return (answer, decider);
            }
            let (cpn, cdn) = numbers[best];
            let (tpn, tdn) = thresholds(or, INF - 1, INF - 1, pn, dn, cpn, cdn, b2);
            numbers[best] = self.mid(&ctx, &children[best], d, !or, tpn, tdn);
        }
    }

    fn key(ctx: &Ctx, pos: &Position) -> u64 {
        let salt = if ctx.attacker_red {
            0x9E37_79B9_7F4A_7C15
        } else {
            0
        };
        (pos.hash() ^ salt) | 1
    }

    fn bucket(&self, key: u64) -> usize {
        ((key >> 1) as usize & self.mask) * WAYS
    }

    fn entries(&self) -> &[[u64; 2]] {
        bytemuck::cast_slice(&self.table)
    }

    /// The numbers of each of `children` ([`look`](Self::look)). The first word of each
    /// child's bucket is read first, one independent load after another, so that their cache
    /// misses overlap before the buckets are read one at a time (the wait on each miss was 80%
    /// of the look-up's time; there is no safe prefetch instruction).
    fn look_all(&self, ctx: &Ctx, children: &[Position], d: u32, or: bool) -> Vec<Numbers> {
        let entries = self.entries();
        let heads = children
            .iter()
            .fold(0, |acc, c| acc ^ entries[self.bucket(Self::key(ctx, c))][0]);
        std::hint::black_box(heads);
        children.iter().map(|c| self.look(ctx, c, d, or)).collect()
    }

    fn look(&self, ctx: &Ctx, pos: &Position, d: u32, or: bool) -> Numbers {
        let d = parity(d, or);
        let key = Self::key(ctx, pos);
        let b = self.bucket(key);
        for slot in &self.entries()[b..b + WAYS] {
            if slot[0] == key {
                let (at, numbers) = unpack(slot[1]);
                if let Some(numbers) = reading(at, numbers, d) {
                    return numbers;
                }
                break;
            }
        }
        // Unexplored: as many to disprove (the attacker to move) or to prove (the defender)
        // as the mover has moves.
        let n = (movegen::count_moves(pos, Routes::All) as u32).clamp(1, 64);
        if or {
            (1, n)
        } else {
            (n, 1)
        }
    }

    fn store(&mut self, ctx: &Ctx, pos: &Position, d: u32, numbers: Numbers) {
        let key = Self::key(ctx, pos);
        let b = self.bucket(key);
        let settled = |(pn, dn): Numbers| pn == 0 || dn == 0;
        let bucket = &mut bytemuck::cast_slice_mut::<u64, [u64; 2]>(&mut self.table)[b..b + WAYS];
        let slot = if let Some(i) = bucket.iter().position(|s| s[0] == key) {
            let (at, old) = unpack(bucket[i][1]);
            // A settled result stays unless the new one is settled too and at least as general.
            if settled(old) {
                let keep = if !settled(numbers) {
                    true
                } else if old.0 == 0 && numbers.0 == 0 {
                    at <= d
                } else if old.1 == 0 && numbers.1 == 0 {
                    at >= d
                } else {
                    false
                };
                if keep {
                    return;
                }
            }
            i
        } else if let Some(i) = bucket.iter().position(|s| s[0] == 0) {
            i
        } else if let Some(i) = bucket.iter().position(|s| !settled(unpack(s[1]).1)) {
            i
        } else {
            (key >> 40) as usize % WAYS
        };
        bucket[slot] = [key, pack(d, numbers)];
    }

    /// The attacker's numbers of `pos` (its mover attacks when `or`) at bound `d`, searched
    /// until they reach a threshold.
    fn mid(
        &mut self,
        ctx: &Ctx,
        pos: &Position,
        d: u32,
        or: bool,
        thpn: u32,
        thdn: u32,
    ) -> Numbers {
        if self.nodes >= self.next_clock {
            self.next_clock = self.nodes + DFPN_CLOCK_INTERVAL;
            let nodes = self.nodes;
            if self.stop.is_set_or_past(self.deadline)
                || self.race.as_mut().is_some_and(|r| r.must_stop(nodes))
            {
                self.aborted = true;
            }
        }
        if self.nodes >= self.stop_at || self.aborted {
            self.aborted = true;
            return (1, 1);
        }
        self.nodes += 1;
        let d = parity(d, or);
        if let Some(score) = ctx.endgame.and_then(|db| db.score(pos, 0)) {
            let v = match score.plies_to_end() {
                Some(n) if n <= d && score.is_win() == or => (0, INF),
                _ => (INF, 0),
            };
            self.store(ctx, pos, d, v);
            return v;
        }
        let mut moves = MoveList::new();
        movegen::generate(pos, Routes::Distinct, &mut moves);
        if moves.is_empty() || d == 0 {
            // No move: the side to move lost. Moves left at the bound: no win within it.
            let v = if moves.is_empty() && !or {
                (0, INF)
            } else {
                (INF, 0)
            };
            self.store(ctx, pos, d, v);
            return v;
        }
        // Near the bound the answer is read off the moves, without the table: the attacker
        // with one ply left wins only by leaving the defender no move, and the defender with two
        // left loses only if every move of its allows that.
        if d <= 2 {
            let proven = if or {
                moves.iter().any(|&m| !has_moves(&pos.play(m)))
            } else {
                moves.iter().all(|&m| {
                    self.nodes += 1;
                    mate_in_one(&pos.play(m))
                })
            };
            let v = if proven { (0, INF) } else { (INF, 0) };
            self.store(ctx, pos, d, v);
            return v;
        }
        let children: Vec<Position> = moves.iter().map(|&m| pos.play(m)).collect();
        let mut numbers = self.look_all(ctx, &children, d - 1, !or);
        loop {
            let (pn, dn, best, b2) = combine(&numbers, or);
            if pn >= thpn || dn >= thdn || pn == 0 || dn == 0 || self.aborted {
                if !self.aborted || pn == 0 || dn == 0 {
                    self.store(ctx, pos, d, (pn, dn));
                }
                return (pn, dn);
            }
            let (cpn, cdn) = numbers[best];
            let (tpn, tdn) = thresholds(or, thpn, thdn, pn, dn, cpn, cdn, b2);
            numbers[best] = self.mid(ctx, &children[best], d - 1, !or, tpn, tdn);
        }
    }
}

impl Default for Dfpn {
    fn default() -> Self {
        Dfpn::new()
    }
}

/// Whether the side to move has a legal move.
fn has_moves(pos: &Position) -> bool {
    movegen::has_jump(pos) || movegen::count_moves(pos, Routes::All) > 0
}

/// Whether the side to move can leave its opponent without a move.
fn mate_in_one(pos: &Position) -> bool {
    let mut moves = MoveList::new();
    movegen::generate(pos, Routes::Distinct, &mut moves);
    moves.iter().any(|&m| !has_moves(&pos.play(m)))
}

/// The bound `d` of a node whose mover attacks (`or`) or defends, less the ply that cannot
/// matter: the attacker wins only on the defender's turn, an odd number of plies from its own.
fn parity(d: u32, or: bool) -> u32 {
    if d > 0 && (d % 2 == 1) != or {
        d - 1
    } else {
        d
    }
}

/// What a search keeps fixed: whose win it asks, and the databases.
struct Ctx<'a> {
    attacker_red: bool,
    endgame: Option<&'a EndgameDb>,
}

/// A node's numbers from its children's: (pn, dn, the child to search, the second best of the
/// quantity the choice minimises).
fn combine(numbers: &[Numbers], or: bool) -> (u32, u32, usize, u32) {
    let mut best = 0usize;
    let (mut b1, mut b2) = (INF, INF);
    let mut sum = 0u32;
    for (i, &(cpn, cdn)) in numbers.iter().enumerate() {
        // OR node: its pn is the least child pn, its dn the sum; AND: the reverse.
        let (k, add) = if or { (cpn, cdn) } else { (cdn, cpn) };
        sum = (sum + add).min(INF);
        if k < b1 {
            b2 = b1;
            b1 = k;
            best = i;
        } else if k < b2 {
            b2 = k;
        }
    }
    if or {
        (b1, sum, best, b2)
    } else {
        (sum, b1, best, b2)
    }
}

/// The best child's thresholds (Nagai's, with the 1 + epsilon widening of the second best).
#[allow(clippy::too_many_arguments)]
fn thresholds(
    or: bool,
    thpn: u32,
    thdn: u32,
    pn: u32,
    dn: u32,
    cpn: u32,
    cdn: u32,
    b2: u32,
) -> Numbers {
    let widened = b2.saturating_add(b2 / 4).saturating_add(1).min(INF - 1);
    if or {
        (
            thpn.min(widened),
            thdn.saturating_sub(dn).saturating_add(cdn).min(INF - 1),
        )
    } else {
        (
            thpn.saturating_sub(pn).saturating_add(cpn).min(INF - 1),
            thdn.min(widened),
        )
    }
}
