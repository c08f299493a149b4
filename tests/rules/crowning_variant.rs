//! HackerRank's crowning rule ([`CrowningRule::JumpsOn`]): a man crowned during a capture goes
//! on jumping as a king when it can. Pinned by small positions, then checked against the naive
//! reference generator of `tests/rules/reference.rs` (perft and full successor sets), which implements the
//! rule on its own.

use crate::reference;

use crate::reference::{multiset, Board};
use checkers::formats::board_text::parse_board;
use checkers::rules::movegen::{self, CrowningRule, Routes};
use checkers::rules::perft::perft;
use checkers::{Bitboard, Color, Kind, Move, MoveList, Position, Square};

fn board(text: &str) -> Position {
    parse_board(text.as_bytes()).expect("test board parses")
}

fn sq(row: u8, col: u8) -> Square {
    Square::new(row, col).expect("on the board")
}

fn bits(cells: &[(u8, u8)]) -> Bitboard {
    cells
        .iter()
        .fold(Bitboard::EMPTY, |b, &(r, c)| b | sq(r, c).bit())
}

/// A red man on (2,1) takes (1,2), is crowned on (0,3), and as a king could take (1,4).
const CROWN_THEN_JUMP: &str = "\
........
..b.b...
.r......
........
........
........
........
........
";

/// The same, but nothing is left for the new king to take.
const CROWN_AND_STOP: &str = "\
........
..b.....
.r......
........
........
........
......b.
........
";

#[test]
fn a_man_crowned_mid_capture_jumps_on_as_a_king() {
    let pos = board(CROWN_THEN_JUMP);
    let moves = CrowningRule::JumpsOn.legal_moves(&pos);
    let jump_on = Move::new(sq(2, 1), sq(2, 5), bits(&[(1, 2), (1, 4)]));
    assert_eq!(moves.as_slice(), &[jump_on]);
    // It ends as a king, on a cell that is not its crowning row.
    assert!(pos.crowns(jump_on));
    let after = pos.play(jump_on);
    let piece = after.piece_at(sq(2, 5)).expect("the mover stands on (2,5)");
    assert_eq!((piece.color, piece.kind), (Color::Red, Kind::King));
    assert!(after.pieces(Color::Black).is_empty());
    assert_eq!(after.hash(), after.compute_hash());
    // Its route: start, the crowning cell, the last landing.
    assert_eq!(
        movegen::route(&pos, jump_on, CrowningRule::JumpsOn),
        Some(vec![sq(2, 1), sq(0, 3), sq(2, 5)])
    );
}

#[test]
fn the_default_rules_still_end_the_move_on_crowning() {
    let pos = board(CROWN_THEN_JUMP);
    let stop = Move::new(sq(2, 1), sq(0, 3), bits(&[(1, 2)]));
    assert_eq!(movegen::legal_moves(&pos).as_slice(), &[stop]);
    assert_eq!(CrowningRule::EndsMove.legal_moves(&pos).as_slice(), &[stop]);
    let after = pos.play(stop);
    let piece = after.piece_at(sq(0, 3)).expect("the mover stands on (0,3)");
    assert_eq!(piece.kind, Kind::King);
    assert!(after.pieces(Color::Black).contains(sq(1, 4)));
}

#[test]
fn a_crowned_man_with_nothing_more_to_take_stops_under_both_rules() {
    let pos = board(CROWN_AND_STOP);
    let stop = Move::new(sq(2, 1), sq(0, 3), bits(&[(1, 2)]));
    for rule in [CrowningRule::EndsMove, CrowningRule::JumpsOn] {
        assert_eq!(rule.legal_moves(&pos).as_slice(), &[stop], "{rule:?}");
    }
    assert_eq!(
        pos.play(stop).piece_at(sq(0, 3)).map(|p| p.kind),
        Some(Kind::King)
    );
}

#[test]
fn routes_are_checked_hop_by_hop_under_each_rule() {
    let pos = board(CROWN_THEN_JUMP);
    let full = [sq(2, 1), sq(0, 3), sq(2, 5)];
    let short = [sq(2, 1), sq(0, 3)];
    let jumps_on = CrowningRule::JumpsOn;
    let ends = CrowningRule::EndsMove;
    assert_eq!(
        movegen::move_from_route(&pos, &full, jumps_on),
        Some(Move::new(sq(2, 1), sq(2, 5), bits(&[(1, 2), (1, 4)])))
    );
    // Stopping on the crowning cell leaves the sequence incomplete under HackerRank's rule...
    assert_eq!(movegen::move_from_route(&pos, &short, jumps_on), None);
    // ... and jumping on is not allowed under the default one.
    assert_eq!(movegen::move_from_route(&pos, &full, ends), None);
    assert_eq!(
        movegen::move_from_route(&pos, &short, ends),
        Some(Move::new(sq(2, 1), sq(0, 3), bits(&[(1, 2)])))
    );
    // A step while a capture exists, a jump over nothing, a single cell: none is a move.
    assert_eq!(
        movegen::move_from_route(&pos, &[sq(2, 1), sq(1, 0)], jumps_on),
        None
    );
    assert_eq!(
        movegen::move_from_route(&pos, &[sq(2, 1), sq(4, 3)], jumps_on),
        None
    );
    assert_eq!(movegen::move_from_route(&pos, &[sq(2, 1)], jumps_on), None);
    assert_eq!(movegen::move_from_route(&pos, &[], jumps_on), None);
}

/// A black man does the same towards the bottom row.
#[test]
fn black_men_jump_on_after_crowning_too() {
    let pos = board(
        "\
........
........
........
........
........
......b.
.....r.r
........
",
    )
    .with_side_to_move(Color::Black);
    // (5,6) takes (6,5) landing (7,4), crowned; then takes... nothing: (6,3) is empty.
    // Or takes (6,7)? It would land on (7,8), off the board. So one move that stops.
    let stop = Move::new(sq(5, 6), sq(7, 4), bits(&[(6, 5)]));
    assert_eq!(CrowningRule::JumpsOn.legal_moves(&pos).as_slice(), &[stop]);
    let pos = board(
        "\
........
........
........
........
........
......b.
...r.r..
........
",
    )
    .with_side_to_move(Color::Black);
    let on = Move::new(sq(5, 6), sq(5, 2), bits(&[(6, 5), (6, 3)]));
    assert_eq!(CrowningRule::JumpsOn.legal_moves(&pos).as_slice(), &[on]);
    assert_eq!(
        pos.play(on).piece_at(sq(5, 2)).map(|p| p.kind),
        Some(Kind::King)
    );
    assert_eq!(
        movegen::route(&pos, on, CrowningRule::JumpsOn),
        Some(vec![sq(5, 6), sq(7, 4), sq(5, 2)])
    );
}

/// HackerRank's second sample (white = our red, to move): 5 hops, crowned on the third landing.
const HACKERRANK_SAMPLE: &str = "\
........
b.b.b.b.
...b....
..b.....
.r......
r.b...r.
.r.....b
r.....r.
";

/// Men of both sides a jump or two from crowning, with kings about, both sides' turns.
const CROWNING_RICH: &str = "\
........
b.b.b...
.r.r....
........
.....R..
..b.....
.r...b.b
r...r...
";

/// Positions for the variant's perft: each with either side to move.
fn variant_positions() -> Vec<(String, Position)> {
    let mut v = Vec::new();
    for (name, text) in [("sample", HACKERRANK_SAMPLE), ("rich", CROWNING_RICH)] {
        let pos = board(text);
        v.push((format!("{name}/red"), pos));
        v.push((format!("{name}/black"), pos.with_side_to_move(Color::Black)));
    }
    v
}

fn successors(pos: &Position, rule: CrowningRule, routes: Routes) -> Vec<Board> {
    let mut list = MoveList::new();
    rule.generate(pos, routes, &mut list);
    list.iter()
        .map(|&mv| Board::from_position(&pos.play(mv)))
        .collect()
}

/// Compares successor multisets and sets under the variant on every position reachable in fewer
/// than `depth` plies; returns how many positions were compared.
fn compare_tree(name: &str, pos: &Position, depth: u32) -> u64 {
    let rule = CrowningRule::JumpsOn;
    let reference = Board::from_position(pos);
    assert_eq!(
        multiset(successors(pos, rule, Routes::All)),
        multiset(reference.successors_under(true)),
        "{name}: successors (all routes) differ at\n{}",
        reference.text()
    );
    let mut distinct = successors(pos, rule, Routes::Distinct);
    distinct.sort();
    assert_eq!(
        distinct,
        reference.distinct_successors_under(true),
        "{name}: distinct successors differ at\n{}",
        reference.text()
    );
    let mut compared = 1;
    if depth > 1 {
        for &mv in &rule.legal_moves(pos) {
            compared += compare_tree(name, &pos.play(mv), depth - 1);
        }
    }
    compared
}

#[test]
fn variant_successors_match_the_reference() {
    let mut compared = 0;
    for (name, pos) in variant_positions() {
        compared += compare_tree(&name, &pos, 4);
    }
    assert!(compared > 100, "only {compared} positions compared");
}

/// Every public puzzle (tests/data/public), with either side to move, and every position up to
/// two plies after it.
#[test]
fn variant_successors_match_the_reference_on_the_public_puzzles() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/public"));
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/data/public is readable")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.len() == 7 && n.starts_with('p') && n.ends_with(".txt"))
        .collect();
    names.sort();
    assert!(names.len() >= 52, "found only {} puzzles", names.len());
    let mut compared = 0;
    for name in &names {
        let bytes = std::fs::read(dir.join(name)).expect("readable");
        let pos = parse_board(&bytes).expect("a puzzle");
        compared += compare_tree(name, &pos, 3);
        compared += compare_tree(name, &pos.with_side_to_move(Color::Black), 3);
    }
    assert!(compared > 1000, "only {compared} positions compared");
}

#[test]
fn variant_perft_matches_the_reference_and_differs_from_the_default() {
    let mut differs = 0;
    for (name, pos) in variant_positions() {
        let board = Board::from_position(&pos);
        for depth in 1..=6 {
            for (routes, all) in [(Routes::All, true), (Routes::Distinct, false)] {
                let got = CrowningRule::JumpsOn.perft(&pos, depth, routes);
                assert_eq!(
                    got,
                    reference::perft_under(&board, depth, all, true),
                    "{name} depth {depth} {routes:?}"
                );
                if got != perft(&pos, depth, routes) {
                    differs += 1;
                }
            }
            // The default rule's `CrowningRule::perft` is the default perft.
            assert_eq!(
                CrowningRule::EndsMove.perft(&pos, depth, Routes::All),
                perft(&pos, depth, Routes::All)
            );
        }
    }
    // The positions really exercise the rule (otherwise this test would prove nothing).
    assert!(differs > 4, "the variant changed only {differs} counts");
}

/// The second HackerRank sample: one legal move under the variant, the published 5-hop capture;
/// the default rules stop it on the crowning cell after 3 hops.
#[test]
fn the_published_five_hop_capture_is_the_only_move() {
    let pos = board(HACKERRANK_SAMPLE);
    let moves = CrowningRule::JumpsOn.legal_moves(&pos);
    assert_eq!(moves.len(), 1);
    let path = movegen::route(&pos, moves[0], CrowningRule::JumpsOn).expect("legal");
    let want: Vec<Square> = [(6, 1), (4, 3), (2, 1), (0, 3), (2, 5), (0, 7)]
        .iter()
        .map(|&(r, c)| sq(r, c))
        .collect();
    assert_eq!(path, want);
    let default = movegen::legal_moves(&pos);
    assert_eq!(default.len(), 1);
    assert_eq!(default[0].to(), sq(0, 3));
    assert_eq!(default[0].captured().count(), 3);
}
