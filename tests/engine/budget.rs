//! How a turn spends on a board that looks level (most likely a draw, which no proof search
//! settles): a small part of its proof budget, and no endgame database build beyond its cap.

use checkers::formats::board_text::parse_board;
use checkers::formats::input::fen_puzzle;
use checkers::rules::game::Outcome;
use checkers::rules::movegen;
use checkers::search::endgame::EndgameDb;
use checkers::search::knobs::{
    BUILD_SLOTS_PER_NODE, DECIDING_LEVEL_BUILD_SLOTS, LEVEL_PROOF_SHARE,
};
use checkers::search::puzzle::budget::build_caps;
use checkers::search::puzzle::solve::{solve, SolveOptions};
use checkers::search::{Limits, PuzzleSearcher, Score};
use checkers::{Color, Position};

fn board(path: &str) -> Position {
    let text = std::fs::read(path).expect("shipped file");
    parse_board(&text).expect("a board")
}

/// Whether the deepening's score says neither side is a man and a half ahead.
fn level(score: Option<Score>) -> bool {
    score.is_some_and(|s| s.0.abs() < 150)
}

#[test]
fn a_level_board_spends_a_small_part_of_its_proof_budget() {
    // The start position shifted to the light cells (24 pieces, no database): level.
    let pos = board("tests/data/public/p39.txt");
    let mut searcher = PuzzleSearcher::new(16);
    let deepening = 20_000;
    let proof = 800_000;
    let limits = Limits {
        nodes: Some(deepening),
        proof_nodes: Some(proof),
        guard_nodes: None,
        deadline: None,
        build_caps: None,
    };
    let thought = searcher.think(&pos, 60, limits, None).expect("red moves");
    assert!(level(thought.score), "{thought:?}");
    assert!(!thought.proven);
    let spent = searcher.stats().nodes;
    // The deepening's nodes, then one in LEVEL_PROOF_SHARE of the proof budget (and a few nodes
    // past each budget before the search sees it).
    assert!(
        spent <= deepening + proof / LEVEL_PROOF_SHARE + 1_000,
        "{spent} nodes"
    );
    assert!(
        spent >= deepening + proof / LEVEL_PROOF_SHARE / 2,
        "{spent} nodes"
    );
}

#[test]
fn a_level_board_does_not_start_a_database_build_beyond_its_cap() {
    // p25 after red's forced capture: six pieces, level, and a reachable-only analysis of over
    // 100 M slots would cover it (20 s or more).
    let puzzle = board("tests/data/public/p25.txt");
    let moves = movegen::legal_moves(&puzzle);
    assert_eq!(moves.len(), 1, "the capture is forced");
    let pos = puzzle.play(moves[0]);
    assert!(EndgameDb::default().slots_to_build(&pos) > DECIDING_LEVEL_BUILD_SLOTS);
    let mut searcher = PuzzleSearcher::new(16);
    let limits = Limits {
        nodes: Some(20_000),
        proof_nodes: Some(0),
        guard_nodes: None,
        deadline: None,
        // Black's first turn is the game's deciding turn: red's move was forced.
        build_caps: Some(build_caps(true, true)),
    };
    let thought = searcher.think(&pos, 60, limits, None).expect("black moves");
    assert!(level(thought.score), "{thought:?}");
    assert_eq!(searcher.endgame_positions(), 0);
}

/// A side whose earlier turn was proven still gets proof budget on its next searched turn: its
/// game end is within reach (random board 153 of `bench --random 300 --seed 1`, a red win in 17
/// whose third move needs a proof of its own; the budget rule once forgot that a proven turn had
/// reached its end and left it unproven).
#[test]
fn a_proven_turn_keeps_the_next_proof_in_reach() {
    let board = "........\n........\n.b......\n..R...r.\n...B....\n......r.\n.R.R.B.R\n....B.R.\n";
    let pos = parse_board(board.as_bytes()).expect("board");
    let solution = solve(pos, &SolveOptions::default());
    assert_eq!(solution.outcome, Outcome::Win { winner: Color::Red });
    assert_eq!(solution.moves(), 17);
    assert!(solution.proven, "{:?}", solution.unproven);
}

/// A database build is charged to the game's budget: its index slots, counted among the nodes
/// the budget spends (`wall_nodes`), though no position was searched.
#[test]
fn a_database_build_is_charged_to_the_budget() {
    // Three kings against two: the quick kings-only build covers it at once.
    let pos = fen_puzzle("W:WK14,K15,K18:BK1,K3").expect("fen");
    let mut searcher = PuzzleSearcher::new(16);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    searcher.think(&pos, 60, limits, None).expect("red moves");
    let stats = searcher.stats();
    let built = searcher.endgame_positions() as u64;
    assert!(built > 1_000_000, "{built} slots built");
    assert_eq!(stats.build_nodes, built / BUILD_SLOTS_PER_NODE);
    assert!(stats.wall_nodes() >= stats.nodes + stats.build_nodes - stats.split_nodes);
}
