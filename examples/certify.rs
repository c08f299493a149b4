//! Certifies puzzles with the independent analysis, and times it.
//!
//! Usage: `cargo run --release --example certify -- PUZZLE.txt [PUZZLE.txt ...]`.
//! For each puzzle: the exact value of the root, the length of the canonical optimal line, and
//! the verdict of `check_line` on the published `PUZZLE.expected.txt` next to it, if any.
//! Setting `MAX_POSITIONS` changes the oracle's limit for the full analysis (0 forces the
//! bounded search), `QUICK_BUDGET` the budget of its first bounded search (0 goes straight to the
//! full analysis).

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use checkers::analysis::{check_line, optimal_line, Oracle, OracleLimits, Value};
use checkers::formats::board_text::{parse_board, parse_solution};

fn main() {
    let total = Instant::now();
    for arg in std::env::args().skip(1) {
        let start = Instant::now();
        match certify(Path::new(&arg)) {
            Ok(summary) => println!("{arg}: {summary} [{:.2?}]", start.elapsed()),
            Err(e) => println!("{arg}: error: {e:#} [{:.2?}]", start.elapsed()),
        }
    }
    println!("total {:.2?}", total.elapsed());
}

/// The oracle's limits, with `MAX_POSITIONS` and `QUICK_BUDGET` from the environment if set.
fn limits() -> OracleLimits {
    let mut limits = OracleLimits::default();
    if let Some(n) = env_number("MAX_POSITIONS") {
        limits.max_positions = n;
    }
    if let Some(n) = env_number("QUICK_BUDGET") {
        limits.quick_budget = n;
    }
    limits
}

/// The number in the environment variable `name`, if it is set to one.
fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok()?.parse().ok()
}

/// One line of text about the puzzle at `path`.
fn certify(path: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path).context("reading the puzzle")?;
    let root = parse_board(&bytes).context("parsing the puzzle")?;
    let mut oracle = Oracle::new(limits());
    let Some(value) = oracle.value(&root)? else {
        return Ok("undecided within the limits".to_string());
    };
    let mut summary = value.to_string();
    if value == Value::Draw {
        return Ok(summary);
    }
    let line = optimal_line(&root, &mut oracle)?;
    summary += &format!("; optimal line {} states", line.len());
    let expected = path.with_extension("expected.txt");
    if let Ok(text) = std::fs::read(&expected) {
        let states = parse_solution(&text).context("parsing the expected solution")?;
        let report = check_line(&states, &mut oracle)?;
        summary += &match report.fault {
            None if states == line => "; expected: optimal, the canonical line".to_string(),
            None => "; expected: optimal, not the canonical line".to_string(),
            Some(fault) => format!("; expected: REJECTED: {fault}"),
        };
    }
    Ok(summary)
}
