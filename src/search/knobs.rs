//! Every tuning constant of the puzzle solver, in one place: its driver (`search/puzzle/`), the
//! endgame databases it builds (`search/endgame/`), and the node rate `checkers verify` assumes.
//! One line each says what it trades; how the rules use them is told where they are used
//! (`puzzle/budget.rs` for the turn's budget). What was measured to set them is in
//! `docs/notebook/experiments.md` ("Where the solver's knobs come from").
//!
//! Changing any of them changes the lines the solver plays (except the table sizes and
//! [`CHECKPOINT`], which change only its speed): the node counts of
//! `checkers bench --jobs 1 puzzles tests/data/public` are the check.

use std::time::Duration;

use super::eval::MAN;

// The options a user sets (`SolveOptions`, `--tt-mb`, `--time-limit`, `--nodes-per-move`,
// `--nodes-per-second`, the Python package's `solve`): their defaults.

/// Default largest transposition table of a solve, in MiB: a larger one holds more of the proofs
/// but is searched more slowly (cache misses), and was not better on random boards.
pub const DEFAULT_TT_MEGABYTES: usize = 64;

/// Default time limit of a whole solve: the course's limit for one puzzle.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(50);

/// Default nodes a turn's iterative deepening may spend (`--nodes-per-move`): more sees deeper on
/// every turn, and costs every turn's time.
pub const DEFAULT_NODES_PER_MOVE: u64 = 100_000;

/// Default search speed assumed to turn the time limit into the game's proof budget
/// (`--nodes-per-second`): about half what one loaded core searches, so that the node budget,
/// not the machine's speed, ends the searches (the same line everywhere) at the cost of part of
/// the limit left unused on a fast machine.
pub const DEFAULT_NODES_PER_SECOND: u64 = 1_000_000;

// The turn's budget (`puzzle/budget.rs`).

/// How many times the deepening's nodes each side's first turn gets: the first turns decide
/// whether the puzzle is proven; later turns stay cheap so that drawn games finish quickly.
pub const FIRST_TURN_FACTOR: u64 = 20;

/// Fraction of the time limit left out of the game's proof budget: a margin for the machine
/// being slower than [`DEFAULT_NODES_PER_SECOND`] assumes, paid for with fewer proof nodes.
pub const RESERVE: f64 = 0.15;

/// Fraction of the time limit kept back for finishing the game with quick moves: the soft
/// deadline is at the rest. Larger: safer against a slow machine, but more lines cut by it.
pub const DEADLINE_RESERVE: f64 = 0.06;

/// Depth of the quick searches played past the soft deadline: shallow enough to be instant.
pub const QUICK_DEPTH: u32 = 4;

/// The game's first searched turn (the deciding one) may spend one in this many of the proof
/// budget left: a larger share proves more puzzles at once, and leaves less to later turns.
pub const DECIDING_PROOF_SHARE: u64 = 2;

/// Share (one in `n`) of the proof budget left for the other side's first searched turn.
pub const FIRST_PROOF_SHARE: u64 = 4;

/// Share (one in `n`) of the proof budget left for a later turn whose proof looks in reach.
pub const LATER_PROOF_SHARE: u64 = 4;

/// Share (one in `n`) of the proof budget left a turn may spend holding its move to what earlier
/// turns established (`Limits::guard_nodes`).
pub const GUARD_SHARE: u64 = 4;

/// How far past the game's proof budget the floors that keep known results still hold: more
/// keeps more proven results, and risks meeting the deadline.
pub const KEEP_KNOWN_OVERRUN: f64 = 1.25;

/// The backward pass's nodes as a share of the game's proof budget: more repairs more unproven
/// moves, and uses more of the time limit after the game.
pub const REPAIR_SHARE: f64 = 2.0;

/// How many plies beyond the bound its searches reached a game end may lie for a later turn's
/// proof search to try for it: larger tries more proofs, and spends more nodes on hopeless ones.
pub const PROOF_REACH_PLIES: u32 = 10;

/// Margin of the deepening's score (hundredths of a man) beyond which a side looks clearly ahead
/// (the proof asks for its win first; builds and shares follow): a man and a half.
pub const PROOF_GUESS_MARGIN: i32 = 150;

/// A turn whose board looks level spends one in this many of its proof share: a level board is
/// most likely a draw, which no proof search settles.
pub const LEVEL_PROOF_SHARE: u64 = 8;

// Endgame database builds: how large, when, and what they cost.

/// Most index slots built at once, before any search, for a position of a few kings: larger
/// settles more positions outright, and spends more time on positions the search would prove.
pub const QUICK_POSITIONS: usize = 6_000_000;

/// Most index slots of whole database classes built for a position the search could not prove
/// (four kings against two fit); larger material is analysed over its reachable positions only.
pub const MAX_POSITIONS: usize = 45_000_000;

/// Most index slots the deciding turn builds for a level-looking position: larger proves more
/// draws of six pieces, and risks a build that takes most of the limit.
pub const DECIDING_LEVEL_BUILD_SLOTS: usize = 125_000_000;

/// Most index slots a later turn builds for a level-looking position while the line is proven.
pub const LEVEL_BUILD_SLOTS: usize = MAX_POSITIONS;

/// Most index slots a turn builds, where a side looks clearly ahead, once the line is unproven.
pub const UNPROVEN_BUILD_SLOTS: usize = MAX_POSITIONS;

/// Most index slots a turn builds for a level-looking position once the line is unproven.
pub const UNPROVEN_LEVEL_BUILD_SLOTS: usize = QUICK_POSITIONS;

/// Most index slots of the capture-only analysis of a position of seven pieces: larger proves
/// more seven-piece wins, and risks a build that takes most of the limit.
pub const CAPTURE_BUILD_SLOTS: usize = 130_000_000;

/// Time per index slot assumed when deciding whether a build fits the time left (both threads
/// of a loaded machine): lower starts more builds, and more of them give up.
pub const BUILD_NANOS_PER_SLOT: u64 = 200;

/// Time per index slot assumed instead on the deciding turn where a side looks clearly ahead and
/// the build settles the position (two idle cores): the line's only proof when the search fails.
pub const DECIDING_BUILD_NANOS_PER_SLOT: u64 = 100;

/// Index slots of a build charged as one node of the game's budget (a slot takes about half a
/// node's time): fewer makes builds dearer for the search after them.
pub const BUILD_SLOTS_PER_NODE: u64 = 2;

/// Share of the time left before the deadline a database build may take: a build that fails
/// leaves the rest to the game.
pub const BUILD_SHARE: f64 = 0.85;

/// Work of large analyses a build must have done before its measured speed may give it up:
/// larger judges later and more surely.
pub const PACE_SAMPLE: usize = 2_000_000;

/// Index slots of an analysis whose speed counts for the pace (a small class's speed says little
/// about the large ones).
pub const PACE_CLASS: usize = 500_000;

/// How much later than its deadline the measured pace must say a build would finish before it
/// gives up: larger gives up less often, and sometimes too late.
pub const PACE_MARGIN: f64 = 1.25;

/// How many index slots of a class with men one slot of a class of kings only counts for in a
/// build's pace (a king has more moves, its class more passes).
pub const KINGS_ONLY_WEIGHT: usize = 3;

/// Most bytes the reachable-only analysis of one puzzle may hold at its peak: with the search's
/// table and the rest, a run stays within 2 GiB.
pub const REACH_BYTES: usize = 1_600 << 20;

/// Most pieces on the board for the reachable-only analysis: beyond six it is too large to
/// finish within a turn.
pub const REACH_PIECES: usize = 6;

/// Decoded bytes of database files kept in the probe's cache: more memory, fewer blocks read and
/// decoded again (the memory is taken only as blocks are read).
pub const CACHE_BYTES: usize = 2 << 30;

// The searches.

/// Least remaining depth at which enhanced transposition cutoffs look the children up: lower
/// saves more subtrees, and pays a look-up per move at more nodes.
pub const ETC_DEPTH: i32 = 3;

/// How often (in nodes) the alpha-beta search reads the clock and the race: more often stops
/// sooner, and costs more time.
pub const CLOCK_INTERVAL: u64 = 1024;

/// How often (in nodes) df-pn reads the clock.
pub const DFPN_CLOCK_INTERVAL: u64 = 4096;

/// Bits of df-pn's table index (2^22 buckets of four entries, 256 MiB): more memory, fewer
/// entries overwritten.
pub const DFPN_BUCKET_BITS: u32 = 22;

/// What a df-pn node is charged in the proof search's nodes (it reads every child's numbers, about
/// twice an alpha-beta node's time): the race's fairness between the two.
pub const DFPN_NODE_WEIGHT: u64 = 2;

/// Nodes between the race's checkpoints: the most the losing side searches past the other's
/// answer, against the time the two threads spend waiting on each other.
pub const CHECKPOINT: u64 = 1 << 16;

/// Threads of the split proof: fixed, so that the budget (nodes per thread) and so the line are
/// the same on every machine.
pub const SPLIT_THREADS: usize = 2;

/// Most table memory of one root move's searcher in a split proof, in MiB.
pub const BRANCH_TT_MB: usize = 64;

/// Most bytes of the copies of the searcher's table given to a split's moves (1 GiB): beyond it
/// they start with empty tables (less memory, more work).
pub const SPLIT_TT_BYTES: usize = 1 << 30;

/// A split's first round gives each move the budget over this many times the number of moves
/// (each later round doubles it): smaller rounds settle easy moves cheaper, with more rounds.
pub const FIRST_ROUND_SHARE: u64 = 16;

/// A question of the backward pass may spend one in this many of the pass's nodes left, so that
/// a settled question leaves nodes to replay the game from it.
pub const QUESTION_SHARE: u64 = 2;

/// Most questions the backward pass asks in one game (a bound on its work besides the nodes).
pub const MAX_QUESTIONS: usize = 10_000;

/// Most moves in a row the backward pass leaves unchecked before it ends: more tries further
/// back, with ever fewer nodes.
pub const MAX_FAILURES: usize = 4;

/// Most table memory of the search that chooses an unproven move, in MiB.
pub const CHOICE_TT_MB: usize = 64;

/// How far below the turn's best score a move may score and still be one the trained tables
/// choose among (a quarter of a man): wider lets them choose more, and risks a worse move.
pub const TIE_MARGIN: i32 = MAN / 4;

/// Most plies of a game during which a side clearly ahead avoids repeating a position: past them
/// a game it cannot win ends in a repetition, leaving time to search for the win it gave away.
pub const AVOID_REPETITION_PLIES: usize = 200;

// `checkers verify`.

/// Positions the independent analyser's bounded prover is assumed to expand a second, turning
/// `verify --max-seconds` into a node budget (its own rate, not the solver's
/// [`DEFAULT_NODES_PER_SECOND`]): lower ends on the node budget, the same verdicts everywhere,
/// on slower machines too, with fewer nodes.
pub const VERIFY_NODES_PER_SECOND: u64 = 500_000;

// What a side ahead must not give away (`puzzle/unproven_choice.rs`, `puzzle/backward_pass.rs`)
// and when a board is decisive for its database builds (`puzzle/budget.rs`).

/// Margin of a turn's score (hundredths of a man) from which its side counts as ahead: it then
/// neither plays nor allows a repetition of the game's positions, on its turns and in the quick
/// moves past the deadline. Lower keeps more wins, and spends more turns' nodes on moves that
/// do not repeat. (A game drawn by
/// repetition is searched again for its win only where a side was [`PROOF_GUESS_MARGIN`]
/// ahead: those are proof searches.)
pub const AHEAD_MARGIN: i32 = MAN / 2;

/// Margin of the deepening's score from which a board counts as decisive for the caps of its
/// database builds: lower starts more large analyses, which cost their time when the board is
/// drawn after all.
pub const BUILD_AHEAD_MARGIN: i32 = MAN;

/// Most index slots of an analysis small enough to start after only [`EARLY_SEARCH_NODES`] of a
/// turn's search: a few seconds' build, where the search might spend its whole budget in vain.
pub const EARLY_BUILD_SLOTS: usize = QUICK_POSITIONS;

/// Nodes a turn searches before it builds an analysis of at most [`EARLY_BUILD_SLOTS`]: fewer
/// builds analyses for boards a short search would have proven.
pub const EARLY_SEARCH_NODES: u64 = 50_000;
