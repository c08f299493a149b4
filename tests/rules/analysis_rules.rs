//! The analyser's own move generator (`checkers::analysis::rules`) against published perft
//! counts, against the engine's generator, and against the naive reference generator of
//! `tests/rules/reference.rs` (a third implementation, kept as a third opinion).
//!
//! The certificate is only independent of the engine if the analyser's rules are right on their
//! own: the published counts check them without any of the engine's code, and the two
//! comparisons check every move (origin, destination, captured cells) and every resulting board
//! on positions reached from all the public puzzles.

use crate::reference;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use checkers::analysis::rules::Board;
use checkers::formats::board_text::parse_board;
use checkers::rules::movegen::legal_moves;
use checkers::Position;

/// Perft from the standard start position, OEIS A133046 (`docs/rules.md`), depths 1 to 7.
const START_PERFT: [u64; 7] = [7, 49, 302, 1469, 7361, 36768, 179_740];

/// Leaf count of the analyser's generator: `depth` plies from `board`, one per distinct move.
fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    board
        .successors()
        .iter()
        .map(|child| perft(child, depth - 1))
        .sum()
}

#[test]
fn perft_from_the_start_matches_the_published_counts() {
    let start = Board::from_position(&Position::start());
    for (depth, &count) in (1..).zip(START_PERFT.iter()) {
        assert_eq!(perft(&start, depth), count, "perft({depth})");
    }
}

/// The public puzzles, copied into the repository (tests/data/public/SOURCES.md).
fn puzzles_dir() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/public")).to_path_buf()
}

/// Every puzzle input `pNN.txt`, sorted by name.
fn all_puzzles() -> Vec<(String, Position)> {
    let mut names: Vec<String> = std::fs::read_dir(puzzles_dir())
        .expect("tests/data/public")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.len() == 7 && n.starts_with('p') && n.ends_with(".txt"))
        .collect();
    names.sort();
    assert!(names.len() >= 52, "expected the 52 public puzzles");
    names
        .into_iter()
        .map(|file| {
            let bytes = std::fs::read(puzzles_dir().join(&file)).expect("puzzle reads");
            let pos = parse_board(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
            (file, pos)
        })
        .collect()
}

/// Checks the analyser's moves of `pos` against the engine's and the reference's.
fn compare(name: &str, pos: &Position) {
    let board = Board::from_position(pos);
    let text = reference::Board::from_position(pos).text();
    let moves = board.moves();

    // Each move once, in canonical order.
    assert!(
        moves.windows(2).all(|w| w[0].0 < w[1].0),
        "{name}: moves not strictly in canonical order at\n{text}"
    );

    // The engine: the same moves (origin, destination, captured cells) leading to the same
    // positions.
    let ours: Vec<((u8, u8, u64), Position)> = moves
        .iter()
        .map(|&(mv, after)| (mv.key(), after.to_position()))
        .collect();
    let mut engine: Vec<((u8, u8, u64), Position)> = legal_moves(pos)
        .iter()
        .map(|&mv| (mv.canonical_key(), pos.play(mv)))
        .collect();
    engine.sort_by_key(|&(key, _)| key);
    assert_eq!(ours, engine, "{name}: the engine disagrees at\n{text}");

    // The reference: the same set of resulting boards.
    let ours: BTreeSet<reference::Board> = moves
        .iter()
        .map(|(_, after)| reference::Board::from_position(&after.to_position()))
        .collect();
    let theirs: BTreeSet<reference::Board> = reference::Board::from_position(pos)
        .distinct_successors()
        .into_iter()
        .collect();
    assert_eq!(ours, theirs, "{name}: the reference disagrees at\n{text}");
}

/// Compares every position reachable from `pos` in fewer than `depth` plies; returns how many
/// positions were compared.
fn compare_tree(name: &str, pos: &Position, depth: u32) -> u64 {
    compare(name, pos);
    if depth <= 1 {
        return 1;
    }
    1 + Board::from_position(pos)
        .successors()
        .iter()
        .map(|child| compare_tree(name, &child.to_position(), depth - 1))
        .sum::<u64>()
}

#[test]
fn the_three_generators_agree_on_every_public_puzzle() {
    let mut compared = 0;
    for (name, pos) in all_puzzles() {
        compared += compare_tree(&name, &pos, 5);
    }
    // 95,288 positions today.
    assert!(compared > 50_000, "only {compared} positions compared");
}

/// The analyser must not use the engine's move code or the search (design.md, "The certificate:
/// what it is independent of"): no line of its sources outside comments names them.
#[test]
fn the_analyser_imports_no_engine_move_code() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src/analysis"));
    let forbidden = [
        "movegen",
        "rules::moves",
        "rules::game",
        "crate::search",
        "crate::Move",
        ".play(",
    ];
    let mut files = 0;
    for entry in std::fs::read_dir(dir).expect("src/analysis") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("source reads");
        files += 1;
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for name in forbidden {
                assert!(
                    !code.contains(name),
                    "{}:{}: the analyser uses `{name}`",
                    path.display(),
                    n + 1
                );
            }
        }
    }
    assert!(files >= 6, "only {files} files read");
}
