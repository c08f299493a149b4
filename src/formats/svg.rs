//! SVG diagrams of a position: light and dark cells, men and crowned kings of both colours,
//! optional standard square numbers, and the last move drawn as an arrow through every landing
//! square.
//!
//! The board is drawn as the puzzle file reads: row 1 (black's home) at the top. Every cell of the
//! diagram is `cell` units wide and the board starts at the origin, so the centre of row `r`,
//! column `c` (from 0) is at `((c + 0.5) * cell, (r + 0.5) * cell)`. The colours are public so that
//! a test can check a rendering pixel by pixel.

use std::fmt::Write as _;

use crate::formats::notation::standard_number;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::position::Position;
use crate::rules::square::Square;

/// An RGB colour.
pub type Rgb = [u8; 3];

/// Light cells.
pub const LIGHT_CELL: Rgb = [0xf0, 0xd9, 0xb5];
/// Dark cells, where the standard game is played.
pub const DARK_CELL: Rgb = [0x3f, 0x6e, 0x45];
/// Red pieces.
pub const RED_PIECE: Rgb = [0xc8, 0x1e, 0x2a];
/// Black pieces.
pub const BLACK_PIECE: Rgb = [0x1c, 0x1c, 0x1c];
/// The crown drawn on a king, over the centre of the piece.
pub const CROWN: Rgb = [0xf5, 0xc5, 0x18];
/// The last-move arrow.
pub const ARROW: Rgb = [0x1e, 0x6c, 0xd6];

/// Radius of a piece, as a fraction of a cell. A point at 0.3 to 0.38 cells from the centre shows
/// the piece's own colour for men and kings alike (the crown stays within 0.22).
pub const PIECE_RADIUS: f64 = 0.40;

/// How to draw a diagram.
#[derive(Clone, Copy, Debug)]
pub struct SvgOptions {
    /// Width of one cell in SVG units (pixels at scale 1).
    pub cell: f64,
    /// Write the standard number (1-32) in a corner of each dark cell.
    pub numbers: bool,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            cell: 60.0,
            numbers: false,
        }
    }
}

/// `#rrggbb`.
#[must_use]
pub fn hex(rgb: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2])
}

/// The centre of a cell in diagram units.
fn centre(sq: Square, cell: f64) -> (f64, f64) {
    (
        (f64::from(sq.col()) + 0.5) * cell,
        (f64::from(sq.row()) + 0.5) * cell,
    )
}

/// One piece: a disc with a rim and an inner ring, and a crown for a king.
fn piece(out: &mut String, piece: Piece, sq: Square, cell: f64) {
    let (x, y) = centre(sq, cell);
    let (fill, rim) = match piece.color {
        Color::Red => (RED_PIECE, "#6e0d14"),
        Color::Black => (BLACK_PIECE, "#000000"),
    };
    let _ = write!(
        out,
        r#"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="{}" stroke="{rim}" stroke-width="{:.1}"/>"#,
        PIECE_RADIUS * cell,
        hex(fill),
        0.03 * cell
    );
    let _ = write!(
        out,
        r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="{:.1}"/>"##,
        0.26 * cell,
        0.025 * cell
    );
    if piece.kind == Kind::King {
        // A five-point crown inside 0.22 cells of the centre, covering the centre itself.
        let points: [(f64, f64); 7] = [
            (-0.19, 0.11),
            (-0.21, -0.10),
            (-0.09, 0.0),
            (0.0, -0.15),
            (0.09, 0.0),
            (0.21, -0.10),
            (0.19, 0.11),
        ];
        let list: Vec<String> = points
            .iter()
            .map(|(dx, dy)| format!("{:.1},{:.1}", x + dx * cell, y + dy * cell))
            .collect();
        let _ = write!(
            out,
            r##"<polygon points="{}" fill="{}" stroke="#5a4300" stroke-width="{:.1}" stroke-linejoin="round"/>"##,
            list.join(" "),
            hex(CROWN),
            0.015 * cell
        );
    }
}

/// The arrow of a move through the centres of `path` (start, landing squares, end).
fn arrow(out: &mut String, path: &[Square], cell: f64, marker: &str) {
    if path.len() < 2 {
        return;
    }
    let points: Vec<String> = path
        .iter()
        .map(|&sq| {
            let (x, y) = centre(sq, cell);
            format!("{x:.1},{y:.1}")
        })
        .collect();
    let colour = hex(ARROW);
    let (x0, y0) = centre(path[0], cell);
    let _ = write!(
        out,
        r#"<g class="last-move" opacity="0.85"><circle cx="{x0:.1}" cy="{y0:.1}" r="{:.1}" fill="none" stroke="{colour}" stroke-width="{:.1}"/><polyline points="{}" fill="none" stroke="{colour}" stroke-width="{:.1}" stroke-linecap="round" stroke-linejoin="round" marker-end="url(#{marker})"/></g>"#,
        0.2 * cell,
        0.06 * cell,
        points.join(" "),
        0.08 * cell
    );
}

/// The `<svg>` element of a diagram.
///
/// `inline` is `None` for a standalone file, which gets the SVG namespace; for a diagram inlined
/// in an HTML page it is a prefix that keeps the page's ids unique, and no namespace is written
/// (inline SVG needs none, and the page stays free of any URL).
#[must_use]
pub fn svg_element(
    pos: &Position,
    last_move: Option<&[Square]>,
    options: &SvgOptions,
    inline: Option<&str>,
) -> String {
    let cell = options.cell;
    let size = 8.0 * cell;
    let mut out = String::with_capacity(8192);
    let ns = if inline.is_none() {
        r#" xmlns="http://www.w3.org/2000/svg""#
    } else {
        ""
    };
    let marker = match inline {
        Some(prefix) => format!("{prefix}-arrowhead"),
        None => "arrowhead".to_string(),
    };
    let _ = write!(
        out,
        r#"<svg{ns} viewBox="0 0 {size:.0} {size:.0}" width="{size:.0}" height="{size:.0}" role="img">"#
    );
    let _ = write!(
        out,
        r#"<defs><marker id="{marker}" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{}"/></marker></defs>"#,
        hex(ARROW)
    );
    let _ = write!(
        out,
        r#"<rect x="0" y="0" width="{size:.0}" height="{size:.0}" fill="{}"/>"#,
        hex(LIGHT_CELL)
    );
    for sq in Square::all().filter(|sq| sq.is_dark()) {
        let _ = write!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="{cell:.1}" height="{cell:.1}" fill="{}"/>"#,
            f64::from(sq.col()) * cell,
            f64::from(sq.row()) * cell,
            hex(DARK_CELL)
        );
        if options.numbers {
            if let Some(n) = standard_number(sq) {
                let _ = write!(
                    out,
                    r##"<text x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="{:.1}" fill="#e8f0e0">{n}</text>"##,
                    (f64::from(sq.col()) + 0.05) * cell,
                    (f64::from(sq.row()) + 0.22) * cell,
                    0.2 * cell
                );
            }
        }
    }
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            piece(&mut out, p, sq, cell);
        }
    }
    if let Some(path) = last_move {
        arrow(&mut out, path, cell, &marker);
    }
    out.push_str("</svg>");
    out
}

/// A standalone SVG file of a position, with the last move as an arrow when given.
#[must_use]
pub fn diagram(pos: &Position, last_move: Option<&[Square]>, options: &SvgOptions) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}\n",
        svg_element(pos, last_move, options, None)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::fen;

    #[test]
    fn draws_every_piece_and_cell() {
        let pos = fen::parse("W:W21,K22:B1,K2").unwrap();
        let svg = diagram(&pos, None, &SvgOptions::default());
        assert!(svg.starts_with("<?xml"));
        // 32 dark cells over one light background, 4 pieces, 2 crowns.
        assert_eq!(svg.matches("<rect").count(), 33);
        assert_eq!(svg.matches(&hex(RED_PIECE)).count(), 2);
        assert_eq!(svg.matches(&hex(BLACK_PIECE)).count(), 2);
        assert_eq!(svg.matches("<polygon").count(), 2);
        assert!(!svg.contains("<text"));
        assert!(!svg.contains("last-move"));
    }

    #[test]
    fn numbers_and_arrow_on_request() {
        let pos = Position::start();
        let path = [
            crate::formats::notation::square_of_number(22).unwrap(),
            crate::formats::notation::square_of_number(18).unwrap(),
        ];
        let options = SvgOptions {
            numbers: true,
            ..SvgOptions::default()
        };
        let svg = svg_element(&pos, Some(&path), &options, Some("s2"));
        assert_eq!(svg.matches("<text").count(), 32);
        assert!(svg.contains(">32</text>"));
        assert!(svg.contains("last-move"));
        assert!(svg.contains("id=\"s2-arrowhead\"") && svg.contains("url(#s2-arrowhead)"));
        assert!(!svg.contains("http"));
    }
}
