//! Player specifications as written on the command line: `random`, `random:seed=3`,
//! `minimax:4`, `engine`, `engine:time=0.1`, `engine:nodes=20000`, `engine:depth=8`,
//! `engine:timing=early` (options joined by commas: `engine:nodes=5000,depth=6`).

use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

use super::clock::TimeUse;
use super::engine::{Engine, EngineOptions};
use super::player::{MinimaxPlayer, Player, RandomPlayer};
use crate::search::eval::{Evaluator, Weights};

/// A parsed player specification, from which players are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves from a seeded generator.
    Random {
        /// The generator's seed.
        seed: u64,
    },
    /// Plain minimax to a fixed depth with a material evaluation.
    Minimax {
        /// Plies searched.
        depth: u32,
    },
    /// The engine with its options.
    Engine(EngineOptions),
}

/// Why a player specification could not be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SpecError {
    /// The part before `:` names no player.
    #[error("unknown player `{0}`: expected random, minimax:DEPTH or engine[:OPTIONS]")]
    UnknownPlayer(String),
    /// An option is not known for this player.
    #[error("`{spec}`: unknown option `{option}` (known: {known})")]
    UnknownOption {
        /// The whole specification.
        spec: String,
        /// The option.
        option: String,
        /// The options this player knows.
        known: &'static str,
    },
    /// An option's value is not valid.
    #[error("`{spec}`: bad value for `{option}`: {reason}")]
    BadValue {
        /// The whole specification.
        spec: String,
        /// The option.
        option: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// Deepest minimax accepted (plain minimax grows by a factor of about eight per ply).
pub const MAX_MINIMAX_DEPTH: u32 = 12;

impl PlayerSpec {
    /// A new player for this specification. `game_index` varies the random player's seed from
    /// game to game (seed + index), so a match does not replay one game.
    #[must_use]
    pub fn build(&self, game_index: u64) -> Box<dyn Player> {
        match self {
            PlayerSpec::Random { seed } => {
                Box::new(RandomPlayer::new(seed.wrapping_add(game_index)))
            }
            PlayerSpec::Minimax { depth } => Box::new(MinimaxPlayer::new(*depth)),
            PlayerSpec::Engine(options) => Box::new(Engine::new(options.clone())),
        }
    }

    /// Whether players of this spec choose their moves regardless of time (given the game), so a
    /// match between such players repeats exactly.
    #[must_use]
    pub fn is_deterministic(&self) -> bool {
        match self {
            PlayerSpec::Random { .. } | PlayerSpec::Minimax { .. } => true,
            PlayerSpec::Engine(o) => {
                o.move_time.is_none() && (o.nodes.is_some() || o.depth.is_some())
            }
        }
    }
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(spec: &str) -> Result<PlayerSpec, SpecError> {
        let (name, rest) = match spec.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (spec, None),
        };
        let options = || rest.into_iter().flat_map(|r| r.split(','));
        let bad = |option: &str, reason: String| SpecError::BadValue {
            spec: spec.to_owned(),
            option: option.to_owned(),
            reason,
        };
        let unknown = |option: &str, known| SpecError::UnknownOption {
            spec: spec.to_owned(),
            option: option.to_owned(),
            known,
        };
        match name {
            "random" => {
                let mut seed = 1;
                for opt in options() {
                    match opt.split_once('=') {
                        Some(("seed", v)) => {
                            seed = v.parse().map_err(|e| bad("seed", format!("`{v}`: {e}")))?;
                        }
                        _ => return Err(unknown(opt, "seed=N")),
                    }
                }
                Ok(PlayerSpec::Random { seed })
            }
            "minimax" => {
                let text = match rest {
                    Some(r) => r.strip_prefix("depth=").unwrap_or(r),
                    None => return Err(bad("depth", "missing: write minimax:DEPTH".to_owned())),
                };
                let depth: u32 = text
                    .parse()
                    .map_err(|e| bad("depth", format!("`{text}`: {e}")))?;
                if !(1..=MAX_MINIMAX_DEPTH).contains(&depth) {
                    return Err(bad(
                        "depth",
                        format!("{depth} is not between 1 and {MAX_MINIMAX_DEPTH}"),
                    ));
                }
                Ok(PlayerSpec::Minimax { depth })
            }
            "engine" => {
                let mut o = EngineOptions {
                    egdb: super::engine::default_egdb(),
                    ..EngineOptions::default()
                };
                for opt in options() {
                    const KNOWN: &str = "time=SECONDS, nodes=N, depth=N, table=MIB, contempt=N, \
                         egdb=DIR|none, eval=hand|trained|net, weights=FILE, timing=all|early, futility=N, futility_depth=N, reduction=N, horizon_table=0|1, or (after \
                         eval=hand) a hand-set evaluation weight such as back_rank=N";
                    let Some((key, v)) = opt.split_once('=') else {
                        return Err(unknown(opt, KNOWN));
                    };
                    let ranged = |v: &str, lo: i32, hi: i32| -> Result<i32, SpecError> {
                        v.parse::<i32>()
                            .ok()
                            .filter(|n| (lo..=hi).contains(n))
                            .ok_or_else(|| bad(key, format!("`{v}` is not between {lo} and {hi}")))
                    };
                    let int = |v: &str| -> Result<u64, SpecError> {
                        v.parse::<u64>()
                            .map_err(|e| bad(key, format!("`{v}`: {e}")))
                    };
                    match key {
                        "time" => {
                            let secs: f64 =
                                v.parse().map_err(|e| bad(key, format!("`{v}`: {e}")))?;
                            if !(secs.is_finite() && secs > 0.0 && secs < 1e6) {
                                return Err(bad(
                                    key,
                                    format!("`{v}` is not a positive number of seconds"),
                                ));
                            }
                            o.move_time = Some(Duration::from_secs_f64(secs));
                        }
                        "nodes" => {
                            let n = int(v)?;
                            if n == 0 {
                                return Err(bad(key, "must be at least 1".to_owned()));
                            }
                            o.nodes = Some(n);
                        }
                        "depth" => {
                            let d = int(v)?;
                            if !(1..=200).contains(&d) {
                                return Err(bad(key, format!("{d} is not between 1 and 200")));
                            }
                            o.depth = Some(d as u32);
                        }
                        "table" => {
                            let mb = int(v)?;
                            if !(1..=4096).contains(&mb) {
                                return Err(bad(
                                    key,
                                    format!("{mb} MiB is not between 1 and 4096"),
                                ));
                            }
                            o.search.table_mb = mb as usize;
                        }
                        "egdb" => {
                            o.egdb = (v != "none").then(|| std::path::PathBuf::from(v));
                        }
                        "timing" => {
                            o.time_use = match v {
                                "all" => TimeUse::All,
                                "early" => TimeUse::Early,
                                _ => return Err(bad(key, format!("`{v}` is not all or early"))),
                            };
                        }
                        "eval" => {
                            o.search.evaluator = match v {
                                "hand" => Evaluator::Hand(Weights::default()),
                                "trained" => {
                                    Evaluator::shipped().map_err(|e| bad(key, e.to_string()))?
                                }
                                "net" => {
                                    Evaluator::shipped_net().map_err(|e| bad(key, e.to_string()))?
                                }
                                _ => {
                                    return Err(bad(
                                        key,
                                        format!("`{v}` is not hand, trained or net"),
                                    ))
                                }
                            };
                        }
                        "weights" => {
                            o.search.evaluator = Evaluator::from_file(std::path::Path::new(v))
                                .map_err(|e| bad(key, e.to_string()))?;
                        }
                        "futility" => o.search.futility = ranged(v, 0, 1000)?,
                        "futility_depth" => o.search.futility_depth = ranged(v, 1, 8)?,
                        "reduction" => o.search.reduction = ranged(v, 50, 1000)? as u32,
                        "horizon_table" => o.search.horizon_table = ranged(v, 0, 1)? == 1,
                        "contempt" => o.search.contempt = ranged(v, -1000, 1000)?,
                        _ => {
                            let weight = o.search.evaluator.weights_mut();
                            let Some(weight) = weight.and_then(|w| w.get_mut(key)) else {
                                return Err(unknown(opt, KNOWN));
                            };
                            *weight = ranged(v, -1000, 1000)?;
                        }
                    }
                }
                Ok(PlayerSpec::Engine(o))
            }
            _ => Err(SpecError::UnknownPlayer(name.to_owned())),
        }
    }
}

impl std::fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerSpec::Random { seed } => write!(f, "random:seed={seed}"),
            PlayerSpec::Minimax { depth } => write!(f, "minimax:{depth}"),
            PlayerSpec::Engine(o) => f.write_str(&Engine::new_name(o)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind() {
        assert_eq!("random".parse(), Ok(PlayerSpec::Random { seed: 1 }));
        assert_eq!("random:seed=3".parse(), Ok(PlayerSpec::Random { seed: 3 }));
        assert_eq!("minimax:4".parse(), Ok(PlayerSpec::Minimax { depth: 4 }));
        let Ok(PlayerSpec::Engine(o)) = "engine:time=0.1,nodes=500,depth=7".parse() else {
            panic!("engine spec not parsed");
        };
        assert_eq!(o.move_time, Some(Duration::from_millis(100)));
        assert_eq!(o.nodes, Some(500));
        assert_eq!(o.depth, Some(7));
        assert!(matches!("engine".parse(), Ok(PlayerSpec::Engine(_))));
        let Ok(PlayerSpec::Engine(o)) = "engine:timing=early".parse() else {
            panic!("engine spec not parsed");
        };
        assert_eq!(o.time_use, TimeUse::Early);
        let Ok(PlayerSpec::Engine(mut o)) =
            "engine:futility=0,futility_depth=2,reduction=200,horizon_table=1".parse()
        else {
            panic!("engine spec not parsed");
        };
        assert_eq!(
            (
                o.search.futility,
                o.search.futility_depth,
                o.search.reduction,
                o.search.horizon_table
            ),
            (0, 2, 200, true)
        );
        o.egdb = None;
        assert_eq!(
            PlayerSpec::Engine(o).to_string(),
            "engine:futility=0,futility_depth=2,reduction=200,horizon_table=1"
        );
    }

    #[test]
    fn rejects_bad_specs_clearly() {
        for (text, needle) in [
            ("alphazero", "unknown player"),
            ("minimax", "missing"),
            ("minimax:x", "depth"),
            ("minimax:0", "between"),
            ("random:sed=1", "unknown option"),
            ("engine:time=-1", "positive"),
            ("engine:time=nan", "positive"),
            ("engine:nodes=0", "at least 1"),
            ("engine:speed=9", "unknown option"),
            ("engine:depth", "unknown option"),
            ("engine:eval=neural", "hand, trained or net"),
            ("engine:timing=late", "all or early"),
            ("engine:futility=-1", "between 0 and 1000"),
            ("engine:reduction=10", "between 50 and 1000"),
            ("engine:futility_depth=9", "between 1 and 8"),
            ("engine:horizon_table=2", "between 0 and 1"),
            ("engine:weights=/nonexistent/w.ckw", "/nonexistent/w.ckw"),
        ] {
            let err = text.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn display_round_trips() {
        for text in [
            "random:seed=9",
            "minimax:3",
            "engine",
            "engine:nodes=100,depth=4",
            "engine:nodes=100,eval=hand",
            "engine:eval=hand,back_rank=30",
            "engine:timing=early",
        ] {
            let spec: PlayerSpec = text.parse().unwrap();
            assert_eq!(spec.to_string().parse::<PlayerSpec>(), Ok(spec));
        }
    }
}
