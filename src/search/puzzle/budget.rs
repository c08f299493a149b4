//! The puzzle game's budget: for each turn, its node budget, its proof share, its database build
//! cap and its deadline. Every constant of that rule is here; the help text and the docs name
//! this module instead of repeating the figures.
//!
//! The rule, turn by turn ([`GameBudget::turn`]):
//! - **Deadline**: [`DEADLINE_RESERVE`] of the time limit is kept back; past the rest (the soft
//!   deadline) the sides play quick searches of [`QUICK_DEPTH`] plies so that the game still
//!   ends. Every search and database build stops at the soft deadline.
//! - **Deepening**: `--nodes-per-move` nodes, [`FIRST_TURN_FACTOR`] times as many on each side's
//!   first turn.
//! - **Proof share**: the game's proof budget is `--nodes-per-second` times the time limit less
//!   [`RESERVE`] of it ([`proof_budget`]). Of what is left of it, the game's first searched turn
//!   (the deciding turn: a line is proven only when it is) may spend one in [`DECIDING_PROOF_SHARE`],
//!   the other side's first one in [`FIRST_PROOF_SHARE`], a later turn one in
//!   [`LATER_PROOF_SHARE`] and only when its side's previous search saw a game end at most
//!   [`PROOF_REACH_PLIES`] beyond the bound it reached ([`in_reach`]). A turn whose deepening
//!   looks level (neither side [`PROOF_GUESS_MARGIN`] ahead, no game end seen) spends one in
//!   [`LEVEL_PROOF_SHARE`] of its share ([`proof_spend`]).
//! - **Keeping what is known** ([`Limits::guard_nodes`], [`GameBudget::keep_known`]): a turn that
//!   proves nothing of its own may spend one in [`GUARD_SHARE`] of the proof budget left holding
//!   its move to what earlier proofs established (see `Known`); a turn with such
//!   knowledge gets at least [`FIRST_TURN_FACTOR`] times `--nodes-per-move` for its proof search
//!   and twice that for the guard, until the game has searched [`KEEP_KNOWN_OVERRUN`] times its
//!   proof budget. A split proof's nodes (`two_thread_proof`, two threads) count half.
//! - **Database builds** ([`build_caps`], [`build_worth`]): positions of a few kings are built at
//!   once up to [`QUICK_POSITIONS`] index slots; an analysis of at most [`EARLY_BUILD_SLOTS`]
//!   after [`EARLY_SEARCH_NODES`] of the deepening; others only after the deepening failed,
//!   within the cap for how the board looks: while every searched move of the line is proven,
//!   no cap where one side is [`BUILD_AHEAD_MARGIN`] ahead, and for a level board [`DECIDING_LEVEL_BUILD_SLOTS`] on
//!   the deciding turn (the game's first searched one), [`LEVEL_BUILD_SLOTS`] later;
//!   [`UNPROVEN_BUILD_SLOTS`] and [`UNPROVEN_LEVEL_BUILD_SLOTS`] once it is not; a position of
//!   seven pieces (whose build covers only its captures' classes) only where a side looks
//!   clearly ahead, within [`CAPTURE_BUILD_SLOTS`]. A build starts only when it looks to fit [`BUILD_SHARE`] of the time left at
//!   [`BUILD_NANOS_PER_SLOT`] (at [`DECIDING_BUILD_NANOS_PER_SLOT`] on the deciding turn where a
//!   side is that far ahead and the build settles the position: [`build_nanos_per_slot`]), and once one gave up, later ones are held to [`build_ceiling`] of
//!   its slots. A build is charged to the game's budget, one node for
//!   [`BUILD_SLOTS_PER_NODE`] index slots built. (How a build under way measures its pace and
//!   gives up is the database's own affair, in `endgame/build.rs`.)
//! - **The backward pass** (`backward_pass`, after a won game with unproven moves): a second proof
//!   budget, [`REPAIR_SHARE`] of the game's ([`GameBudget::grant_repair`]), for its questions
//!   and the turns of the games it plays again, which take their shares of the budget so raised.

use std::time::{Duration, Instant};

use crate::search::score::Score;

use crate::search::knobs::{MAX_POSITIONS, QUICK_POSITIONS};

use super::limits::{BuildCaps, Limits};
use super::thought::PuzzleThought;

/// Nodes a turn's iterative deepening may spend by default (`--nodes-per-move`).
pub const DEFAULT_NODES_PER_MOVE: u64 = 100_000;

/// How many times the usual node budget each side's first turn gets. The first turns decide
/// whether the puzzle is proven; later turns of a proven game cost little (the table remembers),
/// and later turns of an unproven game must stay cheap so that drawn games finish quickly.
pub const FIRST_TURN_FACTOR: u64 = 20;

/// Default of `--nodes-per-second`: about half what one core of a loaded 2-core machine searches
/// (2 to 3 million nodes a second idle), so that the budget rarely meets the deadline, whose stop
/// would make the line depend on the machine.
pub const DEFAULT_NODES_PER_SECOND: u64 = 1_000_000;

/// Fraction of the time limit left out of the game's proof budget ([`proof_budget`]).
pub const RESERVE: f64 = 0.15;

/// Fraction of the time limit kept back for finishing the game quickly: the soft deadline is at
/// the rest. The node budget does not depend on it, so a game that ends by its nodes plays the
/// same line whatever it is; it only decides how much of the limit a slower machine may use
/// before the game's line is cut. Finishing after the deadline took at most 0.62 s in 152 games
/// cut by it (limits of 1 to 50 s, docs/performance.md), so 3 s of the default 50 leave a wide
/// margin; at 15% (7.5 s, until 2026-11-28) one line in five of seed 20261127 met the deadline on
/// a machine 1.4 times slower than the one the budget was tuned on.
pub const DEADLINE_RESERVE: f64 = 0.06;

/// Depth of the quick searches played once the soft deadline is past: shallow enough to be
/// instant.
pub const QUICK_DEPTH: u32 = 4;

/// The game's first searched turn may spend up to one in this many of the proof budget left: it
/// proves the puzzle's value (every later turn then only looks for the canonical move reaching
/// the known value), and a line is proven only when that turn is.
pub const DECIDING_PROOF_SHARE: u64 = 2;

/// Share (one in `n`) of the proof budget left for the other side's first searched turn.
pub const FIRST_PROOF_SHARE: u64 = 4;

/// A later unproven turn may spend up to one in this many of the proof budget left, when a proof
/// looks in reach (see [`in_reach`]).
pub const LATER_PROOF_SHARE: u64 = 4;

/// A turn that proves nothing of its own may spend up to one in this many of the proof budget
/// left holding its move to what earlier turns established ([`Limits::guard_nodes`]): a known
/// win kept at least as short, a side known not to lose within some plies kept from losing
/// within them.
pub const GUARD_SHARE: u64 = 4;

/// How far past the game's proof budget the floors of [`GameBudget::keep_known`] still hold: a
/// quarter more (the budget assumes [`DEFAULT_NODES_PER_SECOND`], about half what one core of
/// this machine searches under load, so the overrun stays within the limit).
pub const KEEP_KNOWN_OVERRUN: f64 = 1.25;

/// The nodes of the backward pass (`backward_pass`) (its questions and the turns of the games it
/// replays), as a share of the game's proof budget: a second proof budget. The forward game
/// leaves most of the limit unused on the boards the pass repairs (issue 23: random-9001-003
/// and -016 used 15 to 19 s of 50), and the pass runs only when a line has unproven moves.
/// Twice the game's (measured 2026-11-26, docs/performance.md): at one share the replay after
/// random-20261126-001's first replaced move spent all the pass's nodes, and the new line kept
/// a move `verify` refutes; at two the pass confirms the new line's later moves, and the line it
/// leaves is refuted nowhere (the shipped puzzles, all proven, and issue 23's boards unchanged).
pub const REPAIR_SHARE: f64 = 2.0;

/// How many plies beyond the bound its searches reached a game end may lie for a later turn's
/// proof search to try for it: a proof search gains about 2 plies per fourfold budget, and a
/// later turn's share (a few million nodes at the default limit) took p34's proofs 8 to 10 plies
/// past the deepening's depth.
pub const PROOF_REACH_PLIES: u32 = 10;

/// Margin of the deepening's score (hundredths of a man) beyond which the proof search asks only
/// for the side ahead's win: a man and a half. Within it the board looks level.
pub const PROOF_GUESS_MARGIN: i32 = 150;

/// Margin of a turn's score (hundredths of a man) from which its side counts as ahead, for
/// what a side ahead must not give away: it does not play or allow a repetition of the game's
/// positions (`unproven`), and a game it drew by repetition is searched for its win
/// (`repair`). Half a man: the six-piece study of issue 46 (two kings and a man against a king
/// and two men, a red win in 65 plies) scores +109 to +114, under [`PROOF_GUESS_MARGIN`], and
/// was drawn by repetition after 10 plies with 47 s of 50 unused.
pub const AHEAD_MARGIN: i32 = 50;

/// Margin of the deepening's score from which a board counts as decisive for the caps of its
/// database builds ([`build_worth`], [`build_nanos_per_slot`]): a man. The study above (+114)
/// then has its 357.7 M-position analysis started on the deciding turn, which proves its win;
/// p25 after its forced capture (a draw, -55 after 20 thousand nodes) keeps the level cap, and
/// its 171.8 M slots are not started.
pub const BUILD_AHEAD_MARGIN: i32 = 100;

/// Whether `score` puts its side [`AHEAD_MARGIN`] ahead (or wins); `None`, nothing searched,
/// is not.
#[must_use]
pub fn ahead(score: Option<Score>) -> bool {
    score.is_some_and(|s| s.0 >= AHEAD_MARGIN)
}

/// Whether `score` puts either side [`BUILD_AHEAD_MARGIN`] ahead (or a game end in sight).
#[must_use]
pub fn one_side_ahead(score: Option<Score>) -> bool {
    score.is_some_and(|s| s.0.abs() >= BUILD_AHEAD_MARGIN)
}

/// A turn whose board looks level spends one in this many of its proof share: a level board is
/// most likely a draw, which no proof search settles (measured: of the proofs that succeeded on
/// the public boards, the shipped puzzles and 100 random boards, none started from a level
/// score), and the few nodes left are for the sacrifice the deepening did not see.
pub const LEVEL_PROOF_SHARE: u64 = 8;

/// Most index slots of an analysis small enough to start after only [`EARLY_SEARCH_NODES`] of
/// the turn's search (when the search has not proven the position by then): a few seconds'
/// build at most, where the search could spend the turn's whole budget first and prove
/// nothing (the First Position, two kings against a king and a man, a red win in 61 plies:
/// 1.3 M positions, after 2 M nodes searched in vain).
pub const EARLY_BUILD_SLOTS: usize = QUICK_POSITIONS;

/// Nodes a turn searches before it builds an analysis of at most [`EARLY_BUILD_SLOTS`]: the
/// shipped official puzzles are proven within a tenth of them (p06, 23,925 nodes, has too
/// many pieces for any analysis).
pub const EARLY_SEARCH_NODES: u64 = 50_000;

/// Most index slots of endgame databases the game's deciding turn (its first searched turn,
/// whose proof decides whether the line is proven) builds for a level-looking position: the
/// reachable-only analyses of the shipped six-piece puzzles (68.5 M to 118.6 M slots, 10 to 20
/// s; `kings-2-man-v-king-2-men-45` looks level, +93, and only its analysis proves it) fit,
/// while p25's 171.8 M (black's first turn, after a forced capture; it did not finish within the
/// limit on a loaded machine, and cost 30 s) does not.
pub const DECIDING_LEVEL_BUILD_SLOTS: usize = 125_000_000;

/// Most index slots of endgame databases a later turn builds for a level-looking position while
/// every searched move of the line is proven: the whole classes of up to five pieces (a few
/// seconds), which prove the draws they cover; the reachable-only analyses of six pieces (often
/// over 100 M slots, 10 to 20 s) are built for a level-looking board only on the deciding turn.
pub const LEVEL_BUILD_SLOTS: usize = MAX_POSITIONS;

/// Most index slots a turn builds once a searched move of the line is unproven, where one side
/// looks clearly ahead: the line can no longer be proven, so the whole classes of up to five
/// pieces, which play the rest of the game exactly, and no reachable-only analysis (p34, a loss
/// seen from 7 pieces, spent 20 s of its 42 on one of 107 M slots).
pub const UNPROVEN_BUILD_SLOTS: usize = MAX_POSITIONS;

/// Most index slots a turn builds for a level-looking position once a searched move of the line
/// is unproven: only builds quick enough to pay for themselves in the search they save.
pub const UNPROVEN_LEVEL_BUILD_SLOTS: usize = QUICK_POSITIONS;

/// Most index slots of the analysis a position of seven pieces (one more than the
/// reachable-only analysis covers) builds: the classes of six pieces or fewer its captures lead
/// to, over the positions its men can reach, its own class left to the search, which then reads
/// an exact value at every capture into six pieces. Built only where one side looks clearly
/// ahead (a draw of seven pieces stays unproven whatever its captures are worth), as any build,
/// once the deepening failed and within the turn's caps. Issue 23's left board (four kings
/// against two and a man after red's forced capture, a loss in 30 for black) needs 125.7 M
/// slots: 11.2 s on two idle cores, about 20 s under a load of 3 (docs/performance.md).
pub const CAPTURE_BUILD_SLOTS: usize = 130_000_000;

/// Time per index slot assumed when deciding whether a database can be built in time: about
/// what both threads take together on a machine loaded by other work (twice the idle figure).
/// Only a guess at whether to start: the build itself gives up as soon as the speed it measures
/// says it cannot finish by its deadline.
pub const BUILD_NANOS_PER_SLOT: u64 = 200;

/// Time per index slot assumed, instead of [`BUILD_NANOS_PER_SLOT`], for the build of the
/// game's deciding turn where a side looks clearly ahead and the build settles the position
/// itself (six pieces or fewer: whole classes, or the analysis of its reachable positions): about
/// what two idle cores take (issue 23's random-9001-013, 236.9 M slots of a reachable-only
/// analysis, took 164 ns a slot of CPU time; random-9001-023's 342.0 M, 152 ns). Such a build
/// is the line's only proof when the search fails, and a pessimistic guess kept it from
/// starting at all (013's analysis, 47 s at 200 ns a slot, takes about 22 s on two idle
/// cores); on a loaded machine the build's own pace gives it up after its first classes
/// (`endgame/build.rs`).
pub const DECIDING_BUILD_NANOS_PER_SLOT: u64 = 100;

/// Index slots of a database build charged as one node of the game's budget
/// (`SearchStats::build_nodes`, counted among the wall nodes the budget spends): a build takes
/// about 100 ns a slot on two idle cores ([`DECIDING_BUILD_NANOS_PER_SLOT`]) where the search
/// takes about 200 to 300 ns a node counted (3.4 to 4.8 M nodes a second, counted per thread),
/// so two slots cost about a node's time. Without the charge a game that built databases
/// searched its whole budget besides the build: random-20261127-052 built 103.4 M slots and met
/// the soft deadline with 121 M nodes searched, where games without builds search over 200 M.
pub const BUILD_SLOTS_PER_NODE: u64 = 2;

/// Share of the time left before the turn's deadline that a database build may take: when it
/// does not finish, the rest of the game keeps the remainder.
pub const BUILD_SHARE: f64 = 0.85;

/// The game's budget of nodes for proof searches: the assumed speed times the part of the time
/// limit not kept in reserve. Drawn boards spend most of it on each side's first turn and finish
/// in well under half the limit; wins proven on the first turn spend little.
#[must_use]
pub fn proof_budget(time_limit: Duration, nodes_per_second: u64) -> u64 {
    let seconds = time_limit.as_secs_f64() * (1.0 - RESERVE);
    (nodes_per_second as f64 * seconds) as u64
}

/// Whether a later turn's proof search is worth its nodes, from its side's previous searched
/// turn (`previous`: the score and the bound within which no game end was proven): that turn saw
/// a game end (beyond what it could prove exact) no more than [`PROOF_REACH_PLIES`] past the
/// bound. Other positions keep only the deepening's budget, so that they finish well inside the
/// limit: drawn ones, which no search proves, and those whose end is still far (p34's loss in 48
/// seen at depth 14, which five proofs of 0.3 to 3 M nodes each got no nearer than 25).
#[must_use]
pub fn in_reach(previous: Option<(Score, u32)>) -> bool {
    previous.is_some_and(|(score, reached)| {
        score
            .plies_to_end()
            .is_some_and(|end| end <= reached.saturating_add(PROOF_REACH_PLIES))
    })
}

/// The caps on database builds ([`Limits::build_caps`]), by whether every searched move of the
/// line so far is proven and whether this is the game's deciding turn (the first searched one:
/// its proof decides whether the line is proven, and the whole limit lies ahead): while the line
/// is proven, no cap where one side looks clearly ahead, and [`DECIDING_LEVEL_BUILD_SLOTS`] or
/// [`LEVEL_BUILD_SLOTS`] where the board looks level.
#[must_use]
pub fn build_caps(line_proven: bool, deciding: bool) -> BuildCaps {
    if deciding {
        BuildCaps {
            level: DECIDING_LEVEL_BUILD_SLOTS,
            decisive: usize::MAX,
            decisive_nanos_per_slot: DECIDING_BUILD_NANOS_PER_SLOT,
        }
    } else if line_proven {
        BuildCaps {
            level: LEVEL_BUILD_SLOTS,
            decisive: usize::MAX,
            decisive_nanos_per_slot: BUILD_NANOS_PER_SLOT,
        }
    } else {
        BuildCaps {
            level: UNPROVEN_LEVEL_BUILD_SLOTS,
            decisive: UNPROVEN_BUILD_SLOTS,
            decisive_nanos_per_slot: BUILD_NANOS_PER_SLOT,
        }
    }
}

/// Whether the deepening's `score` looks level: no game end, and neither side
/// [`PROOF_GUESS_MARGIN`] ahead (`None`, nothing searched, is not level).
#[must_use]
pub fn looks_level(score: Option<Score>) -> bool {
    score.is_some_and(|s| s.0.abs() < PROOF_GUESS_MARGIN)
}

/// The side the deepening's `score` puts clearly ahead, for the proof search to ask for its win
/// first: `Some(true)` when the side to move is [`PROOF_GUESS_MARGIN`] ahead (or wins),
/// `Some(false)` when it is as far behind, `None` when the board looks level.
#[must_use]
pub fn expected_winner(score: Option<Score>) -> Option<bool> {
    score
        .filter(|s| s.0.abs() >= PROOF_GUESS_MARGIN)
        .map(|s| s.0 > 0)
}

/// Nodes a turn's proof search may spend of its share `budget`: all of it when its board looks
/// decisive, one in [`LEVEL_PROOF_SHARE`] when it looks level.
#[must_use]
pub fn proof_spend(budget: u64, level: bool) -> u64 {
    if level {
        budget / LEVEL_PROOF_SHARE
    } else {
        budget
    }
}

/// Most index slots a later build may have once a build of `slots` gave up (by the deadline, or
/// because the pace it measured could not meet it): half as many. The deadline only draws nearer
/// and the machine is as busy, so a build as large would give up too (p34 started four of 90 to
/// 107 M slots, each given up after one to two seconds), while half of it may still fit.
#[must_use]
pub fn build_ceiling(slots: usize) -> usize {
    slots / 2
}

/// Whether a turn whose deepening scored `score` (and did not prove it) builds the `slots`
/// index slots of endgame databases its position needs: within the cap of `caps` for a level
/// board, or for one where a side looks clearly ahead (the databases may prove its win). With
/// `captures_only` (a position of seven pieces, whose build covers only the classes its
/// captures lead to), only where a side looks clearly ahead and within
/// [`CAPTURE_BUILD_SLOTS`].
#[must_use]
pub fn build_worth(
    score: Option<Score>,
    slots: usize,
    caps: Option<BuildCaps>,
    captures_only: bool,
) -> bool {
    if captures_only && (expected_winner(score).is_none() || slots > CAPTURE_BUILD_SLOTS) {
        return false;
    }
    caps.is_none_or(|caps| {
        slots
            <= if !one_side_ahead(score) {
                caps.level
            } else {
                caps.decisive
            }
    })
}

/// When a database build starting now must give up: [`BUILD_SHARE`] of the time left before
/// the turn's `deadline`, so that a build that fails leaves the rest of the game time to play.
#[must_use]
pub fn build_deadline(deadline: Option<Instant>) -> Option<Instant> {
    deadline.map(|deadline| {
        let now = Instant::now();
        now + deadline.saturating_duration_since(now).mul_f64(BUILD_SHARE)
    })
}

/// The time per index slot a turn assumes for its build after a deepening that scored `score`:
/// the caps' [`BuildCaps::decisive_nanos_per_slot`] (on the deciding turn,
/// [`DECIDING_BUILD_NANOS_PER_SLOT`], two idle cores) where a side looks clearly ahead and the
/// build settles the position itself (not `captures_only`), else a pessimistic
/// [`BUILD_NANOS_PER_SLOT`].
#[must_use]
pub fn build_nanos_per_slot(
    score: Option<Score>,
    caps: Option<BuildCaps>,
    captures_only: bool,
) -> u64 {
    match caps {
        Some(caps) if !captures_only && one_side_ahead(score) => caps.decisive_nanos_per_slot,
        _ => BUILD_NANOS_PER_SLOT,
    }
}

/// Whether a build of `slots` index slots starting now looks to finish by `build_deadline` at
/// `nanos_per_slot` ([`BUILD_NANOS_PER_SLOT`], or [`build_nanos_per_slot`]).
#[must_use]
pub fn time_to_build(slots: usize, nanos_per_slot: u64, build_deadline: Option<Instant>) -> bool {
    let needed = Duration::from_nanos((slots as u64).saturating_mul(nanos_per_slot));
    build_deadline.is_none_or(|deadline| Instant::now() + needed < deadline)
}

/// The budget of one puzzle game, turn by turn: what each side has searched so far, and whether
/// the line is still proven.
#[derive(Clone, Debug)]
pub struct GameBudget {
    nodes_per_move: u64,
    proof_total: u64,
    soft_deadline: Instant,
    /// Whether each side has searched a turn yet.
    searched: [bool; 2],
    /// Each side's score on its previous searched turn with the bound its searches reached.
    previous: [Option<(Score, u32)>; 2],
    /// Whether every searched move so far is proven.
    line_proven: bool,
}

impl GameBudget {
    /// The budget of a game started at `started` with these settings.
    #[must_use]
    pub fn new(
        started: Instant,
        time_limit: Duration,
        nodes_per_move: u64,
        nodes_per_second: u64,
    ) -> GameBudget {
        GameBudget {
            nodes_per_move,
            proof_total: proof_budget(time_limit, nodes_per_second),
            soft_deadline: started + time_limit.mul_f64(1.0 - DEADLINE_RESERVE),
            searched: [false; 2],
            previous: [None; 2],
            line_proven: true,
        }
    }

    /// The soft deadline: every search stops there.
    #[must_use]
    pub fn soft_deadline(&self) -> Instant {
        self.soft_deadline
    }

    /// Grants the backward pass (`backward_pass`) its nodes once the game is over: a second proof
    /// budget, [`REPAIR_SHARE`] of the game's own, which the pass's questions and the turns of
    /// the games it replays spend (their shares and floors are then taken of the game's budget
    /// so raised). Returns the nodes granted.
    pub fn grant_repair(&mut self) -> u64 {
        let nodes = (self.proof_total as f64 * REPAIR_SHARE) as u64;
        self.proof_total = self.proof_total.saturating_add(nodes);
        nodes
    }

    /// Whether the soft deadline has passed: the sides then play quick searches of
    /// [`QUICK_DEPTH`] plies.
    #[must_use]
    pub fn out_of_time(&self) -> bool {
        Instant::now() >= self.soft_deadline
    }

    /// `limits` for a turn whose position has a value (or a win bound) known from an earlier
    /// proof, or whose side is known not to lose within some plies: at least
    /// [`FIRST_TURN_FACTOR`] times the deepening's nodes for its proof search or for finding the
    /// canonical move reaching a known value ([`Limits::proof_nodes`]), and twice as many for a
    /// move that keeps what is known ([`Limits::guard_nodes`]), whatever the game's proof budget
    /// has left: a proven result is not thrown away for want of nodes. (Measured on issue 23's
    /// right board: without the proof floor where only a loss bound is known, black's later
    /// proof of its win in 23 is not made and the line takes 48 plies instead of 26.)
    ///
    /// The floors end once the game has searched [`KEEP_KNOWN_OVERRUN`] times its proof budget
    /// (`spent`, nodes counted per thread): a game whose every turn has something to keep (the
    /// left board of issue 23, 30 turns of floors) would otherwise run into the time limit and
    /// finish with quick moves.
    #[must_use]
    pub fn keep_known(&self, limits: Limits, spent: u64) -> Limits {
        if spent as f64 >= self.proof_total as f64 * KEEP_KNOWN_OVERRUN {
            return limits;
        }
        let floor = self.nodes_per_move.saturating_mul(FIRST_TURN_FACTOR);
        Limits {
            proof_nodes: Some(limits.proof_nodes.unwrap_or(0).max(floor)),
            guard_nodes: Some(limits.guard_nodes.unwrap_or(0).max(2 * floor)),
            ..limits
        }
    }

    /// The limits of the turn of `side` (0 red, 1 black); `first_turn` when it is that side's
    /// first move of the game, `spent` the nodes the game has searched so far.
    #[must_use]
    pub fn turn(&self, side: usize, first_turn: bool, spent: u64) -> Limits {
        let nodes = if first_turn {
            self.nodes_per_move.saturating_mul(FIRST_TURN_FACTOR)
        } else {
            self.nodes_per_move
        };
        let left = self.proof_total.saturating_sub(spent);
        let deciding = !self.searched[0] && !self.searched[1];
        let proof = if deciding {
            left / DECIDING_PROOF_SHARE
        } else if !self.searched[side] {
            // After a deciding turn that saw one side clearly ahead and proved nothing, this
            // turn's proof (often one bound from the end the deciding turn reached) is the
            // game's best chance: it gets the deciding turn's share.
            let decisive = self.previous[1 - side].is_some_and(|(s, _)| !looks_level(Some(s)));
            if self.line_proven || !decisive {
                left / FIRST_PROOF_SHARE
            } else {
                left / DECIDING_PROOF_SHARE
            }
        } else if in_reach(self.previous[side]) {
            left / LATER_PROOF_SHARE
        } else {
            0
        };
        Limits {
            nodes: Some(nodes),
            proof_nodes: Some(proof),
            guard_nodes: Some(left / GUARD_SHARE),
            deadline: Some(self.soft_deadline),
            build_caps: Some(build_caps(self.line_proven, deciding)),
        }
    }

    /// Records the searched turn of `side` that gave `thought` (a turn with a score).
    pub fn record(&mut self, side: usize, thought: &PuzzleThought) {
        self.line_proven &= thought.proven;
        self.searched[side] = true;
        // A proven turn reached its game end: the side's next proof is within reach of it.
        self.previous[side] = thought.score.map(|score| {
            let proven_end = score.plies_to_end().filter(|_| thought.proven);
            (score, proven_end.unwrap_or(thought.no_end_within))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::legal_moves;
    use crate::rules::position::Position;

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
        let deciding = build_caps(true, true);
        let provable = build_caps(true, false);
        let unproven = build_caps(false, false);
        assert_eq!(deciding.level, DECIDING_LEVEL_BUILD_SLOTS);
        assert!(deciding.level > provable.level);
        assert_eq!(deciding.decisive, usize::MAX);
        assert_eq!(provable.level, MAX_POSITIONS);
        assert_eq!(provable.decisive, usize::MAX);
        assert_eq!(unproven.level, QUICK_POSITIONS);
        assert_eq!(unproven.decisive, MAX_POSITIONS);
        assert!(unproven.level < unproven.decisive);
    }

    #[test]
    fn a_board_looks_level_within_a_man_and_a_half_and_without_a_game_end() {
        assert!(looks_level(Some(Score::ZERO)));
        assert!(looks_level(Some(Score(PROOF_GUESS_MARGIN - 1))));
        assert!(looks_level(Some(Score(1 - PROOF_GUESS_MARGIN))));
        assert!(!looks_level(Some(Score(PROOF_GUESS_MARGIN))));
        assert!(!looks_level(Some(Score(-PROOF_GUESS_MARGIN))));
        assert!(!looks_level(Some(Score::won_at(41))));
        assert!(!looks_level(Some(Score::lost_at(40))));
        assert!(!looks_level(None));
        assert_eq!(expected_winner(Some(Score(PROOF_GUESS_MARGIN))), Some(true));
        assert_eq!(expected_winner(Some(Score::lost_at(40))), Some(false));
        assert_eq!(expected_winner(Some(Score(12))), None);
        assert_eq!(expected_winner(None), None);
    }

    #[test]
    fn a_level_board_spends_a_small_part_of_its_proof_budget() {
        assert_eq!(proof_spend(8_000_000, false), 8_000_000);
        assert_eq!(proof_spend(8_000_000, true), 8_000_000 / LEVEL_PROOF_SHARE);
        assert!(proof_spend(8_000_000, true) <= 1_000_000);
        assert_eq!(proof_spend(0, true), 0);
    }

    #[test]
    fn a_build_that_gave_up_halves_the_builds_after_it() {
        assert_eq!(build_ceiling(106_760_544), 53_380_272);
        assert!(build_ceiling(102_890_240) < 102_890_240);
        assert_eq!(build_ceiling(1), 0);
    }

    #[test]
    fn a_build_is_held_to_the_cap_of_how_the_board_looks() {
        let level = Some(Score(-6));
        let ahead = Some(Score(-287));
        let large = 171_817_912;
        let caps = Some(build_caps(true, false));
        // A side clearly ahead (or a game end seen) builds up to the decisive cap.
        assert!(build_worth(ahead, large, caps, false));
        assert!(build_worth(Some(Score::won_at(61)), large, caps, false));
        let tight = Some(build_caps(false, false));
        assert!(!build_worth(ahead, large, tight, false));
        assert!(build_worth(ahead, MAX_POSITIONS, tight, false));
        // A level board builds up to the level cap, and anything without caps or on the
        // deciding turn.
        assert!(build_worth(level, MAX_POSITIONS, caps, false));
        assert!(!build_worth(level, MAX_POSITIONS + 1, caps, false));
        assert!(!build_worth(level, large, caps, false));
        assert!(!build_worth(level, MAX_POSITIONS, tight, false));
        assert!(build_worth(level, QUICK_POSITIONS, tight, false));
        assert!(build_worth(level, large, None, false));
        // The deciding turn builds the six-piece analyses of the shipped puzzles, not p25's.
        let deciding = Some(build_caps(true, true));
        assert!(build_worth(level, 118_581_260, deciding, false));
        assert!(!build_worth(level, large, deciding, false));
        // A man ahead is decisive: issue 46's study (+114, either colour) builds its 357.7 M,
        // p25 after its capture (-55, a draw) does not build its 171.8 M.
        let study = 357_700_000;
        assert!(build_worth(Some(Score(114)), study, deciding, false));
        assert!(build_worth(Some(Score(-114)), study, deciding, false));
        assert!(!build_worth(Some(Score(-55)), large, deciding, false));
        assert!(!build_worth(
            Some(Score(BUILD_AHEAD_MARGIN - 1)),
            study,
            deciding,
            false
        ));
        assert_eq!(
            build_nanos_per_slot(Some(Score(-114)), deciding, false),
            DECIDING_BUILD_NANOS_PER_SLOT
        );
        // A seven-piece position builds its captures' classes only where a side looks clearly
        // ahead, and within its own cap: issue 23's left board's 125.7 M slots, not p25's 171.8 M.
        let left = 125_718_800;
        assert!(build_worth(ahead, left, deciding, true));
        assert!(build_worth(Some(Score::lost_at(30)), left, deciding, true));
        assert!(!build_worth(level, left, deciding, true));
        assert!(!build_worth(None, QUICK_POSITIONS, None, true));
        assert!(!build_worth(ahead, large, deciding, true));
        assert!(!build_worth(ahead, left, tight, true));
    }

    #[test]
    fn the_deciding_turn_of_a_decisive_board_assumes_an_idle_machine_for_its_build() {
        let ahead = Some(Score(-309));
        let level = Some(Score(12));
        let deciding = Some(build_caps(true, true));
        assert_eq!(
            build_nanos_per_slot(ahead, deciding, false),
            DECIDING_BUILD_NANOS_PER_SLOT
        );
        assert_eq!(
            build_nanos_per_slot(Some(Score::won_at(31)), deciding, false),
            DECIDING_BUILD_NANOS_PER_SLOT
        );
        // A level board, a seven-piece root's captures, later turns and no caps: pessimistic.
        assert_eq!(
            build_nanos_per_slot(level, deciding, false),
            BUILD_NANOS_PER_SLOT
        );
        assert_eq!(
            build_nanos_per_slot(ahead, deciding, true),
            BUILD_NANOS_PER_SLOT
        );
        for caps in [build_caps(true, false), build_caps(false, false)] {
            assert_eq!(
                build_nanos_per_slot(ahead, Some(caps), false),
                BUILD_NANOS_PER_SLOT
            );
        }
        assert_eq!(
            build_nanos_per_slot(ahead, None, false),
            BUILD_NANOS_PER_SLOT
        );
        // random-9001-013's analysis (236.9 M slots) fits 35 s at the deciding turn's speed only.
        let slots = 236_900_000;
        let deadline = Some(Instant::now() + Duration::from_secs(35));
        assert!(time_to_build(
            slots,
            DECIDING_BUILD_NANOS_PER_SLOT,
            deadline
        ));
        assert!(!time_to_build(slots, BUILD_NANOS_PER_SLOT, deadline));
        assert!(time_to_build(slots, BUILD_NANOS_PER_SLOT, None));
    }

    #[test]
    fn a_turn_with_known_bounds_gets_a_floor_of_nodes() {
        let game = GameBudget::new(Instant::now(), Duration::from_secs(50), 1_000, 1_000_000);
        // Nothing of the game's proof budget left: the floor still holds.
        let spent = game.turn(0, false, u64::MAX);
        assert_eq!(spent.proof_nodes, Some(0));
        assert_eq!(spent.guard_nodes, Some(0));
        let kept = game.keep_known(spent, 0);
        assert_eq!(kept.proof_nodes, Some(1_000 * FIRST_TURN_FACTOR));
        assert_eq!(kept.guard_nodes, Some(2 * 1_000 * FIRST_TURN_FACTOR));
        assert_eq!(kept.nodes, spent.nodes);
        // A larger share is kept as it is.
        let first = game.turn(0, true, 0);
        assert_eq!(game.keep_known(first, 0).proof_nodes, first.proof_nodes);
        // Past a quarter more than the game's proof budget, no floor.
        let over = game.keep_known(spent, 42_500_000 * 5 / 4);
        assert_eq!(over.proof_nodes, Some(0));
        assert_eq!(over.guard_nodes, Some(0));
    }

    #[test]
    fn the_proof_budget_is_the_speed_times_the_limit_less_the_reserve() {
        assert_eq!(proof_budget(Duration::from_secs(50), 1_000_000), 42_500_000);
        assert_eq!(proof_budget(Duration::from_secs(50), 0), 0);
    }

    #[test]
    fn each_turn_gets_its_share_of_what_is_left() {
        let mut game = GameBudget::new(Instant::now(), Duration::from_secs(50), 1_000, 1_000_000);
        let first = game.turn(0, true, 0);
        assert_eq!(first.nodes, Some(20_000));
        assert_eq!(first.proof_nodes, Some(21_250_000));
        assert_eq!(first.build_caps, Some(build_caps(true, true)));
        let unproven = PuzzleThought {
            no_end_within: 9,
            ..PuzzleThought::new(
                legal_moves(&Position::start())[0],
                Some(Score(40)),
                9,
                false,
            )
        };
        game.record(0, &unproven);
        let reply = game.turn(1, true, 2_500_000);
        assert_eq!(reply.proof_nodes, Some(10_000_000));
        assert_eq!(reply.build_caps, Some(build_caps(false, false)));
        game.record(1, &unproven);
        // A later turn whose side saw no game end near its bound gets no proof search.
        assert_eq!(game.turn(0, false, 2_500_000).proof_nodes, Some(0));
        assert_eq!(game.turn(0, false, 2_500_000).nodes, Some(1_000));
    }
}
