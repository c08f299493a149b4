//! The player layer: draw rules pinned by small positions, the clock, the built-in players and
//! the engine answering legally under tight limits.

use std::time::Duration;

use checkers::play::{
    Clock, Engine, EngineOptions, Game, GameError, MinimaxPlayer, Outcome, Player, PlayerSpec,
    RandomPlayer,
};
use checkers::rules::draw::DrawRule;
use checkers::rules::movegen::legal_moves;
use checkers::{Bitboard, Color, Move, Position, Square};

use crate::common::sq;

/// A position from (row, col) cells; kings listed separately.
fn board(red: &[(u8, u8)], black: &[(u8, u8)], kings: &[(u8, u8)], side: Color) -> Position {
    let bits = |cells: &[(u8, u8)]| -> Bitboard {
        cells
            .iter()
            .map(|&(r, c)| Square::new(r, c).expect("cell on the board"))
            .collect()
    };
    Position::new(bits(red), bits(black), bits(kings), side).expect("consistent position")
}

fn step(from: (u8, u8), to: (u8, u8)) -> Move {
    Move::new(sq(from.0, from.1), sq(to.0, to.1), Bitboard::EMPTY)
}

/// Two kings far apart, shuttling.
fn two_kings() -> Position {
    board(&[(7, 0)], &[(0, 7)], &[(7, 0), (0, 7)], Color::Red)
}

fn shuttle(game: &mut Game, times: usize) {
    for _ in 0..times {
        for mv in [
            step((7, 0), (6, 1)),
            step((0, 7), (1, 6)),
            step((6, 1), (7, 0)),
            step((1, 6), (0, 7)),
        ] {
            game.play(mv).expect("legal shuttle move");
        }
    }
}

#[test]
fn threefold_repetition_draws_under_every_rule() {
    for rule in [DrawRule::None, DrawRule::Csci561, DrawRule::Dd2380] {
        let mut game = Game::new(two_kings(), rule);
        shuttle(&mut game, 1);
        assert_eq!(game.occurrences(game.current()), 2, "{rule}");
        assert_eq!(
            game.outcome(),
            None,
            "{rule}: second occurrence is not yet a draw"
        );
        shuttle(&mut game, 1);
        assert_eq!(game.outcome(), Some(Outcome::Repetition), "{rule}");
        assert!(matches!(
            game.play(step((7, 0), (6, 1))),
            Err(GameError::Over(Outcome::Repetition))
        ));
    }
}

#[test]
fn csci561_compares_pieces_only() {
    let pos = two_kings();
    let game = Game::new(pos, DrawRule::Csci561);
    let other_side = pos.with_side_to_move(Color::Black);
    assert_eq!(game.occurrences(&other_side), 1);
    let game = Game::new(pos, DrawRule::Dd2380);
    assert_eq!(game.occurrences(&other_side), 0);
}

#[test]
fn fifty_quiet_plies_draw_under_csci561_and_dd2380_only() {
    // Kings only: every move is quiet. Joined with 48 quiet plies already played.
    for (rule, draws) in [
        (DrawRule::Csci561, true),
        (DrawRule::Dd2380, true),
        (DrawRule::None, false),
    ] {
        let mut game = Game::resumed(two_kings(), rule, 48);
        game.play(step((7, 0), (6, 1))).expect("legal");
        assert_eq!(game.outcome(), None, "{rule}: 49 quiet plies");
        game.play(step((0, 7), (1, 6))).expect("legal");
        assert_eq!(game.quiet_plies(), 50);
        let expected = draws.then_some(Outcome::QuietMoves);
        assert_eq!(game.outcome(), expected, "{rule}: 50 quiet plies");
    }
}

#[test]
fn a_capture_restarts_the_count() {
    // Red man on row 5 col 2 jumps the black man on row 4 col 3.
    let pos = board(
        &[(5, 2), (7, 0)],
        &[(4, 3), (0, 7)],
        &[(7, 0), (0, 7)],
        Color::Red,
    );
    for rule in [DrawRule::Csci561, DrawRule::Dd2380] {
        let mut game = Game::resumed(pos, rule, 49);
        let jump = Move::new(sq(5, 2), sq(3, 4), sq(4, 3).bit());
        game.play(jump).expect("legal jump");
        assert_eq!(game.quiet_plies(), 0, "{rule}");
        assert_eq!(game.outcome(), None);
    }
}

#[test]
fn crowning_restarts_the_count_under_csci561_but_not_dd2380() {
    let pos = board(&[(1, 2)], &[(6, 7)], &[(6, 7)], Color::Red);
    let crown = step((1, 2), (0, 1));
    let mut csci = Game::resumed(pos, DrawRule::Csci561, 49);
    csci.play(crown).expect("legal");
    assert_eq!(csci.quiet_plies(), 0);
    assert_eq!(csci.outcome(), None);
    let mut dd = Game::resumed(pos, DrawRule::Dd2380, 49);
    dd.play(crown).expect("legal");
    assert_eq!(dd.quiet_plies(), 50);
    assert_eq!(dd.outcome(), Some(Outcome::QuietMoves));
}

#[test]
fn a_man_step_is_quiet() {
    let mut game = Game::standard(DrawRule::Csci561);
    let mv = legal_moves(game.current())[0];
    game.play(mv).expect("legal");
    assert_eq!(game.quiet_plies(), 1);
}

#[test]
fn illegal_moves_are_refused_and_undo_restores() {
    let mut game = Game::standard(DrawRule::None);
    let bogus = step((5, 0), (3, 2));
    assert!(matches!(
        game.play(bogus),
        Err(GameError::Illegal { ply: 0, .. })
    ));
    let mv = legal_moves(game.current())[0];
    game.play(mv).expect("legal");
    assert_eq!(game.undo(), Some(mv));
    assert_eq!(game.current(), &Position::start());
    assert_eq!(game.occurrences(&Position::start()), 1);
    assert_eq!(game.undo(), None);
}

#[test]
fn no_legal_move_is_a_loss() {
    // Black's only man, on row 7 col 1, is blocked by red men on both cells below it, and
    // there is no row to jump to.
    let stuck = board(&[(7, 0), (7, 2)], &[(6, 1)], &[], Color::Black);
    assert!(legal_moves(&stuck).is_empty());
    let game = Game::new(stuck, DrawRule::None);
    assert_eq!(game.outcome(), Some(Outcome::Win { winner: Color::Red }));
}

/// Plays the engine from a few positions with `clock` and checks each answer is legal.
fn engine_answers_legally(make_clock: impl Fn() -> Clock) {
    let mut engine = Engine::new(EngineOptions::default());
    let mut game = Game::standard(DrawRule::Csci561);
    for _ in 0..12 {
        if game.outcome().is_some() {
            break;
        }
        let mv = engine.choose(&game, &make_clock()).expect("a move");
        assert!(game.legal_moves().contains(&mv));
        game.play(mv).expect("legal");
    }
    assert!(game.ply() > 0);
}

#[test]
fn a_ten_millisecond_clock_answers_legally() {
    engine_answers_legally(|| Clock::per_move(Duration::from_millis(10)));
    engine_answers_legally(|| Clock::deadline(Duration::from_millis(10)));
    engine_answers_legally(|| Clock::game_left(Duration::from_millis(10)));
    engine_answers_legally(|| Clock::per_move(Duration::from_millis(10)).with_cpu_time());
    // Even a clock already out of time gets a legal move (the first iteration is cut short).
    engine_answers_legally(|| Clock::per_move(Duration::ZERO));
}

/// A red king on row 5 col 4 that may take one man (north-west) or two (south-east, then
/// north-east).
fn one_or_two_captures() -> Position {
    board(&[(4, 3)], &[(3, 2), (5, 4), (5, 6)], &[(4, 3)], Color::Red)
}

#[test]
fn the_engine_takes_two_rather_than_one() {
    let pos = one_or_two_captures();
    let counts: Vec<u32> = legal_moves(&pos)
        .iter()
        .map(|m| m.captured().count())
        .collect();
    assert_eq!(counts.len(), 2);
    assert!(counts.contains(&1) && counts.contains(&2));
    let game = Game::new(pos, DrawRule::None);
    let mut engine = Engine::new(EngineOptions {
        depth: Some(6),
        ..EngineOptions::default()
    });
    let thought = engine.think(&game, &Clock::unlimited()).expect("a move");
    assert_eq!(thought.best.captured().count(), 2, "{thought:?}");
    assert!(thought.depth >= 6);
    assert_eq!(thought.pv.first(), Some(&thought.best));
}

#[test]
fn node_limited_engines_repeat_exactly() {
    let play = || {
        let spec_a: PlayerSpec = "engine:nodes=3000".parse().expect("spec");
        let spec_b: PlayerSpec = "engine:nodes=2000".parse().expect("spec");
        let (mut a, mut b) = (spec_a.build(0), spec_b.build(0));
        let mut game = Game::standard(DrawRule::Csci561);
        while game.outcome().is_none() && game.ply() < 200 {
            let player = if game.ply() % 2 == 0 { &mut a } else { &mut b };
            let mv = player.choose(&game, &Clock::unlimited()).expect("a move");
            game.play(mv).expect("legal");
        }
        game.moves().to_vec()
    };
    assert_eq!(play(), play());
}

#[test]
fn built_in_opponents_play_legal_moves() {
    let mut random = RandomPlayer::new(7);
    let mut minimax = MinimaxPlayer::new(3);
    let mut game = Game::standard(DrawRule::Csci561);
    while game.outcome().is_none() {
        let clock = Clock::unlimited();
        let mv = if game.ply() % 2 == 0 {
            random.choose(&game, &clock)
        } else {
            minimax.choose(&game, &clock)
        }
        .expect("a move");
        game.play(mv).expect("legal");
    }
    assert!(game.outcome().is_some());
}

#[test]
fn minimax_takes_the_bigger_capture() {
    let game = Game::new(one_or_two_captures(), DrawRule::None);
    let mv = MinimaxPlayer::new(1)
        .choose(&game, &Clock::unlimited())
        .expect("a move");
    assert_eq!(mv.captured().count(), 2);
}

/// Plays `game` to its end, red by `red` and black by `black`, without a clock.
fn play_out(game: &mut Game, red: &mut dyn Player, black: &mut dyn Player, max_plies: usize) {
    while game.outcome().is_none() && game.ply() < max_plies {
        let player: &mut dyn Player = if game.current().side_to_move() == Color::Red {
            &mut *red
        } else {
            &mut *black
        };
        let mv = player.choose(game, &Clock::unlimited()).expect("a move");
        game.play(mv).expect("legal");
    }
}

#[test]
fn two_kings_beat_one_before_the_fifty_move_rule() {
    // Red kings on squares 29 and 31 (bottom row); the black king in the far double corner.
    for black_king in [(0, 7), (1, 6), (3, 4)] {
        let pos = board(
            &[(7, 0), (7, 4)],
            &[black_king],
            &[(7, 0), (7, 4), black_king],
            Color::Red,
        );
        let mut game = Game::new(pos, DrawRule::Csci561);
        let mut engine = Engine::new(EngineOptions {
            nodes: Some(20_000),
            ..EngineOptions::default()
        });
        let mut defender = MinimaxPlayer::new(4);
        play_out(&mut game, &mut engine, &mut defender, 200);
        assert_eq!(
            game.outcome(),
            Some(Outcome::Win { winner: Color::Red }),
            "black king from {black_king:?}: {} plies",
            game.ply()
        );
    }
}

/// Cells as (row, col) pairs.
type Cells = Vec<(u8, u8)>;

/// The kings on (7,0) (red) and (0,7) (black) shuttle for `plies` plies; the side that has the
/// extra king on `extra` is ahead. After 7 plies black is to move, and (1,6)-(0,7) brings the
/// start position for the third time.
fn shuttled_game(plies: usize, extra: Color) -> Game {
    let (red, black): (Cells, Cells) = match extra {
        Color::Red => (vec![(7, 0), (7, 6)], vec![(0, 7)]),
        Color::Black => (vec![(7, 0)], vec![(0, 7), (0, 1)]),
    };
    let kings: Vec<(u8, u8)> = red.iter().chain(black.iter()).copied().collect();
    let pos = board(&red, &black, &kings, Color::Red);
    let mut game = Game::new(pos, DrawRule::None);
    let cycle = [
        step((7, 0), (6, 1)),
        step((0, 7), (1, 6)),
        step((6, 1), (7, 0)),
        step((1, 6), (0, 7)),
    ];
    for mv in cycle.iter().cycle().take(plies) {
        game.play(*mv).expect("legal shuttle move");
    }
    game
}

fn engine_at_depth(depth: u32) -> Engine {
    Engine::new(EngineOptions {
        depth: Some(depth),
        ..EngineOptions::default()
    })
}

#[test]
fn the_side_ahead_avoids_a_threefold_repetition() {
    let game = shuttled_game(7, Color::Black);
    let repeat = step((1, 6), (0, 7));
    let mut after = game.clone();
    after.play(repeat).expect("legal");
    assert_eq!(after.outcome(), Some(Outcome::Repetition));
    let thought = engine_at_depth(8)
        .think(&game, &Clock::unlimited())
        .expect("a move");
    assert_ne!(thought.best, repeat, "{thought:?}");
    assert!(thought.score.0 > 0);
}

#[test]
fn the_side_behind_takes_a_threefold_repetition() {
    let game = shuttled_game(7, Color::Red);
    let repeat = step((1, 6), (0, 7));
    let mut after = game.clone();
    after.play(repeat).expect("legal");
    assert_eq!(after.outcome(), Some(Outcome::Repetition));
    let thought = engine_at_depth(8)
        .think(&game, &Clock::unlimited())
        .expect("a move");
    assert_eq!(thought.best, repeat, "{thought:?}");
    assert_eq!(thought.score.0, 0);
}
