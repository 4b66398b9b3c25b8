//! The order in which Edax saves a book: by bucket of its hash table, whose index is the low
//! bits of a CRC-32C of the board (Castagnoli polynomial, no pre- or post-inversion, as the
//! SSE 4.2 `crc32` instruction computes it). Within a bucket Edax keeps insertion order, which
//! a book file does not record: there the export sorts by board.

use super::format::Record;

const POLY: u32 = 0x82F6_3B78;

const fn table() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { (c >> 1) ^ POLY } else { c >> 1 };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
}

const TABLE: [u32; 256] = table();

/// CRC-32C of the 8 little-endian bytes of `data`, continuing from `crc`.
fn crc32c_u64(mut crc: u32, data: u64) -> u32 {
    for byte in data.to_le_bytes() {
        crc = TABLE[((crc ^ u32::from(byte)) & 0xff) as usize] ^ (crc >> 8);
    }
    crc
}

/// Edax's hash of a board (player, opponent).
pub fn hash(player: u64, opponent: u64) -> u64 {
    let crc = crc32c_u64(0, player);
    (u64::from(crc) << 32) | u64::from(crc32c_u64(crc, opponent))
}

/// The bucket of a record in the table of a book of `positions` positions just loaded.
pub fn bucket(r: &Record, positions: usize) -> u64 {
    let mut buckets: u64 = 65_536;
    while (buckets << 4) < positions as u64 {
        buckets <<= 1;
    }
    hash(r.player, r.opponent) & (buckets - 1)
}

/// Sorts records as Edax saves a book of that many positions after loading it.
pub fn sort(records: &mut [Record]) {
    let n = records.len();
    records.sort_by_key(|r| (bucket(r, n), r.player, r.opponent));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32c_matches_the_standard_check_value_without_inversions() {
        // CRC-32C("123456789") = 0xE3069283 with inversions on both ends.
        let mut crc = !0u32;
        for byte in b"123456789" {
            crc = TABLE[((crc ^ u32::from(*byte)) & 0xff) as usize] ^ (crc >> 8);
        }
        assert_eq!(!crc, 0xE306_9283);
    }
}
