//! Property tests over random positions on all 64 cells: move generation against the reference
//! generator and against the definition of a move, route modes, the incremental hash, and the
//! text formats (round trips, and no panic on any input).

use std::collections::BTreeSet;

use crate::reference::{multiset, Board};
use checkers::formats::board_text::{format_board, format_solution, parse_board, parse_solution};
use checkers::rules::movegen::{self, Routes};
use checkers::{Bitboard, Color, Direction, Kind, Move, MoveList, Piece, Position, Square};
use proptest::prelude::*;

/// Random positions: each cell holds a piece with probability `density` percent, the piece (red or
/// black, man or king) uniformly; either side to move. Any cell may hold any piece, including men
/// on their crowning row, so the generator sees every case the puzzles can give it.
fn position() -> impl Strategy<Value = Position> {
    (
        3u32..60,
        proptest::collection::vec((0u32..100, 0u8..4), 64),
        any::<bool>(),
    )
        .prop_map(|(density, cells, black_to_move)| {
            let (mut red, mut black, mut kings) = (0u64, 0u64, 0u64);
            for (i, &(roll, piece)) in cells.iter().enumerate() {
                if roll >= density {
                    continue;
                }
                let bit = 1u64 << i;
                if piece < 2 {
                    red |= bit;
                } else {
                    black |= bit;
                }
                if piece % 2 == 1 {
                    kings |= bit;
                }
            }
            let side = if black_to_move {
                Color::Black
            } else {
                Color::Red
            };
            Position::new(Bitboard(red), Bitboard(black), Bitboard(kings), side)
                .expect("disjoint sides, kings on pieces")
        })
}

fn generate(pos: &Position, routes: Routes) -> MoveList {
    let mut list = MoveList::new();
    movegen::generate(pos, routes, &mut list);
    list
}

/// The cell one diagonal step from `from` in `dir`, if on the board.
fn neighbour(from: Square, dir: Direction) -> Option<Square> {
    let (dr, dc): (i8, i8) = match dir {
        Direction::NorthWest => (-1, -1),
        Direction::NorthEast => (-1, 1),
        Direction::SouthWest => (1, -1),
        Direction::SouthEast => (1, 1),
    };
    let r = from.row() as i8 + dr;
    let c = from.col() as i8 + dc;
    if (0..8).contains(&r) && (0..8).contains(&c) {
        Square::new(r as u8, c as u8)
    } else {
        None
    }
}

/// Checks that `child` is `parent` after `mv` and nothing else, following the definition of a
/// move: the mover's piece goes from `from` to `to`, exactly the captured enemy pieces disappear,
/// a man is crowned exactly when it ends on its far row, every other cell is unchanged, and the
/// turn passes.
fn check_one_move(parent: &Position, mv: Move, child: &Position) -> Result<(), TestCaseError> {
    let side = parent.side_to_move();
    let enemy = side.opponent();
    let mover = parent
        .piece_at(mv.from())
        .ok_or_else(|| TestCaseError::fail("move from an empty cell"))?;
    prop_assert_eq!(mover.color, side, "moved an enemy piece");
    prop_assert_eq!(child.side_to_move(), enemy, "turn did not pass");
    let captured = mv.captured();
    prop_assert_eq!(
        captured & parent.pieces(enemy),
        captured,
        "captured a non-enemy cell"
    );
    let far_row = match side {
        Color::Red => 0,
        Color::Black => 7,
    };
    let landed_kind = if mover.kind == Kind::King || mv.to().row() == far_row {
        Kind::King
    } else {
        Kind::Man
    };
    for sq in Square::all() {
        let expected = if sq == mv.to() {
            Some(Piece {
                color: side,
                kind: landed_kind,
            })
        } else if sq == mv.from() || captured.contains(sq) {
            None
        } else {
            parent.piece_at(sq)
        };
        prop_assert_eq!(child.piece_at(sq), expected, "cell {}", sq);
    }
    if captured.is_empty() {
        // A step: one cell diagonally, forward for a man, onto an empty cell.
        let dirs: &[Direction] = match (mover.kind, side) {
            (Kind::King, _) => &Direction::ALL,
            (Kind::Man, Color::Red) => &[Direction::NorthWest, Direction::NorthEast],
            (Kind::Man, Color::Black) => &[Direction::SouthWest, Direction::SouthEast],
        };
        prop_assert!(
            dirs.iter()
                .any(|&d| neighbour(mv.from(), d) == Some(mv.to())),
            "step {:?} is not one diagonal cell in an allowed direction",
            mv
        );
        prop_assert!(parent.piece_at(mv.to()).is_none(), "stepped onto a piece");
    } else {
        // A jump sequence moves two cells per capture in each coordinate, so it keeps the row
        // and column parity, and it lands on an empty cell or its own start.
        prop_assert_eq!(mv.from().row() % 2, mv.to().row() % 2);
        prop_assert_eq!(mv.from().col() % 2, mv.to().col() % 2);
        prop_assert!(mv.to() == mv.from() || parent.piece_at(mv.to()).is_none());
    }
    prop_assert_eq!(child.hash(), child.compute_hash(), "incremental hash");
    Ok(())
}

/// Lines of `text` as a tolerant reader sees them: line ends and trailing spaces dropped, trailing
/// empty lines dropped, each line then ended by LF.
fn normalize(text: &str) -> String {
    let mut lines: Vec<&str> = text
        .split('\n')
        .map(|l| {
            l.strip_suffix('\r')
                .unwrap_or(l)
                .trim_end_matches([' ', '\t'])
        })
        .collect();
    while lines.last() == Some(&"") {
        lines.pop();
    }
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// Inputs built from the board alphabet: one to three boards, each mostly 8 rows of mostly 8
/// cells from `.rRbB` (sometimes 7 or 9 rows, other widths, a space), rows ended by LF, CRLF,
/// trailing spaces or nothing, boards separated mostly by one empty line, and a random tail. Many
/// are valid boards or solutions; the rest fail deep in the row and board checks.
fn board_like_text() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        120 => Just('.'),
        10 => Just('r'),
        10 => Just('R'),
        10 => Just('b'),
        10 => Just('B'),
        1 => Just(' '),
    ];
    let width = prop_oneof![60 => Just(8usize), 1 => Just(0usize), 1 => 0usize..=10];
    let end = prop_oneof![
        30 => Just("\n"),
        8 => Just("\r\n"),
        1 => Just("  \n"),
        1 => Just(""),
    ];
    let row = (
        width.prop_flat_map(move |w| proptest::collection::vec(cell.clone(), w)),
        end,
    )
        .prop_map(|(cells, end)| cells.into_iter().collect::<String>() + end);
    let height = prop_oneof![10 => Just(8usize), 1 => Just(7usize), 1 => Just(9usize)];
    let board = height
        .prop_flat_map(move |h| proptest::collection::vec(row.clone(), h))
        .prop_map(|rows| rows.concat());
    let separator = prop_oneof![
        10 => Just("\n"),
        3 => Just("\r\n"),
        1 => Just(""),
        1 => Just("\n\n"),
    ];
    let tail = prop_oneof![
        4 => Just(""),
        2 => Just("\n"),
        1 => Just("\n\n"),
        1 => Just("  \r\n"),
    ];
    (proptest::collection::vec((board, separator), 1..=3), tail).prop_map(|(boards, tail)| {
        let n = boards.len();
        let mut text = String::new();
        for (i, (board, sep)) in boards.into_iter().enumerate() {
            text.push_str(&board);
            if i + 1 < n {
                text.push_str(sep);
            }
        }
        text + tail
    })
}

/// Checks what the parsers promise for any input: an error names a place inside the text (or
/// just after it), and an accepted text is a tolerated variant of what the formatter writes.
fn check_parsers(bytes: &[u8]) -> Result<(), TestCaseError> {
    let line_count = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
    match parse_board(bytes) {
        Ok(p) => {
            let text = std::str::from_utf8(bytes).expect("accepted text is UTF-8");
            prop_assert_eq!(p.side_to_move(), Color::Red);
            prop_assert_eq!(normalize(text), format_board(&p));
        }
        Err(e) => {
            prop_assert!(e.line >= 1 && e.line <= line_count + 1, "line {}", e.line);
            prop_assert!(e.column >= 1, "column {}", e.column);
        }
    }
    match parse_solution(bytes) {
        Ok(states) => {
            let text = std::str::from_utf8(bytes).expect("accepted text is UTF-8");
            prop_assert!(!states.is_empty());
            for (i, s) in states.iter().enumerate() {
                let side = if i % 2 == 0 { Color::Red } else { Color::Black };
                prop_assert_eq!(s.side_to_move(), side);
            }
            prop_assert_eq!(normalize(text), format_solution(&states));
        }
        Err(e) => {
            prop_assert!(e.line >= 1 && e.line <= line_count + 1, "line {}", e.line);
            prop_assert!(e.column >= 1, "column {}", e.column);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Move generation never panics and agrees with the reference generator: the same successor
    /// multiset with `Routes::All`, the same set with `Routes::Distinct`, whose successors are
    /// pairwise distinct; `count_moves`, `has_jump` and `jumpers` agree with the lists.
    #[test]
    fn generation_matches_reference(pos in position()) {
        let all = generate(&pos, Routes::All);
        let distinct = generate(&pos, Routes::Distinct);
        let board = Board::from_position(&pos);

        let got_all = multiset(all.iter().map(|&mv| Board::from_position(&pos.play(mv))));
        prop_assert_eq!(&got_all, &multiset(board.successors()), "at\n{}", board.text());

        let distinct_children: Vec<Board> =
            distinct.iter().map(|&mv| Board::from_position(&pos.play(mv))).collect();
        let distinct_set: BTreeSet<Board> = distinct_children.iter().cloned().collect();
        prop_assert_eq!(distinct_set.len(), distinct.len(), "Distinct repeats a position");
        let all_set: BTreeSet<Board> = got_all.keys().cloned().collect();
        prop_assert_eq!(&distinct_set, &all_set, "Distinct differs from the set of All");
        prop_assert_eq!(
            distinct_children.len(),
            board.distinct_successors().len()
        );

        prop_assert_eq!(movegen::count_moves(&pos, Routes::All), all.len() as u64);
        prop_assert_eq!(movegen::count_moves(&pos, Routes::Distinct), distinct.len() as u64);
        prop_assert_eq!(movegen::legal_moves(&pos).len(), distinct.len());

        let captures = all.iter().filter(|m| m.is_capture()).count();
        prop_assert!(captures == 0 || captures == all.len(), "captures mixed with steps");
        prop_assert_eq!(movegen::has_jump(&pos), captures > 0);
        let from_of_captures: Bitboard = all
            .iter()
            .filter(|m| m.is_capture())
            .map(|m| m.from())
            .collect();
        prop_assert_eq!(movegen::jumpers(&pos), from_of_captures);
    }

    /// Every successor differs from its parent by exactly one legal move (see `check_one_move`).
    #[test]
    fn every_successor_is_one_move(pos in position()) {
        for routes in [Routes::Distinct, Routes::All] {
            for mv in generate(&pos, routes) {
                check_one_move(&pos, mv, &pos.play(mv))?;
            }
        }
    }

    /// The incremental hash equals a recomputation after every move of random games of up to 20
    /// plies, and after switching the side to move; the text format round-trips every position
    /// of the game, and the game as a solution file.
    #[test]
    fn hash_and_text_along_random_games(
        start in position(),
        choices in proptest::collection::vec(any::<u32>(), 0..=20),
    ) {
        prop_assert_eq!(start.hash(), start.compute_hash());
        let mut game = vec![start];
        let mut pos = start;
        for choice in choices {
            let moves = movegen::legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let mv = moves[choice as usize % moves.len()];
            let next = pos.play(mv);
            check_one_move(&pos, mv, &next)?;
            pos = next;
            game.push(pos);
        }
        for p in &game {
            prop_assert_eq!(p.hash(), p.compute_hash());
            let other = p.with_side_to_move(p.side_to_move().opponent());
            prop_assert_eq!(other.hash(), other.compute_hash());
            prop_assert_ne!(other.hash(), p.hash());
            prop_assert_eq!(other.with_side_to_move(p.side_to_move()), *p);
            let text = format_board(p);
            prop_assert_eq!(
                parse_board(text.as_bytes()).ok(),
                Some(p.with_side_to_move(Color::Red)),
                "round trip of\n{}", text
            );
        }
        // A game starting with red to move is a solution file: it round-trips as a whole.
        if start.side_to_move() == Color::Red {
            let text = format_solution(&game);
            prop_assert_eq!(parse_solution(text.as_bytes()).ok(), Some(game));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any bytes: the parsers return a position or an error, never panic, and keep their promises.
    #[test]
    fn parsers_never_panic_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        check_parsers(&bytes)?;
    }

    /// Near-valid text from the board alphabet: the same, reaching the row and board checks.
    #[test]
    fn parsers_never_panic_on_board_like_text(text in board_like_text()) {
        check_parsers(text.as_bytes())?;
    }

    /// Valid boards with random tolerated variations (CRLF, trailing spaces, a trailing empty
    /// line, no final newline) parse to the same position.
    #[test]
    fn tolerated_variants_parse_alike(
        pos in position(),
        crlf in any::<bool>(),
        spaces in 0usize..3,
        ending in 0u8..3,
    ) {
        let canonical = format_board(&pos);
        let eol = if crlf { "\r\n" } else { "\n" };
        let mut text: String = canonical
            .lines()
            .map(|l| format!("{l}{}{eol}", " ".repeat(spaces)))
            .collect();
        match ending {
            0 => {}
            1 => text.push_str(eol),
            _ => text.truncate(text.len() - eol.len()),
        }
        prop_assert_eq!(
            parse_board(text.as_bytes()).ok(),
            Some(pos.with_side_to_move(Color::Red)),
            "{:?}", text
        );
    }
}
