//! The hand-written evaluations, in hundredths of a man from the side to move's point of view: one
//! weight set per use.
//!
//! - [`puzzle`], the puzzle solver's: exact game ends never come from an evaluation (the search
//!   scores them), so it only steers move ordering and the choice of move in positions too large
//!   to prove. Material (a king is worth 1.4 men), how far men have advanced, whether the back row
//!   still guards against crowning, king centralisation, and, for the side ahead in material, how
//!   close its kings are to the enemy and how much material has been traded. Its terms and
//!   weights fix the solver's lines: changing them changes the lines of unproven puzzles.
//! - [`game`], the player's ([`Weights`], tunable per match): a game is mostly won or lost in the
//!   opening and middle game, so it weighs what checkers players weigh there: material with a
//!   king worth more as the board empties, men advancing (more so late), the back rank kept while
//!   the enemy can still crown, the centre, mobility, men with a free run to the crowning row,
//!   trapped kings, and trading down when ahead.

use crate::rules::bitboard::{Bitboard, Direction};
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::square::Square;

use super::super::score::Score;
use super::{nearest_distance, CENTRE, MAN};

// The puzzle solver's set.

/// The puzzle set's value of a king.
const PUZZLE_KING: i32 = 140;
/// Per row a man has advanced from its home row.
const ADVANCE: i32 = 3;
/// Per man still on its home row while the enemy has men that could be crowned there.
const BACK_GUARD: i32 = 6;
/// Per king on the centre ([`CENTRE`]).
const PUZZLE_KING_CENTRE: i32 = 6;
/// Per cell of distance between each king of the side ahead and the nearest enemy piece.
const CHASE: i32 = 3;
/// Per piece traded off the board while ahead: trading down wins endgames.
const TRADE: i32 = 4;

/// The puzzle solver's evaluation of `pos` for the side to move.
#[must_use]
pub fn puzzle(pos: &Position) -> Score {
    let us = pos.side_to_move();
    Score(side_terms(pos, us) - side_terms(pos, us.opponent()) + endgame_drive(pos, us))
}

/// Material and placement terms of one side.
fn side_terms(pos: &Position, color: Color) -> i32 {
    let own = pos.pieces(color);
    let kings = own & pos.kings();
    let men = own & !pos.kings();
    let mut v = MAN * men.count() as i32 + PUZZLE_KING * kings.count() as i32;
    v += PUZZLE_KING_CENTRE * (kings & CENTRE).count() as i32;
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
        MAN * (own & !pos.kings()).count() as i32 + PUZZLE_KING * (own & pos.kings()).count() as i32
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

// The game's set.

impl Weights {
    /// Every weight by name, for setting them from player specifications.
    pub const NAMES: [&'static str; 10] = [
        "advance",
        "back_rank",
        "centre_man",
        "centre_king",
        "mobility",
        "runaway",
        "trapped_king",
        "trade",
        "chase",
        "double_corner",
    ];

    /// The value of the weight called `name` (one of [`Weights::NAMES`]).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<i32> {
        let mut copy = *self;
        copy.get_mut(name).map(|w| *w)
    }

    /// The weight called `name` (one of [`Weights::NAMES`]).
    pub fn get_mut(&mut self, name: &str) -> Option<&mut i32> {
        Some(match name {
            "advance" => &mut self.advance,
            "back_rank" => &mut self.back_rank,
            "centre_man" => &mut self.centre_man,
            "centre_king" => &mut self.centre_king,
            "mobility" => &mut self.mobility,
            "runaway" => &mut self.runaway,
            "trapped_king" => &mut self.trapped_king,
            "trade" => &mut self.trade,
            "chase" => &mut self.chase,
            "double_corner" => &mut self.double_corner,
            _ => return None,
        })
    }
}

/// Value of a king when the board is full; it grows as pieces come off (see [`king_value`]).
pub const KING_FULL: i32 = 130;
/// Value of a king in a bare ending.
pub const KING_BARE: i32 = 155;

/// Weights of the positional terms, so they can be tuned and compared in matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per row a man has advanced, scaled up as the board empties.
    pub advance: i32,
    /// Per man on its own back row while the enemy still has men.
    pub back_rank: i32,
    /// Per man on the central cells.
    pub centre_man: i32,
    /// Per king on the central cells.
    pub centre_king: i32,
    /// Per available step.
    pub mobility: i32,
    /// For a man with a free path to crowning, minus a part per row still to go.
    pub runaway: i32,
    /// Per king with no step.
    pub trapped_king: i32,
    /// Bonus per man of material lead, scaled by how few pieces remain.
    pub trade: i32,
    /// In an ending, per cell between each king of the side ahead and the nearest enemy piece.
    pub chase: i32,
    /// In an ending, for each king of the side behind in a double corner.
    pub double_corner: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            advance: 2,
            back_rank: 26,
            centre_man: 5,
            centre_king: 8,
            mobility: 2,
            runaway: 40,
            trapped_king: 20,
            trade: 12,
            chase: 4,
            double_corner: 25,
        }
    }
}

/// The value of a king with `pieces` on the board: from [`KING_FULL`] at 24 to [`KING_BARE`] at 6
/// or fewer, because a king's reach matters more the emptier the board.
#[must_use]
pub fn king_value(pieces: u32) -> i32 {
    let gone = 24 - pieces.clamp(6, 24) as i32;
    KING_FULL + (KING_BARE - KING_FULL) * gone / 18
}

/// The game's evaluation of `pos` for the side to move with weights `w`.
#[must_use]
pub fn game(pos: &Position, w: &Weights) -> Score {
    Score(game_value(pos, w))
}

fn game_value(pos: &Position, w: &Weights) -> i32 {
    let us = pos.side_to_move();
    let them = us.opponent();
    let pieces = pos.occupied().count();
    let king = king_value(pieces);
    let material = |c: Color| {
        let own = pos.pieces(c);
        MAN * (own & !pos.kings()).count() as i32 + king * (own & pos.kings()).count() as i32
    };
    let (mu, mt) = (material(us), material(them));
    let mut score = mu - mt;
    // Trading down when ahead: the same lead counts for more with fewer pieces left.
    if mu != mt {
        score += w.trade * (mu - mt) / MAN * 24 / (pieces as i32 + 4);
    }
    score += game_side_terms(pos, us, pieces, w) - game_side_terms(pos, them, pieces, w);
    if pieces <= ENDING_PIECES && (mu - mt).abs() >= MAN / 2 {
        let (strong, weak, sign) = if mu > mt {
            (us, them, 1)
        } else {
            (them, us, -1)
        };
        score += sign * ending_drive(pos, strong, weak, w);
    }
    score
}

/// Pieces on the board at or below which the ending terms apply.
const ENDING_PIECES: u32 = 10;

/// The two double corners: squares 4 and 8 (top right), 25 and 29 (bottom left).
const DOUBLE_CORNERS: Bitboard = Bitboard((1 << 7) | (1 << 14) | (1 << 49) | (1 << 56));

/// For the side ahead in an ending: its kings close in on the enemy, and the enemy's kings are
/// kept out of the double corners, where a lone king holds out longest.
fn ending_drive(pos: &Position, strong: Color, weak: Color, w: &Weights) -> i32 {
    let enemy = pos.pieces(weak);
    let mut v = 0;
    for k in pos.pieces(strong) & pos.kings() {
        v -= w.chase * nearest_distance(k, enemy);
    }
    v -= w.double_corner * (enemy & pos.kings() & DOUBLE_CORNERS).count() as i32;
    v
}

/// The forward directions of men of `color`.
const fn forward(color: Color) -> [Direction; 2] {
    match color {
        Color::Red => [Direction::NorthWest, Direction::NorthEast],
        Color::Black => [Direction::SouthWest, Direction::SouthEast],
    }
}

/// Rows a man of `color` on row `row` has advanced from its own back row.
const fn rows_advanced(color: Color, row: u8) -> i32 {
    match color {
        Color::Red => 7 - row as i32,
        Color::Black => row as i32,
    }
}

/// Positional terms of one side.
fn game_side_terms(pos: &Position, color: Color, pieces: u32, w: &Weights) -> i32 {
    let own = pos.pieces(color);
    let enemy = pos.pieces(color.opponent());
    let kings = own & pos.kings();
    let men = own & !pos.kings();
    let empty = !pos.occupied();
    let enemy_kings = enemy & pos.kings();
    let enemy_men = enemy & !pos.kings();
    let mut v = 0;

    // Advancement grows in weight as the board empties (from 1x at 24 pieces to 4x at 6).
    let stage = 1 + (24 - pieces.clamp(6, 24) as i32) / 6;
    let mut advance = 0;
    for row in 0..8u8 {
        let on_row = (men & Bitboard(0xFF << (8 * row))).count() as i32;
        advance += on_row * rows_advanced(color, row);
    }
    v += w.advance * stage * advance;

    if !enemy_men.is_empty() {
        let back = Position::crowning_row(color.opponent());
        v += w.back_rank * (men & back).count() as i32;
    }
    v += w.centre_man * (men & CENTRE).count() as i32;
    v += w.centre_king * (kings & CENTRE).count() as i32;

    // Mobility: steps of men forward and of kings in all four directions.
    let mut steps = 0;
    for dir in forward(color) {
        steps += (men.shift(dir) & empty).count() as i32;
    }
    let mut king_moves = Bitboard::EMPTY;
    for dir in Direction::ALL {
        let to = kings.shift(dir) & empty;
        steps += to.count() as i32;
        king_moves |= to.shift(dir.opposite());
    }
    v += w.mobility * steps;
    v -= w.trapped_king * (kings & !king_moves).count() as i32;

    // Runaway men: no enemy king, and no enemy piece in the widening cone in front of the man.
    if enemy_kings.is_empty() {
        // Only men within four rows of crowning: further back, something always blocks.
        for sq in men {
            if rows_advanced(color, sq.row()) < 3 {
                continue;
            }
            let mut cone = sq.bit();
            let mut blocked = false;
            let to_go = 7 - rows_advanced(color, sq.row());
            for _ in 0..to_go {
                let [a, b] = forward(color);
                let next = cone.shift(a) | cone.shift(b);
                // Widen by one cell either side, where an enemy could step in to block.
                let wide = next
                    | next.shift(Direction::NorthWest).shift(Direction::SouthWest)
                    | next.shift(Direction::NorthEast).shift(Direction::SouthEast);
                if !(wide & enemy).is_empty() {
                    blocked = true;
                    break;
                }
                cone = next;
            }
            if !blocked {
                v += w.runaway - 4 * to_go;
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::board_text::parse_board;

    fn board(red: &[(u8, u8)], black: &[(u8, u8)], kings: &[(u8, u8)], side: Color) -> Position {
        let bits = |cells: &[(u8, u8)]| -> Bitboard {
            cells
                .iter()
                .filter_map(|&(r, c)| Square::new(r, c))
                .collect()
        };
        Position::new(bits(red), bits(black), bits(kings), side).unwrap()
    }

    fn evaluate(pos: &Position) -> i32 {
        game(pos, &Weights::default()).0
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(puzzle(&Position::start()), Score::ZERO);
        assert_eq!(evaluate(&Position::start()), 0);
    }

    #[test]
    fn extra_king_is_good_for_its_owner_and_bad_for_the_other_side() {
        let text =
            b"........\n..B.....\n........\n........\n........\n.....R..\n........\n.R......\n";
        let pos = parse_board(text).unwrap();
        assert!(puzzle(&pos).0 > 100);
        assert!(puzzle(&pos.with_side_to_move(Color::Black)).0 < -100);
    }

    #[test]
    fn colour_symmetric() {
        // The same position mirrored (rotated 180 degrees, colours swapped) scores the same.
        let a = board(&[(5, 0), (6, 3)], &[(2, 1)], &[(6, 3)], Color::Red);
        let b = board(&[(5, 6)], &[(2, 7), (1, 4)], &[(1, 4)], Color::Black);
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn more_material_is_better() {
        let a = board(&[(5, 0), (5, 2)], &[(2, 1)], &[], Color::Red);
        assert!(evaluate(&a) > 50);
        assert!(evaluate(&a.with_side_to_move(Color::Black)) < -50);
    }

    #[test]
    fn king_value_grows_as_pieces_come_off() {
        assert_eq!(king_value(24), KING_FULL);
        assert_eq!(king_value(4), KING_BARE);
        assert!(king_value(12) > king_value(20));
    }
}
