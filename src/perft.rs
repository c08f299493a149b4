//! Perft: the number of move sequences of a given length, the standard test of a move generator.

use rayon::prelude::*;

use crate::movegen::{self, Routes};
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Leaf count of the game tree of `depth` plies from `pos`.
///
/// With [`Routes::All`] a king capture that takes the same pieces by two routes counts twice, as in
/// the published counts (OEIS A133046); with [`Routes::Distinct`] it counts once.
#[must_use]
pub fn perft(pos: &Position, depth: u32, routes: Routes) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count_moves(pos, routes),
        _ => {
            let mut list = MoveList::new();
            movegen::generate(pos, routes, &mut list);
            list.iter()
                .map(|&mv| perft(&pos.play(mv), depth - 1, routes))
                .sum()
        }
    }
}

/// Leaf count under each first move, in canonical move order.
#[must_use]
pub fn divide(pos: &Position, depth: u32, routes: Routes) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    movegen::generate(pos, routes, &mut list);
    list.sort();
    list.par_iter()
        .map(|&mv| (mv, perft(&pos.play(mv), depth.saturating_sub(1), routes)))
        .collect()
}

/// [`perft`] with the subtrees of the first two plies shared out over the rayon pool.
#[must_use]
pub fn perft_parallel(pos: &Position, depth: u32, routes: Routes) -> u64 {
    if depth <= 3 {
        return perft(pos, depth, routes);
    }
    let mut list = MoveList::new();
    movegen::generate(pos, routes, &mut list);
    let mut seconds = Vec::new();
    for &mv in &list {
        let child = pos.play(mv);
        let mut replies = MoveList::new();
        movegen::generate(&child, routes, &mut replies);
        seconds.extend(replies.iter().map(|&r| child.play(r)));
    }
    seconds
        .par_iter()
        .map(|p| perft(p, depth - 2, routes))
        .sum()
}
