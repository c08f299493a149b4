//! `checkers server`: referee DD2380 games over TCP until Ctrl-C.

use std::net::{IpAddr, TcpListener};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

use checkers::net::server::{self, ServerConfig};
use checkers::play::spec::PlayerSpec;

use super::output;

/// Arguments of `server`.
#[derive(Debug, Args)]
pub struct ServerArgs {
    /// Address to listen on (`0.0.0.0` for every interface).
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: IpAddr,

    /// Port to listen on (0 for any free port; the chosen one is printed).
    #[arg(long, default_value_t = 5555)]
    pub port: u16,

    /// Seconds for each move.
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = parse_seconds)]
    pub move_time: Duration,

    /// Seconds for a client to answer the initialisation.
    #[arg(long, default_value = "20", value_name = "SECONDS", value_parser = parse_seconds)]
    pub init_time: Duration,

    /// Seconds the first client with a key waits for the second.
    #[arg(long, default_value = "120", value_name = "SECONDS", value_parser = parse_seconds)]
    pub pair_timeout: Duration,

    /// The built-in player of standalone games.
    #[arg(long, default_value = "minimax:2", value_name = "SPEC")]
    pub opponent: PlayerSpec,

    /// Write each finished game as a PDN file in this folder (created if missing).
    #[arg(long, value_name = "DIR")]
    pub log: Option<PathBuf>,

    /// Connections served at once.
    #[arg(long, default_value_t = 1024, value_name = "N")]
    pub max_connections: usize,

    /// Seed of the draw for who moves first (default: from the operating system).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Say nothing but the listening address.
    #[arg(long)]
    pub quiet: bool,
}

/// A positive number of seconds, at most a day.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "`{text}` is not a number of seconds between 0 and 86400"
        )),
    }
}

/// Serves until Ctrl-C, then lets the running games finish (a second Ctrl-C stops at once).
pub fn run(args: &ServerArgs) -> Result<ExitCode> {
    if let Some(dir) = &args.log {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the log folder {}", dir.display()))?;
    }
    let listener = TcpListener::bind((args.bind, args.port))
        .with_context(|| format!("cannot listen on {}:{}", args.bind, args.port))?;
    let addr = listener
        .local_addr()
        .context("cannot read the listening address")?;
    output::eprintln(&format!("server: listening on {addr}"))?;
    let config = ServerConfig {
        move_time: args.move_time,
        init_time: args.init_time,
        pair_timeout: args.pair_timeout,
        opponent: args.opponent.clone(),
        log_dir: args.log.clone(),
        max_connections: args.max_connections,
        seed: args.seed,
        verbose: !args.quiet,
        ..ServerConfig::default()
    };
    let stop = async {
        if tokio::signal::ctrl_c().await.is_err() {
            // No signal handling on this system: serve until killed.
            std::future::pending::<()>().await;
        }
        tokio::spawn(async {
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        });
    };
    let summary = server::run(listener, config, stop).context("the server failed")?;
    output::eprintln(&format!(
        "server: stopped after {} connections and {} games",
        summary.connections, summary.games
    ))?;
    Ok(ExitCode::SUCCESS)
}
