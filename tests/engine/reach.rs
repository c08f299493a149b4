//! The reachable-only analysis (`EndgameDb::analyse_reachable`, used for material too large to
//! build whole) against the independent retrograde analysis of `analysis`: every position
//! reachable from a few endgames with men of both sides must get the same exact value, and the
//! same value as the whole-class databases.

use checkers::analysis::solve_reachable;
use checkers::search::endgame::EndgameDb;

use crate::common::{board, db_value};

/// Analyses `rows` reachable-only and compares every reachable position with the independent
/// analysis and with the whole classes; how many were compared.
fn agrees_everywhere(rows: &str) -> usize {
    let root = board(rows);
    let mut reach = EndgameDb::default();
    assert_eq!(reach.analyse_reachable(&root, None), Ok(true));
    assert!(reach.covers(&root));
    let mut whole = EndgameDb::default();
    assert!(
        whole.build_classes_for(&root),
        "small enough to build whole"
    );
    assert!(
        reach.positions() < whole.positions(),
        "fewer positions than the whole classes ({} v {})",
        reach.positions(),
        whole.positions()
    );
    let table = solve_reachable(&root, 3_000_000).expect("small enough to enumerate");
    let mut compared = 0;
    for (pos, value) in table.iter() {
        assert_eq!(db_value(&reach, &pos), value, "position {pos:?}");
        assert_eq!(
            reach.score(&pos, 0),
            whole.score(&pos, 0),
            "position {pos:?}"
        );
        compared += 1;
    }
    compared
}

/// A king and a man each: men of both sides crowning by steps and by jumps, trades.
#[test]
fn king_and_man_each() {
    let n = agrees_everywhere(
        "........\n\
         ..b.....\n\
         ........\n\
         ....B...\n\
         ........\n\
         ........\n\
         ...r....\n\
         R.......\n",
    );
    assert!(n > 100_000, "many positions compared ({n})");
}

/// Two men against a king and a man, on the light cells (mirrored onto the dark ones).
#[test]
fn men_against_king_and_man_on_light_cells() {
    let n = agrees_everywhere(
        "........\n\
         ...b....\n\
         ........\n\
         ........\n\
         ....B...\n\
         ...r....\n\
         ........\n\
         .....r..\n",
    );
    assert!(n > 10_000, "many positions compared ({n})");
}

/// Positions outside the puzzle's reach (a man behind where any could walk) are not covered:
/// their value is never read from slots that do not exist.
#[test]
fn positions_out_of_reach_are_not_covered() {
    let root = board(
        "........\n\
         ..b.....\n\
         ........\n\
         ....B...\n\
         ........\n\
         ........\n\
         ...r....\n\
         R.......\n",
    );
    let mut db = EndgameDb::default();
    assert_eq!(db.analyse_reachable(&root, None), Ok(true));
    // The black man back behind its start: unreachable.
    let behind = board(
        "...b....\n\
         ........\n\
         ........\n\
         ....B...\n\
         ........\n\
         ........\n\
         ...r....\n\
         R.......\n",
    );
    assert!(!db.covers(&behind));
    assert_eq!(db.score(&behind, 0), None);
}
