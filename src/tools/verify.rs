//! Checking a submitted solution: legality of every state with the reason for the first illegal
//! one, the end of the game, optimality by exact analysis, and comparison with an expected line.

use std::fmt;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::analysis::{
    judge_line, KnownValues, LineVerdicts, MoveKind, MoveVerdict, OracleLimits, Range, Stop, Value,
    VerdictLimits,
};
use crate::formats::notation::{move_path, move_text};
use crate::rules::bitboard::Bitboard;
use crate::rules::draw::DrawRule;
use crate::rules::game::Game;
use crate::rules::movegen::{self, legal_moves};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::search::endgame::{EndgameDb, PROBE_PIECES};
use crate::search::knobs::VERIFY_NODES_PER_SECOND;

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

/// What the exact analysis says about the line as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Optimality {
    /// Every move is proven optimal; the puzzle's exact value for red.
    Optimal(Value),
    /// A move is refuted: it gives less than the mover had (1-based number of the state it leads
    /// to, and explanation of the first such move).
    Suboptimal(usize, String),
    /// No move is refuted but some are undecided (why, and what was established).
    Unproven(String),
    /// Not checked because the line is not a legal, finished game.
    NotChecked,
}

/// The verdict on one move of the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyReport {
    /// The move's number, from 1: the move from state `ply` to state `ply + 1`.
    pub ply: usize,
    /// The side that played it.
    pub mover: Color,
    /// The move in standard notation.
    pub notation: String,
    /// The analysis's verdict and what it rests on.
    pub verdict: MoveVerdict,
    /// A better move of a refuted one, in standard notation, when one was found.
    pub better: Option<String>,
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
    /// The verdict on every move, when the analysis ran.
    pub plies: Vec<PlyReport>,
    /// Positions the analysis expanded or enumerated, and its node budget, when it ran.
    pub analysed: Option<(u64, u64)>,
    /// The comparison with `--expected`, if given.
    pub comparison: Option<Comparison>,
}

impl Verification {
    /// Whether the line is a legal, finished game whose optimality is still to be analysed.
    #[must_use]
    pub fn needs_analysis(&self) -> bool {
        self.illegal.is_none() && self.game_over && self.optimality == Optimality::NotChecked
    }

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

/// Verifies `states` as a solution of `puzzle`, comparing with `expected` when given, with the
/// analysis's default limits and no time limit. See [`verify_with`].
#[must_use]
pub fn verify(
    puzzle: &Position,
    states: &[Position],
    expected: Option<&[Position]>,
) -> Verification {
    verify_with(puzzle, states, expected, OracleLimits::default())
}

/// Verifies `states` as a solution of `puzzle`: [`check_moves`], then, for a legal and
/// finished game, [`analyse`] within `limits`.
#[must_use]
pub fn verify_with(
    puzzle: &Position,
    states: &[Position],
    expected: Option<&[Position]>,
    limits: OracleLimits,
) -> Verification {
    let mut verification = check_moves(puzzle, states, expected);
    if verification.needs_analysis() {
        let limits = verdict_limits(limits);
        let judged = judge(states, limits, None, None, "");
        verification.optimality = judged.optimality;
        verification.plies = judged.plies;
        verification.analysed = Some((judged.nodes, limits.node_budget));
    }
    verification
}

/// Everything but the exact analysis, which is cheap: the moves are legal, the game is
/// finished, and the comparison with `expected`. The optimality is left
/// [`Optimality::NotChecked`]; [`Verification::needs_analysis`] says whether [`analyse`] should
/// fill it in.
#[must_use]
pub fn check_moves(
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
    let game_over = illegal.is_none()
        && states.first().is_some_and(|first| {
            let mut game = Game::new(*first, DrawRule::None);
            states[1..].iter().all(|s| game.play_to(s).is_ok()) && game.outcome().is_some()
        });
    Verification {
        illegal,
        game_over,
        moves,
        optimality: Optimality::NotChecked,
        plies: Vec::new(),
        analysed: None,
        comparison,
    }
}

/// Analysis limits that keep the analysis within about `max_bytes` of memory: half for full
/// retrograde analyses (about 170 bytes per position at the peak of building one: the
/// position, its index and its edges), half for the positions the bounded search remembers
/// (about 95 bytes each). Measured with the release build: the 2.64 M positions of the 3 kings
/// against 2 puzzle peak at 440 MB; 4.77 M remembered positions at 444 MB.
#[must_use]
pub fn limits_for_memory(max_bytes: u64) -> OracleLimits {
    let half = usize::try_from(max_bytes / 2).unwrap_or(usize::MAX);
    let defaults = OracleLimits::default();
    let node_budget = (half / 95).max(1) as u64;
    OracleLimits {
        max_positions: (half / 170).max(1),
        node_budget,
        quick_budget: defaults.quick_budget.min(node_budget),
        ..defaults
    }
}

/// The limits of the per-move analysis within `max_seconds` and about `max_bytes`: the node
/// budget is [`VERIFY_NODES_PER_SECOND`] a second; the memory is split as [`limits_for_memory`] says.
#[must_use]
pub fn budget_limits(max_seconds: u64, max_bytes: u64) -> VerdictLimits {
    VerdictLimits {
        node_budget: max_seconds.saturating_mul(VERIFY_NODES_PER_SECOND),
        ..verdict_limits(limits_for_memory(max_bytes))
    }
}

/// The per-move analysis's limits from an oracle's: its tables and remembered positions, and a
/// node budget of ten of its bounded searches.
#[must_use]
pub fn verdict_limits(limits: OracleLimits) -> VerdictLimits {
    let defaults = VerdictLimits::default();
    VerdictLimits {
        node_budget: limits.node_budget.saturating_mul(10),
        first_question: defaults.first_question.min(limits.node_budget).max(1),
        memo_positions: usize::try_from(limits.node_budget).unwrap_or(usize::MAX),
        table_positions: limits.max_positions,
    }
}

/// The first state that does not follow legally, with its 1-based number.
fn first_illegal(puzzle: &Position, states: &[Position]) -> Option<(usize, StepFault)> {
    if states.first() != Some(puzzle) {
        return Some((1, StepFault::NotThePuzzle));
    }
    let mut game = Game::new(*puzzle, DrawRule::None);
    for (i, &next) in states.iter().enumerate().skip(1) {
        if game.outcome().is_some() {
            return Some((i + 1, StepFault::AfterEnd));
        }
        if let Some(fault) = diagnose(game.current(), &next) {
            return Some((i + 1, fault));
        }
        if game.play_to(&next).is_err() {
            return Some((i + 1, StepFault::Illegal));
        }
    }
    None
}

/// Exact analysis of a legal, finished line within `limits`: the overall verdict of [`judge`].
#[must_use]
pub fn analyse(states: &[Position], limits: OracleLimits) -> Optimality {
    judge(states, verdict_limits(limits), None, None, "").optimality
}

/// The endgame databases' one probe as exact values for the analyser (`verify --egdb`):
/// positions of at most [`PROBE_PIECES`] pieces that the store holds.
#[derive(Debug)]
pub struct DatabaseValues(pub EndgameDb);

impl KnownValues for DatabaseValues {
    fn max_pieces(&self) -> u32 {
        PROBE_PIECES as u32
    }

    fn value(&self, pos: &Position) -> Option<Value> {
        let score = self.0.score(pos, 0)?;
        Some(match score.plies_to_end() {
            None => Value::Draw,
            Some(n) if score.is_win() => Value::Win(n),
            Some(n) => Value::Loss(n),
        })
    }
}

/// What [`judge`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The line's verdict.
    pub optimality: Optimality,
    /// The verdict on each move.
    pub plies: Vec<PlyReport>,
    /// Positions expanded or enumerated.
    pub nodes: u64,
}

/// The per-move analysis of a legal, finished line within `limits`, with the exact values of
/// `endgame`'s store at positions of at most seven pieces when given, stopped early when `stop`
/// is set (`interrupted` then says why, for example "the time budget of 30 s (--max-seconds) ran
/// out"): the overall verdict and one report per move. States are numbered from 1 (the puzzle)
/// in every message.
#[must_use]
pub fn judge(
    states: &[Position],
    limits: VerdictLimits,
    stop: Option<Arc<AtomicBool>>,
    endgame: Option<Arc<DatabaseValues>>,
    interrupted: &str,
) -> Judged {
    let known = endgame.map(|db| db as Arc<dyn KnownValues>);
    let verdicts = match judge_line(states, limits, stop, known) {
        Ok(v) => v,
        Err(e) => {
            return Judged {
                optimality: Optimality::Unproven(e.to_string()),
                plies: Vec::new(),
                nodes: 0,
            }
        }
    };
    let plies: Vec<PlyReport> = verdicts
        .moves
        .iter()
        .enumerate()
        .map(|(i, verdict)| PlyReport {
            ply: i + 1,
            mover: states[i].side_to_move(),
            notation: notation_between(&states[i], &states[i + 1]),
            verdict: verdict.clone(),
            better: verdict
                .better
                .as_ref()
                .map(|(child, _)| notation_between(&states[i], child)),
        })
        .collect();
    Judged {
        optimality: overall(&verdicts, &plies, interrupted),
        plies,
        nodes: verdicts.nodes,
    }
}

/// The move from `before` to `after` in standard notation ("?" if no legal move leads there,
/// which the move check rules out).
fn notation_between(before: &Position, after: &Position) -> String {
    legal_moves(before)
        .into_iter()
        .find(|&m| before.play(m) == *after)
        .map_or_else(|| "?".to_string(), |m| move_text(before, m))
}

/// The line's overall verdict from the verdicts on its moves.
fn overall(verdicts: &LineVerdicts, plies: &[PlyReport], interrupted: &str) -> Optimality {
    if let Some(i) = verdicts.first_refuted() {
        let m = &verdicts.moves[i];
        let refuted: Vec<String> = plies
            .iter()
            .filter(|p| p.verdict.kind == MoveKind::Refuted)
            .map(|p| p.ply.to_string())
            .collect();
        let also = if refuted.len() > 1 {
            format!(
                " ({} moves refuted: plies {})",
                refuted.len(),
                refuted.join(", ")
            )
        } else {
            String::new()
        };
        return Optimality::Suboptimal(
            i + 2,
            format!(
                "the move from state {} to state {} is not optimal: the side to move had {}, \
                 the move played gives {}{also}",
                i + 1,
                i + 2,
                at_least_text(m.before),
                range_text(m.played)
            ),
        );
    }
    if verdicts.all_optimal() {
        // A proven first move gives exactly the best its position allows: `before.hi`.
        let root = match verdicts.moves.first() {
            Some(first) => Some(first.before.hi),
            None => verdicts.states.first().and_then(|r| r.value()),
        };
        if let Some(v) = root {
            return Optimality::Optimal(v);
        }
    }
    let total = verdicts.moves.len();
    let proven = verdicts
        .moves
        .iter()
        .filter(|m| m.kind == MoveKind::Optimal)
        .count();
    let undecided: Vec<String> = plies
        .iter()
        .filter(|p| p.verdict.kind == MoveKind::Undecided)
        .map(|p| p.ply.to_string())
        .collect();
    let why = match verdicts.stop {
        Some(Stop::NodeBudget(n)) => {
            format!("the node budget of {n} positions (--max-seconds) is spent")
        }
        Some(Stop::Interrupted) if !interrupted.is_empty() => interrupted.to_string(),
        Some(Stop::Interrupted) => "the analysis was stopped".to_string(),
        Some(Stop::Exhausted) | None => {
            "the largest question the memory budget (--max-mb) allows settles nothing more"
                .to_string()
        }
    };
    Optimality::Unproven(format!(
        "{proven} of {total} moves proven optimal, none refuted, undecided: {} ({why})",
        plies_list(&undecided)
    ))
}

/// "ply 3" or "plies 1, 2, 5".
fn plies_list(plies: &[String]) -> String {
    match plies {
        [one] => format!("ply {one}"),
        many => format!("plies {}", many.join(", ")),
    }
}

/// A range of values in words: "a win in 29 plies", "no game end within 14 plies", or both
/// bounds.
#[must_use]
pub fn range_text(range: Range) -> String {
    if let Some(v) = range.value() {
        return format!("a {}", value_text(v));
    }
    if let Some(n) = range.no_end_within() {
        return format!("no game end within {}", plural(n, "ply", "plies"));
    }
    if range == Range::UNKNOWN {
        return "a value not yet bounded".to_string();
    }
    format!(
        "at best a {}, at worst a {}",
        value_text(range.hi),
        value_text(range.lo)
    )
}

/// What a position is worth at least, in words, or its exact value when known.
fn at_least_text(range: Range) -> String {
    if range.value().is_some() {
        return range_text(range);
    }
    match range.lo {
        Value::Win(n) => format!("a win within {}", plural(n, "ply", "plies")),
        Value::Draw => "at least a draw".to_string(),
        Value::Loss(n) if n >= 2 => {
            format!("no loss within {}", plural(n - 2, "ply", "plies"))
        }
        Value::Loss(_) => "any value".to_string(),
    }
}

impl fmt::Display for PlyReport {
    /// The verdict on the move in words, as printed after "ply N:": "red 22-18: refuted, it
    /// gives a win in 31 plies; 23-19 gives a win in 29 plies".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&ply_text(self))
    }
}

/// The verdict on one move in words, after "ply N:".
fn ply_text(p: &PlyReport) -> String {
    let v = &p.verdict;
    let head = format!("{} {}", p.mover.name(), p.notation);
    match v.kind {
        MoveKind::Optimal => format!("{head}: proven optimal, {}", range_text(v.played)),
        MoveKind::Refuted => {
            let instead = match (&p.better, &v.better) {
                (Some(better), Some((_, range))) => {
                    format!("{better} gives {}", at_least_text(*range))
                }
                _ => format!("{} had {}", p.mover.name(), at_least_text(v.before)),
            };
            format!(
                "{head}: refuted, it gives {}; {instead}",
                range_text(v.played)
            )
        }
        MoveKind::Undecided => format!(
            "{head}: undecided, before it {}, after it {}",
            range_text(v.before),
            range_text(v.played)
        ),
    }
}

/// A value in words: "win in 1 ply", "loss in 4 plies", "draw".
#[must_use]
pub fn value_text(value: Value) -> String {
    match value {
        Value::Win(n) => format!("win in {}", plural(n, "ply", "plies")),
        Value::Loss(n) => format!("loss in {}", plural(n, "ply", "plies")),
        Value::Draw => "draw".to_string(),
    }
}

/// `n` with commas between thousands.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` and the noun, singular for 1.
fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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
        for p in &self.plies {
            writeln!(f, "{:<10}{p}", format!("ply {}:", p.ply))?;
        }
        if let Some((nodes, budget)) = self.analysed {
            writeln!(
                f,
                "analysis: {} positions of a budget of {}",
                thousands(nodes),
                thousands(budget)
            )?;
        }
        match &self.optimality {
            Optimality::Optimal(v) => writeln!(
                f,
                "optimal:  yes, every move keeps the exact value (red: {})",
                value_text(*v)
            )?,
            Optimality::Suboptimal(_, why) => writeln!(f, "optimal:  no: {why}")?,
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
