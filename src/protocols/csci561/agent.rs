//! The CSCI561 agent: one move per run, from `input.txt` to `output.txt`, under the process's
//! CPU-time clock.
//!
//! A run removes any `output.txt` left from the last move first (so a failed run never leaves a
//! stale answer), reads `input.txt`, rebuilds the game from `playdata.txt` when that continues it
//! (GAME mode), thinks with the engine single-threaded under a CPU-time clock, writes
//! `output.txt` atomically, then records the game in `playdata.txt`.
//!
//! Time (CPU time of the whole process, counted from its start):
//! - `SINGLE`: at most half of the time given, less what the process has already used and a
//!   small reserve for writing the answer and exiting; the search may use all of that.
//! - `GAME`: the first time seen in the game (kept in `playdata.txt`) is the game's budget; the
//!   agent keeps 55% of it untouched (in a drawn game the agent with more time left wins, and
//!   each process spends a little outside the search), and spreads the rest over the expected
//!   remaining moves; once that is spent, a fiftieth of what is left is the pool, so a long game
//!   never runs dry and still ends with about half the time unused.
//! - A `calibration.txt` turns each move's limit into a node budget as well.
//! - However short the time, a legal move is written (the first legal move when not even one
//!   iteration of the search fits).

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

use thiserror::Error;

use crate::formats::files::{self, OutputError};
use crate::play::{
    Budget, Clock, Engine, EngineOptions, Game, PlayerSpec, Thought, TimeMeasure, TimeUse,
};
use crate::rules::draw::DrawRule;
use crate::rules::moves::Move;

use super::calibration::{Calibration, CALIBRATION_FILE};
use super::playdata::{PlayData, PLAYDATA_FILE};
use super::{
    colour_keyword, format_move, parse_input, Input, InputError, Mode, INPUT_FILE, OUTPUT_FILE,
};

/// Largest `input.txt` read; a real one is about 90 bytes.
const MAX_INPUT_BYTES: u64 = 64 * 1024;
/// CPU time kept for writing the answer and exiting.
const EXIT_RESERVE: Duration = Duration::from_millis(2);
/// Share of the time given that a SINGLE move may use.
const SINGLE_SHARE: f64 = 0.5;
/// Share of the game's first time kept back in GAME mode: a half, and a little more for what
/// each process spends outside the search (starting, reading and writing files).
const GAME_KEEP: f64 = 0.55;
/// Share of the time left used as the pool once the kept share is reached.
const LATE_SHARE: f64 = 0.02;

/// How the agent chooses its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AgentOptions {
    /// Play as this player instead of the time-managed engine (`minimax:4` to stand in for the
    /// course's reference agent, `engine:nodes=N` for repeatable tests). The CPU-time clock is
    /// still given to it.
    pub player: Option<PlayerSpec>,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct AgentReport {
    /// What `input.txt` said.
    pub input: Input,
    /// The move played.
    pub mv: Move,
    /// What was written to `output.txt`.
    pub output: String,
    /// What the engine found, when the engine chose the move.
    pub thought: Option<Thought>,
    /// The CPU time this move was allowed to think (before the clock's own safety margin).
    pub limit: Duration,
    /// Plies of the game the agent knew of (0 when it starts a new record).
    pub known_plies: usize,
    /// Things worth telling the user that did not stop the move (an unusable playdata file).
    pub notes: Vec<String>,
}

/// Why the agent wrote no move.
#[derive(Debug, Error)]
pub enum AgentError {
    /// `input.txt` could not be read.
    #[error("{path}: cannot read: {reason}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        reason: io::Error,
    },
    /// `input.txt` is malformed.
    #[error("{path}: {error}")]
    Input {
        /// The file.
        path: PathBuf,
        /// The line and what is wrong.
        error: InputError,
    },
    /// The previous `output.txt` could not be removed.
    #[error("{path}: cannot remove the previous answer: {reason}")]
    Stale {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        reason: io::Error,
    },
    /// The agent's colour has no legal move: the game is already lost.
    #[error("{0} has no legal move in this position (the game is lost)")]
    NoMove(&'static str),
    /// `output.txt` could not be written.
    #[error(transparent)]
    Write(#[from] OutputError),
}

impl AgentError {
    /// Whether the error is the input's fault (a missing or malformed `input.txt`), which the
    /// command line reports with exit code 2.
    #[must_use]
    pub fn is_bad_input(&self) -> bool {
        matches!(self, AgentError::Read { .. } | AgentError::Input { .. })
    }
}

/// CPU time the process has used so far (zero where the system cannot tell).
fn process_cpu() -> Duration {
    cpu_time::ProcessTime::try_now()
        .map(|t| t.as_duration())
        .unwrap_or(Duration::ZERO)
}

/// Plays one move in folder `dir`, as the module documentation describes.
pub fn run(dir: &Path, options: &AgentOptions) -> Result<AgentReport, AgentError> {
    let output_path = dir.join(OUTPUT_FILE);
    match std::fs::remove_file(&output_path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(reason) => {
            return Err(AgentError::Stale {
                path: output_path,
                reason,
            })
        }
    }
    let input_path = dir.join(INPUT_FILE);
    let text = read_text(&input_path)?;
    let input = parse_input(&text).map_err(|error| AgentError::Input {
        path: input_path.clone(),
        error,
    })?;
    let mut notes = Vec::new();

    let (game, initial) = match input.mode {
        Mode::Single => (Game::new(input.position, DrawRule::Csci561), input.seconds),
        Mode::Game => resume(dir, &input, &mut notes),
    };
    if game.legal_moves().is_empty() {
        return Err(AgentError::NoMove(colour_keyword(input.colour)));
    }
    let calibration = std::fs::read_to_string(dir.join(CALIBRATION_FILE))
        .ok()
        .and_then(|t| Calibration::parse(&t));

    let limit = move_limit(&input, initial, process_cpu());
    let budget = match input.mode {
        Mode::Single => Budget::PerMove(limit),
        Mode::Game => Budget::GameLeft(limit),
    };
    let clock = Clock::new(budget, TimeMeasure::ProcessCpu);
    let (mv, thought) = choose(&game, &clock, options, calibration)?;

    let output = format_move(game.current(), mv);
    files::write_output(&output_path, output.as_bytes())?;
    if input.mode == Mode::Game {
        let data = PlayData::after_move(&game, mv, input.colour, initial);
        if let Err(e) = files::write_output(&dir.join(PLAYDATA_FILE), data.to_text().as_bytes()) {
            notes.push(format!("playdata not saved: {e}"));
        }
    }
    Ok(AgentReport {
        input,
        mv,
        output,
        thought,
        limit,
        known_plies: game.ply(),
        notes,
    })
}

/// Reads `input.txt` (at most [`MAX_INPUT_BYTES`]); bytes that are not UTF-8 become U+FFFD, so
/// they are reported as bad characters on their line.
fn read_text(path: &Path) -> Result<String, AgentError> {
    let read = |path: &Path| -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        std::fs::File::open(path)?
            .take(MAX_INPUT_BYTES)
            .read_to_end(&mut bytes)?;
        Ok(bytes)
    };
    let bytes = read(path).map_err(|reason| AgentError::Read {
        path: path.to_path_buf(),
        reason,
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The game so far from `playdata.txt` if it continues it, else a new record starting at the
/// input; with the game's first time.
fn resume(dir: &Path, input: &Input, notes: &mut Vec<String>) -> (Game, f64) {
    let fresh = || (Game::new(input.position, DrawRule::Csci561), input.seconds);
    let text = match std::fs::read_to_string(dir.join(PLAYDATA_FILE)) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return fresh(),
        Err(e) => {
            notes.push(format!(
                "{PLAYDATA_FILE} not read ({e}); starting a new record"
            ));
            return fresh();
        }
    };
    let data = match PlayData::parse(&text) {
        Ok(d) => d,
        Err(e) => {
            notes.push(format!(
                "{PLAYDATA_FILE} ignored ({e}); starting a new record"
            ));
            return fresh();
        }
    };
    match data.continue_game(&input.position) {
        // The kept time cannot be more than what the game started with, whatever the file says.
        Some(game) => (game, data.initial_seconds.max(input.seconds)),
        None => {
            notes.push(format!(
                "{PLAYDATA_FILE} is from another game; starting a new record"
            ));
            fresh()
        }
    }
}

/// The CPU time this move's clock gets (see the module documentation): what the mode allows,
/// less what the process has `used` and [`EXIT_RESERVE`].
fn move_limit(input: &Input, initial: f64, used: Duration) -> Duration {
    let left = Duration::from_secs_f64(input.seconds);
    let available = left.saturating_sub(used).saturating_sub(EXIT_RESERVE);
    let share = match input.mode {
        Mode::Single => left.mul_f64(SINGLE_SHARE),
        Mode::Game => {
            let kept = Duration::from_secs_f64(initial * GAME_KEEP);
            left.saturating_sub(kept).max(left.mul_f64(LATE_SHARE))
        }
    };
    share.min(available)
}

/// Table size for a move allowed `hard` of CPU time: small for short moves, whose process would
/// spend more time clearing a large table than searching.
fn table_mb(hard: Duration) -> usize {
    match hard.as_millis() {
        0..=99 => 1,
        100..=999 => 4,
        1000..=9999 => 16,
        _ => 64,
    }
}

/// The move, from the configured player or the engine.
fn choose(
    game: &Game,
    clock: &Clock,
    options: &AgentOptions,
    calibration: Option<Calibration>,
) -> Result<(Move, Option<Thought>), AgentError> {
    let no_move = || AgentError::NoMove(colour_keyword(game.current().side_to_move()));
    let pos = game.current();
    let legal = game.legal_moves();
    if let Some(spec) = &options.player {
        let mut player = spec.build(0);
        let mv = player.choose(game, clock).map_err(|_| no_move())?;
        // Whatever the player does, only a legal move leaves the agent.
        return if legal.contains(&mv) {
            Ok((mv, None))
        } else {
            Err(no_move())
        };
    }
    let hard = clock
        .allocate(
            game.ply(),
            pos.occupied().count(),
            legal.len(),
            TimeUse::default(),
        )
        .hard
        .unwrap_or(Duration::ZERO);
    let mut engine_options = EngineOptions {
        move_time: (hard > Duration::ZERO).then_some(hard),
        nodes: calibration.map(|c| c.nodes_for(hard)),
        egdb: crate::play::default_egdb(),
        ..EngineOptions::default()
    };
    engine_options.search.table_mb = table_mb(hard);
    let mut engine = Engine::new(engine_options);
    let thought = engine.think(game, clock).ok_or_else(no_move)?;
    Ok((thought.best, Some(thought)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::piece::Color;
    use crate::rules::position::Position;

    fn input(mode: Mode, seconds: f64) -> Input {
        Input {
            mode,
            colour: Color::Black,
            seconds,
            position: Position::start().with_side_to_move(Color::Black),
        }
    }

    #[test]
    fn single_moves_use_at_most_half_the_time() {
        for secs in [0.01, 1.0, 30.0, 100.0] {
            let limit = move_limit(&input(Mode::Single, secs), secs, Duration::from_millis(1));
            assert!(
                limit.as_secs_f64() <= secs * SINGLE_SHARE + 1e-9,
                "{secs}: {limit:?}"
            );
        }
        // Already over the time: nothing left, but still a (zero) limit, not a panic.
        let limit = move_limit(&input(Mode::Single, 0.01), 0.01, Duration::from_secs(1));
        assert_eq!(limit, Duration::ZERO);
    }

    #[test]
    fn game_moves_keep_half_of_the_game() {
        // At the start of a 300 s game the pool is the unkept 135 s.
        let limit = move_limit(&input(Mode::Game, 300.0), 300.0, Duration::ZERO);
        assert!((limit.as_secs_f64() - 135.0).abs() < 0.01, "{limit:?}");
        // Past the kept share, only a fiftieth of what is left.
        let limit = move_limit(&input(Mode::Game, 150.0), 300.0, Duration::ZERO);
        assert!((limit.as_secs_f64() - 3.0).abs() < 0.01, "{limit:?}");
    }

    #[test]
    fn tables_are_small_for_short_moves() {
        assert_eq!(table_mb(Duration::from_millis(5)), 1);
        assert_eq!(table_mb(Duration::from_secs(3)), 16);
    }
}
