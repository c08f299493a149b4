//! Pictures checked by machines: the SVG of every shipped puzzle is rendered to pixels with
//! resvg and the colour at each cell centre is compared with the position; the HTML replay is
//! parsed by a strict XML parser, holds every state and move, and refers to no URL; `show`
//! writes them from the command line and prints plain boards when stdout is not a terminal.

use std::fs;
use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;

use checkers::formats::board_text::{parse_board, parse_solution};
use checkers::formats::html;
use checkers::formats::replay::Replay;
use checkers::formats::svg::{
    self, Rgb, SvgOptions, BLACK_PIECE, CROWN, DARK_CELL, LIGHT_CELL, RED_PIECE,
};
use checkers::{Color, Kind, Position, Square};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn checkers() -> Command {
    Command::cargo_bin("checkers").expect("binary is built")
}

/// The shipped puzzles: `puzzles/` and the public ones kept for the tests.
fn puzzles() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for folder in ["puzzles", "tests/data/public"] {
        let mut files: Vec<PathBuf> = fs::read_dir(manifest().join(folder))
            .expect("folder exists")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "txt")
                    && !p.to_string_lossy().contains("expected")
            })
            .collect();
        files.sort();
        v.extend(files);
    }
    v
}

/// A rendered picture.
struct Picture {
    pixmap: resvg::tiny_skia::Pixmap,
}

impl Picture {
    fn render(svg_text: &str) -> Picture {
        let tree = resvg::usvg::Tree::from_str(svg_text, &resvg::usvg::Options::default())
            .expect("the SVG parses");
        let size = tree.size().to_int_size();
        let mut pixmap =
            resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("non-empty size");
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::default(),
            &mut pixmap.as_mut(),
        );
        Picture { pixmap }
    }

    fn rgb(&self, x: f64, y: f64) -> Rgb {
        let p = self
            .pixmap
            .pixel(x as u32, y as u32)
            .expect("inside the picture")
            .demultiply();
        [p.red(), p.green(), p.blue()]
    }
}

fn close(a: Rgb, b: Rgb) -> bool {
    a.iter().zip(b).all(|(&x, y)| x.abs_diff(y) <= 4)
}

/// Checks every cell of a rendering of `pos` (cell size `cell`): the centre shows the empty cell's
/// colour, a man's colour, or a king's crown; beside the centre a piece shows its own colour.
fn check_cells(picture: &Picture, pos: &Position, cell: f64, name: &str) {
    for sq in Square::all() {
        let x = (f64::from(sq.col()) + 0.5) * cell;
        let y = (f64::from(sq.row()) + 0.5) * cell;
        let centre = picture.rgb(x, y);
        let side = picture.rgb(x - 0.34 * cell, y);
        let (want_centre, want_side) = match pos.piece_at(sq) {
            None => {
                let c = if sq.is_dark() { DARK_CELL } else { LIGHT_CELL };
                (c, c)
            }
            Some(p) => {
                let body = match p.color {
                    Color::Red => RED_PIECE,
                    Color::Black => BLACK_PIECE,
                };
                let top = if p.kind == Kind::King { CROWN } else { body };
                (top, body)
            }
        };
        assert!(
            close(centre, want_centre),
            "{name}: {sq}: centre {centre:?}, expected {want_centre:?}"
        );
        assert!(
            close(side, want_side),
            "{name}: {sq}: beside the centre {side:?}, expected {want_side:?}"
        );
    }
}

#[test]
fn every_shipped_puzzle_renders_cell_by_cell() {
    let all = puzzles();
    assert!(all.len() >= 60, "shipped puzzles went missing");
    let options = SvgOptions {
        cell: 40.0,
        numbers: true,
    };
    for path in all {
        let pos = parse_board(&fs::read(&path).expect("readable")).expect("parses");
        let picture = Picture::render(&svg::diagram(&pos, None, &options));
        assert_eq!(picture.pixmap.width(), 320);
        check_cells(&picture, &pos, options.cell, &path.display().to_string());
    }
}

#[test]
fn all_four_pieces_on_both_cell_colours_render() {
    // Every piece kind on a dark and on a light cell (the course's puzzles use both).
    let board = "Rr......\n.bB.....\n..rR....\n...Bb...\n........\n........\n........\n........\n";
    let pos = parse_board(board.as_bytes()).expect("parses");
    let picture = Picture::render(&svg::diagram(&pos, None, &SvgOptions::default()));
    check_cells(&picture, &pos, SvgOptions::default().cell, "all pieces");
}

#[test]
fn the_pixel_check_sees_a_wrong_piece() {
    // The check must fail when the picture and the position differ by one piece.
    let pos = parse_board(
        b"........\n.b......\n........\n........\n........\n........\n........\n........\n",
    )
    .expect("parses");
    let king = parse_board(
        b"........\n.B......\n........\n........\n........\n........\n........\n........\n",
    )
    .expect("parses");
    let picture = Picture::render(&svg::diagram(&king, None, &SvgOptions::default()));
    let cell = SvgOptions::default().cell;
    check_cells(&picture, &king, cell, "king");
    let wrong = std::panic::catch_unwind(|| check_cells(&picture, &pos, cell, "man"));
    assert!(wrong.is_err(), "a king was taken for a man");
}

#[test]
fn the_last_move_arrow_is_drawn_on_the_path() {
    let states = parse_solution(&fs::read(manifest().join("expected/p03.txt")).expect("exists"))
        .expect("parses");
    let replay = Replay::from_states(&states, &[], "p03").expect("a game");
    let cell = SvgOptions::default().cell;
    let after = &states[1];
    let path = &replay.paths[0];
    let plain = Picture::render(&svg::diagram(after, None, &SvgOptions::default()));
    let marked = Picture::render(&svg::diagram(after, Some(path), &SvgOptions::default()));
    // Half-way between the two squares of the move, the arrow changes the picture.
    let (a, b) = (path[0], path[1]);
    let x = (f64::from(a.col()) + f64::from(b.col()) + 1.0) / 2.0 * cell;
    let y = (f64::from(a.row()) + f64::from(b.row()) + 1.0) / 2.0 * cell;
    assert_ne!(plain.rgb(x, y), marked.rgb(x, y));
}

/// The page parsed as XML (its `<!DOCTYPE html>` allowed): a strict check that every element is
/// closed and every attribute quoted.
fn parse_page(page: &str) -> Result<roxmltree::Document<'_>, roxmltree::Error> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(page, options)
}

/// Every attribute value and text of the document, for a search for URLs.
fn all_text(doc: &roxmltree::Document<'_>) -> String {
    let mut s = String::new();
    for node in doc.descendants() {
        if let Some(t) = node.text() {
            s.push_str(t);
        }
        for a in node.attributes() {
            s.push_str(a.value());
            s.push(' ');
        }
    }
    s
}

#[test]
fn html_replay_is_well_formed_offline_and_complete() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("p03.html");
    checkers()
        .args(["show", "--inputfile"])
        .arg(manifest().join("puzzles/p03.txt"))
        .arg("--solution")
        .arg(manifest().join("expected/p03.txt"))
        .arg("--html")
        .arg(&out)
        .assert()
        .success();
    let page = fs::read_to_string(&out).expect("written");
    assert!(!page.contains("http:") && !page.contains("https:") && !page.contains("//www"));
    let doc = parse_page(&page).expect("the page is well-formed");
    let text = all_text(&doc);
    assert!(!text.contains("http"), "a URL in the page");
    for node in doc.descendants() {
        for attr in ["src", "href"] {
            assert!(node.attribute(attr).is_none(), "external reference: {attr}");
        }
    }
    let states = parse_solution(&fs::read(manifest().join("expected/p03.txt")).expect("exists"))
        .expect("parses");
    let divs: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("state"))
        .collect();
    assert_eq!(divs.len(), states.len());
    // Only the first state is visible before the script runs; each holds one board.
    assert!(divs[0].attribute("hidden").is_none());
    assert!(divs[1..].iter().all(|d| d.attribute("hidden").is_some()));
    assert!(divs
        .iter()
        .all(|d| d.children().filter(|c| c.has_tag_name("svg")).count() == 1));
    let items = doc.descendants().filter(|n| n.has_tag_name("li")).count();
    assert_eq!(items, states.len());
    for id in ["first", "prev", "next", "last"] {
        assert!(doc
            .descendants()
            .any(|n| n.has_tag_name("button") && n.attribute("id") == Some(id)));
    }
    assert!(page.contains("ArrowRight") && page.contains("ArrowLeft"));
}

#[test]
fn html_shows_values_when_known() {
    let states = parse_solution(&fs::read(manifest().join("expected/p03.txt")).expect("exists"))
        .expect("parses");
    let values: Vec<Option<String>> = (1..states.len())
        .map(|k| Some(format!("value {k}")))
        .collect();
    let replay = Replay::from_states(&states, &values, "p03").expect("a game");
    let page = html::page(&replay, &SvgOptions::default());
    let doc = parse_page(&page).expect("well-formed");
    let shown: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("val"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(shown.len(), states.len() - 1);
    assert_eq!(shown[0], "value 1");
}

#[test]
fn show_prints_plain_boards_when_not_a_terminal() {
    let assert = checkers()
        .args(["show", "--inputfile"])
        .arg(manifest().join("puzzles/p03.txt"))
        .arg("--solution")
        .arg(manifest().join("expected/p03.txt"))
        .assert()
        .success();
    let out = String::from_utf8(assert.get_output().stdout.clone()).expect("UTF-8");
    assert!(!out.contains('\x1b'), "colour codes without a terminal");
    assert!(out.contains("State 1 of 8: start; red to move"));
    assert!(out.contains("⛀") && out.contains("⛂"));
    checkers()
        .args(["show", "--color", "always", "--fen", "W:W21:BK1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\x1b[").and(predicate::str::contains("⛃")));
}

#[test]
fn show_svg_and_errors_from_the_command_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("p07.svg");
    let puzzle = manifest().join("puzzles/p07.txt");
    checkers()
        .args(["show", "--inputfile"])
        .arg(&puzzle)
        .arg("--svg")
        .arg(&out)
        .assert()
        .success();
    let pos = parse_board(&fs::read(&puzzle).expect("exists")).expect("parses");
    let picture = Picture::render(&fs::read_to_string(&out).expect("written"));
    check_cells(&picture, &pos, SvgOptions::default().cell, "p07 from show");

    // A solution of another puzzle is refused, and nothing is written.
    let bad = dir.path().join("bad.html");
    checkers()
        .args(["show", "--inputfile"])
        .arg(&puzzle)
        .arg("--solution")
        .arg(manifest().join("expected/p03.txt"))
        .arg("--html")
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does not start from the puzzle"));
    assert!(!bad.exists());
}
