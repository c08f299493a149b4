//! The game driver: the search that plays whole games under a clock, over the same core as the
//! puzzle driver ([`Score`], [`TranspositionTable`], [`MoveOrderer`], [`Evaluator`]).
//!
//! Principal-variation alpha-beta with iterative deepening, aspiration windows, late move
//! reductions, a capture extension at the horizon, and the game's draw rules (repetition and
//! quiet moves) seen along every line. Unlike the puzzle driver it claims no proofs: it stops on
//! the clock, a node budget or a stop flag, and returns the best move of the deepest finished
//! iteration (or the better move a stopped iteration already found).

use std::sync::Arc;
use std::time::Duration;

use crate::rules::draw::DrawRule;
use crate::rules::game::is_reversible;
use crate::rules::movegen::{self, CrowningRule, Routes};
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;

use super::endgame::{EndgameDb, PROBE_PIECES};
use super::eval::Evaluator;
use super::ordering::MoveOrderer;
use super::score::{Score, MAX_PLY};
use super::stop::Stop;
use super::tt::{Bound, Entry, TranspositionTable};

/// Deepest iteration of a game search, in plies (the lines it follows are at most
/// [`MAX_PLY`] long).
pub const MAX_GAME_DEPTH: u32 = 248;
/// How often (in nodes) the clock and the stop flag are read.
const CLOCK_INTERVAL: u64 = 256;

/// Time as the game's clock counts it (wall or CPU time), read by the search every
/// few hundred nodes.
pub trait Stopwatch {
    /// Time counted since the move began.
    fn elapsed(&self) -> Duration;
}

/// When a game search must stop.
#[derive(Clone, Debug, Default)]
pub struct GameLimits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes for the whole move (makes the search deterministic).
    pub nodes: Option<u64>,
    /// No new iteration starts after this much time on the stopwatch.
    pub soft: Option<Duration>,
    /// The search stops at this time on the stopwatch, wherever it is.
    pub hard: Option<Duration>,
    /// Set from elsewhere to stop the search as soon as it reads it.
    pub stop: Option<Stop>,
}

/// The position to move and the game around it, as the search needs it.
#[derive(Clone, Copy, Debug)]
pub struct GameRoot<'a> {
    /// The positions since the game's last irreversible move (anything but a king's step),
    /// oldest first, ending with the position to move: the only ones a line can repeat.
    pub history: &'a [Position],
    /// Plies played since the last progress, as the draw rule counts them.
    pub quiet_plies: u32,
    /// The game's draw rule.
    pub rule: DrawRule,
    /// The game's crowning rule, under which every node's moves are generated.
    pub crowning: CrowningRule,
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameThought {
    /// The move to play.
    pub best: Move,
    /// Its score for the side to move (a heuristic value, or a win or loss at a distance).
    pub score: Score,
    /// Depth of the deepest finished iteration (0 when even the first was stopped).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent, as the stopwatch counts it.
    pub elapsed: Duration,
    /// The expected line, starting with `best`.
    pub pv: Vec<Move>,
}

/// Options of the search that stay for a whole game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOptions {
    /// Table size in MiB.
    pub table_mb: usize,
    /// How much worse than even the engine finds a draw (positive: it avoids draws it could
    /// avoid; the evaluation already makes a draw look good when behind and bad when ahead).
    pub contempt: i32,
    /// The evaluation.
    pub evaluator: Evaluator,
    /// Static pruning near the horizon, in hundredths of a man a ply (0: none): a node of a
    /// null window at most [`futility_depth`](Self::futility_depth) plies from the horizon,
    /// with no capture to make, whose evaluation stands this much a ply above beta returns its
    /// evaluation unsearched.
    pub futility: i32,
    /// Deepest node (in plies to the horizon) that [`futility`](Self::futility) may prune.
    pub futility_depth: i32,
    /// How strongly late quiet moves are reduced, in hundredths: the product of the logarithms
    /// of depth and move number is divided by this (larger: smaller reductions).
    pub reduction: u32,
    /// Whether the nodes at the horizon, where only captures are searched on, read and write
    /// the table (the nodes before the horizon always do).
    pub horizon_table: bool,
}

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            table_mb: 4,
            contempt: 0,
            evaluator: Evaluator::game_default(),
            futility: 50,
            futility_depth: 3,
            reduction: 150,
            horizon_table: false,
        }
    }
}

/// Plies by which the `searched`-th quiet move (from 0) of a node of `depth` is searched
/// shallower first: growing with the logarithms of depth and move number, never so much that it
/// reaches the horizon at once.
fn late_move_reduction(depth: i32, searched: usize, divisor: u32) -> i32 {
    let r = if depth >= 2 && searched >= 2 {
        let x = f64::from(depth).ln() * (searched as f64).ln() * 100.0 / f64::from(divisor);
        (0.5 + x) as i32
    } else {
        0
    };
    r.clamp(0, (depth - 2).max(0))
}

/// A node's place in the line: plies from the root, and quiet plies of the game at it.
#[derive(Clone, Copy, Debug)]
struct At {
    ply: usize,
    quiet: u32,
}

/// A search window.
#[derive(Clone, Copy, Debug)]
struct Window {
    alpha: Score,
    beta: Score,
}

impl Window {
    /// The window seen from the child: negated and swapped.
    fn child(self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha,
        }
    }

    /// The null window just above `alpha`, seen from the child.
    fn null_child(self) -> Window {
        Window {
            alpha: -self.alpha - Score(1),
            beta: -self.alpha,
        }
    }
}

/// The widest window.
const FULL: Window = Window {
    alpha: Score::MIN,
    beta: Score::MAX,
};

/// The game search's state that lives for a game: table and ordering heuristics.
pub struct GameSearcher {
    options: GameOptions,
    table: TranspositionTable,
    orderer: MoveOrderer,
    nodes: u64,
    stopped: bool,
    limits: GameLimits,
    rule: DrawRule,
    crowning: CrowningRule,
    /// Repetition keys of the positions from the last irreversible move of the game up to the
    /// current node, with, for each, how many of the preceding ones it could repeat.
    path: Vec<(u64, u32)>,
    /// Endgame databases read at the root and at every node of few enough pieces.
    endgame: Option<Arc<EndgameDb>>,
    /// The databases' count of blocks read from their files, as last seen.
    blocks_read: u64,
    /// Read the clock at the next node whatever the node count: a block was read from a
    /// database file (a fraction of a millisecond each, too long to wait 256 nodes for).
    check_clock: bool,
}

impl GameSearcher {
    /// A searcher with `options`.
    #[must_use]
    pub fn new(options: GameOptions) -> GameSearcher {
        GameSearcher {
            table: TranspositionTable::new(options.table_mb),
            options,
            orderer: MoveOrderer::default(),
            nodes: 0,
            stopped: false,
            limits: GameLimits::default(),
            rule: DrawRule::None,
            crowning: CrowningRule::EndsMove,
            path: Vec::new(),
            endgame: None,
            blocks_read: 0,
            check_clock: false,
        }
    }

    /// Reads `db` (typically the files of `egdb build --pieces 6`, a block at a time) at the
    /// root and at the nodes of at most [`PROBE_PIECES`] pieces: a position it values is not
    /// searched, when the value holds under the game's draw rule (a draw always; a win or a
    /// loss only when the game ends before the quiet-move count left could run out).
    pub fn set_endgame(&mut self, db: Arc<EndgameDb>) {
        self.endgame = Some(db);
    }

    /// The databases' exact score of `pos` at `at`, when they value it and the value holds in
    /// this game: always for a draw (the draw rule only adds draws); for a win or a loss only
    /// when the game ends before the quiet-move count the rule leaves could run out, even if
    /// every ply were quiet (otherwise the rule may draw it first, and the search decides). The
    /// databases are of the standard crowning rule: not read under another.
    fn endgame_score(&self, pos: &Position, at: At) -> Option<Score> {
        let db = self.endgame.as_ref()?;
        if self.crowning != CrowningRule::EndsMove || pos.occupied().count() as usize > PROBE_PIECES
        {
            return None;
        }
        let score = db.score(pos, at.ply)?;
        match (score.plies_to_end(), self.rule.quiet_limit()) {
            (None, _) | (Some(_), None) => Some(score),
            (Some(end), Some(limit)) => {
                let plies = end.saturating_sub(at.ply as u32);
                (at.quiet.saturating_add(plies) < limit).then_some(score)
            }
        }
    }

    /// [`endgame_score`](Self::endgame_score) at a node of the search, which has the clock read
    /// at the next node when the look-up read a block from a file.
    fn endgame_score_at_node(&mut self, pos: &Position, at: At) -> Option<Score> {
        let db = self.endgame.as_ref()?;
        if pos.occupied().count() as usize > PROBE_PIECES {
            return None;
        }
        let score = self.endgame_score(pos, at);
        let reads = db.blocks_read();
        if reads != self.blocks_read {
            self.blocks_read = reads;
            self.check_clock = true;
        }
        score
    }

    /// The move the databases choose at the root: the fastest win, else a draw, else the
    /// slowest loss (the first in move order among equals), when they value every move within
    /// the draw rule ([`endgame_score`](Self::endgame_score)).
    fn endgame_move(&self, pos: &Position, moves: &MoveList, quiet: u32) -> Option<(Move, Score)> {
        self.endgame.as_ref()?;
        let mut best: Option<(Move, Score)> = None;
        for &mv in moves.iter() {
            let child = pos.play(mv);
            let at = At {
                ply: 1,
                quiet: if self.rule.is_progress(pos, mv) {
                    0
                } else {
                    quiet.saturating_add(1)
                },
            };
            let score = -self.endgame_score(&child, at)?;
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((mv, score));
            }
        }
        best
    }

    /// The options.
    #[must_use]
    pub const fn options(&self) -> &GameOptions {
        &self.options
    }

    /// Sets the table at its full size now instead of letting it grow as it fills: a growth is
    /// a pause of milliseconds between two reads of the clock (see
    /// [`TranspositionTable::reserve_full`]).
    pub fn reserve_table(&mut self) {
        self.table.reserve_full();
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.orderer.clear();
    }

    /// The best move for the position at the end of `root.history`, searched within `limits`
    /// as `stopwatch` counts time; `None` when the position has no legal move.
    pub fn think(
        &mut self,
        root: GameRoot<'_>,
        stopwatch: &dyn Stopwatch,
        limits: GameLimits,
    ) -> Option<GameThought> {
        let pos = *root.history.last()?;
        let moves = root.crowning.legal_moves(&pos);
        let first = *moves.first()?;
        let fixed = limits.depth.is_some() || limits.nodes.is_some();
        let max_depth = limits
            .depth
            .unwrap_or(MAX_GAME_DEPTH)
            .clamp(1, MAX_GAME_DEPTH);
        self.prepare(root, limits);
        if let Some((mv, score)) = self.endgame_move(&pos, &moves, root.quiet_plies) {
            return Some(GameThought {
                best: mv,
                score,
                depth: 1,
                nodes: 0,
                elapsed: stopwatch.elapsed(),
                pv: vec![mv],
            });
        }
        let mut best = GameThought {
            best: first,
            score: Score::ZERO,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: vec![first],
        };
        if moves.len() == 1 && !fixed {
            best.elapsed = stopwatch.elapsed();
            return Some(best);
        }
        let mut prev = Score::ZERO;
        for depth in 1..=max_depth {
            let (score, mv) =
                self.aspiration(&pos, depth as i32, prev, root.quiet_plies, stopwatch);
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
            best.pv = self.principal_variation(&pos, depth as usize);
            // A game end found within the depth searched cannot change with more depth.
            if score
                .plies_to_end()
                .is_some_and(|n| depth as i32 > 2 * n as i32 + 2)
            {
                break;
            }
            if self
                .limits
                .soft
                .is_some_and(|soft| stopwatch.elapsed() >= soft)
            {
                break;
            }
        }
        if best.pv.first() != Some(&best.best) {
            best.pv = vec![best.best];
        }
        best.nodes = self.nodes;
        best.elapsed = stopwatch.elapsed();
        Some(best)
    }

    fn prepare(&mut self, root: GameRoot<'_>, limits: GameLimits) {
        self.nodes = 0;
        self.stopped = false;
        self.limits = limits;
        self.rule = root.rule;
        self.crowning = root.crowning;
        self.table.new_generation();
        self.orderer.new_turn();
        self.path.clear();
        for (i, pos) in root.history.iter().enumerate() {
            let key = self.rule.repetition_key(pos).hash();
            self.path.push((key, i as u32));
        }
    }

    /// One iteration with a narrow window around the last score, widened on failure.
    fn aspiration(
        &mut self,
        root: &Position,
        depth: i32,
        prev: Score,
        quiet: u32,
        stopwatch: &dyn Stopwatch,
    ) -> (Score, Option<Move>) {
        let mut delta = 30;
        let mut window = if depth >= 5 && !prev.is_game_end() {
            Window {
                alpha: prev - Score(delta),
                beta: prev + Score(delta),
            }
        } else {
            FULL
        };
        loop {
            let (score, mv) = self.root(root, depth, window, quiet, stopwatch);
            if self.stopped {
                return (score, mv);
            }
            if score <= window.alpha {
                window.alpha = (window.alpha - Score(delta)).max(Score::MIN);
            } else if score >= window.beta {
                window.beta = (window.beta + Score(delta)).min(Score::MAX);
            } else {
                return (score, mv);
            }
            delta *= 3;
            if delta > 1000 {
                window = FULL;
            }
        }
    }

    /// The root node: like [`GameSearcher::node`], but reports the best move, and what it found
    /// when stopped part-way (only moves whose search finished).
    fn root(
        &mut self,
        pos: &Position,
        depth: i32,
        mut window: Window,
        quiet: u32,
        stopwatch: &dyn Stopwatch,
    ) -> (Score, Option<Move>) {
        let moves = self.crowning.legal_moves(pos);
        let tt_move = self.table.probe(pos.hash()).and_then(|e| e.best);
        let mut keys = self.orderer.keys(&moves, tt_move, 0, pos.side_to_move());
        let at = At { ply: 0, quiet };
        let mut best: Option<(Score, usize)> = None;
        let mut searched = 0;
        while let Some(i) = keys.next_best() {
            let mv = moves[i];
            let score = if searched == 0 {
                -self.child(pos, mv, depth - 1, window.child(), at, stopwatch)
            } else {
                let s = -self.child(pos, mv, depth - 1, window.null_child(), at, stopwatch);
                if s > window.alpha && s < window.beta && !self.stopped {
                    -self.child(pos, mv, depth - 1, window.child(), at, stopwatch)
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
            if score > window.alpha {
                window.alpha = score;
                if score >= window.beta {
                    break;
                }
            }
        }
        let Some((score, i)) = best else {
            return (window.alpha, None);
        };
        if !self.stopped {
            let bound = if score >= window.beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.store(pos, depth, score, bound, Some(i), 0);
        }
        (score, Some(moves[i]))
    }

    /// Plays `mv` in `parent` (at `at`) and searches the child with the path extended by it.
    fn child(
        &mut self,
        parent: &Position,
        mv: Move,
        depth: i32,
        window: Window,
        at: At,
        stopwatch: &dyn Stopwatch,
    ) -> Score {
        let child = parent.play(mv);
        let quiet = if self.rule.is_progress(parent, mv) {
            0
        } else {
            at.quiet.saturating_add(1)
        };
        let run = if is_reversible(parent, mv) {
            self.path.last().map_or(0, |p| p.1 + 1)
        } else {
            0
        };
        self.path
            .push((self.rule.repetition_key(&child).hash(), run));
        let next = At {
            ply: at.ply + 1,
            quiet,
        };
        let score = self.node(&child, depth, window, next, stopwatch);
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
    fn is_draw(&self, at: At) -> bool {
        at.ply > 0 && (self.repeats() || self.rule.quiet_limit().is_some_and(|l| at.quiet >= l))
    }

    /// The score of a draw for the side to move at `ply`: `-contempt` for the root side.
    fn draw_score(&self, ply: usize) -> Score {
        if ply % 2 == 0 {
            Score(-self.options.contempt)
        } else {
            Score(self.options.contempt)
        }
    }

    fn out_of_time(&mut self, stopwatch: &dyn Stopwatch) -> bool {
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        } else if self.nodes % CLOCK_INTERVAL == 0 || std::mem::take(&mut self.check_clock) {
            let late = self.limits.hard.is_some_and(|h| stopwatch.elapsed() >= h);
            let told = self.limits.stop.as_ref().is_some_and(Stop::is_set);
            if late || told {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Negamax with principal-variation windows and late move reductions.
    fn node(
        &mut self,
        pos: &Position,
        depth: i32,
        mut window: Window,
        at: At,
        stopwatch: &dyn Stopwatch,
    ) -> Score {
        self.nodes += 1;
        if self.out_of_time(stopwatch) {
            return Score::ZERO;
        }
        let ply = at.ply;
        if ply > 0 && !self.is_draw(at) {
            if let Some(score) = self.endgame_score_at_node(pos, at) {
                return if score == Score::ZERO {
                    self.draw_score(ply)
                } else {
                    score
                };
            }
        }
        // At the horizon, captures (which are forced) are searched on; quiet positions are
        // evaluated without building their move list.
        let horizon = depth <= 0 || ply >= MAX_PLY;
        if horizon && !movegen::has_jump(pos) {
            if self.crowning.count_moves(pos, Routes::Distinct) == 0 {
                return Score::lost_at(ply);
            }
            if self.is_draw(at) {
                return self.draw_score(ply);
            }
            return self.options.evaluator.evaluate(pos);
        }
        let mut moves = MoveList::new();
        self.crowning.generate(pos, Routes::Distinct, &mut moves);
        if moves.is_empty() {
            return Score::lost_at(ply);
        }
        if self.is_draw(at) {
            return self.draw_score(ply);
        }
        if ply >= MAX_PLY {
            return self.options.evaluator.evaluate(pos);
        }
        // Mate-distance pruning: nothing here can lose before now or win before the next ply.
        let alpha_floor = Score::lost_at(ply);
        let beta_ceiling = Score::won_at(ply + 1);
        if alpha_floor >= window.beta {
            return alpha_floor;
        }
        if beta_ceiling <= window.alpha {
            return beta_ceiling;
        }

        let depth = depth.max(0);
        let use_table = depth > 0 || self.options.horizon_table;
        let entry = if use_table {
            self.table.probe(pos.hash())
        } else {
            None
        };
        if let Some(e) = entry {
            if i32::from(e.depth) >= depth {
                let s = e.score.from_node(ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= window.beta,
                    Bound::Upper => s <= window.alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let tt_move = entry.and_then(|e| e.best);
        if self.options.futility > 0
            && (1..=self.options.futility_depth).contains(&depth)
            && window.beta.0 - window.alpha.0 == 1
            && !window.beta.is_game_end()
            // Captures are forced, so the first move tells whether there is one to make.
            && !moves[0].is_capture()
        {
            let eval = self.options.evaluator.evaluate(pos);
            if eval.0 - self.options.futility * depth >= window.beta.0 {
                return eval;
            }
        }
        // A forced move costs no depth.
        let next_depth = if moves.len() == 1 { depth } else { depth - 1 };

        let side = pos.side_to_move();
        let original_alpha = window.alpha;
        let mut best_score = Score::MIN;
        let mut best_index = 0;
        let mut keys = self.orderer.keys(&moves, tt_move, ply, side);
        let mut searched = 0;
        while let Some(i) = keys.next_best() {
            let mv = moves[i];
            let score = if searched == 0 {
                -self.child(pos, mv, next_depth, window.child(), at, stopwatch)
            } else {
                // Late quiet moves are searched shallower first, and again at full depth only
                // if they turn out better than the best so far.
                let reduction = if mv.is_capture() || self.orderer.is_killer(mv, ply) {
                    0
                } else {
                    late_move_reduction(depth, searched, self.options.reduction)
                };
                let null = window.null_child();
                let mut s = -self.child(pos, mv, next_depth - reduction, null, at, stopwatch);
                if reduction > 0 && s > window.alpha && !self.stopped {
                    s = -self.child(pos, mv, next_depth, null, at, stopwatch);
                }
                if s > window.alpha && s < window.beta && !self.stopped {
                    -self.child(pos, mv, next_depth, window.child(), at, stopwatch)
                } else {
                    s
                }
            };
            if self.stopped {
                return Score::ZERO;
            }
            searched += 1;
            if score > best_score {
                best_score = score;
                best_index = i;
            }
            if score > window.alpha {
                window.alpha = score;
                if score >= window.beta {
                    self.orderer.record_cutoff(mv, ply, depth, side);
                    break;
                }
            }
        }
        let bound = if best_score >= window.beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if use_table {
            self.store(pos, depth, best_score, bound, Some(best_index), ply);
        }
        best_score
    }

    fn store(
        &mut self,
        pos: &Position,
        depth: i32,
        score: Score,
        bound: Bound,
        best: Option<usize>,
        ply: usize,
    ) {
        self.table.store(
            pos.hash(),
            Entry {
                score: score.to_node(ply),
                depth: depth.clamp(0, 255) as u8,
                bound,
                best: best.and_then(|b| u8::try_from(b).ok()),
            },
        );
    }

    /// The line stored in the table from `root`, at most `max` moves.
    fn principal_variation(&mut self, root: &Position, max: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut pos = *root;
        let mut seen = Vec::new();
        while pv.len() < max {
            let Some(i) = self.table.probe(pos.hash()).and_then(|e| e.best) else {
                break;
            };
            let moves = self.crowning.legal_moves(&pos);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A stopwatch that never moves.
    struct Frozen;

    impl Stopwatch for Frozen {
        fn elapsed(&self) -> Duration {
            Duration::ZERO
        }
    }

    /// The databases of up to three pieces, built into a temporary folder (kept while it lives),
    /// read through the store as a player reads them.
    fn databases_of_three() -> (tempfile::TempDir, Arc<EndgameDb>) {
        use crate::search::endgame::store::Store;
        let dir = tempfile::tempdir().expect("temporary directory");
        let mut db = EndgameDb::with_store(Store::new(dir.path()));
        db.build_store(3, &mut |_, _| {}, &mut |_| {})
            .expect("built");
        let db = Arc::new(EndgameDb::with_store(Store::new(dir.path())));
        (dir, db)
    }

    /// With the databases of up to three pieces, two kings against one are won at once by the
    /// shortest way, without a node searched; under the CSCI561 rule with too few quiet plies
    /// left for that win, the databases' win is not taken as one and the search decides.
    #[test]
    fn the_databases_choose_the_move_when_their_value_holds_in_the_game() {
        let (_dir, db) = databases_of_three();
        let pos = crate::formats::board_text::parse_board(
            b"........\n\
              ........\n\
              ...b....\n\
              ........\n\
              ........\n\
              ........\n\
              ........\n\
              R.R.....\n",
        )
        .expect("a board");
        let pos = Position::new(
            pos.pieces(crate::rules::piece::Color::Red),
            pos.pieces(crate::rules::piece::Color::Black),
            pos.occupied(),
            crate::rules::piece::Color::Red,
        )
        .expect("kings only");
        let truth = db.score(&pos, 0).expect("valued");
        assert!(truth.is_win());
        let think = |rule, quiet| {
            let mut searcher = GameSearcher::new(GameOptions::default());
            searcher.set_endgame(Arc::clone(&db));
            let history = [pos];
            let root = GameRoot {
                history: &history,
                quiet_plies: quiet,
                rule,
                crowning: CrowningRule::EndsMove,
            };
            let limits = GameLimits {
                depth: Some(4),
                ..GameLimits::default()
            };
            searcher.think(root, &Frozen, limits).expect("a move")
        };
        let read = think(DrawRule::None, 0);
        assert_eq!((read.score, read.nodes), (truth, 0));
        assert_eq!(
            db.score(&pos.play(read.best), 1).map(|s| -s),
            Some(truth),
            "the shortest win"
        );
        let plies = truth.plies_to_end().expect("a win");
        let late = think(
            DrawRule::Csci561,
            crate::rules::draw::QUIET_PLY_LIMIT - plies,
        );
        assert!(late.nodes > 0, "searched, not read");
        assert!(!late.score.is_win() || late.score.plies_to_end() < Some(plies));
    }

    /// A stopwatch that notes the databases' count of blocks read each time it is read.
    struct Watching {
        db: Arc<EndgameDb>,
        seen: std::cell::RefCell<Vec<u64>>,
    }

    impl Stopwatch for Watching {
        fn elapsed(&self) -> Duration {
            self.seen.borrow_mut().push(self.db.blocks_read());
            Duration::ZERO
        }
    }

    /// A block read from a database file takes a fraction of a millisecond, so the clock is read
    /// at the node after each one, not 256 nodes later: every count of blocks read during the
    /// search is seen by the stopwatch. (The node count is the same either way.)
    #[test]
    fn the_clock_is_read_after_every_block_read_from_a_database_file() {
        let (_dir, db) = databases_of_three();
        // Five pieces, men on both sides: the search's captures lead into the files, six blocks
        // of them at depth 12 (and 16 and 20) with the hand-set evaluation and with the fourth
        // trained weights alike; the four of `W:W22,K30:B9,K5` gave three or four blocks,
        // depending on the weights, too few for the test.
        let pos = crate::formats::fen::parse("W:W22,K30:B9,K5,K1").expect("a FEN");
        let watch = Watching {
            db: Arc::clone(&db),
            seen: std::cell::RefCell::new(Vec::new()),
        };
        let mut searcher = GameSearcher::new(GameOptions::default());
        searcher.set_endgame(Arc::clone(&db));
        let history = [pos];
        let limits = GameLimits {
            depth: Some(12),
            hard: Some(Duration::from_secs(3600)),
            ..GameLimits::default()
        };
        let thought = searcher
            .think(root(&history), &watch, limits)
            .expect("a move");
        let seen = watch.seen.into_inner();
        let (first, last) = (seen[0], db.blocks_read());
        assert!(
            last > first + 2,
            "blocks read during the search: {first} to {last}"
        );
        for count in first..=last {
            assert!(
                seen.contains(&count),
                "{count} blocks read, the clock not read after"
            );
        }
        assert!(thought.nodes > 0);
    }

    fn root(history: &[Position]) -> GameRoot<'_> {
        GameRoot {
            history,
            quiet_plies: 0,
            rule: DrawRule::Csci561,
            crowning: CrowningRule::EndsMove,
        }
    }

    #[test]
    fn a_node_budget_is_kept_and_repeats_exactly() {
        let start = [Position::start()];
        let limits = GameLimits {
            nodes: Some(3_000),
            ..GameLimits::default()
        };
        let mut a = GameSearcher::new(GameOptions::default());
        let first = a
            .think(root(&start), &Frozen, limits.clone())
            .expect("a move");
        assert!(first.nodes <= 3_000 && first.depth >= 3, "{first:?}");
        let mut b = GameSearcher::new(GameOptions::default());
        assert_eq!(b.think(root(&start), &Frozen, limits), Some(first));
    }

    #[test]
    fn a_raised_stop_flag_stops_the_search_with_a_legal_move() {
        let start = [Position::start()];
        let stop = Stop::new();
        stop.stop();
        let limits = GameLimits {
            stop: Some(stop),
            ..GameLimits::default()
        };
        let mut searcher = GameSearcher::new(GameOptions::default());
        let thought = searcher
            .think(root(&start), &Frozen, limits)
            .expect("a move");
        // Read every CLOCK_INTERVAL nodes: a few shallow iterations at most.
        assert!(thought.nodes <= CLOCK_INTERVAL, "{thought:?}");
        assert!(movegen::legal_moves(&start[0]).contains(&thought.best));
        // A flag stays set: the next search is given one nobody raised.
        let lowered = GameLimits {
            depth: Some(6),
            stop: Some(Stop::new()),
            ..GameLimits::default()
        };
        let free = searcher
            .think(root(&start), &Frozen, lowered)
            .expect("a move");
        assert_eq!(free.depth, 6, "{free:?}");
        assert!(free.nodes > CLOCK_INTERVAL, "{free:?}");
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number_but_never_reach_the_horizon() {
        assert_eq!(late_move_reduction(8, 0, 150), 0);
        assert_eq!(late_move_reduction(8, 1, 150), 0);
        assert_eq!(late_move_reduction(1, 10, 150), 0);
        assert!(late_move_reduction(12, 20, 150) > late_move_reduction(4, 3, 150));
        for depth in 2..40 {
            for searched in 0..40 {
                assert!(late_move_reduction(depth, searched, 150) <= depth - 2);
            }
        }
    }
}
