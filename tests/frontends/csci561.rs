//! The CSCI561 agent and its referee through real files and processes: the assignment's five
//! published examples (from `docs/protocols.md`), bad `input.txt` files, a hosted game
//! between two of our agents, and agents that misbehave in each way the host must catch.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use checkers::formats::pdn;
use checkers::matches::host::{self, AgentCommand, ExternalAgent, HostOptions};
use checkers::play::Clock;
use checkers::play::{Game, Player, PlayerError};
use checkers::protocols::csci561::playdata::PlayData;
use checkers::protocols::csci561::{format_input, parse_cell, parse_input, parse_output, Mode};
use checkers::rules::draw::DrawRule;
use checkers::rules::game::{Forfeit, Outcome};
use checkers::rules::movegen::legal_moves;
use checkers::rules::piece::Color;

use crate::common::BIN;

/// The assignment's examples: input, the published answer, and whether it is the only move.
const EXAMPLES: [(&str, &str, bool); 5] = [
    (
        "SINGLE\nBLACK\n100.0\n.b...b..\n..b...b.\n.....w.b\n....w...\n.b......\nw...w.w.\n...B....\n......w.\n",
        "J d2 f4\nJ f4 d6\n",
        false,
    ),
    (
        "SINGLE\nWHITE\n6.6\n........\nw...b.b.\n........\n..w.b...\n.w...b..\n....b...\n.w.....b\n..w...w.\n",
        "E a7 b8\n",
        false,
    ),
    (
        "SINGLE\nWHITE\n23.33\n.b...b..\n..b.b.b.\n...b...b\n..b.....\n.....w..\nw.b.w.w.\n.w.....w\nw...w...\n",
        "J b2 d4\nJ d4 b6\nJ b6 d8\n",
        true,
    ),
    (
        "SINGLE\nWHITE\n100.0\n.b.b.b.b\nb.b.b.b.\n.b...b.b\n....b...\n........\nw.w.w.w.\n.w.w.w.w\nw.w.w.w.\n",
        "E c3 b4\n",
        false,
    ),
    (
        "SINGLE\nBLACK\n100.0\n.b.....b\nb...b.b.\n.b...b.b\n..b.w...\n........\nw...w...\n.w.w...w\nw...w.w.\n",
        "J f6 d4\nJ d4 f2\n",
        true,
    ),
];

/// Runs `checkers agent` in `dir` with extra arguments.
fn agent(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("agent")
        .arg("--dir")
        .arg(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Runs `checkers host` with arguments.
fn host_cmd(args: &[&str]) -> Output {
    Command::new(BIN).arg("host").args(args).output().unwrap()
}

#[test]
fn the_published_examples_get_legal_answers() {
    for (i, (input, answer, only)) in EXAMPLES.iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("input.txt"), input).unwrap();
        let out = agent(dir.path(), &["--player", "engine:nodes=20000"]);
        assert!(out.status.success(), "example {}: {out:?}", i + 1);
        let written = std::fs::read_to_string(dir.path().join("output.txt")).unwrap();
        let pos = parse_input(input).unwrap().position;
        let mv = parse_output(&written, &pos).unwrap();
        assert!(legal_moves(&pos).contains(&mv));
        assert!(written.ends_with('\n') && !written.contains('\r'));
        if *only {
            assert_eq!(written, *answer, "example {}", i + 1);
        }
        // SINGLE mode keeps no playdata.
        assert!(!dir.path().join("playdata.txt").exists());
    }
}

#[test]
fn the_time_managed_agent_answers_with_little_time() {
    for time in ["0.2", "0.01"] {
        let dir = tempfile::tempdir().unwrap();
        let input = EXAMPLES[1].0.replace("6.6", time);
        std::fs::write(dir.path().join("input.txt"), &input).unwrap();
        let out = agent(dir.path(), &[]);
        assert!(out.status.success(), "{time}: {out:?}");
        let written = std::fs::read_to_string(dir.path().join("output.txt")).unwrap();
        let pos = parse_input(&input).unwrap().position;
        assert!(parse_output(&written, &pos).is_ok(), "{time}: {written}");
    }
}

#[test]
fn bad_inputs_exit_2_naming_the_line_and_leave_no_output() {
    let good = EXAMPLES[1].0;
    let cases: Vec<(Option<String>, &str)> = vec![
        (None, "input.txt"),
        (Some(String::new()), "line 1"),
        (Some("GAME\nWHITE\n".to_owned()), "line 3"),
        (Some(good.replace("SINGLE", "TRIPLE")), "line 1"),
        (Some(good.replace("WHITE", "GREEN")), "line 2"),
        (Some(good.replace("6.6", "0")), "line 3"),
        (Some(good.replace("6.6", "-2.5")), "line 3"),
        (Some(good.replace("w...b.b.", "w..xb.b.")), "line 5"),
        (Some(good.replace("..w...w.\n", "")), "line 11"),
        (Some(good.replace(".w.....b", ".w.....b.")), "line 10"),
    ];
    for (input, needle) in cases {
        let dir = tempfile::tempdir().unwrap();
        // A stale answer from a previous move must not survive.
        std::fs::write(dir.path().join("output.txt"), "E a3 b4\n").unwrap();
        if let Some(text) = &input {
            std::fs::write(dir.path().join("input.txt"), text).unwrap();
        }
        let out = agent(dir.path(), &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{input:?}: {stderr}");
        assert!(stderr.contains(needle), "{input:?}: {stderr}");
        assert!(!dir.path().join("output.txt").exists(), "{input:?}");
    }
}

#[test]
fn a_corrupt_playdata_file_does_not_stop_the_agent() {
    let dir = tempfile::tempdir().unwrap();
    let input = EXAMPLES[3]
        .0
        .replace("SINGLE", "GAME")
        .replace("100.0", "1");
    std::fs::write(dir.path().join("input.txt"), &input).unwrap();
    std::fs::write(dir.path().join("playdata.txt"), "\u{0}\u{1}garbage").unwrap();
    let out = agent(dir.path(), &["--player", "engine:nodes=2000"]);
    assert!(out.status.success(), "{out:?}");
    assert!(dir.path().join("output.txt").exists());
    // The record was started afresh and is readable.
    let data = std::fs::read_to_string(dir.path().join("playdata.txt")).unwrap();
    assert!(
        data.starts_with("csci561-playdata 1\ncolour WHITE\n"),
        "{data}"
    );
}

#[test]
fn a_hosted_game_between_two_of_our_agents() {
    let pdn_dir = tempfile::tempdir().unwrap();
    let pdn_path = pdn_dir.path().join("games.pdn");
    let black = format!("{BIN} agent --player engine:nodes=3000");
    let white = format!("{BIN} agent --player engine:nodes=1500");
    let out = host_cmd(&[
        "--black",
        &black,
        "--white",
        &white,
        "--time",
        "5",
        "--pdn",
        pdn_path.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout.starts_with("game 1: "), "{stdout}");
    assert!(stdout.contains("CPU left"), "{stdout}");
    // The PDN reads back: a legal game from the CSCI561 start that ends as reported.
    let text = std::fs::read_to_string(&pdn_path).unwrap();
    let games = pdn::parse_games(&text).unwrap();
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.start, host::start_position());
    let replay = Game::from_moves(game.start, DrawRule::Csci561, &game.moves).unwrap();
    let ended = replay.outcome();
    match game.result {
        pdn::GameResult::Draw => assert!(ended.is_some_and(|e| e.winner().is_none())),
        pdn::GameResult::RedWins => assert!(stdout.contains("(WHITE) wins"), "{stdout}"),
        pdn::GameResult::BlackWins => assert!(stdout.contains("(BLACK) wins"), "{stdout}"),
        pdn::GameResult::Unknown => panic!("no result: {text}"),
    }
    assert!(!stdout.contains("out of time"), "{stdout}");
}

/// Plays one short game of a misbehaving black agent against our agent; the report.
fn against(script: &str, time: f64) -> host::GameReport {
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let bad = AgentCommand {
        name: "bad".to_owned(),
        command: script.to_owned(),
    };
    let ours = AgentCommand {
        name: "ours".to_owned(),
        command: format!("{BIN} agent --player engine:nodes=1000"),
    };
    let options = HostOptions::new(Duration::from_secs_f64(time));
    host::play_game([&bad, &ours], [dirs[0].path(), dirs[1].path()], options).unwrap()
}

/// Whether black forfeited by `kind` (a forfeit's variant) with a reason containing `text`.
fn black_forfeited(report: &host::GameReport, kind: fn(&Forfeit) -> bool, text: &str) -> bool {
    matches!(&report.outcome, Outcome::Forfeit { loser: Color::Black, why }
        if kind(why) && why.to_string().contains(text))
}

#[test]
fn misbehaving_agents_lose_with_the_reason() {
    let bad_output = |f: &Forfeit| matches!(f, Forfeit::Illegal(_));
    let garbage = against("echo 'hello world' > output.txt", 5.0);
    assert_eq!(garbage.winner(), Some(Color::Red));
    assert!(
        black_forfeited(&garbage, bad_output, "not `E FROM TO` or `J FROM TO`"),
        "{:?}",
        garbage.outcome
    );
    let illegal = against("printf 'E a1 b2\\n' > output.txt", 5.0);
    assert!(
        black_forfeited(&illegal, bad_output, "bad output.txt: illegal move `"),
        "{:?}",
        illegal.outcome
    );
    let silent = against("exit 7", 5.0);
    assert!(
        black_forfeited(
            &silent,
            |f| matches!(f, Forfeit::NoMove(_)),
            "no output.txt"
        ),
        "{:?}",
        silent.outcome
    );
    assert!(
        silent.summary().contains("exit code 7"),
        "{}",
        silent.summary()
    );
    let slow = against("while :; do :; done", 0.3);
    assert_eq!(slow.winner(), Some(Color::Red));
    assert!(
        black_forfeited(&slow, |f| matches!(f, Forfeit::Time { .. }), "out of time"),
        "{:?}",
        slow.outcome
    );
    assert!(slow.summary().contains("out of time"), "{}", slow.summary());
    // The PDN of a forfeited game says why.
    let text = pdn::write_game(&slow.to_pdn(1)).unwrap();
    assert!(text.contains("[Termination \"BLACK out of time"), "{text}");
}

#[test]
fn an_incomplete_jump_loses() {
    // Example 5: black must jump f6-d4-f2; the agent stops after the first jump.
    let start = parse_input(EXAMPLES[4].0).unwrap().position;
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let lazy = AgentCommand {
        name: "lazy".to_owned(),
        command: "printf 'J f6 d4\\n' > output.txt".to_owned(),
    };
    let ours = AgentCommand {
        name: "ours".to_owned(),
        command: format!("{BIN} agent --player engine:nodes=1000"),
    };
    let options = HostOptions {
        time: Duration::from_secs(5),
        start,
    };
    let report =
        host::play_game([&lazy, &ours], [dirs[0].path(), dirs[1].path()], options).unwrap();
    assert_eq!(report.winner(), Some(Color::Red));
    assert!(
        black_forfeited(
            &report,
            |f| matches!(f, Forfeit::Illegal(_)),
            "incomplete jump sequence"
        ),
        "{:?}",
        report.outcome
    );
}

#[test]
fn an_external_agent_is_a_player() {
    let spec = format!("csci561:{BIN} agent --player engine:nodes=1000");
    let mut player = ExternalAgent::from_spec(&spec).unwrap();
    assert_eq!(player.name(), spec);
    assert!(ExternalAgent::from_spec("minimax:4").is_none());
    let start = parse_input(EXAMPLES[4].0).unwrap().position;
    let game = Game::new(start, DrawRule::Csci561);
    let mv = player
        .choose(&game, &Clock::game_left(Duration::from_secs(5)))
        .unwrap();
    assert!(legal_moves(&start).contains(&mv));
    // An agent that writes nothing fails as a player, and one that writes half a jump is
    // illegal.
    let mut lazy = ExternalAgent::from_spec("csci561:printf 'J f6 d4\\n' > output.txt").unwrap();
    let err = lazy
        .choose(&game, &Clock::per_move(Duration::from_secs(1)))
        .unwrap_err();
    assert!(
        matches!(&err, PlayerError::Illegal(m) if m.contains("incomplete")),
        "{err:?}"
    );
    // One that loops is stopped and fails on time, whatever clock the caller keeps.
    let mut slow = ExternalAgent::from_spec("csci561:while :; do :; done").unwrap();
    let err = slow
        .choose(&game, &Clock::per_move(Duration::from_millis(100)))
        .unwrap_err();
    assert!(
        matches!(&err, PlayerError::Failed(m) if m.contains("out of time")),
        "{err:?}"
    );
}

/// The board with black king on `black`, white kings on `white` and h2, `side` to move.
fn kings(black: &str, white: &str, side: Color) -> checkers::Position {
    let mut grid = [['.'; 8]; 8];
    for (cell, piece) in [("h2", 'W'), (black, 'B'), (white, 'W')] {
        let sq = parse_cell(cell).unwrap();
        grid[usize::from(sq.row())][usize::from(sq.col())] = piece;
    }
    let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    let colour = if side == Color::Black {
        "BLACK"
    } else {
        "WHITE"
    };
    let text = format!("GAME\n{colour}\n1\n{}\n", rows.join("\n"));
    parse_input(&text).unwrap().position
}

#[test]
fn an_agent_ahead_avoids_the_third_repetition_it_kept_in_playdata() {
    // White (two kings) against one black king, shuffling: the black king d8-c7, a white king
    // b2-a1. After seven plies white to move could bring back the first board for the third
    // time (a1-b2), a draw; ahead, the agent must play something else. It knows the earlier
    // plies only from playdata.txt. Without them it plays a1-b2 (checked below), so the
    // history is what changes its mind.
    let positions = vec![
        kings("d8", "b2", Color::Black),
        kings("c7", "b2", Color::Red),
        kings("c7", "a1", Color::Black),
        kings("d8", "a1", Color::Red),
        kings("d8", "b2", Color::Black),
        kings("c7", "b2", Color::Red),
        kings("c7", "a1", Color::Black),
    ];
    let current = kings("d8", "a1", Color::Red);
    let data = PlayData {
        colour: Color::Red,
        initial_seconds: 10.0,
        positions,
    };
    let game = data.continue_game(&current).unwrap();
    assert_eq!(game.ply(), 7);
    let first_board = data.positions[0].with_side_to_move(Color::Red);
    let draw_move = legal_moves(&current)
        .into_iter()
        .find(|&m| current.play(m).with_side_to_move(Color::Red) == first_board)
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("playdata.txt"), data.to_text()).unwrap();
    std::fs::write(
        dir.path().join("input.txt"),
        format_input(Mode::Game, 5.0, &current),
    )
    .unwrap();
    let out = agent(dir.path(), &["--player", "engine:nodes=20000", "-v"]);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("7 plies known"), "{stderr}");
    let written = std::fs::read_to_string(dir.path().join("output.txt")).unwrap();
    let mv = parse_output(&written, &current).unwrap();
    assert_ne!(mv, draw_move, "{written}");

    // The control: the same input without the record gets the repeating move.
    std::fs::remove_file(dir.path().join("playdata.txt")).unwrap();
    let out = agent(dir.path(), &["--player", "engine:nodes=20000"]);
    assert!(out.status.success(), "{out:?}");
    let written = std::fs::read_to_string(dir.path().join("output.txt")).unwrap();
    assert_eq!(parse_output(&written, &current), Ok(draw_move), "{written}");
}

#[test]
fn host_single_times_one_move_and_refuses_bad_times() {
    let ours = format!("{BIN} agent");
    let out = host_cmd(&["--black", &ours, "--white", &ours, "--single", "0.05"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        stdout.contains("SINGLE BLACK with 0.05 s: legal E "),
        "{stdout}"
    );
    assert!(
        stdout.contains("SINGLE WHITE with 0.05 s: legal E "),
        "{stdout}"
    );
    let late = host_cmd(&[
        "--black",
        "while :; do :; done",
        "--white",
        &ours,
        "--single",
        "0.05",
    ]);
    assert_eq!(late.status.code(), Some(1), "{late:?}");
    assert!(String::from_utf8_lossy(&late.stdout).contains("LOST: out of time"));
    for bad in ["0", "-1", "nan"] {
        let out = host_cmd(&["--black", "true", "--white", "true", "--time", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {out:?}");
    }
}

#[test]
fn checkers_match_plays_an_external_agent() {
    let spec = format!("csci561:{BIN} agent --player engine:nodes=500");
    let out = Command::new(BIN)
        .args([
            "match",
            "--player1",
            &spec,
            "--player2",
            "random",
            "--games",
            "2",
        ])
        .args(["--time-per-move", "0.5", "--openings", "start"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout.contains(&format!("{spec} vs random")), "{stdout}");
    assert!(stdout.contains("illegal moves: player1 0"), "{stdout}");
    let empty = Command::new(BIN)
        .args(["match", "--player1", "csci561:", "--player2", "random"])
        .output()
        .unwrap();
    assert_eq!(empty.status.code(), Some(2), "{empty:?}");
}
