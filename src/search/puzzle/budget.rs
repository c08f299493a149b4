//! The puzzle game's budget: for each turn, its node budget, its proof share, its database build
//! cap and its deadline. This module applies the rule; its constants are in `search::knobs`
//! (with every other tuning constant of the solver), and the help text and the docs name this
//! module instead of repeating the figures.
//!
//! The rule, turn by turn ([`GameBudget::turn`]):
//! - **Deadline**: [`DEADLINE_RESERVE`] of the time limit is kept back; past the rest (the soft
//!   deadline) the sides play quick searches of [`QUICK_DEPTH`](crate::search::knobs::QUICK_DEPTH) plies so that the game still
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
//!   once up to [`QUICK_POSITIONS`](crate::search::knobs::QUICK_POSITIONS) index slots; others only after the deepening failed, within
//!   the cap for how the board looks: while every searched move of the line is proven, no cap
//!   where one side looks clearly ahead, and for a level board [`DECIDING_LEVEL_BUILD_SLOTS`] on
//!   the deciding turn (the game's first searched one), [`LEVEL_BUILD_SLOTS`] later;
//!   [`UNPROVEN_BUILD_SLOTS`] and [`UNPROVEN_LEVEL_BUILD_SLOTS`] once it is not; a position of
//!   seven pieces (whose build covers only its captures' classes) only where a side looks
//!   clearly ahead, within [`CAPTURE_BUILD_SLOTS`]. A build starts only when it looks to fit [`BUILD_SHARE`] of the time left at
//!   [`BUILD_NANOS_PER_SLOT`] (at [`DECIDING_BUILD_NANOS_PER_SLOT`] on the deciding turn where a
//!   side looks clearly ahead and the build settles the position: [`build_nanos_per_slot`]), and once one gave up, later ones are held to [`build_ceiling`] of
//!   its slots. A build is charged to the game's budget, one node for
//!   [`BUILD_SLOTS_PER_NODE`](crate::search::knobs::BUILD_SLOTS_PER_NODE) index slots built. (How a build under way measures its pace and
//!   gives up is the database's own affair, in `endgame/build.rs`.)
//! - **The backward pass** (`backward_pass`, after a won game with unproven moves): a second proof
//!   budget, [`REPAIR_SHARE`] of the game's ([`GameBudget::grant_repair`]), for its questions
//!   and the turns of the games it plays again, which take their shares of the budget so raised.

use std::time::{Duration, Instant};

use crate::search::score::Score;

use crate::search::knobs::{
    BUILD_NANOS_PER_SLOT, BUILD_SHARE, CAPTURE_BUILD_SLOTS, DEADLINE_RESERVE,
    DECIDING_BUILD_NANOS_PER_SLOT, DECIDING_LEVEL_BUILD_SLOTS, DECIDING_PROOF_SHARE,
    FIRST_PROOF_SHARE, FIRST_TURN_FACTOR, GUARD_SHARE, KEEP_KNOWN_OVERRUN, LATER_PROOF_SHARE,
    LEVEL_BUILD_SLOTS, LEVEL_PROOF_SHARE, PROOF_GUESS_MARGIN, PROOF_REACH_PLIES, REPAIR_SHARE,
    RESERVE, UNPROVEN_BUILD_SLOTS, UNPROVEN_LEVEL_BUILD_SLOTS,
};

use super::limits::{BuildCaps, Limits};
use super::thought::PuzzleThought;

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
/// limit: drawn ones, which no search proves, and those whose end is still far.
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
/// and the machine is as busy, so a build as large would give up too, while half of it may
/// still fit.
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
            <= if looks_level(score) {
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
        Some(caps) if !captures_only && expected_winner(score).is_some() => {
            caps.decisive_nanos_per_slot
        }
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
    /// [`QUICK_DEPTH`](crate::search::knobs::QUICK_DEPTH) plies.
    #[must_use]
    pub fn out_of_time(&self) -> bool {
        Instant::now() >= self.soft_deadline
    }

    /// `limits` for a turn whose position has a value (or a win bound) known from an earlier
    /// proof, or whose side is known not to lose within some plies: at least
    /// [`FIRST_TURN_FACTOR`] times the deepening's nodes for its proof search or for finding the
    /// canonical move reaching a known value ([`Limits::proof_nodes`]), and twice as many for a
    /// move that keeps what is known ([`Limits::guard_nodes`]), whatever the game's proof budget
    /// has left: a proven result is not thrown away for want of nodes.
    ///
    /// The floors end once the game has searched [`KEEP_KNOWN_OVERRUN`] times its proof budget
    /// (`spent`, nodes counted per thread): a game whose every turn has something to keep would
    /// otherwise run into the time limit and finish with quick moves.
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
    use crate::search::knobs::{MAX_POSITIONS, QUICK_POSITIONS};

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
