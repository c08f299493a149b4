//! `checkers_engine`: the `checkers` library from Python (PyO3, built by maturin; see
//! `python/README.md`).
//!
//! Every name here is a thin wrapper over the library's public API: positions, notation, FEN and
//! board text from `formats`, perft from `rules`, the puzzle solver from `search::puzzle::solve`, the
//! game engine from `play`, the checker from `tools::verify`, the SVG from `formats::svg`. Bad
//! input raises `ValueError` with the command line's message, `<string>` standing where the
//! command line names the file. Long searches run on a thread of their own while the calling
//! thread waits without the GIL and looks for signals: Ctrl-C sets the search's stop flag and
//! raises `KeyboardInterrupt`.
#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use checkers::formats::export::{self, OutputFormat};
use checkers::formats::input::{self, ReadError};
use checkers::formats::pdn::Game as PdnGame;
use checkers::formats::svg::{self, SvgOptions};
use checkers::formats::{board_text, fen, notation};
use checkers::play::{Clock, Engine, EngineOptions, Game};
use checkers::rules::draw::DrawRule;
use checkers::rules::movegen::{legal_moves, Routes};
use checkers::rules::perft::{self, PerftTable};
use checkers::search::knobs;
use checkers::search::puzzle::solve::{self, SolveOptions, SolveOptionsError};
use checkers::search::{Evaluator, Stop};
use checkers::tools::verify::{self, Optimality};
use checkers::Color;

/// How input given as a Python string is named in messages, where the command line names the
/// file.
const SOURCE: &str = "<string>";

/// How often the waiting thread looks for a signal (Ctrl-C).
const TICK: Duration = Duration::from_millis(50);

/// How long a stopped search may take to wind down before the call returns without it.
const WIND_DOWN: Duration = Duration::from_secs(1);

/// Stack of the search and analysis threads: the searches recurse once per ply.
const STACK_BYTES: usize = 64 << 20;

/// The command line's default thinking time of `think`.
const DEFAULT_THINK_MS: u64 = 1000;

/// The deepest perft the command line accepts.
const MAX_PERFT_DEPTH: u32 = 30;

/// Size of perft's table of subtree counts, as the command line's default (`--hash-mb`).
const PERFT_TABLE_MB: usize = 32;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Runs `work` on a thread of its own and waits for it without the GIL, looking for signals
/// every [`TICK`]. When a signal handler raises (Ctrl-C: `KeyboardInterrupt`), `stop` is set,
/// the work is given [`WIND_DOWN`] to end, and the exception is returned; the work's result is
/// dropped (work without a stop flag is left to finish on its own).
fn run_interruptible<T: Send + 'static>(
    py: Python<'_>,
    stop: Option<&Stop>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (send, receive) = mpsc::channel();
    std::thread::Builder::new()
        .name("checkers_engine".to_string())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            // The receiver is gone only when the caller was interrupted.
            let _ = send.send(work());
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the search thread: {e}")))?;
    let mut receive = receive;
    loop {
        // The receiver goes in and out of the GIL-free closure, which must own what it holds.
        let (got, back) = py.detach(move || (receive.recv_timeout(TICK), receive));
        receive = back;
        match got {
            Ok(result) => return Ok(result),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the search thread ended without an answer (a bug in checkers_engine)",
                ))
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        if let Err(interrupt) = py.check_signals() {
            if let Some(stop) = stop {
                stop.stop();
                let _ = py.detach(move || receive.recv_timeout(WIND_DOWN));
            }
            return Err(interrupt);
        }
    }
}

/// A position: the pieces and the side to move. Immutable; equal positions compare equal and
/// hash alike.
#[pyclass(module = "checkers_engine", name = "Position", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct PyPosition {
    inner: checkers::Position,
}

impl PyPosition {
    fn new(inner: checkers::Position) -> PyPosition {
        PyPosition { inner }
    }
}

/// A position given as a `Position` or as text in any of the command line's input formats.
fn position_of(obj: &Bound<'_, PyAny>, puzzle: bool) -> PyResult<checkers::Position> {
    if let Ok(pos) = obj.cast::<PyPosition>() {
        let pos = pos.get().inner;
        if puzzle && pos.side_to_move() == Color::Black {
            return Err(value_error(
                "black is to move here; a puzzle must have red (W) to move",
            ));
        }
        return Ok(pos);
    }
    if let Ok(text) = obj.extract::<String>() {
        let parsed = if puzzle {
            input::parse_puzzle(text.as_bytes(), None)
        } else {
            input::parse_position(text.as_bytes(), None)
        };
        return parsed.map_err(|e| value_error(input::source_error(SOURCE, e)));
    }
    Err(PyTypeError::new_err(
        "expected a Position or its text (a board, a FEN or a PDN game)",
    ))
}

#[pymethods]
impl PyPosition {
    /// The standard starting position: 12 men a side, red (squares 21-32) to move.
    #[staticmethod]
    fn start() -> PyPosition {
        PyPosition::new(checkers::Position::start())
    }

    /// A position from a FEN such as ``W:W21,22,K23:B1,2,3`` (``W``: red to move, red's squares
    /// written as White's, ``K`` for a king). Raises ``ValueError`` naming the line and column.
    #[staticmethod]
    fn from_fen(fen: &str) -> PyResult<PyPosition> {
        fen::parse(fen)
            .map(PyPosition::new)
            .map_err(|e| value_error(input::source_error(SOURCE, ReadError::Fen(e))))
    }

    /// A position from the puzzle's board text: 8 lines of 8 characters from ``.rRbB`` (red men
    /// and kings, black men and kings), red to move. Raises ``ValueError`` naming the line and
    /// column, as the command line does.
    #[staticmethod]
    fn from_board(text: &str) -> PyResult<PyPosition> {
        board_text::parse_board(text.as_bytes())
            .map(PyPosition::new)
            .map_err(|e| value_error(input::source_error(SOURCE, ReadError::Board(e))))
    }

    /// A position from any text the command line reads: a board, a FEN or a PDN game (the
    /// position after its moves), told apart by the content; either side to move.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyPosition> {
        input::parse_position(text.as_bytes(), None)
            .map(PyPosition::new)
            .map_err(|e| value_error(input::source_error(SOURCE, e)))
    }

    /// The position as a FEN. Raises ``ValueError`` when a piece stands on a light cell, which
    /// FEN cannot write.
    fn fen(&self) -> PyResult<String> {
        fen::write(&self.inner).map_err(value_error)
    }

    /// The position as the puzzle's board text: 8 lines of ``.rRbB``, each ending in a newline
    /// (the side to move is not written).
    fn board(&self) -> String {
        board_text::format_board(&self.inner)
    }

    /// ``"red"`` or ``"black"``.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        self.inner.side_to_move().name()
    }

    /// The warnings the command line prints for this setup (pieces on light cells, more than 12
    /// pieces of a colour, a man on its own crowning row); the position is usable anyway.
    fn warnings(&self) -> Vec<String> {
        self.inner
            .setup_warnings()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The legal moves, in the move generator's order. Captures are mandatory, so when one
    /// exists only captures are listed; each multi-jump route is its own move. Empty when the
    /// side to move has lost.
    fn legal_moves(&self) -> Vec<PyMove> {
        legal_moves(&self.inner)
            .iter()
            .map(|&mv| PyMove::new(self.inner, mv))
            .collect()
    }

    /// The position after ``move``: a ``Move`` of this position, or its standard notation
    /// (``"22-18"``, ``"22x15x8"`` with every landing square; a capture's two ends are enough when
    /// only one capture joins them). Raises ``ValueError`` for an illegal move, listing the legal
    /// ones.
    #[pyo3(name = "play", signature = (r#move))]
    fn play(&self, r#move: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let mv = if let Ok(m) = r#move.cast::<PyMove>() {
            let m = m.get();
            if !legal_moves(&self.inner).contains(&m.inner) {
                return Err(value_error(format!(
                    "{}: not a legal move for {} here; legal moves: {}",
                    m.text,
                    self.inner.side_to_move().name(),
                    legal_text(&self.inner)
                )));
            }
            m.inner
        } else if let Ok(text) = r#move.extract::<String>() {
            let trimmed = text.trim();
            let path = notation::parse_path(trimmed).ok_or_else(|| {
                value_error(format!(
                    "{trimmed:?}: not a move in standard notation (squares 1-32 joined by - or x, \
                     such as 22-18 or 22x15x8)"
                ))
            })?;
            notation::move_from_path(&self.inner, &path)
                .map_err(|e| value_error(format!("{trimmed}: {e}")))?
        } else {
            return Err(PyTypeError::new_err(
                "expected a Move or a move in standard notation",
            ));
        };
        Ok(PyPosition::new(self.inner.play(mv)))
    }

    /// The number of leaf positions ``depth`` plies ahead, counted as the command line's
    /// ``checkers perft`` does by default: every capture route counts as its own move, even
    /// when two routes capture the same pieces and land on the same square. Depth 0 to 30.
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > MAX_PERFT_DEPTH {
            return Err(value_error(format!(
                "depth {depth}: perft goes to depth {MAX_PERFT_DEPTH} at most"
            )));
        }
        let pos = self.inner;
        run_interruptible(py, None, move || {
            let table = PerftTable::try_new(PERFT_TABLE_MB).unwrap_or_else(|_| PerftTable::empty());
            perft::perft_parallel(&pos, depth, Routes::All, &table)
        })
    }

    /// The board as an SVG picture (the command line's ``checkers show --svg``); ``numbers``
    /// writes each dark square's number.
    #[pyo3(signature = (numbers = false))]
    fn svg(&self, numbers: bool) -> String {
        svg::diagram(
            &self.inner,
            None,
            &SvgOptions {
                numbers,
                ..SvgOptions::default()
            },
        )
    }

    /// The SVG picture, which a notebook shows.
    fn _repr_svg_(&self) -> String {
        self.svg(false)
    }

    /// The board text.
    fn __str__(&self) -> String {
        self.board()
    }

    fn __repr__(&self) -> String {
        match fen::write(&self.inner) {
            Ok(f) => format!("Position.from_fen({f:?})"),
            Err(_) => format!("Position.parse({:?})", self.board()),
        }
    }
}

/// The legal moves of `pos` in notation, separated by spaces, or "none".
fn legal_text(pos: &checkers::Position) -> String {
    let moves: Vec<String> = legal_moves(pos)
        .iter()
        .map(|&m| notation::move_text(pos, m))
        .collect();
    if moves.is_empty() {
        "none".to_string()
    } else {
        moves.join(" ")
    }
}

/// A legal move of a position. ``str(move)`` is its standard notation with every landing square
/// of a capture (``"22x15x8"``); moves touching a light cell are written in cells
/// (``"r6c1-r5c2"``).
#[pyclass(module = "checkers_engine", name = "Move", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct PyMove {
    before: checkers::Position,
    inner: checkers::Move,
    text: String,
}

impl PyMove {
    fn new(before: checkers::Position, inner: checkers::Move) -> PyMove {
        PyMove {
            before,
            inner,
            text: notation::move_text(&before, inner),
        }
    }
}

#[pymethods]
impl PyMove {
    /// The squares the moving piece passes, start, every landing square and end, as standard
    /// numbers 1-32. Raises ``ValueError`` for a move on light cells, which have no number.
    #[getter]
    fn path(&self) -> PyResult<Vec<u32>> {
        notation::move_path(&self.before, self.inner)
            .into_iter()
            .map(|sq| {
                notation::standard_number(sq).map(u32::from).ok_or_else(|| {
                    value_error(format!(
                        "{}: the move touches a light cell, which has no standard number",
                        self.text
                    ))
                })
            })
            .collect()
    }

    /// Whether the move captures.
    #[getter]
    fn is_capture(&self) -> bool {
        self.inner.is_capture()
    }

    /// Whether the move crowns a man.
    #[getter]
    fn crowns(&self) -> bool {
        self.before.crowns(self.inner)
    }

    /// The position the move is played from.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition::new(self.before)
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!("Move({:?})", self.text)
    }
}

/// A solved puzzle: the whole game the command line writes, from the puzzle to its end.
#[pyclass(module = "checkers_engine", name = "Solution", frozen)]
struct PySolution {
    inner: solve::Solution,
    moves: Vec<String>,
}

#[pymethods]
impl PySolution {
    /// Every state of the game, from the puzzle to the end.
    #[getter]
    fn states(&self) -> Vec<PyPosition> {
        self.inner
            .states
            .iter()
            .map(|&p| PyPosition::new(p))
            .collect()
    }

    /// The moves played, in standard notation.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.moves.clone()
    }

    /// The number of moves (plies) played.
    #[getter]
    fn plies(&self) -> usize {
        self.inner.moves()
    }

    /// ``"red"``, ``"black"``, or ``None`` for a draw.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.inner.outcome.winner().map(|c| c.name())
    }

    /// Whether every searched move was proven optimal, so that the line is optimal.
    #[getter]
    fn proven(&self) -> bool {
        self.inner.proven
    }

    /// Whether the time limit cut a move's search short (the line may then vary between runs).
    #[getter]
    fn time_limited(&self) -> bool {
        self.inner.time_limited
    }

    /// Positions the search visited.
    #[getter]
    fn nodes(&self) -> u64 {
        self.inner.stats.nodes
    }

    /// Wall time of the solve, in seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.inner.elapsed.as_secs_f64()
    }

    /// The line the command line prints on stderr after solving, e.g. ``red wins after 7 plies
    /// (proven optimal); 8 states; 0.001 s (search 0.0 s, proof 0.0 s, analysis 0.0 s,
    /// backward pass 0.0 s); 489 nodes; table hit rate 74%``.
    fn summary(&self) -> String {
        export::summary(&self.inner)
    }

    /// The solution as the command line writes it (``--format``): ``"text"`` (every state as 8
    /// lines, an empty line between states: the exact bytes of ``--outputfile``), ``"pdn"`` or
    /// ``"fen"``. PDN and FEN raise ``ValueError`` when a piece stands on a light cell.
    #[pyo3(signature = (format = "text"))]
    fn text(&self, format: &str) -> PyResult<String> {
        let format = match format {
            "text" => OutputFormat::Text,
            "pdn" => OutputFormat::Pdn,
            "fen" => OutputFormat::Fen,
            other => {
                return Err(value_error(format!(
                    "format {other:?}: expected \"text\", \"pdn\" or \"fen\""
                )))
            }
        };
        export::write_solution(&self.inner, format, "puzzle")
            .map_err(|e| value_error(format!("{e}; write the solution with format=\"text\"")))
    }

    fn __repr__(&self) -> String {
        let result = match self.winner() {
            Some(w) => format!("{w} wins"),
            None => "draw".to_string(),
        };
        format!(
            "<Solution: {result} in {} plies, {}>",
            self.plies(),
            if self.inner.proven {
                "proven"
            } else {
                "not proven"
            }
        )
    }
}

/// A number of seconds as the command line accepts it ([`SolveOptions::time_limit_from_secs`]:
/// positive, finite, at most a million).
fn seconds(value: f64, name: &str) -> PyResult<Duration> {
    SolveOptions::time_limit_from_secs(value)
        .map_err(|e| value_error(format!("{name}={value}: {e}")))
}

// The defaults of `solve`'s signature are written out (pyo3 shows any other expression as `...`
// in the signature Python reads); they must be the library's, which these lines check at
// compile time.
const _: () = assert!(knobs::DEFAULT_TIME_LIMIT.as_secs() == 50);
const _: () = assert!(knobs::DEFAULT_TIME_LIMIT.subsec_nanos() == 0);
const _: () = assert!(knobs::DEFAULT_NODES_PER_MOVE == 100_000);
const _: () = assert!(knobs::DEFAULT_TT_MEGABYTES == 64);

/// Solves a puzzle as the command line does (``checkers --inputfile FILE --outputfile FILE``):
/// red wins in the fewest moves, black resists as long as possible, and the whole game is
/// played to its end.
///
/// ``puzzle`` is a ``Position`` (red to move) or the text of a puzzle file (a board, a FEN or a
/// PDN game). A position with black to move is refused with ``ValueError``, as the command line
/// refuses it. The options are the command line's, with its defaults: ``time_limit``
/// (``--time-limit``, seconds for the whole game), ``nodes_per_move``, ``tt_mb``, ``depth``,
/// ``draw_rule`` (also end the game after 50 moves of each side without capture or crowning)
/// ``egdb``, the directory of endgame databases (default: ``$CHECKERS_EGDB``, else the cache
/// directory, when it exists, as the command line does), and ``eval`` (``--eval``: ``"trained"``,
/// the default, which chooses the moves the solver cannot prove with the trained tables, or
/// ``"hand"``, the solver's hand-written set, which plays the deepening's own move; ``"puzzle"``
/// is another name for it).
/// The same puzzle and options give the command line's bytes: ``solve(text).text()``.
///
/// The search runs without the GIL; Ctrl-C stops it within a second and raises
/// ``KeyboardInterrupt``.
#[pyfunction]
#[pyo3(name = "solve", signature = (puzzle, time_limit = 50.0, *, nodes_per_move = 100_000, tt_mb = 64,
                    depth = None, draw_rule = false, egdb = None, eval = "trained"))]
#[allow(clippy::too_many_arguments)]
fn py_solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    time_limit: f64,
    nodes_per_move: u64,
    tt_mb: u32,
    depth: Option<u32>,
    draw_rule: bool,
    egdb: Option<PathBuf>,
    eval: &str,
) -> PyResult<PySolution> {
    let pos = position_of(puzzle, true)?;
    let evaluator = match eval {
        "trained" => Evaluator::shipped().map_err(value_error)?,
        // `hand` is the command line's name (`--eval hand`), `puzzle` the older one.
        "hand" | "puzzle" => Evaluator::Puzzle,
        _ => {
            return Err(value_error(format!(
                "eval={eval:?}: must be \"trained\" or \"hand\" (also \"puzzle\")"
            )))
        }
    };
    let time_limit = seconds(time_limit, "time_limit")?;
    let options = SolveOptions {
        tt_megabytes: tt_mb as usize,
        max_depth: depth,
        time_limit,
        nodes_per_move,
        draw_rule: if draw_rule {
            DrawRule::FiftyMoves
        } else {
            DrawRule::None
        },
        evaluator,
        ..SolveOptions::default()
    };
    options.validate().map_err(|e| {
        value_error(match e {
            SolveOptionsError::TimeLimit => format!("time_limit: {e}"),
            SolveOptionsError::NodesPerMove => format!("nodes_per_move={nodes_per_move}: {e}"),
            SolveOptionsError::TtMegabytes => format!("tt_mb={tt_mb}: {e}"),
            SolveOptionsError::Depth => format!("depth={}: {e}", depth.unwrap_or(0)),
        })
    })?;
    let endgame = solve::endgame_databases(egdb.as_deref());
    let stop = Stop::new();
    let flag = stop.clone();
    let solution = run_interruptible(py, Some(&stop), move || {
        solve::solve_until(pos, &options, endgame, &flag)
    })?;
    let moves = match PdnGame::from_states(&solution.states) {
        Ok(game) => {
            let mut p = solution.states[0];
            game.moves
                .iter()
                .map(|&mv| {
                    let text = notation::move_text(&p, mv);
                    p = p.play(mv);
                    text
                })
                .collect()
        }
        Err(e) => return Err(PyRuntimeError::new_err(format!("the solution: {e}"))),
    };
    Ok(PySolution {
        inner: solution,
        moves,
    })
}

/// The engine's move in ``position`` (either side to move), as ``checkers think`` gives it:
/// thinking ``time_ms`` milliseconds (default 1000), or ``nodes`` nodes, or to ``depth`` plies
/// (at most one of the three). ``None`` when the side to move has no legal move (it has lost).
/// Like ``checkers think``, it reads the endgame databases of ``$CHECKERS_EGDB``, else of the
/// platform's cache directory, when that directory exists.
///
/// The search runs without the GIL; Ctrl-C stops it at once and raises ``KeyboardInterrupt``.
#[pyfunction]
#[pyo3(signature = (position, time_ms = None, nodes = None, depth = None))]
fn think(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    time_ms: Option<u64>,
    nodes: Option<u64>,
    depth: Option<u32>,
) -> PyResult<Option<PyMove>> {
    let pos = position_of(position, false)?;
    if [time_ms.is_some(), nodes.is_some(), depth.is_some()]
        .iter()
        .filter(|&&b| b)
        .count()
        > 1
    {
        return Err(value_error("give at most one of time_ms, nodes and depth"));
    }
    if let Some(t) = time_ms {
        if !(1..=86_400_000).contains(&t) {
            return Err(value_error(format!("time_ms={t}: must be 1 to 86400000")));
        }
    }
    if nodes == Some(0) {
        return Err(value_error("nodes=0: must be at least 1"));
    }
    if let Some(d) = depth {
        if !(1..=200).contains(&d) {
            return Err(value_error(format!("depth={d}: must be 1 to 200")));
        }
    }
    let stop = Stop::new();
    let flag = stop.clone();
    let best = run_interruptible(py, Some(&stop), move || {
        let clock = if nodes.is_some() || depth.is_some() {
            Clock::unlimited()
        } else {
            Clock::per_move(Duration::from_millis(time_ms.unwrap_or(DEFAULT_THINK_MS)))
        };
        let mut engine = Engine::new(EngineOptions {
            nodes,
            depth,
            egdb: checkers::play::default_egdb(),
            ..EngineOptions::default()
        });
        engine.set_stop(flag);
        engine
            .think(&Game::new(pos, DrawRule::None), &clock)
            .map(|t| t.best)
    })?;
    Ok(best.map(|mv| PyMove::new(pos, mv)))
}

/// The verdict of ``verify``.
#[pyclass(module = "checkers_engine", name = "Verification", frozen)]
struct PyVerification {
    /// Every state follows by a legal move and the last one ends the game.
    #[pyo3(get)]
    valid: bool,
    /// ``True`` when every move is optimal, ``False`` when one is not, ``None`` when the
    /// positions were too large to decide within the budget (or the line is not valid).
    #[pyo3(get)]
    optimal: Option<bool>,
    /// The report ``checkers verify`` prints.
    #[pyo3(get)]
    message: String,
}

#[pymethods]
impl PyVerification {
    fn __repr__(&self) -> String {
        format!(
            "<Verification: valid={}, optimal={}>",
            if self.valid { "True" } else { "False" },
            match self.optimal {
                Some(true) => "True",
                Some(false) => "False",
                None => "None",
            }
        )
    }
}

/// Checks a solution as ``checkers verify`` does: every state follows by a legal move (naming
/// the first bad state and why), the last state ends the game, and every move is optimal
/// (exact values from the independent analyser).
///
/// ``puzzle`` is a ``Position`` or a puzzle's text; ``solution_text`` is the states as board
/// text, an empty line between states. ``max_seconds`` and ``max_mb`` bound the exact analysis
/// (the command line's ``--max-seconds`` and ``--max-mb``): past them ``optimal`` is ``None``.
/// The analysis runs without the GIL; when its time runs out or Ctrl-C interrupts it, it is
/// left to end on its own in the background (its memory stays within ``max_mb``).
#[pyfunction]
#[pyo3(name = "verify", signature = (puzzle, solution_text, max_seconds = 30.0, max_mb = 1024))]
fn py_verify(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    solution_text: &str,
    max_seconds: f64,
    max_mb: u64,
) -> PyResult<PyVerification> {
    let puzzle = position_of(puzzle, true)?;
    let budget = seconds(max_seconds, "max_seconds")?;
    if !(16..=1 << 20).contains(&max_mb) {
        return Err(value_error(format!(
            "max_mb={max_mb}: must be 16 to 1048576"
        )));
    }
    // Any format the solver writes: board text, FEN lines or a PDN game.
    let states = input::parse_solution(solution_text.as_bytes())
        .map_err(|e| value_error(input::source_error(SOURCE, e)))?;
    let mut verdict = verify::check_moves(&puzzle, &states, None);
    if verdict.needs_analysis() {
        let limits = verify::limits_for_memory(max_mb << 20);
        let (send, receive) = mpsc::channel();
        let analysed = run_interruptible(py, None, move || {
            std::thread::Builder::new()
                .name("checkers_engine analysis".to_string())
                .stack_size(STACK_BYTES)
                .spawn(move || {
                    let _ = send.send(verify::analyse(&states, limits));
                })
                .map(|_| receive.recv_timeout(budget))
        })?;
        verdict.optimality = match analysed {
            Ok(Ok(optimality)) => optimality,
            Ok(Err(RecvTimeoutError::Timeout)) => Optimality::Unproven(format!(
                "too large to prove within the time budget of {max_seconds} s (max_seconds)"
            )),
            Ok(Err(RecvTimeoutError::Disconnected)) => {
                Optimality::Unproven("the analysis stopped without an answer".to_string())
            }
            Err(e) => Optimality::Unproven(format!("the analysis could not be started: {e}")),
        };
    }
    let valid = verdict.illegal.is_none() && verdict.game_over;
    let optimal = match verdict.optimality {
        Optimality::Optimal(_) => Some(true),
        Optimality::Suboptimal(..) => Some(false),
        Optimality::Unproven(_) | Optimality::NotChecked => None,
    };
    Ok(PyVerification {
        valid,
        optimal,
        message: verdict.to_string(),
    })
}

/// The checkers (English draughts) engine of the `checkers` project: positions, moves, perft,
/// the exact puzzle solver, the game engine, the solution checker and SVG boards.
#[pymodule]
fn checkers_engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add_class::<PyMove>()?;
    m.add_class::<PySolution>()?;
    m.add_class::<PyVerification>()?;
    m.add_function(wrap_pyfunction!(py_solve, m)?)?;
    m.add_function(wrap_pyfunction!(think, m)?)?;
    m.add_function(wrap_pyfunction!(py_verify, m)?)?;
    Ok(())
}
