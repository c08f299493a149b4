//! Depth-first proof-number search (df-pn) for the proof search's questions: does the side to
//! move win within `n` plies (`n` odd), or lose within `n` (`n` even)?
//!
//! Each question names an *attacker*, the side that must end the game by its own move within the
//! bound, and a *defender*. A node is a position with the plies that remain; the attacker is to
//! move exactly when the remaining plies are odd (at the root of a win question `n` is odd and the
//! attacker moves; at the root of a loss question `n` is even and the defender moves), so the
//! pair (position, remaining plies) names the question by itself and one table serves every
//! question of a game. The graph of such nodes is acyclic (the remaining plies fall by one each
//! move), so repetitions raise none of the usual proof-number troubles.
//!
//! Every node carries two numbers seen from its side to move (the phi/delta form of Nagai's
//! algorithm): `phi`, an estimate of the work to prove that the side to move reaches its goal
//! (the attacker: a game end within the bound; the defender: none), and `delta`, of the work to
//! prove the opposite. A node's `phi` is its children's least `delta`, its `delta` the sum of
//! their `phi`s; 0 and infinity are proofs. The search descends into the child with the least
//! `delta` with thresholds that send it back as soon as another child looks cheaper (widened by
//! the 1 + epsilon trick of Pawlewicz and Lew, so that it does not flip between two children of
//! nearly equal cost), and keeps the numbers of the nodes it leaves in a table of its own.
//!
//! Exactness: a node is decided only by a game end (a side without moves has lost, at that
//! ply), by the remaining plies running out, or by the endgame databases' exact distance to the
//! end; moves come from the move generator, captures forced as it gives them. The numbers steer
//! the search but never decide anything. Every expansion counts a node against the turn's
//! limits (node budget and deadline), so a question stops deterministically.

use crate::rules::movegen::{self, Routes};
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;

use super::alphabeta::Searcher;
use super::score::{Score, MAX_PLY};

/// The proof number of a proof: the goal cannot be reached (its opposite number is 0).
pub(super) const INF: u32 = u32::MAX / 2;

/// Proof and disproof numbers of a node from its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    /// Work to prove that the side to move reaches its goal.
    phi: u32,
    /// Work to prove that it does not.
    delta: u32,
}

impl Numbers {
    /// The side to move reaches its goal.
    const WON: Numbers = Numbers { phi: 0, delta: INF };
    /// The side to move does not reach its goal.
    const LOST: Numbers = Numbers { phi: INF, delta: 0 };
    /// A node not searched yet.
    const UNKNOWN: Numbers = Numbers { phi: 1, delta: 1 };

    fn solved(self) -> bool {
        self.phi == 0 || self.delta == 0
    }
}

/// The widening of the threshold of the child searched (the 1 + epsilon trick): the second-best
/// child's number plus one plus this fraction (one in `n`) of it.
const EPSILON_DIVISOR: u32 = 2;

/// The attacker's proof number a node starts with when the attacker failed there with two plies
/// fewer (a bound earlier): such a node is likely hard for it, and tried after the unknown ones
/// (which start at 1).
const PREVIOUSLY_FAILED: u32 = 4;

/// Slots of a bucket.
const BUCKET: usize = 2;

/// Slots a new table starts with; it grows by four up to its largest size.
const INITIAL_SLOTS: usize = 1 << 14;

/// One remembered node in two words: the high [`KEY_BITS`] bits of its position's hash, the
/// base-2 logarithm of the nodes its last search took (large subtrees are kept in preference to
/// small ones) and the remaining plies (0 as a whole: an empty slot); and its two numbers.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    tag: u64,
    data: u64,
}

/// Low bits of a slot's tag holding the remaining plies (more than [`MAX_PLY`]).
const PLY_BITS: u32 = 10;
const _: () = assert!(MAX_PLY < 1 << PLY_BITS);
/// Bits of a slot's tag holding the logarithm of the work.
const WORK_BITS: u32 = 6;
/// Bits of the position's hash a slot compares.
const KEY_BITS: u32 = 64 - PLY_BITS - WORK_BITS;

impl Slot {
    fn new(key: u64, remaining: u32, n: Numbers, work: u64) -> Slot {
        let tag = (key >> (64 - KEY_BITS) << (64 - KEY_BITS))
            | (u64::from(work.max(1).ilog2()) << PLY_BITS)
            | u64::from(remaining);
        let data = u64::from(n.phi) | (u64::from(n.delta) << 32);
        Slot { tag, data }
    }

    fn used(self) -> bool {
        self.tag != 0
    }

    /// Whether the slot holds a node of position `key`.
    fn holds(self, key: u64) -> bool {
        self.used() && (self.tag ^ key) >> (64 - KEY_BITS) == 0
    }

    /// Whether the slot holds the same node as `other`.
    fn same_node(self, other: Slot) -> bool {
        self.holds(other.tag) && self.remaining() == other.remaining()
    }

    fn remaining(self) -> u32 {
        (self.tag & ((1 << PLY_BITS) - 1)) as u32
    }

    fn numbers(self) -> Numbers {
        Numbers {
            phi: self.data as u32,
            delta: (self.data >> 32) as u32,
        }
    }

    fn log_work(self) -> u64 {
        (self.tag >> PLY_BITS) & ((1 << WORK_BITS) - 1)
    }
}

/// The proof numbers of nodes searched so far: two-way buckets keyed by the position's hash and
/// the remaining plies, starting small and growing (by four, up to the size it was given) once
/// half of its slots are used.
#[derive(Debug)]
pub(super) struct ProofTable {
    slots: Vec<Slot>,
    max_slots: usize,
    used: usize,
}

impl ProofTable {
    /// An empty table of at most `megabytes` MiB (it allocates nothing until its first store).
    pub(super) fn new(megabytes: usize) -> ProofTable {
        let max_slots = (megabytes << 20) / std::mem::size_of::<Slot>();
        let max_slots = if max_slots < BUCKET {
            BUCKET
        } else {
            1 << max_slots.ilog2()
        };
        ProofTable {
            slots: Vec::new(),
            max_slots,
            used: 0,
        }
    }

    /// The bucket (two slots) of node (`key`, `remaining`). Only the hash bits a slot keeps
    /// choose it, so that [`grow`](Self::grow), which knows a node by its slot alone, puts it
    /// back where a probe by the whole hash looks.
    fn bucket(&self, key: u64, remaining: u32) -> std::ops::Range<usize> {
        let kept = key >> (64 - KEY_BITS);
        let mixed = (kept ^ u64::from(remaining).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let start = (mixed >> 20) as usize & (self.slots.len() - 1) & !(BUCKET - 1);
        start..start + BUCKET
    }

    /// The numbers of node (`key`, `remaining`), if remembered.
    fn probe(&self, key: u64, remaining: u32) -> Option<Numbers> {
        if self.slots.is_empty() {
            return None;
        }
        self.slots[self.bucket(key, remaining)]
            .iter()
            .find(|s| s.holds(key) && s.remaining() == remaining)
            .map(|s| s.numbers())
    }

    fn store(&mut self, key: u64, remaining: u32, numbers: Numbers, work: u64) {
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); INITIAL_SLOTS.min(self.max_slots)];
        } else if self.used * 2 >= self.slots.len() && self.slots.len() < self.max_slots {
            self.grow();
        }
        let slot = Slot::new(key, remaining, numbers, work);
        if !slot.used() {
            return; // a hash whose tag would read as empty: not remembered
        }
        let range = self.bucket(key, remaining);
        let bucket = &mut self.slots[range];
        let i = bucket
            .iter()
            .position(|s| s.same_node(slot))
            .or_else(|| bucket.iter().position(|s| !s.used()))
            .unwrap_or_else(|| {
                // The least work is replaced (the first on ties).
                let mut least = 0;
                for (j, s) in bucket.iter().enumerate() {
                    if s.log_work() < bucket[least].log_work() {
                        least = j;
                    }
                }
                least
            });
        if !bucket[i].used() {
            self.used += 1;
        }
        bucket[i] = slot;
    }

    /// Four times the slots, every node kept where room allows.
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![Slot::default(); (old.len() * 4).min(self.max_slots)];
        self.used = 0;
        for s in old.into_iter().filter(|s| s.used()) {
            self.store(s.tag, s.remaining(), s.numbers(), 1 << s.log_work());
        }
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }
}

/// A child of the node being searched: its position, numbers, and the move leading to it.
#[derive(Clone, Copy)]
struct Child {
    pos: Position,
    mv: Move,
    numbers: Numbers,
}

impl Searcher {
    /// Whether the side to move in `pos` wins within `n` plies (`n` odd) or loses within `n`
    /// (`n` even), by df-pn within `nodes` more nodes; `None` if they ran out. The proof search's
    /// question on its own, for tests and measurements; the table is kept for later questions.
    pub fn ends_within(&mut self, pos: &Position, n: u32, nodes: u64) -> Option<bool> {
        self.aborted = false;
        self.stop_at = self.stats.nodes.saturating_add(nodes);
        self.dfpn_bound(pos, n).map(|(holds, _)| holds)
    }

    /// Whether the side to move in `pos` wins within `n` plies (`n` odd) or loses within `n`
    /// (`n` even), by df-pn; `None` if the turn's limits stopped the search. With a proven win,
    /// also the move that wins.
    pub(super) fn dfpn_bound(&mut self, pos: &Position, n: u32) -> Option<(bool, Option<Move>)> {
        let (numbers, best) = self.mid(pos, n, INF, INF);
        if self.aborted || !numbers.solved() {
            return None;
        }
        // The root's side to move reaches its goal: at a win question it wins within `n`, at a
        // loss question (it defends) it survives.
        let goal = numbers.phi == 0;
        let win_question = n % 2 == 1;
        Some(if win_question {
            (goal, best.filter(|_| goal))
        } else {
            (!goal, None)
        })
    }

    /// The first move of `sorted` whose value reaches `target`, the exact game-end value of
    /// `pos`, by df-pn questions about the children; `None` if the limits stopped the search or
    /// no move reaches it.
    ///
    /// A win in `n` is reached by a move after which the opponent loses within `n - 1`; a loss in
    /// `n` by a move after which the opponent does not win within `n - 2` plies, that is within
    /// `n - 3` (its wins end on odd plies).
    pub(super) fn dfpn_first_move_reaching(
        &mut self,
        pos: &Position,
        sorted: &[Move],
        target: Score,
    ) -> Option<Move> {
        let n = target.plies_to_end()?;
        for &mv in sorted {
            let child = pos.play(mv);
            let reaches = if target.is_win() {
                self.dfpn_bound(&child, n - 1)?.0
            } else if n < 3 {
                true
            } else {
                !self.dfpn_bound(&child, n - 3)?.0
            };
            if reaches {
                return Some(mv);
            }
        }
        None
    }

    /// The numbers of node (`pos`, `remaining`) that exactly decide it without a search, if any.
    /// `moves` receives the legal moves when the databases do not cover `pos`.
    fn decided(&self, pos: &Position, remaining: u32, moves: &mut MoveList) -> Option<Numbers> {
        let attacker_to_move = remaining % 2 == 1;
        if let Some(score) = self.endgame.score(pos, 0) {
            let ends_within = score
                .plies_to_end()
                .is_some_and(|d| d <= remaining && score.is_win() == attacker_to_move);
            // The attacker's goal is reached: a win for it when it moves, a loss for the
            // defender when the defender moves.
            return Some(match (ends_within, attacker_to_move) {
                (true, true) | (false, false) => Numbers::WON,
                _ => Numbers::LOST,
            });
        }
        movegen::generate(pos, Routes::Distinct, moves);
        if moves.is_empty() {
            // The side to move has lost here, within the bound: the attacker's goal when the
            // defender is to move, the end of it when the attacker is.
            return Some(Numbers::LOST);
        }
        if remaining == 0 {
            // The defender is to move (0 is even) and has a move: the bound is passed.
            return Some(Numbers::WON);
        }
        None
    }

    /// The numbers a child, node (`child`, `remaining`), starts with: the table's; else a
    /// proof carried over from a neighbouring bound (a game end within fewer plies is one within
    /// more, and none within more is none within fewer; the attacker is the same, as the parity
    /// is); else, when the attacker failed with two plies fewer, [`PREVIOUSLY_FAILED`]; else 1
    /// and 1.
    fn child_numbers(&self, child: &Position, remaining: u32) -> Numbers {
        let key = child.hash();
        if let Some(n) = self.dfpn_table.probe(key, remaining) {
            return n;
        }
        let attacker_to_move = remaining % 2 == 1;
        // The numbers as (attacker's, defender's) and back.
        let split = |n: Numbers| {
            if attacker_to_move {
                (n.phi, n.delta)
            } else {
                (n.delta, n.phi)
            }
        };
        let join = |pn: u32, dn: u32| {
            if attacker_to_move {
                Numbers { phi: pn, delta: dn }
            } else {
                Numbers { phi: dn, delta: pn }
            }
        };
        let fewer = remaining
            .checked_sub(2)
            .and_then(|r| self.dfpn_table.probe(key, r));
        if let Some(n) = fewer {
            let (pn, dn) = split(n);
            if pn == 0 {
                return n;
            }
            if dn == 0 {
                return join(PREVIOUSLY_FAILED, 1);
            }
        }
        let more = self.dfpn_table.probe(key, remaining + 2);
        if let Some(n) = more.filter(|&n| split(n).1 == 0) {
            return n;
        }
        Numbers::UNKNOWN
    }

    /// Searches node (`pos`, `remaining`) until its `phi` reaches `th_phi` or its `delta` reaches
    /// `th_delta` (or it is proven, or the limits stop the search); its numbers, stored, and the
    /// move to a child that proves the side to move's goal when there is one.
    fn mid(
        &mut self,
        pos: &Position,
        remaining: u32,
        th_phi: u32,
        th_delta: u32,
    ) -> (Numbers, Option<Move>) {
        let start = self.stats.nodes;
        if self.tick() {
            return (Numbers::UNKNOWN, None);
        }
        let key = pos.hash();
        let mut moves = MoveList::new();
        if let Some(numbers) = self.decided(pos, remaining, &mut moves) {
            self.dfpn_table.store(key, remaining, numbers, 1);
            return (numbers, None);
        }
        // On the heap: a question may recurse as deep as its bound (hundreds of plies), and a
        // frame should stay about as small as the alpha-beta search's.
        let mut children: Vec<Child> = moves
            .iter()
            .map(|&mv| {
                let child = pos.play(mv);
                let numbers = self.child_numbers(&child, remaining - 1);
                Child {
                    pos: child,
                    mv,
                    numbers,
                }
            })
            .collect();
        let mut numbers;
        loop {
            numbers = combine(&children);
            if numbers.phi >= th_phi || numbers.delta >= th_delta {
                break;
            }
            // The most promising child (least delta: the cheapest to refute for its side to
            // move), the first on ties, and the second least delta.
            let (best, second) = two_least(&children);
            let chosen = children[best].numbers;
            let child_th_phi = if th_delta >= INF {
                INF
            } else {
                add_inf(th_delta - numbers.delta, chosen.phi)
            };
            let widened = if second >= INF {
                INF
            } else {
                second + 1 + second / EPSILON_DIVISOR
            };
            let child_th_delta = th_phi.min(widened);
            let (result, _) = self.mid(
                &children[best].pos,
                remaining - 1,
                child_th_phi,
                child_th_delta,
            );
            if self.aborted {
                return (numbers, None);
            }
            children[best].numbers = result;
        }
        let best = if numbers.phi == 0 {
            children.iter().find(|c| c.numbers.delta == 0).map(|c| c.mv)
        } else {
            None
        };
        let work = self.stats.nodes - start;
        self.dfpn_table.store(key, remaining, numbers, work);
        (numbers, best)
    }
}

/// A node's numbers from its children's: `phi` the least child `delta`, `delta` the sum of the
/// child `phi`s (infinite when one is, otherwise capped below infinity).
fn combine(children: &[Child]) -> Numbers {
    let mut phi = INF;
    let mut delta = 0u32;
    for c in children {
        phi = phi.min(c.numbers.delta);
        delta = add_inf(delta, c.numbers.phi);
    }
    Numbers { phi, delta }
}

/// `a + b` where [`INF`] stays infinite and a finite sum stays below it.
fn add_inf(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(INF - 1)
    }
}

/// Index of the child with the least `delta` (the first on ties) and the second least `delta`
/// ([`INF`] when there is one child).
fn two_least(children: &[Child]) -> (usize, u32) {
    let mut best = 0;
    let mut second = INF;
    for (i, c) in children.iter().enumerate().skip(1) {
        let d = c.numbers.delta;
        if d < children[best].numbers.delta {
            second = children[best].numbers.delta;
            best = i;
        } else if d < second {
            second = d;
        }
    }
    (best, second)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_stored_before_the_table_grows_are_found_after() {
        let mut table = ProofTable::new(64);
        let key = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i << 7);
        let stored = INITIAL_SLOTS as u64 / 4;
        let numbers = Numbers { phi: 3, delta: 7 };
        for i in 1..=stored {
            table.store(key(i), 5, numbers, 1);
        }
        let found = |table: &ProofTable| {
            (1..=stored)
                .filter(|&i| table.probe(key(i), 5) == Some(numbers))
                .count() as u64
        };
        // Two-way buckets lose a few nodes to collisions as they are stored, and a few more
        // when the larger table's buckets collide again.
        let before = found(&table);
        let bytes = table.bytes();
        table.grow();
        assert!(table.bytes() > bytes, "the table grew");
        let after = found(&table);
        assert!(
            after * 100 >= before * 99,
            "{after} of {before} found after growing"
        );
    }

    #[test]
    fn infinity_absorbs_and_finite_sums_stay_below_it() {
        assert_eq!(add_inf(3, 4), 7);
        assert_eq!(add_inf(INF, 1), INF);
        assert_eq!(add_inf(INF - 2, 5), INF - 1);
    }

    #[test]
    fn the_table_keeps_nodes_apart_by_remaining_plies() {
        let mut t = ProofTable::new(1);
        t.store(42, 5, Numbers::WON, 10);
        t.store(42, 7, Numbers { phi: 3, delta: 9 }, 10);
        assert_eq!(t.probe(42, 5), Some(Numbers::WON));
        assert_eq!(t.probe(42, 7), Some(Numbers { phi: 3, delta: 9 }));
        assert_eq!(t.probe(42, 6), None);
        for k in 0..100_000u64 {
            t.store(k * 7919, 3, Numbers::LOST, k);
        }
        assert!(t.bytes() <= 1 << 20);
    }
}
