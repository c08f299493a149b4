//! The puzzle driver's game played out: both sides search each turn within the budget of
//! [`budget`](super::budget), what each proven move leaves known is carried to the next turn,
//! and the game record decides when the game is over.

use crate::rules::game::{Forfeit, Game, Outcome};
use crate::search::score::Score;
use crate::search::stop::Stop;

use crate::search::knobs::{AVOID_REPETITION_PLIES, QUICK_DEPTH};

use super::budget::GameBudget;
use super::searcher::PuzzleSearcher;
use super::thought::{Known, PuzzleThought};

/// The game under way: the searcher, the budget, the moves played with what their turns
/// established, and what is known for the next turn.
pub(super) struct Driver<'a> {
    pub(super) max_depth: u32,
    pub(super) stop: &'a Stop,
    pub(super) budget: GameBudget,
    pub(super) searcher: PuzzleSearcher,
    pub(super) game: Game,
    /// Each move played, with its turn's thought (its score `None` for a forced move).
    pub(super) turns: Vec<PuzzleThought>,
    /// Whether the time limit cut a turn short.
    pub(super) time_limited: bool,
    /// The exact value of the position to move, once a turn has proven it.
    pub(super) known: Option<Score>,
    /// For each side (red, black), at its next turn: the plies within which it is known to win,
    /// and within which it is known not to lose (see `Known`).
    pub(super) win_within: [Option<u32>; 2],
    pub(super) safe_within: [u32; 2],
}

impl Driver<'_> {
    /// Plays the game from its current position to its end.
    pub(super) fn play_out(&mut self) -> Outcome {
        loop {
            if let Some(outcome) = self.game.outcome() {
                return outcome;
            }
            let pos = *self.game.current();
            let out_of_time = self.budget.out_of_time() || self.stop.is_set();
            let first_turn = self.game.positions().len() <= 2;
            let side = pos.side_to_move() as usize;
            let spent = self.searcher.stats().wall_nodes();
            let mut limits = self.budget.turn(side, first_turn, spent);
            if self.known.is_some() || self.win_within[side].is_some() || self.safe_within[side] > 0
            {
                // What earlier proofs established is kept past the game's proof budget.
                limits = self.budget.keep_known(limits, spent);
            }
            // The positions a move could repeat, while a side ahead still avoids them.
            let seen = if self.game.ply() < AVOID_REPETITION_PLIES {
                self.game.reversible_tail()
            } else {
                &[]
            };
            let thought = if out_of_time {
                self.time_limited = true;
                // Past the soft deadline: shallow fixed-depth play with a fresh searcher
                // depends on the game alone, so the game runs into an end quickly, or into a
                // repetition that no side ahead plays. It must not build a database (a fresh
                // one every move), but reads those already built.
                self.searcher.quick_think(&pos, QUICK_DEPTH, seen)
            } else {
                let known = Known {
                    exact: self.known,
                    win_within: self.win_within[side],
                    safe_within: self.safe_within[side],
                };
                let thought = self
                    .searcher
                    .think_known(&pos, self.max_depth, limits, known, seen);
                // The soft deadline may have stopped one of the turn's searches before its
                // nodes did: the move then depends on the machine's speed.
                if self.budget.out_of_time() {
                    self.time_limited = true;
                }
                thought
            };
            let Some(thought) = thought else {
                // `outcome()` saw a legal move; `think` agrees by construction.
                return Outcome::Win {
                    winner: pos.side_to_move().opponent(),
                };
            };
            if thought.score.is_some() {
                self.budget.record(side, &thought);
            }
            carry_bounds(&thought, side, &mut self.win_within, &mut self.safe_within);
            // The value after a proven move (or a forced move from a known value) is known too:
            // the same game end, one ply nearer, seen from the other side.
            // An unproven move's value is exact too when every shorter game end was ruled out.
            let exact = thought.score.filter(|score| {
                thought.proven
                    || score
                        .plies_to_end()
                        .is_some_and(|d| thought.no_end_within + 1 >= d)
            });
            self.known = match (exact, thought.score) {
                (Some(score), _) => Some(score),
                (None, None) => self.known,
                _ => None,
            }
            .map(|score| -score.to_node(1));
            if let Err(e) = self.game.play(thought.best) {
                // The search plays only legal moves of a game that is not over; should it not,
                // the side that chose the move loses for it rather than the program stopping.
                return Outcome::Forfeit {
                    loser: pos.side_to_move(),
                    why: Forfeit::Illegal(e.to_string()),
                };
            }
            self.turns.push(thought);
        }
    }
}

/// What the move of `side` described by `thought` leaves known for each side's next turn: the
/// mover's win within `w` plies is one within `w - 2` at its next turn, whatever the opponent
/// plays; its move checked not to lose within `b` leaves it not losing within `b - 2`; and no
/// game end within `n` plies of the position moved from leaves the opponent not losing within
/// `n - 1` (whatever the move, the mover could not force an end sooner).
fn carry_bounds(
    thought: &PuzzleThought,
    side: usize,
    win_within: &mut [Option<u32>; 2],
    safe_within: &mut [u32; 2],
) {
    let other = 1 - side;
    let Some(score) = thought.score else {
        // A forced move (or a quick one past the deadline) keeps what the mover knew.
        win_within[side] = win_within[side].and_then(|w| w.checked_sub(2));
        safe_within[side] = safe_within[side].saturating_sub(2);
        return;
    };
    let win = if thought.proven && score.is_win() {
        score.plies_to_end()
    } else {
        thought.keeps_win
    };
    win_within[side] = win.and_then(|w| w.checked_sub(2));
    safe_within[side] = thought.safe_within.saturating_sub(2);
    safe_within[other] = safe_within[other].max(thought.no_end_within.saturating_sub(1));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Position;

    #[test]
    fn bounds_carry_two_plies_for_the_mover_and_one_for_the_opponent() {
        let mv = crate::rules::movegen::legal_moves(&Position::start())[0];
        let mut win = [None, None];
        let mut safe = [0, 0];
        // Red proves a win in 31: at its next turn it wins within 29, whatever black plays.
        let proven = PuzzleThought {
            no_end_within: 30,
            ..PuzzleThought::new(mv, Some(Score::won_at(31)), 31, true)
        };
        carry_bounds(&proven, 0, &mut win, &mut safe);
        assert_eq!(win, [Some(29), None]);
        // Black's unproven move, checked not to lose within 28, saw no end within 23: black
        // does not lose within 26 at its next turn, red not within 22 now.
        let checked = PuzzleThought {
            no_end_within: 23,
            safe_within: 28,
            ..PuzzleThought::new(mv, Some(Score(-331)), 16, false)
        };
        carry_bounds(&checked, 1, &mut win, &mut safe);
        assert_eq!(safe, [22, 26]);
        assert_eq!(win, [Some(29), None]);
        // An unproven move that kept red's win within 29: within 27 next time.
        let kept = PuzzleThought {
            keeps_win: Some(29),
            safe_within: 28,
            ..PuzzleThought::new(mv, Some(Score::won_at(29)), 29, false)
        };
        carry_bounds(&kept, 0, &mut win, &mut safe);
        assert_eq!(win, [Some(27), None]);
        // A forced move keeps what its side knew, two plies nearer.
        let forced = PuzzleThought::new(mv, None, 0, false);
        carry_bounds(&forced, 0, &mut win, &mut safe);
        assert_eq!(win, [Some(25), None]);
        assert_eq!(safe, [24, 26]);
    }
}
