//! Matches and the `think` and `match` commands: every move of a match legal, node-budget
//! matches repeatable, bad input rejected with exit code 2.

use std::time::Duration;

use predicates::prelude::*;

use checkers::formats::notation;
use checkers::matches::arena::{
    run_match, MatchConfig, PlayedGame, PlayerFactory, Summary, TimeControl,
};
use checkers::matches::openings::{parse_openings, THREE_MOVE_BALLOTS};
use checkers::play::{Game, PlayerSpec, TimeMeasure};
use checkers::rules::draw::DrawRule;
use checkers::rules::game::Outcome;
use checkers::rules::movegen::legal_moves;
use checkers::Position;

use crate::common::checkers;

fn config(p1: &str, p2: &str, games: usize, jobs: usize, time: TimeControl) -> MatchConfig {
    let spec = |s: &str| PlayerFactory::from_spec(&s.parse::<PlayerSpec>().expect("spec"));
    MatchConfig {
        player1: spec(p1),
        player2: spec(p2),
        games,
        time,
        openings: parse_openings(THREE_MOVE_BALLOTS).expect("shipped openings"),
        start: checkers::Position::start(),
        draw_rule: DrawRule::Csci561,
        jobs,
        max_plies: 300,
        measure: TimeMeasure::ThreadCpu,
    }
}

/// Replays a played game through the checked game type: every move legal, and the recorded end
/// agrees with the rules.
fn assert_legal(g: &PlayedGame) {
    let mut game = Game::new(g.start, DrawRule::Csci561);
    for (i, &mv) in g.moves.iter().enumerate() {
        assert!(
            legal_moves(game.current()).contains(&mv),
            "game {} ply {i}: illegal move",
            g.index
        );
        game.play(mv).expect("legal move plays");
    }
    match &g.outcome {
        Outcome::PlyLimit => assert!(game.outcome().is_none() && g.moves.len() >= 300),
        end if end.by_the_rules() => {
            assert_eq!(game.outcome().as_ref(), Some(end), "game {}", g.index);
        }
        other => panic!("game {}: unexpected forfeit {other}", g.index),
    }
}

#[test]
fn every_move_played_in_a_match_is_legal() {
    let cfg = config(
        "engine:nodes=400",
        "random:seed=5",
        6,
        2,
        TimeControl::PerMove(Duration::from_secs(5)),
    );
    let games = run_match(&cfg, &|_| {}).expect("match runs");
    assert_eq!(games.len(), 6);
    for g in &games {
        assert_legal(g);
        // Openings: game 2k and 2k+1 share an opening with colours swapped.
        assert_eq!(g.player1_red, g.index % 2 == 0);
    }
    assert_eq!(games[0].opening, games[1].opening);
    assert_eq!(games[0].moves[..3], games[1].moves[..3]);
    let s = Summary::of(&games);
    assert_eq!(s.games(), 6);
    assert_eq!(s.time_forfeits, [0, 0]);
}

#[test]
fn a_self_play_match_with_node_budgets_repeats_exactly() {
    let run = |jobs| {
        let cfg = config(
            "engine:nodes=1500",
            "engine:nodes=1000",
            4,
            jobs,
            TimeControl::Unlimited,
        );
        run_match(&cfg, &|_| {}).expect("match runs")
    };
    // The games, without the times their moves took (which vary from run to run).
    let games = |played: Vec<PlayedGame>| -> Vec<(usize, Vec<checkers::Move>, Outcome)> {
        played
            .into_iter()
            .map(|g| (g.index, g.moves, g.outcome))
            .collect()
    };
    let first = run(1);
    assert_eq!(games(first.clone()), games(run(2)));
    for g in &first {
        assert_legal(g);
    }
}

#[test]
fn minimax_plays_legal_games_against_the_engine() {
    let cfg = config("minimax:2", "engine:depth=3", 2, 1, TimeControl::Unlimited);
    for g in run_match(&cfg, &|_| {}).expect("match runs") {
        assert_legal(&g);
    }
}

#[test]
fn think_prints_a_legal_move() {
    let start = Position::start();
    let legal: Vec<String> = legal_moves(&start)
        .iter()
        .map(|&m| notation::move_text(&start, m))
        .collect();
    // Under every draw rule, by the names all subcommands share.
    for rule in ["none", "fifty-moves", "csci561", "dd2380"] {
        let out = checkers()
            .args(["think", "--nodes", "2000", "--draw-rule", rule])
            .output()
            .expect("runs");
        assert!(out.status.success(), "{rule}");
        let text = String::from_utf8(out.stdout).expect("utf-8");
        assert!(legal.contains(&text.trim().to_owned()), "{rule}: {text}");
    }
    checkers()
        .args(["think", "--draw-rule", "fifty"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("fifty-moves"));
}

#[test]
fn think_answers_from_a_fen_with_black_to_move_within_a_millisecond_budget() {
    // Black to move, a capture forced: 18x27? Black man on 23 must take the red man on 27? No:
    // black men move down; black on 18 jumps red on 22 landing on 25 (`18x25`).
    let out = checkers()
        .args(["think", "--fen", "B:W22,30:B18,3", "--time-ms", "1"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "18x25");
}

#[test]
fn think_prints_none_without_a_legal_move() {
    checkers()
        .args(["think", "--fen", "W:W:B1,2", "--depth", "3"])
        .assert()
        .code(1)
        .stdout("none\n");
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    checkers()
        .args(["think", "--fen", "X:W1:B2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("side to move"));
    checkers()
        .args(["match", "--player1", "alphazero", "--player2", "random"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown player"));
    checkers()
        .args([
            "match",
            "--player1",
            "random",
            "--player2",
            "random",
            "--openings",
            "/nonexistent/x",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent/x"));
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("openings.txt");
    std::fs::write(&bad, "24-20 12-16\n24-20 12-17\n").expect("write");
    checkers()
        .args([
            "match",
            "--player1",
            "random",
            "--player2",
            "random",
            "--openings",
        ])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 2"));
    checkers()
        .args([
            "match",
            "--player1",
            "random",
            "--player2",
            "random",
            "--draw-rule",
            "fide",
        ])
        .assert()
        .code(2);
}

#[test]
fn match_prints_results_and_writes_pdn() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pdn = dir.path().join("games.pdn");
    checkers()
        .args([
            "match",
            "--player1",
            "engine:nodes=300",
            "--player2",
            "random",
            "--games",
            "2",
            "--jobs",
            "1",
            "--pdn",
        ])
        .arg(&pdn)
        .assert()
        .success()
        .stdout(predicate::str::contains("player1:").and(predicate::str::contains("Elo")));
    let text = std::fs::read_to_string(&pdn).expect("pdn written");
    let games = checkers::formats::pdn::parse_games(&text).expect("our PDN reads back");
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.start, Position::start());
        assert!(g.moves.len() >= 3);
        assert_ne!(g.result, checkers::formats::pdn::GameResult::Unknown);
    }
}

#[test]
fn a_sequential_test_stops_the_match_once_it_decides() {
    // The engine against a random mover wins every game: a test of 0 against 50 Elo accepts
    // H1 after a handful of the 100 games allowed.
    let out = checkers()
        .args([
            "match",
            "--player1",
            "engine:nodes=300",
            "--player2",
            "random",
            "--games",
            "100",
            "--sprt",
            "0,50",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&out);
    let line = text
        .lines()
        .find(|l| {
            l.starts_with("SPRT (elo0 0, elo1 50, alpha 0.05, beta 0.05; bounds -2.94 and +2.94)")
        })
        .unwrap_or_else(|| panic!("no SPRT line in {text}"));
    assert!(line.ends_with("H1 accepted"), "{line}");
    let first = text.lines().next().unwrap_or_default();
    let games: u32 = first
        .split(": ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no game count in {first}"));
    assert!((2..=20).contains(&games), "{first}");
    for bad in ["10,0", "0", "0,10,0.6,0.05", "a,b"] {
        checkers()
            .args([
                "match",
                "--player1",
                "random",
                "--player2",
                "random",
                "--sprt",
                bad,
            ])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--sprt"));
    }
}

/// A player that plays a step that is never legal.
struct Cheater;

impl checkers::play::Player for Cheater {
    fn name(&self) -> String {
        "cheater".to_owned()
    }

    fn choose(
        &mut self,
        _game: &Game,
        _clock: &checkers::play::Clock,
    ) -> Result<checkers::Move, checkers::play::PlayerError> {
        let sq = |r, c| checkers::Square::new(r, c).expect("on the board");
        Ok(checkers::Move::new(
            sq(4, 4),
            sq(0, 0),
            checkers::Bitboard::EMPTY,
        ))
    }
}

/// A player that gives up.
struct Broken;

impl checkers::play::Player for Broken {
    fn name(&self) -> String {
        "broken".to_owned()
    }

    fn choose(
        &mut self,
        _game: &Game,
        _clock: &checkers::play::Clock,
    ) -> Result<checkers::Move, checkers::play::PlayerError> {
        Err(checkers::play::PlayerError::Failed("crashed".to_owned()))
    }
}

#[test]
fn illegal_or_missing_moves_forfeit_and_the_match_goes_on() {
    for (factory, illegal) in [
        (PlayerFactory::new("cheater", |_| Box::new(Cheater)), true),
        (PlayerFactory::new("broken", |_| Box::new(Broken)), false),
    ] {
        let mut cfg = config("random", "random", 4, 1, TimeControl::Unlimited);
        cfg.player2 = factory;
        let games = run_match(&cfg, &|_| {}).expect("match runs");
        assert_eq!(games.len(), 4);
        let s = Summary::of(&games);
        assert_eq!(s.wins, 4, "player 1 wins every game by forfeit");
        if illegal {
            assert_eq!(s.illegal_moves, [0, 4]);
        } else {
            assert_eq!(s.no_moves, [0, 4]);
            assert!(games[0].outcome.to_string().contains("crashed"));
        }
    }
}

/// A match stopped part way (here: run for fewer games) and run again with the same journal
/// plays only the missing games, and the whole is the match played in one go.
#[test]
fn a_journal_resumes_a_match_with_the_same_games() {
    use checkers::matches::arena::run_match_from;
    use checkers::matches::journal::Journal;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("match.journal");
    let cfg = |games| {
        config(
            "engine:nodes=400",
            "engine:nodes=250",
            games,
            2,
            TimeControl::Unlimited,
        )
    };
    let play = |games: usize| -> Vec<PlayedGame> {
        let (journal, done) = Journal::open(&path, &cfg(games)).expect("journal opens");
        let journal = std::sync::Mutex::new(journal);
        let resumed: Vec<usize> = done.iter().map(|g| g.index).collect();
        let played = std::sync::Mutex::new(Vec::new());
        let games = run_match_from(&cfg(games), done, &|g| {
            journal.lock().expect("lock").append(g).expect("recorded");
            played.lock().expect("lock").push(g.index);
        })
        .expect("match runs");
        let mut played = played.into_inner().expect("lock");
        played.sort_unstable();
        let all: Vec<usize> = (0..games.len()).collect();
        let mut both = [resumed, played].concat();
        both.sort_unstable();
        assert_eq!(both, all, "each game played once");
        games
    };
    let key = |g: &PlayedGame| (g.index, g.moves.clone(), g.outcome.clone(), g.player1_red);
    let first = play(3);
    assert_eq!(first.len(), 3);
    // Extended: games 0-2 read back, 3-5 played.
    let resumed = play(6);
    assert_eq!(resumed.len(), 6);
    assert_eq!(
        resumed[..3].iter().map(key).collect::<Vec<_>>(),
        first.iter().map(key).collect::<Vec<_>>()
    );
    for (a, b) in resumed[..3].iter().zip(&first) {
        assert_eq!(a, b, "read back whole, times included");
    }
    let fresh = run_match(&cfg(6), &|_| {}).expect("match runs");
    assert_eq!(
        resumed.iter().map(key).collect::<Vec<_>>(),
        fresh.iter().map(key).collect::<Vec<_>>()
    );
    // All recorded: nothing left to play.
    let (_, done) = Journal::open(&path, &cfg(6)).expect("journal opens");
    assert_eq!(done.len(), 6);
    // A shorter match than the journal's is refused, naming its highest game (whichever of the
    // two jobs recorded it first).
    let err = Journal::open(&path, &cfg(4)).expect_err("refused");
    assert!(err.to_string().contains("game 6 recorded"), "{err}");
    assert!(err.to_string().contains("at least 6 games"), "{err}");
}

/// The journal through the command: resumed, a record cut short ignored and cut off, a journal of
/// another match or a damaged record refused with exit code 2.
#[test]
fn match_journal_resumes_and_refuses_other_matches() {
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = dir.path().join("match.journal");
    let run = |player2: &str, games: &str| {
        let mut cmd = checkers();
        cmd.args([
            "match",
            "--player1",
            "engine:nodes=300",
            "--player2",
            player2,
            "--games",
            games,
            "--jobs",
            "2",
            "--journal",
        ])
        .arg(&journal);
        cmd
    };
    run("random", "2").assert().success();
    let text = std::fs::read_to_string(&journal).expect("journal written");
    assert_eq!(text.lines().filter(|l| l.starts_with("game\t")).count(), 2);
    // A record cut short by a stop: ignored, cut off, and the game played again.
    let half = "game\t2\t1\twin:red\t11-15 2";
    std::fs::write(&journal, format!("{text}{half}")).expect("written");
    run("random", "4")
        .assert()
        .success()
        .stderr(
            predicate::str::contains("2 of the 4 games already played")
                // Progress without a terminal: the last game's line.
                .and(predicate::str::contains("4/4 games, +")),
        )
        .stdout(predicate::str::contains(": 4 games"));
    let text = std::fs::read_to_string(&journal).expect("journal written");
    let records: Vec<&str> = text.lines().filter(|l| l.starts_with("game\t")).collect();
    assert_eq!(records.len(), 4);
    assert!(!text.contains(half));
    // A complete record with a wrong checksum at the end: also a stop's leftover.
    let last = records[3];
    let mut flipped = last.to_owned();
    let digit = if last.ends_with('0') { "1" } else { "0" };
    flipped.replace_range(last.len() - 1.., digit);
    std::fs::write(&journal, text.replace(last, &flipped)).expect("written");
    run("random", "4")
        .assert()
        .success()
        .stderr(predicate::str::contains("3 of the 4 games already played"));
    // A damaged record before the last one is refused, naming the line.
    let text = std::fs::read_to_string(&journal).expect("journal written");
    let first = text
        .lines()
        .find(|l| l.starts_with("game\t"))
        .expect("a record");
    let damaged = first.replacen("game\t", "game\t9", 1);
    std::fs::write(&journal, text.replacen(first, &damaged, 1)).expect("written");
    run("random", "4")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("damaged record"));
    std::fs::write(&journal, &text).expect("written");
    // Another opponent: another match.
    run("random:seed=2", "4").assert().code(2).stderr(
        predicate::str::contains("journal of another match")
            .and(predicate::str::contains("player2")),
    );
    // Not a journal at all.
    std::fs::write(&journal, "[Event \"x\"]\n").expect("written");
    run("random", "4")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a match journal"));
}

/// Endgame starts: positions of the piece counts asked for, the side to move without a capture,
/// scored within the bound, the same for the same options, and readable as openings.
#[test]
fn endgame_starts_are_quiet_balanced_repeatable_and_read_back() {
    use checkers::matches::openings::{
        endgame_starts, endgame_starts_text, parse_match_openings, EndgameStartOptions,
    };
    let ballots = parse_openings(THREE_MOVE_BALLOTS).expect("shipped openings");
    let options = EndgameStartOptions {
        pieces: 6..=10,
        play_nodes: 300,
        score_nodes: 1_000,
        bound: 80,
        ..EndgameStartOptions::default()
    };
    let starts = endgame_starts(&ballots[..6], &options);
    assert!(!starts.is_empty());
    assert_eq!(starts, endgame_starts(&ballots[..6], &options));
    for s in &starts {
        let pieces = s.position.occupied().count();
        assert_eq!(pieces, s.pieces);
        assert!((6..=10).contains(&pieces), "{pieces}");
        assert!(s.score.abs() <= 80, "{}", s.score);
        assert!(!legal_moves(&s.position).iter().any(|m| m.is_capture()));
    }
    let text = endgame_starts_text(&starts, "test\nstarts").expect("FEN");
    assert!(text.starts_with("# test\n# starts\n"));
    let read = parse_match_openings(&text).expect("read back");
    assert_eq!(read.len(), starts.len());
    for (o, s) in read.iter().zip(&starts) {
        assert_eq!(o.start, Some(s.position));
        assert!(o.moves.is_empty());
    }
    // Move lines and FEN lines side by side; a bad FEN named by its line.
    let mixed = parse_match_openings("24-20 12-16 28-24\nB:W21,K23:B1,2\n").expect("mixed");
    assert_eq!(mixed.len(), 2);
    assert_eq!(mixed[0].start, None);
    assert_eq!(mixed[1].start.map(|p| p.occupied().count()), Some(4));
    let err = parse_match_openings("24-20\nW:W21,40:B1\n").expect_err("square 40");
    assert!(err.to_string().starts_with("line 2:"), "{err}");
    // The plain reader (self-play's) still takes moves only.
    assert!(parse_openings("W:W21:B1\n").is_err());
}

/// A match from FEN starts, the engine reading endgame databases on two threads against the
/// engine without them: legal games, no forfeits, each start twice with colours swapped.
#[test]
fn match_plays_fen_starts_with_egdb_engines_on_two_jobs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let egdb = dir.path().join("egdb");
    checkers()
        .args(["egdb", "build", "--pieces", "4", "-q", "--egdb"])
        .arg(&egdb)
        .assert()
        .success();
    let starts = dir.path().join("starts.txt");
    std::fs::write(
        &starts,
        "# two endgames\nW:W22,K25:B9,K12\nB:W27,30,K18:B3,K7\n",
    )
    .expect("written");
    let pdn = dir.path().join("games.pdn");
    checkers()
        .args(["match", "--player1"])
        .arg(format!("engine:nodes=2000,egdb={}", egdb.display()))
        .args([
            "--player2",
            "engine:nodes=2000",
            "--games",
            "4",
            "--jobs",
            "2",
            "--time-per-move",
            "5",
            "--openings",
        ])
        .arg(&starts)
        .arg("--pdn")
        .arg(&pdn)
        .assert()
        .success()
        .stdout(
            predicate::str::contains(": 4 games").and(predicate::str::contains(
                "forfeits on time: player1 0, player2 0",
            )),
        );
    let text = std::fs::read_to_string(&pdn).expect("pdn written");
    let games = checkers::formats::pdn::parse_games(&text).expect("our PDN reads back");
    assert_eq!(games.len(), 4);
    let first = checkers::formats::fen::parse("W:W22,K25:B9,K12").expect("FEN");
    assert_eq!(games[0].start, first);
    assert_eq!(games[1].start, first);
    assert_ne!(games[2].start, first);
}

#[test]
fn engines_read_the_default_databases_unless_told_none() {
    let dir = tempfile::tempdir().expect("temp dir");
    let egdb = dir.path().join("egdb");
    checkers()
        .args(["egdb", "build", "--pieces", "2", "-q", "--egdb"])
        .arg(&egdb)
        .assert()
        .success();
    let starts = dir.path().join("starts.txt");
    std::fs::write(&starts, "W:WK22:BK9\n").expect("written");
    let run = |env: &std::path::Path| {
        checkers()
            .env("CHECKERS_EGDB", env)
            .args(["match", "--player1", "engine:nodes=50", "--player2"])
            .args(["engine:nodes=50,egdb=none", "--games", "2", "--openings"])
            .arg(&starts)
            .assert()
            .success()
    };
    // With $CHECKERS_EGDB at a folder of databases, the engine reads them, as its name says;
    // `egdb=none` reads none.
    run(&egdb).stdout(predicate::str::contains(format!(
        "engine:nodes=50,egdb={} vs engine:nodes=50:",
        egdb.display()
    )));
    // Without such a folder, neither does.
    run(&dir.path().join("missing")).stdout(predicate::str::contains(
        "engine:nodes=50 vs engine:nodes=50:",
    ));
    // `think` takes the same default and `--egdb none`.
    checkers()
        .env("CHECKERS_EGDB", &egdb)
        .args([
            "think",
            "--fen",
            "W:WK22:BK9",
            "--nodes",
            "100",
            "--egdb",
            "none",
        ])
        .assert()
        .success();
    checkers()
        .args(["think", "--fen", "W:WK22:BK9", "--egdb"])
        .arg(dir.path().join("missing"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "not a directory of endgame databases",
        ));
}
