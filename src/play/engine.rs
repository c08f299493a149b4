//! The engine as a player: the playing search with its options, answering under a clock.

use std::time::Duration;

use super::clock::{Budget, Clock, TimeBudget, TimeUse};
use super::player::{Player, PlayerError};
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::search::endgame::store::Store;
use crate::search::endgame::EndgameDb;
use crate::search::eval::{Evaluator, Weights};
use crate::search::game::{GameLimits, GameOptions, GameRoot, GameSearcher, Stopwatch};
use crate::search::GameThought;

/// What the game driver found for a move.
pub type Thought = GameThought;

/// What limits and shapes the engine's thinking, on top of the clock it is given.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct EngineOptions {
    /// Think this long per move at most (the clock still applies if shorter).
    pub move_time: Option<Duration>,
    /// Search this many nodes per move (deterministic; the clock's hard limit still applies).
    pub nodes: Option<u64>,
    /// Search to this depth per move.
    pub depth: Option<u32>,
    /// Search options (table size, contempt, evaluation).
    pub search: GameOptions,
    /// Endgame databases to read (a directory of `checkers egdb build`), a block at a time.
    /// `None` here reads none; the front ends start from [`default_egdb`].
    pub egdb: Option<std::path::PathBuf>,
    /// How the clock is spent (`engine:timing=early` for the allocation of before).
    pub time_use: TimeUse,
}

/// The endgame databases a player reads unless told otherwise: `$CHECKERS_EGDB` when set, else
/// `checkers/egdb` in the platform's cache directory (where `checkers egdb build` writes by
/// default), when that directory exists; `None` otherwise. Every front end's engine starts from
/// it (`engine:egdb=none` in a player spec turns it off); [`EngineOptions::default`] does not.
#[must_use]
pub fn default_egdb() -> Option<std::path::PathBuf> {
    Store::default_dir().filter(|dir| dir.is_dir())
}

/// The engine: a game searcher kept for a whole game, and its options.
pub struct Engine {
    options: EngineOptions,
    searcher: GameSearcher,
    last: Option<Thought>,
    /// Set from elsewhere to stop every later search (see [`Engine::set_stop`]).
    stop: Option<crate::search::Stop>,
}

impl Stopwatch for Clock {
    fn elapsed(&self) -> Duration {
        Clock::elapsed(self)
    }
}

impl Engine {
    /// An engine with `options`.
    #[must_use]
    pub fn new(options: EngineOptions) -> Engine {
        let mut searcher = searcher_for(&options);
        if let Some(dir) = &options.egdb {
            let db = EndgameDb::with_store(Store::new(dir));
            if on_the_clock(&options) {
                db.prepare_for_play();
            }
            searcher.set_endgame(std::sync::Arc::new(db));
        }
        Engine {
            options,
            searcher,
            last: None,
            stop: None,
        }
    }

    /// An engine with `options` that reads the endgame databases through `db`, whatever
    /// `options.egdb` says: engines sharing one `db` (the games of a match played at once, one
    /// after another) read each block of the files once and find it cached after.
    #[must_use]
    pub fn with_endgame(options: EngineOptions, db: std::sync::Arc<EndgameDb>) -> Engine {
        let mut searcher = searcher_for(&options);
        if on_the_clock(&options) {
            db.prepare_for_play();
        }
        searcher.set_endgame(db);
        Engine {
            options,
            searcher,
            last: None,
            stop: None,
        }
    }

    /// Stops every later search once `stop` is set, as at the clock's hard limit: the move
    /// found so far is played.
    pub fn set_stop(&mut self, stop: crate::search::Stop) {
        self.stop = Some(stop);
    }

    /// The options.
    #[must_use]
    pub const fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The engine's best move for the current position of `game` within `clock`, with what the
    /// search found; `None` when the position has no legal move.
    ///
    /// With a node or depth limit the soft time target is ignored (so node-limited games repeat
    /// exactly), but the clock's hard limit still stops the search.
    pub fn think(&mut self, game: &Game, clock: &Clock) -> Option<Thought> {
        let budget = self.budget(game, clock);
        let root = GameRoot {
            history: game.reversible_tail(),
            quiet_plies: game.quiet_plies(),
            rule: game.draw_rule(),
            crowning: game.crowning_rule(),
        };
        let limits = GameLimits {
            depth: self.options.depth,
            nodes: self.options.nodes,
            soft: budget.soft,
            hard: budget.hard,
            stop: self.stop.clone(),
        };
        let thought = self.searcher.think(root, clock, limits);
        self.last.clone_from(&thought);
        thought
    }

    /// What the search of the current position of `game` may spend of `clock`: the clock's
    /// allocation, tightened by the engine's own time per move; without the soft target under a
    /// node or depth limit alone, and unlimited for a forced move then.
    #[must_use]
    pub fn budget(&self, game: &Game, clock: &Clock) -> TimeBudget {
        let legal = game.legal_moves().len();
        let (ply, pieces) = (game.ply(), game.current().occupied().count());
        let time_use = self.options.time_use;
        let mut budget = clock.allocate(ply, pieces, legal, time_use);
        if let Some(t) = self.options.move_time {
            let own = Clock::new(Budget::PerMove(t), clock.measure());
            budget = tighter(budget, own.allocate(ply, pieces, legal, time_use));
        }
        if self.options.depth.is_some() || self.options.nodes.is_some() {
            if self.options.move_time.is_none() {
                budget.soft = None;
            }
            if legal == 1 {
                budget = TimeBudget::unlimited();
            }
        }
        budget
    }

    /// The name of an engine with `options`, as a player spec writes it (`engine:nodes=500`).
    #[must_use]
    pub fn new_name(options: &EngineOptions) -> String {
        let mut parts = Vec::new();
        if let Some(t) = options.move_time {
            parts.push(format!("time={}", t.as_secs_f64()));
        }
        if let Some(n) = options.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = options.depth {
            parts.push(format!("depth={d}"));
        }
        let defaults = GameOptions::default();
        if options.search.table_mb != defaults.table_mb {
            parts.push(format!("table={}", options.search.table_mb));
        }
        if options.search.contempt != defaults.contempt {
            parts.push(format!("contempt={}", options.search.contempt));
        }
        if options.search.futility != defaults.futility {
            parts.push(format!("futility={}", options.search.futility));
        }
        if options.search.futility_depth != defaults.futility_depth {
            parts.push(format!("futility_depth={}", options.search.futility_depth));
        }
        if options.search.reduction != defaults.reduction {
            parts.push(format!("reduction={}", options.search.reduction));
        }
        if options.search.horizon_table != defaults.horizon_table {
            parts.push(format!(
                "horizon_table={}",
                u8::from(options.search.horizon_table)
            ));
        }
        if options.search.evaluator != defaults.evaluator {
            parts.extend(options.search.evaluator.spec_option());
        }
        if let (Evaluator::Hand(w), d) = (&options.search.evaluator, Weights::default()) {
            for name in Weights::NAMES {
                if w.get(name) != d.get(name) {
                    parts.push(format!("{name}={}", w.get(name).unwrap_or(0)));
                }
            }
        }
        if let Some(dir) = &options.egdb {
            parts.push(format!("egdb={}", dir.display()));
        }
        if options.time_use == TimeUse::Early {
            parts.push("timing=early".to_owned());
        }
        if parts.is_empty() {
            "engine".to_owned()
        } else {
            format!("engine:{}", parts.join(","))
        }
    }

    /// What the last call to [`Engine::think`] found.
    #[must_use]
    pub fn last_thought(&self) -> Option<&Thought> {
        self.last.as_ref()
    }
}

/// Whether an engine with `options` plays on the clock alone (no node or depth limit): such an
/// engine does up front whatever would otherwise pause its search between two reads of the clock.
fn on_the_clock(options: &EngineOptions) -> bool {
    options.nodes.is_none() && options.depth.is_none()
}

/// The game searcher for `options`. One that plays on the clock alone has its table at full size
/// at once: a table grows while it fills, and a growth, which re-inserts every entry into fresh
/// memory, is a pause of milliseconds between two reads of the clock (`examples/time_use.rs`),
/// enough to overrun a short time per move. (Its databases' files are opened up front too:
/// [`EndgameDb::prepare_for_play`].) Node- and depth-limited searches keep the growing table, so
/// their games stay as they were.
fn searcher_for(options: &EngineOptions) -> GameSearcher {
    let mut searcher = GameSearcher::new(options.search.clone());
    if on_the_clock(options) {
        searcher.reserve_table();
    }
    searcher
}

/// The tighter of two budgets, limit by limit.
fn tighter(a: TimeBudget, b: TimeBudget) -> TimeBudget {
    let min = |x: Option<Duration>, y: Option<Duration>| match (x, y) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    };
    TimeBudget {
        soft: min(a.soft, b.soft),
        hard: min(a.hard, b.hard),
    }
}

impl Player for Engine {
    fn name(&self) -> String {
        Engine::new_name(&self.options)
    }

    fn new_game(&mut self) {
        self.searcher.clear();
        self.last = None;
    }

    fn choose(&mut self, game: &Game, clock: &Clock) -> Result<Move, PlayerError> {
        self.think(game, clock)
            .map(|t| t.best)
            .ok_or(PlayerError::NoLegalMove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::draw::DrawRule;
    use crate::rules::position::Position;

    #[test]
    fn a_stopped_engine_plays_the_move_found_so_far() {
        let mut engine = Engine::new(EngineOptions {
            depth: Some(12),
            ..EngineOptions::default()
        });
        let stop = crate::search::Stop::new();
        engine.set_stop(stop.clone());
        stop.stop();
        let game = Game::new(Position::start(), DrawRule::None);
        let thought = engine.think(&game, &Clock::unlimited()).expect("a move");
        assert!(game.legal_moves().contains(&thought.best));
        // It stops at its first look at the flag instead of searching 12 plies deep.
        assert!(thought.nodes <= 2 * 1024, "{} nodes", thought.nodes);
    }
}
