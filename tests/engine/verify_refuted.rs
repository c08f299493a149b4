//! `verify`'s verdict per move: a line with one wrong move has that move refuted (what it gives
//! and a better move) and every other proven optimal; the solver's lines of the three boards of
//! issue 23 (`tests/data/refuted/`) are refuted at the ply the analyser finds.

use std::fs;
use std::path::PathBuf;

use checkers::analysis::{MoveKind, Value};
use checkers::formats::board_text::{parse_board, parse_solution};
use checkers::tools::verify::{budget_limits, judge, verify, Optimality};

use crate::common::line_with_a_slower_win;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A slower win in a 2 kings against 1 line: that ply is refuted with both values exact and
/// the faster move named, every other ply proven optimal, each on its own `ply N:` line.
#[test]
fn one_wrong_move_is_refuted_and_the_others_proven() {
    let (puzzle, played, turn) = line_with_a_slower_win("kings-2v1-double-corner.txt");
    let v = verify(&puzzle, &played, None);
    assert_eq!(v.plies.len(), played.len() - 1, "{v}");
    for p in &v.plies {
        let expected = if p.ply == turn + 1 {
            MoveKind::Refuted
        } else {
            MoveKind::Optimal
        };
        assert_eq!(p.verdict.kind, expected, "ply {}: {v}", p.ply);
    }
    let wrong = &v.plies[turn];
    let (Some(Value::Win(best)), Some(Value::Win(given))) =
        (wrong.verdict.before.value(), wrong.verdict.played.value())
    else {
        panic!("exact wins expected: {v}");
    };
    assert!(given > best, "{v}");
    let better = wrong.better.as_deref().expect("a better move is named");
    let text = v.to_string();
    let line = format!("ply {}:", turn + 1);
    let wanted = format!(
        "{line:<10}red {}: refuted, it gives a win in {given} plies; {better} gives a win in \
         {best} plies",
        wrong.notation
    );
    assert!(text.contains(&wanted), "{wanted}\n{text}");
    assert!(
        text.contains(&format!("{:<10}red ", "ply 1:"))
            && text.contains(": proven optimal, a win in"),
        "{text}"
    );
    assert!(
        matches!(v.optimality, Optimality::Suboptimal(n, _) if n == turn + 2),
        "{v}"
    );
    assert!(!v.passed());
}

/// The three boards of issue 23 and the solver's lines for them (aa31085, default options), each
/// with the ply `verify --max-seconds 300` refutes and the text of that ply's verdict.
const ISSUE_23: [(&str, usize, &str); 3] = [
    (
        "left",
        3,
        "red 19-23: refuted, it gives a win in 31 plies; 19-15 gives a win in 29 plies",
    ),
    (
        "middle",
        3,
        "red 5-1: refuted, it gives a loss in 12 plies; 3-8 gives a loss in 20 plies",
    ),
    (
        "right",
        4,
        "black 29-25: refuted, it gives a win in 25 plies; 14-10 gives a win in 23 plies",
    ),
];

/// `verify` at `--max-seconds 300` refutes today's lines for the three boards of issue 23, at
/// the ply named. The budget is in positions, so the verdicts are the same on any machine.
#[test]
#[ignore = "two minutes of CPU and 3 GB: run with cargo test --test engine -- --ignored verify_refutes"]
fn verify_refutes_the_issue_23_lines() {
    let dir = manifest().join("tests/data/refuted");
    for (name, ply, text) in ISSUE_23 {
        let puzzle =
            parse_board(&fs::read(dir.join(format!("{name}.txt"))).expect("board")).expect(name);
        let states =
            parse_solution(&fs::read(dir.join(format!("{name}.solution.txt"))).expect("line"))
                .expect(name);
        assert_eq!(states.first(), Some(&puzzle));
        let judged = judge(&states, budget_limits(300, 5000 << 20), None, None, "");
        let (optimality, plies) = (judged.optimality, judged.plies);
        let Optimality::Suboptimal(state, _) = optimality else {
            panic!("{name}: {optimality:?}");
        };
        assert_eq!(state, ply + 1, "{name}: {optimality:?}");
        let report = &plies[ply - 1];
        assert_eq!(report.verdict.kind, MoveKind::Refuted, "{name}");
        assert_eq!(report.to_string(), text, "{name}");
    }
}

/// `verify --egdb DIR` reads the databases through their probe: a line of 3 pieces is then
/// decided with no position expanded, with the same verdict as the analyser's own analysis.
#[test]
fn the_databases_answer_the_analysis_when_asked() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let store = dir.path().join("egdb");
    let checkers = || {
        let mut cmd = assert_cmd::Command::cargo_bin("checkers").expect("binary");
        cmd.env("CHECKERS_EGDB", "/nonexistent/checkers-egdb-test");
        cmd
    };
    let built = checkers()
        .args(["egdb", "build", "--pieces", "3", "--egdb"])
        .arg(&store)
        .output()
        .expect("runs");
    assert!(built.status.success(), "{built:?}");
    let name = "kings-2v1-double-corner.txt";
    let verify = |extra: &[&std::ffi::OsStr]| {
        let out = checkers()
            .args(["verify", "--inputfile"])
            .arg(manifest().join("puzzles").join(name))
            .arg("--solution")
            .arg(manifest().join("expected").join(name))
            .args(extra)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let own = verify(&[]);
    let with = verify(&["--egdb".as_ref(), store.as_os_str()]);
    let verdicts = |text: &str| {
        text.lines()
            .filter(|l| !l.starts_with("analysis:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(verdicts(&own), verdicts(&with));
    assert!(own.contains("optimal:  yes"), "{own}");
    assert!(!own.contains("analysis: 0 positions"), "{own}");
    assert!(with.contains("analysis: 0 positions"), "{with}");
    checkers()
        .args(["verify", "--egdb", "/nonexistent/egdb", "--inputfile"])
        .arg(manifest().join("puzzles").join(name))
        .arg("--solution")
        .arg(manifest().join("expected").join(name))
        .assert()
        .code(2);
}
