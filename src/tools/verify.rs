//! Checking a submitted solution: legality of every state with the reason for the first illegal
//! one, the end of the game, optimality by exact analysis, and comparison with an expected line.

use std::fmt;

use crate::analysis::{check_line, AnalysisError, FaultKind, Oracle, Value};
use crate::formats::notation::move_path;
use crate::rules::bitboard::Bitboard;
use crate::rules::game::GameRecord;
use crate::rules::movegen::{self, legal_moves};
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// Why a state is not a legal successor of the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepFault {
    /// The first state is not the puzzle.
    NotThePuzzle,
    /// Nothing changed.
    NoMove,
    /// The side that moved was not the side to move.
    WrongSide,
    /// A step was played while a capture was available.
    SkippedCapture,
    /// A jump sequence stopped although the piece could jump on.
    UnfinishedJump,
    /// A man reached the far row without being crowned.
    MissingCrowning,
    /// Anything else: no legal move leads to this state.
    Illegal,
    /// The game had already ended at the previous state.
    AfterEnd,
}

impl fmt::Display for StepFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StepFault::NotThePuzzle => "it is not the puzzle's board",
            StepFault::NoMove => "no piece moved",
            StepFault::WrongSide => "the wrong side moved",
            StepFault::SkippedCapture => "a capture was available, and capturing is mandatory",
            StepFault::UnfinishedJump => "the jump sequence stops although the piece can jump on",
            StepFault::MissingCrowning => "a man reached the far row but was not crowned",
            StepFault::Illegal => "no legal move leads to it",
            StepFault::AfterEnd => "the game was already over at the state before",
        })
    }
}

/// Why `next` does not follow `prev` by a legal move, or `None` when it does.
#[must_use]
pub fn diagnose(prev: &Position, next: &Position) -> Option<StepFault> {
    let results =
        |p: &Position, moves: &[Move]| moves.iter().map(|&m| p.play(m)).collect::<Vec<_>>();
    let legal = legal_moves(prev);
    if results(prev, &legal).contains(next) {
        return None;
    }
    let same_pieces = |a: &Position, b: &Position| {
        a.pieces(crate::Color::Red) == b.pieces(crate::Color::Red)
            && a.pieces(crate::Color::Black) == b.pieces(crate::Color::Black)
            && a.kings() == b.kings()
    };
    if same_pieces(prev, next) {
        return Some(StepFault::NoMove);
    }
    // The other side's moves, with or without its capture obligation.
    let other = prev.with_side_to_move(prev.side_to_move().opponent());
    let mut other_moves = legal_moves(&other);
    other_moves.extend(movegen::steps_ignoring_captures(&other));
    if other_moves
        .iter()
        .any(|&m| same_pieces(&other.play(m), next))
    {
        return Some(StepFault::WrongSide);
    }
    if movegen::has_jump(prev)
        && results(prev, &movegen::steps_ignoring_captures(prev)).contains(next)
    {
        return Some(StepFault::SkippedCapture);
    }
    for &mv in legal.iter().filter(|m| m.is_capture()) {
        if partial_jumps(prev, mv).contains(next) {
            return Some(StepFault::UnfinishedJump);
        }
    }
    for &mv in &legal {
        if uncrowned(prev, mv).is_some_and(|p| p == *next) {
            return Some(StepFault::MissingCrowning);
        }
    }
    Some(StepFault::Illegal)
}

/// The positions where a jump sequence would stand if stopped after each of its earlier landings.
fn partial_jumps(pos: &Position, mv: Move) -> Vec<Position> {
    let path = move_path(pos, mv);
    let mut out = Vec::new();
    let mut taken = Bitboard::EMPTY;
    for k in 1..path.len().saturating_sub(1) {
        let (a, b) = (path[k - 1], path[k]);
        let over = crate::Square::new(
            u8::midpoint(a.row(), b.row()),
            u8::midpoint(a.col(), b.col()),
        );
        if let Some(over) = over {
            taken |= over.bit();
        }
        out.push(pos.play(Move::new(mv.from(), path[k], taken)));
    }
    out
}

/// The result of `mv` with the moving man left uncrowned, when `mv` crowns it.
fn uncrowned(pos: &Position, mv: Move) -> Option<Position> {
    let after = pos.play(mv);
    let crowned = !pos.kings().contains(mv.from()) && after.kings().contains(mv.to());
    if !crowned {
        return None;
    }
    Position::new(
        after.pieces(crate::Color::Red),
        after.pieces(crate::Color::Black),
        after.kings() & !mv.to().bit(),
        after.side_to_move(),
    )
    .ok()
}

/// What the exact analysis says about the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Optimality {
    /// Every move is optimal; the puzzle's exact value for red.
    Optimal(Value),
    /// A move is not optimal (1-based state number and explanation).
    Suboptimal(usize, String),
    /// The positions are too large to analyse exactly.
    Unproven(String),
    /// Not checked because the line is not a legal, finished game.
    NotChecked,
}

/// How the line compares with an expected one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// States in the submitted line.
    pub states: usize,
    /// States in the expected line.
    pub expected_states: usize,
    /// Whether every state is the same.
    pub identical: bool,
}

/// The verdict on a submitted solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// The first illegal state (1-based number) and why, if any.
    pub illegal: Option<(usize, StepFault)>,
    /// Whether the last state ends the game (only meaningful when every state is legal).
    pub game_over: bool,
    /// Moves (plies) in the line.
    pub moves: usize,
    /// The exact analysis.
    pub optimality: Optimality,
    /// The comparison with `--expected`, if given.
    pub comparison: Option<Comparison>,
}

impl Verification {
    /// Whether the solution is valid, finished, optimal where that could be proven, and (when an
    /// expected line was given) of the same length.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.illegal.is_none()
            && self.game_over
            && !matches!(self.optimality, Optimality::Suboptimal(..))
            && self
                .comparison
                .is_none_or(|c| c.states == c.expected_states)
    }
}

/// Verifies `states` as a solution of `puzzle`, comparing with `expected` when given.
#[must_use]
pub fn verify(
    puzzle: &Position,
    states: &[Position],
    expected: Option<&[Position]>,
) -> Verification {
    let comparison = expected.map(|e| Comparison {
        states: states.len(),
        expected_states: e.len(),
        identical: e == states,
    });
    let moves = states.len().saturating_sub(1);
    let illegal = first_illegal(puzzle, states);
    let mut game = GameRecord::new(states[0], false);
    for s in &states[1..] {
        game.push(*s);
    }
    let game_over = illegal.is_none() && game.outcome().is_some();
    let optimality = if illegal.is_some() || !game_over {
        Optimality::NotChecked
    } else {
        optimality(states)
    };
    Verification {
        illegal,
        game_over,
        moves,
        optimality,
        comparison,
    }
}

/// The first state that does not follow legally, with its 1-based number.
fn first_illegal(puzzle: &Position, states: &[Position]) -> Option<(usize, StepFault)> {
    if states.first() != Some(puzzle) {
        return Some((1, StepFault::NotThePuzzle));
    }
    let mut game = GameRecord::new(*puzzle, false);
    for (i, &next) in states.iter().enumerate().skip(1) {
        if game.outcome().is_some() {
            return Some((i + 1, StepFault::AfterEnd));
        }
        if let Some(fault) = diagnose(&game.current(), &next) {
            return Some((i + 1, fault));
        }
        game.push(next);
    }
    None
}

/// Exact analysis of a legal, finished line.
fn optimality(states: &[Position]) -> Optimality {
    let mut oracle = Oracle::default();
    match check_line(states, &mut oracle) {
        Ok(report) => match (report.fault, report.root_value) {
            (None, Some(v)) => Optimality::Optimal(v),
            (Some(f), _) => match f.kind {
                FaultKind::Suboptimal { .. } => Optimality::Suboptimal(f.index + 1, f.to_string()),
                _ => Optimality::Unproven(f.to_string()),
            },
            (None, None) => Optimality::NotChecked,
        },
        Err(
            e @ (AnalysisError::TooLarge { .. }
            | AnalysisError::BudgetExhausted { .. }
            | AnalysisError::Undecided { .. }
            | AnalysisError::BoundTooDeep { .. }),
        ) => Optimality::Unproven(format!("too large to prove exactly ({e})")),
        Err(e) => Optimality::Unproven(e.to_string()),
    }
}

impl fmt::Display for Verification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.illegal {
            Some((n, why)) => writeln!(f, "legal:    no: state {n} is not a legal move: {why}")?,
            None => writeln!(f, "legal:    yes, every state follows by a legal move")?,
        }
        writeln!(f, "moves:    {}", self.moves)?;
        if self.illegal.is_none() {
            let over = if self.game_over {
                "yes"
            } else {
                "no: the side to move still has a move"
            };
            writeln!(f, "finished: {over}")?;
        }
        match &self.optimality {
            Optimality::Optimal(v) => writeln!(
                f,
                "optimal:  yes, every move keeps the exact value (red: {v})"
            )?,
            Optimality::Suboptimal(n, why) => writeln!(f, "optimal:  no, at state {n}: {why}")?,
            Optimality::Unproven(why) => writeln!(f, "optimal:  not proven: {why}")?,
            Optimality::NotChecked => writeln!(
                f,
                "optimal:  not checked (the line is not a legal, finished game)"
            )?,
        }
        if let Some(c) = self.comparison {
            let same = if c.identical {
                "identical states"
            } else {
                "different states"
            };
            writeln!(
                f,
                "expected: {} states vs {} expected ({}; {same})",
                c.states,
                c.expected_states,
                if c.states == c.expected_states {
                    "same length"
                } else {
                    "different length"
                }
            )?;
        }
        write!(
            f,
            "verdict:  {}",
            if self.passed() { "PASS" } else { "FAIL" }
        )
    }
}
