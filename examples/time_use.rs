//! How the engine spends a fixed time per move, measured in the thread's CPU time as
//! `checkers match` counts it: the engine plays itself from the three-move ballots and every
//! move's charge is compared with the clock's hard limit and with the time allowed.
//!
//! ```text
//! cargo run --release --example time_use -- [MS_PER_MOVE] [GAMES] [old]
//! ```
//!
//! Prints the share of the time used (mean and quantiles), the overshoot past the hard limit
//! (what the safety margin must cover: the poll interval, unwinding the search and returning the
//! move), moves over the time allowed, and the cost of a table growth, the one pause of the search
//! between two polls of the clock.

use std::time::Duration;

use checkers::matches::openings;
use checkers::play::{Budget, Clock, Engine, EngineOptions, Game, Player, TimeMeasure, TimeUse};
use checkers::rules::draw::DrawRule;
use checkers::search::score::Score;
use checkers::search::tt::{Bound, Entry, TranspositionTable};
use cpu_time::ThreadTime;

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((q * sorted.len() as f64) as usize).min(sorted.len() - 1)]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let ms: f64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20.0);
    let games: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(10);
    let old = args.get(3).is_some_and(|a| a == "old");
    let allowed = Duration::from_secs_f64(ms / 1000.0);
    let ballots = openings::parse_openings(openings::THREE_MOVE_BALLOTS).expect("the ballots");
    let options = EngineOptions {
        time_use: if old { TimeUse::Early } else { TimeUse::All },
        ..EngineOptions::default()
    };
    let mut used = Vec::new();
    let mut over_hard = Vec::new();
    let mut over = 0;
    for g in 0..games {
        let mut engine = Engine::new(options.clone());
        engine.new_game();
        let mut game = Game::new(checkers::Position::start(), DrawRule::Csci561);
        for &mv in &ballots[g % ballots.len()].moves {
            game.play(mv).expect("a ballot's move");
        }
        while game.outcome().is_none() && game.ply() < 300 {
            let clock = Clock::new(Budget::PerMove(allowed), TimeMeasure::ThreadCpu);
            let pos = game.current();
            let legal = game.legal_moves().len();
            let hard = engine.budget(&game, &clock).hard.unwrap_or(Duration::MAX);
            let thought = engine.think(&game, &clock).expect("a move");
            let spent = clock.elapsed();
            if legal > 1 {
                used.push(spent.as_secs_f64() / allowed.as_secs_f64());
                if spent >= hard {
                    over_hard.push((spent - hard).as_secs_f64() * 1e6);
                }
            }
            if spent > allowed {
                over += 1;
                eprintln!(
                    "game {g} ply {}: {spent:?} of {allowed:?} ({} pieces, depth {}, {} nodes)",
                    game.ply(),
                    pos.occupied().count(),
                    thought.depth,
                    thought.nodes
                );
            }
            game.play(thought.best).expect("a legal move");
        }
    }
    used.sort_by(f64::total_cmp);
    over_hard.sort_by(f64::total_cmp);
    let mean = used.iter().sum::<f64>() / used.len().max(1) as f64;
    println!(
        "{ms} ms a move, {games} games, {} moves with a choice: mean {:.1}% of the time, \
         p10 {:.1}% p50 {:.1}% p90 {:.1}% max {:.1}%; over the time allowed: {over}",
        used.len(),
        100.0 * mean,
        100.0 * quantile(&used, 0.1),
        100.0 * quantile(&used, 0.5),
        100.0 * quantile(&used, 0.9),
        100.0 * used.last().copied().unwrap_or(0.0),
    );
    if !over_hard.is_empty() {
        println!(
            "stopped at the hard limit: {} moves; overshoot past it p50 {:.0} us p99 {:.0} us \
             p99.9 {:.0} us max {:.0} us",
            over_hard.len(),
            quantile(&over_hard, 0.5),
            quantile(&over_hard, 0.99),
            quantile(&over_hard, 0.999),
            over_hard.last().copied().unwrap_or(0.0)
        );
    }
    // A table of the game search's default size filled from empty: the stores that grow it.
    let mut table = TranspositionTable::new(4);
    let mut key = 0x9E37_79B9_7F4A_7C15u64;
    let mut growths = Vec::new();
    for _ in 0..400_000 {
        key = key.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let before = table.bytes();
        let t = ThreadTime::now();
        table.store(
            key,
            Entry {
                score: Score(1),
                depth: 3,
                bound: Bound::Exact,
                best: Some(0),
            },
        );
        let cost = t.elapsed();
        if table.bytes() != before {
            growths.push(format!(
                "{} -> {} KiB: {cost:?}",
                before >> 10,
                table.bytes() >> 10
            ));
        }
    }
    println!("table growths: {}", growths.join(", "));
}
