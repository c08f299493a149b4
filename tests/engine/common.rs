//! Helpers shared by the engine's tests: boards, database values as analysis values
//! (`endgame.rs`, `reach.rs`), and a line that plays a slower win (`verify.rs`,
//! `verify_budget.rs`).

use checkers::analysis::{Oracle, Value};
use checkers::formats::board_text::parse_board;
use checkers::formats::board_text::parse_solution;
use checkers::rules::movegen::legal_moves;
use checkers::search::endgame::EndgameDb;
use checkers::search::puzzle::solve::{solve, SolveOptions};
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

/// A shipped puzzle's board and a line from it that is optimal except for one move: at the first
/// red turn of the expected line where some move still wins, but more slowly, that move is
/// played and the solver finishes the game. Returns the puzzle, the line and the index of the
/// state the slower move was played from.
pub fn line_with_a_slower_win(name: &str) -> (Position, Vec<Position>, usize) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |folder: &str| std::fs::read(dir.join(folder).join(name)).expect("shipped file");
    let puzzle = parse_board(&read("puzzles")).expect("puzzle parses");
    let line = parse_solution(&read("expected")).expect("expected line parses");
    let mut oracle = Oracle::default();
    let (turn, slower) = (0..line.len() - 1)
        .step_by(2)
        .find_map(|i| {
            let Ok(Some(Value::Win(v))) = oracle.value(&line[i]) else {
                return None;
            };
            legal_moves(&line[i])
                .iter()
                .map(|&m| line[i].play(m))
                .find(|c| matches!(oracle.value(c), Ok(Some(Value::Loss(n))) if n + 1 > v))
                .map(|c| (i, c))
        })
        .expect("a slower winning move exists");
    let mut played = line[..=turn].to_vec();
    played.extend(solve(slower, &SolveOptions::default()).states);
    (puzzle, played, turn)
}

/// The random boards of `seed` (the first `count`) with at most `max_pieces` pieces whose value
/// the analyser decides, each with that value.
pub fn decided_boards(
    count: usize,
    seed: u64,
    max_pieces: u32,
    oracle: &mut Oracle,
) -> impl Iterator<Item = (Position, Value)> + '_ {
    checkers::tools::random_boards::random_boards(count, seed)
        .into_iter()
        .filter(move |pos| pos.occupied().count() <= max_pieces)
        .filter_map(|pos| match oracle.value(&pos) {
            Ok(Some(value)) => Some((pos, value)),
            _ => None,
        })
}
