//! A verdict on every move of a line: proven optimal, refuted, or undecided, within a node budget.
//!
//! Each state of the line gets what can be established about its exact value (a [`Range`]):
//! - a full retrograde analysis gives the exact value of every state it reaches (tried once,
//!   from the last states back, while the reachable set fits);
//! - otherwise the bounded prover iterates "a loss within n?" (n even) and "a win within n?"
//!   (n odd) for n = 0, 1, 2, ...: the first yes is the exact value, and every no so far says
//!   "no game end within n plies", a range around the draw.
//!
//! A move is judged from the range of the state before it (the mover's best) and the range the
//! played move leaves the mover: optimal when the played move provably reaches the best, refuted
//! when it provably falls short of it, undecided otherwise. Two facts tighten the ranges across
//! moves: a position is worth at least what its played move gives, and a move gives at most what
//! the position is worth.
//!
//! Where the work goes: every bounded question is cheaper the shorter its bound, and a line's
//! last states are the cheapest, so the prover starts with each state's remaining plies in the
//! line (the bound at which the line's own result is confirmed or ruled out: a move that turns a
//! loss in 14 into a loss in 12 shows at bound 12 and 14, whatever the start is worth), works from
//! the last state back, and then raises the bounds two plies and the node allowance of one
//! question fourfold per round, only at the states of moves still undecided. Everything is
//! counted in expanded positions, so the same line and limits give the same verdicts; a stop
//! from outside (a time or memory limit) ends the work with what is established so far.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::prover::{BoundedProver, MAX_PROVER_PLIES};
use super::retrograde::{solve_reachable_until, Table};
use super::rules::Board;
use super::KnownValues;
use super::{AnalysisError, Value};
use crate::rules::position::Position;

/// What is established about a value for the side to move: it lies between `lo` and `hi`
/// (inclusive) in the mover's order of preference ([`Value`]'s [`Ord`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The worst the value can be.
    pub lo: Value,
    /// The best the value can be.
    pub hi: Value,
}

impl Range {
    /// Nothing established: from an immediate loss to a win in one ply.
    pub const UNKNOWN: Range = Range {
        lo: Value::Loss(0),
        hi: Value::Win(1),
    };

    /// Exactly `value`.
    #[must_use]
    pub const fn exact(value: Value) -> Range {
        Range {
            lo: value,
            hi: value,
        }
    }

    /// No game end within `n` plies: a draw, or a win or loss of more than `n` plies.
    #[must_use]
    pub const fn beyond(n: u32) -> Range {
        let (even, odd) = if n % 2 == 0 {
            (n + 2, n + 1)
        } else {
            (n + 1, n + 2)
        };
        Range {
            lo: Value::Loss(even),
            hi: Value::Win(odd),
        }
    }

    /// The exact value, when the range is one value.
    #[must_use]
    pub fn value(self) -> Option<Value> {
        (self.lo == self.hi).then_some(self.lo)
    }

    /// The range of what a move gives its mover when the position it leads to (the child) has
    /// this range for its own side to move: the child's best is the mover's worst.
    #[must_use]
    pub const fn for_parent(self) -> Range {
        Range {
            lo: Value::from_child(self.hi),
            hi: Value::from_child(self.lo),
        }
    }

    /// "no game end within n plies" when the range is exactly that, for messages.
    #[must_use]
    pub fn no_end_within(self) -> Option<u32> {
        match (self.lo, self.hi) {
            (Value::Loss(l), Value::Win(w)) if l >= 2 && w >= 1 => {
                let n = (l - 1).min(w - 1);
                (Range::beyond(n) == self).then_some(n)
            }
            _ => None,
        }
    }
}

/// The least value of a child consistent with its parent's value being at most `parent_hi`: the
/// mover's best move cannot give more than the position is worth.
fn least_child(parent_hi: Value) -> Option<Value> {
    match parent_hi {
        Value::Win(n) if n >= 1 => Some(Value::Loss(n - 1)),
        Value::Loss(n) if n >= 1 => Some(Value::Win(n - 1)),
        Value::Draw => Some(Value::Draw),
        _ => None,
    }
}

/// How a move of the line is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// The move keeps the exact value of the position: proven optimal.
    Optimal,
    /// The move provably gives less than the mover had.
    Refuted,
    /// Neither could be established within the budget.
    Undecided,
}

/// The verdict on one move of the line, with what it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveVerdict {
    /// The verdict.
    pub kind: MoveKind,
    /// The mover's value before the move: what its best move keeps.
    pub before: Range,
    /// What the played move gives the mover.
    pub played: Range,
    /// For a refuted move, the first move in canonical order shown to give at least
    /// `before.lo`: the position it leads to, and what it gives the mover. `None` when not
    /// found within the budget (the refutation stands all the same).
    pub better: Option<(Position, Range)>,
}

/// Why the work ended before every move was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The node budget is spent.
    NodeBudget(u64),
    /// Stopped from outside (a time or memory limit of the caller).
    Interrupted,
    /// The largest question the memory allows settled nothing in a whole round, or the bounded
    /// questions reached their deepest bound ([`MAX_PROVER_PLIES`]): nothing more can be
    /// established within the limits.
    Exhausted,
}

/// The verdicts on a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineVerdicts {
    /// What is established about each state's value, for its side to move (the first state is
    /// the puzzle).
    pub states: Vec<Range>,
    /// The verdict on each move: `moves[i]` is the move from `states[i]` to `states[i + 1]`.
    pub moves: Vec<MoveVerdict>,
    /// Positions expanded or enumerated in all.
    pub nodes: u64,
    /// Why the work ended with moves undecided; `None` when every move is decided.
    pub stop: Option<Stop>,
}

impl LineVerdicts {
    /// The first refuted move's index, if any.
    #[must_use]
    pub fn first_refuted(&self) -> Option<usize> {
        self.moves.iter().position(|m| m.kind == MoveKind::Refuted)
    }

    /// Whether every move is proven optimal.
    #[must_use]
    pub fn all_optimal(&self) -> bool {
        self.moves.iter().all(|m| m.kind == MoveKind::Optimal)
    }
}

/// The limits of [`judge_line`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerdictLimits {
    /// Positions expanded (bounded questions) or enumerated (full analyses) in all.
    pub node_budget: u64,
    /// Positions one bounded question may expand in the first round; fourfold each round.
    pub first_question: u64,
    /// Positions the prover may remember: a question that needs more runs out of budget, and
    /// the prover forgets everything before a question when three quarters full.
    pub memo_positions: usize,
    /// Positions one full retrograde analysis may hold.
    pub table_positions: usize,
}

impl Default for VerdictLimits {
    fn default() -> Self {
        VerdictLimits {
            node_budget: 200_000_000,
            first_question: 100_000,
            memo_positions: 5_000_000,
            table_positions: 4_000_000,
        }
    }
}

/// What is being established about one state.
#[derive(Clone, Copy, Debug)]
struct StateWork {
    board: Board,
    /// The exact value, once known.
    exact: Option<Value>,
    /// The next bound to ask: no game end within `next - 1` plies is established.
    next: u32,
    /// The bound the first round aims at: the plies left in the line (or a few for a line that
    /// ends by repetition).
    base: u32,
}

impl StateWork {
    fn range(&self) -> Range {
        match (self.exact, self.next) {
            (Some(v), _) => Range::exact(v),
            (None, 0) => Range::UNKNOWN,
            (None, n) => Range::beyond(n - 1),
        }
    }

    /// Whether more questions can be asked about it.
    fn open(&self) -> bool {
        self.exact.is_none() && self.next <= MAX_PROVER_PLIES
    }
}

/// The first bound of a drawn line's states (a line that ends by repetition claims a draw).
const DRAWN_LINE_BASE: u32 = 8;

/// Judges every move of `states`, a legal game whose last state ends it (no legal move, or the
/// third occurrence of a position), within `limits`. `stop`, when set by another thread, ends
/// the work early with what is established ([`Stop::Interrupted`]). `known`, when given,
/// answers the bounded questions where it knows the value (see
/// [`BoundedProver::set_known_values`]); without it the analysis uses nothing of the engine's.
///
/// # Errors
/// [`AnalysisError::Inconsistent`] when the analyser's own rules disagree with the line (a state
/// that is not a successor of the one before), which the caller's move check should have caught.
pub fn judge_line(
    states: &[Position],
    limits: VerdictLimits,
    stop: Option<Arc<AtomicBool>>,
    known: Option<Arc<dyn KnownValues>>,
) -> Result<LineVerdicts, AnalysisError> {
    let boards: Vec<Board> = states.iter().map(Board::from_position).collect();
    for (i, pair) in boards.windows(2).enumerate() {
        if !pair[0].successors().contains(&pair[1]) {
            return Err(AnalysisError::Inconsistent(format!(
                "state {} is not a successor of state {} for the analyser's move generator",
                i + 2,
                i + 1
            )));
        }
    }
    let last = boards.len().saturating_sub(1);
    let won = boards.last().is_some_and(|b| !b.has_moves());
    let work = boards
        .iter()
        .enumerate()
        .map(|(i, &board)| StateWork {
            board,
            // A position without a move is lost at once.
            exact: (!board.has_moves()).then_some(Value::Loss(0)),
            next: 0,
            base: if won {
                (last - i) as u32
            } else {
                DRAWN_LINE_BASE
            },
        })
        .collect();
    let mut prover = BoundedProver::new(limits.first_question);
    prover.set_stop(stop.clone());
    prover.set_memo_cap(limits.memo_positions);
    prover.set_known_values(known);
    let mut judge = Judge {
        limits,
        states: work,
        prover,
        tables: Vec::new(),
        table_failed: false,
        spent: 0,
        stop,
    };
    let stopped = match judge.run() {
        Ok(()) => None,
        Err(Halt::Stop(s)) => Some(s),
        Err(Halt::Error(e)) => return Err(e),
    };
    let ranges = judge.ranges();
    let mut moves = Vec::with_capacity(last);
    for i in 0..last {
        let (kind, before, played) = judge.verdict(&ranges, i);
        let better = if kind == MoveKind::Refuted && stopped != Some(Stop::Interrupted) {
            judge.better_move(i, before)
        } else {
            None
        };
        moves.push(MoveVerdict {
            kind,
            before,
            played,
            better,
        });
    }
    let decided = moves.iter().all(|m| m.kind != MoveKind::Undecided);
    Ok(LineVerdicts {
        states: ranges,
        moves,
        nodes: judge.spent,
        stop: if decided { None } else { stopped },
    })
}

/// Why [`Judge::run`] ended early.
enum Halt {
    Stop(Stop),
    Error(AnalysisError),
}

impl From<AnalysisError> for Halt {
    fn from(e: AnalysisError) -> Halt {
        match e {
            AnalysisError::Stopped => Halt::Stop(Stop::Interrupted),
            e => Halt::Error(e),
        }
    }
}

/// The work behind [`judge_line`].
struct Judge {
    limits: VerdictLimits,
    states: Vec<StateWork>,
    prover: BoundedProver,
    tables: Vec<Table>,
    /// A full analysis did not fit: the earlier states reach even more positions.
    table_failed: bool,
    spent: u64,
    stop: Option<Arc<AtomicBool>>,
}

impl Judge {
    /// Each state's range, tightened by its neighbours: a position is worth at least what the
    /// played move gives, and the played move gives at most what the position is worth.
    fn ranges(&self) -> Vec<Range> {
        let mut ranges: Vec<Range> = self.states.iter().map(StateWork::range).collect();
        for i in 0..ranges.len().saturating_sub(1) {
            let played = ranges[i + 1].for_parent();
            if played.lo > ranges[i].lo {
                ranges[i].lo = played.lo;
            }
            if let Some(least) = least_child(ranges[i].hi) {
                if least > ranges[i + 1].lo {
                    ranges[i + 1].lo = least;
                }
            }
        }
        ranges
    }

    /// The verdict on move `i` from the ranges, with the mover's range before it and what it
    /// gives.
    fn verdict(&self, ranges: &[Range], i: usize) -> (MoveKind, Range, Range) {
        let before = ranges[i];
        let played = ranges[i + 1].for_parent();
        let kind = if played.lo >= before.hi {
            MoveKind::Optimal
        } else if played.hi < before.lo {
            MoveKind::Refuted
        } else {
            MoveKind::Undecided
        };
        (kind, before, played)
    }

    /// The states next to an undecided move that can still be worked on, from the last.
    fn needed(&self) -> Vec<usize> {
        let ranges = self.ranges();
        let mut needed = vec![false; self.states.len()];
        for i in 0..self.states.len().saturating_sub(1) {
            if self.verdict(&ranges, i).0 == MoveKind::Undecided {
                needed[i] = true;
                needed[i + 1] = true;
            }
        }
        (0..self.states.len())
            .rev()
            .filter(|&i| needed[i] && self.states[i].open())
            .collect()
    }

    /// Rounds of bounded questions (and one pass of full analyses) until every move is decided.
    fn run(&mut self) -> Result<(), Halt> {
        // The last state of a won line has no move: settled without a question.
        let mut round = 0u32;
        loop {
            if self.needed().is_empty() {
                return Ok(());
            }
            let question = self
                .limits
                .first_question
                .saturating_mul(1 << (2 * round.min(20)))
                .min(self.limits.memo_positions as u64)
                .max(1);
            let at_cap = question >= self.limits.memo_positions as u64;
            let extra = 2 * round;
            let mut asked = false;
            let mut answered = false;
            for i in self.needed() {
                // A state decided meanwhile (by a table) or no longer next to an undecided move
                // is skipped.
                if !self.states[i].open() || !self.needed().contains(&i) {
                    continue;
                }
                let target = self.states[i]
                    .base
                    .saturating_add(extra)
                    .min(MAX_PROVER_PLIES);
                while self.states[i].open() && self.states[i].next <= target {
                    asked = true;
                    if !self.ask(i, question)? {
                        break;
                    }
                    answered = true;
                }
            }
            if round == 0 {
                self.full_analyses()?;
                asked = true;
                answered = true;
            }
            // Nothing left to ask, or the largest question allowed settled nothing in a whole
            // round: later rounds would only repeat it.
            if !asked || (at_cap && !answered) {
                return Err(Halt::Stop(Stop::Exhausted));
            }
            round += 1;
        }
    }

    /// Asks state `i` its next bounded question with at most `budget` expansions. `Ok(false)`
    /// when the budget ran out first (the question is asked again in a later round).
    fn ask(&mut self, i: usize, budget: u64) -> Result<bool, Halt> {
        let left = self.limits.node_budget.saturating_sub(self.spent);
        if left == 0 {
            return Err(Halt::Stop(Stop::NodeBudget(self.limits.node_budget)));
        }
        let budget = budget.min(left);
        // Forget everything when three quarters full, rather than let one question fail for
        // want of room; the prover itself never grows past the limit.
        if self.prover.memo_len() > self.limits.memo_positions / 4 * 3 {
            self.prover.clear();
        }
        self.prover.set_node_budget(budget);
        let state = self.states[i];
        let n = state.next;
        let answer = if n % 2 == 0 {
            self.prover.board_loses_within(&state.board, n)
        } else {
            self.prover.board_wins_within(&state.board, n)
        };
        self.spent += self.prover.expanded();
        match answer {
            Ok(true) => {
                self.states[i].exact = Some(if n % 2 == 0 {
                    Value::Loss(n)
                } else {
                    Value::Win(n)
                });
                Ok(true)
            }
            Ok(false) => {
                self.states[i].next = n + 1;
                Ok(true)
            }
            Err(AnalysisError::BudgetExhausted { .. }) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Full retrograde analyses, from the last undecided state back, while they fit: each gives
    /// the exact value of every state it reaches. The first that does not fit ends the pass,
    /// since every earlier state reaches at least as many positions.
    fn full_analyses(&mut self) -> Result<(), Halt> {
        for i in self.needed() {
            if self.table_failed {
                break;
            }
            if !self.states[i].open() {
                continue;
            }
            let max = self.limits.table_positions;
            match solve_reachable_until(self.states[i].board, max, self.stop.as_deref()) {
                Ok(table) => {
                    self.spent += table.len() as u64;
                    for state in &mut self.states {
                        if let Some(v) = table.board_value(&state.board) {
                            state.exact = Some(v);
                        }
                    }
                    self.tables.push(table);
                }
                Err(AnalysisError::TooLarge { .. }) => {
                    self.spent += max as u64;
                    self.table_failed = true;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    /// For refuted move `i`, the first move of its position, in canonical order, shown to give
    /// the mover at least `before.lo`, with what it gives (`before.lo` up to `before.hi`).
    fn better_move(&mut self, i: usize, before: Range) -> Option<(Position, Range)> {
        let board = self.states[i].board;
        let budget = self.limits.first_question.saturating_mul(16);
        for (_, child) in board.moves() {
            if child == self.states[i + 1].board {
                continue;
            }
            let known = self.tables.iter().find_map(|t| t.board_value(&child));
            let good = match known {
                Some(v) => Value::from_child(v) >= before.lo,
                None => self.child_reaches(&child, before.lo, budget)?,
            };
            if good {
                let range = Range {
                    lo: before.lo,
                    hi: before.hi,
                };
                return Some((child.to_position(), range));
            }
        }
        None
    }

    /// Whether moving into `child` gives the mover at least `at_least`, by one bounded question;
    /// `None` when it cannot be told within `budget` (or at all by a bounded question: a draw).
    fn child_reaches(&mut self, child: &Board, at_least: Value, budget: u64) -> Option<bool> {
        let left = self.limits.node_budget.saturating_sub(self.spent);
        let budget = budget.min(left).max(1);
        self.prover.set_node_budget(budget);
        let answer = match at_least {
            // Moving into the child wins within m plies: the child loses within m - 1.
            Value::Win(m) => self.prover.board_loses_within(child, m.saturating_sub(1)),
            // At least a loss in m plies: the child cannot win within m - 3.
            Value::Loss(m) if m >= 3 => self.prover.board_wins_within(child, m - 3).map(|yes| !yes),
            Value::Loss(_) => Ok(true),
            Value::Draw => return None,
        };
        self.spent += self.prover.expanded();
        answer.ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_of_bounds() {
        assert_eq!(
            Range::beyond(0),
            Range {
                lo: Value::Loss(2),
                hi: Value::Win(1)
            }
        );
        assert_eq!(
            Range::beyond(13),
            Range {
                lo: Value::Loss(14),
                hi: Value::Win(15)
            }
        );
        assert_eq!(Range::beyond(14).no_end_within(), Some(14));
        assert_eq!(Range::beyond(13).no_end_within(), Some(13));
        assert_eq!(Range::exact(Value::Win(3)).no_end_within(), None);
        // A child with no end within 12 plies gives its parent's mover no end within 13.
        assert_eq!(Range::beyond(12).for_parent(), Range::beyond(13));
        assert_eq!(
            Range::exact(Value::Loss(4)).for_parent(),
            Range::exact(Value::Win(5))
        );
    }

    #[test]
    fn a_line_of_one_lost_position_is_decided() {
        // Red's man on its crowning row cannot move: red has lost.
        let pos = crate::analysis::test_boards::board(
            ".r......\n........\n........\n........\n........\n........\n........\n.......b\n",
        );
        let v = judge_line(&[pos], VerdictLimits::default(), None, None).expect("judged");
        assert!(v.moves.is_empty());
        assert_eq!(v.states, vec![Range::exact(Value::Loss(0))]);
        assert_eq!(v.stop, None);
    }

    #[test]
    fn least_child_inverts_from_child() {
        for parent in [Value::Win(5), Value::Loss(6), Value::Draw] {
            let child = least_child(parent).expect("a position with a move");
            assert_eq!(Value::from_child(child), parent);
        }
        assert_eq!(least_child(Value::Loss(0)), None);
    }
}
