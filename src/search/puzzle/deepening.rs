//! One turn of the puzzle driver: iterative deepening from the current position until the result is proven, a limit
//! is reached, or the turn's budget runs out; then the canonical choice among equally good moves.

use std::time::Instant;

use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::score::{Score, MAX_PLY};

use super::budget;
use super::limits::{Features, Limits};
use super::proof::first_then_rest;
use super::searcher::PuzzleSearcher;
use super::thought::{Known, Proof, PuzzleThought};
use crate::search::knobs::{self, SPLIT_THREADS};

impl PuzzleSearcher {
    /// Chooses a move for the side to move in `pos`, or `None` when it has none (it has lost).
    ///
    /// Deepens one ply at a time up to `max_depth`. When an iteration's score is a game end no
    /// further away than that iteration's depth, the score is exact, the deepening stops, and
    /// among all moves that reach that score the first in canonical order ([`Move::canonical_key`])
    /// is played, so the choice does not depend on the search's internal move order. When the
    /// deepening runs out of nodes first, the proof search (`proof`) asks for a
    /// game end within ever more plies with the turn's `proof_nodes` (all of them when the
    /// deepening's score puts one side a man and a half ahead, one in [`knobs::LEVEL_PROOF_SHARE`]
    /// when the board looks level).
    ///
    /// Before the proof search, a position the endgame databases could cover has them built
    /// when there looks to be time, within `limits.build_caps` (by whether the board looks
    /// level), and, once a build has given up, within half that build's slots.
    ///
    /// `known` is the exact value of `pos` when an earlier turn proved it (the score of a proven
    /// move, carried over the moves since): only the canonical move reaching it is then searched.
    pub fn think(
        &mut self,
        pos: &Position,
        max_depth: u32,
        limits: Limits,
        known: Option<Score>,
    ) -> Option<PuzzleThought> {
        self.think_known(pos, max_depth, limits, Known::exact(known), &[])
    }

    /// [`think`](Self::think) with all that earlier turns established about `pos`: when the turn
    /// proves no value of its own, its move is held to that knowledge within
    /// `limits.guard_nodes` (the guard of the `proof` module): a known win stays a win at least
    /// as short, and a side known not to lose within some plies plays a move that does not lose
    /// within them. `seen` holds the positions of the game the move could repeat: a side
    /// clearly ahead that cannot prove its win does not play back into one of them while
    /// another move keeps it ahead (see `unproven_choice.rs`).
    pub fn think_known(
        &mut self,
        pos: &Position,
        max_depth: u32,
        limits: Limits,
        known: Known,
        seen: &[Position],
    ) -> Option<PuzzleThought> {
        let mut thought = self.think_alone(pos, max_depth, limits, known.exact)?;
        // A side known to win keeps its win through the guard's proofs, whatever was chosen.
        if known.win_within.is_none() && !known.exact.is_some_and(Score::is_win) {
            self.choose_unproven(pos, &mut thought, max_depth);
            self.avoid_repetition(pos, &mut thought, seen, max_depth);
        }
        let Some(score) = thought.score.filter(|_| !thought.proven) else {
            return Some(thought);
        };
        // What the turn's own searches established about its move: an exact value (every
        // shorter game end ruled out), or else no loss within the deepening's depth.
        match score
            .plies_to_end()
            .filter(|&d| thought.no_end_within + 1 >= d)
        {
            Some(d) if score.is_win() => thought.keeps_win = Some(d),
            Some(d) => thought.safe_within = d - 1,
            None => thought.safe_within = thought.depth,
        }
        let began = Instant::now();
        self.guard(pos, &mut thought, known);
        self.spent.proof += began.elapsed();
        Some(thought)
    }

    /// The turn without what earlier turns established beyond an exact value.
    fn think_alone(
        &mut self,
        pos: &Position,
        max_depth: u32,
        limits: Limits,
        known: Option<Score>,
    ) -> Option<PuzzleThought> {
        let moves = movegen::sorted_legal_moves(pos);
        if moves.is_empty() {
            return None;
        }
        if moves.len() == 1 {
            return Some(PuzzleThought::new(moves[0], None, 0, false));
        }
        self.turn.limits = limits;
        // Databases already built are always read; `endgame_db` decides whether to build them.
        if self.endgame.db.covers(pos)
            || (self.features.endgame_db
                && self.time_to_build(pos, knobs::BUILD_NANOS_PER_SLOT)
                && self.build_quick(pos))
        {
            if let Some(thought) = self.endgame_move(pos, &moves) {
                return Some(thought);
            }
        }
        let max_depth = max_depth.min(MAX_PLY as u32 - 2);
        if let Some(thought) = known.and_then(|k| self.play_known(pos, &moves, k, max_depth)) {
            return Some(thought);
        }
        // A few pieces with men among them, or more kings than a quick database covers: first
        // the search alone, with the turn's whole budget (the official puzzles are proven in a
        // few thousand nodes, and many boards of six pieces within it), and only when that fails
        // the endgame databases (a large one takes seconds). A position they cover is then
        // played from them; otherwise the search, with a new budget, reads them where it can.
        let escalate = self.features.endgame_db && self.endgame.db.could_build_for(pos);
        // A board whose analysis is small is analysed after a short search only: the search
        // alone proves the official puzzles within it, and the analysis proves the rest at
        // once (the First Position searched 2 M nodes, then built the 1.3 M positions it needed).
        let early = escalate && self.endgame.db.slots_to_build(pos) <= knobs::EARLY_BUILD_SLOTS;
        self.begin_turn(if early {
            limits.nodes.map(|n| n.min(knobs::EARLY_SEARCH_NODES))
        } else {
            limits.nodes
        });
        let mut done = self.deepen(pos, &moves, max_depth);
        let mut searched_again = false;
        if escalate
            && !done.is_some_and(|t| t.proven)
            && self.worth_building(pos, done.and_then(|t| t.score), limits.build_caps)
        {
            searched_again = true;
            let built = self.build_all(pos);
            if self.endgame.db.covers(pos) {
                if let Some(thought) = self.endgame_move(pos, &moves) {
                    return Some(thought);
                }
            }
            if built && !self.endgame.db.covers(pos) {
                // The databases cover the captures only (a position of seven pieces). The
                // table's entries, searched without them, would cut off with their heuristic
                // bounds the subtrees where exact values now lie: issue 23's left board was
                // not proven within 21 M nodes with them, and is in 6.7 M without.
                self.tt.clear();
            }
            self.begin_turn(limits.nodes);
            done = self.deepen(pos, &moves, max_depth).or(done);
        }
        if early && !searched_again && !done.is_some_and(|t| t.proven) {
            // No analysis after the short search: the rest of the turn's nodes.
            self.begin_turn(limits.nodes);
            done = self.deepen(pos, &moves, max_depth).or(done);
        }
        let mut thought = done.unwrap_or(PuzzleThought::new(moves[0], None, 0, false));
        if !thought.proven {
            // The deepening's last iteration saw every line of its depth: no game end within it.
            thought.no_end_within = thought.depth;
            // A value known from an earlier proof needs no proof search: the guard keeps it.
            let budget = limits.proof_nodes.unwrap_or(0);
            if budget > 0 && known.is_none() {
                let began = Instant::now();
                let proven = self.prove_turn(pos, &moves, &mut thought, budget, max_depth);
                self.spent.proof += began.elapsed();
                if let Some(proven) = proven {
                    return Some(proven);
                }
            }
        }
        if let (true, Some(score)) = (thought.proven, thought.score) {
            match self.first_move_reaching(pos, &moves, score, thought.depth) {
                Some(canonical) => thought.best = canonical,
                // The budget ran out before the canonical move was confirmed: the move is still
                // optimal, but may not be the canonical one, so it is not claimed as proven. Its
                // value is exact all the same: no game end comes sooner.
                None => {
                    thought.proven = false;
                    let plies = score.plies_to_end().unwrap_or(0);
                    thought.no_end_within = plies.saturating_sub(1);
                }
            }
        }
        Some(thought)
    }

    /// The proof search of a turn the deepening left unproven (`thought`, its result), within
    /// `budget` nodes: the proven move, or `None` with `thought.no_end_within` raised to the
    /// bound reached.
    ///
    /// When the deepening's score puts one side clearly ahead, half the budget first asks only
    /// for that side's win (half the searches; see [`prove`](Self::prove)), and the rest asks for
    /// both kinds of game end, since material can mislead (a sacrifice that wins). Otherwise the
    /// board looks level and only one in [`knobs::LEVEL_PROOF_SHARE`] of the budget is spent, on both
    /// kinds.
    fn prove_turn(
        &mut self,
        pos: &Position,
        moves: &[Move],
        thought: &mut PuzzleThought,
        budget: u64,
        max_depth: u32,
    ) -> Option<PuzzleThought> {
        let mut order = first_then_rest(moves, thought.best);
        let from = thought.depth + 1;
        let expect = budget::expected_winner(thought.score);
        // A board that looks decisive gets the whole budget; one that looks level (a draw, most
        // likely, which no search proves) a small part, so that it finishes quickly.
        let budget = budget::proof_spend(budget, expect.is_none());
        let mut proof = Proof::NoEndWithin(0);
        let end = self.stats.nodes.saturating_add(budget);
        if expect.is_some() {
            let left = end.saturating_sub(self.stats.nodes);
            self.begin_turn(Some(left.min(budget / 2)));
            proof = self.prove(pos, &mut order, from, max_depth, expect);
        }
        if !matches!(proof, Proof::Exact(..)) {
            self.begin_turn(Some(end.saturating_sub(self.stats.nodes)));
            proof = self.prove(pos, &mut order, from, max_depth, None);
        }
        let score = match proof {
            Proof::Exact(score, _) => score,
            Proof::NoEndWithin(n) => {
                thought.no_end_within = n.max(thought.depth);
                // A decisive-looking board the one thread could not prove: the same questions
                // split over the moves, on both threads, for half as long again.
                expect?;
                let nodes = (budget / 2).saturating_mul(SPLIT_THREADS as u64);
                return match self
                    .prove_split(pos, moves, thought.no_end_within, max_depth, expect, nodes)
                    .0
                {
                    Proof::Exact(score, Some(best)) => {
                        let plies = score.plies_to_end().unwrap_or(0);
                        Some(PuzzleThought {
                            no_end_within: plies.saturating_sub(1),
                            ..PuzzleThought::new(best, Some(score), plies, true)
                        })
                    }
                    // The split always names its move.
                    Proof::Exact(_, None) => None,
                    Proof::NoEndWithin(n) => {
                        thought.no_end_within = thought.no_end_within.max(n);
                        None
                    }
                };
            }
        };
        let plies = score.plies_to_end().unwrap_or(0);
        thought.no_end_within = plies - 1;
        // A proven win's first move is the one that proved it; a proven loss names no move, so
        // the canonical search must find it.
        let found = score.is_win().then_some(order[0]);
        self.begin_turn(Some(budget));
        // When the budget runs out before the canonical move is confirmed, the proof's own move
        // is still a win of that length, but perhaps not the canonical one: it is played, and
        // not claimed as proven (the search-versus-analyser test holds the claim to both).
        let (best, proven) = match self.first_move_reaching(pos, moves, score, plies) {
            Some(canonical) => (canonical, true),
            None => (found?, false),
        };
        Some(PuzzleThought {
            no_end_within: plies - 1,
            ..PuzzleThought::new(best, Some(score), plies, proven)
        })
    }

    /// The canonical move reaching `known`, the proven value of `pos`, within the turn's nodes
    /// (of the deepening and the proof search together); `None` if the limits stopped the
    /// search (the turn then thinks as usual).
    fn play_known(
        &mut self,
        pos: &Position,
        sorted: &[Move],
        known: Score,
        max_depth: u32,
    ) -> Option<PuzzleThought> {
        let plies = known.plies_to_end().filter(|&n| n <= max_depth)?;
        let nodes = (self.turn.limits.nodes)
            .map(|n| n.saturating_add(self.turn.limits.proof_nodes.unwrap_or(0)));
        self.begin_turn(nodes);
        let best = self.first_move_reaching(pos, sorted, known, plies)?;
        Some(PuzzleThought {
            no_end_within: plies.saturating_sub(1),
            ..PuzzleThought::new(best, Some(known), plies, true)
        })
    }

    /// A move for the end of a game whose time is up: a fixed-depth search with an empty table
    /// and no new databases (the ones already built are still read), so that the choice depends
    /// on the position and the game's positions `seen` alone, and the game quickly reaches an
    /// end or a repetition. A side ahead keeps out of a repetition of `seen` as on the turns
    /// before the deadline (`unproven_choice.rs`), with a search of the same depth.
    pub fn quick_think(
        &mut self,
        pos: &Position,
        depth: u32,
        seen: &[Position],
    ) -> Option<PuzzleThought> {
        let mut quick = PuzzleSearcher::with_features(
            0,
            Features {
                endgame_db: false,
                ..self.features
            },
        );
        // Its moves are not proven: the evaluation that chooses those evaluates its horizon.
        quick.evals.horizon = self.evals.chooser.clone();
        std::mem::swap(&mut quick.endgame.db, &mut self.endgame.db);
        let mut thought = quick.think(pos, depth, Limits::default(), None);
        if let Some(thought) = &mut thought {
            quick.avoid_repetition(pos, thought, seen, depth);
        }
        std::mem::swap(&mut quick.endgame.db, &mut self.endgame.db);
        thought
    }

    /// Iterative deepening over `sorted` (moves sorted canonically) until a proven result, the
    /// depth limit, or the turn's limits; the last completed iteration's result.
    pub(super) fn deepen(
        &mut self,
        pos: &Position,
        sorted: &[Move],
        max_depth: u32,
    ) -> Option<PuzzleThought> {
        let mut done: Option<PuzzleThought> = None;
        let mut order: Vec<Move> = sorted.to_vec();
        for depth in 1..=max_depth {
            let Some((score, best)) = self.search_root(pos, &order, depth) else {
                break;
            };
            if let Some(p) = order.iter().position(|&m| m == best) {
                order[..=p].rotate_right(1);
            }
            let proven = score.plies_to_end().is_some_and(|n| n <= depth);
            done = Some(PuzzleThought::new(best, Some(score), depth, proven));
            if proven {
                break;
            }
        }
        done
    }

    /// The best move read off the endgame database: the fastest win, else a draw, else the
    /// slowest loss, the first in canonical order among equals. `None` if a child is not covered.
    fn endgame_move(&self, pos: &Position, sorted: &[Move]) -> Option<PuzzleThought> {
        let mut best: Option<(Score, Move)> = None;
        for &mv in sorted {
            let score = -self.endgame.db.score(&pos.play(mv), 1)?;
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, mv));
            }
        }
        let (score, best) = best?;
        Some(PuzzleThought::new(
            best,
            Some(score),
            score.plies_to_end().unwrap_or(0),
            true,
        ))
    }
}
