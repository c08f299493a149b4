//! The formats: puzzle and solution text, FEN and PDN, and the pictures (SVG, HTML replay).

mod board_text;
mod fen_pdn;
mod pictures;
