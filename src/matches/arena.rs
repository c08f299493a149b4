//! The match runner: two players play a series of games from a list of openings, each opening
//! twice with the colours swapped, games in parallel, every move checked against the move
//! generator and timed against the clock. At the end: wins, draws and losses, the score, an Elo
//! difference with its 95% interval, and the forfeits.
//!
//! Players come from [`PlayerFactory`]s, so built-in players ([`PlayerSpec`]) and external ones
//! (a child process, a network peer) play in the same loop. The CSCI561 host
//! ([`host`](super::host)) plays its games through [`play_game`] too, with a game clock charged
//! the CPU time its agents' processes report ([`Player::move_cost`]).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use thiserror::Error;

use crate::formats::fen::NotStandard;
use crate::formats::notation;
use crate::formats::pdn::{self, GameResult};
use crate::play::{Clock, Engine, Player, PlayerError, PlayerSpec, TimeMeasure};
use crate::rules::draw::DrawRule;
use crate::rules::game::{Forfeit, Game, Outcome};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::search::endgame::store::Store;
use crate::search::endgame::EndgameDb;

use super::openings::Opening;

/// Makes a fresh player for each game.
#[derive(Clone)]
pub struct PlayerFactory {
    name: String,
    make: Arc<dyn Fn(u64) -> Box<dyn Player> + Send + Sync>,
}

impl PlayerFactory {
    /// A factory named `name` calling `make` with the game's index.
    pub fn new(
        name: impl Into<String>,
        make: impl Fn(u64) -> Box<dyn Player> + Send + Sync + 'static,
    ) -> PlayerFactory {
        PlayerFactory {
            name: name.into(),
            make: Arc::new(make),
        }
    }

    /// A factory of built-in players. Engines reading endgame databases (`engine:egdb=DIR`)
    /// share one look-up and its cache of decoded blocks, so each game (and each of the games
    /// played at once) does not read the same blocks again.
    #[must_use]
    pub fn from_spec(spec: &PlayerSpec) -> PlayerFactory {
        if let PlayerSpec::Engine(options) = spec {
            if let Some(dir) = &options.egdb {
                let db = Arc::new(EndgameDb::with_store(Store::new(dir)));
                let options = options.clone();
                return PlayerFactory::new(spec.to_string(), move |_| {
                    Box::new(Engine::with_endgame(options.clone(), Arc::clone(&db)))
                });
            }
        }
        let spec2 = spec.clone();
        PlayerFactory::new(spec.to_string(), move |i| spec2.build(i))
    }

    /// The players' name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl std::fmt::Debug for PlayerFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PlayerFactory({})", self.name)
    }
}

/// The time control of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No clock.
    Unlimited,
    /// Each move within this time (wall clock).
    PerMove(Duration),
    /// All of a player's moves in a game within this time (wall clock).
    PerGame(Duration),
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The first player (red in even-numbered games).
    pub player1: PlayerFactory,
    /// The second player.
    pub player2: PlayerFactory,
    /// Number of games.
    pub games: usize,
    /// The clock.
    pub time: TimeControl,
    /// Openings, each played twice with colours swapped, in order (cycled if games are more).
    pub openings: Vec<Opening>,
    /// Where every game starts (its side to move moves first), before the opening's moves,
    /// unless the opening has a start of its own.
    pub start: Position,
    /// The draw rules the games are played under.
    pub draw_rule: DrawRule,
    /// Games played at once.
    pub jobs: usize,
    /// A game still going after this many plies is adjudicated a draw.
    pub max_plies: usize,
    /// What the clock counts. In-process players are best timed by their thread's CPU time
    /// ([`TimeMeasure::ThreadCpu`]), so a busy machine does not make them forfeit.
    pub measure: TimeMeasure,
}

/// Plies after which an unfinished game is adjudicated a draw, by default.
pub const DEFAULT_MAX_PLIES: usize = 400;

/// One finished game of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Index in the match, from 0.
    pub index: usize,
    /// The opening's name.
    pub opening: String,
    /// Whether player 1 had red.
    pub player1_red: bool,
    /// Red's name.
    pub red: String,
    /// Black's name.
    pub black: String,
    /// The start position.
    pub start: Position,
    /// Every move, the opening's included.
    pub moves: Vec<Move>,
    /// What the clock charged each move the players chose (the opening's moves are not
    /// timed), in order: the last ones of `moves`, plus a forfeited move's time at the end.
    pub move_times: Vec<Duration>,
    /// Clock time left at the end under a game clock, red's then black's (zero otherwise).
    pub time_left: [Duration; 2],
    /// How it ended.
    pub outcome: Outcome,
}

impl PlayedGame {
    /// Player 1's score: 1 for a win, 0.5 for a draw, 0 for a loss.
    #[must_use]
    pub fn player1_score(&self) -> f64 {
        let p1 = if self.player1_red {
            Color::Red
        } else {
            Color::Black
        };
        match self.outcome.winner() {
            None => 0.5,
            Some(c) if c == p1 => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// Why a match could not be run.
#[derive(Debug, Error)]
pub enum ArenaError {
    /// No opening to play.
    #[error("the match needs at least one opening")]
    NoOpenings,
    /// The worker threads could not be started.
    #[error("cannot start {jobs} worker threads: {reason}")]
    Threads {
        /// Threads asked for.
        jobs: usize,
        /// Why not.
        reason: String,
    },
}

/// Plays one game of the match: game `index` uses opening `index / 2`, and player 1 has red in
/// even games.
#[must_use]
pub fn play_game(config: &MatchConfig, index: usize) -> PlayedGame {
    let opening = &config.openings[(index / 2) % config.openings.len().max(1)];
    let player1_red = index % 2 == 0;
    let seed = index as u64;
    let mut p1 = (config.player1.make)(seed);
    let mut p2 = (config.player2.make)(seed);
    p1.new_game();
    p2.new_game();
    let (mut red, mut black) = if player1_red { (p1, p2) } else { (p2, p1) };
    let (red_name, black_name) = if player1_red {
        (config.player1.name(), config.player2.name())
    } else {
        (config.player2.name(), config.player1.name())
    };
    let start = opening.start.unwrap_or(config.start);
    let mut game = Game::new(start, config.draw_rule);
    for &mv in &opening.moves {
        if game.play(mv).is_err() {
            break;
        }
    }
    let mut left = [Duration::ZERO; 2];
    if let TimeControl::PerGame(d) = config.time {
        left = [d, d];
    }
    let mut move_times = Vec::new();
    let outcome = loop {
        if let Some(end) = game.outcome() {
            break end;
        }
        if game.ply() >= config.max_plies {
            break Outcome::PlyLimit;
        }
        let side = game.current().side_to_move();
        let player: &mut Box<dyn Player> = match side {
            Color::Red => &mut red,
            Color::Black => &mut black,
        };
        let clock = match config.time {
            TimeControl::Unlimited => Clock::unlimited(),
            TimeControl::PerMove(d) => Clock::per_move(d),
            TimeControl::PerGame(_) => Clock::game_left(left[side as usize]),
        }
        .measured_in(config.measure);
        let answer = player.choose(&game, &clock);
        let used = player.move_cost().unwrap_or_else(|| clock.elapsed());
        move_times.push(used);
        if let Some(allowed) = clock.limit() {
            left[side as usize] = match config.time {
                TimeControl::PerGame(_) => allowed.saturating_sub(used),
                _ => Duration::ZERO,
            };
            if used > allowed {
                break Outcome::Forfeit {
                    loser: side,
                    why: Forfeit::Time { used, allowed },
                };
            }
        }
        let mv = match answer {
            Ok(mv) => mv,
            Err(PlayerError::Illegal(text)) => {
                break Outcome::Forfeit {
                    loser: side,
                    why: Forfeit::Illegal(text),
                };
            }
            Err(e) => {
                break Outcome::Forfeit {
                    loser: side,
                    why: Forfeit::NoMove(e.to_string()),
                };
            }
        };
        let pos = *game.current();
        if game.play(mv).is_err() {
            break Outcome::Forfeit {
                loser: side,
                why: Forfeit::Illegal(format!(
                    "illegal move {} ({}{})",
                    notation::move_text(&pos, mv),
                    mv.from(),
                    if mv.is_capture() { ", a capture" } else { "" }
                )),
            };
        }
    };
    PlayedGame {
        index,
        opening: opening.name.clone(),
        player1_red,
        red: red_name.to_owned(),
        black: black_name.to_owned(),
        start,
        moves: game.moves().to_vec(),
        move_times,
        time_left: [left[Color::Red as usize], left[Color::Black as usize]],
        outcome,
    }
}

/// Plays the whole match on `config.jobs` threads, calling `on_done` as each game finishes
/// (in any order); returns the games in index order, so the result does not depend on the jobs.
pub fn run_match(
    config: &MatchConfig,
    on_done: &(dyn Fn(&PlayedGame) + Sync),
) -> Result<Vec<PlayedGame>, ArenaError> {
    run_match_from(config, Vec::new(), on_done)
}

/// Plays the games of the match not in `done` (games of this match played before, for example
/// read back from a [`journal`](super::journal)) as [`run_match`] does, calling `on_done` for
/// the new ones only; returns all the games in index order. A game's index alone fixes its
/// opening, its colours and its players' seeds, so the games do not depend on which were played
/// before. Games of `done` beyond `config.games` are dropped.
pub fn run_match_from(
    config: &MatchConfig,
    done: Vec<PlayedGame>,
    on_done: &(dyn Fn(&PlayedGame) + Sync),
) -> Result<Vec<PlayedGame>, ArenaError> {
    run_match_until(config, done, on_done, &|| false)
}

/// [`run_match_from`] that starts no further game once `stop` says so (a sequential test has
/// decided, say: [`Sprt`]); the games already under way finish and are returned with the others,
/// so the result holds every game played, in index order, and no game cut short.
pub fn run_match_until(
    config: &MatchConfig,
    done: Vec<PlayedGame>,
    on_done: &(dyn Fn(&PlayedGame) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Vec<PlayedGame>, ArenaError> {
    if config.openings.is_empty() {
        return Err(ArenaError::NoOpenings);
    }
    let mut slots: Vec<Option<PlayedGame>> = vec![None; config.games];
    for g in done {
        if let Some(slot) = slots.get_mut(g.index) {
            *slot = Some(g);
        }
    }
    let todo: Vec<usize> = (0..config.games).filter(|&i| slots[i].is_none()).collect();
    let jobs = config.jobs.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| ArenaError::Threads {
            jobs,
            reason: e.to_string(),
        })?;
    // Each job takes the next game in index order, so a match stopped early (a sequential test
    // decided, the session ended) holds the first games, and a longer journal is one this
    // match's `--games` can take on.
    let next = AtomicUsize::new(0);
    let played = Mutex::new(Vec::with_capacity(todo.len()));
    pool.scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|_| {
                while !stop() {
                    let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let g = play_game(config, i);
                    on_done(&g);
                    played
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(g);
                }
            });
        }
    });
    let played = played.into_inner().unwrap_or_else(PoisonError::into_inner);
    for g in played {
        let i = g.index;
        slots[i] = Some(g);
    }
    Ok(slots.into_iter().flatten().collect())
}

/// Counts of a match from player 1's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games player 1 won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games player 1 lost.
    pub losses: u32,
    /// Time forfeits of player 1 and player 2.
    pub time_forfeits: [u32; 2],
    /// Illegal moves of player 1 and player 2.
    pub illegal_moves: [u32; 2],
    /// Games a player gave no move in (player 1, player 2).
    pub no_moves: [u32; 2],
    /// Games adjudicated at the ply limit.
    pub ply_limit: u32,
}

impl Summary {
    /// The counts of `games`.
    #[must_use]
    pub fn of(games: &[PlayedGame]) -> Summary {
        games.iter().fold(Summary::default(), |s, g| s.with_game(g))
    }

    /// These counts with one more game.
    #[must_use]
    pub fn with_game(self, g: &PlayedGame) -> Summary {
        let mut s = self;
        {
            let score = g.player1_score();
            if score > 0.75 {
                s.wins += 1;
            } else if score < 0.25 {
                s.losses += 1;
            } else {
                s.draws += 1;
            }
            let who = |loser: Color| usize::from((loser == Color::Red) != g.player1_red);
            match &g.outcome {
                Outcome::Forfeit { loser, why } => match why {
                    Forfeit::Time { .. } | Forfeit::Timeout => s.time_forfeits[who(*loser)] += 1,
                    Forfeit::Illegal(_) => s.illegal_moves[who(*loser)] += 1,
                    Forfeit::NoMove(_) => s.no_moves[who(*loser)] += 1,
                },
                Outcome::PlyLimit => s.ply_limit += 1,
                _ => {}
            }
        }
        s
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Player 1's score fraction (a draw counts half).
    #[must_use]
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    /// Player 1's Elo difference over player 2 with a 95% interval `(elo, low, high)`, from the
    /// score and its standard error over the games (infinite when one side scored everything).
    #[must_use]
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games());
        let p = self.score();
        if n == 0.0 {
            return (0.0, f64::NEG_INFINITY, f64::INFINITY);
        }
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        let var = w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2);
        let se = (var / n).sqrt();
        if se > 0.0 {
            return (elo_of(p), elo_of(p - Z95 * se), elo_of(p + Z95 * se));
        }
        // Every game had the same result: the normal approximation has no width, so use the
        // Wilson interval of the score instead.
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        let low = if p <= 0.0 { 0.0 } else { centre - half };
        let high = if p >= 1.0 { 1.0 } else { centre + half };
        (elo_of(p), elo_of(low), elo_of(high))
    }
}

/// A sequential probability ratio test of player 1's Elo advantage over player 2: the hypothesis
/// H0 that it is `elo0` against H1 that it is `elo1`, with error rates `alpha` (accepting H1
/// when H0 holds) and `beta` (accepting H0 when H1 holds). The log-likelihood ratio is that of
/// the normal approximation of the mean game score, from the win, draw and loss counts; a
/// match stops when it leaves the bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Player 1's Elo advantage under H0.
    pub elo0: f64,
    /// Player 1's Elo advantage under H1 (more than `elo0`).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What a [`Sprt`] says of the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The ratio is above the upper bound: player 1 is `elo1` or better, H1 accepted.
    H1,
    /// The ratio is below the lower bound: H0 accepted, player 1 gains no more than `elo0`.
    H0,
    /// Between the bounds: play on.
    Undecided,
}

/// Pseudo-games added to each of the win, draw and loss counts before the test's mean and
/// variance are taken, so that a short run of one result (no variance yet) does not decide at
/// once: eight wins in a row decide (0, 50), one does not. Over hundreds of games it moves the
/// ratio by a fraction of a percent.
const SPRT_PSEUDO_GAMES: f64 = 0.5;

impl Sprt {
    /// A test of `elo0` against `elo1` with the usual error rates, 5% each.
    #[must_use]
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The lower and upper bounds of the log-likelihood ratio: `ln(beta / (1 - alpha))` and
    /// `ln((1 - beta) / alpha)` (-2.94 and +2.94 at 5% each).
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after the games of `s`.
    #[must_use]
    pub fn llr(&self, s: &Summary) -> f64 {
        if s.games() == 0 {
            return 0.0;
        }
        let [w, d, l] = [s.wins, s.draws, s.losses].map(|c| f64::from(c) + SPRT_PSEUDO_GAMES);
        let n = w + d + l;
        let (w, d, l) = (w / n, d / n, l / n);
        let mean = w + 0.5 * d;
        let var = w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2);
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        f64::from(s.games()) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The verdict after the games of `s`.
    #[must_use]
    pub fn verdict(&self, s: &Summary) -> SprtVerdict {
        let llr = self.llr(s);
        let (low, high) = self.bounds();
        if llr >= high {
            SprtVerdict::H1
        } else if llr <= low {
            SprtVerdict::H0
        } else {
            SprtVerdict::Undecided
        }
    }
}

/// The expected score fraction of a player `elo` points stronger.
#[must_use]
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.96;

/// The Elo difference that predicts score fraction `p`.
#[must_use]
pub fn elo_of(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The PDN result of a game.
#[must_use]
pub fn pdn_result(game: &PlayedGame) -> GameResult {
    match game.outcome.winner() {
        Some(color) => GameResult::win(color),
        None => GameResult::Draw,
    }
}

/// A played game as a PDN game: event, round, players (red as White), opening and how the game
/// ended as tags, then the moves and the result.
#[must_use]
pub fn to_pdn_game(game: &PlayedGame, event: &str) -> pdn::Game {
    let mut out = pdn::Game::new(game.start);
    out.set_tag("Event", event);
    out.set_tag("Round", &(game.index + 1).to_string());
    out.set_tag("White", &game.red);
    out.set_tag("Black", &game.black);
    out.set_tag("Opening", &game.opening);
    out.set_tag("Termination", &game.outcome.to_string());
    for &mv in &game.moves {
        out.push(mv, None);
    }
    out.result = pdn_result(game);
    out
}

/// The games as PDN text (see [`to_pdn_game`]).
pub fn games_to_pdn(games: &[PlayedGame], event: &str) -> Result<String, NotStandard> {
    let list: Vec<pdn::Game> = games.iter().map(|g| to_pdn_game(g, event)).collect();
    pdn::write_games(&list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_is_zero_and_grows_with_score() {
        assert!(elo_of(0.5).abs() < 1e-9);
        assert!((elo_of(0.75) - 190.85).abs() < 0.1);
        assert_eq!(elo_of(1.0), f64::INFINITY);
        let s = Summary {
            wins: 60,
            draws: 20,
            losses: 20,
            ..Summary::default()
        };
        let (e, lo, hi) = s.elo();
        assert!((s.score() - 0.7).abs() < 1e-12);
        assert!(lo < e && e < hi, "{lo} {e} {hi}");
        let all = Summary {
            wins: 10,
            ..Summary::default()
        };
        let (e, lo, hi) = all.elo();
        assert_eq!(e, f64::INFINITY);
        assert!(lo.is_finite() && lo > 100.0, "{lo}");
        assert_eq!(hi, f64::INFINITY);
    }

    #[test]
    fn the_sprt_gives_the_ratios_of_the_recorded_matches() {
        // docs/training.md: +292 =483 -225 over 1,000 games, LLR 2.95 for (0, 10), accepted.
        let t = Sprt::new(0.0, 10.0);
        let (low, high) = t.bounds();
        assert!((high - 2.944).abs() < 1e-3 && (low + 2.944).abs() < 1e-3);
        let s = Summary {
            wins: 292,
            draws: 483,
            losses: 225,
            ..Summary::default()
        };
        assert!((t.llr(&s) - 2.95).abs() < 0.01, "{}", t.llr(&s));
        assert_eq!(t.verdict(&s), SprtVerdict::H1);
        // The other way round, H0 accepted; an even score stays undecided.
        let mirrored = Summary {
            wins: 225,
            losses: 292,
            ..s
        };
        assert_eq!(t.verdict(&mirrored), SprtVerdict::H0);
        let even = Summary {
            wins: 250,
            draws: 500,
            losses: 250,
            ..Summary::default()
        };
        assert!(t.llr(&even) < 0.0 && t.verdict(&even) == SprtVerdict::Undecided);
        // One result alone has no variance, but a run of wins still decides, and one win not.
        let sweep = |wins| Summary {
            wins,
            ..Summary::default()
        };
        assert_eq!(t.verdict(&sweep(20)), SprtVerdict::H1);
        assert_eq!(
            Sprt::new(0.0, 50.0).verdict(&sweep(1)),
            SprtVerdict::Undecided
        );
        assert_eq!(t.llr(&Summary::default()), 0.0);
        assert!((score_of(0.0) - 0.5).abs() < 1e-12);
        assert!((elo_of(score_of(123.0)) - 123.0).abs() < 1e-9);
    }
}
