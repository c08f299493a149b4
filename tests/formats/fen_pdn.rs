//! FEN and PDN against the shipped files: every puzzle round-trips board text -> FEN -> board
//! text, every expected solution round-trips through PDN unchanged, the classic First Position is
//! solved from its FEN exactly as from its board, and bad FEN and PDN inputs are rejected with
//! their line and column and exit code 2.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

use checkers::formats::board_text::{format_board, format_solution, parse_board, parse_solution};
use checkers::formats::fen::{self, NotStandard};
use checkers::formats::input::{self, Format};
use checkers::formats::pdn::{self, Game};
use checkers::rules::movegen::legal_moves;
use checkers::{Bitboard, Color, Position};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn checkers() -> Command {
    Command::cargo_bin("checkers").expect("binary is built")
}

/// The `.txt` files of a folder of the crate, sorted, whose name passes `keep`.
fn files_in(folder: &str, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(manifest().join(folder))
        .expect("folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "txt")
                && p.file_name().and_then(|n| n.to_str()).is_some_and(&keep)
        })
        .collect();
    v.sort();
    v
}

/// Every shipped puzzle: `puzzles/` and the public puzzles kept for the tests.
fn puzzles() -> Vec<PathBuf> {
    let mut v = files_in("puzzles", |_| true);
    v.extend(files_in("tests/data/public", |n| !n.contains("expected")));
    v
}

/// Every expected solution: `expected/`, `expected/course/` and the public ones.
fn solutions() -> Vec<PathBuf> {
    let mut v = files_in("expected", |_| true);
    v.extend(files_in("expected/course", |_| true));
    v.extend(files_in("tests/data/public", |n| {
        n.ends_with(".expected.txt") || n.ends_with(".expected-next.txt")
    }));
    v
}

fn has_light_pieces(pos: &Position) -> bool {
    !(pos.occupied() & !Bitboard::DARK).is_empty()
}

#[test]
fn every_puzzle_round_trips_through_fen() {
    let all = puzzles();
    assert!(all.len() >= 60, "shipped puzzles went missing");
    let mut light = 0;
    for path in all {
        let bytes = fs::read(&path).expect("readable");
        let board = parse_board(&bytes).expect("shipped puzzles parse");
        match fen::write(&board) {
            Ok(text) => {
                assert_eq!(input::detect(text.as_bytes()), Format::Fen);
                let back = fen::parse(&text).expect("our FEN parses");
                assert_eq!(back, board, "{}", path.display());
                // Byte for byte: the file is the canonical board text.
                let canonical = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
                assert_eq!(format_board(&back), canonical, "{}", path.display());
            }
            Err(NotStandard { square }) => {
                light += 1;
                assert!(has_light_pieces(&board), "{}", path.display());
                assert!(!square.is_dark());
            }
        }
    }
    // p07 and the light-cell puzzle put pieces on light cells: they have no FEN.
    assert!(
        light >= 2,
        "light-cell puzzles are expected among the shipped ones"
    );
}

#[test]
fn every_expected_solution_round_trips_through_pdn() {
    let all = solutions();
    assert!(all.len() >= 25, "expected solutions went missing");
    for path in all {
        let bytes = fs::read(&path).expect("readable");
        let states = parse_solution(&bytes).expect("expected solutions parse");
        let game = Game::from_states(&states).expect("expected solutions are games");
        match pdn::write_game(&game) {
            Ok(text) => {
                let games = pdn::parse_games(&text).expect("our PDN parses");
                assert_eq!(games.len(), 1);
                assert_eq!(games[0], game, "{}", path.display());
                // Every move, replayed from the FEN setup, was checked by the reader against the
                // generator; the positions are the solution's states, byte for byte (the course's
                // own files lack the final newline).
                assert_eq!(games[0].positions(), states);
                let back = format_solution(&games[0].positions());
                let file = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
                assert_eq!(back.trim_end(), file.trim_end(), "{}", path.display());
                // And each move of the text is one of the generator's moves where it is played.
                for (pos, mv) in games[0].positions().iter().zip(&games[0].moves) {
                    assert!(legal_moves(pos).contains(mv));
                }
            }
            Err(_) => assert!(has_light_pieces(&states[0]), "{}", path.display()),
        }
    }
}

#[test]
fn pdn_output_of_the_solver_reads_back_with_values() {
    let dir = tempfile::tempdir().expect("temp dir");
    let puzzle = manifest().join("puzzles/p03.txt");
    let out = dir.path().join("p03.pdn");
    checkers()
        .args(["--format", "pdn", "-q", "--inputfile"])
        .arg(&puzzle)
        .arg("--outputfile")
        .arg(&out)
        .assert()
        .success();
    let text = fs::read_to_string(&out).expect("written");
    assert!(text.contains("[SetUp \"1\"]\n[FEN \"W:"), "{text}");
    assert!(text.contains("[Event \"p03\"]"), "{text}");
    let games = pdn::parse_games(&text).expect("parses");
    let expected = parse_solution(&fs::read(manifest().join("expected/p03.txt")).expect("exists"))
        .expect("parses");
    assert_eq!(games[0].positions(), expected);
    let n = games[0].moves.len() as u32;
    // p03 is proven: every move carries its value, counting down to the end.
    for (k, comment) in games[0].comments.iter().enumerate() {
        let left = n - k as u32 - 1;
        let want = match left {
            0 => "red has won".to_string(),
            1 => "red wins in 1 ply".to_string(),
            l => format!("red wins in {l} plies"),
        };
        assert_eq!(comment.as_deref(), Some(want.as_str()));
    }
    assert!(text.trim_end().ends_with("1-0"));

    // FEN output: one line per state.
    let fens = dir.path().join("p03.fen");
    checkers()
        .args(["--format", "fen", "-q", "--inputfile"])
        .arg(&puzzle)
        .arg("--outputfile")
        .arg(&fens)
        .assert()
        .success();
    let lines: Vec<Position> = fs::read_to_string(&fens)
        .expect("written")
        .lines()
        .map(|l| fen::parse(l).expect("each line is a FEN"))
        .collect();
    assert_eq!(lines, expected);
}

#[test]
fn light_cells_have_no_pdn_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out.pdn");
    checkers()
        .args(["--format", "pdn", "--inputfile"])
        .arg(manifest().join("puzzles/p07.txt"))
        .arg("--outputfile")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("light cell").and(predicate::str::contains("p07")));
    assert!(!out.exists());
}

/// First Position (Payne 1756, the standard 2 kings against king and man ending), white = red to
/// move; on the board, red kings on 19 and 23, black king on 28 and man on 12.
const FIRST_POSITION: &str = "W:WK19,K23:BK28,12";

fn solve(args: &[&str], input: Option<&Path>, out: &Path) -> Vec<u8> {
    let mut cmd = checkers();
    cmd.args(args).arg("-q").arg("--outputfile").arg(out);
    if let Some(input) = input {
        cmd.arg("--inputfile").arg(input);
    }
    cmd.assert().success();
    fs::read(out).expect("solution written")
}

#[test]
fn first_position_from_fen_is_solved_like_from_its_board() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pos = fen::parse(FIRST_POSITION).expect("parses");
    assert_eq!(pos.side_to_move(), Color::Red);
    // The same position as board text, written by hand from the numbering of the contract.
    let board = "........\n\
                 ........\n\
                 .......b\n\
                 ........\n\
                 .....R..\n\
                 ....R...\n\
                 .......B\n\
                 ........\n";
    let board = board.replace(' ', "");
    assert_eq!(parse_board(board.as_bytes()), Ok(pos));
    let board_file = dir.path().join("first.txt");
    fs::write(&board_file, &board).expect("write");
    let fen_file = dir.path().join("first.fen");
    fs::write(&fen_file, format!("{FIRST_POSITION}\n")).expect("write");
    let pdn_file = dir.path().join("first.pdn");
    fs::write(
        &pdn_file,
        format!("[Event \"First Position\"]\n[SetUp \"1\"]\n[FEN \"{FIRST_POSITION}\"]\n*\n"),
    )
    .expect("write");

    let from_board = solve(&[], Some(&board_file), &dir.path().join("a.txt"));
    let from_fen = solve(&["--fen", FIRST_POSITION], None, &dir.path().join("b.txt"));
    assert_eq!(from_fen, from_board);
    // Files in the other formats give the same puzzle (the solver is deterministic from it).
    for file in [&fen_file, &pdn_file] {
        let read = input::read_puzzle(file, None).expect("reads");
        assert_eq!(read, pos, "{}", file.display());
    }
    let states = parse_solution(&from_board).expect("parses");
    let game = Game::from_states(&states).expect("a game");
    assert!(
        legal_moves(&game.end()).is_empty() && game.end().side_to_move() == Color::Black,
        "First Position is a win for white (red)"
    );
}

#[test]
fn black_to_move_is_refused_by_the_solver_but_not_by_perft() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out.txt");
    checkers()
        .args(["--fen", "B:WK19,K23:BK28,12", "--outputfile"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--fen:1:1: black is to move"));
    assert!(!out.exists());
    let fen_file = dir.path().join("start.fen");
    fs::write(&fen_file, "B:W21-32:B1-12\n").expect("write");
    checkers()
        .args(["perft", "3", "--inputfile"])
        .arg(&fen_file)
        .assert()
        .success()
        .stdout("302\n");
}

#[test]
fn bad_fen_and_pdn_files_name_line_and_column() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases: [(&str, &str); 6] = [
        ("W:W21,K33:B1\n", ":1:8: square 33 does not exist"),
        ("\nW:W21;B1\n", ":2:6: found \";B1\"; expected ':'"),
        (
            "[FEN \"W:W22:B18\"]\n1. 22-17 *\n",
            ":2:4: move 22-17: not a legal move",
        ),
        ("[FEN \"W:W22:Bx\"]\n", ":1:14: in the FEN tag"),
        (
            "[Event \"a\"]\n[FEN \"W:W22:B1\"]\n1. 22-18 {never closed\n",
            ":3:10: this comment is never closed",
        ),
        (
            "[FEN \"W:W22:B1\"]\n*\n[FEN \"W:W23:B1\"]\n*\n",
            ": the file holds 2 games; choose one with --game N",
        ),
    ];
    for (i, (text, message)) in cases.iter().enumerate() {
        let input = dir.path().join(format!("bad{i}.txt"));
        fs::write(&input, text).expect("write");
        let out = dir.path().join("out.txt");
        checkers()
            .arg("--inputfile")
            .arg(&input)
            .arg("--outputfile")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("bad{i}.txt{message}")));
        assert!(!out.exists());
    }
    // --game picks one of several.
    let two = dir.path().join("bad5.txt");
    let out = dir.path().join("two.txt");
    checkers()
        .args(["-q", "--game", "2", "--inputfile"])
        .arg(&two)
        .arg("--outputfile")
        .arg(&out)
        .assert()
        .success();
    let states = parse_solution(&fs::read(&out).expect("written")).expect("parses");
    assert_eq!(states[0], fen::parse("W:W23:B1").expect("parses"));
}

/// The solver's PDN, read back, is checked by the independent analyser (its own move generation
/// and exact values): every move legal and optimal, and every comment the exact value of the
/// position after the move.
#[test]
fn solver_pdn_is_certified_by_the_independent_analyser() {
    use checkers::analysis::{check_line, Oracle, OracleLimits, Value};
    let dir = tempfile::tempdir().expect("temp dir");
    let mut oracle = Oracle::new(OracleLimits::default());
    for name in [
        "p03",
        "kings-2v1-double-corner",
        "men-2-vs-king",
        "black-wins-kings-2v1",
    ] {
        let out = dir.path().join(format!("{name}.pdn"));
        solve(
            &["--format", "pdn"],
            Some(&manifest().join(format!("puzzles/{name}.txt"))),
            &out,
        );
        let text = fs::read_to_string(&out).expect("written");
        let games = pdn::parse_games(&text).expect("parses");
        let positions = games[0].positions();
        let report = check_line(&positions, &mut oracle).expect("decided");
        assert!(report.is_ok(), "{name}: {:?}", report.fault);
        for (k, comment) in games[0].comments.iter().enumerate() {
            let after = &positions[k + 1];
            let value = oracle.value(after).expect("no error").expect("decided");
            // The comment names the winner and the plies left; the analyser gives the value for
            // the side to move.
            let (winner, left) = match value {
                Value::Win(n) => (after.side_to_move(), n),
                Value::Loss(n) => (after.side_to_move().opponent(), n),
                Value::Draw => panic!("{name}: a proven line reaches a draw"),
            };
            let want = checkers::formats::export::value_text(winner, left);
            assert_eq!(
                comment.as_deref(),
                Some(want.as_str()),
                "{name} move {}",
                k + 1
            );
        }
    }
}

/// The Python that has pydraughts: `$PYDRAUGHTS_PYTHON` (what `.ci/run` sets after installing
/// pydraughts from PyPI into a virtual environment), else `python3`. Fails, never skips, when it
/// cannot import pydraughts.
fn pydraughts_python() -> String {
    let python = std::env::var("PYDRAUGHTS_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let probe = std::process::Command::new(&python)
        .args(["-c", "import draughts"])
        .output();
    assert!(
        probe.is_ok_and(|o| o.status.success()),
        "{python} cannot import pydraughts: install it (`pip install pydraughts`) and set \
         PYDRAUGHTS_PYTHON to that Python, as .ci/run does"
    );
    python
}

/// Replays PDN files with pydraughts (an independent Python implementation of English checkers),
/// printing for each file the FEN before the first move and after every move, and `ILLEGAL` for a
/// move it does not list as legal. Blocks are separated by empty lines.
const PYDRAUGHTS_REPLAY: &str = r#"
import sys
from draughts import Board, Move
from draughts.PDN import PDNReader
for path in sys.argv[1:]:
    game = PDNReader(filename=path).games[0]
    board = Board(game.variant, game.tags['FEN'])
    print(board.fen)
    for text in game.moves:
        legal = [m.pdn_move for m in board.legal_moves()]
        parts = text.split('x')
        short = parts[0] + 'x' + parts[-1] if len(parts) > 2 else text
        if text not in legal and short not in legal:
            print('ILLEGAL', text, legal)
            break
        board.push(Move(board, pdn_move=text))
        print(board.fen)
    print()
"#;

/// Our PDN of every expected solution is read by pydraughts: every move is legal there and every
/// position equals ours, FEN for FEN. Ignored by a plain `cargo test` (it needs pydraughts from
/// PyPI); `.ci/run` runs it.
#[test]
#[ignore = "needs pydraughts from PyPI: .ci/run installs it in a virtual environment and runs it with --ignored"]
fn pydraughts_reads_our_pdn() {
    let python = pydraughts_python();
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    let mut expected = Vec::new();
    for (i, path) in solutions().into_iter().enumerate() {
        let states = parse_solution(&fs::read(&path).expect("readable")).expect("parses");
        let game = Game::from_states(&states).expect("a game");
        let Ok(text) = pdn::write_game(&game) else {
            continue; // light cells: no PDN
        };
        let file = dir.path().join(format!("{i}.pdn"));
        fs::write(&file, text).expect("write");
        files.push(file);
        let fens: Vec<String> = states
            .iter()
            .map(|p| fen::write(p).expect("standard"))
            .collect();
        expected.push((path, fens));
    }
    assert!(files.len() >= 20);
    let out = std::process::Command::new(&python)
        .arg("-c")
        .arg(PYDRAUGHTS_REPLAY)
        .args(&files)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let blocks: Vec<Vec<&str>> = stdout
        .split("\n\n")
        .map(|b| b.lines().collect::<Vec<_>>())
        .filter(|b| !b.is_empty())
        .collect();
    assert_eq!(blocks.len(), expected.len());
    for (block, (path, fens)) in blocks.iter().zip(&expected) {
        // pydraughts lists squares in its own order, so compare the positions the FENs describe.
        let theirs: Vec<Position> = block
            .iter()
            .map(|l| fen::parse(l).unwrap_or_else(|e| panic!("{}: {l}: {e}", path.display())))
            .collect();
        let ours: Vec<Position> = fens.iter().map(|f| fen::parse(f).expect("ours")).collect();
        assert_eq!(theirs, ours, "{}", path.display());
    }
}

/// Plays two games with pydraughts and writes them as PDN with its own writer (multi-jumps in
/// short form, black moving first from the standard start), printing each position's FEN.
const PYDRAUGHTS_WRITE: &str = r#"
import sys
from draughts import Board, Move
from draughts.PDN import PDNWriter
out = sys.argv[1]
board = Board('english', 'W:WK12,20,26:B7,14,15,18,K31')
print(board.fen)
for m in ['20-16', '31x22', '16-11', '7x16', '12x19x10x17x26', '18-22', '26x17']:
    board.push(Move(board, pdn_move=m))
    print(board.fen)
PDNWriter(out, board=board, game_ending='1-0', tags={'Event': 'p03'})
print()
board = Board('english')
print(board.fen)
for i in range(12):
    board.push(board.legal_moves()[i % len(board.legal_moves())])
    print(board.fen)
PDNWriter(out, board=board, game_ending='*')
"#;

/// PDN written by pydraughts is read by ours: the same positions. Ignored by a plain `cargo test`
/// (it needs pydraughts from PyPI); `.ci/run` runs it.
#[test]
#[ignore = "needs pydraughts from PyPI: .ci/run installs it in a virtual environment and runs it with --ignored"]
fn we_read_pydraughts_pdn() {
    let python = pydraughts_python();
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("theirs.pdn");
    let out = std::process::Command::new(&python)
        .arg("-c")
        .arg(PYDRAUGHTS_WRITE)
        .arg(&file)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let theirs: Vec<Vec<Position>> = stdout
        .split("\n\n")
        .map(|b| {
            b.lines()
                .map(|l| fen::parse(l).expect("their FEN"))
                .collect()
        })
        .collect();
    let games = pdn::parse_games(&fs::read_to_string(&file).expect("written")).expect("parses");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Event"), Some("p03"));
    assert_eq!(games[0].positions(), theirs[0]);
    assert_eq!(games[1].start.side_to_move(), Color::Black);
    assert_eq!(games[1].positions(), theirs[1]);
}

mod never_panic {
    use super::*;
    use proptest::prelude::*;

    /// Text made of the characters FEN and PDN use, plus a few others.
    fn notation_text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            proptest::sample::select(
                "WBwbK0123456789:,-x.[]{}()\"$;%*/ \n\té"
                    .chars()
                    .collect::<Vec<_>>(),
            ),
            0..80,
        )
        .prop_map(|v| v.into_iter().collect())
    }

    /// A position on dark cells: each of the 32 squares empty, a man or a king of either side.
    fn standard_position() -> impl Strategy<Value = Position> {
        (proptest::collection::vec(0u8..5, 32), any::<bool>()).prop_map(|(cells, black)| {
            let (mut red, mut blk, mut kings) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
            for (i, c) in cells.iter().enumerate() {
                let sq = checkers::formats::notation::square_of_number(i as u8 + 1).expect("1-32");
                match c {
                    1 | 2 => red |= sq.bit(),
                    3 | 4 => blk |= sq.bit(),
                    _ => continue,
                }
                if c % 2 == 0 {
                    kings |= sq.bit();
                }
            }
            let side = if black { Color::Black } else { Color::Red };
            Position::new(red, blk, kings, side).expect("consistent")
        })
    }

    /// Whether (line, column) lies within `text` (or just past its end).
    fn inside(text: &str, line: usize, column: usize) -> bool {
        let lines: Vec<&str> = text.split('\n').collect();
        line >= 1
            && line <= lines.len()
            && column >= 1
            && column <= lines[line - 1].chars().count() + 1
    }

    proptest! {
        #[test]
        fn fen_and_pdn_readers_never_panic(text in notation_text()) {
            if let Err(e) = fen::parse(&text) {
                prop_assert!(inside(&text, e.line, e.column), "{e}");
            }
            if let Err(e) = pdn::parse_games(&text) {
                prop_assert!(inside(&text, e.line, e.column), "{e}");
            }
            let _ = input::parse_position(text.as_bytes(), None);
        }

        #[test]
        fn fen_round_trips(pos in standard_position()) {
            let text = fen::write(&pos).expect("dark cells only");
            prop_assert_eq!(fen::parse(&text), Ok(pos));
        }

        #[test]
        fn random_games_round_trip_through_pdn(pos in standard_position(), picks in proptest::collection::vec(0usize..16, 0..12)) {
            let mut game = Game::new(pos);
            let mut at = pos;
            for (i, pick) in picks.iter().enumerate() {
                let moves = legal_moves(&at);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[pick % moves.len()];
                game.push(mv, (i % 3 == 0).then(|| format!("note {i}")));
                at = at.play(mv);
            }
            let text = pdn::write_game(&game).expect("standard");
            prop_assert_eq!(pdn::parse_games(&text), Ok(vec![game]));
        }
    }
}
