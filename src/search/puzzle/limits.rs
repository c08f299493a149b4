//! What a turn of the puzzle driver may spend ([`Limits`]), which enhancements it uses
//! ([`Features`]) and how much endgame database it may build ([`BuildCaps`]).

use std::time::Instant;

/// When a search must stop. Nodes make the stop deterministic; the deadline is a safety net.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop the iterative deepening after this many nodes in one turn.
    pub nodes: Option<u64>,
    /// Nodes the proof search (see `proof`) may spend afterwards when the
    /// deepening did not prove the turn's value (0 or `None`: no proof search).
    pub proof_nodes: Option<u64>,
    /// Nodes a turn that proved nothing of its own may spend holding its move to what earlier
    /// turns established (see [`Known`](super::Known)); 0 or `None`: none.
    pub guard_nodes: Option<u64>,
    /// Stop at this instant (endgame database builds too).
    pub deadline: Option<Instant>,
    /// Most index slots of endgame databases the turn may build, by how its deepening scored
    /// the position (`None`: no cap; see [`budget`](super::budget)).
    pub build_caps: Option<BuildCaps>,
}

/// Search enhancements that can be switched off to measure what each is worth. Switching them off
/// never changes a proven result, only the work needed to reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Use the transposition table (probe for cutoffs and the best move, store results).
    pub table: bool,
    /// Order moves (table move, captures, killers, history); otherwise generation order.
    pub ordering: bool,
    /// Build endgame databases for positions of a few pieces, play from them, and read them at
    /// every covered node (see [`endgame`](crate::search::endgame)).
    pub endgame_db: bool,
    /// Once a won game is over, check its unproven moves from the end backwards and play the
    /// game again from one proven suboptimal; once a game drawn by repetition is over, look for
    /// the win of a side that looked clearly ahead (see `backward_pass`).
    pub repair: bool,
    /// Ask each bounded question of the backward pass of df-pn on a second thread beside the
    /// alpha-beta proof (see `proof_race`); otherwise of the alpha-beta proof alone, on
    /// one thread. The turns before the pass ask alpha-beta alone either way.
    pub race: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            table: true,
            ordering: true,
            endgame_db: true,
            repair: true,
            race: true,
        }
    }
}

/// Most index slots of endgame databases a turn may build after its deepening, by the
/// deepening's score: a level board is most likely a draw, which only a database proves, and
/// only while every move of the line so far is proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildCaps {
    /// For a position that looks level (neither side
    /// [`BUILD_AHEAD_MARGIN`](crate::search::knobs::BUILD_AHEAD_MARGIN) ahead).
    pub level: usize,
    /// For a position where one side is that far ahead, or a game end was seen.
    pub decisive: usize,
    /// Time per index slot assumed, where one side looks clearly ahead and the build settles
    /// the position itself, when deciding whether the build fits the time left
    /// ([`build_nanos_per_slot`](super::budget::build_nanos_per_slot)).
    pub decisive_nanos_per_slot: u64,
}
