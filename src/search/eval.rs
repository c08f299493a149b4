//! Static evaluation of a quiet position, from the side to move's point of view.
//!
//! Exact game ends never come from here (the search scores them), so the evaluation only steers
//! move ordering and the choice of move in positions too large to prove. It measures, in
//! hundredths of a man: material (a king is worth 1.4 men), how far men have advanced, whether
//! the back row still guards against crowning, king centralisation, and, for the side ahead in
//! material, how close its kings are to the enemy and how much material has been traded.

use crate::rules::bitboard::Bitboard;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::square::Square;

use super::score::Score;

pub mod trained;

/// Value of a man.
pub const MAN: i32 = 100;
/// Value of a king.
pub const KING: i32 = 140;
/// Per row a man has advanced from its home row.
const ADVANCE: i32 = 3;
/// Per man still on its home row while the enemy has men that could be crowned there.
const BACK_GUARD: i32 = 6;
/// Per king on the 16 central cells.
const KING_CENTRE: i32 = 6;
/// Per cell of distance between each king of the side ahead and the nearest enemy piece.
const CHASE: i32 = 3;
/// Per piece traded off the board while ahead: trading down wins endgames.
const TRADE: i32 = 4;

/// The 16 central cells (rows 3-6, columns 3-6 of the file).
const CENTRE: Bitboard = Bitboard(0x0000_3C3C_3C3C_0000);

/// Evaluates `pos` for the side to move.
#[must_use]
pub fn evaluate(pos: &Position) -> Score {
    let us = pos.side_to_move();
    Score(side_terms(pos, us) - side_terms(pos, us.opponent()) + endgame_drive(pos, us))
}

/// Material and placement terms of one side.
fn side_terms(pos: &Position, color: Color) -> i32 {
    let own = pos.pieces(color);
    let kings = own & pos.kings();
    let men = own & !pos.kings();
    let mut v = MAN * men.count() as i32 + KING * kings.count() as i32;
    v += KING_CENTRE * (kings & CENTRE).count() as i32;
    for sq in men {
        v += ADVANCE * advancement(sq, color);
    }
    let enemy_men = pos.pieces(color.opponent()) & !pos.kings();
    if !enemy_men.is_empty() {
        let home = Position::crowning_row(color.opponent());
        v += BACK_GUARD * (men & home).count() as i32;
    }
    v
}

/// Rows a man of `color` on `sq` has advanced from its own home row.
fn advancement(sq: Square, color: Color) -> i32 {
    match color {
        Color::Red => 7 - i32::from(sq.row()),
        Color::Black => i32::from(sq.row()),
    }
}

/// Bonus for `us` (negative when the opponent is ahead): the side with more material wants its
/// kings next to the enemy and fewer pieces on the board.
fn endgame_drive(pos: &Position, us: Color) -> i32 {
    let material = |c: Color| {
        let own = pos.pieces(c);
        MAN * (own & !pos.kings()).count() as i32 + KING * (own & pos.kings()).count() as i32
    };
    let lead = material(us) - material(us.opponent());
    let (ahead, sign) = match lead {
        0 => return 0,
        l if l > 0 => (us, 1),
        _ => (us.opponent(), -1),
    };
    let targets = pos.pieces(ahead.opponent());
    let mut drive = TRADE * (24 - pos.occupied().count() as i32).max(0);
    for k in pos.pieces(ahead) & pos.kings() {
        drive -= CHASE * nearest_distance(k, targets);
    }
    sign * drive
}

/// Chebyshev distance (king steps ignoring colour) from `from` to the nearest square of `targets`.
fn nearest_distance(from: Square, targets: Bitboard) -> i32 {
    targets
        .iter()
        .map(|t| {
            let dr = (i32::from(t.row()) - i32::from(from.row())).abs();
            let dc = (i32::from(t.col()) - i32::from(from.col())).abs();
            dr.max(dc)
        })
        .min()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::board_text::parse_board;

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Position::start()), Score::ZERO);
    }

    #[test]
    fn extra_king_is_good_for_its_owner_and_bad_for_the_other_side() {
        let text =
            b"........\n..B.....\n........\n........\n........\n.....R..\n........\n.R......\n";
        let pos = parse_board(text).unwrap();
        assert!(evaluate(&pos).0 > 100);
        assert!(evaluate(&pos.with_side_to_move(Color::Black)).0 < -100);
    }
}
