//! Tests of the CSCI561 texts: coordinates, `input.txt`, `output.txt`, and the assignment's
//! published examples (from the CSCI561 checkers assignment; its formats: `docs/protocols.md`).

use super::*;
use crate::rules::movegen::legal_moves;

/// The assignment's five example inputs with their published answers.
pub(crate) const EXAMPLES: [(&str, &str); 5] = [
    (
        "SINGLE\nBLACK\n100.0\n.b...b..\n..b...b.\n.....w.b\n....w...\n.b......\nw...w.w.\n...B....\n......w.\n",
        "J d2 f4\nJ f4 d6\n",
    ),
    (
        "SINGLE\nWHITE\n6.6\n........\nw...b.b.\n........\n..w.b...\n.w...b..\n....b...\n.w.....b\n..w...w.\n",
        "E a7 b8\n",
    ),
    (
        "SINGLE\nWHITE\n23.33\n.b...b..\n..b.b.b.\n...b...b\n..b.....\n.....w..\nw.b.w.w.\n.w.....w\nw...w...\n",
        "J b2 d4\nJ d4 b6\nJ b6 d8\n",
    ),
    (
        "SINGLE\nWHITE\n100.0\n.b.b.b.b\nb.b.b.b.\n.b...b.b\n....b...\n........\nw.w.w.w.\n.w.w.w.w\nw.w.w.w.\n",
        "E c3 b4\n",
    ),
    (
        "SINGLE\nBLACK\n100.0\n.b.....b\nb...b.b.\n.b...b.b\n..b.w...\n........\nw...w...\n.w.w...w\nw...w.w.\n",
        "J f6 d4\nJ d4 f2\n",
    ),
];

#[test]
fn cells_are_named_from_the_bottom_left() {
    let top_left = Square::new(0, 0).unwrap();
    assert_eq!(cell_name(top_left), "a8");
    assert_eq!(cell_name(Square::new(7, 7).unwrap()), "h1");
    assert_eq!(cell_name(Square::new(6, 3).unwrap()), "d2");
    for sq in Square::all() {
        assert_eq!(parse_cell(&cell_name(sq)), Some(sq));
    }
    for bad in ["", "a", "a9", "i1", "A1", "a0", "a10", "é1"] {
        assert_eq!(parse_cell(bad), None, "{bad}");
    }
}

#[test]
fn the_published_examples_read_and_their_answers_are_legal() {
    let legal_counts = [2, 8, 1, 7, 1];
    for (i, (text, answer)) in EXAMPLES.iter().enumerate() {
        let input = parse_input(text).unwrap();
        assert_eq!(input.mode, Mode::Single);
        assert_eq!(input.position.side_to_move(), input.colour);
        let pos = input.position;
        let legal = legal_moves(&pos);
        assert_eq!(legal.len(), legal_counts[i], "example {}", i + 1);
        let mv = parse_output(answer, &pos).unwrap();
        assert!(legal.contains(&mv));
        // Written back, the move is the published text (the routes are unique here).
        assert_eq!(format_move(&pos, mv), *answer, "example {}", i + 1);
        // The board is written back as read, and the whole input reads back the same.
        assert!(text.ends_with(&format_board(&pos)));
        assert_eq!(
            parse_input(&format_input(Mode::Single, input.seconds, &pos)),
            Ok(input)
        );
    }
}

#[test]
fn example_one_has_the_other_capture_too() {
    let input = parse_input(EXAMPLES[0].0).unwrap();
    let other = parse_output("J d2 f4\nJ f4 h2\n", &input.position).unwrap();
    assert!(legal_moves(&input.position).contains(&other));
    // The king jumps backwards: a man could not.
    assert!(input.position.kings().contains(other.from()));
}

#[test]
fn times_in_both_forms_and_crlf_are_read() {
    let text = EXAMPLES[1].0.replace("6.6", "300").replace('\n', "\r\n");
    assert_eq!(parse_input(&text).unwrap().seconds, 300.0);
    let text = EXAMPLES[1].0.replace("6.6", "299.93");
    assert_eq!(parse_input(&text).unwrap().seconds, 299.93);
    assert_eq!(format_seconds(300.0), "300");
    assert_eq!(format_seconds(299.93), "299.93");
    assert_eq!(format_seconds(0.0), "0.001");
    assert_eq!(format_seconds(-4.0), "0.001");
}

#[test]
fn bad_inputs_name_their_line() {
    let good = EXAMPLES[1].0;
    let cases: Vec<(String, usize)> = vec![
        (String::new(), 1),
        ("SINGLE\n".to_owned(), 2),
        ("SINGLE\nWHITE\n".to_owned(), 3),
        (good.replace("SINGLE", "single"), 1),
        (good.replace("SINGLE", "MULTI"), 1),
        (good.replace("WHITE", "RED"), 2),
        (good.replace("6.6", "0"), 3),
        (good.replace("6.6", "-1"), 3),
        (good.replace("6.6", "abc"), 3),
        (good.replace("6.6", "nan"), 3),
        (good.replace("6.6", "inf"), 3),
        (good.replace("w...b.b.", "w...b.b"), 5),
        (good.replace("w...b.b.", "w...b.b.."), 5),
        (good.replace("w...b.b.", "w...r.b."), 5),
        (good.replace("..w...w.\n", ""), 11),
        (format!("{good}........\n"), 12),
    ];
    for (text, line) in cases {
        let err = parse_input(&text).unwrap_err();
        assert_eq!(err.line, line, "{text:?}: {err}");
        assert!(err.to_string().starts_with(&format!("line {line}:")));
    }
    // The wrong character's column is named.
    let err = parse_input(&good.replace("w...b.b.", "w...r.b.")).unwrap_err();
    assert_eq!(
        err.kind,
        InputErrorKind::Cell {
            column: 5,
            found: 'r'
        }
    );
    // Trailing empty lines are fine.
    assert!(parse_input(&format!("{good}\n\n")).is_ok());
}

#[test]
fn bad_outputs_are_told_apart() {
    // Example 3: the only legal move is the triple jump b2-d4-b6-d8.
    let pos = parse_input(EXAMPLES[2].0).unwrap().position;
    let err = |text: &str| parse_output(text, &pos).unwrap_err();
    assert_eq!(err(""), OutputError::Empty);
    assert_eq!(err("\n\n"), OutputError::Empty);
    assert!(matches!(err("hello"), OutputError::Garbage { line: 1, .. }));
    assert!(matches!(err("J b2 d4 x"), OutputError::Garbage { .. }));
    assert!(matches!(err("J b2 z9"), OutputError::Garbage { .. }));
    assert!(matches!(err("X b2 d4"), OutputError::Garbage { .. }));
    assert!(matches!(
        err("J b2 d4\nJ b6 d8"),
        OutputError::Malformed { line: 2, .. }
    ));
    assert!(matches!(
        err("E b2 c3\nJ c3 e5"),
        OutputError::Malformed { .. }
    ));
    // A step when a capture is mandatory, a jump over nothing, a stop half-way.
    assert!(matches!(err("E a1 b2"), OutputError::Illegal { .. }));
    assert!(matches!(err("E e3 d4"), OutputError::Illegal { .. }));
    assert!(matches!(err("J e3 g5"), OutputError::Illegal { .. }));
    assert!(matches!(err("J d8 f6"), OutputError::Illegal { .. }));
    assert_eq!(
        err("J b2 d4\nJ d4 b6"),
        OutputError::Incomplete {
            text: "J b2 d4, J d4 b6".to_owned(),
            at: "b6".to_owned()
        }
    );
    assert!(matches!(err("J b2 d4"), OutputError::Incomplete { .. }));
    // The full sequence, with CRLF and spaces, is fine.
    assert!(parse_output("J b2 d4\r\n J d4 b6 \r\nJ b6 d8\r\n", &pos).is_ok());
}

#[test]
fn a_man_stops_when_crowned() {
    // A white man on d6 jumps c7 (or e7) and lands on the top row, crowned: the move ends
    // there, and a further jump written after it is refused.
    let text = "SINGLE\nWHITE\n1\n........\n..b.b...\n...w....\n........\n........\n........\n........\n........\n";
    let pos = parse_input(text).unwrap().position;
    let legal = legal_moves(&pos);
    let mv = parse_output("J d6 b8", &pos).unwrap();
    assert!(legal.contains(&mv));
    // Going on as a king after crowning is illegal here.
    assert!(matches!(
        parse_output("J d6 b8\nJ b8 d6", &pos).unwrap_err(),
        OutputError::Illegal { .. }
    ));
}

#[test]
fn board_lines_round_trip() {
    for (text, _) in EXAMPLES {
        let pos = parse_input(text).unwrap().position;
        let line = board_line(&pos);
        assert_eq!(line.len(), 64);
        assert_eq!(position_of_line(&line, pos.side_to_move()), Some(pos));
    }
    assert_eq!(position_of_line("x", Color::Red), None);
}
