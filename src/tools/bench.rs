//! Benchmarking a folder of puzzles against the course's marking bands.
//!
//! Each puzzle is solved on its own (own table, own clock) so that running several in parallel
//! does not change any one's result; only its wall time can grow when cores are shared.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::formats::files::{self, InputError};
use crate::search::puzzle::solve::{self, SolveOptions};

/// A marking band of the course: the share of the marks a run of this duration earns. Written
/// as its [`label`](Band::label) in JSON, the same text as in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

impl Serialize for Band {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.label())
    }
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
    /// Nodes per second, rounded.
    pub nodes_per_second: u64,
    /// Fraction of table probes that hit.
    pub tt_hit_rate: f64,
    /// Fraction of beta cutoffs made by the first move searched.
    pub first_move_cutoff_rate: f64,
    /// Seconds from reading the puzzle to the finished game.
    pub seconds: f64,
    /// Marking band of that time.
    pub band: Band,
}

/// A file of a folder that is not benchmarked, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// Why it is not taken as a puzzle.
    pub reason: String,
}

/// The puzzles chosen from the paths given, and the files of their folders left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Puzzle files, in the order given; each folder's in the order of their paths.
    pub puzzles: Vec<PathBuf>,
    /// Files of the folders that are not puzzles, with the reason.
    pub skipped: Vec<Skipped>,
}

/// Whether a file name marks a solution or a log rather than a puzzle: `*.expected*`,
/// `*.reflog*`, `*.solution*` or `*.out.txt`, the names used beside puzzles.
fn named_as_output(name: &str) -> bool {
    [".expected", ".reflog", ".solution", ".out.txt"]
        .iter()
        .any(|marker| name.contains(marker))
}

/// Chooses the puzzle files under `paths`.
///
/// A file given by name is always a puzzle (if it is not one, benchmarking it fails). A folder
/// is read as the user means it, not recursively: its files named `*.txt` whose contents are a
/// puzzle board are the puzzles, sorted by path; every other entry is skipped with the reason
/// (not `*.txt`, named as a solution or log, not a board, a sub-folder).
///
/// # Errors
/// A path that does not exist or a folder that cannot be listed.
pub fn collect_puzzles(paths: &[PathBuf]) -> Result<Selection, InputError> {
    let mut selection = Selection::default();
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|reason| InputError::Io {
            path: path.clone(),
            reason,
        })?;
        if !meta.is_dir() {
            selection.puzzles.push(path.clone());
            continue;
        }
        let entries = std::fs::read_dir(path).map_err(|reason| InputError::Io {
            path: path.clone(),
            reason,
        })?;
        let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for file in files {
            match skip_reason(&file) {
                None => selection.puzzles.push(file),
                Some(reason) => selection.skipped.push(Skipped { path: file, reason }),
            }
        }
    }
    Ok(selection)
}

/// Why a file found in a folder is not one of its puzzles, or `None` when it is.
fn skip_reason(file: &Path) -> Option<String> {
    let name = file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    if file.is_dir() {
        return Some("a folder (folders are not searched)".to_string());
    }
    if !name.ends_with(".txt") {
        return Some("not a *.txt file".to_string());
    }
    if named_as_output(&name) {
        return Some("named as a solution or log, not a puzzle".to_string());
    }
    match files::read_puzzle(file) {
        Ok(_) => None,
        Err(e @ InputError::Board { .. }) => Some(format!("not a puzzle board ({e})")),
        Err(e) => Some(e.to_string()),
    }
}

/// Solves one puzzle and measures it.
pub fn bench_one(path: &Path, options: &SolveOptions) -> Result<BenchRow, InputError> {
    let started = std::time::Instant::now();
    let puzzle = files::read_puzzle(path)?;
    let solution = solve::solve(puzzle, options);
    let seconds = started.elapsed().as_secs_f64();
    let stats = solution.stats;
    let result = match solution.outcome.winner() {
        Some(c) => format!("{} wins", c.name()),
        None => "draw".to_string(),
    };
    Ok(BenchRow {
        puzzle: path.to_path_buf(),
        pieces: puzzle.occupied().count(),
        result,
        moves: solution.moves(),
        proven: solution.proven,
        nodes: stats.nodes,
        nodes_per_second: (stats.nodes as f64 / seconds.max(1e-9)).round() as u64,
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

/// Solves the puzzles `jobs` at a time, each on a thread of its own, calling `done` after each
/// one. Rows come back in the order of `puzzles`.
///
/// The puzzles are not spread over a rayon pool: a solve's own parallel work (the reachable
/// positions' analysis, database builds) runs on the global pool, and a pool thread waiting for
/// that work would otherwise take up another puzzle meanwhile, so that one puzzle's time (and
/// its time limit) would include another's solve.
pub fn bench_all(
    puzzles: &[PathBuf],
    options: &SolveOptions,
    jobs: usize,
    done: &(dyn Fn() + Sync),
) -> Vec<Result<BenchRow, InputError>> {
    let next = AtomicUsize::new(0);
    let worker = || {
        let mut rows = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(path) = puzzles.get(i) else { break };
            rows.push((i, bench_one(path, options)));
            done();
        }
        rows
    };
    let mut rows: Vec<(usize, Result<BenchRow, InputError>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs.clamp(1, puzzles.len().max(1)))
            .map(|_| scope.spawn(worker))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    // Each puzzle was taken once: put the rows back in the order of `puzzles`.
    rows.sort_by_key(|(i, _)| *i);
    rows.into_iter().map(|(_, row)| row).collect()
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
            r.nodes_per_second as f64 / 1e6,
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
        "total: {} {}, {proven} proven, {full} in the top band, {nodes} nodes, {secs:.3} s of \
         solving, {:.2} Mnodes/s\n",
        rows.len(),
        if rows.len() == 1 { "puzzle" } else { "puzzles" },
        nodes as f64 / secs.max(1e-9) / 1e6
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_are_written_as_their_labels() {
        assert_eq!(
            serde_json::to_string(&Band::Full).unwrap(),
            "\"<1 min (60%)\""
        );
    }

    #[test]
    fn solution_and_log_names_are_not_puzzles() {
        for name in [
            "p01.expected.txt",
            "p02.expected.reflog.txt",
            "a.solution.txt",
            "x.out.txt",
        ] {
            assert!(named_as_output(name), "{name}");
        }
        for name in ["p01.txt", "expected-kings.txt", "reflog.txt"] {
            assert!(!named_as_output(name), "{name}");
        }
    }

    #[test]
    fn bands_follow_the_marking_scheme() {
        assert_eq!(Band::of(Duration::from_millis(3)), Band::Full);
        assert_eq!(Band::of(Duration::from_secs(60)), Band::Reduced);
        assert_eq!(Band::of(Duration::from_secs(119)), Band::Reduced);
        assert_eq!(Band::of(Duration::from_secs(239)), Band::Late);
        assert_eq!(Band::of(Duration::from_secs(240)), Band::None);
    }
}
