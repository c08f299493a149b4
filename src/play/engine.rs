//! The engine as a player: the playing search with its options, answering under a clock.

use std::time::Duration;

use super::clock::{Budget, Clock, TimeBudget};
use super::game::Game;
use super::player::{Player, PlayerError};
use super::search::{SearchLimits, SearchOptions, Searcher, Thought};
use crate::rules::moves::Move;

/// What limits and shapes the engine's thinking, on top of the clock it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EngineOptions {
    /// Think this long per move at most (the clock still applies if shorter).
    pub move_time: Option<Duration>,
    /// Search this many nodes per move (deterministic; the clock's hard limit still applies).
    pub nodes: Option<u64>,
    /// Search to this depth per move.
    pub depth: Option<u32>,
    /// Search options (table size, contempt).
    pub search: SearchOptions,
}

/// The engine: a [`Searcher`] kept for a whole game, and its options.
pub struct Engine {
    options: EngineOptions,
    searcher: Searcher,
    last: Option<Thought>,
}

impl Engine {
    /// An engine with `options`.
    #[must_use]
    pub fn new(options: EngineOptions) -> Engine {
        Engine {
            options,
            searcher: Searcher::new(options.search),
            last: None,
        }
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
        let legal = game.legal_moves().len();
        let pos = game.current();
        let mut budget = clock.allocate(game.ply(), pos.occupied().count(), legal);
        if let Some(t) = self.options.move_time {
            let own = Clock::new(Budget::PerMove(t), clock.measure()).allocate(
                game.ply(),
                pos.occupied().count(),
                legal,
            );
            budget = tighter(budget, own);
        }
        let limits = SearchLimits {
            depth: self.options.depth,
            nodes: self.options.nodes,
        };
        if limits.depth.is_some() || limits.nodes.is_some() {
            if self.options.move_time.is_none() {
                budget.soft = None;
            }
            if legal == 1 {
                budget = TimeBudget::unlimited();
            }
        }
        let thought = self.searcher.think(game, clock, budget, limits);
        self.last.clone_from(&thought);
        thought
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
        let defaults = SearchOptions::default();
        if options.search.table_mb != defaults.table_mb {
            parts.push(format!("table={}", options.search.table_mb));
        }
        if options.search.contempt != defaults.contempt {
            parts.push(format!("contempt={}", options.search.contempt));
        }
        if options.search.features != defaults.features {
            parts.push(format!("lmr={}", options.search.features.reductions));
        }
        if options.search.eval != defaults.eval {
            parts.extend(options.search.eval.spec_option());
        }
        let (mut w, mut d) = (options.search.weights, defaults.weights);
        for name in crate::play::eval::Weights::NAMES {
            let (a, b) = (w.get_mut(name).map(|x| *x), d.get_mut(name).map(|x| *x));
            if a != b {
                parts.push(format!("{name}={}", a.unwrap_or(0)));
            }
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
