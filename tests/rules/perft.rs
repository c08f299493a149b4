//! Perft from the standard start position against the published counts (data file with source).

use checkers::rules::movegen::Routes;
use checkers::rules::perft::{perft, perft_parallel, PerftTable};
use checkers::Position;

/// (depth, count) pairs from `tests/data/perft-start.txt`.
fn published() -> Vec<(u32, u64)> {
    include_str!("../data/perft-start.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace();
            let d = it.next().and_then(|s| s.parse().ok()).expect("depth");
            let n = it.next().and_then(|s| s.parse().ok()).expect("count");
            (d, n)
        })
        .collect()
}

#[test]
fn start_position_to_depth_9() {
    let start = Position::start();
    let table = published();
    assert_eq!(table.len(), 12, "data file lost rows");
    for &(depth, count) in table.iter().filter(|(d, _)| *d <= 9) {
        assert_eq!(perft(&start, depth, Routes::All), count, "depth {depth}");
    }
}

#[test]
fn parallel_perft_agrees() {
    let start = Position::start();
    let table = PerftTable::new(16);
    for &(depth, count) in published().iter().filter(|(d, _)| *d <= 8) {
        assert_eq!(
            perft_parallel(&start, depth, Routes::All, &table),
            count,
            "depth {depth}"
        );
    }
}

/// Every published depth, 10 to 12 included, through the shared table of subtree counts (one
/// table for all depths, so later depths also read counts stored by earlier ones).
#[test]
fn cached_perft_matches_every_published_depth() {
    let start = Position::start();
    let table = PerftTable::new(64);
    for &(depth, count) in &published() {
        assert_eq!(
            perft_parallel(&start, depth, Routes::All, &table),
            count,
            "depth {depth}"
        );
    }
}
