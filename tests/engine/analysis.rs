//! The independent analysis against the published puzzles, and its two methods against each
//! other.

use checkers::analysis::{
    check_line, optimal_line, solve_reachable, AnalysisError, BoundedProver, FaultKind, Oracle,
    OracleLimits, Value,
};
use checkers::formats::board_text::{parse_board, parse_solution};
use checkers::rules::movegen::legal_moves;
use checkers::Position;

/// The public puzzles, copied into the repository (tests/data/public/SOURCES.md).
const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/public");

/// The published optimal length of p01..p08 (SOURCES.md, "min plies").
const MIN_PLIES: [(&str, u32); 8] = [
    ("p01", 1),
    ("p02", 3),
    ("p03", 7),
    ("p04", 7),
    ("p05", 9),
    ("p06", 13),
    ("p07", 3),
    ("p08", 7),
];

/// Puzzles with a published full solution.
const WITH_EXPECTED: [&str; 9] = [
    "p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08", "p22",
];

fn puzzle(name: &str) -> Position {
    let path = format!("{PUZZLES}/{name}.txt");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_board(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn expected(name: &str) -> Vec<Position> {
    let path = format!("{PUZZLES}/{name}.expected.txt");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_solution(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn board(rows: &str) -> Position {
    parse_board(rows.as_bytes()).expect("test board")
}

/// Two red kings against one black king in the double corner: red wins in 29 plies.
fn two_kings_v_one() -> Position {
    board(".B......\n........\n........\n........\n........\n........\n.R.R....\n........\n")
}

/// Three red kings against one black king: red wins in 15 plies.
fn three_kings_v_one() -> Position {
    board("........\n........\n........\n....B...\n........\n........\n.R.R.R..\n........\n")
}

/// One king each, each in a double corner: a draw.
fn kings_in_double_corners() -> Position {
    board(".B......\n........\n........\n........\n........\n........\n........\n......R.\n")
}

/// One king each on the long light diagonal, black in its single corner: red wins in 11 plies.
fn kings_on_light_corners() -> Position {
    board("R.......\n........\n........\n........\n........\n........\n........\n.......B\n")
}

#[test]
fn published_puzzles_have_their_published_values() {
    let mut oracle = Oracle::default();
    for (name, plies) in MIN_PLIES {
        let value = oracle.value(&puzzle(name)).expect(name);
        assert_eq!(value, Some(Value::Win(plies)), "{name}");
    }
}

#[test]
fn published_solutions_are_optimal() {
    let mut oracle = Oracle::default();
    for name in WITH_EXPECTED {
        let states = expected(name);
        assert_eq!(states[0], puzzle(name), "{name}: first state is the puzzle");
        let report = check_line(&states, &mut oracle).expect(name);
        assert_eq!(report.fault, None, "{name}");
        assert!(report.is_ok());
        let plies = u32::try_from(states.len() - 1).expect("short line");
        assert_eq!(report.root_value, Some(Value::Win(plies)), "{name}");
    }
}

#[test]
fn optimal_lines_have_the_right_length_and_pass_the_check() {
    let mut oracle = Oracle::default();
    let mut roots: Vec<(String, Position)> = WITH_EXPECTED
        .iter()
        .map(|name| (name.to_string(), puzzle(name)))
        .collect();
    roots.push(("p52".into(), puzzle("p52")));
    roots.push(("2K v 1K".into(), two_kings_v_one()));
    roots.push(("3K v 1K".into(), three_kings_v_one()));
    for (name, root) in roots {
        let value = oracle.value(&root).expect(&name).expect(&name);
        let line = optimal_line(&root, &mut oracle).expect(&name);
        let plies = value.plies().expect("not a draw") as usize;
        assert_eq!(line.len(), plies + 1, "{name}");
        assert_eq!(line[0], root, "{name}");
        assert!(
            legal_moves(&line[plies]).is_empty(),
            "{name}: ends the game"
        );
        let report = check_line(&line, &mut oracle).expect(&name);
        assert_eq!(report.fault, None, "{name}");
    }
}

#[test]
fn optimal_line_breaks_ties_by_the_smallest_move() {
    // Every optimal move of the line is the smallest optimal one by `Ord`.
    let mut oracle = Oracle::default();
    let root = puzzle("p06");
    let line = optimal_line(&root, &mut oracle).expect("p06");
    for pair in line.windows(2) {
        let value = oracle.value(&pair[0]).expect("decided").expect("decided");
        let mut moves = legal_moves(&pair[0]);
        moves.sort();
        let first_optimal = moves
            .iter()
            .map(|&mv| pair[0].play(mv))
            .find(|child| {
                // Only a loss (win) one ply shorter keeps the value, so search no deeper.
                let remaining = value.plies().expect("a win") - 1;
                oracle
                    .value_within(child, remaining)
                    .expect("decided")
                    .is_some_and(|v| Value::from_child(v) == value)
            })
            .expect("an optimal move");
        assert_eq!(first_optimal, pair[1]);
    }
}

#[test]
fn black_wins_p52() {
    let mut oracle = Oracle::default();
    assert_eq!(oracle.value(&puzzle("p52")), Ok(Some(Value::Loss(2))));
    let report = check_line(&expected("p52"), &mut oracle).expect("p52");
    assert_eq!(report.fault, None);
    assert_eq!(report.root_value, Some(Value::Loss(2)));
}

#[test]
fn lone_kings_in_double_corners_draw() {
    let root = kings_in_double_corners();
    let table = solve_reachable(&root, 10_000).expect("small");
    assert_eq!(table.value(&root), Some(Value::Draw));
    let mut oracle = Oracle::default();
    assert_eq!(oracle.value(&root), Ok(Some(Value::Draw)));
    assert_eq!(optimal_line(&root, &mut oracle), Err(AnalysisError::Drawn));
}

#[test]
fn drawn_line_ends_at_the_third_repetition() {
    use checkers::Color::{Black, Red};
    // Both kings shuttle between the two cells of their double corner.
    let root = kings_in_double_corners();
    let red_out =
        board(".B......\n........\n........\n........\n........\n........\n.......R\n........\n");
    let both_out =
        board("........\nB.......\n........\n........\n........\n........\n.......R\n........\n");
    let black_out =
        board("........\nB.......\n........\n........\n........\n........\n........\n......R.\n");
    let cycle = [
        red_out.with_side_to_move(Black),
        both_out.with_side_to_move(Red),
        black_out.with_side_to_move(Black),
        root,
    ];
    let mut line = vec![root];
    line.extend(cycle);
    line.extend(cycle);
    assert_eq!(line.len(), 9);
    let mut oracle = Oracle::default();
    let report = check_line(&line, &mut oracle).expect("decided");
    assert_eq!(report.root_value, Some(Value::Draw));
    assert_eq!(report.fault, None, "the third occurrence ends the game");
    // Stopping at the second occurrence: the game is not over.
    let report = check_line(&line[..5], &mut oracle).expect("decided");
    let fault = report.fault.expect("a fault");
    assert_eq!(
        (fault.index, fault.kind),
        (4, FaultKind::NotOver { value: Value::Draw })
    );
    // Going on after the third occurrence: the game was over.
    line.push(cycle[0]);
    let report = check_line(&line, &mut oracle).expect("decided");
    let fault = report.fault.expect("a fault");
    assert_eq!((fault.index, fault.kind), (9, FaultKind::AfterEnd));
}

#[test]
fn check_line_rejects_an_illegal_step() {
    let mut oracle = Oracle::default();
    let mut states = expected("p03");
    states.remove(3);
    let report = check_line(&states, &mut oracle).expect("decided");
    let fault = report.fault.expect("a fault");
    assert_eq!((fault.index, fault.kind), (3, FaultKind::Illegal));

    // Passing (the same board, the other side to move) is not a move either.
    let root = puzzle("p03");
    let pass = root.with_side_to_move(checkers::Color::Black);
    let report = check_line(&[root, pass], &mut oracle).expect("decided");
    assert_eq!(report.fault.expect("a fault").kind, FaultKind::Illegal);
}

/// A child of `pos` that is legal but not optimal for the mover, with its exact value, if the
/// oracle finds one that ends the game within `extra` plies more than the best move.
fn suboptimal_child(pos: &Position, extra: u32, oracle: &mut Oracle) -> Option<(Position, Value)> {
    let best = oracle.value(pos).ok()??;
    let bound = best.plies()? + extra;
    legal_moves(pos)
        .iter()
        .map(|&mv| pos.play(mv))
        .find_map(|child| {
            let v = oracle.value_within(&child, bound).ok()??;
            (Value::from_child(v) != best && v.plies().is_some()).then_some((child, v))
        })
}

#[test]
fn check_line_rejects_a_suboptimal_red_move() {
    let mut oracle = Oracle::default();
    // In p22 after 4 plies red mates in 3, but one move still wins, only more slowly.
    let published = expected("p22");
    let at = published[4];
    assert_eq!(oracle.value(&at), Ok(Some(Value::Win(3))));
    let (slow, slow_value) = suboptimal_child(&at, 4, &mut oracle).expect("a slower win");
    assert_eq!(Value::from_child(slow_value), Value::Win(7));
    // A complete, legal game: the slow move, then optimal play to the end.
    let mut states = published[..5].to_vec();
    states.extend(optimal_line(&slow, &mut oracle).expect("decided"));
    assert!(legal_moves(&states[states.len() - 1]).is_empty());
    let report = check_line(&states, &mut oracle).expect("decided");
    let fault = report.fault.expect("a fault");
    assert_eq!(fault.index, 5);
    match fault.kind {
        FaultKind::Suboptimal { best, played } => {
            assert_eq!(best, Value::Win(3));
            // The bounded search may report "worse than the best" without the exact value.
            assert!(
                played.is_none() || played == Some(Value::Win(7)),
                "{played:?}"
            );
        }
        other => panic!("expected a suboptimal move, got {other:?}"),
    }

    // A red move that throws the win away entirely (p08: black then wins).
    let root = puzzle("p08");
    let losing = legal_moves(&root)
        .iter()
        .map(|&mv| root.play(mv))
        .find(|child| oracle.value_within(child, 13).ok().flatten() == Some(Value::Win(13)))
        .expect("p08 has a losing move");
    let report = check_line(&[root, losing], &mut oracle).expect("decided");
    let fault = report.fault.expect("a fault");
    assert_eq!(fault.index, 1);
    assert!(matches!(
        fault.kind,
        FaultKind::Suboptimal {
            best: Value::Win(7),
            ..
        }
    ));
}

#[test]
fn check_line_rejects_a_suboptimal_black_move() {
    let mut oracle = Oracle::default();
    // The first black-to-move state of a published line where black has a worse move.
    let (published, index, bad, bad_value) = WITH_EXPECTED
        .iter()
        .map(|name| expected(name))
        .find_map(|line| {
            (1..line.len()).step_by(2).find_map(|i| {
                let (bad, v) = suboptimal_child(&line[i], 0, &mut oracle)?;
                Some((line.clone(), i, bad, v))
            })
        })
        .expect("some published line lets black resign early");
    let best = oracle
        .value(&published[index])
        .expect("decided")
        .expect("decided");
    let mut states = published[..=index].to_vec();
    states.extend(optimal_line(&bad, &mut oracle).expect("decided"));
    let report = check_line(&states, &mut oracle).expect("decided");
    let fault = report.fault.expect("a fault");
    assert_eq!(fault.index, index + 1);
    let played = Value::from_child(bad_value);
    assert!(played < best, "black resigned early: {played} < {best}");
    assert_eq!(
        fault.kind,
        FaultKind::Suboptimal {
            best,
            played: Some(played)
        }
    );
    // The game is also shorter than the published one.
    assert!(states.len() < published.len());
}

#[test]
fn check_line_rejects_a_line_that_stops_early_or_goes_on() {
    let mut oracle = Oracle::default();
    let states = expected("p04");
    let short = &states[..states.len() - 1];
    let report = check_line(short, &mut oracle).expect("decided");
    let fault = report.fault.expect("a fault");
    assert_eq!(fault.index, short.len() - 1);
    assert_eq!(
        fault.kind,
        FaultKind::NotOver {
            value: Value::Win(1)
        }
    );

    let mut long = states.clone();
    long.push(states[states.len() - 1].with_side_to_move(checkers::Color::Red));
    let report = check_line(&long, &mut oracle).expect("decided");
    let fault = report.fault.expect("a fault");
    assert_eq!(
        (fault.index, fault.kind),
        (states.len(), FaultKind::AfterEnd)
    );

    let report = check_line(&[], &mut oracle).expect("nothing to decide");
    assert_eq!(report.fault.expect("a fault").kind, FaultKind::Empty);
}

#[test]
fn fault_messages_name_the_state_and_the_values() {
    let mut oracle = Oracle::default();
    let states = expected("p04");
    let report = check_line(&states[..3], &mut oracle).expect("decided");
    let text = report.fault.expect("a fault").to_string();
    assert!(text.contains("state 2"), "{text}");
    assert!(text.contains("win in 5 plies"), "{text}");
}

/// Checks that the bounded prover gives exactly the table's value for `pos`, as far as `bound`
/// reaches: the same win or loss when it ends within the bound, nothing otherwise.
fn assert_prover_agrees(
    prover: &mut BoundedProver,
    pos: &Position,
    table_value: Value,
    bound: u32,
) {
    let expected = match table_value.plies() {
        Some(n) if n <= bound => Some(table_value),
        _ => None,
    };
    assert_eq!(prover.value(pos, bound), Ok(expected), "{pos:?}");
}

#[test]
fn prover_agrees_with_the_full_analysis_on_whole_small_graphs() {
    let roots = [
        ("p01", puzzle("p01")),
        ("p02", puzzle("p02")),
        ("p07", puzzle("p07")),
        ("p22 after one move", expected("p22")[1]),
        ("p52", puzzle("p52")),
        ("kings on light corners", kings_on_light_corners()),
        ("kings in double corners", kings_in_double_corners()),
    ];
    let mut prover = BoundedProver::default();
    for (name, root) in roots {
        let table = solve_reachable(&root, 100_000).expect(name);
        let mut seen = 0;
        for (pos, value) in table.iter() {
            assert_prover_agrees(&mut prover, &pos, value, 17);
            seen += 1;
        }
        assert_eq!(seen, table.len(), "{name}");
    }
}

#[test]
fn prover_agrees_with_the_full_analysis_on_king_endgames() {
    let mut prover = BoundedProver::default();
    for (root, plies) in [
        (two_kings_v_one(), 29),
        (three_kings_v_one(), 15),
        (kings_on_light_corners(), 11),
    ] {
        let table = solve_reachable(&root, 1_000_000).expect("fits");
        assert_eq!(table.value(&root), Some(Value::Win(plies)));
        assert_prover_agrees(&mut prover, &root, Value::Win(plies), plies + 2);
        // The children, which the optimal line is chosen from.
        for mv in legal_moves(&root) {
            let child = root.play(mv);
            let value = table.value(&child).expect("reachable");
            assert_prover_agrees(&mut prover, &child, value, plies + 1);
        }
    }
}

#[test]
fn prover_agrees_with_the_full_analysis_along_published_lines() {
    // The roots of p03-p06 and p08 reach more positions than a test can enumerate; every state
    // of their lines, and every child of those states, whose graph fits is compared instead.
    let mut prover = BoundedProver::default();
    let mut compared = 0;
    for (name, _) in MIN_PLIES {
        let line = expected(name);
        for state in &line {
            let children = legal_moves(state).into_iter().map(|mv| state.play(mv));
            for pos in std::iter::once(*state).chain(children) {
                if let Ok(table) = solve_reachable(&pos, 20_000) {
                    let value = table.value(&pos).expect("its own root");
                    assert_prover_agrees(&mut prover, &pos, value, 15);
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 50, "only {compared} positions compared");
}

#[test]
fn both_methods_give_the_same_optimal_lines() {
    let prover_only = OracleLimits {
        max_positions: 0,
        ..OracleLimits::default()
    };
    let tables_first = OracleLimits {
        quick_budget: 0,
        ..OracleLimits::default()
    };
    for root in [two_kings_v_one(), three_kings_v_one(), puzzle("p02")] {
        let a = optimal_line(&root, &mut Oracle::new(prover_only)).expect("prover");
        let b = optimal_line(&root, &mut Oracle::new(tables_first)).expect("tables");
        assert_eq!(a, b);
    }
}

#[test]
fn undecidable_within_tiny_limits_is_an_error_not_a_guess() {
    let tiny = OracleLimits {
        max_positions: 10,
        max_plies: 5,
        quick_budget: 10,
        node_budget: 1_000,
    };
    let mut oracle = Oracle::new(tiny);
    let root = puzzle("p06");
    let value = oracle.value(&root);
    assert!(
        matches!(value, Ok(None) | Err(AnalysisError::BudgetExhausted { .. })),
        "{value:?}"
    );
    assert!(check_line(&expected("p06"), &mut oracle).is_err());
    assert!(optimal_line(&root, &mut oracle).is_err());
}
