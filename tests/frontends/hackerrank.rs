//! The HackerRank bot: the challenge's two published samples replayed, bad inputs named by line,
//! coordinates round-tripped, the game layer under the HackerRank crowning rule, and the binary
//! end to end through standard input.

use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;

use checkers::play::Game;
use checkers::protocols::hackerrank::{
    answer, format_cells, move_cells, parse_input, parse_move, AnswerError, InputErrorKind,
    CROWNING,
};
use checkers::rules::draw::DrawRule;
use checkers::rules::movegen::{self, CrowningRule};
use checkers::{Color, Kind, Position};

use crate::common::{checkers, sq};

/// The challenge's first sample: black to move, no capture.
const SAMPLE_1: &str =
    "b\n8\n_______W\nb_______\n___b____\n________\n_w______\nw_____w_\n_______b\nw_____w_\n";
const SAMPLE_1_ANSWER: &str = "1\n1 0\n2 1\n";

/// Second sample: white to move, a 5-hop capture crowned on the third landing.
const SAMPLE_2: &str =
    "w\n8\n________\nb_b_b_b_\n___b____\n__b_____\n_w______\nw_b___w_\n_w_____b\nw_____w_\n";
const SAMPLE_2_ANSWER: &str = "5\n6 1\n4 3\n2 1\n0 3\n2 5\n0 7\n";

fn parse(text: &str) -> Position {
    parse_input(text.as_bytes()).expect("sample parses")
}

/// A short thinking time: enough for a legal move, never a timed assertion.
const SHORT: Duration = Duration::from_millis(200);

#[test]
fn inputs_are_read_with_black_at_the_top_and_the_player_to_move() {
    let pos = parse(SAMPLE_1);
    assert_eq!(pos.side_to_move(), Color::Black);
    let at = |r, c| pos.piece_at(sq(r, c)).map(|p| (p.color, p.kind));
    assert_eq!(at(0, 7), Some((Color::Red, Kind::King)));
    assert_eq!(at(1, 0), Some((Color::Black, Kind::Man)));
    assert_eq!(at(4, 1), Some((Color::Red, Kind::Man)));
    assert_eq!(at(6, 7), Some((Color::Black, Kind::Man)));
    assert_eq!(at(0, 0), None);
    assert_eq!(pos.pieces(Color::Black).count(), 3);
    assert_eq!(pos.pieces(Color::Red).count(), 6);
    assert_eq!(parse(SAMPLE_2).side_to_move(), Color::Red);
    // Kings of both sides, CRLF, spaces and a trailing blank line are accepted.
    let crlf = "w \r\n 8\r\nB_______\n________\n________\n________\n________\n________\n________\n_______W\n\n";
    let pos = parse(crlf);
    assert_eq!(pos.side_to_move(), Color::Red);
    assert_eq!(pos.kings(), sq(0, 0).bit() | sq(7, 7).bit());
    assert_eq!(pos.pieces(Color::Black), sq(0, 0).bit());
}

/// Sample 1 is not forced (three steps are legal), so the published answer is checked to be
/// one of them, and the bot's own answer to be legal.
#[test]
fn sample_1_published_answer_is_legal_and_ours_is_legal() {
    let pos = parse(SAMPLE_1);
    let legal = CROWNING.legal_moves(&pos);
    assert_eq!(legal.len(), 3, "sample 1 has three steps");
    let published = parse_move(&pos, SAMPLE_1_ANSWER).expect("the published answer is legal");
    assert_eq!((published.from(), published.to()), (sq(1, 0), sq(2, 1)));
    assert!(!published.is_capture());
    let ours = answer(&pos, SHORT).expect("a move");
    assert!(legal.contains(&ours.mv));
    assert_eq!(parse_move(&pos, &ours.text), Ok(ours.mv));
    assert_eq!(ours.text.lines().next(), Some("1"));
}

/// Sample 2 is forced under the HackerRank rule: the bot prints the published answer exactly.
#[test]
fn sample_2_forced_five_hop_capture_is_answered_exactly() {
    let pos = parse(SAMPLE_2);
    let legal = CROWNING.legal_moves(&pos);
    assert_eq!(legal.len(), 1);
    assert_eq!(legal[0].captured().count(), 5);
    assert_eq!(parse_move(&pos, SAMPLE_2_ANSWER), Ok(legal[0]));
    let ours = answer(&pos, SHORT).expect("a move");
    assert_eq!(ours.mv, legal[0]);
    assert_eq!(ours.text, SAMPLE_2_ANSWER);
    // Under the default rules the same man would stop after 3 hops, crowned.
    let stop = movegen::legal_moves(&pos);
    assert_eq!(stop.len(), 1);
    assert!(parse_move(&pos, "3\n6 1\n4 3\n2 1\n0 3\n").is_err());
}

/// Every legal move of the samples and of the positions up to three plies after them is written
/// and read back to the same move; the written route starts on the move's start and ends on its
/// end, with one more cell than hops.
#[test]
fn moves_round_trip_through_the_output_format() {
    fn walk(pos: &Position, depth: u32, checked: &mut usize) {
        for &mv in &CROWNING.legal_moves(pos) {
            let cells = move_cells(pos, mv).expect("a legal move has a route");
            assert_eq!(cells.first(), Some(&mv.from()));
            assert_eq!(cells.last(), Some(&mv.to()));
            let text = format_cells(&cells);
            assert_eq!(text.lines().count(), cells.len() + 1);
            assert_eq!(text.lines().next(), Some(&*(cells.len() - 1).to_string()));
            assert_eq!(parse_move(pos, &text), Ok(mv));
            *checked += 1;
            if depth > 0 {
                walk(&pos.play(mv), depth - 1, checked);
            }
        }
    }
    let mut checked = 0;
    for sample in [SAMPLE_1, SAMPLE_2] {
        let pos = parse(sample);
        walk(&pos, 3, &mut checked);
        walk(
            &pos.with_side_to_move(pos.side_to_move().opponent()),
            3,
            &mut checked,
        );
    }
    assert!(checked > 200, "only {checked} moves checked");
}

/// Whether an error is of the expected kind.
type KindCheck = fn(&InputErrorKind) -> bool;

#[test]
fn bad_inputs_name_their_line() {
    let row = "________\n";
    let board = row.repeat(8);
    let cases: Vec<(String, usize, KindCheck)> = vec![
        (String::new(), 1, |k| {
            matches!(k, InputErrorKind::Missing { .. })
        }),
        ("x\n8\n".into(), 1, |k| {
            matches!(k, InputErrorKind::Player { .. })
        }),
        ("bw\n8\n".into(), 1, |k| {
            matches!(k, InputErrorKind::Player { .. })
        }),
        ("b\n".into(), 2, |k| {
            matches!(k, InputErrorKind::Missing { .. })
        }),
        ("b\n10\n".into(), 2, |k| {
            matches!(k, InputErrorKind::Size { .. })
        }),
        ("b\neight\n".into(), 2, |k| {
            matches!(k, InputErrorKind::Size { .. })
        }),
        (format!("b\n8\n{}", row.repeat(5)), 8, |k| {
            matches!(k, InputErrorKind::Missing { .. })
        }),
        (format!("b\n8\n{row}{row}\n{}", row.repeat(6)), 5, |k| {
            matches!(k, InputErrorKind::EmptyLine { .. })
        }),
        (format!("b\n8\n{row}_______\n"), 4, |k| {
            matches!(k, InputErrorKind::RowLength { found: 7 })
        }),
        (format!("b\n8\n{row}{row}_________\n"), 5, |k| {
            matches!(k, InputErrorKind::RowLength { found: 9 })
        }),
        (format!("b\n8\n{row}___r____\n"), 4, |k| {
            matches!(
                k,
                InputErrorKind::Cell {
                    column: 4,
                    found: 'r'
                }
            )
        }),
        (format!("b\n8\n{row}__.\u{e9}____\n"), 4, |k| {
            matches!(
                k,
                InputErrorKind::Cell {
                    column: 3,
                    found: '.'
                }
            )
        }),
        (format!("w\n8\n{board}more\n"), 11, |k| {
            matches!(k, InputErrorKind::Trailing { .. })
        }),
    ];
    for (input, line, kind) in &cases {
        let err = parse_input(input.as_bytes()).expect_err(input);
        assert_eq!(err.line, *line, "{input:?}: {err}");
        assert!(kind(&err.kind), "{input:?}: {err}");
        assert!(err.to_string().starts_with(&format!("line {line}: ")));
    }
    // Bytes that are not UTF-8 are a bad cell, not a panic.
    let mut bytes = b"b\n8\n".to_vec();
    bytes.extend_from_slice(b"\xff_______\n");
    let err = parse_input(&bytes).expect_err("binary");
    assert_eq!(
        (err.line, err.kind.to_string().contains("column 1")),
        (3, true)
    );
}

#[test]
fn a_side_without_moves_has_no_answer() {
    let input = format!("b\n8\n{}", "________\n".repeat(8));
    let pos = parse(&input);
    assert_eq!(
        answer(&pos, SHORT).map(|a| a.mv),
        Err(AnswerError::NoLegalMove(Color::Black))
    );
}

/// The game layer under the HackerRank rule: only the rule's moves are accepted, and the crowned
/// man is a king after its last jump.
#[test]
fn games_are_played_under_the_hackerrank_rule() {
    let pos = parse(SAMPLE_2);
    let mut game = Game::new(pos, DrawRule::None).with_crowning(CrowningRule::JumpsOn);
    assert_eq!(game.crowning_rule(), CrowningRule::JumpsOn);
    let default_move = movegen::legal_moves(&pos)[0];
    assert!(game.play(default_move).is_err());
    let five = game.legal_moves()[0];
    game.play(five).expect("legal under the rule");
    let piece = game.current().piece_at(sq(0, 7)).expect("the mover");
    assert_eq!((piece.color, piece.kind), (Color::Red, Kind::King));
    // Eight black men less the five taken.
    assert_eq!(game.current().pieces(Color::Black).count(), 3);
    // The default game still plays the default rules.
    let mut standard = Game::new(pos, DrawRule::None);
    assert_eq!(standard.crowning_rule(), CrowningRule::EndsMove);
    assert!(standard.play(five).is_err());
    standard.play(default_move).expect("legal by default");
}

fn bot() -> Command {
    let mut cmd = checkers();
    cmd.arg("hackerrank").timeout(Duration::from_secs(60));
    cmd
}

#[test]
fn the_binary_answers_sample_2_exactly_through_stdin() {
    bot()
        .args(["--time", "0.2"])
        .write_stdin(SAMPLE_2)
        .assert()
        .success()
        .stdout(SAMPLE_2_ANSWER);
}

#[test]
fn the_binary_answers_sample_1_with_a_legal_step() {
    let out = bot()
        .args(["--time", "0.2"])
        .write_stdin(SAMPLE_1)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).expect("text");
    let pos = parse(SAMPLE_1);
    let mv = parse_move(&pos, &text).expect("the printed move is legal");
    assert!(CROWNING.legal_moves(&pos).contains(&mv));
}

#[test]
fn the_binary_refuses_bad_input_with_exit_2_and_the_line() {
    bot()
        .args(["--time", "0.2"])
        .write_stdin("b\n8\n________\n___x____\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("line 4").and(predicate::str::contains("'x'")));
    bot()
        .args(["--time", "0"])
        .write_stdin(SAMPLE_1)
        .assert()
        .code(2)
        .stdout(""); // A stream far longer than any board is refused without reading it all.
    bot()
        .args(["--time", "0.2"])
        .write_stdin(format!("{SAMPLE_1}{}", "_".repeat(200_000)))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("longer than"));
}

#[test]
fn the_binary_exits_1_without_a_move() {
    bot()
        .args(["--time", "0.2"])
        .write_stdin(format!("w\n8\n{}", "________\n".repeat(8)))
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("no legal move"));
}

/// The engine's search generates every node's moves under the game's crowning rule: red's only
/// move lets a black man take (6,1) and crown on (7,2); under the HackerRank rule the new king
/// jumps on over (6,3), so the line costs red a second man and the search must see it.
#[test]
fn the_engine_searches_under_the_games_crowning_rule() {
    use checkers::play::{Clock, Engine, EngineOptions};
    let text =
        "w\n8\n________\n________\n_____b__\n______w_\n________\nb_______\n_w_w____\n________\n";
    let pos = parse(text);
    let think = |rule: CrowningRule| {
        let game = Game::new(pos, DrawRule::None).with_crowning(rule);
        let mut engine = Engine::new(EngineOptions {
            depth: Some(3),
            ..EngineOptions::default()
        });
        engine
            .think(&game, &Clock::unlimited())
            .expect("red has a move")
    };
    let jumps_on = think(CrowningRule::JumpsOn);
    let ends = think(CrowningRule::EndsMove);
    // Black's reply in the expected line takes two men under the rule, one by default.
    assert_eq!(jumps_on.pv.get(1).map(|m| m.captured().count()), Some(2));
    assert_eq!(ends.pv.get(1).map(|m| m.captured().count()), Some(1));
    assert!(
        jumps_on.score.0 + 50 < ends.score.0,
        "under the rule {} should be well below the default {}",
        jumps_on.score,
        ends.score
    );
}
