//! `verify`: each kind of broken solution is rejected with its reason, a suboptimal line is
//! caught, and every shipped expected solution passes.

use std::fs;
use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;

use checkers::formats::board_text::{format_solution, parse_board, parse_solution};
use checkers::tools::verify::{diagnose, verify, Optimality, StepFault};

use crate::common::line_with_a_slower_win;
use checkers::{Color, Position};

fn board(rows: &str) -> Position {
    parse_board(rows.as_bytes()).expect("test board parses")
}

fn black(rows: &str) -> Position {
    board(rows).with_side_to_move(Color::Black)
}

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Red man on row 5 col 4 can jump the black man diagonally up-left; a step is then illegal.
const CAPTURE_PENDING: &str =
    "........\n........\n........\n..b.....\n...r....\n........\n........\n.......B\n";

#[test]
fn a_step_when_a_capture_exists_is_a_skipped_capture() {
    let prev = board(CAPTURE_PENDING);
    let next =
        black("........\n........\n........\n..b.r...\n........\n........\n........\n.......B\n");
    assert_eq!(diagnose(&prev, &next), Some(StepFault::SkippedCapture));
}

#[test]
fn a_jump_stopped_early_is_an_unfinished_jump() {
    // The red man at row 7 col 3 jumps to row 5 col 5 and must go on over row 4 col 6.
    let prev =
        board("........\n........\n........\n.....b..\n........\n...b....\n..r.....\n......B.\n");
    let stopped =
        black("........\n........\n........\n.....b..\n....r...\n........\n........\n......B.\n");
    let finished =
        black("........\n........\n......r.\n........\n........\n........\n........\n......B.\n");
    assert_eq!(diagnose(&prev, &finished), None);
    assert_eq!(diagnose(&prev, &stopped), Some(StepFault::UnfinishedJump));
}

#[test]
fn a_man_on_the_far_row_must_be_crowned() {
    let prev =
        board("........\n..r.....\n........\n........\n........\n........\n........\n......B.\n");
    let uncrowned =
        black(".r......\n........\n........\n........\n........\n........\n........\n......B.\n");
    let crowned =
        black(".R......\n........\n........\n........\n........\n........\n........\n......B.\n");
    assert_eq!(diagnose(&prev, &crowned), None);
    assert_eq!(
        diagnose(&prev, &uncrowned),
        Some(StepFault::MissingCrowning)
    );
}

#[test]
fn moving_the_other_sides_piece_is_the_wrong_side() {
    let prev = board(CAPTURE_PENDING);
    let next =
        black("........\n........\n........\n..b.....\n...r....\n........\n......B.\n........\n");
    assert_eq!(diagnose(&prev, &next), Some(StepFault::WrongSide));
}

#[test]
fn a_teleport_is_illegal_and_no_change_is_no_move() {
    let prev = board(CAPTURE_PENDING);
    let teleport =
        black("r.......\n........\n........\n..b.....\n........\n........\n........\n.......B\n");
    assert_eq!(diagnose(&prev, &teleport), Some(StepFault::Illegal));
    assert_eq!(
        diagnose(&prev, &prev.with_side_to_move(Color::Black)),
        Some(StepFault::NoMove)
    );
}

#[test]
fn the_first_state_must_be_the_puzzle_and_the_game_must_be_finished() {
    let puzzle = board(CAPTURE_PENDING);
    let other =
        board("........\n........\n........\n..b.....\n....r...\n........\n........\n.......B\n");
    let v = verify(&puzzle, &[other], None);
    assert_eq!(v.illegal, Some((1, StepFault::NotThePuzzle)));
    assert!(!v.passed());
    let v = verify(&puzzle, &[puzzle], None);
    assert!(v.illegal.is_none());
    assert!(!v.game_over, "red can still capture");
    assert!(!v.passed());
}

#[test]
fn a_slower_win_is_reported_suboptimal() {
    let (puzzle, played, turn) = line_with_a_slower_win("kings-2v1-double-corner.txt");
    let v = verify(&puzzle, &played, None);
    assert!(v.illegal.is_none() && v.game_over, "{v}");
    assert!(
        matches!(v.optimality, Optimality::Suboptimal(n, _) if n == turn + 2),
        "{v}"
    );
    assert!(!v.passed());
}

/// `verify` accepts the shipped lines, each proven optimal: the course's puzzles, a black win and
/// a draw. (Every shipped line is certified in `certify.rs` with the same analyser; repeating
/// all of them here would only double the suite's slowest minute.)
#[test]
fn shipped_expected_solutions_pass() {
    let names = [
        "p01.txt",
        "p02.txt",
        "p03.txt",
        "p04.txt",
        "p05.txt",
        "p06.txt",
        "p07.txt",
        "p08.txt",
        "black-wins-p11.txt",
        "draw-king-vs-king.txt",
    ];
    for name in names {
        let path = manifest().join("puzzles").join(name);
        let puzzle = parse_board(&fs::read(&path).expect("puzzle")).expect("parses");
        let states =
            parse_solution(&fs::read(manifest().join("expected").join(name)).expect("expected"))
                .expect("parses");
        let v = verify(&puzzle, &states, Some(&states));
        assert!(v.passed(), "{name}: {v}");
        assert!(
            !matches!(v.optimality, Optimality::Unproven(_)),
            "{name}: {v}"
        );
    }
}

#[test]
fn cli_exit_codes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let p03 = manifest().join("puzzles/p03.txt");
    let good = manifest().join("expected/p03.txt");
    Command::cargo_bin("checkers")
        .expect("binary")
        .args(["verify", "--inputfile"])
        .arg(&p03)
        .arg("--solution")
        .arg(&good)
        .arg("--expected")
        .arg(manifest().join("expected/course/p03.txt"))
        .assert()
        .success()
        .stdout(predicate::str::contains("same length").and(predicate::str::contains("PASS")));
    // Cut after the first move: legal but not finished.
    let states = parse_solution(&fs::read(&good).expect("good")).expect("parses");
    let cut = dir.path().join("cut.txt");
    fs::write(&cut, format_solution(&states[..2])).expect("write");
    Command::cargo_bin("checkers")
        .expect("binary")
        .args(["verify", "--inputfile"])
        .arg(&p03)
        .arg("--solution")
        .arg(&cut)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("finished: no"));
    let garbage = dir.path().join("garbage.txt");
    fs::write(&garbage, "not a board\n").expect("write");
    Command::cargo_bin("checkers")
        .expect("binary")
        .args(["verify", "--inputfile"])
        .arg(&p03)
        .arg("--solution")
        .arg(&garbage)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("garbage.txt:1:"));
}
