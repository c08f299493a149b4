//! A side ahead never gives its win away: at the default options, without databases kept
//! from earlier runs, a board where one side is well ahead ends in that side's win in the
//! exact number of plies when the analysis that proves it fits the time limit, and never in a
//! draw by repetition (issue 46).

use checkers::formats::fen::parse;
use checkers::rules::game::Outcome;
use checkers::search::puzzle::solve::{solve, SolveOptions};
use checkers::Color;

/// Solves `fen` (red to move) at the default options and checks the winner and the length.
fn wins_exactly(fen: &str, winner: Color, plies: usize) {
    let pos = parse(fen).expect("fen");
    let solution = solve(pos, &SolveOptions::default());
    assert!(
        !matches!(solution.outcome, Outcome::Repetition),
        "{fen}: drawn by repetition after {} plies",
        solution.moves()
    );
    assert_eq!(solution.outcome, Outcome::Win { winner }, "{fen}");
    assert_eq!(solution.moves(), plies, "{fen}");
    assert!(solution.proven, "{fen}");
}

/// Issue 46's study: two red kings and a red man against a black king and two black men, a red
/// win in 65 plies, proven by the analysis of its 357.7 M reachable positions.
#[test]
#[ignore = "needs two idle cores: the study's analysis of 357.7 M positions must finish within \
            the default 50 s limit (about 30 s on two idle cores; a loaded machine gives it up)"]
fn the_study_is_a_red_win_in_65_plies_at_the_default_options() {
    wins_exactly("W:WK19,K22,30:B12,21,K27", Color::Red, 65);
}

/// The study with the colours exchanged and the board turned round, red to move: black, ahead
/// but not to move, wins in 40 plies (the analysis of the same 357.7 M positions).
#[test]
#[ignore = "needs two idle cores: the analysis of 357.7 M positions must finish within the \
            default 50 s limit (about 30 s on two idle cores; a loaded machine gives it up)"]
fn the_study_turned_round_is_a_black_win_in_40_plies_at_the_default_options() {
    wins_exactly("W:W21,12,K6:BK14,K11,3", Color::Black, 40);
}
