//! The CSCI561 referee ("master game playing agent"): plays two file-protocol agents against
//! each other, each a command run once per move in its own folder, under the assignment's rules
//! and CPU-time clock. Each agent is an [`ExternalAgent`], a [`Player`], and the games are played
//! by the match runner's loop ([`arena::play_game`]) under a game clock charged the CPU time of
//! the agent's process; this module adds the folders, the report and the SINGLE-move check.
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
use crate::play::{Budget, Clock, Player, PlayerError, TimeMeasure};
use crate::protocols::csci561::playdata::PLAYDATA_FILE;
use crate::protocols::csci561::{
    colour_keyword, format_input, parse_output, Mode, INPUT_FILE, OUTPUT_FILE,
};
use crate::rules::draw::DrawRule;
use crate::rules::game::{Forfeit, Game, Outcome};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;

use super::arena::{self, MatchConfig, PlayedGame, PlayerFactory, TimeControl};
use super::openings::Opening;
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
    /// How the game ended.
    pub outcome: Outcome,
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
    /// The report of a game the match loop played between `names` (black first, then white).
    #[must_use]
    pub fn of(played: &PlayedGame, names: [String; 2]) -> GameReport {
        let mut longest = [Duration::ZERO; 2];
        let mut side = played.start.side_to_move();
        for &t in &played.move_times {
            longest[index(side)] = longest[index(side)].max(t);
            side = side.opponent();
        }
        let left = played.time_left;
        GameReport {
            names,
            start: played.start,
            moves: played.moves.clone(),
            move_cpu: played
                .move_times
                .iter()
                .take(played.moves.len())
                .copied()
                .collect(),
            outcome: played.outcome.clone(),
            time_left: [left[Color::Black as usize], left[Color::Red as usize]],
            longest_move: longest,
        }
    }

    /// The winner, or `None` for a draw.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        self.outcome.winner()
    }

    /// Why the game ended, in the assignment's words (a loss says the loser's fault).
    #[must_use]
    pub fn reason(&self) -> String {
        match &self.outcome {
            Outcome::Win { .. } => "no legal move".to_owned(),
            Outcome::Repetition => "draw: the same board for the third time".to_owned(),
            Outcome::QuietMoves => "draw: 50 moves without a capture or a crowning".to_owned(),
            Outcome::Forfeit { why, .. } => why.to_string(),
            other => other.to_string(),
        }
    }

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
        let result = match self.winner() {
            Some(w) => format!(
                "{} wins; {} loses: {}",
                name(w),
                name(w.opponent()),
                self.reason()
            ),
            None => {
                let ahead = match self.more_time_left() {
                    Some(c) => format!("{} had more time left", name(c)),
                    None => "equal time left".to_owned(),
                };
                format!("{}; {ahead}", self.reason())
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
        let loser = self.winner().map(Color::opponent);
        let why = match loser {
            Some(c) => format!("{} {}", colour_keyword(c), self.reason()),
            None => self.reason(),
        };
        game.set_tag("Termination", &why);
        for (&mv, cpu) in self.moves.iter().zip(&self.move_cpu) {
            game.push(mv, Some(format!("{:.3}s", cpu.as_secs_f64())));
        }
        game.result = match self.winner() {
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
    Lost(Duration, Forfeit),
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
            let why = format!(
                "hung: killed after {:.1} s of wall time",
                wall.as_secs_f64()
            );
            return Ok(Turn::Lost(cpu, Forfeit::NoMove(why)));
        }
        Some(Killed::CpuTime) => {
            let used = cpu.max(left + Duration::from_nanos(1));
            let allowed = left;
            return Ok(Turn::Lost(used, Forfeit::Time { used, allowed }));
        }
        None if cpu > left => {
            let (used, allowed) = (cpu, left);
            return Ok(Turn::Lost(cpu, Forfeit::Time { used, allowed }));
        }
        None => {}
    }
    let bytes = match std::fs::read(&output) {
        Ok(b) => b,
        Err(_) => {
            let why = match run.exit {
                Exit::Code(c) => format!("no output.txt (exit code {c})"),
                Exit::Signal(s) => format!("no output.txt (killed by signal {s})"),
            };
            return Ok(Turn::Lost(cpu, Forfeit::NoMove(why)));
        }
    };
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX_OUTPUT_BYTES)]);
    Ok(match parse_output(&text, pos) {
        Ok(mv) => Turn::Move(mv, cpu),
        Err(e) => Turn::Lost(cpu, Forfeit::Illegal(format!("bad output.txt: {e}"))),
    })
}

/// Plays one game between `agents` (black first, then white), each in its folder of `dirs`,
/// from `options.start`, through the match loop ([`arena::play_game`]): the CSCI561 draw rule,
/// no ply limit, and a game clock of `options.time` for each agent charged the CPU time of its
/// process.
pub fn play_game(
    agents: [&AgentCommand; 2],
    dirs: [&Path; 2],
    options: HostOptions,
) -> Result<GameReport, HostError> {
    for dir in dirs {
        remove(&dir.join(PLAYDATA_FILE))?;
        remove(&dir.join(OUTPUT_FILE))?;
    }
    let factory = |i: usize| {
        let command = agents[i].command.clone();
        let dir = dirs[i].to_path_buf();
        PlayerFactory::new(agents[i].name.clone(), move |_| {
            Box::new(ExternalAgent::in_dir(&command, dir.clone())) as Box<dyn Player>
        })
    };
    // The match loop's player 1 is red (WHITE) in its game 0.
    let config = MatchConfig {
        player1: factory(1),
        player2: factory(0),
        games: 1,
        time: TimeControl::PerGame(options.time),
        openings: vec![Opening::start()],
        start: options.start,
        draw_rule: DrawRule::Csci561,
        jobs: 1,
        max_plies: usize::MAX,
        // Unused: each agent reports its own process's CPU time (`Player::move_cost`).
        measure: TimeMeasure::Wall,
    };
    let played = arena::play_game(&config, 0);
    let names = [agents[0].name.clone(), agents[1].name.clone()];
    Ok(GameReport::of(&played, names))
}

/// One SINGLE move of an agent, checked and timed as a game move is.
#[derive(Clone, Debug)]
pub struct SingleReport {
    /// CPU time the agent used.
    pub cpu: Duration,
    /// The legal move it played, or why it failed.
    pub result: Result<Move, Forfeit>,
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
    dir: AgentDir,
    /// CPU time of the last move's process.
    cost: Option<Duration>,
}

/// Where an [`ExternalAgent`] runs.
enum AgentDir {
    /// Its own temporary folder, made at the first move.
    Temporary(Option<tempfile::TempDir>),
    /// A folder the caller owns (the host's).
    Given(PathBuf),
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
            dir: AgentDir::Temporary(None),
            cost: None,
        }
    }

    /// An agent running `command` in `dir`, a folder the caller made.
    #[must_use]
    pub fn in_dir(command: &str, dir: PathBuf) -> ExternalAgent {
        ExternalAgent {
            command: command.to_owned(),
            dir: AgentDir::Given(dir),
            cost: None,
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
        match &mut self.dir {
            AgentDir::Given(dir) => Ok(dir),
            AgentDir::Temporary(temp) => {
                if temp.is_none() {
                    *temp = Some(tempfile::Builder::new().prefix("csci561-agent").tempdir()?);
                }
                Ok(temp
                    .as_ref()
                    .map_or(Path::new("."), tempfile::TempDir::path))
            }
        }
    }
}

impl Player for ExternalAgent {
    fn name(&self) -> String {
        format!("{SPEC_PREFIX}{}", self.command)
    }

    fn new_game(&mut self) {
        let dir = match &self.dir {
            AgentDir::Given(dir) => Some(dir.as_path()),
            AgentDir::Temporary(temp) => temp.as_ref().map(tempfile::TempDir::path),
        };
        if let Some(dir) = dir {
            let _ = remove(&dir.join(PLAYDATA_FILE));
        }
    }

    fn move_cost(&self) -> Option<Duration> {
        self.cost
    }

    fn choose(&mut self, game: &Game, clock: &Clock) -> Result<Move, PlayerError> {
        let (mode, limit) = match clock.budget() {
            Budget::GameLeft(d) => (Mode::Game, d),
            Budget::PerMove(d) | Budget::Deadline(d) => (Mode::Single, d),
            Budget::Unlimited => (Mode::Game, Duration::from_secs(UNLIMITED_SECONDS)),
        };
        self.cost = None;
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
            Turn::Move(mv, cpu) => {
                self.cost = Some(cpu);
                Ok(mv)
            }
            Turn::Lost(cpu, why) => {
                self.cost = Some(cpu);
                Err(match why {
                    Forfeit::Illegal(text) => PlayerError::Illegal(text),
                    other => PlayerError::Failed(other.to_string()),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(outcome: Outcome, left: [u64; 2]) -> GameReport {
        GameReport {
            names: ["a".to_owned(), "b".to_owned()],
            start: start_position(),
            moves: Vec::new(),
            move_cpu: Vec::new(),
            outcome,
            time_left: left.map(Duration::from_millis),
            longest_move: [Duration::ZERO; 2],
        }
    }

    #[test]
    fn a_draw_names_the_agent_with_more_time_left() {
        let r = report(Outcome::Repetition, [1500, 2500]);
        assert_eq!(r.more_time_left(), Some(Color::Red));
        assert!(
            r.summary().contains("b (WHITE) had more time left"),
            "{}",
            r.summary()
        );
        let r = report(Outcome::QuietMoves, [900, 900]);
        assert_eq!(r.more_time_left(), None);
        assert!(r.summary().contains("equal time left"));
        let pdn = r.to_pdn(3);
        assert_eq!(pdn.result, GameResult::Draw);
        assert_eq!(pdn.tag("Round"), Some("3"));
    }

    #[test]
    fn a_loss_names_the_loser_and_why() {
        let r = report(
            Outcome::Forfeit {
                loser: Color::Red,
                why: Forfeit::NoMove("no output.txt (exit code 1)".to_owned()),
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
