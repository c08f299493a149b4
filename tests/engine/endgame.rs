//! The king endgame database against the independent retrograde analysis of `analysis`: every
//! position reachable from a few king endgames must get the same exact value from both.

use checkers::analysis::solve_reachable;
use checkers::search::endgame::EndgameDb;

use crate::common::{board, db_value};

/// Builds the database for `rows` and compares it with the analysis on every reachable position.
fn agrees_everywhere(rows: &str) -> usize {
    let root = board(rows);
    let mut db = EndgameDb::default();
    assert!(db.build_classes_for(&root), "a small endgame is covered");
    let table = solve_reachable(&root, 2_000_000).expect("small enough to enumerate");
    let mut compared = 0;
    for (pos, value) in table.iter() {
        assert_eq!(db_value(&db, &pos), value, "position {pos:?}");
        compared += 1;
    }
    compared
}

#[test]
fn two_kings_against_one_everywhere() {
    let n = agrees_everywhere(
        "........\n\
         ..B.....\n\
         ........\n\
         ........\n\
         ........\n\
         ........\n\
         ........\n\
         R.R.....\n",
    );
    assert!(n > 15_000, "thousands of positions compared ({n})");
}

/// Two against two includes double jumps, trades into smaller classes, and draws.
#[test]
fn two_kings_against_two_everywhere() {
    let rows = "........\n\
                ..B.B...\n\
                ........\n\
                ........\n\
                ........\n\
                ........\n\
                ........\n\
                R.R.....\n";
    let n = agrees_everywhere(rows);
    assert!(n > 250_000, "a quarter million positions compared ({n})");
}

/// Kings on the light cells play the mirrored game of the dark cells.
#[test]
fn light_cell_kings_everywhere() {
    agrees_everywhere(
        "........\n\
         .B......\n\
         ........\n\
         ........\n\
         ........\n\
         ........\n\
         ........\n\
         .R.R....\n",
    );
}

#[test]
fn men_mixed_colours_and_big_classes_are_not_covered() {
    let mut db = EndgameDb::default();
    let with_man =
        board("........\n..b.....\n........\n........\n........\n........\n........\nR.R.....\n");
    assert!(!db.build_quick_kings(&with_man));
    let mixed =
        board("........\n.B......\n........\n........\n........\n........\n........\nR.R.....\n");
    assert!(!db.build_quick_kings(&mixed));
    let four_v_two =
        board("........\n..B.B...\n........\n........\n........\n........\n........\nR.R.R.R.\n");
    assert!(
        !db.build_quick_kings(&four_v_two),
        "4 kings against 2 (43 million slots) is not built before the search has tried"
    );
    assert!(
        db.could_build_for(&four_v_two),
        "but it is built when the search fails"
    );
    // Over the whole classes' limit, six pieces are analysed over the positions they reach
    // (tests/engine/reach.rs); of seven, only the six-piece classes their captures lead to.
    let four_v_two_men =
        board("........\n..B.B...\n........\n........\n........\n........\n........\nR.R.R.r.\n");
    assert!(
        db.could_build_for(&four_v_two_men),
        "3 kings and a man v 2: 6 pieces, analysed reachable-only"
    );
    let three_v_three =
        board("........\n..B.B.B.\n........\n........\n........\n........\n........\nR.R.R...\n");
    assert!(
        db.could_build_for(&three_v_three),
        "3 v 3: 6 pieces, analysed reachable-only"
    );
    let four_v_three =
        board("........\n..B.B.B.\n........\n........\n........\n........\n........\nR.R.R.R.\n");
    assert!(
        db.could_build_for(&four_v_three),
        "4 v 3: 7 pieces, the classes its captures lead to"
    );
    assert!(!db.covers(&four_v_three), "but not its own class");
    assert!(
        db.could_build_for(&with_man),
        "a man and two kings against one"
    );
    assert!(db.score(&with_man, 0).is_none());
}

/// Men: forward steps only, crowning by a step (a move into another class that need not be
/// played), crowning by a jump, men captured by kings.
#[test]
fn men_and_kings_everywhere() {
    let n = agrees_everywhere(
        "........\n\
         ..B.....\n\
         ........\n\
         ........\n\
         ........\n\
         ........\n\
         ...r....\n\
         R.......\n",
    );
    assert!(n > 10_000, "thousands of positions compared ({n})");
}

/// Men of both sides, which can block, trade and crown on either row.
#[test]
fn men_on_both_sides_everywhere() {
    agrees_everywhere(
        "........\n\
         ..b.....\n\
         ........\n\
         ........\n\
         ........\n\
         ........\n\
         ...r....\n\
         R.......\n",
    );
}

/// Three men against a king, two men against two, and a man with a king against a man on the
/// light cells.
#[test]
fn men_endings_everywhere() {
    let light = agrees_everywhere(
        "........\n\
         .b......\n\
         ........\n\
         ........\n\
         ........\n\
         ........\n\
         ..r.....\n\
         .R......\n",
    );
    assert!(
        light > 10_000,
        "thousands of light-cell positions ({light})"
    );
    agrees_everywhere(
        "........\n\
         ........\n\
         ........\n\
         ..B.....\n\
         ........\n\
         ........\n\
         .r.r.r..\n\
         ........\n",
    );
    agrees_everywhere(
        "........\n\
         b.b.....\n\
         ........\n\
         ........\n\
         ........\n\
         ........\n\
         ...r.r..\n\
         ........\n",
    );
}
