//! The backward pass over a won game's unproven moves (`search::puzzle::backward_pass`): a late move that a
//! later turn's proof shows suboptimal is replaced, and the game played again from it.

use std::time::Duration;

use checkers::formats::board_text::parse_board;
use checkers::search::puzzle::solve::{solve, Solution, SolveOptions};
use checkers::search::{Evaluator, Features, Limits, PuzzleSearcher, Score};

/// Small budgets (the proof budget of `--time-limit 50 --nodes-per-second 20000 --nodes-per-move
/// 2000`, with time to spare), so that most turns are guesses and a few late ones proofs. The
/// unproven moves are the puzzle set's (`--eval puzzle`): the line below is that choice's.
fn small(repair: bool) -> SolveOptions {
    SolveOptions {
        time_limit: Duration::from_secs(500),
        nodes_per_move: 2_000,
        nodes_per_second: 2_000,
        evaluator: Evaluator::Puzzle,
        features: Features {
            repair,
            ..Features::default()
        },
        ..SolveOptions::default()
    }
}

fn black_wins(solution: &Solution) -> bool {
    matches!(
        solution.outcome,
        checkers::rules::game::Outcome::Win {
            winner: checkers::Color::Black
        }
    )
}

#[test]
fn a_late_unproven_move_proven_suboptimal_is_replaced() {
    // random-9001-030 (seed 9001 of `bench --random`, 12 pieces): at these budgets red's move 15
    // loses in 8 plies where red can hold out for 12.
    let board = std::fs::read("tests/data/repair/random-9001-030.txt").expect("board");
    let pos = parse_board(&board).expect("board");
    let before = solve(pos, &small(false));
    let after = solve(pos, &small(true));
    assert!(!before.time_limited && !after.time_limited);
    assert!(black_wins(&before) && black_wins(&after));
    let mistake = 14;
    assert_eq!(before.moves() - mistake, 8);
    // A search of its own proves the position before the move a loss in 12 for red.
    let mut searcher = PuzzleSearcher::new(16);
    let thought = searcher
        .think(&before.states[mistake], 40, Limits::default(), None)
        .expect("a legal move");
    assert!(thought.proven);
    assert_eq!(thought.score, Some(Score::lost_at(12)));
    // The repaired line never plays the move from that position: the pass replaced it with the
    // proven one (red then holds out for those 12 plies), then went on to earlier moves, and
    // since issue 23's shorter-win questions it finds black's win in 11 at move 12 (15 in the
    // line) and a longer resistance for red before it, which change the line before the mistake.
    let mistaken = (before.states[mistake], before.states[mistake + 1]);
    assert!(!after.states.windows(2).any(|w| (w[0], w[1]) == mistaken));
    if after.states[..=mistake] == before.states[..=mistake] {
        assert_eq!(after.moves() - mistake, 12);
    }
    assert_ne!(after.states, before.states);
}

#[test]
#[ignore = "25 s of two idle cores (a whole default game and its backward pass); run with --ignored"]
fn a_won_looking_draw_is_played_again_from_the_first_win_found() {
    // random-20261126-050 (seed 20261126 of `bench --random`, issue 23's benchmark): black, five
    // men ahead, has a win in 21 after red's forced capture, and the game's turns drew it by
    // repetition. Asked from the first of black's unproven moves, the win is found, and the game
    // played again from it is the optimal line, a win for black in 22 plies (`verify --max-seconds
    // 300`: every move keeps the exact value).
    let board = std::fs::read("tests/data/repair/random-20261126-050.txt").expect("board");
    let pos = parse_board(&board).expect("board");
    let solution = solve(pos, &SolveOptions::default());
    assert!(!solution.time_limited);
    assert!(black_wins(&solution));
    assert_eq!(solution.moves(), 22);
}
