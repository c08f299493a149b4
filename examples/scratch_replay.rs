use checkers::formats::{board_text, notation};
use checkers::play::{Clock, Engine, EngineOptions, Game};
use checkers::rules::draw::DrawRule;
use checkers::tools::openings::parse_openings;
use std::time::Duration;
fn main() {
    let line = std::env::args().nth(1).unwrap();
    let o = parse_openings(&line).unwrap();
    let game =
        Game::from_moves(checkers::Position::start(), DrawRule::Csci561, &o[0].moves).unwrap();
    print!("{}", board_text::format_board(game.current()));
    println!(
        "side {:?} quiet {}",
        game.current().side_to_move(),
        game.quiet_plies()
    );
    let mut e = Engine::new(EngineOptions::default());
    let t = e
        .think(
            &game,
            &Clock::per_move(Duration::from_millis(100)).with_cpu_time(),
        )
        .unwrap();
    let mut p = *game.current();
    let mut pv = vec![];
    for &m in &t.pv {
        pv.push(notation::move_text(&p, m));
        p = p.play(m);
    }
    println!(
        "best {} score {} depth {} pv {}",
        notation::move_text(game.current(), t.best),
        t.score,
        t.depth,
        pv.join(" ")
    );
    for &m in game.legal_moves().iter() {
        let mut g2 = game.clone();
        g2.play(m).unwrap();
        let t2 = Engine::new(EngineOptions::default()).think(
            &g2,
            &Clock::per_move(Duration::from_millis(100)).with_cpu_time(),
        );
        println!(
            "  {} -> {:?}",
            notation::move_text(game.current(), m),
            t2.map(|t| -t.score)
        );
    }
}
