//! Training positions on disk: the self-play data set's compact binary format.
//!
//! A data set is a folder of chunk files (`chunk-000042.ckd`), each holding the positions of a
//! fixed range of games, so that shards of the work (`--shard K/N`) write disjoint files that
//! merge by copying them into one folder, and an interrupted run resumes by skipping the chunks
//! already written. A chunk file is, all integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `CKSP` |
//! | 2 | format version (1) |
//! | 2 | record size in bytes (16) |
//! | 8 | the chunk's number |
//! | 8 | first game's number |
//! | 4 | games in the chunk |
//! | 8 | settings hash: the seed, player and options that made the chunk |
//! | 8 | number of records |
//! | 16 × n | the records |
//! | 4 | CRC-32 of everything before it |
//!
//! A record is one quiet position (the side to move has no capture) of a game:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | red pieces, one bit per dark cell (bit k: the k-th dark cell in reading order) |
//! | 4 | black pieces, same layout |
//! | 4 | kings, same layout |
//! | 1 | bit 0: black to move; bits 1-2: the label for red (0 loss, 1 draw, 2 win); bit 3: the label is the endgame databases' exact value, not the game's result |
//! | 1 | ply of the game (capped at 255) |
//! | 2 | the search's score for the side to move (signed; 0 where no search ran) |

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::rules::bitboard::Bitboard;
use crate::rules::piece::Color;
use crate::rules::position::Position;
use crate::rules::square::Square;

/// The first bytes of a chunk file.
pub const MAGIC: [u8; 4] = *b"CKSP";
/// The format version written.
pub const VERSION: u16 = 1;
/// Bytes per record.
pub const RECORD_BYTES: usize = 16;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 4 + 2 + 2 + 8 + 8 + 4 + 8 + 8;
/// File name extension of chunk files.
pub const EXTENSION: &str = "ckd";

/// A training label: the result of a game (or the exact value of a position) for red.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// Red loses.
    Loss,
    /// A draw.
    Draw,
    /// Red wins.
    Win,
}

impl Label {
    /// The label for the other side.
    #[must_use]
    pub const fn flipped(self) -> Label {
        match self {
            Label::Loss => Label::Win,
            Label::Draw => Label::Draw,
            Label::Win => Label::Loss,
        }
    }

    /// The label for `color` given this one for red.
    #[must_use]
    pub const fn for_color(self, color: Color) -> Label {
        match color {
            Color::Red => self,
            Color::Black => self.flipped(),
        }
    }

    /// The expected score: 0, 1/2 or 1.
    #[must_use]
    pub const fn target(self) -> f32 {
        match self {
            Label::Loss => 0.0,
            Label::Draw => 0.5,
            Label::Win => 1.0,
        }
    }

    const fn code(self) -> u8 {
        match self {
            Label::Loss => 0,
            Label::Draw => 1,
            Label::Win => 2,
        }
    }
}

/// One training position with its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position (pieces on dark cells only).
    pub position: Position,
    /// The label, for red.
    pub label: Label,
    /// Whether the label is an exact value from the endgame databases.
    pub exact: bool,
    /// Ply of the game the position occurred at (capped at 255).
    pub ply: u8,
    /// The search's score for the side to move, where one ran.
    pub score: i16,
}

/// Why a data set could not be read or written.
#[derive(Debug, Error)]
pub enum DatasetError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// The file is not a chunk of this format, or it is damaged.
    #[error("{path}: {reason}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        reason: String,
    },
    /// A position has pieces on light cells, which the format cannot hold.
    #[error("a position with pieces on light cells cannot be stored")]
    LightCells,
}

/// The 64-cell index of the `k`-th dark cell in reading order.
#[must_use]
pub const fn dark_cell(k: usize) -> usize {
    let row = k / 4;
    let col = 2 * (k % 4) + (row + 1) % 2;
    row * 8 + col
}

/// A 64-cell set as 32 bits over the dark cells (light cells are dropped).
#[must_use]
pub fn pack(b: Bitboard) -> u32 {
    let mut out = 0;
    for k in 0..32 {
        if b.0 >> dark_cell(k) & 1 != 0 {
            out |= 1 << k;
        }
    }
    out
}

/// The inverse of [`pack`].
#[must_use]
pub fn unpack(bits: u32) -> Bitboard {
    let mut out = 0u64;
    for k in 0..32 {
        if bits >> k & 1 != 0 {
            out |= 1 << dark_cell(k);
        }
    }
    Bitboard(out)
}

impl Record {
    /// The record's bytes.
    ///
    /// # Errors
    /// [`DatasetError::LightCells`] when a piece stands on a light cell.
    pub fn encode(&self) -> Result<[u8; RECORD_BYTES], DatasetError> {
        let p = &self.position;
        if !(p.occupied() & !Bitboard::DARK).is_empty() {
            return Err(DatasetError::LightCells);
        }
        let mut out = [0u8; RECORD_BYTES];
        out[0..4].copy_from_slice(&pack(p.pieces(Color::Red)).to_le_bytes());
        out[4..8].copy_from_slice(&pack(p.pieces(Color::Black)).to_le_bytes());
        out[8..12].copy_from_slice(&pack(p.kings()).to_le_bytes());
        out[12] = u8::from(p.side_to_move() == Color::Black)
            | self.label.code() << 1
            | u8::from(self.exact) << 3;
        out[13] = self.ply;
        out[14..16].copy_from_slice(&self.score.to_le_bytes());
        Ok(out)
    }

    /// A record from its bytes; the error says what is wrong.
    ///
    /// # Errors
    /// A message when the bytes are not a valid record.
    pub fn decode(b: &[u8; RECORD_BYTES]) -> Result<Record, String> {
        let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let (red, black, kings) = (word(0), word(4), word(8));
        if red & black != 0 {
            return Err("a cell holds both a red and a black piece".to_owned());
        }
        if kings & !(red | black) != 0 {
            return Err("a king stands on an empty cell".to_owned());
        }
        let flags = b[12];
        if flags >> 4 != 0 {
            return Err(format!("unknown flag bits {flags:#04x}"));
        }
        let label = match flags >> 1 & 3 {
            0 => Label::Loss,
            1 => Label::Draw,
            2 => Label::Win,
            _ => return Err("label 3 is not a game result".to_owned()),
        };
        let side = if flags & 1 == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let position = Position::new(unpack(red), unpack(black), unpack(kings), side)
            .map_err(|e| e.to_string())?;
        Ok(Record {
            position,
            label,
            exact: flags & 8 != 0,
            ply: b[13],
            score: i16::from_le_bytes([b[14], b[15]]),
        })
    }
}

/// What a chunk file says about itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkHeader {
    /// The chunk's number.
    pub chunk: u64,
    /// Number of its first game.
    pub first_game: u64,
    /// Games in it.
    pub games: u32,
    /// Hash of the settings that made it.
    pub settings: u64,
}

/// The file name of chunk `chunk`.
#[must_use]
pub fn chunk_name(chunk: u64) -> String {
    format!("chunk-{chunk:06}.{EXTENSION}")
}

/// The bytes of a chunk file.
///
/// # Errors
/// [`DatasetError::LightCells`] for a position the format cannot hold.
pub fn encode_chunk(header: &ChunkHeader, records: &[Record]) -> Result<Vec<u8>, DatasetError> {
    let mut out = Vec::with_capacity(HEADER_BYTES + RECORD_BYTES * records.len() + 4);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(RECORD_BYTES as u16).to_le_bytes());
    out.extend_from_slice(&header.chunk.to_le_bytes());
    out.extend_from_slice(&header.first_game.to_le_bytes());
    out.extend_from_slice(&header.games.to_le_bytes());
    out.extend_from_slice(&header.settings.to_le_bytes());
    out.extend_from_slice(&(records.len() as u64).to_le_bytes());
    for r in records {
        out.extend_from_slice(&r.encode()?);
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    Ok(out)
}

/// Reads a chunk from `bytes` (`path` names it in errors).
///
/// # Errors
/// [`DatasetError::Bad`] naming what is wrong: magic, version, size, checksum or a record.
pub fn decode_chunk(path: &Path, bytes: &[u8]) -> Result<(ChunkHeader, Vec<Record>), DatasetError> {
    let bad = |reason: String| DatasetError::Bad {
        path: path.to_path_buf(),
        reason,
    };
    if bytes.len() < HEADER_BYTES + 4 {
        return Err(bad(format!(
            "{} bytes: too short for a chunk header",
            bytes.len()
        )));
    }
    if bytes[0..4] != MAGIC {
        return Err(bad("not a self-play chunk (no `CKSP` magic)".to_owned()));
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let u32_at =
        |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let u64_at = |i: usize| {
        let mut a = [0u8; 8];
        a.copy_from_slice(&bytes[i..i + 8]);
        u64::from_le_bytes(a)
    };
    let version = u16_at(4);
    if version != VERSION {
        return Err(bad(format!(
            "format version {version}; this program reads {VERSION}"
        )));
    }
    let size = u16_at(6);
    if usize::from(size) != RECORD_BYTES {
        return Err(bad(format!(
            "records of {size} bytes; expected {RECORD_BYTES}"
        )));
    }
    let header = ChunkHeader {
        chunk: u64_at(8),
        first_game: u64_at(16),
        games: u32_at(24),
        settings: u64_at(28),
    };
    let count = u64_at(36);
    let expected = (count as u128) * RECORD_BYTES as u128 + HEADER_BYTES as u128 + 4;
    if expected != bytes.len() as u128 {
        return Err(bad(format!(
            "{} bytes, but the header announces {count} records ({expected} bytes): truncated or damaged",
            bytes.len()
        )));
    }
    let body = bytes.len() - 4;
    let crc = u32_at(body);
    if crc32fast::hash(&bytes[..body]) != crc {
        return Err(bad("checksum mismatch: the file is damaged".to_owned()));
    }
    let mut records = Vec::with_capacity(count as usize);
    for (i, raw) in bytes[HEADER_BYTES..body]
        .chunks_exact(RECORD_BYTES)
        .enumerate()
    {
        let mut r = [0u8; RECORD_BYTES];
        r.copy_from_slice(raw);
        records.push(Record::decode(&r).map_err(|e| bad(format!("record {i}: {e}")))?);
    }
    Ok((header, records))
}

/// Reads one chunk file.
///
/// # Errors
/// [`DatasetError`] when it cannot be read or is not a valid chunk.
pub fn read_chunk(path: &Path) -> Result<(ChunkHeader, Vec<Record>), DatasetError> {
    let bytes = std::fs::read(path).map_err(|source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    decode_chunk(path, &bytes)
}

/// Writes a chunk file through a temporary file and a rename, so a chunk on disk is complete.
///
/// # Errors
/// [`DatasetError`] when the file cannot be written.
pub fn write_chunk(
    path: &Path,
    header: &ChunkHeader,
    records: &[Record],
) -> Result<(), DatasetError> {
    let bytes = encode_chunk(header, records)?;
    let io = |source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, &bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// The chunk files of a data set folder, sorted by name (so by chunk number).
///
/// # Errors
/// [`DatasetError::Io`] when the folder cannot be listed.
pub fn chunk_files(dir: &Path) -> Result<Vec<PathBuf>, DatasetError> {
    let io = |source| DatasetError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().is_some_and(|e| e == EXTENSION) {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Every record of the data set folders `dirs` (or chunk files), in folder order and chunk
/// order, so the same folders always give the same sequence.
///
/// # Errors
/// [`DatasetError`] for the first file that cannot be read or is damaged.
pub fn read_all(dirs: &[PathBuf]) -> Result<Vec<Record>, DatasetError> {
    let mut all = Vec::new();
    for dir in dirs {
        let files = if dir.is_dir() {
            chunk_files(dir)?
        } else {
            vec![dir.clone()]
        };
        for f in files {
            all.extend(read_chunk(&f)?.1);
        }
    }
    Ok(all)
}

/// Whether a square index is a dark cell (for tests and callers building positions).
#[must_use]
pub fn is_dark(index: usize) -> bool {
    Square::from_index(index as u8).is_some_and(Square::is_dark)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dark_cells_map_both_ways() {
        for k in 0..32 {
            assert!(is_dark(dark_cell(k)), "{k}");
        }
        let start = Position::start();
        let red = start.pieces(Color::Red);
        assert_eq!(unpack(pack(red)), red);
        assert_eq!(pack(red).count_ones(), 12);
    }

    #[test]
    fn records_round_trip_and_damage_is_named() {
        let r = Record {
            position: Position::start().with_side_to_move(Color::Black),
            label: Label::Win,
            exact: true,
            ply: 17,
            score: -123,
        };
        let h = ChunkHeader {
            chunk: 3,
            first_game: 300,
            games: 100,
            settings: 42,
        };
        let bytes = encode_chunk(&h, &[r, r]).unwrap();
        let p = Path::new("x.ckd");
        assert_eq!(decode_chunk(p, &bytes).unwrap(), (h, vec![r, r]));
        let mut damaged = bytes.clone();
        damaged[HEADER_BYTES + 3] ^= 1;
        let e = decode_chunk(p, &damaged).unwrap_err().to_string();
        assert!(e.contains("x.ckd") && e.contains("checksum"), "{e}");
        let e = decode_chunk(p, &bytes[..bytes.len() - 1])
            .unwrap_err()
            .to_string();
        assert!(e.contains("truncated"), "{e}");
    }
}
