//! The playing search: principal-variation alpha-beta with iterative deepening, aspiration
//! windows, a transposition table, killer and history move ordering, capture extension at the
//! horizon, and the game's draw rules (repetition and quiet moves) seen along every line.
//!
//! Unlike the puzzle search it claims no proofs: it stops on the clock or a node budget, and
//! returns the best move of the deepest finished iteration (or the better move a stopped
//! iteration already found).

use std::time::Duration;

use crate::rules::draw::DrawRule;
use crate::rules::movegen::{self, CrowningRule, Routes};
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;

use super::eval::{evaluate_with, Weights};
use super::table::{Bound, Entry, Table};
use crate::play::clock::{Clock, TimeBudget};
use crate::play::game::Game;

/// The score of winning right now.
pub const WIN: i32 = 30_000;
/// Deepest line searched, in plies from the root.
pub const MAX_PLY: usize = 256;
/// Scores beyond this are wins or losses at a known distance.
const WIN_BOUND: i32 = WIN - MAX_PLY as i32 - 1;
/// How often (in nodes) the clock is read.
const CLOCK_INTERVAL: u64 = 256;

/// A score seen from the root converted to one relative to a node `ply` plies deep (for the table).
#[must_use]
pub const fn to_node(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_node`].
#[must_use]
pub const fn from_node(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// When the search must stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes for the whole move (makes the search deterministic).
    pub nodes: Option<u64>,
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move to play.
    pub best: Move,
    /// Its score for the side to move, in hundredths of a man (or near ±[`WIN`] for a win/loss).
    pub score: i32,
    /// Depth of the deepest finished iteration (0 when even the first was stopped).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent, as the clock counts it.
    pub elapsed: Duration,
    /// The expected line, starting with `best`.
    pub pv: Vec<Move>,
}

/// Plies by which the `searched`-th quiet move (from 0) of a node of `depth` is searched
/// shallower first: growing with the logarithms of depth and move number, never so much that it
/// reaches the horizon at once.
fn late_move_reduction(depth: i32, searched: usize) -> i32 {
    let r = if depth >= 2 && searched >= 2 {
        let x = f64::from(depth).ln() * (searched as f64).ln() / 1.5;
        (0.5 + x) as i32
    } else {
        0
    };
    r.clamp(0, (depth - 2).max(0))
}

/// Options of the search that stay for a whole game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Table size in MiB.
    pub table_mb: usize,
    /// How much worse than even the engine finds a draw (positive: it avoids draws it could
    /// avoid; the evaluation already makes a draw look good when behind and bad when ahead).
    pub contempt: i32,
    /// Weights of the evaluation.
    pub weights: Weights,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            table_mb: 4,
            contempt: 0,
            weights: Weights::default(),
        }
    }
}

/// The search state that lives for a game: table and ordering heuristics.
pub struct Searcher {
    options: SearchOptions,
    table: Table,
    killers: Vec<[Option<Move>; 2]>,
    history: Box<[[u32; 64]; 64]>,
    nodes: u64,
    stopped: bool,
    clock: Clock,
    hard: Option<Duration>,
    node_limit: Option<u64>,
    rule: DrawRule,
    /// The game's crowning rule, which every node's moves are generated under.
    crowning: CrowningRule,
    /// Repetition keys of the positions from the last irreversible move of the game up to the
    /// current node, with, for each, how many of the preceding ones it could repeat.
    path: Vec<(u64, u32)>,
}

impl Searcher {
    /// A searcher with `options`.
    #[must_use]
    pub fn new(options: SearchOptions) -> Searcher {
        Searcher {
            options,
            table: Table::new(options.table_mb),
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: Box::new([[0; 64]; 64]),
            nodes: 0,
            stopped: false,
            clock: Clock::unlimited(),
            hard: None,
            node_limit: None,
            rule: DrawRule::None,
            crowning: CrowningRule::EndsMove,
            path: Vec::new(),
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.iter_mut().for_each(|r| r.fill(0));
    }

    /// The best move for the current position of `game`, searched within `clock` (as `budget`
    /// allots it) and `limits`; `None` when the position has no legal move.
    pub fn think(
        &mut self,
        game: &Game,
        clock: &Clock,
        budget: TimeBudget,
        limits: SearchLimits,
    ) -> Option<Thought> {
        let root = *game.current();
        let moves = game.legal_moves();
        let first = *moves.first()?;
        self.prepare(game, clock, budget, limits);
        let mut best = Thought {
            best: first,
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: vec![first],
        };
        if moves.len() == 1 && limits.depth.is_none() && limits.nodes.is_none() {
            best.elapsed = clock.elapsed();
            return Some(best);
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 8).max(1);
        let mut prev = 0;
        for depth in 1..=max_depth {
            let (score, mv) = self.aspiration(&root, depth as i32, prev, game.quiet_plies());
            if let Some(mv) = mv {
                // A stopped iteration's move is kept only if it was fully searched and scored
                // better than the previous best (it then is at least as good).
                if !self.stopped || score > prev || best.depth == 0 {
                    best.best = mv;
                    best.score = score;
                }
            }
            if self.stopped {
                break;
            }
            best.depth = depth;
            best.score = score;
            prev = score;
            best.pv = self.principal_variation(&root, depth as usize);
            if score.abs() > WIN_BOUND && depth as i32 > 2 * (WIN - score.abs()) + 2 {
                break;
            }
            if let Some(soft) = budget.soft {
                if self.clock.elapsed() >= soft {
                    break;
                }
            }
        }
        if best.pv.first() != Some(&best.best) {
            best.pv = vec![best.best];
        }
        best.nodes = self.nodes;
        best.elapsed = self.clock.elapsed();
        Some(best)
    }

    fn prepare(&mut self, game: &Game, clock: &Clock, budget: TimeBudget, limits: SearchLimits) {
        self.nodes = 0;
        self.stopped = false;
        self.clock = *clock;
        self.hard = budget.hard;
        self.node_limit = limits.nodes;
        self.rule = game.draw_rule();
        self.crowning = game.crowning_rule();
        self.table.new_search();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        for row in self.history.iter_mut() {
            row.iter_mut().for_each(|h| *h /= 4);
        }
        // The game's positions since its last irreversible move, oldest first.
        self.path.clear();
        let positions = game.positions();
        let moves = game.moves();
        let mut first = positions.len() - 1;
        while first > 0 && is_reversible(&positions[first - 1], moves[first - 1]) {
            first -= 1;
        }
        for (i, pos) in positions[first..].iter().enumerate() {
            let key = self.rule.repetition_key(pos).hash();
            self.path.push((key, i as u32));
        }
    }

    /// One iteration with a narrow window around the last score, widened on failure.
    fn aspiration(
        &mut self,
        root: &Position,
        depth: i32,
        prev: i32,
        quiet: u32,
    ) -> (i32, Option<Move>) {
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < WIN_BOUND {
            (prev - delta, prev + delta)
        } else {
            (-WIN - 1, WIN + 1)
        };
        loop {
            let (score, mv) = self.root(root, depth, alpha, beta, quiet);
            if self.stopped {
                return (score, mv);
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-WIN - 1);
            } else if score >= beta {
                beta = (beta + delta).min(WIN + 1);
            } else {
                return (score, mv);
            }
            delta *= 3;
            if delta > 1000 {
                alpha = -WIN - 1;
                beta = WIN + 1;
            }
        }
    }

    /// The root node: like [`Searcher::node`], but reports the best move, and what it found
    /// when stopped part-way (only moves whose search finished).
    fn root(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        quiet: u32,
    ) -> (i32, Option<Move>) {
        let moves = movegen::legal_moves_with(pos, self.crowning);
        let tt_move = self.table.probe(pos.hash()).and_then(|e| e.best);
        let mut keys = self.order(&moves, tt_move, 0);
        let mut best: Option<(i32, usize)> = None;
        let mut searched = 0;
        while let Some(i) = next_best(&mut keys) {
            let mv = moves[i];
            let score = if searched == 0 {
                -self.child(pos, mv, depth - 1, -beta, -alpha, 1, quiet)
            } else {
                let s = -self.child(pos, mv, depth - 1, -alpha - 1, -alpha, 1, quiet);
                if s > alpha && s < beta && !self.stopped {
                    -self.child(pos, mv, depth - 1, -beta, -alpha, 1, quiet)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            searched += 1;
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, i));
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        let Some((score, i)) = best else {
            return (alpha, None);
        };
        if !self.stopped {
            let bound = if score >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.store(pos, depth, score, bound, Some(i), 0);
        }
        (score, Some(moves[i]))
    }

    /// Plays `mv` in `parent` and searches the child with the path extended by it.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        parent: &Position,
        mv: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        quiet: u32,
    ) -> i32 {
        let child = parent.play(mv);
        let q = self.next_quiet(parent, mv, quiet);
        let run = if is_reversible(parent, mv) {
            self.path.last().map_or(0, |p| p.1 + 1)
        } else {
            0
        };
        self.path
            .push((self.rule.repetition_key(&child).hash(), run));
        let score = self.node(&child, depth, alpha, beta, ply, q);
        self.path.pop();
        score
    }

    /// Whether the position at the end of the path repeats an earlier one that it could repeat.
    fn repeats(&self) -> bool {
        let Some(&(key, run)) = self.path.last() else {
            return false;
        };
        let n = self.path.len() - 1;
        (1..=run as usize).any(|back| back <= n && self.path[n - back].0 == key)
    }

    /// Whether the node at the end of the path is drawn by the game's rules (it has a move).
    fn is_draw(&self, ply: usize, quiet: u32) -> bool {
        ply > 0 && (self.repeats() || self.rule.quiet_limit().is_some_and(|l| quiet >= l))
    }

    fn next_quiet(&self, pos: &Position, mv: Move, quiet: u32) -> u32 {
        if self.rule.is_progress(pos, mv) {
            0
        } else {
            quiet.saturating_add(1)
        }
    }

    /// The score of a draw for the side to move at `ply`: `-contempt` for the root side.
    fn draw_score(&self, ply: usize) -> i32 {
        if ply % 2 == 0 {
            -self.options.contempt
        } else {
            self.options.contempt
        }
    }

    fn out_of_time(&mut self) -> bool {
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        } else if self.nodes % CLOCK_INTERVAL == 0 {
            if let Some(hard) = self.hard {
                if self.clock.elapsed() >= hard {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// Negamax with principal-variation windows.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        quiet: u32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        // At the horizon, captures (which are forced) are searched on; quiet positions are
        // evaluated without building their move list.
        let horizon = depth <= 0 || ply >= MAX_PLY;
        if horizon && !movegen::has_jump(pos) {
            if movegen::count_moves_with(pos, self.crowning, Routes::Distinct) == 0 {
                return -(WIN - ply as i32);
            }
            if self.is_draw(ply, quiet) {
                return self.draw_score(ply);
            }
            return evaluate_with(pos, &self.options.weights);
        }
        let mut moves = MoveList::new();
        movegen::generate_with(pos, self.crowning, Routes::Distinct, &mut moves);
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }
        if self.is_draw(ply, quiet) {
            return self.draw_score(ply);
        }
        if ply >= MAX_PLY {
            return evaluate_with(pos, &self.options.weights);
        }
        // Mate-distance pruning.
        let alpha_floor = -(WIN - ply as i32);
        let beta_ceiling = WIN - ply as i32 - 1;
        if alpha_floor >= beta {
            return alpha_floor;
        }
        if beta_ceiling <= alpha {
            return beta_ceiling;
        }

        let key = pos.hash();
        let depth = depth.max(0);
        let entry = self.table.probe(key);
        if let Some(e) = entry {
            if e.depth >= depth {
                let s = from_node(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let tt_move = entry.and_then(|e| e.best);
        // A forced move costs no depth.
        let next_depth = if moves.len() == 1 { depth } else { depth - 1 };

        let original_alpha = alpha;
        let mut best_score = -WIN - 1;
        let mut best_index = 0;
        let mut keys = self.order(&moves, tt_move, ply);
        let mut searched = 0;
        while let Some(i) = next_best(&mut keys) {
            let mv = moves[i];
            let score = if searched == 0 {
                -self.child(pos, mv, next_depth, -beta, -alpha, ply + 1, quiet)
            } else {
                // Late quiet moves are searched shallower first, and again at full depth only
                // if they turn out better than the best so far.
                let reduction = if mv.is_capture() || self.killers[ply].contains(&Some(mv)) {
                    0
                } else {
                    late_move_reduction(depth, searched)
                };
                let mut s = -self.child(
                    pos,
                    mv,
                    next_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    quiet,
                );
                if reduction > 0 && s > alpha && !self.stopped {
                    s = -self.child(pos, mv, next_depth, -alpha - 1, -alpha, ply + 1, quiet);
                }
                if s > alpha && s < beta && !self.stopped {
                    -self.child(pos, mv, next_depth, -beta, -alpha, ply + 1, quiet)
                } else {
                    s
                }
            };
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best_score {
                best_score = score;
                best_index = i;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    if !mv.is_capture() {
                        self.record_cutoff(mv, ply, depth);
                    }
                    break;
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(pos, depth, best_score, bound, Some(best_index), ply);
        best_score
    }

    fn store(
        &mut self,
        pos: &Position,
        depth: i32,
        score: i32,
        bound: Bound,
        best: Option<usize>,
        ply: usize,
    ) {
        self.table.store(
            pos.hash(),
            Entry {
                score: to_node(score, ply),
                depth,
                bound,
                best: best.and_then(|b| u8::try_from(b).ok()),
            },
        );
    }

    fn record_cutoff(&mut self, mv: Move, ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let h = &mut self.history[mv.from().index()][mv.to().index()];
        *h = h.saturating_add((depth * depth) as u32).min(1 << 20);
    }

    /// Ordering keys: table move, captures (more pieces first), crownings, killers, history.
    fn order(
        &self,
        moves: &MoveList,
        tt_move: Option<u8>,
        ply: usize,
    ) -> smallvec::SmallVec<[(u32, u8); 48]> {
        let killers = self.killers[ply.min(MAX_PLY)];
        moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let key = if tt_move.is_some_and(|t| usize::from(t) == i) {
                    u32::MAX
                } else if mv.is_capture() {
                    (3 << 28) + mv.captured().count()
                } else if killers[0] == Some(mv) {
                    2 << 28
                } else if killers[1] == Some(mv) {
                    (2 << 28) - 1
                } else {
                    self.history[mv.from().index()][mv.to().index()]
                };
                (key, i as u8)
            })
            .collect()
    }

    /// The line stored in the table from `root`, at most `max` moves.
    fn principal_variation(&self, root: &Position, max: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut pos = *root;
        let mut seen = Vec::new();
        while pv.len() < max {
            let Some(i) = self.table.probe(pos.hash()).and_then(|e| e.best) else {
                break;
            };
            let moves = movegen::legal_moves_with(&pos, self.crowning);
            let Some(&mv) = moves.get(usize::from(i)) else {
                break;
            };
            if seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
            pv.push(mv);
            pos = pos.play(mv);
        }
        pv
    }
}

/// Takes the highest key left (ties: the earliest generated), removing it.
fn next_best(keys: &mut smallvec::SmallVec<[(u32, u8); 48]>) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (j, k) in keys.iter().enumerate() {
        if best.is_none_or(|b| k.0 > keys[b].0) {
            best = Some(j);
        }
    }
    best.map(|j| usize::from(keys.remove(j).1))
}

/// Whether `mv` in `pos` could be undone: a king's step (no capture, no man moved).
fn is_reversible(pos: &Position, mv: Move) -> bool {
    !mv.is_capture() && pos.kings().contains(mv.from())
}
