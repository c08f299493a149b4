//! Certification of the shipped expected solutions without the search: the independent
//! analyser (`checkers::analysis`, retrograde analysis or exhaustive bounded proof, with its own
//! move generator rather than the engine's) computes the exact value of every position, and each expected line must be valid, optimal move by move, and
//! exactly the canonical optimal line (ties broken by the smallest move in canonical order).

use std::fs;
use std::path::PathBuf;

use checkers::analysis::{check_line, optimal_line, Oracle, Value};
use checkers::formats::board_text::parse_solution;
use checkers::formats::files::read_puzzle;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn puzzles() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(manifest().join("puzzles"))
        .expect("puzzles/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_expected_line_is_certified_optimal_by_exhaustive_analysis() {
    let mut certified = 0;
    for puzzle in puzzles() {
        let name = puzzle
            .file_name()
            .and_then(|n| n.to_str())
            .expect("name")
            .to_string();
        let root = read_puzzle(&puzzle).expect("puzzle reads");
        let expected =
            parse_solution(&fs::read(manifest().join("expected").join(&name)).expect("expected"))
                .expect("expected parses");
        let mut oracle = Oracle::default();
        let value = oracle
            .value(&root)
            .expect("analysis fits")
            .expect("value decided");
        let report = check_line(&expected, &mut oracle).expect("check runs");
        assert!(report.is_ok(), "{name}: {:?}", report.fault);
        match value {
            Value::Win(n) | Value::Loss(n) => {
                assert_eq!(
                    expected.len() as u32,
                    n + 1,
                    "{name}: length is not the exact value"
                );
                let canonical = optimal_line(&root, &mut oracle).expect("line");
                assert_eq!(
                    expected, canonical,
                    "{name}: not the canonical optimal line"
                );
            }
            Value::Draw => {
                // A draw line is played by the solver's heuristics; check_line has verified that
                // every move keeps the draw and that the game ends at a third repetition.
            }
        }
        certified += 1;
    }
    assert!(certified >= 15, "only {certified} puzzles certified");
}

#[test]
fn course_lines_have_the_exact_optimal_length() {
    for n in 1..=8 {
        let name = format!("p{n:02}.txt");
        let root = read_puzzle(&manifest().join("puzzles").join(&name)).expect("puzzle");
        let course = parse_solution(
            &fs::read(manifest().join("expected/course").join(&name)).expect("course"),
        )
        .expect("parses");
        let mut oracle = Oracle::default();
        assert_eq!(
            course[0], root,
            "{name}: the course line starts from another board"
        );
        let report = check_line(&course, &mut oracle).expect("check runs");
        assert!(
            report.is_ok(),
            "{name}: course line rejected: {:?}",
            report.fault
        );
        assert_eq!(
            report.root_value,
            Some(Value::Win(course.len() as u32 - 1)),
            "{name}"
        );
    }
}
