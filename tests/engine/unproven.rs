//! The evaluation that chooses the moves the solver cannot prove (`SolveOptions::evaluator`, the
//! trained tables by default, or the puzzle set): proven lines and the work to prove them do not
//! depend on it; unproven moves follow it, the same on every run.

use std::time::Duration;

use checkers::formats::board_text::{parse_board, parse_solution};
use checkers::formats::input::fen_puzzle;
use checkers::rules::movegen::legal_moves;
use checkers::search::puzzle::budget::{ahead, expected_winner};
use checkers::search::puzzle::solve::{solve, SolveOptions};
use checkers::search::{Evaluator, Features, Known, Limits, PuzzleSearcher, PuzzleThought};
use checkers::Position;

#[test]
fn proven_lines_and_their_nodes_do_not_depend_on_the_evaluation() {
    let read = |path: &str| std::fs::read(path).expect("shipped file");
    for name in ["p05", "p06", "black-wins-p11"] {
        let pos = parse_board(&read(&format!("puzzles/{name}.txt"))).expect("board");
        let expected = parse_solution(&read(&format!("expected/{name}.txt"))).expect("line");
        let trained = solve(pos, &SolveOptions::default());
        let puzzle = solve(
            pos,
            &SolveOptions {
                evaluator: Evaluator::Puzzle,
                ..SolveOptions::default()
            },
        );
        assert!(trained.proven && puzzle.proven, "{name}");
        assert_eq!(trained.states, expected, "{name}");
        assert_eq!(puzzle.states, expected, "{name}");
        assert_eq!(trained.stats.nodes, puzzle.stats.nodes, "{name}");
    }
}

#[test]
fn the_trained_tables_are_the_default() {
    assert_eq!(
        SolveOptions::default().evaluator,
        Evaluator::shipped().expect("shipped weights")
    );
}

#[test]
fn unproven_moves_follow_the_evaluation_the_same_on_every_run() {
    // From the start at 4 plies a move nothing is proven: every move is the evaluation's choice.
    let start = Position::start();
    let options = SolveOptions {
        max_depth: Some(4),
        nodes_per_second: 0,
        time_limit: Duration::from_secs(600),
        features: Features {
            endgame_db: false,
            ..Features::default()
        },
        evaluator: Evaluator::shipped().expect("shipped weights"),
        ..SolveOptions::default()
    };
    let trained = solve(start, &options);
    let again = solve(start, &options);
    let puzzle = solve(
        start,
        &SolveOptions {
            evaluator: Evaluator::Puzzle,
            ..options.clone()
        },
    );
    assert!(!trained.proven && !puzzle.proven);
    assert!(!trained.time_limited && !puzzle.time_limited);
    assert_eq!(trained.states, again.states);
    assert_eq!(trained.stats.nodes, again.stats.nodes);
    assert_ne!(trained.states, puzzle.states);
}

/// A thought of `pos` by a fresh searcher at `depth` plies and a few thousand nodes (no proof
/// search, no databases), with `seen` as the game's positions.
fn shallow_thought(pos: &Position, depth: u32, seen: &[Position]) -> PuzzleThought {
    let mut searcher = PuzzleSearcher::with_features(
        1,
        Features {
            endgame_db: false,
            ..Features::default()
        },
    );
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    searcher
        .think_known(pos, depth, limits, Known::default(), seen)
        .expect("a legal move")
}

#[test]
fn a_side_clearly_ahead_does_not_play_back_into_a_position_of_the_game() {
    // Red, three kings against one, cannot prove its win in 3 plies: an unproven move, scored
    // clearly ahead.
    let pos = fen_puzzle("W:WK14,K15,K18:BK1").expect("fen");
    let first = shallow_thought(&pos, 3, &[]);
    assert!(!first.proven);
    assert_eq!(expected_winner(first.score), Some(true), "{first:?}");
    // Had the game seen the position that move leads to, another move is played, as far ahead.
    let seen = [pos, pos.play(first.best)];
    let again = shallow_thought(&pos, 3, &seen);
    assert_ne!(again.best, first.best);
    assert!(!seen.contains(&pos.play(again.best)));
    assert_eq!(expected_winner(again.score), Some(true), "{again:?}");
    // A level board (a king each) repeats as it likes: a draw is what it expects.
    let level = fen_puzzle("W:WK14:BK1").expect("fen");
    let mv = shallow_thought(&level, 3, &[]).best;
    assert_eq!(
        shallow_thought(&level, 3, &[level, level.play(mv)]).best,
        mv
    );
}

/// Issue 46's six-piece study (two red kings and a man against a black king and two men, a red
/// win in 65 plies), red to move, and the same board with the colours exchanged and turned
/// round, black to move: a side half a man ahead, under the proof search's margin.
const STUDY: &str = "W:WK19,K22,30:B12,21,K27";
const STUDY_BLACK: &str = "B:W21,12,K6:BK14,K11,3";

#[test]
fn a_side_half_a_man_ahead_does_not_play_back_into_a_position_of_the_game() {
    for fen in [STUDY, STUDY_BLACK] {
        let pos = checkers::formats::fen::parse(fen).expect("fen");
        let first = shallow_thought(&pos, 3, &[]);
        assert!(!first.proven);
        assert!(ahead(first.score), "{fen}: {first:?}");
        assert_eq!(
            expected_winner(first.score),
            None,
            "{fen}: under a man and a half"
        );
        let seen = [pos, pos.play(first.best)];
        let again = shallow_thought(&pos, 3, &seen);
        assert_ne!(again.best, first.best, "{fen}");
        assert!(!seen.contains(&pos.play(again.best)), "{fen}");
        assert!(ahead(again.score), "{fen}: {again:?}");
    }
}

#[test]
fn a_side_ahead_does_not_let_the_opponent_repeat_a_position_a_third_time() {
    // Three kings against one, red to move and black to move (the board turned round).
    for fen in ["W:WK14,K15,K18:BK1", "B:WK32:BK19,K18,K15"] {
        let pos = checkers::formats::fen::parse(fen).expect("fen");
        let first = shallow_thought(&pos, 3, &[]);
        assert!(!first.proven && ahead(first.score), "{fen}: {first:?}");
        // The game has seen twice a position the opponent can reach from that move's: the
        // move would let it end the game drawn.
        let child = pos.play(first.best);
        let reply = legal_moves(&child)[0];
        let twice = child.play(reply);
        let seen = [twice, pos.play(first.best).play(reply), pos];
        assert_eq!(seen[0], seen[1]);
        let again = shallow_thought(&pos, 3, &seen);
        assert_ne!(again.best, first.best, "{fen}");
        let after = pos.play(again.best);
        assert!(
            legal_moves(&after).iter().all(|&r| after.play(r) != twice),
            "{fen}"
        );
        assert!(ahead(again.score), "{fen}: {again:?}");
        // Seen once only, the opponent's reply would be a second occurrence: no draw yet.
        let once = [twice, pos];
        assert_eq!(shallow_thought(&pos, 3, &once).best, first.best, "{fen}");
    }
}

#[test]
fn quick_moves_past_the_deadline_keep_a_side_ahead_out_of_a_repetition() {
    // The quick moves played past the soft deadline (a fixed depth, a fresh searcher) hold to
    // the rule of the turns before it, for either colour.
    for fen in [STUDY, STUDY_BLACK] {
        let pos = checkers::formats::fen::parse(fen).expect("fen");
        let mut searcher = PuzzleSearcher::new(1);
        let first = searcher.quick_think(&pos, 4, &[]).expect("a legal move");
        assert!(ahead(first.score), "{fen}: {first:?}");
        let seen = [pos, pos.play(first.best)];
        let again = searcher.quick_think(&pos, 4, &seen).expect("a legal move");
        assert_ne!(again.best, first.best, "{fen}");
        assert!(!seen.contains(&pos.play(again.best)), "{fen}");
        assert!(ahead(again.score), "{fen}: {again:?}");
    }
}
