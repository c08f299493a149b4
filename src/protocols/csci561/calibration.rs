//! `calibration.txt`: how fast this machine searches, written once by `checkers calibrate` and
//! read by the agent when present.
//!
//! ```text
//! csci561-calibration 1
//! nodes_per_second 2150000
//! ```
//!
//! The agent turns each move's CPU-time limit into a node budget with it too, so the search
//! stops in time even where the CPU clock cannot be read often or precisely.

use std::time::Duration;

use crate::play::{Clock, Engine, EngineOptions, Game};
use crate::rules::draw::DrawRule;
use crate::rules::piece::Color;
use crate::rules::position::Position;

/// The file's name in the agent's folder.
pub const CALIBRATION_FILE: &str = "calibration.txt";

/// First line of the file, with its format version.
const HEADER: &str = "csci561-calibration 1";

/// Slowest and fastest search speeds believed (nodes per second).
const SPEED_RANGE: std::ops::RangeInclusive<u64> = 1_000..=1_000_000_000;

/// The measured speed of the engine on this machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Calibration {
    /// Nodes searched per second of CPU time, single-threaded.
    pub nodes_per_second: u64,
}

impl Calibration {
    /// The text of the file.
    #[must_use]
    pub fn to_text(&self) -> String {
        format!("{HEADER}\nnodes_per_second {}\n", self.nodes_per_second)
    }

    /// Reads the file's text; `None` when it is not a calibration file or the speed is not
    /// believable.
    #[must_use]
    pub fn parse(text: &str) -> Option<Calibration> {
        let mut lines = text.lines().map(str::trim);
        if lines.next()? != HEADER {
            return None;
        }
        let speed = lines
            .next()?
            .strip_prefix("nodes_per_second ")?
            .parse::<u64>()
            .ok()
            .filter(|n| SPEED_RANGE.contains(n))?;
        Some(Calibration {
            nodes_per_second: speed,
        })
    }

    /// The node budget that `time` of CPU allows.
    #[must_use]
    pub fn nodes_for(&self, time: Duration) -> u64 {
        ((self.nodes_per_second as f64) * time.as_secs_f64()).max(1.0) as u64
    }

    /// Measures the engine's speed: searches the start position and a middle-game position for
    /// `time` of CPU time in all, single-threaded.
    #[must_use]
    pub fn measure(time: Duration) -> Calibration {
        let start = Position::start().with_side_to_move(Color::Black);
        let mut game = Game::new(start, DrawRule::Csci561);
        // A few plies in, so the second search sees a less symmetric board.
        for _ in 0..6 {
            let Some(&mv) = game.legal_moves().first() else {
                break;
            };
            if game.play(mv).is_err() {
                break;
            }
        }
        let mut nodes = 0u64;
        let mut spent = Duration::ZERO;
        for game in [Game::new(start, DrawRule::Csci561), game] {
            let mut engine = Engine::new(EngineOptions::default());
            let clock = Clock::per_move(time / 2).with_cpu_time();
            if let Some(t) = engine.think(&game, &clock) {
                nodes += t.nodes;
                spent += t.elapsed;
            }
        }
        let secs = spent.as_secs_f64().max(1e-3);
        let speed = (nodes as f64 / secs) as u64;
        Calibration {
            nodes_per_second: speed.clamp(*SPEED_RANGE.start(), *SPEED_RANGE.end()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_junk() {
        let c = Calibration {
            nodes_per_second: 1_234_567,
        };
        assert_eq!(Calibration::parse(&c.to_text()), Some(c));
        assert_eq!(c.nodes_for(Duration::from_millis(500)), 617_283);
        for junk in [
            "",
            "nodes_per_second 5",
            "csci561-calibration 1\nnodes_per_second -4",
            "csci561-calibration 1\nnodes_per_second 3",
            "csci561-calibration 1\nspeed 30000",
        ] {
            assert_eq!(Calibration::parse(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn measures_a_believable_speed() {
        let c = Calibration::measure(Duration::from_millis(100));
        assert!(SPEED_RANGE.contains(&c.nodes_per_second));
    }
}
