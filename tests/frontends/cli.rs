//! End-to-end tests of the `checkers` binary: every shipped puzzle is solved to its expected
//! bytes with a valid, finished game; bad inputs fail cleanly; perft and help work.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

use checkers::formats::board_text::parse_solution;
use checkers::rules::draw::DrawRule;
use checkers::rules::game::Game;
use checkers::rules::movegen::legal_moves;
use checkers::Position;

use crate::common::{checkers, manifest};

/// Every `*.txt` of the folder `dir` of `puzzles/`, sorted by name.
fn shipped_puzzles_in(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(manifest().join("puzzles").join(dir))
        .expect("puzzles/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    v.sort();
    v
}

/// Every `puzzles/*.txt`, sorted by name.
fn shipped_puzzles() -> Vec<PathBuf> {
    shipped_puzzles_in("")
}

/// Checks that `states` is a game: each state a legal successor of the previous, the game over at
/// the end (no legal move, or a third occurrence), and not over before.
fn assert_valid_finished_game(states: &[Position], name: &str) {
    let mut game = Game::new(states[0], DrawRule::None);
    for (i, pair) in states.windows(2).enumerate() {
        assert!(
            game.outcome().is_none(),
            "{name}: game over before state {}",
            i + 2
        );
        let successors: Vec<Position> = legal_moves(&pair[0])
            .iter()
            .map(|&m| pair[0].play(m))
            .collect();
        assert!(
            successors.contains(&pair[1]),
            "{name}: state {} is not a legal successor",
            i + 2
        );
        game.play_to(&pair[1]).expect("a legal successor plays");
    }
    assert!(
        game.outcome().is_some(),
        "{name}: the last state does not end the game"
    );
}

/// The solving command for `input` and `output`, ready for more arguments.
fn solve_cmd(input: &Path, output: &Path) -> Command {
    let mut cmd = checkers();
    cmd.arg("--inputfile")
        .arg(input)
        .arg("--outputfile")
        .arg(output);
    cmd
}

fn solve_to(input: &Path, output: &Path) -> assert_cmd::assert::Assert {
    solve_cmd(input, output).arg("-q").assert()
}

/// Solves the shipped puzzle `puzzle` (a file of `puzzles/DIR`) with the options `args` and
/// checks the output against `expected/DIR`, byte for byte; the output's states.
fn solve_shipped(puzzle: &Path, dir: &str, out_dir: &Path, args: &[&str]) -> Vec<Position> {
    let name = puzzle
        .file_name()
        .and_then(|n| n.to_str())
        .expect("utf-8 name")
        .to_string();
    let out = out_dir.join(&name);
    solve_cmd(puzzle, &out)
        .args(args)
        .arg("-q")
        .assert()
        .success();
    let produced = fs::read(&out).expect("output written");
    let expected =
        fs::read(manifest().join("expected").join(dir).join(&name)).expect("expected file");
    let states = parse_solution(&produced).expect("output parses");
    assert_valid_finished_game(&states, &name);
    let expected_states = parse_solution(&expected).expect("expected parses");
    assert_eq!(states.len(), expected_states.len(), "{dir}/{name}: length");
    assert_eq!(
        produced, expected,
        "{dir}/{name}: bytes differ from expected/{dir}/{name}"
    );
    states
}

/// The default budget in nodes (the proof budget is the assumed speed times the limit: a tenth of
/// the speed over ten times the limit) with the deadline ten times as far, so that a loaded
/// machine does not cut a turn short and change the line.
const DEFAULT_BUDGET_FAR_DEADLINE: [&str; 4] =
    ["--time-limit", "500", "--nodes-per-second", "100000"];

/// The six-piece puzzles, proven by reachable-only analyses of 68 to 119 M slots (10 to 20 s of
/// CPU each): at the default budget each gives its certified line, so that no budget rule loses
/// one silently (a build cap for level-looking boards once turned the 45-ply win into an
/// unproven 35-ply line). The budget in nodes is the default one (the proof budget is the
/// assumed speed times the limit: a tenth of the speed over ten times the limit); only the
/// deadline is ten times as far, so that a loaded machine does not cut the analyses short.
#[test]
fn every_six_piece_puzzle_matches_its_expected_solution() {
    let dir = tempfile::tempdir().expect("temp dir");
    let puzzles = shipped_puzzles_in("six-pieces");
    assert_eq!(puzzles.len(), 3, "puzzles/six-pieces/ lost files");
    for puzzle in puzzles {
        solve_shipped(
            &puzzle,
            "six-pieces",
            dir.path(),
            &DEFAULT_BUDGET_FAR_DEADLINE,
        );
    }
}

/// The seven-piece puzzles, solved from the seven-piece databases alone (no node searched): a
/// search without them does not prove these wins within minutes, so the test needs a build of
/// them, named by `CHECKERS_TEST_EGDB7` (`checkers egdb build --pieces 7 --egdb DIR`, or the
/// workflow's `egdb_pieces=7`; docs/egdb.md).
#[test]
#[ignore = "needs the seven-piece databases: CHECKERS_TEST_EGDB7=DIR cargo test --test frontends -- --ignored seven_piece"]
fn every_seven_piece_puzzle_matches_its_expected_solution_from_the_databases() {
    let egdb = std::env::var_os("CHECKERS_TEST_EGDB7")
        .expect("CHECKERS_TEST_EGDB7 names no folder of seven-piece databases");
    let egdb = egdb.to_str().expect("a UTF-8 path in CHECKERS_TEST_EGDB7");
    let dir = tempfile::tempdir().expect("temp dir");
    let puzzles = shipped_puzzles_in("seven-pieces");
    assert_eq!(puzzles.len(), 3, "puzzles/seven-pieces/ lost files");
    for puzzle in puzzles {
        solve_shipped(&puzzle, "seven-pieces", dir.path(), &["--egdb", egdb]);
    }
}

#[test]
fn every_shipped_puzzle_matches_its_expected_solution() {
    let dir = tempfile::tempdir().expect("temp dir");
    let puzzles = shipped_puzzles();
    assert!(puzzles.len() >= 15, "puzzles/ lost files");
    for puzzle in puzzles {
        let name = puzzle
            .file_name()
            .and_then(|n| n.to_str())
            .expect("utf-8 name")
            .to_string();
        let states = solve_shipped(&puzzle, "", dir.path(), &DEFAULT_BUDGET_FAR_DEADLINE);
        let course = manifest().join("expected/course").join(&name);
        if course.exists() {
            let course_states =
                parse_solution(&fs::read(&course).expect("course file")).expect("parses");
            assert_eq!(
                states.len(),
                course_states.len(),
                "{name}: length differs from the course's line"
            );
            assert_eq!(
                states[0], course_states[0],
                "{name}: course line starts elsewhere"
            );
        }
    }
}

#[test]
fn official_puzzles_have_the_official_lengths() {
    let moves = [1, 3, 7, 7, 9, 13, 3, 7];
    for (i, &n) in moves.iter().enumerate() {
        let name = format!("p{:02}.txt", i + 1);
        let text = fs::read(manifest().join("expected").join(&name)).expect("expected file");
        let states = parse_solution(&text).expect("parses");
        assert_eq!(states.len(), n + 1, "{name}");
    }
}

#[test]
fn output_is_identical_across_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let puzzle = manifest().join("puzzles/p06.txt");
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    solve_to(&puzzle, &a).success();
    solve_to(&puzzle, &b).success();
    assert_eq!(fs::read(a).expect("a"), fs::read(b).expect("b"));
}

/// The king databases are built on the rayon pool; the line must not depend on its size.
#[test]
fn output_does_not_depend_on_the_number_of_threads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let puzzle = manifest().join("puzzles/kings-3v2-double-corner.txt");
    let mut lines = Vec::new();
    for threads in ["1", "3"] {
        let out = dir.path().join(format!("t{threads}.txt"));
        solve_cmd(&puzzle, &out)
            .env("RAYON_NUM_THREADS", threads)
            .assert()
            .success();
        lines.push(fs::read(out).expect("written"));
    }
    assert_eq!(lines[0], lines[1]);
}

#[test]
fn summary_line_reports_the_result() {
    let dir = tempfile::tempdir().expect("temp dir");
    solve_cmd(
        &manifest().join("puzzles/p03.txt"),
        &dir.path().join("o.txt"),
    )
    .assert()
    .success()
    .stderr(predicate::str::contains(
        "red wins after 7 plies (proven optimal); 8 states;",
    ));
}

/// `--draw-rule` takes every subcommand's rule names; a bare `--draw-rule` is the puzzle's
/// optional 50-move rule (`fifty-moves`), and `none` is the default. A won puzzle's line does
/// not change under it; an unknown name is refused with the names.
#[test]
fn draw_rule_names_and_the_bare_flag() {
    let dir = tempfile::tempdir().expect("temp dir");
    let p03 = manifest().join("puzzles/p03.txt");
    let expected = fs::read(manifest().join("expected/p03.txt")).expect("expected/p03.txt");
    for args in [
        &["--draw-rule"][..],
        &["--draw-rule", "fifty-moves"],
        &["--draw-rule", "none"],
        &["--draw-rule", "csci561"],
    ] {
        let out = dir.path().join("o.txt");
        solve_cmd(&p03, &out)
            .args(args)
            .arg("-q")
            .assert()
            .success();
        assert_eq!(fs::read(&out).expect("written"), expected, "{args:?}");
    }
    solve_cmd(&p03, &dir.path().join("x.txt"))
        .args(["--draw-rule", "fifty"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "expected none, fifty-moves, csci561 or dd2380",
        ));
}

#[test]
fn start_position_finishes_within_a_short_time_limit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("start.txt");
    fs::write(
        &input,
        checkers::formats::board_text::format_board(&Position::start()),
    )
    .expect("write");
    let out = dir.path().join("out.txt");
    solve_cmd(&input, &out)
        .args(["--time-limit", "3", "-q"])
        .assert()
        .success();
    let states = parse_solution(&fs::read(&out).expect("output")).expect("parses");
    assert_valid_finished_game(&states, "start");
}

#[test]
fn red_without_moves_gives_the_input_board_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("stuck.txt");
    // The red man on row 1 stays a man and cannot move; black has a king.
    let board = ".r......\n........\n........\n........\n........\n........\n........\n......B.\n";
    fs::write(&input, board).expect("write");
    let out = dir.path().join("out.txt");
    solve_to(&input, &out).success();
    assert_eq!(fs::read_to_string(&out).expect("output"), board);
}

/// Bad input: exit code 2, a message naming the file, line and column, no output file.
fn assert_rejected(contents: &[u8], needle: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("bad.txt");
    fs::write(&input, contents).expect("write");
    let out = dir.path().join("out.txt");
    solve_to(&input, &out)
        .code(2)
        .stderr(predicate::str::contains("bad.txt:").and(predicate::str::contains(needle)));
    assert!(!out.exists(), "output written for a bad input");
}

#[test]
fn bad_inputs_are_rejected_with_location_and_exit_code_2() {
    let good = "........\n....b...\n.......R\n..b.b...\n...b...r\n........\n...r....\n....B...\n";
    assert_rejected(b"", "1:1: the file is empty");
    assert_rejected(good.replacen("b", "x", 1).as_bytes(), "2:5: found 'x'");
    assert_rejected(
        good.replacen("........\n", ".......\n", 1).as_bytes(),
        "1:8: the row has 7 cells",
    );
    assert_rejected(
        good.replacen("........\n", ".........\n", 1).as_bytes(),
        "1:9: the row has 9 cells",
    );
    assert_rejected(
        format!("{good}........\n").as_bytes(),
        "9:1: found a ninth row",
    );
    assert_rejected(
        &good.as_bytes()[..63],
        "8:1: the board ends after row 7; expected 8 rows",
    );
    assert_rejected(b"....\x00...\n", "1:5: not a text file");
}

#[test]
fn existing_output_is_left_untouched_on_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("bad.txt");
    fs::write(&input, "nonsense\n").expect("write");
    let out = dir.path().join("out.txt");
    fs::write(&out, "keep me\n").expect("write");
    solve_to(&input, &out).code(2);
    assert_eq!(fs::read_to_string(&out).expect("out"), "keep me\n");
}

#[test]
fn directory_and_missing_inputs_are_rejected() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out.txt");
    solve_to(dir.path(), &out)
        .code(2)
        .stderr(predicate::str::contains("is a directory"));
    solve_to(&dir.path().join("missing.txt"), &out)
        .code(2)
        .stderr(predicate::str::contains("cannot read the file"));
    assert!(!out.exists());
}

#[test]
fn warnings_are_printed_and_the_puzzle_still_solved() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out.txt");
    solve_cmd(&manifest().join("puzzles/p07.txt"), &out)
        .assert()
        .success()
        .stderr(predicate::str::contains("light cells"));
    assert!(out.exists());
}

#[test]
fn perft_prints_published_counts() {
    for (depth, count) in [(1, "7"), (4, "1469"), (7, "179740")] {
        checkers()
            .args(["perft", &depth.to_string()])
            .assert()
            .success()
            .stdout(predicate::str::diff(format!("{count}\n")));
    }
}

/// The table of subtree counts changes the speed, never the count, on one thread or two.
#[test]
fn perft_counts_do_not_depend_on_the_table_or_threads() {
    for extra in [
        &["--hash-mb", "0", "--threads", "1"][..],
        &["--hash-mb", "1", "--threads", "2"][..],
        &["--hash-mb", "16", "--threads", "1"][..],
    ] {
        checkers()
            .args(["perft", "8"])
            .args(extra)
            .assert()
            .success()
            .stdout(predicate::str::diff("845931\n"));
    }
}

/// `bench --long-wins` keeps the random boards the databases value as long wins, half of each
/// colour, writes their values, and says how many lines end at them; it refuses boards larger
/// than the databases hold.
#[test]
fn bench_long_wins_checks_the_lines_against_the_databases() {
    let dir = tempfile::tempdir().expect("temp dir");
    let egdb = dir.path().join("egdb");
    checkers()
        .args(["egdb", "build", "--pieces", "3", "-q", "--egdb"])
        .arg(&egdb)
        .assert()
        .success();
    let boards = dir.path().join("boards");
    let args = [
        "bench",
        "--jobs",
        "1",
        "--random",
        "4",
        "--seed",
        "7",
        "--pieces",
        "3",
        "--king-percent",
        "100",
        "--min-plies",
        "7",
        "--long-wins",
    ];
    checkers()
        .args(args)
        .arg(&egdb)
        .arg("--boards-dir")
        .arg(&boards)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "long wins: 4 of 4 lines at the databases' winner and length (red wins 2 of 2, black \
             wins 2 of 2)",
        ));
    let values = fs::read_to_string(boards.join("random-7-values.txt")).expect("values");
    assert_eq!(values.lines().count(), 4, "{values}");
    assert_eq!(values.matches("\tblack wins\t").count(), 2, "{values}");
    checkers()
        .args(["bench", "--random", "2", "--pieces", "8", "--long-wins"])
        .arg(&egdb)
        .arg("--boards-dir")
        .arg(&boards)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "--long-wins needs --pieces of at most 7",
        ));
}

/// `bench` times every puzzle of a folder. Files of the folder that are not puzzles (solutions
/// by their name, other text, files that are not `*.txt`) are listed as skipped with the reason,
/// in the table's run and in the JSON, and the run succeeds.
#[test]
fn bench_reports_each_puzzle_and_lists_the_files_it_skips() {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["p01.txt", "p02.txt"] {
        fs::copy(manifest().join("puzzles").join(name), dir.path().join(name)).expect("copy");
    }
    checkers()
        .args(["bench", "--jobs", "1"])
        .arg(dir.path())
        .assert()
        .success()
        .stderr("")
        .stdout(
            predicate::str::contains("p01.txt")
                .and(predicate::str::contains("p02.txt"))
                .and(predicate::str::contains("2 puzzles, 2 proven"))
                .and(predicate::str::contains("<1 min (60%)")),
        );
    fs::copy(
        manifest().join("expected/p03.txt"),
        dir.path().join("p03.expected.txt"),
    )
    .expect("copy");
    fs::write(dir.path().join("notes.txt"), "not a board\n").expect("write");
    fs::write(dir.path().join("SOURCES.md"), "# sources\n").expect("write");
    checkers()
        .args(["bench", "--jobs", "1"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("2 puzzles, 2 proven"))
        .stderr(
            predicate::str::contains("skipped")
                .and(predicate::str::contains(
                    "p03.expected.txt: named as a solution",
                ))
                .and(predicate::str::contains("notes.txt: not a puzzle board"))
                .and(predicate::str::contains("SOURCES.md: not a *.txt file")),
        );
    let output = checkers()
        .args(["bench", "--json", "--jobs", "1"])
        .arg(dir.path())
        .output()
        .expect("runs");
    assert!(output.status.success());
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    let rows = report["puzzles"].as_array().expect("puzzles");
    assert_eq!(rows.len(), 2);
    for row in rows {
        assert_eq!(row["band"], "<1 min (60%)", "{row}");
        assert!(row["nodes_per_second"].is_u64(), "{row}");
    }
    let skipped: Vec<&str> = report["skipped"]
        .as_array()
        .expect("skipped")
        .iter()
        .map(|s| s["path"].as_str().expect("path"))
        .collect();
    assert_eq!(skipped.len(), 3, "{skipped:?}");
    assert!(skipped.iter().any(|p| p.ends_with("notes.txt")));
    assert!(report["skipped"][0]["reason"].is_string());
}

/// A file named on the command line is a puzzle: if it is not one, the run says so and exits 2,
/// after benchmarking the others.
#[test]
fn bench_fails_on_a_named_file_that_is_not_a_puzzle() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("p03.expected.txt");
    fs::copy(manifest().join("expected/p03.txt"), &bad).expect("copy");
    checkers()
        .args(["bench", "--jobs", "1"])
        .arg(manifest().join("puzzles/p01.txt"))
        .arg(&bad)
        .assert()
        .code(2)
        .stdout(predicate::str::contains("p01.txt").and(predicate::str::contains("1 puzzle,")))
        .stderr(
            predicate::str::contains("skipped").and(predicate::str::contains("p03.expected.txt")),
        );
}

/// No puzzle in the selection: a clear message listing what was skipped, exit 2, no table.
#[test]
fn bench_without_puzzles_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    checkers()
        .arg("bench")
        .arg(dir.path())
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::contains("no puzzle to benchmark in")
                .and(predicate::str::contains("no files")),
        );
    fs::write(dir.path().join("README"), "hello\n").expect("write");
    checkers()
        .arg("bench")
        .arg(dir.path())
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::contains("skipped")
                .and(predicate::str::contains("README: not a *.txt file")),
        );
    checkers()
        .arg("bench")
        .arg(dir.path().join("missing"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing: cannot read"));
}

/// A table larger than the memory there is is refused with a message, or (on a machine that
/// has it) used; the process never aborts.
#[test]
fn perft_with_a_huge_table_does_not_abort() {
    let output = checkers()
        .args(["perft", "4", "--hash-mb", "65536"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    match output.status.code() {
        Some(0) => assert_eq!(output.stdout, b"1469\n".to_vec()),
        Some(2) => assert!(
            stderr.contains("--hash-mb 65536") && stderr.contains("MiB"),
            "{stderr}"
        ),
        other => panic!("exit {other:?}: {stderr}"),
    }
}

#[test]
fn one_ply_and_one_draw_are_said_in_the_singular() {
    let dir = tempfile::tempdir().expect("temp dir");
    solve_cmd(
        &manifest().join("puzzles/p01.txt"),
        &dir.path().join("o.txt"),
    )
    .assert()
    .success()
    .stderr(predicate::str::contains("red wins after 1 ply ("));
}

/// Men on their crowning row: one warning line per side, not one per man.
#[test]
fn men_on_their_crowning_row_give_one_warning_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("stuck.txt");
    let board = ".r.r.r..\n........\n........\n........\n........\n........\n........\n......B.\n";
    fs::write(&input, board).expect("write");
    let assert = solve_cmd(&input, &dir.path().join("o.txt"))
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].contains(
            "3 red men stand on their crowning row (row 1 col 2, row 1 col 4, row 1 col 6)"
        ),
        "{stderr}"
    );
}

#[test]
fn perft_divide_lists_each_first_move() {
    checkers()
        .args(["perft", "2", "--divide"])
        .assert()
        .success()
        .stdout(predicate::str::contains("22-18 7\n").and(predicate::str::ends_with("49\n")));
}

/// `-h` is the short help, `--help` the long one, for the solver and the tools.
#[test]
fn short_and_long_help() {
    for sub in [&[][..], &["verify"][..], &["bench"][..]] {
        let short = checkers().args(sub).arg("-h").output().expect("runs");
        let long = checkers().args(sub).arg("--help").output().expect("runs");
        assert!(short.status.success() && long.status.success());
        assert!(
            short.stdout.len() * 3 < long.stdout.len() * 2,
            "{sub:?}: -h is {} bytes, --help {}",
            short.stdout.len(),
            long.stdout.len()
        );
    }
}

#[test]
fn missing_arguments_and_help() {
    checkers()
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--inputfile"));
    checkers()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("--outputfile").and(predicate::str::contains("perft")));
}
