//! Benchmarking a folder of puzzles against the course's marking bands.
//!
//! Each puzzle is solved on its own (own table, own clock) so that running several in parallel
//! does not change any one's result; only its wall time can grow when cores are shared.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;
use serde::Serialize;

use crate::formats::files::{self, InputError};
use crate::rules::game::Outcome;
use crate::search::solve::{self, SolveOptions};

/// A marking band of the course: the share of the marks a run of this duration earns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Band {
    /// Under 1 minute: 60%.
    Full,
    /// Under 2 minutes: 45%.
    Reduced,
    /// Under 4 minutes: 30%.
    Late,
    /// 4 minutes or more: nothing.
    None,
}

impl Band {
    /// The band of a run that took `time`.
    #[must_use]
    pub fn of(time: Duration) -> Band {
        match time.as_secs_f64() {
            t if t < 60.0 => Band::Full,
            t if t < 120.0 => Band::Reduced,
            t if t < 240.0 => Band::Late,
            _ => Band::None,
        }
    }

    /// The band's label, with its share of the marks.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Band::Full => "<1 min (60%)",
            Band::Reduced => "<2 min (45%)",
            Band::Late => "<4 min (30%)",
            Band::None => ">=4 min (0%)",
        }
    }
}

/// The measurements of one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRow {
    /// The puzzle file.
    pub puzzle: PathBuf,
    /// Pieces on the board.
    pub pieces: u32,
    /// "red wins", "black wins", "draw".
    pub result: String,
    /// Moves (plies) played.
    pub moves: usize,
    /// Whether the line is proven optimal.
    pub proven: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nodes_per_second: f64,
    /// Fraction of table probes that hit.
    pub tt_hit_rate: f64,
    /// Fraction of beta cutoffs made by the first move searched.
    pub first_move_cutoff_rate: f64,
    /// Seconds from reading the puzzle to the finished game.
    pub seconds: f64,
    /// Marking band of that time.
    pub band: Band,
}

/// Puzzle files under `paths`: files as given, folders searched (not recursively) for `*.txt`,
/// sorted by path so the table is in a stable order.
pub fn collect_puzzles(paths: &[PathBuf]) -> Result<Vec<PathBuf>, InputError> {
    let mut found = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries = std::fs::read_dir(path).map_err(|source| InputError::Io {
                path: path.clone(),
                source,
            })?;
            let mut txt: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "txt"))
                .collect();
            txt.sort();
            found.extend(txt);
        } else {
            found.push(path.clone());
        }
    }
    Ok(found)
}

/// Solves one puzzle and measures it.
pub fn bench_one(path: &Path, options: &SolveOptions) -> Result<BenchRow, InputError> {
    let started = std::time::Instant::now();
    let puzzle = files::read_puzzle(path)?;
    let solution = solve::solve(puzzle, options);
    let seconds = started.elapsed().as_secs_f64();
    let stats = solution.stats;
    let result = match solution.outcome {
        Outcome::Win(c) => format!("{} wins", c.name()),
        Outcome::DrawByRepetition | Outcome::DrawByFiftyMoves => "draw".to_string(),
    };
    Ok(BenchRow {
        puzzle: path.to_path_buf(),
        pieces: puzzle.occupied().count(),
        result,
        moves: solution.moves(),
        proven: solution.proven,
        nodes: stats.nodes,
        nodes_per_second: stats.nodes as f64 / seconds.max(1e-9),
        tt_hit_rate: solution.tt_hit_rate,
        first_move_cutoff_rate: if stats.cutoffs == 0 {
            0.0
        } else {
            stats.first_move_cutoffs as f64 / stats.cutoffs as f64
        },
        seconds,
        band: Band::of(Duration::from_secs_f64(seconds)),
    })
}

/// Solves every puzzle in parallel on the current rayon pool, calling `done` after each one.
/// Rows come back in the order of `puzzles`.
pub fn bench_all(
    puzzles: &[PathBuf],
    options: &SolveOptions,
    done: &(dyn Fn() + Sync),
) -> Vec<Result<BenchRow, InputError>> {
    puzzles
        .par_iter()
        .map(|p| {
            let row = bench_one(p, options);
            done();
            row
        })
        .collect()
}

/// The rows as an aligned text table with a totals line.
#[must_use]
pub fn format_table(rows: &[BenchRow]) -> String {
    let mut out = format!(
        "{:<34} {:>6} {:<11} {:>5} {:>6} {:>11} {:>9} {:>5} {:>5} {:>9}  {}\n",
        "puzzle",
        "pieces",
        "result",
        "moves",
        "proven",
        "nodes",
        "Mnodes/s",
        "tt%",
        "1st%",
        "time (s)",
        "band"
    );
    for r in rows {
        let name = r.puzzle.file_name().map_or_else(
            || r.puzzle.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        out.push_str(&format!(
            "{:<34} {:>6} {:<11} {:>5} {:>6} {:>11} {:>9.2} {:>5.0} {:>5.0} {:>9.3}  {}\n",
            name,
            r.pieces,
            r.result,
            r.moves,
            if r.proven { "yes" } else { "no" },
            r.nodes,
            r.nodes_per_second / 1e6,
            100.0 * r.tt_hit_rate,
            100.0 * r.first_move_cutoff_rate,
            r.seconds,
            r.band.label()
        ));
    }
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    let secs: f64 = rows.iter().map(|r| r.seconds).sum();
    let proven = rows.iter().filter(|r| r.proven).count();
    let full = rows.iter().filter(|r| r.band == Band::Full).count();
    out.push_str(&format!(
        "total: {} puzzles, {proven} proven, {full} in the top band, {nodes} nodes, {secs:.3} s \
         of solving, {:.2} Mnodes/s\n",
        rows.len(),
        nodes as f64 / secs.max(1e-9) / 1e6
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_follow_the_marking_scheme() {
        assert_eq!(Band::of(Duration::from_millis(3)), Band::Full);
        assert_eq!(Band::of(Duration::from_secs(60)), Band::Reduced);
        assert_eq!(Band::of(Duration::from_secs(119)), Band::Reduced);
        assert_eq!(Band::of(Duration::from_secs(239)), Band::Late);
        assert_eq!(Band::of(Duration::from_secs(240)), Band::None);
    }
}
