//! Self-play: games of the engine against itself that make the training data of the trained
//! evaluation.
//!
//! Game `g` of a data set starts from opening `g mod n` of the list (the ACF ballots), then plays
//! 0 to `random_plies` uniformly random moves drawn from a generator seeded by the data set's
//! seed and `g`, then the engine plays both sides at a fixed node budget, so every game depends
//! only on the seed, its number and the settings: the same game is played on any machine, by
//! any shard, in any order. Games are grouped into chunks of consecutive numbers; a chunk is the
//! unit of work that one shard does and of output that one file holds
//! ([`super::dataset`]).
//!
//! Every quiet position of a game (no capture for the side to move) is kept with the game's
//! result. Where the endgame databases cover a position, it is labelled with their exact value
//! instead, and the positions before it with the value of the first covered position (the
//! result that best play from there gives); the game is stopped a few plies after it enters
//! the databases, since its end is known.

use crate::rules::draw::DrawRule;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::search::endgame::EndgameDb;

use super::dataset::{ChunkHeader, Label, Record};
use crate::play::clock::Clock;
use crate::play::engine::{Engine, EngineOptions};
use crate::play::player::SplitMix64;
use crate::rules::game::Game;

/// The settings of a self-play data set.
#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// Seed of the random moves after the openings.
    pub seed: u64,
    /// The engine playing both sides (give it a node budget so the games repeat).
    pub engine: EngineOptions,
    /// The openings, as moves from the start position.
    pub openings: Vec<Vec<Move>>,
    /// Most random moves played after the opening (each game draws 0 to this many).
    pub random_plies: u32,
    /// A game still going after this many plies is stopped and labelled a draw.
    pub max_plies: usize,
    /// Plies played on after the game enters the endgame databases.
    pub after_exact: usize,
    /// Positions of at most this many pieces are looked up in the databases (0: none).
    pub exact_pieces: u32,
    /// Games per chunk.
    pub chunk_games: u64,
}

impl SelfPlayConfig {
    /// A hash of every setting that changes the games, written into each chunk so that chunks
    /// of different settings are never mixed in one folder. (The engine's name stands for its
    /// options; the databases only change labels, and only where present.)
    #[must_use]
    pub fn settings_hash(&self) -> u64 {
        let mut h = Fnv::new();
        h.bytes(b"selfplay-1");
        h.u64(self.seed);
        h.bytes(Engine::new_name(&self.engine).as_bytes());
        h.u64(self.openings.len() as u64);
        for line in &self.openings {
            for mv in line {
                h.u64(mv.from().index() as u64);
                h.u64(mv.to().index() as u64);
                h.u64(mv.captured().0);
            }
            h.u64(u64::MAX);
        }
        h.u64(u64::from(self.random_plies));
        h.u64(self.max_plies as u64);
        h.u64(self.after_exact as u64);
        h.u64(u64::from(self.exact_pieces));
        h.u64(self.chunk_games);
        h.finish()
    }

    /// The header of chunk `chunk` of a data set of `total` games.
    #[must_use]
    pub fn header(&self, chunk: u64, total: u64) -> ChunkHeader {
        let first = chunk * self.chunk_games;
        ChunkHeader {
            chunk,
            first_game: first,
            games: total.saturating_sub(first).min(self.chunk_games) as u32,
            settings: self.settings_hash(),
        }
    }
}

/// FNV-1a, 64 bits: a fixed hash of the settings.
struct Fnv(u64);

impl Fnv {
    const fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= u64::from(x);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn u64(&mut self, x: u64) {
        self.bytes(&x.to_le_bytes());
    }
    const fn finish(&self) -> u64 {
        self.0
    }
}

/// What one game gave.
#[derive(Clone, Debug, Default)]
pub struct GameRecords {
    /// Its labelled quiet positions.
    pub records: Vec<Record>,
    /// Plies played.
    pub plies: usize,
    /// Its result for red (the databases' value where it entered them).
    pub label: Option<Label>,
}

/// Exact values of small positions for the labels: the endgame databases, read from their
/// store (never built here beyond what the store lacks).
pub struct Labeller {
    db: Option<EndgameDb>,
    pieces: u32,
}

impl Labeller {
    /// No exact labels.
    #[must_use]
    pub fn none() -> Labeller {
        Labeller {
            db: None,
            pieces: 0,
        }
    }

    /// Labels from `db` for positions of at most `pieces` pieces.
    #[must_use]
    pub fn new(db: EndgameDb, pieces: u32) -> Labeller {
        Labeller {
            db: Some(db),
            pieces,
        }
    }

    /// The exact value of `pos` for red, when the databases cover it.
    pub fn exact(&mut self, pos: &Position) -> Option<Label> {
        let db = self.db.as_mut()?;
        let n = pos.occupied().count();
        if n > self.pieces
            || pos.pieces(Color::Red).is_empty()
            || pos.pieces(Color::Black).is_empty()
        {
            return None;
        }
        if !db.covers(pos) && !db.build_classes_for(pos) {
            return None;
        }
        let s = db.score(pos, 0)?;
        let for_mover = if s.is_game_end() {
            if s.is_win() {
                Label::Win
            } else {
                Label::Loss
            }
        } else {
            Label::Draw
        };
        Some(for_mover.for_color(pos.side_to_move()))
    }
}

/// The seed of game `game`'s random moves.
#[must_use]
pub fn game_seed(seed: u64, game: u64) -> u64 {
    let mut r = SplitMix64::new(seed ^ game.wrapping_mul(0xD1B5_4A32_D192_ED03));
    r.next_u64()
}

/// Plays game number `game` of the data set with `engine` (cleared first) and labels its
/// positions.
pub fn play_game(
    config: &SelfPlayConfig,
    game: u64,
    engine: &mut Engine,
    labels: &mut Labeller,
) -> GameRecords {
    use crate::play::player::Player;
    engine.new_game();
    let mut g = Game::standard(DrawRule::Csci561);
    if !config.openings.is_empty() {
        let line = &config.openings[(game % config.openings.len() as u64) as usize];
        for &mv in line {
            if g.play(mv).is_err() {
                break;
            }
        }
    }
    let mut rng = SplitMix64::new(game_seed(config.seed, game));
    let randoms = rng.below(config.random_plies as usize + 1);
    for _ in 0..randoms {
        if g.outcome().is_some() {
            break;
        }
        let moves = g.legal_moves();
        let mv = moves[rng.below(moves.len())];
        if g.play(mv).is_err() {
            break;
        }
    }
    // (position, ply, search score, exact value)
    let mut seen: Vec<(Position, usize, i16, Option<Label>)> = Vec::new();
    let mut first_exact: Option<(usize, Label)> = None;
    let clock = Clock::unlimited();
    let result = loop {
        if let Some(end) = g.outcome() {
            break match end.winner() {
                Some(Color::Red) => Label::Win,
                Some(Color::Black) => Label::Loss,
                None => Label::Draw,
            };
        }
        if g.ply() >= config.max_plies {
            break Label::Draw;
        }
        if let Some((ply, _)) = first_exact {
            if g.ply() >= ply + config.after_exact {
                break Label::Draw; // replaced by the exact value below
            }
        }
        let pos = *g.current();
        let exact = labels.exact(&pos);
        if let (None, Some(v)) = (first_exact, exact) {
            first_exact = Some((g.ply(), v));
        }
        let Some(thought) = engine.think(&g, &clock) else {
            break Label::Draw;
        };
        if !movegen::has_jump(&pos) {
            let score = thought
                .score
                .0
                .clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
            seen.push((pos, g.ply(), score, exact));
        }
        if g.play(thought.best).is_err() {
            break Label::Draw;
        }
    };
    let result = first_exact.map_or(result, |(_, v)| v);
    let records = seen
        .into_iter()
        .map(|(position, ply, score, exact)| Record {
            position,
            label: exact.unwrap_or(result),
            exact: exact.is_some(),
            ply: ply.min(255) as u8,
            score,
        })
        .collect();
    GameRecords {
        records,
        plies: g.ply(),
        label: Some(result),
    }
}

/// Plays every game of chunk `chunk` of a data set of `total` games, calling `progress` after
/// each game, and returns its header and records.
pub fn play_chunk(
    config: &SelfPlayConfig,
    chunk: u64,
    total: u64,
    labels: &mut Labeller,
    progress: &(dyn Fn() + Sync),
) -> (ChunkHeader, Vec<Record>) {
    let header = config.header(chunk, total);
    let mut engine = Engine::new(config.engine.clone());
    let mut records = Vec::new();
    for game in header.first_game..header.first_game + u64::from(header.games) {
        records.extend(play_game(config, game, &mut engine, labels).records);
        progress();
    }
    (header, records)
}

/// The chunks of a data set of `total` games that shard `shard` of `shards` plays: every
/// `shards`-th chunk from `shard`, so the shards' files together make the whole data set.
#[must_use]
pub fn shard_chunks(config: &SelfPlayConfig, total: u64, shard: u64, shards: u64) -> Vec<u64> {
    let chunks = total.div_ceil(config.chunk_games.max(1));
    (0..chunks)
        .filter(|c| shards > 0 && c % shards == shard)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::EngineOptions;

    fn tiny() -> SelfPlayConfig {
        SelfPlayConfig {
            seed: 7,
            engine: EngineOptions {
                nodes: Some(300),
                ..EngineOptions::default()
            },
            openings: Vec::new(),
            random_plies: 3,
            max_plies: 120,
            after_exact: 4,
            exact_pieces: 0,
            chunk_games: 2,
        }
    }

    #[test]
    fn games_repeat_and_shards_split_the_chunks() {
        let c = tiny();
        let mut e = Engine::new(c.engine.clone());
        let a = play_game(&c, 3, &mut e, &mut Labeller::none());
        let b = play_game(
            &c,
            3,
            &mut Engine::new(c.engine.clone()),
            &mut Labeller::none(),
        );
        assert_eq!(a.records, b.records);
        assert!(!a.records.is_empty());
        assert!(a
            .records
            .iter()
            .all(|r| !movegen::has_jump(&r.position) && !r.exact));
        let mut all: Vec<u64> = (0..3).flat_map(|s| shard_chunks(&c, 9, s, 3)).collect();
        all.sort_unstable();
        assert_eq!(all, vec![0, 1, 2, 3, 4]);
        assert_eq!(c.header(4, 9).games, 1);
    }
}
