//! The engine's move generator against the naive reference generator of `tests/rules/reference.rs`, on the
//! public puzzles: perft counts and full successor sets, with routes counted both ways.
//!
//! The reference is first checked against the published start-position counts (OEIS A133046), so
//! a bug it shared with the engine would still show up there.

use crate::reference;

use std::path::{Path, PathBuf};

use crate::reference::{multiset, Board};
use checkers::formats::board_text::parse_board;
use checkers::rules::movegen::{self, Routes};
use checkers::rules::perft::perft;
use checkers::{MoveList, Position};

/// The public puzzles, copied into the repository (tests/data/public/SOURCES.md).
fn puzzles_dir() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/public")).to_path_buf()
}

fn puzzle(name: &str) -> Position {
    let path = puzzles_dir().join(format!("{name}.txt"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_board(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every puzzle input `pNN.txt` (not the expected solutions), sorted by name.
fn all_puzzles() -> Vec<(String, Position)> {
    let mut names: Vec<String> = std::fs::read_dir(puzzles_dir())
        .expect("puzzles-public is readable")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.len() == 7 && n.starts_with('p') && n.ends_with(".txt"))
        .map(|n| n.trim_end_matches(".txt").to_string())
        .collect();
    names.sort();
    assert!(
        names.len() >= 52,
        "expected the 52 public puzzles, found {}",
        names.len()
    );
    names.into_iter().map(|n| (n.clone(), puzzle(&n))).collect()
}

/// The engine's successors of `pos`, one per generated move, as reference boards.
fn engine_successors(pos: &Position, routes: Routes) -> Vec<Board> {
    let mut list = MoveList::new();
    movegen::generate(pos, routes, &mut list);
    list.iter()
        .map(|&mv| Board::from_position(&pos.play(mv)))
        .collect()
}

/// Compares the successor multisets (all routes) and sets (distinct) of every position reachable
/// in fewer than `depth` plies; returns how many positions were compared.
fn compare_tree(name: &str, pos: &Position, depth: u32) -> u64 {
    let reference = Board::from_position(pos);
    let want_all = multiset(reference.successors());
    let got_all = multiset(engine_successors(pos, Routes::All));
    assert_eq!(
        got_all,
        want_all,
        "{name}: successors (all routes) differ from the reference at\n{}",
        reference.text()
    );
    let got_distinct = engine_successors(pos, Routes::Distinct);
    let mut sorted = got_distinct.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        got_distinct.len(),
        "{name}: Routes::Distinct lists a successor twice at\n{}",
        reference.text()
    );
    assert_eq!(
        sorted,
        reference.distinct_successors(),
        "{name}: distinct successors differ from the reference at\n{}",
        reference.text()
    );
    let mut compared = 1;
    if depth > 1 {
        for &mv in &movegen::legal_moves(pos) {
            compared += compare_tree(name, &pos.play(mv), depth - 1);
        }
    }
    compared
}

/// The standard start, written out: black men on the dark cells of rows 1-3 (squares 1-12), red
/// men on those of rows 6-8 (squares 21-32).
const START: &str = "\
.b.b.b.b
b.b.b.b.
.b.b.b.b
........
........
r.r.r.r.
.r.r.r.r
r.r.r.r.
";

/// Published perft of the start position, OEIS A133046, depths 1-7.
const PUBLISHED: [u64; 7] = [7, 49, 302, 1469, 7361, 36768, 179_740];

/// The reference itself reproduces the published perft of the start position, so it is a
/// trustworthy yardstick for the engine.
#[test]
fn reference_matches_published_start_counts() {
    let start = Board::from_position(&parse_board(START.as_bytes()).expect("start parses"));
    for (i, &count) in PUBLISHED.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(
            reference::perft(&start, depth, true),
            count,
            "depth {depth}"
        );
    }
}

/// The engine's perft from the start board read from text (not `Position::start()`) matches the
/// published counts too.
#[test]
fn engine_perft_from_the_written_start_matches_published_counts() {
    let start = parse_board(START.as_bytes()).expect("start parses");
    for (i, &count) in PUBLISHED.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft(&start, depth, Routes::All), count, "depth {depth}");
    }
}

/// Legal move generation (every rule at once): on every public puzzle, and on every position
/// reachable from it in two plies, the engine's successors are exactly the reference's, with the
/// same number of routes per successor and with `Routes::Distinct` listing each once.
#[test]
fn successor_sets_match_reference_on_all_puzzles() {
    let mut compared = 0;
    for (name, pos) in all_puzzles() {
        compared += compare_tree(&name, &pos, 3);
    }
    assert!(compared > 1000, "only {compared} positions compared");
}

/// Perft counts, both route modes, against the reference on puzzles with kings, multi-jumps and
/// (p07, p27, p30, p41) pieces on light cells.
#[test]
fn perft_matches_reference_on_puzzles() {
    for (name, max_depth) in [
        ("p03", 7),
        ("p05", 7),
        ("p06", 6),
        ("p07", 8),
        ("p27", 6),
        ("p30", 5),
        ("p41", 5),
    ] {
        let pos = puzzle(name);
        let board = Board::from_position(&pos);
        for depth in 1..=max_depth {
            assert_eq!(
                perft(&pos, depth, Routes::All),
                reference::perft(&board, depth, true),
                "{name} depth {depth}, all routes"
            );
            assert_eq!(
                perft(&pos, depth, Routes::Distinct),
                reference::perft(&board, depth, false),
                "{name} depth {depth}, distinct"
            );
        }
    }
}

/// Perft at depth 1 and `count_moves` agree with the generated list on every puzzle position
/// reachable in three plies (the bulk count must not drift from the generator).
#[test]
fn count_moves_agrees_with_generate() {
    fn walk(pos: &Position, depth: u32) {
        for routes in [Routes::All, Routes::Distinct] {
            let mut list = MoveList::new();
            movegen::generate(pos, routes, &mut list);
            assert_eq!(movegen::count_moves(pos, routes), list.len() as u64);
            assert_eq!(perft(pos, 1, routes), list.len() as u64);
        }
        if depth > 0 {
            for &mv in &movegen::legal_moves(pos) {
                walk(&pos.play(mv), depth - 1);
            }
        }
    }
    for (_, pos) in all_puzzles() {
        walk(&pos, 3);
    }
}
