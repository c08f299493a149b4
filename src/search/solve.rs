//! Playing a whole game from a puzzle: both sides search each turn, and the game record decides
//! when the game is over.

use std::time::{Duration, Instant};

use crate::rules::draw::DrawRule;
use crate::rules::game::{Forfeit, Game, Outcome};
use crate::rules::position::Position;
use crate::search::endgame::{BuildError, EndgameDb, MAX_POSITIONS, QUICK_POSITIONS};
use crate::search::{BuildCaps, Features, Limits, Score, SearchStats, Searcher};

/// How to play a puzzle.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Transposition table size in MiB.
    pub tt_megabytes: usize,
    /// Deepest iteration per turn (plies); `None` for no limit.
    pub max_depth: Option<u32>,
    /// The whole run ends within this time.
    pub time_limit: Duration,
    /// Nodes a turn's iterative deepening may spend before playing its best move so far; each
    /// side's first turn gets [`FIRST_TURN_FACTOR`] times as many. Counting nodes instead of time
    /// keeps the output identical from run to run.
    pub nodes_per_move: u64,
    /// The search speed assumed to turn the time limit into the game's budget of nodes for
    /// proof searches (see [`proof_budget`]); 0 for no proof search. A node count fixed by the
    /// settings, not a measured speed, so that the same puzzle and settings give the same line.
    pub nodes_per_second: u64,
    /// Search enhancements in use (all by default; fewer only to measure their worth).
    pub features: Features,
    /// The draw rule the game is played under: [`DrawRule::None`] (the puzzle rules) or
    /// [`DrawRule::FiftyMoves`] (the optional tournament rule).
    pub draw_rule: DrawRule,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            tt_megabytes: 64,
            max_depth: None,
            time_limit: Duration::from_secs(50),
            nodes_per_move: 100_000,
            nodes_per_second: DEFAULT_NODES_PER_SECOND,
            draw_rule: DrawRule::None,
            features: Features::default(),
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Every state from the puzzle to the end of the game.
    pub states: Vec<Position>,
    /// How the game ended.
    pub outcome: Outcome,
    /// The value of the puzzle for red, when the first searched turn proved it.
    pub root_score: Option<Score>,
    /// Whether every searched move was proven optimal (so the line is optimal): a win, or a draw
    /// whose every searched move the endgame databases proved to keep the draw.
    pub proven: bool,
    /// Whether the time limit cut a turn short (the output may then vary between runs).
    pub time_limited: bool,
    /// Search counters.
    pub stats: SearchStats,
    /// Fraction of table probes that hit.
    pub tt_hit_rate: f64,
    /// Positions held by the endgame databases built for this game (0 if none).
    pub endgame_positions: usize,
    /// A database build that failed other than by the deadline (a bug, reported; its positions
    /// were searched instead).
    pub endgame_error: Option<BuildError>,
    /// The searched moves that were not proven optimal, with how far their proofs got.
    pub unproven: Vec<UnprovenMove>,
    /// Wall time.
    pub elapsed: Duration,
}

/// A move played without a proof of its optimality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnprovenMove {
    /// The move's number in the game (1 for the puzzle's first move).
    pub number: usize,
    /// The game is proven not to end within this many plies of the position moved from.
    pub no_end_within: u32,
    /// A game end (of the score's kind) is proven within this many plies, if a proof search
    /// found such an upper bound.
    pub end_within: Option<u32>,
    /// The search's score of the move (a heuristic value, or a game end further away than the
    /// searches could prove exact), from the mover's point of view.
    pub score: Option<Score>,
}

impl Solution {
    /// Number of moves (plies) played.
    #[must_use]
    pub fn moves(&self) -> usize {
        self.states.len() - 1
    }
}

/// How many times the usual node budget each side's first turn gets. The first turns decide
/// whether the puzzle is proven; later turns of a proven game cost little (the table remembers),
/// and later turns of an unproven game must stay cheap so that drawn games finish quickly.
pub const FIRST_TURN_FACTOR: u64 = 20;

/// Default of [`SolveOptions::nodes_per_second`]: about half what one core of a loaded 2-core
/// machine searches (2 to 3 million nodes a second idle), so that the budget rarely meets the
/// deadline, whose stop would make the line depend on the machine.
pub const DEFAULT_NODES_PER_SECOND: u64 = 1_000_000;

/// The game's first searched turn may spend up to this fraction (one in `n`) of the proof budget
/// left, the other side's first searched turn up to one in [`FIRST_PROOF_SHARE`]: the first turn
/// proves the puzzle's value (every later turn then only looks for the canonical move reaching
/// the known value), and a line is proven only when that turn is. A turn spends the whole of its
/// share only when the deepening puts one side clearly ahead, one in
/// [`LEVEL_PROOF_SHARE`](crate::search::iterdeep::LEVEL_PROOF_SHARE) of it otherwise (see
/// `Searcher::think`), so the first turns of a drawn-looking board spend under a tenth of the
/// budget.
const DECIDING_PROOF_SHARE: u64 = 2;
/// Share (one in `n`) of the proof budget left for the other side's first searched turn.
const FIRST_PROOF_SHARE: u64 = 4;
/// A later unproven turn may spend up to one in this many of the proof budget left, when a proof
/// looks in reach (see [`in_reach`]).
const LATER_PROOF_SHARE: u64 = 4;

/// The game's budget of nodes for proof searches: the assumed speed times the part of the time
/// limit not kept in reserve. Drawn boards spend most of it on each side's first turn and finish
/// in well under half the limit; wins proven on the first turn spend little.
#[must_use]
pub fn proof_budget(options: &SolveOptions) -> u64 {
    let seconds = options.time_limit.as_secs_f64() * (1.0 - RESERVE);
    (options.nodes_per_second as f64 * seconds) as u64
}

/// How many plies beyond the bound its searches reached a game end may lie for a later turn's
/// proof search to try for it: a proof search gains about 2 plies per fourfold budget (design.md),
/// and a later turn's share (a few million nodes at the default limit) took p34's proofs 8 to 10
/// plies past the deepening's depth.
const PROOF_REACH_PLIES: u32 = 10;

/// Whether a later turn's proof search is worth its nodes, from its side's previous searched
/// turn (`previous`: the score and the bound within which no game end was proven): that turn saw
/// a game end (beyond what it could prove exact) no more than [`PROOF_REACH_PLIES`] past the
/// bound. Other positions keep only the deepening's budget, so that they finish well inside the
/// limit: drawn ones, which no search proves, and those whose end is still far (p34's loss in 48
/// seen at depth 14, which five proofs of 0.3 to 3 M nodes each got no nearer than 25).
fn in_reach(previous: Option<(Score, u32)>) -> bool {
    previous.is_some_and(|(score, reached)| {
        score
            .plies_to_end()
            .is_some_and(|end| end <= reached.saturating_add(PROOF_REACH_PLIES))
    })
}

/// Most index slots of endgame databases a turn builds for a level-looking position while every
/// searched move of the line is proven: the whole classes of up to five pieces (a few seconds),
/// which prove the draws they cover; the reachable-only analyses of six pieces (often over 100 M
/// slots, 10 to 20 s) are built only for positions where one side looks clearly ahead.
pub const LEVEL_BUILD_SLOTS: usize = MAX_POSITIONS;

/// Most index slots a turn builds once a searched move of the line is unproven, where one side
/// looks clearly ahead: the line can no longer be proven, so the whole classes of up to five
/// pieces, which play the rest of the game exactly, and no reachable-only analysis (p34, a loss
/// seen from 7 pieces, spent 20 s of its 42 on one of 107 M slots).
pub const UNPROVEN_BUILD_SLOTS: usize = MAX_POSITIONS;

/// Most index slots a turn builds for a level-looking position once a searched move of the line
/// is unproven: only builds quick enough to pay for themselves in the search they save.
pub const UNPROVEN_LEVEL_BUILD_SLOTS: usize = QUICK_POSITIONS;

/// The caps on database builds ([`Limits::build_caps`]), by whether every searched move of the
/// line so far is proven: while it is, no cap where one side looks clearly ahead.
#[must_use]
pub fn build_caps(line_proven: bool) -> BuildCaps {
    if line_proven {
        BuildCaps {
            level: LEVEL_BUILD_SLOTS,
            decisive: usize::MAX,
        }
    } else {
        BuildCaps {
            level: UNPROVEN_LEVEL_BUILD_SLOTS,
            decisive: UNPROVEN_BUILD_SLOTS,
        }
    }
}

/// Fraction of the time limit kept in reserve for finishing the game quickly.
const RESERVE: f64 = 0.15;
/// Depth of the quick searches played once the time limit is near: shallow enough to be instant.
const QUICK_DEPTH: u32 = 4;

/// Plays the game from `puzzle` (red to move) to its end.
#[must_use]
pub fn solve(puzzle: Position, options: &SolveOptions) -> Solution {
    solve_with(puzzle, options, EndgameDb::default())
}

/// [`solve`] with endgame databases to start from (for example reading a store of databases
/// built earlier, see [`EndgameDb::with_store`]).
#[must_use]
pub fn solve_with(puzzle: Position, options: &SolveOptions, endgame: EndgameDb) -> Solution {
    let started = Instant::now();
    let soft_deadline = started + options.time_limit.mul_f64(1.0 - RESERVE);
    let mut searcher = Searcher::with_features(options.tt_megabytes, options.features);
    searcher.set_endgame(endgame);
    let mut game = Game::new(puzzle, options.draw_rule);
    let mut root_score = None;
    let mut proven = true;
    // Whether every searched move's score was a draw (see the `proven` of the solution).
    let mut draws_only = true;
    let mut time_limited = false;
    let proof_nodes = proof_budget(options);
    // The exact value of the position to move, once a turn has proven it.
    let mut known: Option<Score> = None;
    // Each side's score on its previous searched turn with the bound its searches reached, and
    // whether it has searched yet.
    let mut previous: [Option<(Score, u32)>; 2] = [None; 2];
    let mut searched = [false; 2];
    let mut unproven = Vec::new();
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        let pos = *game.current();
        let out_of_time = Instant::now() >= soft_deadline;
        let first_turn = game.positions().len() <= 2;
        let budget = if first_turn {
            options.nodes_per_move.saturating_mul(FIRST_TURN_FACTOR)
        } else {
            options.nodes_per_move
        };
        let side = pos.side_to_move() as usize;
        let left = proof_nodes.saturating_sub(searcher.stats().nodes);
        let proof = if !searched[0] && !searched[1] {
            left / DECIDING_PROOF_SHARE
        } else if !searched[side] {
            left / FIRST_PROOF_SHARE
        } else if in_reach(previous[side]) {
            left / LATER_PROOF_SHARE
        } else {
            0
        };
        let limits = Limits {
            nodes: Some(budget),
            proof_nodes: Some(proof),
            deadline: Some(soft_deadline),
            build_caps: Some(build_caps(proven)),
        };
        let depth = options.max_depth.unwrap_or(u32::MAX);
        let thought = if out_of_time {
            time_limited = true;
            // Past the soft deadline: shallow fixed-depth play with a fresh searcher depends on
            // the position alone, so the game runs into a repetition or an end quickly. It must
            // not build a database (a fresh one every move), but reads those already built.
            searcher.quick_think(&pos, QUICK_DEPTH)
        } else {
            searcher.think(&pos, depth, limits, known)
        };
        let Some(thought) = thought else {
            // `outcome()` saw a legal move; `think` agrees by construction.
            break Outcome::Win {
                winner: pos.side_to_move().opponent(),
            };
        };
        if thought.score.is_some() {
            if root_score.is_none() && game.ply() == 0 && thought.proven {
                root_score = thought.score;
            }
            proven &= thought.proven;
            draws_only &= thought.score == Some(Score::ZERO);
            searched[side] = true;
            // A proven turn reached its game end: the side's next proof is within reach of it.
            previous[side] = thought.score.map(|score| {
                let proven_end = score.plies_to_end().filter(|_| thought.proven);
                (score, proven_end.unwrap_or(thought.no_end_within))
            });
            if !thought.proven {
                unproven.push(UnprovenMove {
                    number: game.positions().len(),
                    no_end_within: thought.no_end_within,
                    end_within: thought.end_within,
                    score: thought.score,
                });
            }
        }
        // The value after a proven move (or a forced move from a known value) is known too: the
        // same game end, one ply nearer, seen from the other side.
        known = match (thought.proven, thought.score) {
            (true, Some(score)) => Some(score),
            (false, None) => known,
            _ => None,
        }
        .map(|score| -score.to_node(1));
        if let Err(e) = game.play(thought.best) {
            // The search plays only legal moves of a game that is not over; should it not, the
            // side that chose the move loses for it rather than the program stopping.
            break Outcome::Forfeit {
                loser: pos.side_to_move(),
                why: Forfeit::Illegal(e.to_string()),
            };
        }
    };
    Solution {
        states: game.positions().to_vec(),
        root_score,
        proven: proven
            && match &outcome {
                Outcome::Win { .. } => true,
                // A draw is proven when every searched move kept a proven draw: only the endgame
                // databases prove draws, so each of those moves was read off them. The other
                // moves were forced (one legal move), so a game of forced moves alone is the
                // only game there is.
                Outcome::Repetition => draws_only,
                _ => false,
            },
        outcome,
        time_limited,
        stats: searcher.stats(),
        tt_hit_rate: searcher.tt_hit_rate(),
        endgame_positions: searcher.endgame_positions(),
        endgame_error: searcher.endgame_error().cloned(),
        unproven,
        elapsed: started.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_proof_is_tried_only_when_the_end_seen_is_near_the_bound_reached() {
        // p34: a loss in 48 seen by a deepening of 14 plies is out of reach; nearer, it is not.
        assert!(!in_reach(Some((Score::lost_at(48), 14))));
        assert!(in_reach(Some((Score::lost_at(24), 14))));
        assert!(in_reach(Some((Score::won_at(25), 15))));
        assert!(!in_reach(Some((Score::won_at(27), 15))));
        // Heuristic scores and drawn boards never are.
        assert!(!in_reach(Some((Score(400), 20))));
        assert!(!in_reach(Some((Score::ZERO, 998))));
        assert!(!in_reach(None));
    }

    #[test]
    fn builds_are_smaller_for_level_boards_and_once_the_line_is_unproven() {
        let provable = build_caps(true);
        let unproven = build_caps(false);
        assert_eq!(provable.level, MAX_POSITIONS);
        assert_eq!(provable.decisive, usize::MAX);
        assert_eq!(unproven.level, QUICK_POSITIONS);
        assert_eq!(unproven.decisive, MAX_POSITIONS);
        assert!(unproven.level < unproven.decisive);
    }
}
