//! One small position per rule of `docs/rules.md`, with the exact set of legal successor boards
//! worked out by hand from the rule (not taken from the engine). The positions that need nothing
//! but their successors are data (`tests/data/rule-positions.txt`, read by
//! [`rule_positions_have_their_worked_out_successors`]); the tests below check more than the
//! successors of a position (routes, warnings, game ends, draws).
//!
//! Boards are written as puzzle text: row 1 (index 0) at the top, `.` empty, `r`/`R` red man/king,
//! `b`/`B` black man/king. Red men move up, black men move down. Cells are named (row, col) from 0
//! at the top-left in the comments; a cell is dark when row + col is odd.

use std::collections::BTreeSet;
use std::path::PathBuf;

use checkers::formats::board_text::{format_board, parse_board, parse_solution};
use checkers::rules::draw::DrawRule;
use checkers::rules::game::{Game, GameError, Outcome};
use checkers::rules::movegen::{self, Routes};
use checkers::rules::perft::perft;
use checkers::{Bitboard, Color, Kind, Move, MoveList, Piece, Position, SetupWarning, Square};

/// The position of a board text with `side` to move.
fn pos(board: &str, side: Color) -> Position {
    parse_board(board.as_bytes())
        .unwrap_or_else(|e| panic!("test board does not parse: {e}\n{board}"))
        .with_side_to_move(side)
}

fn sq(row: u8, col: u8) -> Square {
    Square::new(row, col).expect("on the board")
}

/// The boards after each legal move (distinct routes), checking that each hands the turn over.
fn successors(p: &Position) -> BTreeSet<String> {
    let moves = movegen::legal_moves(p);
    let boards: BTreeSet<String> = moves
        .iter()
        .map(|&mv| {
            let next = p.play(mv);
            assert_eq!(next.side_to_move(), p.side_to_move().opponent());
            format_board(&next)
        })
        .collect();
    assert_eq!(
        boards.len(),
        moves.len(),
        "two legal moves give the same board"
    );
    boards
}

fn show(boards: &BTreeSet<String>) -> String {
    if boards.is_empty() {
        return "(none)\n".to_string();
    }
    boards.iter().cloned().collect::<Vec<_>>().join("\n")
}

/// Asserts that `side` to move on `board` has exactly the successor boards `expected`.
fn assert_successors(board: &str, side: Color, expected: &[&str]) {
    let got = successors(&pos(board, side));
    let want: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(want.len(), expected.len(), "test lists a board twice");
    assert!(
        got == want,
        "{side:?} to move on\n{board}\nexpected successors:\n{}\ngot:\n{}",
        show(&want),
        show(&got)
    );
}

/// One case of `tests/data/rule-positions.txt`: its name, the side to move, the board and the
/// successor boards.
struct RuleCase {
    name: String,
    side: Color,
    board: String,
    successors: Vec<String>,
}

/// The cases of `tests/data/rule-positions.txt` (its header says the format); a malformed file
/// panics with the line.
fn rule_cases() -> Vec<RuleCase> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/rule-positions.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/rule-positions.txt is readable");
    let mut lines = text.lines().enumerate().peekable();
    let take_board = |lines: &mut std::iter::Peekable<_>| -> String {
        let mut board = String::new();
        for _ in 0..8 {
            let (n, row): (usize, &str) = lines.next().expect("8 board rows");
            assert!(
                row.len() == 8,
                "rule-positions.txt:{}: not a board row",
                n + 1
            );
            board.push_str(row);
            board.push('\n');
        }
        board
    };
    let mut cases = Vec::new();
    while let Some((n, line)) = lines.next() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let name = line
            .strip_prefix("== ")
            .unwrap_or_else(|| panic!("rule-positions.txt:{}: expected `== NAME`", n + 1));
        while lines.peek().is_some_and(|(_, l)| l.starts_with('#')) {
            lines.next();
        }
        let (n, side) = lines.next().expect("a side line");
        let side = match side {
            "red to move" => Color::Red,
            "black to move" => Color::Black,
            _ => panic!(
                "rule-positions.txt:{}: expected `red to move` or `black to move`",
                n + 1
            ),
        };
        let board = take_board(&mut lines);
        let mut successors = Vec::new();
        while let Some(&(_, arrow)) = lines.peek() {
            match arrow {
                "-> none" => {
                    lines.next();
                }
                "->" => {
                    lines.next();
                    successors.push(take_board(&mut lines));
                }
                _ => break,
            }
        }
        cases.push(RuleCase {
            name: name.to_owned(),
            side,
            board,
            successors,
        });
    }
    cases
}

/// Every position of `tests/data/rule-positions.txt` has exactly its worked-out successors.
#[test]
fn rule_positions_have_their_worked_out_successors() {
    let cases = rule_cases();
    assert!(cases.len() >= 20, "only {} cases read", cases.len());
    for case in &cases {
        let expected: Vec<&str> = case.successors.iter().map(String::as_str).collect();
        let got = successors(&pos(&case.board, case.side));
        let want: BTreeSet<String> = case.successors.iter().cloned().collect();
        assert_eq!(
            want.len(),
            expected.len(),
            "{}: a board listed twice",
            case.name
        );
        assert!(
            got == want,
            "{}: {:?} to move on\n{}\nexpected successors:\n{}\ngot:\n{}",
            case.name,
            case.side,
            case.board,
            show(&want),
            show(&got)
        );
    }
}

/// The position after the legal move of the piece on `from` to `to` (panics if there is none).
fn play(p: &Position, from: Square, to: Square) -> Position {
    let mv = movegen::legal_moves(p)
        .into_iter()
        .find(|m| m.from() == from && m.to() == to)
        .unwrap_or_else(|| panic!("no legal move {from} -> {to} in\n{}", format_board(p)));
    p.play(mv)
}

/// Board: the standard start has 12 men a side on the dark cells (row + col odd, so the top-left
/// cell is light): black on rows 1-3 (squares 1-12), red on rows 6-8 (squares 21-32), red to move.
///
/// Pins a fixed bug: `Bitboard::DARK` once held the light cells, so `Position::start()` put every
/// man on a light cell (the mirror image of the real start, which is why the start-position perft
/// still matched the published counts).
#[test]
fn standard_start_position_stands_on_dark_cells() {
    let start = Position::start();
    assert_eq!(start.side_to_move(), Color::Red);
    assert_eq!(
        format_board(&start),
        "\
.b.b.b.b
b.b.b.b.
.b.b.b.b
........
........
r.r.r.r.
.r.r.r.r
r.r.r.r.
"
    );
}

/// Rule: a king steps one cell diagonally in any of the four directions.
#[test]
fn king_steps_in_all_four_directions() {
    let expected = [
        "\
........
........
........
..R.....
........
........
........
........
",
        "\
........
........
........
....R...
........
........
........
........
",
        "\
........
........
........
........
........
..R.....
........
........
",
        "\
........
........
........
........
........
....R...
........
........
",
    ];
    assert_successors(
        "\
........
........
........
........
...R....
........
........
........
",
        Color::Red,
        &expected,
    );
    let black: Vec<String> = expected.iter().map(|b| b.replace('R', "B")).collect();
    let black: Vec<&str> = black.iter().map(String::as_str).collect();
    assert_successors(
        "\
........
........
........
........
...B....
........
........
........
",
        Color::Black,
        &black,
    );
}

/// Rule: a jump sequence must be completed. The man takes two pieces; stopping after the first
/// (man on (4,3), one piece taken) is not legal.
#[test]
fn a_jump_sequence_must_be_completed() {
    let start = "\
........
........
........
....b...
........
..b.....
.r......
........
";
    let partial = "\
........
........
........
....b...
...r....
........
........
........
";
    assert_successors(
        start,
        Color::Red,
        &["\
........
........
.....r..
........
........
........
........
........
"],
    );
    assert!(!successors(&pos(start, Color::Red)).contains(partial));
}

/// Rule: among several sequences any may be chosen, not necessarily the longest: a one-piece
/// capture is legal beside a two-piece capture, by another first jump or by another branch after
/// the same first jump.
#[test]
fn any_sequence_may_be_chosen_not_only_the_longest() {
    assert_successors(
        "\
........
........
........
......b.
........
..b.b...
...r....
........
",
        Color::Red,
        &[
            // Up-right twice: two pieces.
            "\
........
........
.......r
........
........
..b.....
........
........
",
            // Up-left once: one piece.
            "\
........
........
........
......b.
.r......
....b...
........
........
",
        ],
    );
    // After the same first jump, one branch takes one more piece, the other two more (and crowns).
    assert_successors(
        "\
........
..b.....
........
....b.b.
........
....b...
...r....
........
",
        Color::Red,
        &[
            "\
.R......
........
........
......b.
........
........
........
........
",
            "\
........
..b.....
.......r
....b...
........
........
........
........
",
        ],
    );
}

/// Rule: a red man placed on row 1 (or a black man on row 8) stays a man, is reported by a setup
/// warning, and cannot move: not forward (off the board) and not backward, not even to capture.
#[test]
fn a_man_on_its_crowning_row_stays_a_man_and_cannot_move() {
    let board = "\
.r......
..b.....
........
........
........
........
........
b.......
";
    let p = pos(board, Color::Red);
    assert_eq!(
        p.piece_at(sq(0, 1)),
        Some(Piece {
            color: Color::Red,
            kind: Kind::Man
        })
    );
    let warnings = p.setup_warnings();
    for (color, square) in [(Color::Red, sq(0, 1)), (Color::Black, sq(7, 0))] {
        assert!(
            warnings.contains(&SetupWarning::ManOnCrowningRow { color, square }),
            "{warnings:?}"
        );
    }
    assert_successors(board, Color::Red, &[]);
    assert_eq!(
        Game::new(p, DrawRule::None).outcome(),
        Some(Outcome::Win {
            winner: Color::Black
        })
    );
    // Black's man on row 8 cannot move either; its other man steps (and the red man stays a man).
    assert_successors(
        board,
        Color::Black,
        &[
            "\
.r......
........
.b......
........
........
........
........
b.......
",
            "\
.r......
........
...b....
........
........
........
........
b.......
",
        ],
    );
    // With another red piece to move, the man on row 1 is simply left where it is.
    assert_successors(
        "\
.r......
........
........
........
........
..r.....
........
........
",
        Color::Red,
        &[
            "\
.r......
........
........
........
.r......
........
........
........
",
            "\
.r......
........
........
........
...r....
........
........
........
",
        ],
    );
}

/// The ring: a red king on (6,3) and four black men around (4,3). Going round either way the king
/// takes all four and lands back on its own start cell, which counts as empty during its own
/// sequence. Had the start cell counted as occupied, each route would stop after three pieces, on
/// two different cells.
const RING: &str = "\
.......b
........
........
..b.b...
........
..b.b...
...R....
........
";

/// Rule: the square the moving piece started from counts as empty during its own jump sequence.
#[test]
fn the_start_square_is_empty_during_its_own_jump_sequence() {
    assert_successors(
        RING,
        Color::Red,
        &["\
.......b
........
........
........
........
........
...R....
........
"],
    );
}

/// Route counting on the ring: two routes (clockwise and anticlockwise) give one position.
/// `Routes::All` lists both, `Routes::Distinct` one, and perft follows the mode: with all routes
/// it counts as the published counts do (a capture by two routes counts twice). The black man's
/// single reply makes depth 2 equal depth 1.
#[test]
fn ring_capture_counts_two_routes_but_one_successor() {
    let p = pos(RING, Color::Red);
    let ring_move = Move::new(
        sq(6, 3),
        sq(6, 3),
        [sq(5, 2), sq(5, 4), sq(3, 2), sq(3, 4)]
            .into_iter()
            .collect::<Bitboard>(),
    );
    let mut all = MoveList::new();
    movegen::generate(&p, Routes::All, &mut all);
    assert_eq!(all.as_slice(), &[ring_move, ring_move]);
    let mut distinct = MoveList::new();
    movegen::generate(&p, Routes::Distinct, &mut distinct);
    assert_eq!(distinct.as_slice(), &[ring_move]);
    assert_eq!(movegen::count_moves(&p, Routes::All), 2);
    assert_eq!(movegen::count_moves(&p, Routes::Distinct), 1);
    assert_eq!(perft(&p, 1, Routes::All), 2);
    assert_eq!(perft(&p, 1, Routes::Distinct), 1);
    assert_eq!(perft(&p, 2, Routes::All), 2);
    assert_eq!(perft(&p, 2, Routes::Distinct), 1);
}

/// Rule: pieces on the two colours never meet. Red kings on light edge cells and black men on
/// dark cells of the opposite edge stand where a move generator whose shifts wrapped round the
/// board edge would see them as diagonal neighbours (with empty "landing" cells): no jump and no
/// wrapped step may appear, for either side.
#[test]
fn pieces_on_the_two_colours_never_interact() {
    let board = "\
........
........
.......b
b......R
R......b
b.......
........
........
";
    assert_successors(
        board,
        Color::Red,
        &[
            "\
........
........
......Rb
b.......
R......b
b.......
........
........
",
            "\
........
........
.......b
b.......
R.....Rb
b.......
........
........
",
            "\
........
........
.......b
bR.....R
.......b
b.......
........
........
",
            "\
........
........
.......b
b......R
.......b
bR......
........
........
",
        ],
    );
    assert_successors(
        board,
        Color::Black,
        &[
            "\
........
........
........
b.....bR
R......b
b.......
........
........
",
            "\
........
........
.......b
.......R
Rb.....b
b.......
........
........
",
            "\
........
........
.......b
b......R
R.......
b.....b.
........
........
",
            "\
........
........
.......b
b......R
R......b
........
.b......
........
",
        ],
    );
}

/// Rule: the side to move loses when it has no pieces left.
#[test]
fn a_side_with_no_pieces_has_lost() {
    let board = "\
........
........
...b....
........
........
........
........
........
";
    assert_successors(board, Color::Red, &[]);
    assert_eq!(
        Game::new(pos(board, Color::Red), DrawRule::None).outcome(),
        Some(Outcome::Win {
            winner: Color::Black
        })
    );
    let board = board.replace('b', "r");
    assert_eq!(
        Game::new(pos(&board, Color::Black), DrawRule::None).outcome(),
        Some(Outcome::Win { winner: Color::Red })
    );
    // The side with a move has not lost.
    assert_eq!(
        Game::new(pos(&board, Color::Red), DrawRule::None).outcome(),
        None
    );
}

/// Rule: the side to move loses when every piece is blocked: the king in the corner and the man
/// on the edge each face an enemy with an occupied cell behind it, and no step is free.
#[test]
fn a_side_with_every_piece_blocked_has_lost() {
    let board = "\
.......R
......b.
.....b..
........
........
..b.....
.b......
r.......
";
    let p = pos(board, Color::Red);
    assert_successors(board, Color::Red, &[]);
    assert_eq!(movegen::count_moves(&p, Routes::All), 0);
    assert_eq!(
        Game::new(p, DrawRule::None).outcome(),
        Some(Outcome::Win {
            winner: Color::Black
        })
    );
    // Black is not blocked: with black to move the game goes on.
    assert_eq!(
        Game::new(p.with_side_to_move(Color::Black), DrawRule::None).outcome(),
        None
    );
}

/// Rule: the game is drawn when the same position with the same side to move occurs for the third
/// time, and not before: two kings shuffle back and forth; the start recurs at plies 4 and 8.
#[test]
fn threefold_repetition_draws_on_the_third_occurrence_only() {
    let start = pos(
        "\
.......B
........
........
........
........
........
........
R.......
",
        Color::Red,
    );
    let cycle = [
        (sq(7, 0), sq(6, 1)),
        (sq(0, 7), sq(1, 6)),
        (sq(6, 1), sq(7, 0)),
        (sq(1, 6), sq(0, 7)),
    ];
    let mut record = Game::new(start, DrawRule::None);
    assert_eq!(record.outcome(), None);
    for ply in 1..=8 {
        let (from, to) = cycle[(ply - 1) % 4];
        let next = play(record.current(), from, to);
        record.play_to(&next).expect("a legal move leads there");
        let expected = if ply == 8 {
            Some(Outcome::Repetition)
        } else {
            None
        };
        assert_eq!(record.outcome(), expected, "after ply {ply}");
        assert_eq!(
            usize::from(record.occurrences(&next)),
            ply / 4 + 1,
            "occurrences after ply {ply}"
        );
    }
    assert_eq!(record.occurrences(&start), 3);
    assert_eq!(record.positions().len(), 9);
}

/// The 50-move test position. Two kings walk round closed loops, each step a quiet move: the red
/// king round 10 dark cells starting at (3,2), the black king round 14 light cells starting at
/// (4,0). Kings on cells of different colours never meet, and the red loop stays clear of the
/// black man, so no capture ever arises. Each king is back at its start only every 10 (resp. 14)
/// of its own moves, so a position recurs only after lcm(10, 14) = 70 moves of each side (140
/// plies) and a third time after 280 plies: the walks never draw by repetition here. The men are
/// triggers: the black man on (5,0) stepping to (6,1) lets the red man on (7,2) capture it, and
/// the red man on (1,0) is one step from crowning on (0,1).
const FIFTY: &str = "\
........
r.......
........
..R.....
B.......
b.......
........
..r.....
";

/// A king walking round a closed loop of cells, one step per move.
struct Loop {
    cells: Vec<Square>,
    at: usize,
}

impl Loop {
    fn new(cells: &[(u8, u8)]) -> Loop {
        Loop {
            cells: cells.iter().map(|&(r, c)| sq(r, c)).collect(),
            at: 0,
        }
    }

    /// The next step (from, to).
    fn step(&mut self) -> (Square, Square) {
        let from = self.cells[self.at];
        self.at = (self.at + 1) % self.cells.len();
        (from, self.cells[self.at])
    }
}

/// The two walking kings of [`FIFTY`].
struct Pacing {
    red: Loop,
    black: Loop,
}

impl Pacing {
    fn new() -> Pacing {
        Pacing {
            red: Loop::new(&[
                (3, 2),
                (2, 3),
                (1, 4),
                (2, 5),
                (3, 6),
                (4, 7),
                (5, 6),
                (6, 5),
                (5, 4),
                (4, 3),
            ]),
            black: Loop::new(&[
                (4, 0),
                (3, 1),
                (2, 2),
                (1, 3),
                (0, 4),
                (1, 5),
                (2, 6),
                (3, 7),
                (4, 6),
                (5, 5),
                (6, 4),
                (7, 3),
                (6, 2),
                (5, 1),
            ]),
        }
    }

    /// Plays `plies` king steps into `record` (each a legal, quiet move), checking the outcome
    /// after each with `check(ply, outcome)`; stops early, checking that the next move is
    /// refused, once the game is over.
    fn walk(&mut self, record: &mut Game, plies: usize, check: impl Fn(usize, Option<Outcome>)) {
        for ply in 1..=plies {
            let p = *record.current();
            let king = match p.side_to_move() {
                Color::Red => &mut self.red,
                Color::Black => &mut self.black,
            };
            let (from, to) = king.step();
            let next = play(&p, from, to);
            assert_eq!(
                next.occupied().count(),
                p.occupied().count(),
                "a walking move captured"
            );
            if record.outcome().is_some() {
                // A finished game takes no more moves.
                assert!(
                    matches!(record.play_to(&next), Err(GameError::Over(_))),
                    "a move was played after the end, at ply {ply}"
                );
                return;
            }
            record.play_to(&next).expect("a legal move leads there");
            check(ply, record.outcome());
        }
    }
}

/// The outcome expected `ply` quiet plies into a run when the rule is on.
fn fifty_expected(ply: usize) -> Option<Outcome> {
    if ply >= 100 {
        Some(Outcome::QuietMoves)
    } else {
        None
    }
}

/// Rule (optional 50-move rule): with the rule on, 100 plies in a row without a capture or a
/// crowning draw the game, and 99 do not; with the rule off the same game goes on.
#[test]
fn fifty_move_rule_draws_after_100_quiet_plies_only_when_enabled() {
    let start = pos(FIFTY, Color::Red);
    let mut on = Game::new(start, DrawRule::FiftyMoves);
    Pacing::new().walk(&mut on, 120, |ply, outcome| {
        assert_eq!(outcome, fifty_expected(ply), "rule on, after ply {ply}");
    });
    let mut off = Game::new(start, DrawRule::None);
    for (ply, &next) in on.positions().iter().enumerate().skip(1) {
        off.play_to(&next).expect("a legal move leads there");
        assert_eq!(off.outcome(), None, "rule off, after ply {ply}");
    }
}

/// Rule (optional 50-move rule): a capture starts the count again. After 61 quiet plies, black's
/// man step (quiet, the 62nd) and red's capture, the draw comes 100 quiet plies after the
/// capture, not 100 plies after the start.
#[test]
fn fifty_move_count_restarts_after_a_capture() {
    let mut record = Game::new(pos(FIFTY, Color::Red), DrawRule::FiftyMoves);
    let mut pacing = Pacing::new();
    pacing.walk(&mut record, 61, |ply, outcome| {
        assert_eq!(outcome, None, "after ply {ply}");
    });
    let after_step = play(record.current(), sq(5, 0), sq(6, 1));
    record
        .play_to(&after_step)
        .expect("a legal move leads there");
    assert_eq!(record.outcome(), None);
    let after_capture = play(record.current(), sq(7, 2), sq(5, 0));
    assert_eq!(
        after_capture.occupied().count(),
        4,
        "the capture took a piece"
    );
    record
        .play_to(&after_capture)
        .expect("a legal move leads there");
    assert_eq!(record.outcome(), None);
    pacing.walk(&mut record, 110, |ply, outcome| {
        assert_eq!(
            outcome,
            fifty_expected(ply),
            "{ply} quiet plies after the capture"
        );
    });
}

/// Rule (optional 50-move rule): a crowning starts the count again.
#[test]
fn fifty_move_count_restarts_after_a_crowning() {
    let mut record = Game::new(pos(FIFTY, Color::Red), DrawRule::FiftyMoves);
    let mut pacing = Pacing::new();
    pacing.walk(&mut record, 90, |ply, outcome| {
        assert_eq!(outcome, None, "after ply {ply}");
    });
    let before = *record.current();
    let after = play(&before, sq(1, 0), sq(0, 1));
    assert_eq!(
        after.kings().count(),
        before.kings().count() + 1,
        "the man was crowned"
    );
    record.play_to(&after).expect("a legal move leads there");
    assert_eq!(record.outcome(), None);
    pacing.walk(&mut record, 110, |ply, outcome| {
        assert_eq!(
            outcome,
            fifty_expected(ply),
            "{ply} quiet plies after the crowning"
        );
    });
}

/// The public puzzles, copied into the repository (tests/data/public/SOURCES.md).
fn puzzles_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/public"))
}

/// All the rules together, against independent data: every published solution sequence starts
/// with its puzzle, every state is a legal successor of the one before (red first, then the
/// sides alternate), and the last state is a finished game (the side to move has no move).
#[test]
fn published_solutions_are_legal_games() {
    let dir = puzzles_dir();
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("puzzles-public is readable") {
        let name = entry
            .expect("entry")
            .file_name()
            .into_string()
            .expect("utf-8");
        let Some(stem) = name.strip_suffix(".expected.txt") else {
            continue;
        };
        let read = |file: &str| std::fs::read(dir.join(file)).expect("readable");
        let puzzle = parse_board(&read(&format!("{stem}.txt"))).expect("puzzle parses");
        let states = parse_solution(&read(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(states[0], puzzle, "{name}: state 1 is not the puzzle");
        for (k, pair) in states.windows(2).enumerate() {
            assert!(
                successors(&pair[0]).contains(&format_board(&pair[1])),
                "{name}: state {} is not a legal successor of state {}",
                k + 2,
                k + 1
            );
        }
        let last = states[states.len() - 1];
        assert!(
            movegen::legal_moves(&last).is_empty(),
            "{name}: the last state is not the end of the game"
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} solutions found");
}

/// The Fall 2022 variant's official answers (one next state, no final newline) are legal
/// successors of their puzzles.
#[test]
fn published_next_states_are_legal_successors() {
    let dir = puzzles_dir();
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("puzzles-public is readable") {
        let name = entry
            .expect("entry")
            .file_name()
            .into_string()
            .expect("utf-8");
        let Some(stem) = name.strip_suffix(".expected-next.txt") else {
            continue;
        };
        let read = |file: &str| std::fs::read(dir.join(file)).expect("readable");
        let puzzle = parse_board(&read(&format!("{stem}.txt"))).expect("puzzle parses");
        let next = parse_board(&read(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            successors(&puzzle).contains(&format_board(&next)),
            "{name} is not a legal successor of {stem}.txt"
        );
        checked += 1;
    }
    assert_eq!(checked, 3);
}
