//! The df-pn proof search's questions against the independent analyser: "does the side to move
//! win within n plies (n odd) / lose within n (n even)?" is answered exactly as the analyser's
//! value says, for bounds just below, at and above the exact distance, with and without the
//! endgame databases.

use crate::common::decided_boards;
use checkers::analysis::optimal_line;
use checkers::analysis::{Oracle, OracleLimits, Value};
use checkers::formats::board_text::parse_board;
use checkers::search::endgame::EndgameDb;
use checkers::search::{Features, Limits, ProofEngine, Score, Searcher};
use checkers::Position;

/// Nodes a question may take: plenty for these boards (a question that runs out fails the test).
const NODES: u64 = 5_000_000;

/// What the analyser's value says about "a game end of the question's kind within `n`".
fn expected(value: Value, n: u32) -> bool {
    match value {
        Value::Win(d) => n % 2 == 1 && d <= n,
        Value::Loss(d) => n % 2 == 0 && d <= n,
        Value::Draw => false,
    }
}

/// The bounds asked about a board of value `value`: 1 to 4, and the two bounds of each kind
/// around the exact distance (just below it, at it, and one beyond).
fn bounds(value: Value) -> Vec<u32> {
    let mut ns: Vec<u32> = (1..=4).collect();
    if let Value::Win(d) | Value::Loss(d) = value {
        for n in [d.saturating_sub(2), d.saturating_sub(1), d, d + 1, d + 2] {
            if n > 0 && !ns.contains(&n) {
                ns.push(n);
            }
        }
    }
    ns
}

fn searcher(db: Option<EndgameDb>) -> Searcher {
    let mut s = Searcher::with_features(
        8,
        Features {
            endgame_db: false,
            ..Features::default()
        },
    );
    if let Some(db) = db {
        s.set_endgame(db);
    }
    s
}

/// Asks every bound of `bounds(value)` about `pos`, on a fresh searcher and on one shared by the
/// questions (whose table carries over, as in a game); the number of questions asked.
fn check(
    pos: &Position,
    value: Value,
    shared: &mut Searcher,
    fresh: impl Fn() -> Searcher,
) -> usize {
    let ns = bounds(value);
    for &n in &ns {
        let want = expected(value, n);
        let got = shared.ends_within(pos, n, NODES);
        assert_eq!(got, Some(want), "{pos:?}: value {value:?}, bound {n}");
        assert_eq!(
            fresh().ends_within(pos, n, NODES),
            Some(want),
            "{pos:?}: value {value:?}, bound {n}, fresh table"
        );
    }
    ns.len()
}

/// Random boards of at most five pieces whose value the analyser decides: every bound is
/// answered as the value says. Wins, losses and draws all occur among them.
#[test]
fn dfpn_agrees_with_the_analyser_on_small_random_boards() {
    let mut oracle = Oracle::new(OracleLimits::default());
    let mut shared = searcher(None);
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for (pos, value) in decided_boards(200, 21, 5, &mut oracle) {
        // Long games make long questions; the short ones are where the distances are tight.
        if matches!(value, Value::Win(d) | Value::Loss(d) if d > 17) {
            continue;
        }
        check(&pos, value, &mut shared, || searcher(None));
        match value {
            Value::Win(_) => wins += 1,
            Value::Loss(_) => losses += 1,
            Value::Draw => draws += 1,
        }
    }
    assert!(
        wins >= 10 && losses >= 3 && draws >= 3,
        "too few boards: {wins} wins, {losses} losses, {draws} draws"
    );
}

/// The same questions with the endgame databases read at every covered node (built for each
/// board's material): the databases' distances are used exactly, not as any game end.
#[test]
fn dfpn_reads_the_databases_exactly() {
    let mut oracle = Oracle::new(OracleLimits::default());
    let mut compared = 0;
    for (pos, value) in decided_boards(300, 5, 4, &mut oracle) {
        let with_db = || {
            let mut db = EndgameDb::default();
            let covered = db.build_classes_for(&pos);
            (covered, searcher(Some(db)))
        };
        let (covered, mut shared) = with_db();
        if !covered {
            continue;
        }
        check(&pos, value, &mut shared, || with_db().1);
        compared += 1;
        if compared >= 12 {
            break;
        }
    }
    assert!(compared >= 6, "only {compared} boards compared");
}

/// The shipped puzzles whose value is a short game end (the official p01-p08, a black win, the
/// dense board of issue 14): each bound around the value, as the analyser's value says.
#[test]
fn dfpn_agrees_with_the_analyser_on_the_shipped_puzzles() {
    let mut oracle = Oracle::new(OracleLimits::default());
    let mut compared = 0;
    for name in [
        "p01",
        "p02",
        "p03",
        "p04",
        "p05",
        "p06",
        "p07",
        "p08",
        "black-wins-p11",
        "kings-8-and-man-v-3-win-13",
    ] {
        let path = format!("{}/puzzles/{name}.txt", env!("CARGO_MANIFEST_DIR"));
        let pos = parse_board(&std::fs::read(&path).expect("shipped puzzle")).expect("board");
        let Ok(Some(value)) = oracle.value(&pos) else {
            continue;
        };
        if matches!(value, Value::Win(d) | Value::Loss(d) if d <= 15) {
            let mut shared = searcher(None);
            check(&pos, value, &mut shared, || searcher(None));
            compared += 1;
        }
    }
    assert!(compared >= 6, "only {compared} puzzles compared");
}

/// The proof search with df-pn in a turn (one node of deepening, which stops at once, then the
/// proof search and the canonical-move check), by df-pn alone and by the hybrid (df-pn within a
/// budget, then alpha-beta): on small random boards whose game ends within 15 plies, the turn is
/// proven with the analyser's value and its canonical move.
#[test]
fn turns_proven_by_dfpn_play_the_canonical_optimal_move() {
    let mut oracle = Oracle::new(OracleLimits::default());
    let mut compared = 0;
    for (pos, value) in decided_boards(600, 14, 4, &mut oracle).collect::<Vec<_>>() {
        let exact = match value {
            Value::Win(d) if d <= 15 => Score::won_at(d as usize),
            Value::Loss(d) if d <= 15 => Score::lost_at(d as usize),
            _ => continue,
        };
        let line = optimal_line(&pos, &mut oracle).expect("the analyser's line");
        for proof in [
            ProofEngine::Dfpn,
            ProofEngine::Hybrid,
            ProofEngine::UpperFirst,
        ] {
            let mut s = Searcher::with_features(
                8,
                Features {
                    endgame_db: false,
                    proof,
                    ..Features::default()
                },
            );
            let limits = Limits {
                nodes: Some(1),
                proof_nodes: Some(2_000_000),
                deadline: None,
                build_caps: None,
            };
            let thought = s.think(&pos, 40, limits, None).expect("red has a move");
            if thought.score.is_none() {
                continue; // a forced move: nothing searched
            }
            assert!(thought.proven, "{pos:?} {proof:?}: not proven, {thought:?}");
            assert_eq!(thought.score, Some(exact), "{pos:?} {proof:?}");
            assert_eq!(
                pos.play(thought.best),
                line[1],
                "{pos:?} {proof:?}: not canonical"
            );
            compared += 1;
        }
    }
    assert!(compared >= 40, "only {compared} turns compared");
}
