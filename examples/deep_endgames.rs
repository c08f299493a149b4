//! Finds positions of one material with long exact wins, from the reachable-only analysis of a
//! root puzzle: random placements of the root's pieces (men where the root's men can walk),
//! red to move, whose value is a red win in `MIN..=MAX` plies and that start quietly: red has
//! at least two moves, none a capture, and none lets black capture (so that the win is not a
//! trade into fewer pieces at once).
//!
//! `cargo run --release --example deep_endgames -- ROOT.txt MIN MAX COUNT [SEED]`

use std::time::Instant;

use anyhow::{anyhow, Context};
use checkers::formats::input;
use checkers::rules::movegen;
use checkers::search::endgame::EndgameDb;
use checkers::{Color, Position};

/// A small deterministic generator (xorshift64*), enough to sample placements.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) % n
    }
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let usage = || anyhow!("usage: deep_endgames ROOT MIN MAX COUNT [SEED]");
    let root = input::read_puzzle(std::path::Path::new(args.get(1).ok_or_else(usage)?), None)?;
    let num = |i: usize| -> anyhow::Result<u64> {
        args.get(i).ok_or_else(usage)?.parse().context("a number")
    };
    let (min, max, count) = (num(2)? as u32, num(3)? as u32, num(4)? as usize);
    let mut rng = Rng(num(5).unwrap_or(0x9E37_79B9_7F4A_7C15) | 1);
    let mut db = EndgameDb::default();
    let started = Instant::now();
    db.analyse_reachable(&root, None)
        .map_err(|e| anyhow!("{e}"))?;
    eprintln!(
        "{} positions analysed in {:.1} s",
        db.positions(),
        started.elapsed().as_secs_f64()
    );
    let (red, black, kings) = (
        root.pieces(Color::Red),
        root.pieces(Color::Black),
        root.kings(),
    );
    let groups = [
        (red & kings).count(),
        (red & !kings).count(),
        (black & kings).count(),
        (black & !kings).count(),
    ];
    let dark: Vec<_> = checkers::rules::bitboard::Bitboard::DARK.iter().collect();
    let mut found = 0;
    for _ in 0..50_000_000u64 {
        if found == count {
            break;
        }
        let mut cells = [checkers::rules::bitboard::Bitboard::EMPTY; 4];
        let mut used = checkers::rules::bitboard::Bitboard::EMPTY;
        for (g, &n) in groups.iter().enumerate() {
            while cells[g].count() < n {
                let sq = dark[rng.below(dark.len() as u64) as usize];
                if !used.contains(sq) {
                    used |= sq.bit();
                    cells[g] |= sq.bit();
                }
            }
        }
        let Ok(pos) = Position::new(
            cells[0] | cells[1],
            cells[2] | cells[3],
            cells[0] | cells[2],
            Color::Red,
        ) else {
            continue;
        };
        let Some(score) = db.score(&pos, 0) else {
            continue;
        };
        let moves = movegen::legal_moves(&pos);
        let quiet = moves.len() >= 2
            && moves.iter().all(|m| {
                !m.is_capture()
                    && movegen::legal_moves(&pos.play(*m))
                        .iter()
                        .all(|r| !r.is_capture())
            });
        if !quiet {
            continue;
        }
        if score.is_win()
            && score
                .plies_to_end()
                .is_some_and(|n| (min..=max).contains(&n))
        {
            found += 1;
            println!(
                "win in {} plies:\n{}",
                score.plies_to_end().unwrap_or(0),
                checkers::formats::board_text::format_board(&pos)
            );
        }
    }
    Ok(())
}
