//! Load for a DD2380 server: many clients at once, each playing standalone games against the
//! server's built-in player, then games per second, results, and the time the server took to
//! answer each move (from sending our move to its reply), as percentiles.
//!
//! ```text
//! cargo run --release --example dd2380_load -- 127.0.0.1 5555 --clients 200 --games 400
//! cargo run --release --example dd2380_load -- 127.0.0.1 5555 --clients 2 --games 20 --player engine:time=0.1
//! ```
//!
//! Every client plays its share of the games one after the other; `--player` is what the
//! clients play with (`random` by default, so the clients cost little and the server is what is
//! measured). Exits 1 if any game could not be played to its end.

use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use checkers::net::client::{connect_and_play, ClientOptions};
use checkers::play::spec::PlayerSpec;
use checkers::protocols::dd2380::{Mode, Verdict};

struct Args {
    host: String,
    port: u16,
    clients: usize,
    games: usize,
    player: PlayerSpec,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let host = it
        .next()
        .ok_or("usage: dd2380_load HOST PORT [--clients N] [--games N] [--player SPEC]")?;
    let port = it
        .next()
        .ok_or("missing PORT")?
        .parse()
        .map_err(|e| format!("PORT: {e}"))?;
    let mut args = Args {
        host,
        port,
        clients: 200,
        games: 400,
        player: PlayerSpec::Random { seed: 1 },
    };
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--clients" => args.clients = value.parse().map_err(|e| format!("--clients: {e}"))?,
            "--games" => args.games = value.parse().map_err(|e| format!("--games: {e}"))?,
            "--player" => args.player = value.parse().map_err(|e| format!("--player: {e}"))?,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if args.clients == 0 || args.games == 0 {
        return Err("--clients and --games must be at least 1".into());
    }
    Ok(args)
}

#[derive(Default)]
struct Tally {
    won: usize,
    lost: usize,
    drawn: usize,
    failed: Vec<String>,
    replies: Vec<Duration>,
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("dd2380_load: {e}");
            return ExitCode::from(2);
        }
    };
    let tally = Mutex::new(Tally::default());
    let start = Instant::now();
    std::thread::scope(|scope| {
        for c in 0..args.clients {
            let share = args.games / args.clients + usize::from(c < args.games % args.clients);
            let (args, tally) = (&args, &tally);
            scope.spawn(move || {
                for g in 0..share {
                    let mut player = args.player.build((c * 1000 + g) as u64);
                    let options = ClientOptions {
                        mode: Mode::Standalone,
                        read_timeout: Duration::from_secs(60),
                        ..ClientOptions::default()
                    };
                    let result = connect_and_play(
                        &args.host,
                        args.port,
                        &options,
                        player.as_mut(),
                        &mut std::io::sink(),
                    );
                    let Ok(mut t) = tally.lock() else { return };
                    match result {
                        Ok(o) => {
                            match o.verdict {
                                Verdict::Won => t.won += 1,
                                Verdict::Lost => t.lost += 1,
                                Verdict::Draw => t.drawn += 1,
                            }
                            t.replies.extend(o.reply_times);
                        }
                        Err(e) => t.failed.push(e.to_string()),
                    }
                }
            });
        }
    });
    let elapsed = start.elapsed();
    let Ok(mut t) = tally.into_inner() else {
        return ExitCode::from(1);
    };
    t.replies.sort();
    let pct = |p: f64| -> f64 {
        if t.replies.is_empty() {
            return 0.0;
        }
        let i = ((t.replies.len() as f64 * p).ceil() as usize).clamp(1, t.replies.len()) - 1;
        t.replies[i].as_secs_f64() * 1000.0
    };
    let played = t.won + t.lost + t.drawn;
    println!(
        "{played} games by {} clients with {} in {:.2} s: {:.1} games/s",
        args.clients,
        args.player,
        elapsed.as_secs_f64(),
        played as f64 / elapsed.as_secs_f64()
    );
    println!(
        "clients won {}, lost {}, drew {}; {} failed",
        t.won,
        t.lost,
        t.drawn,
        t.failed.len()
    );
    println!(
        "move replies: {} timed, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        t.replies.len(),
        pct(0.5),
        pct(0.99),
        pct(1.0)
    );
    for e in t.failed.iter().take(5) {
        println!("failed: {e}");
    }
    if t.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
