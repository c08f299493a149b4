//! Helpers shared by the tests that compare endgame databases with the independent analyser
//! (`tests/engine/endgame.rs`, `tests/engine/reach.rs`).

use checkers::analysis::Value;
use checkers::formats::board_text::parse_board;
use checkers::search::endgame::EndgameDb;
use checkers::search::Score;
use checkers::Position;

/// A test board from its 8 text rows.
pub fn board(rows: &str) -> Position {
    parse_board(rows.as_bytes()).expect("test board parses")
}

/// The database's score of `pos` (seen from its side to move) as an analysis value.
pub fn db_value(db: &EndgameDb, pos: &Position) -> Value {
    let score = db.score(pos, 0).expect("covered");
    match score.plies_to_end() {
        None => {
            assert_eq!(score, Score::ZERO, "a non-final score must be the draw");
            Value::Draw
        }
        Some(n) if score.is_win() => Value::Win(n),
        Some(n) => Value::Loss(n),
    }
}
