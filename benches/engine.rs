//! Criterion benchmarks of the engine: move generation, perft, whole-puzzle solving and the
//! endgame databases.
//!
//! Run with `cargo bench -p checkers-bench` (about two minutes on the project's 2-core machine).
//! Pass a filter to run one group, e.g. `cargo bench -p checkers-bench -- perft`.
//!
//! The groups go from the innermost loop outwards: `movegen` is the cost of one node's moves,
//! `perft` is move generation plus making moves over a whole tree, `solve` is what a user of the
//! binary waits for, and `endgame` is the retrograde analysis behind long endgames. A regression
//! shows up first in the group that owns it.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use checkers::rules::movegen::{self, Routes};
use checkers::rules::perft::perft;
use checkers::search::puzzle::solve::{solve, SolveOptions};
use checkers::{MoveList, Position};
use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};

/// The official course puzzles, by file stem.
const PUZZLES: [&str; 8] = ["p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08"];

/// Reads `puzzles/<stem>.txt` from the crate's own folder, so the bench runs from any directory.
fn puzzle(stem: &str) -> Position {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "puzzles",
        &format!("{stem}.txt"),
    ]
    .iter()
    .collect();
    checkers::formats::files::read_puzzle(&path)
        .unwrap_or_else(|e| panic!("cannot read puzzle {}: {e}", path.display()))
}

/// A position where the side to move must capture: p08 after the red move that leaves black the
/// most captures. No official puzzle starts with a capture, and jumps take a different, slower
/// path through the generator (piece-by-piece search instead of whole-board shifts).
fn capture_position() -> Position {
    let start = puzzle("p08");
    let mut moves = movegen::legal_moves(&start);
    moves.sort();
    moves
        .iter()
        .map(|&mv| start.play(mv))
        .filter(movegen::has_jump)
        .max_by_key(|pos| movegen::count_moves(pos, Routes::Distinct))
        .expect("some red move in p08 leaves black a capture")
}

/// `movegen`: the cost of listing (`generate`) and of only counting (`count_moves`) the legal moves
/// of a handful of fixed positions. Throughput is in moves, so positions with different numbers
/// of moves compare on the same scale. `generate` runs at every interior node of a search or a
/// perft, `count_moves` at every perft leaf; both are nanosecond-scale, so short runs suffice.
fn bench_movegen(c: &mut Criterion) {
    let mut positions = vec![("start", Position::start())];
    positions.extend(["p03", "p05", "p06", "p08"].map(|stem| (stem, puzzle(stem))));
    positions.push(("p08-capture", capture_position()));

    let mut group = c.benchmark_group("movegen");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    for (name, pos) in &positions {
        let mut list = MoveList::new();
        movegen::generate(pos, Routes::Distinct, &mut list);
        group.throughput(Throughput::Elements(list.len() as u64));
        group.bench_with_input(BenchmarkId::new("generate", name), pos, |b, pos| {
            b.iter(|| {
                movegen::generate(black_box(pos), Routes::Distinct, &mut list);
                black_box(list.len())
            });
        });
        let count = movegen::count_moves(pos, Routes::All);
        group.throughput(Throughput::Elements(count));
        group.bench_with_input(BenchmarkId::new("count_moves", name), pos, |b, pos| {
            b.iter(|| movegen::count_moves(black_box(pos), Routes::All));
        });
    }
    group.finish();
}

/// `perft`: single-threaded leaf counts from the start position, counting every capture route
/// (`Routes::All`, as the published counts do). This exercises move generation and making moves
/// together over a whole tree with no search logic; throughput is leaves per second. Depth 7 fits
/// in the caches, depth 9 is a longer run closer to the binary's `perft` command.
fn bench_perft(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("perft");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    // Published counts (OEIS A133046): a wrong generator must not be timed as if it were right.
    for (depth, expected) in [(7u32, 179_740u64), (9, 3_963_680)] {
        let leaves = perft(&start, depth, Routes::All);
        assert_eq!(leaves, expected, "perft {depth} from the start position");
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(BenchmarkId::from_parameter(depth), &depth, |b, &depth| {
            b.iter(|| perft(black_box(&start), depth, Routes::All));
        });
    }
    group.finish();
}

/// `solve`: the whole game of each official puzzle with the binary's default options, the figure
/// the course marks. Each iteration is a fresh solve, so it includes setting up the default
/// transposition table; results are deterministic because the budget is counted in nodes.
fn bench_solve(c: &mut Criterion) {
    let options = SolveOptions::default();
    let mut group = c.benchmark_group("solve");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    for stem in PUZZLES {
        let pos = puzzle(stem);
        group.bench_with_input(BenchmarkId::from_parameter(stem), &pos, |b, &pos| {
            b.iter(|| solve(black_box(pos), &options));
        });
    }
    group.finish();
}

/// `endgame`: building the databases of a pure king endgame from nothing (3 kings v 2, 5.8 M
/// index slots, what `puzzles/kings-3v2-double-corner.txt` needs) and playing its 51-ply game,
/// on the rayon pool's threads (`RAYON_NUM_THREADS=1` for one).
fn bench_endgame(c: &mut Criterion) {
    let options = SolveOptions::default();
    let mut group = c.benchmark_group("endgame");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    let pos = puzzle("kings-3v2-double-corner");
    group.bench_function("kings-3v2", |b| b.iter(|| solve(black_box(pos), &options)));
    group.finish();
}

criterion_group! {
    name = benches;
    // No gnuplot here and no HTML reports: the console summary is the output.
    config = Criterion::default().without_plots();
    targets = bench_movegen, bench_perft, bench_solve, bench_endgame
}
criterion_main!(benches);
