//! The puzzle and solution file formats (`docs/rules.md`): every kind of bad input with its line,
//! column and message, the tolerated variants, the setup warnings, and atomic output.

use std::path::Path;

use checkers::formats::board_text::{
    format_board, format_solution, parse_board, parse_solution, BoardError, BoardErrorKind,
};
use checkers::formats::files::{read_puzzle, read_solution, write_atomic, InputError};
use checkers::{Color, Position, SetupWarning, Square};

/// The handout's example puzzle (p03): kings, men, both colours, red to move.
const P03: &str = "\
........
....b...
.......R
..b.b...
...b...r
........
...r....
....B...
";

/// P03 with its `line` (from 1) replaced by `text` (which may hold line ends of its own).
fn with_line(line: usize, text: &str) -> String {
    P03.lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == line { text } else { l })
        .map(|l| format!("{l}\n"))
        .collect()
}

fn p03() -> Position {
    parse_board(P03.as_bytes()).expect("P03 parses")
}

/// The error for `bytes`, which must be rejected.
fn board_err(bytes: &[u8]) -> BoardError {
    match parse_board(bytes) {
        Ok(p) => panic!(
            "accepted {:?} as\n{}",
            String::from_utf8_lossy(bytes),
            format_board(&p)
        ),
        Err(e) => e,
    }
}

/// Asserts that `bytes` is rejected at `line`:`column` with `kind`, and that the message starts
/// with the place and says what was found (`found`, a fragment of the message).
fn assert_rejected(bytes: &[u8], line: usize, column: usize, kind: BoardErrorKind, found: &str) {
    let e = board_err(bytes);
    assert_eq!(
        (e.line, e.column, &e.kind),
        (line, column, &kind),
        "for {:?}",
        String::from_utf8_lossy(bytes)
    );
    let message = e.to_string();
    assert!(
        message.starts_with(&format!("{line}:{column}: ")),
        "{message}"
    );
    assert!(message.contains(found), "{message:?} lacks {found:?}");
}

/// Bad input: fewer than 8 rows. The error points at the line after the last row.
#[test]
fn too_few_rows() {
    let seven: String = P03.lines().take(7).map(|l| format!("{l}\n")).collect();
    assert_rejected(
        seven.as_bytes(),
        8,
        1,
        BoardErrorKind::TooFewRows { found: 7 },
        "ends after row 7; expected 8 rows",
    );
    assert_rejected(
        b"........\n",
        2,
        1,
        BoardErrorKind::TooFewRows { found: 1 },
        "ends after row 1",
    );
    // Without a final newline the place is the same.
    assert_rejected(
        seven.trim_end().as_bytes(),
        8,
        1,
        BoardErrorKind::TooFewRows { found: 7 },
        "expected 8",
    );
}

/// Bad input: more than 8 rows. The error points at the ninth row.
#[test]
fn too_many_rows() {
    let nine = format!("{P03}........\n");
    assert_rejected(
        nine.as_bytes(),
        9,
        1,
        BoardErrorKind::TooManyRows,
        "ninth row",
    );
    // A whole second board after an empty line: the empty line is the ninth row.
    let two = format!("{P03}\n{P03}");
    let e = board_err(two.as_bytes());
    assert_eq!((e.line, e.kind), (9, BoardErrorKind::TooManyRows));
}

/// Bad input: only one trailing empty line is tolerated; a second one is a ninth row.
#[test]
fn two_trailing_empty_lines_are_rejected() {
    let e = board_err(format!("{P03}\n\n").as_bytes());
    assert_eq!((e.line, e.kind), (9, BoardErrorKind::TooManyRows));
}

/// Bad input: an empty line inside the board.
#[test]
fn empty_line_inside_the_board() {
    let text = with_line(4, "");
    assert_rejected(
        text.as_bytes(),
        4,
        1,
        BoardErrorKind::EmptyLine,
        "empty line",
    );
    // A line of spaces counts as empty.
    assert_rejected(
        with_line(2, "   ").as_bytes(),
        2,
        1,
        BoardErrorKind::EmptyLine,
        "empty line",
    );
    // An empty first line with 8 rows after it.
    assert_rejected(
        format!("\n{P03}").as_bytes(),
        1,
        1,
        BoardErrorKind::EmptyLine,
        "empty line",
    );
}

/// Bad input: a short row. The column is where the first missing cell would be.
#[test]
fn short_row() {
    assert_rejected(
        with_line(3, "....").as_bytes(),
        3,
        5,
        BoardErrorKind::ShortRow { found: 4 },
        "4 cells",
    );
    assert_rejected(
        with_line(8, ".......").as_bytes(),
        8,
        8,
        BoardErrorKind::ShortRow { found: 7 },
        "expected 8",
    );
}

/// Bad input: a long row. The column is the first cell too many.
#[test]
fn long_row() {
    assert_rejected(
        with_line(2, "....b....").as_bytes(),
        2,
        9,
        BoardErrorKind::LongRow { found: 9 },
        "9 cells",
    );
    // A space inside the row is a cell too; only trailing spaces are dropped.
    assert_rejected(
        with_line(5, "...b...r .").as_bytes(),
        5,
        9,
        BoardErrorKind::LongRow { found: 10 },
        "10 cells",
    );
}

/// Bad input: any character outside `.rRbB`, reported at its own column (counted in characters,
/// not bytes).
#[test]
fn any_other_character() {
    for (c, col) in [
        ('x', 6),
        ('k', 1),
        ('K', 8),
        ('0', 3),
        ('-', 2),
        ('o', 4),
        (' ', 1),
        ('\t', 5),
    ] {
        let mut row: Vec<char> = "........".chars().collect();
        row[col - 1] = c;
        let row: String = row.into_iter().collect();
        assert_rejected(
            with_line(4, &row).as_bytes(),
            4,
            col,
            BoardErrorKind::BadChar { found: c },
            &format!("{c:?}"),
        );
    }
    // A multi-byte character: column 3, though it starts at byte 3 and its neighbour at byte 5.
    assert_rejected(
        with_line(6, "..é.....").as_bytes(),
        6,
        3,
        BoardErrorKind::BadChar { found: 'é' },
        "'é'",
    );
    // A UTF-8 byte-order mark is accepted at the start of the file (some editors write one);
    // anywhere else it is a character like any other.
    assert_eq!(parse_board(format!("\u{feff}{P03}").as_bytes()), Ok(p03()));
    assert_rejected(
        with_line(2, "\u{feff}....b...").as_bytes(),
        2,
        1,
        BoardErrorKind::BadChar { found: '\u{feff}' },
        "expected one of",
    );
    // A carriage return that does not end a line.
    assert_rejected(
        with_line(7, "...\r....").as_bytes(),
        7,
        4,
        BoardErrorKind::BadChar { found: '\r' },
        "'\\r'",
    );
}

/// A bad character in a board that is also too short is reported as the bad character (the more
/// useful message), at its place.
#[test]
fn bad_character_in_a_short_board_is_reported_first() {
    assert_rejected(
        b"........\n..x.....\n",
        2,
        3,
        BoardErrorKind::BadChar { found: 'x' },
        "'x'",
    );
}

/// Bad input: an empty file.
#[test]
fn empty_file() {
    assert_rejected(b"", 1, 1, BoardErrorKind::Empty, "empty");
}

/// Bad input: a binary file, by a NUL byte or by bytes that are not UTF-8, reported where the
/// first such byte is.
#[test]
fn binary_file() {
    let mut nul = P03.as_bytes().to_vec();
    nul[9 + 2] = 0; // line 2, column 3
    assert_rejected(&nul, 2, 3, BoardErrorKind::Binary { byte: 0 }, "0x00");
    let mut ff = P03.as_bytes().to_vec();
    ff[4 * 9] = 0xff; // line 5, column 1
    assert_rejected(&ff, 5, 1, BoardErrorKind::Binary { byte: 0xff }, "0xff");
    // A multi-byte character cut short, after a valid one on the same line: column in characters.
    let mut cut = with_line(3, "é.......").into_bytes();
    cut[18 + 3] = 0xc3; // lead byte followed by '.' instead of a continuation byte
    assert_rejected(
        &cut,
        3,
        3,
        BoardErrorKind::Binary { byte: 0xc3 },
        "not a text file",
    );
    // Typical binary content: a PNG header.
    let e = board_err(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    assert!(
        matches!(e.kind, BoardErrorKind::Binary { .. }),
        "{:?}",
        e.kind
    );
    assert_eq!((e.line, e.column), (1, 1));
}

/// Binary input: the error names the first offending byte (as `BoardErrorKind::Binary` documents)
/// when a NUL byte comes before bytes that are not UTF-8.
///
/// Pins a fixed bug: `lines()` once looked for a NUL only when the whole input was valid UTF-8,
/// and so reported the later invalid byte (0xff at 1:5) instead of the NUL at 1:1.
#[test]
fn binary_error_names_the_first_offending_byte() {
    assert_rejected(
        &[0u8, 1, 2, 3, 0xff, 0xfe],
        1,
        1,
        BoardErrorKind::Binary { byte: 0 },
        "0x00",
    );
    assert_rejected(
        b"........\n.\0......\n\xff",
        2,
        2,
        BoardErrorKind::Binary { byte: 0 },
        "0x00",
    );
}

/// Tolerated: LF or CRLF line ends, trailing spaces, one trailing empty line, no final newline;
/// each gives the same position as the plain file.
#[test]
fn tolerated_variants_parse_to_the_same_position() {
    let plain = p03();
    let variants = [
        ("CRLF", P03.replace('\n', "\r\n")),
        ("trailing spaces", P03.replace('\n', "   \n")),
        ("trailing spaces with CRLF", P03.replace('\n', "  \r\n")),
        ("one trailing empty line", format!("{P03}\n")),
        (
            "one trailing empty line, CRLF",
            P03.replace('\n', "\r\n") + "\r\n",
        ),
        ("one trailing line of spaces", format!("{P03}    \n")),
        ("no final newline", P03.trim_end().to_string()),
        (
            "no final newline, CRLF",
            P03.replace('\n', "\r\n").trim_end().to_string(),
        ),
        ("mixed line ends", P03.replacen('\n', "\r\n", 3)),
    ];
    for (what, text) in variants {
        match parse_board(text.as_bytes()) {
            Ok(p) => assert_eq!(p, plain, "{what}"),
            Err(e) => panic!("{what}: rejected: {e}"),
        }
    }
}

/// A puzzle is always red to move, and its text round-trips exactly.
#[test]
fn parse_then_format_round_trips() {
    let p = p03();
    assert_eq!(p.side_to_move(), Color::Red);
    assert_eq!(format_board(&p), P03);
}

/// Every public puzzle file (canonical: 8 lines, LF, final newline) round-trips byte for byte.
#[test]
fn every_public_puzzle_round_trips() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/public"));
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("puzzles-public is readable") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.len() != 7 || !name.ends_with(".txt") {
            continue;
        }
        let bytes = std::fs::read(&path).expect("readable");
        let p = read_puzzle(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(format_board(&p).as_bytes(), bytes.as_slice(), "{name}");
        n += 1;
    }
    assert!(n >= 52, "{n} puzzles");
}

fn sq(row: u8, col: u8) -> Square {
    Square::new(row, col).expect("on the board")
}

/// Warnings: pieces on light cells (how many, the first in reading order).
///
/// Pins a fixed bug: with `Bitboard::DARK` once holding the light cells, these two light-cell
/// pieces got no warning.
#[test]
fn warning_for_pieces_on_light_cells() {
    let p = parse_board(
        b"\
........
........
........
........
....b...
........
........
.....r..
",
    )
    .expect("light cells are accepted");
    let warnings = p.setup_warnings();
    assert_eq!(
        warnings,
        vec![SetupWarning::LightCells {
            count: 2,
            first: sq(4, 4)
        }]
    );
    let message = warnings[0].to_string();
    assert!(
        message.contains("light") && message.contains("row 5 col 5"),
        "{message}"
    );
}

/// Warnings: none for a standard puzzle or the standard start, whose pieces all stand on dark
/// cells (row + col odd: the top-left cell is light).
///
/// Pins a fixed bug: `Bitboard::DARK` was once 0xAA55_AA55_AA55_AA55, the set of LIGHT cells, so
/// every standard puzzle was warned about and `Position::start()` put its men on light cells.
#[test]
fn no_light_cell_warning_for_standard_boards() {
    assert_eq!(p03().setup_warnings(), vec![]);
    assert_eq!(Position::start().setup_warnings(), vec![]);
}

/// Warnings: more than 12 pieces of a colour (13 red men here; black's 12 are fine).
#[test]
fn warning_for_more_than_twelve_pieces() {
    let p = parse_board(
        b"\
.b.b.b.b
b.b.b.b.
.b.b.b.b
........
.r......
r.r.r.r.
.r.r.r.r
r.r.r.r.
",
    )
    .expect("13 pieces are accepted");
    let too_many: Vec<SetupWarning> = p
        .setup_warnings()
        .into_iter()
        .filter(|w| matches!(w, SetupWarning::TooManyPieces { .. }))
        .collect();
    assert_eq!(
        too_many,
        vec![SetupWarning::TooManyPieces {
            color: Color::Red,
            count: 13
        }]
    );
    assert!(too_many[0].to_string().contains("13"));
    assert!(!Position::start()
        .setup_warnings()
        .iter()
        .any(|w| matches!(w, SetupWarning::TooManyPieces { .. })));
}

/// Warnings: a red man on row 1 or a black man on row 8 (kings there are normal, no warning).
#[test]
fn warning_for_a_man_on_its_crowning_row() {
    let p = parse_board(
        b"\
.r.R....
........
........
........
........
........
........
b.....B.
",
    )
    .expect("accepted");
    let stuck = |p: &Position| -> Vec<SetupWarning> {
        p.setup_warnings()
            .into_iter()
            .filter(|w| matches!(w, SetupWarning::ManOnCrowningRow { .. }))
            .collect()
    };
    assert_eq!(
        stuck(&p),
        vec![
            SetupWarning::ManOnCrowningRow {
                color: Color::Red,
                square: sq(0, 1)
            },
            SetupWarning::ManOnCrowningRow {
                color: Color::Black,
                square: sq(7, 0)
            },
        ]
    );
    let message = stuck(&p)[0].to_string();
    assert!(
        message.contains("red") && message.contains("row 1 col 2"),
        "{message}"
    );
    // A black man on row 1 and a red man on row 8 are on their home rows: no warning.
    let home = parse_board(
        b"\
.b......
........
........
........
........
........
........
r.......
",
    )
    .expect("accepted");
    assert!(stuck(&home).is_empty());
}

/// Files: a board error names the file, the line and the column.
#[test]
fn read_puzzle_names_file_line_and_column() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, with_line(3, "..x.....")).expect("write");
    let e = read_puzzle(&path).expect_err("bad character");
    assert_eq!(e.location(), Some((3, 3)));
    let message = e.to_string();
    assert!(
        message.starts_with(&format!("{}:3:3: ", path.display())),
        "{message}"
    );
    assert!(message.contains("'x'"), "{message}");
    assert!(matches!(e, InputError::Board { .. }));
}

/// Files: a path that does not exist, or that runs through a file, cannot be read; the message
/// names the path.
#[test]
fn unreadable_paths_are_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("no-such-puzzle.txt");
    let e = read_puzzle(&missing).expect_err("missing file");
    assert!(matches!(e, InputError::Io { .. }), "{e:?}");
    assert_eq!(e.location(), None);
    let message = e.to_string();
    assert!(
        message.starts_with(&missing.display().to_string()) && message.contains("cannot read"),
        "{message}"
    );
    let file = dir.path().join("file.txt");
    std::fs::write(&file, P03).expect("write");
    let through = file.join("puzzle.txt");
    let e = read_puzzle(&through).expect_err("a path through a file");
    assert!(matches!(e, InputError::Io { .. }), "{e:?}");
    assert!(read_solution(&missing).is_err());
}

/// Files: a file without read permission is unreadable (skipped where permissions do not bind,
/// e.g. when the tests run as root, but then reading must give the right board).
#[cfg(unix)]
#[test]
fn unreadable_file_is_reported() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("locked.txt");
    std::fs::write(&path, P03).expect("write");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let readable = std::fs::read(&path).is_ok();
    match read_puzzle(&path) {
        Err(e) => {
            assert!(!readable, "std could read it but read_puzzle failed: {e}");
            assert!(matches!(e, InputError::Io { .. }), "{e:?}");
            assert!(e.to_string().contains("locked.txt"), "{e}");
        }
        Ok(p) => {
            assert!(readable, "read_puzzle read a file std could not");
            assert_eq!(p, p03());
        }
    }
}

/// Files: a directory given as the puzzle is rejected with a message saying so.
#[test]
fn directory_is_rejected() {
    let dir = tempfile::tempdir().expect("tempdir");
    let e = read_puzzle(dir.path()).expect_err("a directory");
    assert!(matches!(e, InputError::Directory { .. }), "{e:?}");
    let message = e.to_string();
    assert!(
        message.starts_with(&dir.path().display().to_string())
            && message.contains("is a directory"),
        "{message}"
    );
    assert!(matches!(
        read_solution(dir.path()),
        Err(InputError::Directory { .. })
    ));
}

/// Files: an empty file and a binary file are rejected through `read_puzzle` too, with the path.
#[test]
fn empty_and_binary_files_are_rejected() {
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, b"").expect("write");
    let e = read_puzzle(&empty).expect_err("empty");
    assert_eq!(e.location(), Some((1, 1)));
    assert!(e.to_string().contains("empty.txt:1:1: "), "{e}");
    let binary = dir.path().join("binary.bin");
    std::fs::write(&binary, [0u8, 1, 2, 3, 4, 5]).expect("write");
    let e = read_puzzle(&binary).expect_err("binary");
    assert_eq!(e.location(), Some((1, 1)));
    assert!(e.to_string().contains("not a text file"), "{e}");
}

/// Files: a file far larger than any board is refused without parsing.
#[test]
fn huge_file_is_rejected() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("huge.txt");
    std::fs::write(&path, vec![b'.'; (16 << 20) + 1]).expect("write");
    let e = read_puzzle(&path).expect_err("huge");
    assert!(matches!(e, InputError::TooLarge { .. }), "{e:?}");
}

/// Output: `write_atomic` creates the file with exactly the contents, replaces an existing file,
/// and leaves no temporary file behind.
#[test]
fn write_atomic_writes_and_replaces() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("out.txt");
    write_atomic(&path, "first\n").expect("write");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), "first\n");
    write_atomic(&path, P03).expect("overwrite");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), P03);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("out.txt")]);
}

/// Output: when the write fails nothing is created or clobbered: a missing destination folder,
/// a destination that is a directory (its contents stay), a parent that is a regular file (the
/// file stays as it was).
#[test]
fn write_atomic_failure_leaves_everything_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("no-such-folder").join("out.txt");
    let e = write_atomic(&missing, P03).expect_err("missing folder");
    assert!(e.to_string().contains("no-such-folder"), "{e}");
    assert!(!missing.exists());
    assert!(!dir.path().join("no-such-folder").exists());

    let target = dir.path().join("a-folder");
    std::fs::create_dir(&target).expect("mkdir");
    std::fs::write(target.join("keep.txt"), "keep\n").expect("write");
    write_atomic(&target, P03).expect_err("destination is a directory");
    assert!(target.is_dir());
    assert_eq!(
        std::fs::read_to_string(target.join("keep.txt")).expect("read"),
        "keep\n"
    );

    let existing = dir.path().join("existing.txt");
    std::fs::write(&existing, "precious\n").expect("write");
    write_atomic(&existing.join("out.txt"), P03).expect_err("parent is a file");
    assert_eq!(
        std::fs::read_to_string(&existing).expect("read"),
        "precious\n"
    );
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["a-folder", "existing.txt"],
        "no temporary file left"
    );
}

/// Output: on Linux, an existing file in a folder where no file can be created (`/proc`) is left
/// as it was when the write fails.
#[cfg(target_os = "linux")]
#[test]
fn write_atomic_failure_leaves_an_existing_destination_untouched() {
    let path = Path::new("/proc/version");
    let before = std::fs::read(path).expect("read /proc/version");
    write_atomic(path, P03).expect_err("cannot create a file in /proc");
    assert_eq!(std::fs::read(path).expect("read /proc/version"), before);
}

/// The second state of a two-state solution: p03 after red's king steps from (2,7) to (1,6).
const P03_NEXT: &str = "\
........
....b.R.
........
..b.b...
...b...r
........
...r....
....B...
";

/// Solution format: states separated by one empty line, a final newline, LF only.
#[test]
fn format_solution_layout() {
    let a = p03();
    let b = parse_board(P03_NEXT.as_bytes())
        .expect("parses")
        .with_side_to_move(Color::Black);
    let text = format_solution(&[a, b]);
    assert_eq!(text, format!("{P03}\n{P03_NEXT}"));
    assert!(!text.contains('\r'));
    assert!(text.ends_with("....B...\n") && !text.ends_with("\n\n"));
    assert_eq!(format_solution(&[a]), P03);
}

/// Solution parsing: boards separated by one empty line, red to move first and then the sides
/// alternating; trailing blank lines, CRLF and a missing final newline are tolerated.
#[test]
fn parse_solution_accepts_separators_trailing_blank_lines_and_crlf() {
    let a = p03();
    let b = parse_board(P03_NEXT.as_bytes())
        .expect("parses")
        .with_side_to_move(Color::Black);
    let c = a.with_side_to_move(Color::Red);
    let plain = format!("{P03}\n{P03_NEXT}\n{P03}");
    for (what, text) in [
        ("plain", plain.clone()),
        ("one trailing blank line", format!("{plain}\n")),
        ("three trailing blank lines", format!("{plain}\n\n\n")),
        ("CRLF", plain.replace('\n', "\r\n")),
        (
            "CRLF and trailing blank line",
            plain.replace('\n', "\r\n") + "\r\n",
        ),
        ("no final newline", plain.trim_end().to_string()),
        ("trailing spaces", plain.replace('\n', " \n")),
        (
            "spaces on the separator lines",
            plain.replace("\n\n", "\n  \n"),
        ),
    ] {
        let states = parse_solution(text.as_bytes()).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(states, vec![a, b, c], "{what}");
        let sides: Vec<Color> = states.iter().map(Position::side_to_move).collect();
        assert_eq!(sides, [Color::Red, Color::Black, Color::Red], "{what}");
    }
    // A single board is a solution of one state.
    assert_eq!(parse_solution(P03.as_bytes()), Ok(vec![a]));
}

/// Solution parsing: a missing separator, a doubled separator, an incomplete last board, a bad
/// board and an empty file are rejected at their place.
#[test]
fn parse_solution_rejections() {
    let e = parse_solution(format!("{P03}{P03_NEXT}").as_bytes()).expect_err("no separator");
    assert_eq!((e.line, e.column), (9, 1));
    assert_eq!(
        e.kind,
        BoardErrorKind::MissingSeparator {
            found: "........".into()
        }
    );

    let e = parse_solution(format!("{P03}\n\n{P03_NEXT}").as_bytes()).expect_err("two blanks");
    assert_eq!(
        (e.line, e.column, e.kind),
        (10, 1, BoardErrorKind::EmptyLine)
    );

    let short: String = P03_NEXT.lines().take(5).map(|l| format!("{l}\n")).collect();
    let e = parse_solution(format!("{P03}\n{short}").as_bytes()).expect_err("short board");
    assert_eq!(
        (e.line, e.column, e.kind),
        (15, 1, BoardErrorKind::TooFewRows { found: 5 })
    );

    let bad = P03_NEXT.replacen('R', "Q", 1);
    let e = parse_solution(format!("{P03}\n{bad}").as_bytes()).expect_err("bad character");
    assert_eq!(
        (e.line, e.column, e.kind),
        (11, 7, BoardErrorKind::BadChar { found: 'Q' })
    );

    for empty in [&b""[..], b"\n", b"\n\n\n", b"\r\n"] {
        let e = parse_solution(empty).expect_err("empty");
        assert_eq!(
            (e.line, e.column, e.kind),
            (1, 1, BoardErrorKind::Empty),
            "{empty:?}"
        );
    }
}

/// Solution files: `read_solution` reads what `write_atomic` wrote.
#[test]
fn solution_file_round_trip() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("solution.txt");
    let a = p03();
    let b = parse_board(P03_NEXT.as_bytes())
        .expect("parses")
        .with_side_to_move(Color::Black);
    write_atomic(&path, &format_solution(&[a, b])).expect("write");
    assert_eq!(read_solution(&path).expect("read"), vec![a, b]);
}
