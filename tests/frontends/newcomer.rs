//! A newcomer's first hour: the bare command, the help of every subcommand, the names and
//! defaults of the shared options, the messages a first try meets, and the README's commands and
//! Python example, which must be the ones these tests run.

use std::fs;
use std::path::Path;

use predicates::prelude::*;

use checkers::formats::pdn;
use checkers::formats::replay::Replay;

use crate::common::{checkers, manifest};

/// Widest line of any help text.
const COLUMNS: usize = 100;

/// The subcommands a help text lists under `Commands:` (without `help`).
fn listed_commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // A command's line is indented by two; a wrapped description by more.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The long help of `path` (a subcommand path such as `["egdb", "build"]`), checked to succeed.
fn long_help(path: &[String]) -> String {
    let out = checkers().args(path).arg("--help").output().expect("runs");
    assert!(out.status.success(), "{path:?} --help failed");
    String::from_utf8(out.stdout).expect("help is text")
}

/// Every subcommand path, depth first: `[]`, `["solve"]`, ..., `["egdb", "build"]`, ...
fn every_command() -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut todo = vec![Vec::<String>::new()];
    while let Some(path) = todo.pop() {
        for sub in listed_commands(&long_help(&path)) {
            let mut next = path.clone();
            next.push(sub);
            todo.push(next);
        }
        found.push(path);
    }
    found
}

/// Lines wider than [`COLUMNS`] in `text`, with their width.
fn wide_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .map(|l| (l.chars().count(), l.to_owned()))
        .filter(|(w, _)| *w > COLUMNS)
        .collect()
}

/// The block of `--help` that documents `option`, up to the next option.
fn option_help(help: &str, option: &str) -> String {
    let mut lines = help.lines().skip_while(|l| {
        let t = l.trim_start();
        !(t.starts_with(option) && l.starts_with("      --"))
    });
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("{option} not in help"));
    let rest: Vec<&str> = lines
        .take_while(|l| !l.starts_with("  -") && !l.starts_with("      --"))
        .collect();
    format!("{first}\n{}", rest.join("\n"))
}

/// A bare `checkers` says how to solve a puzzle and lists every subcommand, exit code 2.
#[test]
fn a_bare_checkers_prints_a_short_usage() {
    let out = checkers().output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stderr).expect("text");
    assert!(
        text.contains("checkers --inputfile puzzles/p03.txt --outputfile"),
        "{text}"
    );
    assert!(text.contains("checkers solve --inputfile"), "{text}");
    let listed = listed_commands(&text);
    assert_eq!(listed, listed_commands(&long_help(&[])), "{text}");
    assert!(listed.iter().any(|c| c == "solve") && listed.len() > 10);
    assert_eq!(wide_lines(&text), vec![], "{text}");
    assert!(text.lines().count() < 40, "short: {text}");
}

/// `checkers solve` is the solver under its own name: the same bytes and summary.
#[test]
fn solve_is_the_solver_under_its_own_name() {
    let p03 = manifest().join("puzzles/p03.txt");
    let run = |sub: &[&str]| {
        let out = checkers()
            .args(sub)
            .arg("--inputfile")
            .arg(&p03)
            .args(["--outputfile", "-"])
            .output()
            .expect("runs");
        assert!(out.status.success());
        let summary = String::from_utf8(out.stderr).expect("text");
        let summary = summary.split("; ").take(2).collect::<Vec<_>>().join("; ");
        (out.stdout, summary)
    };
    let (bytes, summary) = run(&[]);
    assert_eq!(
        bytes,
        fs::read(manifest().join("expected/p03.txt")).expect("expected")
    );
    assert_eq!(summary, "red wins after 7 plies (proven optimal); 8 states");
    assert_eq!(run(&["solve"]), (bytes, summary));
}

/// Every help text, short and long, of every subcommand fits 100 columns.
#[test]
fn every_help_line_fits_100_columns() {
    let commands = every_command();
    assert!(commands.len() > 18, "{commands:?}");
    for path in commands {
        for flag in ["-h", "--help"] {
            let out = checkers()
                .args(&path)
                .arg(flag)
                .env("COLUMNS", "250")
                .output()
                .expect("runs");
            assert!(out.status.success(), "{path:?} {flag}");
            let text = String::from_utf8(out.stdout).expect("text");
            assert_eq!(wide_lines(&text), vec![], "{path:?} {flag}");
        }
    }
}

/// `--eval` takes `hand` and `trained` on the solver and on `think` (the solver's old `puzzle`
/// still works), and `--draw-rule`'s default is said once wherever it is an option.
#[test]
fn eval_and_draw_rule_speak_one_vocabulary() {
    for sub in [&[][..], &["think"][..], &["bench"][..]] {
        let path: Vec<String> = sub.iter().map(|s| (*s).to_owned()).collect();
        let help = option_help(&long_help(&path), "--eval");
        assert!(
            help.contains("- hand:") && help.contains("- trained:"),
            "{sub:?}: {help}"
        );
        assert_eq!(
            help.to_lowercase().matches("default").count(),
            1,
            "{sub:?}: {help}"
        );
    }
    for sub in [
        &[][..],
        &["think"][..],
        &["match"][..],
        &["endgame-starts"][..],
    ] {
        let path: Vec<String> = sub.iter().map(|s| (*s).to_owned()).collect();
        let help = option_help(&long_help(&path), "--draw-rule");
        assert_eq!(help.matches("default").count(), 1, "{sub:?}: {help}");
    }
    let p03 = manifest().join("puzzles/p03.txt");
    let solve = |eval: &str| {
        checkers()
            .arg("--inputfile")
            .arg(&p03)
            .args(["--outputfile", "-", "--quiet", "--eval", eval])
            .output()
            .expect("runs")
    };
    let hand = solve("hand");
    assert!(hand.status.success());
    assert_eq!(solve("puzzle").stdout, hand.stdout);
    assert_eq!(solve("trained").stdout, hand.stdout, "p03's line is proven");
    for eval in ["hand", "trained", "puzzle", "net"] {
        checkers()
            .args(["think", "--nodes", "200", "--eval", eval])
            .assert()
            .success();
    }
    checkers()
        .args(["think", "--eval", "neural"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "[possible values: hand, trained, net]",
        ));
}

/// The help says what a command-line user needs without sending them to `cargo doc`, and
/// `think` says its default position and time.
#[test]
fn help_texts_answer_the_first_questions() {
    let solver = long_help(&[]);
    assert!(!solver.contains("cargo doc"), "{solver}");
    assert!(option_help(&solver, "--nodes-per-move").contains("design.md"));
    let think = long_help(&["think".to_owned()]);
    assert!(think.contains("the start position"), "{think}");
    assert!(think.contains("one second"), "{think}");
    assert!(option_help(&think, "--time-ms").contains("1000"), "{think}");
}

/// `match` names every kind of player it takes when it meets an unknown one, and counts in the
/// singular where a count is 1.
#[test]
fn match_messages_name_every_player_and_count_in_the_singular() {
    checkers()
        .args(["match", "--player1", "alphazero", "--player2", "random"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "expected random, minimax:DEPTH, engine[:OPTIONS] or csci561:CMD",
        ));
    let out = checkers()
        .args([
            "match",
            "--player1",
            "engine:nodes=300",
            "--player2",
            "random",
        ])
        .args(["--games", "1", "--jobs", "1"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("text");
    let line = text
        .lines()
        .find(|l| l.starts_with("player1: "))
        .expect("the score line");
    let counts = line["player1: ".len()..].split(';').next().expect("counts");
    let mut total = 0;
    for (count, (one, many)) in
        counts
            .split(", ")
            .zip([("win", "wins"), ("draw", "draws"), ("loss", "losses")])
    {
        let (n, noun) = count.split_once(' ').expect("a count and a noun");
        let n: u32 = n.parse().expect("a count");
        assert_eq!(noun, if n == 1 { one } else { many }, "{line}");
        total += n;
    }
    assert_eq!(total, 1, "{line}");
}

/// `verify` reads the solution in every format the solver writes.
#[test]
fn verify_reads_every_format_the_solver_writes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let p03 = manifest().join("puzzles/p03.txt");
    for format in ["text", "pdn", "fen"] {
        let solution = dir.path().join(format!("s.{format}"));
        checkers()
            .arg("--inputfile")
            .arg(&p03)
            .arg("--outputfile")
            .arg(&solution)
            .args(["--quiet", "--format", format])
            .assert()
            .success();
        checkers()
            .args(["verify", "--inputfile"])
            .arg(&p03)
            .arg("--solution")
            .arg(&solution)
            .arg("--expected")
            .arg(manifest().join("expected/p03.txt"))
            .assert()
            .success()
            .stdout(
                predicate::str::contains("moves:    7\n")
                    .and(predicate::str::contains("verdict:  PASS")),
            );
    }
    // A damaged FEN line is named by its line.
    let bad = dir.path().join("bad.fen");
    let good = fs::read_to_string(dir.path().join("s.fen")).expect("written");
    fs::write(&bad, good.replacen("\nB:", "\nB:X", 1)).expect("write");
    checkers()
        .args(["verify", "--inputfile"])
        .arg(&p03)
        .arg("--solution")
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.fen:2:"));
}

/// An empty board is refused with a clear error; a board with no piece of one side is solved,
/// with a warning that says so.
#[test]
fn an_empty_board_is_refused_and_a_missing_side_is_warned_of() {
    let dir = tempfile::tempdir().expect("temp dir");
    let board = |name: &str, rows: [&str; 8]| {
        let path = dir.path().join(name);
        fs::write(&path, rows.map(|r| format!("{r}\n")).concat()).expect("write");
        path
    };
    checkers()
        .arg("--inputfile")
        .arg(board("empty.txt", ["........"; 8]))
        .args(["--outputfile", "-"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("empty.txt: the board is empty"));
    let mut rows = ["........"; 8];
    rows[6] = "...r....";
    let red_only = board("red-only.txt", rows);
    checkers()
        .arg("--inputfile")
        .arg(&red_only)
        .args(["--outputfile", "-"])
        .assert()
        .success()
        .stderr(
            predicate::str::contains(
                "black has no piece on the board, so it loses at its first turn",
            )
            .and(predicate::str::contains(
                "red wins after 1 ply (proven optimal); 2 states",
            )),
        );
}

/// The code block of `language` that follows `after` in `text`.
fn code_block<'a>(text: &'a str, language: &str, after: &str) -> &'a str {
    let from = text.find(after).map_or(0, |i| i + after.len());
    let fence = format!("```{language}\n");
    let start = text[from..].find(&fence).expect("a code block") + from + fence.len();
    let end = text[start..].find("```").expect("closed") + start;
    &text[start..end]
}

/// The README's commands run as it says: its first block solves p03 to `expected/p03.txt` with
/// the summary it quotes, every command of its table is a subcommand, it lists the ignored tests,
/// and its Python example (the Python README's, which the Python tests run) prints what it shows.
#[test]
fn the_readme_shows_what_the_tests_run() {
    let readme = fs::read_to_string(manifest().join("README.md")).expect("README");
    // The first command, without `cargo run --release --`.
    let first = code_block(&readme, "sh", "");
    let command = first
        .lines()
        .find_map(|l| l.strip_prefix("cargo run --release -- "))
        .expect("the solver's command");
    let args: Vec<&str> = command.split_whitespace().collect();
    let out = checkers()
        .args(&args)
        .current_dir(manifest())
        .output()
        .expect("runs");
    assert!(out.status.success(), "{command}");
    assert_eq!(
        out.stdout,
        fs::read(manifest().join("expected/p03.txt")).expect("expected")
    );
    let summary = String::from_utf8(out.stderr).expect("text");
    let result = summary.split(" (").next().expect("the result");
    assert!(readme.contains(&format!("8 states: {result}")), "{result}");

    // Every `checkers NAME` of the subcommand table is a subcommand.
    let known = listed_commands(&long_help(&[]));
    for row in readme.lines().filter(|l| l.starts_with("| `checkers ")) {
        let name = row["| `checkers ".len()..]
            .split([' ', '`'])
            .next()
            .expect("a word");
        assert!(
            name.starts_with('-') || name == "<" || known.iter().any(|k| k == name),
            "{row}"
        );
    }

    // Every ignored test is named in the README, with how to run it.
    for dir in ["tests", "src"] {
        for name in ignored_tests(&manifest().join(dir)) {
            assert!(
                readme.contains(&format!("`{name}`")),
                "README does not name {name}"
            );
        }
    }
    assert!(readme.contains("--ignored"));

    // The Python example: the same in both READMEs, run by the Python tests, and its output
    // shown, with the solver's moves.
    let python = fs::read_to_string(manifest().join("python/README.md")).expect("python README");
    let example = code_block(&python, "python", "");
    assert_eq!(code_block(&readme, "python", ""), example);
    let tests = fs::read_to_string(manifest().join("python/tests/test_checkers_engine.py"))
        .expect("python tests");
    assert!(tests.contains("def test_the_readmes_example_runs_as_shown"));
    let out = checkers()
        .arg("--inputfile")
        .arg(manifest().join("puzzles/p03.txt"))
        .args(["--outputfile", "-", "--format", "pdn", "--quiet"])
        .output()
        .expect("runs");
    let games = pdn::parse_games(&String::from_utf8(out.stdout).expect("text")).expect("PDN");
    let moves = Replay::from_game(&games[0], "p03").moves.join(" ");
    let printed = format!("red wins in 7 plies: {moves}\nblack has no move and loses\n");
    let shown = code_block(&readme, "text", "```python");
    assert_eq!(shown, printed);
    assert!(python.contains(&format!("It prints `red wins in 7 plies: {moves}`")));
}

/// The names of the tests marked `#[ignore` under `dir`.
fn ignored_tests(dir: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).expect("readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            names.extend(ignored_tests(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(&path).expect("source");
            let mut lines = text.lines();
            while let Some(line) = lines.next() {
                if line.trim_start().starts_with("#[ignore") {
                    let name = lines
                        .by_ref()
                        .find_map(|l| {
                            l.trim_start()
                                .strip_prefix("fn ")
                                .and_then(|r| r.split('(').next())
                        })
                        .expect("the ignored test's fn");
                    names.push(name.to_owned());
                }
            }
        }
    }
    names
}
