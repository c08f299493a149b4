//! Measures the reachable-only analysis of one puzzle: positions, time, and the value.
//!
//! `cargo run --release --example reach_stats -- PUZZLE.txt`

use std::time::Instant;

use checkers::formats::input;
use checkers::search::endgame::EndgameDb;

fn main() -> anyhow::Result<()> {
    let path = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: reach_stats PUZZLE"))?;
    let pos = input::read_puzzle(std::path::Path::new(&path), None)?;
    let mut db = EndgameDb::default();
    println!("slots to build: {}", db.slots_to_build(&pos));
    let started = Instant::now();
    let done = db.analyse_reachable(&pos, None);
    println!(
        "analysed: {done:?} {} positions in {:.2} s; value {:?}",
        db.positions(),
        started.elapsed().as_secs_f64(),
        db.score(&pos, 0)
    );
    Ok(())
}
