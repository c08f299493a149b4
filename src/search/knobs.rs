//! Every tuning constant of the puzzle solver (its driver in `puzzle/`, the endgame databases
//! it builds), one line of doc each saying what it trades.

/// Threads of the split proof (`two_thread_proof`): fixed, so that the budget a time limit
/// gives (nodes per thread) and so the line are the same on every machine.
pub const SPLIT_THREADS: usize = 2;

/// Most index slots (both sides to move, smaller material included) built at once, without
/// trying the search first: three kings against two (5.8 million) fit, in under a second.
pub const QUICK_POSITIONS: usize = 6_000_000;

/// Most index slots of whole database classes built for a position the search could not prove:
/// four kings against two (43 million, 86 MiB, several seconds) fit; three against three does
/// not. Larger material is analysed over the positions reachable from the puzzle only.
pub const MAX_POSITIONS: usize = 45_000_000;
