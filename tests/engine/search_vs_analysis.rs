//! The engine's search against the independent analyser, position by position: whenever the
//! search says a result is proven, its score must be the analyser's exact value and its move the
//! analyser's canonical optimal move.
//!
//! The positions are those reachable from the public puzzles (tests/data/public): for each
//! puzzle, a short line of play (the published solution when there is one, otherwise a fixed
//! pseudo-random walk) and every sibling along it. A position is compared only when the analyser
//! decides it within small limits, and when the search claims a proof within its node budget; the
//! test also asserts that many positions are compared, so that it cannot pass by comparing none.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use checkers::analysis::rules::Board;
use checkers::analysis::{canonical_move, Oracle, OracleLimits, Value};
use checkers::formats::board_text::{parse_board, parse_solution};
use checkers::search::{Features, Limits, PuzzleSearcher, PuzzleThought, Score};
use checkers::Position;

/// The public puzzles, copied into the repository (tests/data/public/SOURCES.md).
fn puzzles_dir() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/public")).to_path_buf()
}

/// Every puzzle `pNN.txt` with its published solution when there is one, sorted by name.
fn public_puzzles() -> Vec<(String, Position, Option<Vec<Position>>)> {
    let mut names: Vec<String> = std::fs::read_dir(puzzles_dir())
        .expect("tests/data/public")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.len() == 7 && n.starts_with('p') && n.ends_with(".txt"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|file| {
            let name = file.trim_end_matches(".txt").to_string();
            let bytes = std::fs::read(puzzles_dir().join(&file)).expect("puzzle reads");
            let root = parse_board(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
            let expected = std::fs::read(puzzles_dir().join(format!("{name}.expected.txt")))
                .ok()
                .map(|b| parse_solution(&b).unwrap_or_else(|e| panic!("{name}: {e}")));
            (name, root, expected)
        })
        .collect()
}

/// A fixed walk of at most `plies` plies from `root`: at each step the move picked by a small
/// linear congruential generator seeded with `seed`, so every run walks the same line.
fn walk(root: &Position, plies: usize, seed: u64) -> Vec<Position> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut line = vec![*root];
    let mut board = Board::from_position(root);
    for _ in 0..plies {
        let children = board.successors();
        if children.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        board = children[(state >> 33) as usize % children.len()];
        line.push(board.to_position());
    }
    line
}

/// The positions sampled from one puzzle: the states of its line and all their children.
fn sample(line: &[Position]) -> Vec<Position> {
    let mut out = Vec::new();
    for state in line {
        out.push(*state);
        out.extend(
            Board::from_position(state)
                .successors()
                .iter()
                .map(Board::to_position),
        );
    }
    out
}

/// The search's proven score as an analysis value, from the mover's point of view.
fn proven_value(score: Score) -> Value {
    match score.plies_to_end() {
        Some(n) if score.is_win() => Value::Win(n),
        Some(n) => Value::Loss(n),
        None => {
            assert_eq!(
                score,
                Score::ZERO,
                "a proven score that is not a game end is a draw"
            );
            Value::Draw
        }
    }
}

/// What the comparisons found, for the summary and the final checks.
#[derive(Default, Debug)]
struct Tally {
    /// Positions searched.
    searched: usize,
    /// Of those, positions the search claimed to prove.
    proven: usize,
    /// Of those, proofs the analyser could not check within its limits.
    unchecked: usize,
    /// Proofs checked: same value, and the canonical move.
    checked: usize,
    /// Proven draws among them.
    draws: usize,
    /// Proven wins or losses longer than one ply among them.
    long: usize,
}

/// The analyser's limits for this test: small, so a position it cannot settle costs little.
fn oracle_limits() -> OracleLimits {
    OracleLimits {
        max_positions: 200_000,
        max_plies: 40,
        quick_budget: 20_000,
        node_budget: 200_000,
    }
}

/// The search's node budget per position, the same for every position so the test is
/// deterministic.
const SEARCH_NODES: u64 = 20_000;

/// Most pieces on a board searched with the endgame databases.
const DB_PIECES: u32 = 4;

/// The number of pieces on `pos`.
fn pieces(pos: &Position) -> u32 {
    let (a, b, c, d) = Board::from_position(pos).material();
    a + b + c + d
}

/// Searches `pos`; when the search claims a proof, checks it against the analyser.
///
/// A claimed win or loss in `n` plies is checked by asking the analyser for any end within `n`
/// plies: when it finds none, the claim is false; when it finds one, it must be the same. A claimed
/// draw needs the analyser's full value. Then the move must be the analyser's canonical one.
fn check(
    name: &str,
    pos: &Position,
    oracle: &mut Oracle,
    searcher: &mut PuzzleSearcher,
    tally: &mut Tally,
) {
    tally.searched += 1;
    // The proof search gets a budget too, so that its claims are checked as well.
    let limits = Limits {
        nodes: Some(SEARCH_NODES),
        proof_nodes: Some(SEARCH_NODES),
        guard_nodes: None,
        deadline: None,
        build_caps: None,
    };
    let Some(PuzzleThought {
        best,
        score: Some(score),
        proven: true,
        ..
    }) = searcher.think(pos, 200, limits, None)
    else {
        return;
    };
    tally.proven += 1;
    let claimed = proven_value(score);
    let exact = match claimed.plies() {
        Some(n) => oracle.value_within(pos, n),
        None => oracle.value(pos),
    };
    let value = match exact {
        Ok(Some(value)) => value,
        // The analyser searched every line up to the claimed end (within its own bound): the
        // game cannot end that soon.
        Ok(None)
            if claimed
                .plies()
                .is_some_and(|n| n <= oracle_limits().max_plies) =>
        {
            panic!("{name}: the search proved {claimed}, the analyser finds no end that soon, on {pos:?}")
        }
        Ok(None) | Err(_) => {
            tally.unchecked += 1;
            return;
        }
    };
    assert_eq!(
        claimed, value,
        "{name}: the search proved {claimed}, the analyser says {value}, on {pos:?}"
    );
    let canonical = canonical_move(pos, oracle)
        .unwrap_or_else(|e| panic!("{name}: no canonical move for a decided position: {e}"))
        .unwrap_or_else(|| panic!("{name}: the search moved where the analyser finds no move"));
    assert_eq!(
        best.canonical_key(),
        canonical.key(),
        "{name}: the search chose {best:?}, the canonical optimal move is {canonical:?}, on {pos:?}"
    );
    tally.checked += 1;
    match value {
        Value::Draw => tally.draws += 1,
        Value::Win(n) | Value::Loss(n) if n > 1 => tally.long += 1,
        _ => {}
    }
}

/// Checks the puzzles whose index in name order has the given parity, with one searcher for all
/// of them, as a player keeps one for a whole game: proofs must stay right whatever its table
/// holds from earlier searches. It searches without endgame databases (building them takes
/// seconds); a second one, with them, takes the positions of at most `DB_PIECES` pieces, whose
/// databases are small, to check the proofs read off them. (Two halves, so that the test
/// harness runs them side by side.)
fn check_half(parity: usize) -> Tally {
    let mut tally = Tally::default();
    let mut seen = HashSet::new();
    let mut searcher = PuzzleSearcher::with_features(
        8,
        Features {
            endgame_db: false,
            ..Features::default()
        },
    );
    let mut with_db = PuzzleSearcher::new(8);
    for (index, (name, root, expected)) in public_puzzles().into_iter().enumerate() {
        if index % 2 != parity {
            continue;
        }
        let line = expected.unwrap_or_else(|| walk(&root, 8, index as u64));
        let mut oracle = Oracle::new(oracle_limits());
        for pos in sample(&line) {
            if seen.insert(pos) {
                check(&name, &pos, &mut oracle, &mut searcher, &mut tally);
                if pieces(&pos) <= DB_PIECES {
                    check(&name, &pos, &mut oracle, &mut with_db, &mut tally);
                }
            }
        }
    }
    eprintln!("{tally:?}");
    tally
}

/// The floors stand a little under the counts when the test was split in two (even puzzles 138
/// proofs checked, 109 of them longer than one ply, 25 draws; odd puzzles 509, 507 and 1): a
/// change that makes the search prove much less fails here rather than passing on few checks.
#[test]
fn proven_search_results_are_the_analysers_on_even_puzzles() {
    let tally = check_half(0);
    assert!(tally.checked >= 110, "too few proofs checked: {tally:?}");
    assert!(tally.long >= 85, "too few long proofs checked: {tally:?}");
    assert!(tally.draws >= 18, "too few proven draws checked: {tally:?}");
}

#[test]
fn proven_search_results_are_the_analysers_on_odd_puzzles() {
    let tally = check_half(1);
    assert!(tally.checked >= 400, "too few proofs checked: {tally:?}");
    assert!(tally.long >= 400, "too few long proofs checked: {tally:?}");
}
