//! The bytes of Edax's binary book (`book save` / `book load` in Edax 4.x), read and written
//! field by field, little-endian, with no interpretation beyond the record structure: what
//! the fields mean is `super`'s business. Reading then writing gives the same bytes.
//!
//! ```text
//! header (42 bytes)
//!   "XADE" "KOOB"        two u32 tags (EDAX, BOOK)
//!   version u8, release u8
//!   date: year i16, month, day, hour, minute, second u8, one padding byte
//!   level, empties, midgame error, endcut error, verbosity: 5 x i32
//!   number of positions i32
//! position (42 + 2 x links bytes), repeated to the end of the file
//!   player u64, opponent u64  (player = side to move; bit 0 = a1, bit 63 = h8)
//!   wins, draws, losses, lines: 4 x u32  (game statistics of the lines through it)
//!   value, lower, upper: 3 x i16
//!   links u8, level u8
//!   links x (score i8, move u8)  moves into the book
//!   leaf (score i8, move u8)     best move leaving the book (move 65: none)
//! ```

pub const TAGS: [u8; 8] = *b"XADEKOOB";
pub const HEADER_BYTES: usize = 42;
const RECORD_BYTES: usize = 42;

/// A move as Edax stores it: 0..63 = a1..h8, 64 = pass, 65 = none.
pub const PASS: u8 = 64;
pub const NO_MOVE: u8 = 65;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Header {
    pub version: u8,
    pub release: u8,
    /// Date of the save (local time of the saving machine) with its padding byte, as stored.
    pub date: [u8; 8],
    pub level: i32,
    pub empties: i32,
    pub midgame_error: i32,
    pub endcut_error: i32,
    pub verbosity: i32,
    pub count: i32,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Link {
    pub score: i8,
    pub mv: u8,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    pub player: u64,
    pub opponent: u64,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub lines: u32,
    pub value: i16,
    pub lower: i16,
    pub upper: i16,
    pub level: u8,
    pub links: Vec<Link>,
    pub leaf: Link,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EdaxFile {
    pub header: Header,
    pub records: Vec<Record>,
}

/// A structural problem; `record` is 1-based, None for the header.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FormatError {
    pub record: Option<usize>,
    pub offset: usize,
    pub problem: String,
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let end = self.pos.checked_add(N)?;
        let slice = self.bytes.get(self.pos..end)?;
        self.pos = end;
        slice.try_into().ok()
    }
    fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|b| b[0])
    }
    fn i8(&mut self) -> Option<i8> {
        self.take::<1>().map(i8::from_le_bytes)
    }
    fn i16(&mut self) -> Option<i16> {
        self.take().map(i16::from_le_bytes)
    }
    fn i32(&mut self) -> Option<i32> {
        self.take().map(i32::from_le_bytes)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }
    fn link(&mut self) -> Option<Link> {
        Some(Link {
            score: self.i8()?,
            mv: self.u8()?,
        })
    }
}

fn read_header(r: &mut Reader) -> Result<Header, FormatError> {
    let err = |problem: String| FormatError {
        record: None,
        offset: 0,
        problem,
    };
    let short = || err(format!("truncated header ({} bytes, expected {HEADER_BYTES})", r.bytes.len()));
    if r.bytes.len() < HEADER_BYTES {
        return Err(if r.bytes.len() >= 8 && r.bytes[..8] != TAGS {
            err("not an Edax book (the file does not start with XADEKOOB)".into())
        } else {
            short()
        });
    }
    if r.take::<8>() != Some(TAGS) {
        return Err(err("not an Edax book (the file does not start with XADEKOOB)".into()));
    }
    let header = (|| {
        Some(Header {
            version: r.u8()?,
            release: r.u8()?,
            date: r.take()?,
            level: r.i32()?,
            empties: r.i32()?,
            midgame_error: r.i32()?,
            endcut_error: r.i32()?,
            verbosity: r.i32()?,
            count: r.i32()?,
        })
    })()
    .ok_or_else(short)?;
    if header.version != 4 {
        return Err(err(format!(
            "Edax book version {}.{} (this build reads version 4 books, as Edax 4.x writes)",
            header.version, header.release
        )));
    }
    Ok(header)
}

impl EdaxFile {
    /// Reads the header and every record; fails on a wrong header, a truncated record or a
    /// position count that does not match the header.
    pub fn parse(bytes: &[u8]) -> Result<EdaxFile, FormatError> {
        let mut r = Reader { bytes, pos: 0 };
        let header = read_header(&mut r)?;
        let mut records = Vec::new();
        while r.pos < bytes.len() {
            let start = r.pos;
            let n = records.len() + 1;
            let record = read_record(&mut r).ok_or_else(|| FormatError {
                record: Some(n),
                offset: start,
                problem: format!("truncated position ({} bytes left)", bytes.len() - start),
            })?;
            records.push(record);
        }
        if usize::try_from(header.count).ok() != Some(records.len()) {
            return Err(FormatError {
                record: None,
                offset: 0,
                problem: format!(
                    "the header counts {} positions, the file holds {}",
                    header.count,
                    records.len()
                ),
            });
        }
        Ok(EdaxFile { header, records })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let links: usize = self.records.iter().map(|r| r.links.len()).sum();
        let mut out = Vec::with_capacity(HEADER_BYTES + RECORD_BYTES * self.records.len() + 2 * links);
        let h = &self.header;
        out.extend_from_slice(&TAGS);
        out.push(h.version);
        out.push(h.release);
        out.extend_from_slice(&h.date);
        for v in [h.level, h.empties, h.midgame_error, h.endcut_error, h.verbosity, h.count] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for r in &self.records {
            out.extend_from_slice(&r.player.to_le_bytes());
            out.extend_from_slice(&r.opponent.to_le_bytes());
            for v in [r.wins, r.draws, r.losses, r.lines] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            for v in [r.value, r.lower, r.upper] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            // At most 33 legal moves: a record from `super` never has more than 255 links.
            out.push(u8::try_from(r.links.len()).unwrap_or(u8::MAX));
            out.push(r.level);
            for l in r.links.iter().take(255).chain(std::iter::once(&r.leaf)) {
                out.extend_from_slice(&l.score.to_le_bytes());
                out.push(l.mv);
            }
        }
        out
    }
}

fn read_record(r: &mut Reader) -> Option<Record> {
    let player = r.u64()?;
    let opponent = r.u64()?;
    let (wins, draws, losses, lines) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
    let (value, lower, upper) = (r.i16()?, r.i16()?, r.i16()?);
    let n_links = r.u8()?;
    let level = r.u8()?;
    let links = (0..n_links).map(|_| r.link()).collect::<Option<Vec<_>>>()?;
    let leaf = r.link()?;
    Some(Record {
        player,
        opponent,
        wins,
        draws,
        losses,
        lines,
        value,
        lower,
        upper,
        level,
        links,
        leaf,
    })
}
