//! `verify` within a budget: the analysis stops at `--max-seconds` or when its `--max-mb` does
//! not fit, saying "not proven" while the move checks still hold; messages number the states
//! one way (from 1, the puzzle).

use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;

use checkers::tools::verify::{verify, Optimality};

use crate::common::line_with_a_slower_win;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The 3 kings against 2 line: its proof builds a table of 2.6 M positions (seconds, 440 MB).
fn verify_kings_3v2(extra: &[&str]) -> assert_cmd::assert::Assert {
    let name = "kings-3v2-double-corner.txt";
    Command::cargo_bin("checkers")
        .expect("binary")
        .args(["verify", "--inputfile"])
        .arg(manifest().join("puzzles").join(name))
        .arg("--solution")
        .arg(manifest().join("expected").join(name))
        .args(extra)
        .assert()
}

#[test]
fn the_time_budget_stops_the_analysis() {
    // One second is a budget of a million positions, spent before the table of 2.6 M positions
    // that decides the line could be built: undecided moves, exit 3.
    verify_kings_3v2(&["--max-seconds", "1"]).code(3).stdout(
        predicate::str::contains("legal:    yes")
            .and(predicate::str::contains("optimal:  not proven: "))
            .and(predicate::str::contains("none refuted, undecided: plies "))
            .and(predicate::str::contains("(--max-seconds)"))
            .and(predicate::str::contains("PASS")),
    );
}

#[test]
fn a_small_memory_budget_says_too_large_at_once() {
    // Tables of 49 k positions and questions of 88 k: the moves before the last king's capture
    // stay undecided (the time budget keeps the test short in a debug build).
    verify_kings_3v2(&["--max-mb", "16", "--max-seconds", "3"])
        .code(3)
        .stdout(predicate::str::contains("optimal:  not proven: "));
}

#[test]
fn budgets_are_checked_arguments() {
    verify_kings_3v2(&["--max-seconds", "0"]).code(2);
    verify_kings_3v2(&["--max-mb", "1"]).code(2);
}

/// A slower win is reported as "the move from state N to state N+1", N counted from 1, with the
/// values in words, and no other numbering of states anywhere in the verdict.
#[test]
fn a_suboptimal_move_is_named_by_its_two_states() {
    let (puzzle, played, turn) = line_with_a_slower_win("kings-2v1-double-corner.txt");
    let v = verify(&puzzle, &played, None);
    let Optimality::Suboptimal(n, _) = &v.optimality else {
        panic!("{v}");
    };
    assert_eq!(*n, turn + 2);
    let text = v.to_string();
    let wanted = format!(
        "optimal:  no: the move from state {} to state {} is not optimal: the side to move had a \
         win in ",
        turn + 1,
        turn + 2
    );
    assert!(text.contains(&wanted), "{text}");
    assert!(!text.contains("state 0"), "{text}");
    assert!(!text.contains("into state"), "{text}");
}

#[test]
fn one_ply_is_singular() {
    Command::cargo_bin("checkers")
        .expect("binary")
        .args(["verify", "--inputfile"])
        .arg(manifest().join("puzzles/p01.txt"))
        .arg("--solution")
        .arg(manifest().join("expected/p01.txt"))
        .assert()
        .success()
        .stdout(predicate::str::contains("(red: win in 1 ply)"));
}
