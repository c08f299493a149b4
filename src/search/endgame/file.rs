//! The format of a database file: a header, an index of compressed blocks, then the blocks.
//!
//! | bytes | what |
//! | --- | --- |
//! | 0-7 | [`MAGIC`] |
//! | 8-11 | the format [`VERSION`] (files of another version are refused, and rebuilt) |
//! | 12-15 | the class's four group sizes (red kings, red men, black kings, black men) |
//! | 16-19 | bytes per value (1, or 2 when a value is over 255) |
//! | 20-27 | number of values |
//! | 28-31 | bytes of values per block (the last block may be shorter) |
//! | 32-35 | number of blocks |
//! | 36-39 | the compression ([`CODEC`]) |
//! | 40-43 | CRC-32 of bytes 0-39, of what the file is of (see `store`), and of the block index |
//! | 44- | the block index: per block its offset from the first block (8 bytes), its compressed length (4) and the CRC-32 of its compressed bytes (4) |
//! | then | the blocks, each the values of its range compressed alone |
//!
//! All numbers are little-endian. A reader checks the header and the index once, then reads and
//! checks one block at a time: a damaged block is an error naming the file and the block, never
//! values.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

use super::pieces::Material;
use super::table::Table;

/// First bytes of every database file.
pub const MAGIC: [u8; 8] = *b"CKEGDB\r\n";
/// Version of the file format (and of the values' meaning and index); files of another version
/// are refused, and rebuilt. 1: the plain index, uncompressed. 2: the tight index (see
/// `index`), in compressed blocks.
pub const VERSION: u32 = 2;
/// The compression of the blocks: 2, zstd (level [`LEVEL`]).
pub const CODEC: u32 = 2;
/// zstd's compression level: its default, as small as level 9 within a tenth, six times faster
/// to write.
const LEVEL: i32 = 3;
/// Bytes of values per block: a look-up whose block is not cached reads and decodes this much.
pub const BLOCK_BYTES: usize = 1 << 16;
/// Bytes of the header.
pub const HEADER: usize = 44;
/// Bytes of one entry of the block index.
const ENTRY: usize = 16;

/// The facts of a file's header, checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Header {
    pub(super) groups: [u8; 4],
    pub(super) width: usize,
    pub(super) values: usize,
    pub(super) block_bytes: usize,
    pub(super) blocks: usize,
}

/// One block's place in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    offset: u64,
    len: u32,
    crc: u32,
}

fn compress(raw: &[u8]) -> std::io::Result<Vec<u8>> {
    zstd::bulk::compress(raw, LEVEL)
}

fn decompress(packed: &[u8], len: usize) -> Result<Vec<u8>, String> {
    let out = zstd::bulk::decompress(packed, len).map_err(|e| e.to_string())?;
    if out.len() == len {
        Ok(out)
    } else {
        Err(format!("{} bytes decoded, expected {len}", out.len()))
    }
}

fn crc(parts: &[&[u8]]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    for p in parts {
        h.update(p);
    }
    h.finalize()
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// The values of `table` as bytes, little-endian.
fn raw_bytes(table: &Table) -> std::borrow::Cow<'_, [u8]> {
    match table {
        Table::Bytes(b) => std::borrow::Cow::Borrowed(b.as_slice()),
        Table::Words(w) => {
            std::borrow::Cow::Owned(w.iter().flat_map(|v| v.to_le_bytes()).collect())
        }
    }
}

/// The whole file of `table`, of `class`; `key` is what else the header's checksum covers (what
/// the file is of, beyond its class). Blocks are compressed in parallel.
///
/// # Errors
/// When the compressor fails.
pub(super) fn encode(class: Material, key: &[u8], table: &Table) -> std::io::Result<Vec<u8>> {
    let raw = raw_bytes(table);
    let packed: Vec<Vec<u8>> = raw
        .par_chunks(BLOCK_BYTES)
        .map(compress)
        .collect::<Result<_, _>>()?;
    let mut head = Vec::with_capacity(HEADER);
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend(class.groups().map(|g| g as u8));
    head.extend_from_slice(&(table.width() as u32).to_le_bytes());
    head.extend_from_slice(&(table.len() as u64).to_le_bytes());
    head.extend_from_slice(&(BLOCK_BYTES as u32).to_le_bytes());
    head.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    head.extend_from_slice(&CODEC.to_le_bytes());
    let mut index = Vec::with_capacity(packed.len() * ENTRY);
    let mut offset = 0u64;
    for block in &packed {
        index.extend_from_slice(&offset.to_le_bytes());
        index.extend_from_slice(&(block.len() as u32).to_le_bytes());
        index.extend_from_slice(&crc(&[block]).to_le_bytes());
        offset += block.len() as u64;
    }
    let sum = crc(&[&head, key, &index]);
    let mut out = head;
    out.extend_from_slice(&sum.to_le_bytes());
    out.extend_from_slice(&index);
    for block in &packed {
        out.extend_from_slice(block);
    }
    Ok(out)
}

/// The header in `head` (at least [`HEADER`] bytes), checked against the class and the number
/// of values expected.
pub(super) fn header(class: Material, expected: usize, head: &[u8]) -> Result<Header, String> {
    if head.len() < HEADER {
        return Err(format!("{} bytes, shorter than the header", head.len()));
    }
    if head[..8] != MAGIC {
        return Err("not a database file".to_string());
    }
    let version = u32_at(head, 8);
    if version != VERSION {
        return Err(format!(
            "format version {version}, expected {VERSION} (an older file: rebuild it)"
        ));
    }
    let groups = [head[12], head[13], head[14], head[15]];
    if groups != class.groups().map(|g| g as u8) {
        return Err(format!("not the database of {class}"));
    }
    let width = u32_at(head, 16) as usize;
    let values = u64_at(head, 20);
    if !(1..=2).contains(&width) || values != expected as u64 {
        return Err(format!(
            "{values} values of {width} bytes, expected {expected}"
        ));
    }
    let block_bytes = u32_at(head, 28) as usize;
    let blocks = u32_at(head, 32) as usize;
    if block_bytes == 0 || block_bytes % width != 0 {
        return Err(format!("blocks of {block_bytes} bytes"));
    }
    if blocks != (expected * width).div_ceil(block_bytes) {
        return Err(format!(
            "{blocks} blocks, expected {}",
            (expected * width).div_ceil(block_bytes)
        ));
    }
    if u32_at(head, 36) != CODEC {
        return Err(format!(
            "compression {}, expected {CODEC}",
            u32_at(head, 36)
        ));
    }
    Ok(Header {
        groups,
        width,
        values: expected,
        block_bytes,
        blocks,
    })
}

/// The block index in `bytes` (after the header), checked with the header's checksum, the
/// blocks being `data` bytes in all.
fn block_index(
    h: &Header,
    head: &[u8],
    key: &[u8],
    bytes: &[u8],
    data: u64,
) -> Result<Vec<Entry>, String> {
    let need = h.blocks * ENTRY;
    if bytes.len() < need {
        return Err(format!(
            "{} bytes of block index, expected {need}",
            bytes.len()
        ));
    }
    let index = &bytes[..need];
    if crc(&[&head[..40], key, index]) != u32_at(head, 40) {
        return Err("checksum mismatch in the header or the block index".to_string());
    }
    let mut entries = Vec::with_capacity(h.blocks);
    let mut next = 0u64;
    for e in index.chunks_exact(ENTRY) {
        let entry = Entry {
            offset: u64_at(e, 0),
            len: u32_at(e, 8),
            crc: u32_at(e, 12),
        };
        if entry.offset != next {
            return Err(format!("block {} misplaced in the index", entries.len()));
        }
        next += u64::from(entry.len);
        entries.push(entry);
    }
    if next != data {
        return Err(format!("{data} bytes of blocks, the index says {next}"));
    }
    Ok(entries)
}

/// The bytes of block `b` of `h`'s values, decoded from `packed` and checked.
fn unpack(h: &Header, b: usize, e: &Entry, packed: &[u8]) -> Result<Vec<u8>, String> {
    if crc(&[packed]) != e.crc {
        return Err(format!("checksum mismatch in block {b}"));
    }
    let len = (h.values * h.width - b * h.block_bytes).min(h.block_bytes);
    decompress(packed, len).map_err(|why| format!("block {b} does not decode ({why})"))
}

/// The values of a whole file `bytes`, every block checked.
pub(super) fn decode(
    class: Material,
    key: &[u8],
    expected: usize,
    bytes: &[u8],
) -> Result<Table, String> {
    let h = header(class, expected, bytes)?;
    let rest = &bytes[HEADER..];
    let need = h.blocks * ENTRY;
    let data = (rest.len() as u64).saturating_sub(need as u64);
    let entries = block_index(&h, bytes, key, rest, data)?;
    let blocks = &rest[need..];
    let parts: Vec<Vec<u8>> = entries
        .par_iter()
        .enumerate()
        .map(|(b, e)| {
            let at = e.offset as usize;
            unpack(&h, b, e, &blocks[at..at + e.len as usize])
        })
        .collect::<Result<_, _>>()?;
    let raw = parts.concat();
    Ok(if h.width == 1 {
        Table::Bytes(raw)
    } else {
        Table::Words(
            raw.chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect(),
        )
    })
}

/// A database file opened for look-ups: its header and block index read and checked, its
/// blocks read one at a time when asked.
#[derive(Debug)]
pub(super) struct ClassFile {
    path: PathBuf,
    file: Mutex<File>,
    header: Header,
    entries: Vec<Entry>,
    /// Where the first block begins.
    data: u64,
}

impl ClassFile {
    /// Opens the file at `path` of `class` with `expected` values.
    pub(super) fn open(
        path: &Path,
        class: Material,
        key: &[u8],
        expected: usize,
    ) -> std::io::Result<Result<ClassFile, String>> {
        let mut file = File::open(path)?;
        let len = file.metadata()?.len();
        let mut head = vec![0u8; HEADER];
        if len < HEADER as u64 {
            return Ok(Err(format!("{len} bytes, shorter than the header")));
        }
        file.read_exact(&mut head)?;
        let h = match header(class, expected, &head) {
            Ok(h) => h,
            Err(e) => return Ok(Err(e)),
        };
        let need = (h.blocks * ENTRY) as u64;
        if len < HEADER as u64 + need {
            return Ok(Err(format!("{len} bytes, shorter than the block index")));
        }
        let mut index = vec![0u8; h.blocks * ENTRY];
        file.read_exact(&mut index)?;
        let data = HEADER as u64 + need;
        let entries = match block_index(&h, &head, key, &index, len - data) {
            Ok(e) => e,
            Err(e) => return Ok(Err(e)),
        };
        Ok(Ok(ClassFile {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            header: h,
            entries,
            data,
        }))
    }

    /// The file's path.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// The header.
    pub(super) fn header(&self) -> &Header {
        &self.header
    }

    /// Values per block.
    pub(super) fn block_values(&self) -> usize {
        self.header.block_bytes / self.header.width
    }

    /// Reads and decodes block `b`: its values' bytes. An error says what is wrong (an I/O
    /// error, or a damaged block).
    pub(super) fn block(&self, b: usize) -> Result<Vec<u8>, String> {
        let e = self.entries.get(b).ok_or_else(|| format!("no block {b}"))?;
        let mut packed = vec![0u8; e.len as usize];
        {
            let mut file = self
                .file
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            file.seek(SeekFrom::Start(self.data + e.offset))
                .and_then(|_| file.read_exact(&mut packed))
                .map_err(|err| format!("block {b}: {err}"))?;
        }
        unpack(&self.header, b, e, &packed)
    }
}
