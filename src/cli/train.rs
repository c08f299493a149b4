//! `checkers train`: fits the trained evaluation's weights (the tables, or with `--model net`
//! the tables and a network) to self-play data and writes a weights file (see docs/training.md).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Args;

use checkers::formats::files;
use checkers::search::eval::trained;
use checkers::training::dataset;
use checkers::training::net;
use checkers::training::train::{self, TrainConfig};

use super::output;

/// Arguments of `train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Data set folders written by `checkers selfplay` (or single chunk files), read in the
    /// order given. `DIR@K` says that the search scores recorded there count K per logit (45
    /// for data played with the hand-set evaluation); they are brought to the trained
    /// evaluation's 100 per logit.
    #[arg(long, value_name = "DIR[@K]", required = true, num_args = 1..)]
    pub data: Vec<String>,

    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,

    /// Passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().epochs)]
    pub epochs: u32,

    /// Positions per step.
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().batch)]
    pub batch: usize,

    /// Adam's step size (logits).
    #[arg(long = "learning-rate", value_name = "X", default_value_t = TrainConfig::default().learning_rate)]
    pub learning_rate: f64,

    /// Factor on the step size after each epoch.
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().decay)]
    pub decay: f64,

    /// L2 penalty per weight and step.
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().l2)]
    pub l2: f64,

    /// Share of each target taken from the recorded search score rather than the game's result
    /// (0 to 1; exact values from the databases are kept).
    #[arg(long = "score-weight", value_name = "X", default_value_t = TrainConfig::default().score_weight)]
    pub score_weight: f64,

    /// The search score worth one logit when turned into an expected score.
    #[arg(long = "score-scale", value_name = "X", default_value_t = TrainConfig::default().score_scale)]
    pub score_scale: f64,

    /// Seed of the shuffles (and of the network's first weights).
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().seed)]
    pub seed: u64,

    /// What to fit: `linear`, the tables (a `CKEV` file), or `net`, the tables and a network
    /// over the pieces together (a `CKNN` file, `engine:weights=FILE` reads either).
    #[arg(long, value_enum, default_value = "linear")]
    pub model: ModelArg,

    /// Start the tables from this weights file (a `CKEV` file) instead of zero: with `--model
    /// net` the network then learns what the tables miss.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,

    /// Adam's step size for the network's weights (`--model net`).
    #[arg(long = "net-learning-rate", value_name = "X", default_value_t = 0.002)]
    pub net_learning_rate: f64,

    /// Print only the last line.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The models `train` fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ModelArg {
    /// The trained tables.
    Linear,
    /// The tables and a network.
    Net,
}

/// Runs `train`.
pub fn run(args: &TrainArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let config = TrainConfig {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        decay: args.decay,
        l2: args.l2,
        seed: args.seed,
        score_weight: args.score_weight,
        score_scale: args.score_scale,
        ..TrainConfig::default()
    };
    let positive = |x: f64| x.is_finite() && x > 0.0;
    if !positive(config.learning_rate)
        || !positive(config.decay)
        || !(config.l2 == 0.0 || positive(config.l2))
        || !positive(args.net_learning_rate)
    {
        bail!("--learning-rate, --net-learning-rate and --decay must be positive, --l2 at least 0");
    }
    if !(0.0..=1.0).contains(&config.score_weight) || !positive(config.score_scale) {
        bail!("--score-weight must be between 0 and 1, --score-scale positive");
    }
    let init = match &args.init {
        Some(path) => Some(trained::TrainedWeights::from_file(path)?),
        None => None,
    };
    let mut records = Vec::new();
    for spec in &args.data {
        let (dir, scale) = match spec.rsplit_once('@') {
            Some((d, k)) => match k.parse::<f64>() {
                Ok(k) if k.is_finite() && k > 0.0 => (d, Some(k)),
                _ => bail!("--data {spec}: `{k}` is not a positive score scale"),
            },
            None => (spec.as_str(), None),
        };
        let mut part = dataset::read_all(&[PathBuf::from(dir)])?;
        if let Some(k) = scale {
            let one = f64::from(trained::EVAL_ONE);
            for r in &mut part {
                r.score = (f64::from(r.score) * one / k)
                    .round()
                    .clamp(-32767.0, 32767.0) as i16;
            }
        }
        records.extend(part);
    }
    let exact = records.iter().filter(|r| r.exact).count();
    let (training, held) = train::split(&records, &config);
    if training.is_empty() {
        bail!("no training positions in the data given");
    }
    if !args.quiet {
        eprintln!(
            "{} positions ({} labelled by the endgame databases): {} to train on, {} held out; read in {:.1} s",
            records.len(),
            exact,
            training.len(),
            held.len(),
            started.elapsed().as_secs_f64()
        );
        eprintln!(
            "held-out log-loss of a constant prediction: {:.5}",
            train::constant_loss(&training, &held)
        );
    }
    let fit_start = Instant::now();
    let mut report = |r: &train::EpochReport| {
        if !args.quiet {
            eprintln!(
                "epoch {:>3}: training log-loss {:.5}, held-out {:.5} ({:.1} s)",
                r.epoch,
                r.train_loss,
                r.held_out_loss,
                fit_start.elapsed().as_secs_f64()
            );
        }
    };
    let name = args.out.display().to_string();
    let (bytes, held_loss, int_loss) = match args.model {
        ModelArg::Linear => {
            let start = init
                .as_ref()
                .map_or_else(train::Model::zero, train::Model::from_weights);
            let model = train::fit_from(start, &training, &held, &config, &mut report);
            let weights = model.quantize(&name)?;
            let loss = train::quantized_loss(&weights, &records);
            (weights.to_bytes(), model.loss(&held), loss)
        }
        ModelArg::Net => {
            let model = net::fit(
                &training,
                &held,
                &config,
                args.net_learning_rate,
                init.as_ref(),
                &mut report,
            );
            let weights = model.quantize(&name)?;
            let loss = net::quantized_loss(&weights, &records);
            (weights.to_bytes(), model.loss(&held), loss)
        }
    };
    files::write_output(&args.out, &bytes)?;
    output::println(&format!(
        "wrote {} ({} positions, {} epochs, held-out log-loss {:.5}; integer evaluation over all positions {:.5}; {:.1} s)",
        args.out.display(),
        training.len(),
        config.epochs,
        held_loss,
        int_loss,
        started.elapsed().as_secs_f64()
    ))?;
    Ok(ExitCode::SUCCESS)
}
