//! `checkers match`: two players play a series of games; the result with an Elo estimate.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use checkers::formats::export::plural;
use checkers::formats::files;

use super::output::{self, BadInput};
use checkers::matches::arena::{
    games_to_pdn, run_match_until, MatchConfig, PlayerFactory, Sprt, SprtVerdict, Summary,
    TimeControl, DEFAULT_MAX_PLIES,
};
use checkers::matches::host::{ExternalAgent, SPEC_PREFIX};
use checkers::matches::journal::{Journal, JournalError};
use checkers::matches::openings::{self, EndgameStartOptions, Opening};
use checkers::play::{Player, PlayerSpec, SpecError, TimeMeasure};
use checkers::rules::draw::DrawRule;

/// Arguments of `match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The first player: random[:seed=N], minimax:DEPTH, engine[:time=S,nodes=N,depth=N], or
    /// csci561:CMD, an external CSCI561 agent run as `sh -c CMD` in a folder of its own once
    /// per move (its CPU time as the operating system measures it must stay within the clock).
    #[arg(long, value_name = "SPEC")]
    pub player1: MatchPlayer,

    /// The second player, as --player1.
    #[arg(long, value_name = "SPEC")]
    pub player2: MatchPlayer,

    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, value_name = "N", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,

    /// Seconds per move (default 0.1), counted as the CPU time of the player's thread, so a
    /// busy machine does not make a player lose on time.
    #[arg(long = "time-per-move", value_name = "S", conflicts_with = "time_per_game",
          value_parser = parse_seconds)]
    pub time_per_move: Option<f64>,

    /// Seconds for all of a player's moves in a game (thread CPU time).
    #[arg(long = "time-per-game", value_name = "S", value_parser = parse_seconds)]
    pub time_per_game: Option<f64>,

    /// Openings file (lines of moves from the start, or FEN lines: games from that position),
    /// or `start` for none; default: the 156 ACF three-move ballots. Each is played twice,
    /// colours swapped.
    #[arg(long, value_name = "FILE|start")]
    pub openings: Option<String>,

    /// Draw rules: csci561 (50 plies without capture or crowning; same board thrice),
    /// dd2380 (50 plies without capture; threefold repetition), fifty-moves (100 plies without
    /// capture or crowning; threefold repetition), none (threefold repetition).
    #[arg(long = "draw-rule", value_name = "RULE", default_value = "csci561")]
    pub draw_rule: DrawRule,

    /// Write every game to this file as PDN.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<PathBuf>,

    /// Record each finished game in this file as it ends (created when missing); running the
    /// same command again plays only the games not yet recorded and reports the whole match.
    /// A journal of another match (players, clock, draw rule, openings) is refused; one of a
    /// shorter match is extended.
    #[arg(long, value_name = "FILE")]
    pub journal: Option<PathBuf>,

    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: u32,

    /// A sequential test of player 1's Elo advantage: H0 that it is ELO0 against H1 that it is
    /// ELO1, with error rates ALPHA and BETA (5% each when left out). The log-likelihood ratio
    /// is reported, and the match starts no new game once it leaves the bounds
    /// (ln(BETA/(1-ALPHA)) and ln((1-BETA)/ALPHA): -2.94 and +2.94 at 5%); --games is then the
    /// most it plays. For example `--sprt 0,10`.
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]", value_parser = parse_sprt)]
    pub sprt: Option<Sprt>,
}

/// `ELO0,ELO1[,ALPHA,BETA]`: ELO0 below ELO1, each error rate above 0 and below 0.5.
fn parse_sprt(text: &str) -> Result<Sprt, String> {
    let numbers: Result<Vec<f64>, _> = text.split(',').map(|x| x.trim().parse::<f64>()).collect();
    let bad = || format!("`{text}`: expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, e.g. 0,10");
    let numbers = numbers.map_err(|_| bad())?;
    let test = match numbers[..] {
        [elo0, elo1] => Sprt::new(elo0, elo1),
        [elo0, elo1, alpha, beta] => Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        },
        _ => return Err(bad()),
    };
    if !(test.elo0.is_finite() && test.elo1.is_finite() && test.elo0 < test.elo1) {
        return Err(format!("`{text}`: ELO0 must be below ELO1"));
    }
    if !(test.alpha > 0.0 && test.alpha < 0.5 && test.beta > 0.0 && test.beta < 0.5) {
        return Err(format!(
            "`{text}`: ALPHA and BETA must be above 0 and below 0.5"
        ));
    }
    Ok(test)
}

/// What a test's verdict means, in words.
fn verdict_words(verdict: SprtVerdict) -> &'static str {
    match verdict {
        SprtVerdict::H1 => "H1 accepted",
        SprtVerdict::H0 => "H0 accepted",
        SprtVerdict::Undecided => "not decided",
    }
}

/// A player of a match: built in, or an external CSCI561 agent (`csci561:CMD`).
#[derive(Clone, Debug)]
pub enum MatchPlayer {
    /// A built-in player.
    BuiltIn(PlayerSpec),
    /// An external agent's command.
    Csci561(String),
}

impl std::str::FromStr for MatchPlayer {
    type Err = String;

    fn from_str(text: &str) -> Result<MatchPlayer, String> {
        if let Some(agent) = ExternalAgent::from_spec(text) {
            return Ok(MatchPlayer::Csci561(agent.name()));
        }
        if text.starts_with(SPEC_PREFIX) {
            return Err(format!("`{text}`: the agent's command is empty"));
        }
        text.parse()
            .map(MatchPlayer::BuiltIn)
            .map_err(|e: SpecError| match e {
                // The library's players, and the external agents only this command runs.
                SpecError::UnknownPlayer(name) => format!(
                    "unknown player `{name}`: expected random, minimax:DEPTH, engine[:OPTIONS] \
                     or {SPEC_PREFIX}CMD"
                ),
                e => e.to_string(),
            })
    }
}

impl MatchPlayer {
    /// A factory making a fresh player of this kind for each game.
    fn factory(&self) -> PlayerFactory {
        match self {
            MatchPlayer::BuiltIn(spec) => PlayerFactory::from_spec(spec),
            MatchPlayer::Csci561(spec) => {
                let spec2 = spec.clone();
                PlayerFactory::new(spec.clone(), move |_| {
                    let agent = ExternalAgent::from_spec(&spec2)
                        .unwrap_or_else(|| ExternalAgent::new(&spec2));
                    Box::new(agent)
                })
            }
        }
    }
}

/// A positive, finite number of seconds.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s < 1e6 => Ok(s),
        _ => Err(format!("`{text}` is not a positive number of seconds")),
    }
}

/// Seed of the fixed shuffle of the openings, so a short match samples all kinds of openings.
const OPENING_SHUFFLE_SEED: u64 = 2380;

/// Runs the match.
pub fn run(args: &MatchArgs) -> Result<ExitCode> {
    let openings = match args.openings.as_deref() {
        Some("start") => vec![Opening::start()],
        Some(path) => {
            let bytes = files::read_bytes(path.as_ref())?;
            let text = String::from_utf8_lossy(&bytes);
            openings::parse_match_openings(&text).map_err(|e| BadInput(format!("{path}: {e}")))?
        }
        None => openings::shuffled(
            openings::parse_openings(openings::THREE_MOVE_BALLOTS)
                .context("the shipped openings")?,
            OPENING_SHUFFLE_SEED,
        ),
    };
    let time = match (args.time_per_move, args.time_per_game) {
        (_, Some(s)) => TimeControl::PerGame(Duration::from_secs_f64(s)),
        (Some(s), None) => TimeControl::PerMove(Duration::from_secs_f64(s)),
        (None, None) => TimeControl::PerMove(Duration::from_millis(100)),
    };
    let config = MatchConfig {
        player1: args.player1.factory(),
        player2: args.player2.factory(),
        games: args.games as usize,
        time,
        openings,
        start: checkers::Position::start(),
        draw_rule: args.draw_rule,
        jobs: args.jobs as usize,
        max_plies: DEFAULT_MAX_PLIES,
        measure: TimeMeasure::ThreadCpu,
    };
    let (journal, done) = match &args.journal {
        Some(path) => {
            let (journal, done) = Journal::open(path, &config).map_err(|e| match e {
                JournalError::Io { .. } => anyhow::Error::from(e),
                other => BadInput(other.to_string()).into(),
            })?;
            if !done.is_empty() {
                eprintln!(
                    "{}: {} of the {} games already played",
                    path.display(),
                    done.len(),
                    config.games
                );
            }
            (Some(Mutex::new(journal)), done)
        }
        None => (None, Vec::new()),
    };
    let bar = ProgressBar::new(u64::from(args.games));
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed_precise} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(done.len() as u64);
    let resumed = done.len() as u64;
    let started = std::time::Instant::now();
    let tally = Mutex::new(Summary::of(&done));
    // The first failure to write the journal; the match stops recording after it.
    let journal_error: Mutex<Option<JournalError>> = Mutex::new(None);
    let decided = || {
        args.sprt.is_some_and(|t| {
            let s = *tally.lock().unwrap_or_else(PoisonError::into_inner);
            t.verdict(&s) != SprtVerdict::Undecided
        })
    };
    let games = run_match_until(
        &config,
        done,
        &|g| {
            if let Some(journal) = &journal {
                let mut slot = journal_error.lock().unwrap_or_else(PoisonError::into_inner);
                if slot.is_none() {
                    let written = journal
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .append(g);
                    if let Err(e) = written {
                        bar.println(format!(
                            "warning: {e}; the games from now on are not recorded"
                        ));
                        *slot = Some(e);
                    }
                }
            }
            if let Ok(mut t) = tally.lock() {
                *t = t.with_game(g);
                bar.set_message(format!("+{} ={} -{}", t.wins, t.draws, t.losses));
                bar.inc(1);
                // Without a terminal (a match in the background, its output to a log) the bar is
                // not drawn: a line every ten games instead, with the rate and what is left.
                let now = u64::from(t.games());
                if bar.is_hidden() && (now % 10 == 0 || now == u64::from(args.games)) {
                    let played = now.saturating_sub(resumed).max(1);
                    let per_game = started.elapsed().as_secs_f64() / played as f64;
                    let left = u64::from(args.games).saturating_sub(now) as f64 * per_game;
                    let llr = args
                        .sprt
                        .map(|test| format!("; LLR {:.2}", test.llr(&t)))
                        .unwrap_or_default();
                    eprintln!(
                        "{now}/{} games, +{} ={} -{}; {:.1} s a game, {:.0} s left{llr}",
                        args.games, t.wins, t.draws, t.losses, per_game, left
                    );
                }
            }
        },
        &decided,
    )?;
    bar.finish_and_clear();
    let s = Summary::of(&games);
    let (elo, low, high) = s.elo();
    output::println(&format!(
        "{} vs {}: {} games, {}, draw rule {}",
        config.player1.name(),
        config.player2.name(),
        s.games(),
        describe(time),
        args.draw_rule
    ))?;
    output::println(&format!(
        "player1: {}, {}, {}; score {:.1}%",
        plural(u64::from(s.wins), "win", "wins"),
        plural(u64::from(s.draws), "draw", "draws"),
        plural(u64::from(s.losses), "loss", "losses"),
        100.0 * s.score()
    ))?;
    output::println(&format!(
        "Elo difference: {} (95% interval {} to {})",
        signed(elo),
        signed(low),
        signed(high)
    ))?;
    if let Some(t) = args.sprt {
        let (low, high) = t.bounds();
        output::println(&format!(
            "SPRT (elo0 {}, elo1 {}, alpha {}, beta {}; bounds {low:.2} and {high:+.2}): LLR {:.2} \
             after {}: {}",
            t.elo0,
            t.elo1,
            t.alpha,
            t.beta,
            t.llr(&s),
            plural(u64::from(s.games()), "game", "games"),
            verdict_words(t.verdict(&s))
        ))?;
    }
    output::println(&format!(
        "forfeits on time: player1 {}, player2 {}; illegal moves: player1 {}, player2 {}; no move: player1 {}, player2 {}; adjudicated at {} plies: {}",
        s.time_forfeits[0],
        s.time_forfeits[1],
        s.illegal_moves[0],
        s.illegal_moves[1],
        s.no_moves[0],
        s.no_moves[1],
        config.max_plies,
        s.ply_limit
    ))?;
    for g in &games {
        if !g.outcome.by_the_rules() {
            output::println(&format!("game {}: {}", g.index + 1, g.outcome))?;
        }
    }
    if let Some(path) = &args.pdn {
        let event = format!("{} vs {}", config.player1.name(), config.player2.name());
        files::write_atomic(path, &games_to_pdn(&games, &event)?)?;
    }
    if let Some(e) = journal_error
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
    {
        return Err(anyhow::Error::from(e).context("the journal is missing games of this match"));
    }
    Ok(ExitCode::SUCCESS)
}

fn describe(time: TimeControl) -> String {
    match time {
        TimeControl::Unlimited => "no clock".to_owned(),
        TimeControl::PerMove(d) => format!("{} s a move (thread CPU time)", d.as_secs_f64()),
        TimeControl::PerGame(d) => format!("{} s a game (thread CPU time)", d.as_secs_f64()),
    }
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_owned()
    } else {
        format!("{x:+.0}")
    }
}

/// Arguments of `endgame-starts`.
#[derive(Debug, Args)]
pub struct EndgameStartsArgs {
    /// Where to write the positions, one FEN a line (`-`: standard output); `match --openings`
    /// reads the file.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,

    /// Fewest pieces of a position.
    #[arg(long = "min-pieces", value_name = "N", default_value_t = 6,
          value_parser = clap::value_parser!(u32).range(2..=24))]
    pub min_pieces: u32,

    /// Most pieces of a position.
    #[arg(long = "max-pieces", value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(2..=24))]
    pub max_pieces: u32,

    /// Nodes a move of the engine's games from the openings.
    #[arg(long, value_name = "N", default_value_t = 4_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,

    /// Nodes of the search that scores each position.
    #[arg(long = "score-nodes", value_name = "N", default_value_t = 50_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub score_nodes: u64,

    /// Keep positions scored within this many hundredths of a man of even.
    #[arg(long, value_name = "CENTS", default_value_t = 60,
          value_parser = clap::value_parser!(i32).range(0..=10_000))]
    pub bound: i32,

    /// Seed of the random moves after each opening and of the order of the positions.
    #[arg(long, value_name = "N", default_value_t = 22)]
    pub seed: u64,

    /// Random moves after each opening.
    #[arg(long = "random-plies", value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,

    /// Games from each opening, each after its own random moves.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=100))]
    pub variations: u32,

    /// Openings file (lines of moves, or FEN lines); default: the 156 ACF three-move ballots.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// Draw rules of the games (see `match --help`).
    #[arg(long = "draw-rule", value_name = "RULE", default_value = "fifty-moves")]
    pub draw_rule: DrawRule,

    /// Games played at once (the result does not depend on it).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: u32,
}

/// Runs `endgame-starts`.
pub fn run_endgame_starts(args: &EndgameStartsArgs) -> Result<ExitCode> {
    if args.min_pieces > args.max_pieces {
        return Err(BadInput(format!(
            "--min-pieces {} is more than --max-pieces {}",
            args.min_pieces, args.max_pieces
        ))
        .into());
    }
    let list = match &args.openings {
        Some(path) => {
            let text = String::from_utf8_lossy(&files::read_bytes(path)?).into_owned();
            openings::parse_match_openings(&text)
                .map_err(|e| BadInput(format!("{}: {e}", path.display())))?
        }
        None => openings::parse_openings(openings::THREE_MOVE_BALLOTS)
            .context("the shipped openings")?,
    };
    let options = EndgameStartOptions {
        pieces: args.min_pieces..=args.max_pieces,
        play_nodes: args.nodes,
        score_nodes: args.score_nodes,
        bound: args.bound,
        seed: args.seed,
        random_plies: args.random_plies as usize,
        variations: args.variations as usize,
        draw_rule: args.draw_rule,
    };
    let jobs = args.jobs as usize;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .with_context(|| format!("starting {jobs} threads"))?;
    let found = pool.install(|| openings::endgame_starts(&list, &options));
    // A fixed shuffle, so that a match shorter than the list still meets every piece count and
    // many openings.
    let mut order: Vec<usize> = (0..found.len()).collect();
    let mut rng = checkers::play::player::SplitMix64::new(args.seed);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let starts: Vec<_> = order.iter().map(|&i| found[i].clone()).collect();
    let mut counts = std::collections::BTreeMap::new();
    for s in &starts {
        *counts.entry(s.pieces).or_insert(0u32) += 1;
    }
    let per_count: Vec<String> = counts.iter().map(|(p, n)| format!("{n} of {p}")).collect();
    let source = match &args.openings {
        Some(path) => format!("the openings of {}", path.display()),
        None => "the 156 ACF three-move ballots (data/openings-3move.txt)".to_owned(),
    };
    let header = format!(
        "Endgame starting positions for `checkers match --openings FILE`: {} positions ({}).\n\
         From {source}: {} games from each, after the opening and {} seeded random moves;\n\
         the engine played itself at {} nodes a move ({} rules); the first position of each count\n\
         of {} to {} pieces whose side to move has no capture, scored by a {}-node search within\n\
         {} hundredths of a man of even. Regenerate (the same options give the same file):\n\
         checkers endgame-starts --out FILE --min-pieces {} --max-pieces {} --nodes {} \\\n\
         \x20 --score-nodes {} --bound {} --seed {} --random-plies {} --variations {} --draw-rule {}",
        starts.len(),
        per_count.join(", "),
        args.variations,
        args.random_plies,
        args.nodes,
        args.draw_rule,
        args.min_pieces,
        args.max_pieces,
        args.score_nodes,
        args.bound,
        args.min_pieces,
        args.max_pieces,
        args.nodes,
        args.score_nodes,
        args.bound,
        args.seed,
        args.random_plies,
        args.variations,
        args.draw_rule,
    );
    let text = openings::endgame_starts_text(&starts, &header)?;
    files::write_output(&args.out, text.as_bytes())?;
    if !files::is_stdio(&args.out) {
        eprintln!(
            "{}: {} positions ({})",
            args.out.display(),
            starts.len(),
            per_count.join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}
