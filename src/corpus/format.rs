//! The shard file: one chunk of one generator run's games, written whole and never changed.
//!
//! Little-endian throughout:
//! ```text
//! magic "OXCS", u32 version (4: packed; 1–3 plain: 1, 2 when a game has deep siblings,
//! 3 when one has walks)
//! u32 header length H, then H bytes of UTF-8 header text: `key=value` lines (ShardHeader)
//! u32 game count G, then in version 4 the G games packed by the range coder (`packed.rs`),
//! up to the checksum; in versions 1–3 the G games plain:
//!   u32 index (the game's number in its run)
//!   u8 start kind (0 random, 1 XOT, 2 a given line, 3 an openings file), u8 opening plies,
//!   u32 start id (the line of the start's source file, 0 for random starts)
//!   u8 move count N (≤ 60), N squares (u8, a1 = 0 … h8 = 63; passes left out)
//!   i8 result (Black's final disc difference)
//!   u8 first position of perfect play (255: none)
//!   u8 search-label count S, S × i8 (positions 0..S, the mover's view)
//!   u8 deep-label count D, D × (u8 position, u8 depth, u8 selectivity %, i8 value)
//!   u16 sibling count B, B × (u8 position, u8 square, i8 exact value of the child)
//!   version 2 only: u16 deep-sibling count K, K × (u8 position, u8 square, u8 depth,
//!   u8 selectivity %, i8 value of the child from its mover's view)
//!   version 3 only: u16 walk count W, W × (u8 position, u8 move count M, M squares (passes
//!   left out), i8 exact value of the position reached, from its mover's view)
//! u32 FNV-1a of every byte before it
//! ```
//! Plain, a game record takes about 2 bytes a position (4.6 with deep siblings); packed, about a
//! fifth of that. Reading checks the magic, the version, every
//! length against the bytes left, the checksum, and replays every game (`GameRecord::replay`);
//! any failure is an error naming the file and what is wrong.

use super::game::{DeepLabel, DeepSibling, GameRecord, Sibling, Start, StartKind, Walk};
use crate::eval::weights::fnv1a;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 4] = b"OXCS";
/// Shards are written packed (version 4). The plain layout (versions 1–3: version 1 has no deep
/// siblings, version 2 no walks) is still read, and written only for games that do not replay
/// (which no reader accepts either), in the lowest version that holds them.
const VERSION: u32 = 4;
pub const PACKED: u32 = 4;

/// A corpus file that cannot be used, and why.
#[derive(Debug)]
pub struct CorpusError {
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for CorpusError {}

/// The settings of the run a shard belongs to, as `key=value` text. `run`, `chunk` and
/// `chunk_games` place the shard; the rest say how its games were played and labelled
/// (`search_depth`, `selectivity`, `exact`, `start`, …) and by what (`eval`, `oxello`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShardHeader {
    pub fields: BTreeMap<String, String>,
}

impl ShardHeader {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields.get(key).map(String::as_str)
    }

    pub fn set(&mut self, key: &str, value: impl ToString) {
        self.fields.insert(key.to_string(), value.to_string());
    }

    pub fn number(&self, key: &str) -> Option<u64> {
        self.get(key).and_then(|v| v.parse().ok())
    }

    fn text(&self) -> String {
        self.fields.iter().map(|(k, v)| format!("{k}={v}\n")).collect()
    }

    fn parse(text: &str) -> Result<ShardHeader, String> {
        let mut h = ShardHeader::default();
        for line in text.lines().filter(|l| !l.is_empty()) {
            let (k, v) = line
                .split_once('=')
                .ok_or_else(|| format!("header line '{line}' is not key=value"))?;
            h.set(k, v);
        }
        for key in ["run", "chunk", "chunk_games"] {
            if h.get(key).is_none() {
                return Err(format!("header has no '{key}'"));
            }
        }
        Ok(h)
    }
}

/// A shard: its header and games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub header: ShardHeader,
    pub games: Vec<GameRecord>,
}

impl Shard {
    pub fn run(&self) -> &str {
        self.header.get("run").unwrap_or("")
    }

    pub fn chunk(&self) -> u64 {
        self.header.number("chunk").unwrap_or(0)
    }

    /// The shard's bytes: packed (version 4).
    pub fn encode(&self) -> Vec<u8> {
        match super::packed::encode(&self.games) {
            Some(packed) => self.with_games(PACKED, |b| b.extend_from_slice(&packed)),
            None => self.encode_plain(),
        }
    }

    /// The shard's bytes in the plain layout of versions 1–3, in the lowest version that holds
    /// its games (what builds before the packed format wrote).
    pub fn encode_plain(&self) -> Vec<u8> {
        let version: u32 = if self.games.iter().any(|g| !g.walks.is_empty()) {
            3
        } else if self.games.iter().any(|g| !g.deep_siblings.is_empty()) {
            2
        } else {
            1
        };
        self.with_games(version, |b| {
            for g in &self.games {
                encode_game(g, version, b);
            }
        })
    }

    /// Magic, version, header and game count, the games as `games` writes them, checksum.
    fn with_games(&self, version: u32, games: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + self.games.len() * 140);
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&version.to_le_bytes());
        let text = self.header.text();
        b.extend_from_slice(&(text.len() as u32).to_le_bytes());
        b.extend_from_slice(text.as_bytes());
        b.extend_from_slice(&(self.games.len() as u32).to_le_bytes());
        games(&mut b);
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// The format version of a shard's bytes (None: not a shard).
    pub fn version_of(bytes: &[u8]) -> Option<u32> {
        (bytes.len() >= 8 && &bytes[..4] == MAGIC).then(|| u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]))
    }

    /// Reads a shard's bytes; `path` names the file in errors.
    pub fn decode(bytes: &[u8], path: &Path) -> Result<Shard, CorpusError> {
        let err = |message: String| CorpusError {
            path: path.to_path_buf(),
            message,
        };
        if bytes.len() < 16 || &bytes[..4] != MAGIC {
            return Err(err("not an oxello corpus shard (no OXCS magic)".into()));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 4);
        let mut r = Reader { bytes: body, at: 4 };
        let version = r.u32().map_err(&err)?;
        if !(1..=VERSION).contains(&version) {
            return Err(err(format!("format version {version}, this build reads 1 to {VERSION}")));
        }
        let stored = u32::from_le_bytes([sum[0], sum[1], sum[2], sum[3]]);
        if fnv1a(body) != stored {
            return Err(err(format!(
                "checksum mismatch ({} bytes): the file is truncated or corrupt",
                bytes.len()
            )));
        }
        let len = r.u32().map_err(&err)? as usize;
        let text = std::str::from_utf8(r.take(len).map_err(&err)?).map_err(|_| err("header is not UTF-8".into()))?;
        let header = ShardHeader::parse(text).map_err(&err)?;
        let count = r.u32().map_err(&err)? as usize;
        let games = if version == PACKED {
            super::packed::decode(&body[r.at..], count).map_err(&err)?
        } else {
            let mut games = Vec::with_capacity(count.min(body.len() / 8));
            for k in 0..count {
                games.push(decode_game(&mut r, version).map_err(|m| err(format!("game {} of {count}: {m}", k + 1)))?);
            }
            if r.at != body.len() {
                return Err(err(format!("{} bytes after the last game", body.len() - r.at)));
            }
            games
        };
        for (k, g) in games.iter().enumerate() {
            g.replay()
                .map_err(|m| err(format!("game {} (number {}): {m}", k + 1, g.index)))?;
        }
        Ok(Shard { header, games })
    }

    /// Reads a shard file.
    pub fn load(path: &Path) -> Result<Shard, CorpusError> {
        let bytes = std::fs::read(path).map_err(|e| CorpusError {
            path: path.to_path_buf(),
            message: format!("cannot read: {e}"),
        })?;
        Shard::decode(&bytes, path)
    }

    /// Writes the shard to `path` whole or not at all: a temporary file beside it, synced,
    /// then renamed into place (a killed writer leaves at most a `.tmp` file, which readers
    /// ignore and the generator removes).
    pub fn save(&self, path: &Path) -> Result<(), CorpusError> {
        let err = |e: std::io::Error| CorpusError {
            path: path.to_path_buf(),
            message: format!("cannot write: {e}"),
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        let tmp = path.with_extension(format!("oxc.{}.tmp", std::process::id()));
        {
            use std::io::Write;
            let mut f = std::fs::File::create(&tmp).map_err(err)?;
            f.write_all(&self.encode()).map_err(err)?;
            f.sync_all().map_err(err)?;
        }
        std::fs::rename(&tmp, path).map_err(err)?;
        if let Some(dir) = path.parent()
            && let Ok(d) = std::fs::File::open(dir)
        {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

fn encode_game(g: &GameRecord, version: u32, b: &mut Vec<u8>) {
    b.extend_from_slice(&g.index.to_le_bytes());
    b.push(g.start.kind.code());
    b.push(g.start.plies);
    b.extend_from_slice(&g.start.id.to_le_bytes());
    b.push(g.moves.len() as u8);
    b.extend_from_slice(&g.moves);
    b.push(g.result as u8);
    b.push(g.exact_from.unwrap_or(255));
    b.push(g.search.len() as u8);
    b.extend(g.search.iter().map(|&v| v as u8));
    b.push(g.deep.len() as u8);
    for d in &g.deep {
        b.extend_from_slice(&[d.position, d.depth, d.selectivity, d.value as u8]);
    }
    b.extend_from_slice(&(g.siblings.len() as u16).to_le_bytes());
    for s in &g.siblings {
        b.extend_from_slice(&[s.position, s.square, s.value as u8]);
    }
    if version >= 2 {
        b.extend_from_slice(&(g.deep_siblings.len() as u16).to_le_bytes());
        for s in &g.deep_siblings {
            b.extend_from_slice(&[s.position, s.square, s.depth, s.selectivity, s.value as u8]);
        }
    }
    if version >= 3 {
        b.extend_from_slice(&(g.walks.len() as u16).to_le_bytes());
        for w in &g.walks {
            b.extend_from_slice(&[w.position, w.moves.len() as u8]);
            b.extend_from_slice(&w.moves);
            b.push(w.value as u8);
        }
    }
}

fn decode_game(r: &mut Reader, version: u32) -> Result<GameRecord, String> {
    let index = r.u32()?;
    let kind = r.u8()?;
    let kind = StartKind::from_code(kind).ok_or_else(|| format!("unknown start kind {kind}"))?;
    let plies = r.u8()?;
    let id = r.u32()?;
    let n = r.u8()? as usize;
    if n > 60 {
        return Err(format!("{n} moves (at most 60)"));
    }
    let moves = r.take(n)?.to_vec();
    let result = r.u8()? as i8;
    let exact_from = Some(r.u8()?).filter(|&e| e != 255);
    let s = r.u8()? as usize;
    let search = r.take(s)?.iter().map(|&v| v as i8).collect();
    let d = r.u8()? as usize;
    let deep = r
        .take(4 * d)?
        .chunks_exact(4)
        .map(|c| DeepLabel {
            position: c[0],
            depth: c[1],
            selectivity: c[2],
            value: c[3] as i8,
        })
        .collect();
    let sb = r.u16()? as usize;
    let siblings = r
        .take(3 * sb)?
        .chunks_exact(3)
        .map(|c| Sibling {
            position: c[0],
            square: c[1],
            value: c[2] as i8,
        })
        .collect();
    let deep_siblings = if version >= 2 {
        let k = r.u16()? as usize;
        r.take(5 * k)?
            .chunks_exact(5)
            .map(|c| DeepSibling {
                position: c[0],
                square: c[1],
                depth: c[2],
                selectivity: c[3],
                value: c[4] as i8,
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut walks = Vec::new();
    if version >= 3 {
        let k = r.u16()? as usize;
        for _ in 0..k {
            let position = r.u8()?;
            let m = r.u8()? as usize;
            if m > 60 {
                return Err(format!("a walk of {m} moves (at most 60)"));
            }
            let moves = r.take(m)?.to_vec();
            let value = r.u8()? as i8;
            walks.push(Walk { position, moves, value });
        }
    }
    Ok(GameRecord {
        index,
        start: Start { kind, plies, id },
        moves,
        result,
        exact_from,
        search,
        deep,
        siblings,
        deep_siblings,
        walks,
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(format!("{n} bytes wanted at offset {}, the file ends first", self.at));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}
