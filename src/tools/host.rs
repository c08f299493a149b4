//! The CSCI561 referee ("master game playing agent"): plays two file-protocol agents against
//! each other, each a command run once per move in its own folder, under the assignment's rules
//! and CPU-time clock; and [`ExternalAgent`], the same agent as a [`Player`] for match runners.
//!
//! Each turn the host writes `input.txt` (GAME, the colour to play, the agent's CPU seconds left,
//! the board) in that agent's folder, runs the command there (`sh -c COMMAND`, see
//! [`process`]), charges the CPU time the operating system measured to the
//! agent's clock, then reads `output.txt` and checks it against the legal moves. The game ends
//! with a win (the side to move has no legal move), a draw by either CSCI561 rule (the same
//! board for the third time, 50 moves of both sides without a capture or crowning), a time
//! forfeit (the agent used more CPU time than it had left, or hung), or a bad answer (no
//! `output.txt`, garbage, an illegal move, an incomplete jump sequence): the offender loses.
//! `playdata.txt` is deleted from both folders before each game.

use std::path::{Path, PathBuf};
use std::time::Duration;

use thiserror::Error;

use crate::formats::pdn::{self, GameResult};
use crate::play::{Budget, Clock, Game, GameEnd, Player, PlayerError};
use crate::protocols::csci561::playdata::PLAYDATA_FILE;
use crate::protocols::csci561::{
    colour_keyword, format_input, parse_output, Mode, OutputError, INPUT_FILE, OUTPUT_FILE,
};
use crate::rules::draw::DrawRule;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;

use super::process::{self, Exit, Killed, RunError, RunLimits, RunOutcome};

/// Largest `output.txt` read; a real one is a few lines.
const MAX_OUTPUT_BYTES: usize = 64 * 1024;

/// An agent: a name for reports and the command that runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentCommand {
    /// How reports name it.
    pub name: String,
    /// The shell command (run with `sh -c` in the agent's folder).
    pub command: String,
}

/// How the host plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostOptions {
    /// CPU time of each agent for a whole game.
    pub time: Duration,
    /// Where games start: the standard start with black to move ([`start_position`]), or any
    /// position (its side to move moves first).
    pub start: Position,
}

impl HostOptions {
    /// Games from the standard start with `time` of CPU for each agent.
    #[must_use]
    pub fn new(time: Duration) -> HostOptions {
        HostOptions {
            time,
            start: start_position(),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move had no legal move.
    NoMove,
    /// The same board (pieces only) for the third time.
    Repetition,
    /// 50 moves of both sides without a capture or a crowning.
    QuietMoves,
    /// The agent to move used more CPU time than it had left.
    TimeForfeit {
        /// CPU time it used on the move.
        used: Duration,
        /// What it had left before the move.
        left: Duration,
    },
    /// The agent hung (no CPU use, but past the wall-clock bound) and was killed.
    Hung {
        /// Wall time it was given.
        wall: Duration,
    },
    /// The agent wrote no `output.txt`.
    NoOutput {
        /// How its process ended.
        exit: Exit,
    },
    /// The agent's `output.txt` is not a legal move (garbage, illegal, incomplete jump).
    BadOutput(OutputError),
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndReason::NoMove => f.write_str("no legal move"),
            EndReason::Repetition => f.write_str("draw: the same board for the third time"),
            EndReason::QuietMoves => f.write_str("draw: 50 moves without a capture or a crowning"),
            EndReason::TimeForfeit { used, left } => write!(
                f,
                "out of time: used {:.3} s of CPU with {:.3} s left",
                used.as_secs_f64(),
                left.as_secs_f64()
            ),
            EndReason::Hung { wall } => write!(
                f,
                "hung: killed after {:.1} s of wall time",
                wall.as_secs_f64()
            ),
            EndReason::NoOutput { exit } => match exit {
                Exit::Code(c) => write!(f, "no output.txt (exit code {c})"),
                Exit::Signal(s) => write!(f, "no output.txt (killed by signal {s})"),
            },
            EndReason::BadOutput(e) => write!(f, "bad output.txt: {e}"),
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The agents: black first, then white.
    pub names: [String; 2],
    /// The start.
    pub start: Position,
    /// The moves played.
    pub moves: Vec<Move>,
    /// CPU time of each move.
    pub move_cpu: Vec<Duration>,
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
    /// CPU time left at the end: black's, then white's.
    pub time_left: [Duration; 2],
    /// Longest move in CPU time: black's, then white's.
    pub longest_move: [Duration; 2],
}

/// Index of a colour in the reports' pairs: black 0, white (red) 1.
#[must_use]
pub const fn index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::Red => 1,
    }
}

impl GameReport {
    /// The agent with more time left at the end (`None` when equal), which the assignment's
    /// grading gives a drawn game to.
    #[must_use]
    pub fn more_time_left(&self) -> Option<Color> {
        let [b, w] = self.time_left;
        match b.cmp(&w) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::Red),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// One line: who won and why, the moves, and the time left.
    #[must_use]
    pub fn summary(&self) -> String {
        let name = |c: Color| format!("{} ({})", self.names[index(c)], colour_keyword(c));
        let result = match self.winner {
            Some(w) => format!(
                "{} wins; {} loses: {}",
                name(w),
                name(w.opponent()),
                self.reason
            ),
            None => {
                let ahead = match self.more_time_left() {
                    Some(c) => format!("{} had more time left", name(c)),
                    None => "equal time left".to_owned(),
                };
                format!("{}; {ahead}", self.reason)
            }
        };
        format!(
            "{result}; {} plies; CPU left: BLACK {:.2} s, WHITE {:.2} s; longest move: BLACK \
             {:.2} s, WHITE {:.2} s",
            self.moves.len(),
            self.time_left[0].as_secs_f64(),
            self.time_left[1].as_secs_f64(),
            self.longest_move[0].as_secs_f64(),
            self.longest_move[1].as_secs_f64()
        )
    }

    /// The game as PDN: the agents as the White and Black tags, the end as a `Termination` tag,
    /// each move's CPU time as a comment.
    #[must_use]
    pub fn to_pdn(&self, round: usize) -> pdn::Game {
        let mut game = pdn::Game::new(self.start);
        game.set_tag("Event", "CSCI561 host");
        game.set_tag("Round", &round.to_string());
        game.set_tag("White", &self.names[1]);
        game.set_tag("Black", &self.names[0]);
        let loser = self.winner.map(Color::opponent);
        let why = match loser {
            Some(c) => format!("{} {}", colour_keyword(c), self.reason),
            None => self.reason.to_string(),
        };
        game.set_tag("Termination", &why);
        for (&mv, cpu) in self.moves.iter().zip(&self.move_cpu) {
            game.push(mv, Some(format!("{:.3}s", cpu.as_secs_f64())));
        }
        game.result = match self.winner {
            Some(c) => GameResult::win(c),
            None => GameResult::Draw,
        };
        game
    }
}

/// Why the host could not go on (its own failure, not an agent's).
#[derive(Debug, Error)]
pub enum HostError {
    /// A file in an agent's folder could not be written or removed.
    #[error("{path}: {reason}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        reason: std::io::Error,
    },
    /// An agent's command could not be run at all.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// The CSCI561 start: the standard position, black (at the top) to move.
#[must_use]
pub fn start_position() -> Position {
    Position::start().with_side_to_move(Color::Black)
}

/// Removes `path` if it exists.
fn remove(path: &Path) -> Result<(), HostError> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(reason) => Err(HostError::Io {
            path: path.to_path_buf(),
            reason,
        }),
    }
}

/// What one turn of an agent gave.
enum Turn {
    /// A legal move, with the CPU time it took.
    Move(Move, Duration),
    /// The agent lost on this turn (the CPU time it took, and why).
    Lost(Duration, EndReason),
}

/// Asks the agent in `dir` for a move of `pos` with `left` of CPU time, in `mode`.
fn turn(
    command: &str,
    dir: &Path,
    pos: &Position,
    mode: Mode,
    left: Duration,
) -> Result<Turn, HostError> {
    let output = dir.join(OUTPUT_FILE);
    remove(&output)?;
    let input = dir.join(INPUT_FILE);
    let text = format_input(mode, left.as_secs_f64(), pos);
    std::fs::write(&input, text).map_err(|reason| HostError::Io {
        path: input.clone(),
        reason,
    })?;
    let run: RunOutcome = process::run(command, dir, RunLimits::for_cpu(left))?;
    let cpu = run.cpu;
    match run.killed {
        Some(Killed::WallTime) => {
            let wall = RunLimits::for_cpu(left).wall;
            return Ok(Turn::Lost(cpu, EndReason::Hung { wall }));
        }
        Some(Killed::CpuTime) => {
            let used = cpu.max(left + Duration::from_nanos(1));
            return Ok(Turn::Lost(used, EndReason::TimeForfeit { used, left }));
        }
        None if cpu > left => {
            return Ok(Turn::Lost(cpu, EndReason::TimeForfeit { used: cpu, left }));
        }
        None => {}
    }
    let bytes = match std::fs::read(&output) {
        Ok(b) => b,
        Err(_) => return Ok(Turn::Lost(cpu, EndReason::NoOutput { exit: run.exit })),
    };
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX_OUTPUT_BYTES)]);
    Ok(match parse_output(&text, pos) {
        Ok(mv) => Turn::Move(mv, cpu),
        Err(e) => Turn::Lost(cpu, EndReason::BadOutput(e)),
    })
}

/// Plays one game between `agents` (black first, then white), each in its folder of `dirs`,
/// from `options.start`.
pub fn play_game(
    agents: [&AgentCommand; 2],
    dirs: [&Path; 2],
    options: HostOptions,
) -> Result<GameReport, HostError> {
    for dir in dirs {
        remove(&dir.join(PLAYDATA_FILE))?;
        remove(&dir.join(OUTPUT_FILE))?;
    }
    let start = options.start;
    let mut game = Game::new(start, DrawRule::Csci561);
    let mut left = [options.time; 2];
    let mut longest = [Duration::ZERO; 2];
    let mut move_cpu = Vec::new();
    let (winner, reason) = loop {
        if let Some(end) = game.outcome() {
            let reason = match end {
                GameEnd::Win { .. } => EndReason::NoMove,
                GameEnd::Repetition => EndReason::Repetition,
                GameEnd::QuietMoves => EndReason::QuietMoves,
            };
            break (end.winner(), reason);
        }
        let pos = *game.current();
        let side = pos.side_to_move();
        let i = index(side);
        let t = turn(&agents[i].command, dirs[i], &pos, Mode::Game, left[i])?;
        let cpu = match &t {
            Turn::Move(_, cpu) | Turn::Lost(cpu, _) => *cpu,
        };
        left[i] = left[i].saturating_sub(cpu);
        longest[i] = longest[i].max(cpu);
        match t {
            Turn::Move(mv, _) => {
                // parse_output only returns legal moves, so this cannot fail; if it did, the
                // agent would lose for it.
                if let Err(e) = game.play(mv) {
                    break (
                        Some(side.opponent()),
                        EndReason::BadOutput(OutputError::Illegal {
                            text: format!("{mv:?}"),
                            reason: e.to_string(),
                        }),
                    );
                }
                move_cpu.push(cpu);
            }
            Turn::Lost(_, reason) => break (Some(side.opponent()), reason),
        }
    };
    Ok(GameReport {
        names: [agents[0].name.clone(), agents[1].name.clone()],
        start,
        moves: game.moves().to_vec(),
        move_cpu,
        winner,
        reason,
        time_left: left,
        longest_move: longest,
    })
}

/// One SINGLE move of an agent, checked and timed as a game move is.
#[derive(Clone, Debug)]
pub struct SingleReport {
    /// CPU time the agent used.
    pub cpu: Duration,
    /// The legal move it played, or why it failed.
    pub result: Result<Move, EndReason>,
}

/// Asks the agent `command` in `dir` for one SINGLE move of `pos` with `time` of CPU time.
pub fn single_move(
    command: &str,
    dir: &Path,
    pos: &Position,
    time: Duration,
) -> Result<SingleReport, HostError> {
    remove(&dir.join(PLAYDATA_FILE))?;
    Ok(match turn(command, dir, pos, Mode::Single, time)? {
        Turn::Move(mv, cpu) => SingleReport {
            cpu,
            result: Ok(mv),
        },
        Turn::Lost(cpu, reason) => SingleReport {
            cpu,
            result: Err(reason),
        },
    })
}

/// Plays `games` games between `first` and `second` in `dirs` (one folder each): `first` is
/// black in game 1, and with `swap` the colours change every game. `on_game` sees each report
/// as it is finished (for printing).
pub fn play_match(
    first: &AgentCommand,
    second: &AgentCommand,
    dirs: [&Path; 2],
    games: usize,
    swap: bool,
    options: HostOptions,
    mut on_game: impl FnMut(usize, &GameReport),
) -> Result<Vec<GameReport>, HostError> {
    let mut reports = Vec::with_capacity(games);
    for g in 0..games {
        let swapped = swap && g % 2 == 1;
        let (agents, d) = if swapped {
            ([second, first], [dirs[1], dirs[0]])
        } else {
            ([first, second], dirs)
        };
        let report = play_game(agents, d, options)?;
        on_game(g + 1, &report);
        reports.push(report);
    }
    Ok(reports)
}

/// A CSCI561 agent as a [`Player`]: each move runs the command in the agent's own temporary
/// folder (made at its first move), charged as CPU time. The clock's budget decides the input: a
/// whole game's time left is sent as `GAME`, a per-move limit or deadline as `SINGLE`, no limit
/// as `GAME` with 300 s. Going over the limit (CPU time of the child process, whatever the
/// caller's clock counts) is a failure, as the host would judge it.
pub struct ExternalAgent {
    command: String,
    dir: Option<tempfile::TempDir>,
}

/// Prefix of the player specification `csci561:COMMAND`.
pub const SPEC_PREFIX: &str = "csci561:";

/// The CPU seconds an unlimited clock is sent as.
const UNLIMITED_SECONDS: u64 = 300;

impl ExternalAgent {
    /// An agent running `command` (its folder is made at the first move, so making players
    /// cannot fail).
    #[must_use]
    pub fn new(command: &str) -> ExternalAgent {
        ExternalAgent {
            command: command.to_owned(),
            dir: None,
        }
    }

    /// The agent of a player specification `csci561:COMMAND`; `None` when `spec` is another
    /// kind of player (or the command is empty).
    #[must_use]
    pub fn from_spec(spec: &str) -> Option<ExternalAgent> {
        spec.strip_prefix(SPEC_PREFIX)
            .filter(|c| !c.trim().is_empty())
            .map(ExternalAgent::new)
    }

    /// The agent's folder, made on first use.
    pub fn dir(&mut self) -> std::io::Result<&Path> {
        if self.dir.is_none() {
            self.dir = Some(tempfile::Builder::new().prefix("csci561-agent").tempdir()?);
        }
        Ok(self
            .dir
            .as_ref()
            .map_or(Path::new("."), tempfile::TempDir::path))
    }
}

impl Player for ExternalAgent {
    fn name(&self) -> String {
        format!("{SPEC_PREFIX}{}", self.command)
    }

    fn new_game(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = remove(&dir.path().join(PLAYDATA_FILE));
        }
    }

    fn choose(&mut self, game: &Game, clock: &Clock) -> Result<Move, PlayerError> {
        let (mode, limit) = match clock.budget() {
            Budget::GameLeft(d) => (Mode::Game, d),
            Budget::PerMove(d) | Budget::Deadline(d) => (Mode::Single, d),
            Budget::Unlimited => (Mode::Game, Duration::from_secs(UNLIMITED_SECONDS)),
        };
        let pos = *game.current();
        if game.legal_moves().is_empty() {
            return Err(PlayerError::NoLegalMove);
        }
        let command = self.command.clone();
        let dir = self
            .dir()
            .map_err(|e| PlayerError::Failed(format!("cannot make the agent's folder: {e}")))?;
        let t = turn(&command, dir, &pos, mode, limit)
            .map_err(|e| PlayerError::Failed(e.to_string()))?;
        match t {
            Turn::Move(mv, _) => Ok(mv),
            Turn::Lost(_, EndReason::BadOutput(e)) => Err(PlayerError::Illegal(e.to_string())),
            Turn::Lost(_, reason) => Err(PlayerError::Failed(reason.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(winner: Option<Color>, reason: EndReason, left: [u64; 2]) -> GameReport {
        GameReport {
            names: ["a".to_owned(), "b".to_owned()],
            start: start_position(),
            moves: Vec::new(),
            move_cpu: Vec::new(),
            winner,
            reason,
            time_left: left.map(Duration::from_millis),
            longest_move: [Duration::ZERO; 2],
        }
    }

    #[test]
    fn a_draw_names_the_agent_with_more_time_left() {
        let r = report(None, EndReason::Repetition, [1500, 2500]);
        assert_eq!(r.more_time_left(), Some(Color::Red));
        assert!(
            r.summary().contains("b (WHITE) had more time left"),
            "{}",
            r.summary()
        );
        let r = report(None, EndReason::QuietMoves, [900, 900]);
        assert_eq!(r.more_time_left(), None);
        assert!(r.summary().contains("equal time left"));
        let pdn = r.to_pdn(3);
        assert_eq!(pdn.result, GameResult::Draw);
        assert_eq!(pdn.tag("Round"), Some("3"));
    }

    #[test]
    fn a_loss_names_the_loser_and_why() {
        let r = report(
            Some(Color::Black),
            EndReason::NoOutput {
                exit: Exit::Code(1),
            },
            [1000, 1000],
        );
        assert!(
            r.summary()
                .contains("a (BLACK) wins; b (WHITE) loses: no output.txt (exit code 1)"),
            "{}",
            r.summary()
        );
        assert_eq!(
            r.to_pdn(1).tag("Termination"),
            Some("WHITE no output.txt (exit code 1)")
        );
    }
}
