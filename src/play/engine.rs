//! The engine as a player: the playing search with its options, answering under a clock.

use std::time::Duration;

use super::clock::{Budget, Clock, TimeBudget};
use super::game::Game;
use super::player::{Player, PlayerError};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::eval::{Evaluator, Weights};
use crate::search::game::{
    is_reversible, GameLimits, GameOptions, GameRoot, GameSearcher, Stopwatch,
};
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
    /// Temporary (issue 20's strength match): play with the game search as it was before it was
    /// unified with the puzzle search.
    pub legacy: bool,
}

/// The search an engine plays with.
enum Search {
    Unified(Box<GameSearcher>),
    Legacy(Box<super::legacy::search::Searcher>),
}

/// The engine: a game searcher kept for a whole game, and its options.
pub struct Engine {
    options: EngineOptions,
    searcher: Search,
    last: Option<Thought>,
}

impl Stopwatch for Clock {
    fn elapsed(&self) -> Duration {
        Clock::elapsed(self)
    }
}

/// The positions of `game` since its last irreversible move (anything but a king's step),
/// oldest first, ending with the current one.
fn since_irreversible(game: &Game) -> &[Position] {
    let positions = game.positions();
    let moves = game.moves();
    let mut first = positions.len() - 1;
    while first > 0 && is_reversible(&positions[first - 1], moves[first - 1]) {
        first -= 1;
    }
    &positions[first..]
}

impl Engine {
    /// An engine with `options`.
    #[must_use]
    pub fn new(options: EngineOptions) -> Engine {
        let searcher = if options.legacy {
            let legacy = super::legacy::search::SearchOptions {
                table_mb: options.search.table_mb,
                contempt: options.search.contempt,
                ..Default::default()
            };
            Search::Legacy(Box::new(super::legacy::search::Searcher::new(legacy)))
        } else {
            Search::Unified(Box::new(GameSearcher::new(options.search.clone())))
        };
        Engine {
            options,
            searcher,
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
        let fixed = self.options.depth.is_some() || self.options.nodes.is_some();
        if fixed {
            if self.options.move_time.is_none() {
                budget.soft = None;
            }
            if legal == 1 {
                budget = TimeBudget::unlimited();
            }
        }
        let thought = match &mut self.searcher {
            Search::Unified(searcher) => {
                let root = GameRoot {
                    history: since_irreversible(game),
                    quiet_plies: game.quiet_plies(),
                    rule: game.draw_rule(),
                    crowning: game.crowning_rule(),
                };
                let limits = GameLimits {
                    depth: self.options.depth,
                    nodes: self.options.nodes,
                    soft: budget.soft,
                    hard: budget.hard,
                    stop: None,
                };
                searcher.think(root, clock, limits)
            }
            Search::Legacy(searcher) => {
                let limits = super::legacy::search::SearchLimits {
                    depth: self.options.depth,
                    nodes: self.options.nodes,
                };
                searcher
                    .think(game, clock, budget, limits)
                    .map(|t| Thought {
                        best: t.best,
                        score: crate::search::Score(t.score),
                        depth: t.depth,
                        nodes: t.nodes,
                        elapsed: t.elapsed,
                        pv: t.pv,
                    })
            }
        };
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
        let defaults = GameOptions::default();
        if options.search.table_mb != defaults.table_mb {
            parts.push(format!("table={}", options.search.table_mb));
        }
        if options.search.contempt != defaults.contempt {
            parts.push(format!("contempt={}", options.search.contempt));
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
        if options.legacy {
            parts.push("legacy=1".to_owned());
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
        match &mut self.searcher {
            Search::Unified(s) => s.clear(),
            Search::Legacy(s) => s.clear(),
        }
        self.last = None;
    }

    fn choose(&mut self, game: &Game, clock: &Clock) -> Result<Move, PlayerError> {
        self.think(game, clock)
            .map(|t| t.best)
            .ok_or(PlayerError::NoLegalMove)
    }
}
