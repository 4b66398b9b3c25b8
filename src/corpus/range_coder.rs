//! An adaptive binary range coder (the scheme of LZMA's: 11-bit probabilities that follow the
//! bits they code) and the symbol models built on it: bit trees over small alphabets, one per
//! context, and integers of any size. The corpus's packed shards (`packed.rs`) code every field
//! of a game with it, each in a context where it is nearly predictable, so a field that is
//! almost always the same costs a small fraction of a bit.
//!
//! Decoding never panics on bad input: bytes past the end read as zero, and every caller
//! bounds its loops by counts it checks; a damaged stream decodes to garbage that the shard's
//! checksum and replay then reject.

const PROB_BITS: u32 = 11;
const PROB_ONE: u16 = 1 << PROB_BITS;
/// How fast a probability follows its bits: a 32nd of the distance a bit.
const ADAPT: u32 = 5;
const TOP: u32 = 1 << 24;

/// The probability that the next bit of one context is 0, in 1/2048.
#[derive(Clone, Copy)]
pub struct Bit(u16);

impl Default for Bit {
    fn default() -> Bit {
        Bit(PROB_ONE / 2)
    }
}

pub struct Encoder {
    low: u64,
    range: u32,
    cache: u8,
    cache_size: u64,
    out: Vec<u8>,
}

impl Default for Encoder {
    fn default() -> Encoder {
        Encoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            cache_size: 1,
            out: Vec::new(),
        }
    }
}

impl Encoder {
    pub fn bit(&mut self, p: &mut Bit, bit: bool) {
        let bound = (self.range >> PROB_BITS) * p.0 as u32;
        if bit {
            self.low += bound as u64;
            self.range -= bound;
            p.0 -= p.0 >> ADAPT;
        } else {
            self.range = bound;
            p.0 += (PROB_ONE - p.0) >> ADAPT;
        }
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    /// Emits the top byte of `low` once no carry can reach it any more.
    fn shift_low(&mut self) {
        if (self.low as u32) < 0xFF00_0000 || self.low >> 32 != 0 {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            loop {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xFF;
                self.cache_size -= 1;
                if self.cache_size == 0 {
                    break;
                }
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.cache_size += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    pub fn finish(mut self) -> Vec<u8> {
        for _ in 0..5 {
            self.shift_low();
        }
        self.out
    }
}

pub struct Decoder<'a> {
    bytes: &'a [u8],
    at: usize,
    range: u32,
    code: u32,
}

impl<'a> Decoder<'a> {
    pub fn new(bytes: &'a [u8]) -> Decoder<'a> {
        let mut d = Decoder {
            bytes,
            at: 0,
            range: u32::MAX,
            code: 0,
        };
        // The encoder's first byte is always its initial cache, 0.
        for _ in 0..5 {
            d.code = d.code << 8 | d.next() as u32;
        }
        d
    }

    fn next(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// Whether the stream was read past its end (a truncated or damaged stream).
    pub fn overran(&self) -> bool {
        self.at > self.bytes.len()
    }

    pub fn bit(&mut self, p: &mut Bit) -> bool {
        let bound = (self.range >> PROB_BITS) * p.0 as u32;
        let bit = if self.code < bound {
            self.range = bound;
            p.0 += (PROB_ONE - p.0) >> ADAPT;
            false
        } else {
            self.code -= bound;
            self.range -= bound;
            p.0 -= p.0 >> ADAPT;
            true
        };
        while self.range < TOP {
            self.range <<= 8;
            self.code = self.code << 8 | self.next() as u32;
        }
        bit
    }
}

/// Symbols of `BITS` bits, most significant first, each bit in the context of those above it.
#[derive(Clone)]
pub struct Tree<const BITS: u32> {
    probs: Vec<Bit>,
}

impl<const BITS: u32> Default for Tree<BITS> {
    fn default() -> Self {
        Tree {
            probs: vec![Bit::default(); 1 << BITS],
        }
    }
}

impl<const BITS: u32> Tree<BITS> {
    pub fn put(&mut self, e: &mut Encoder, symbol: u32) {
        let mut node = 1usize;
        for k in (0..BITS).rev() {
            let bit = symbol >> k & 1 == 1;
            e.bit(&mut self.probs[node], bit);
            node = node << 1 | bit as usize;
        }
    }

    pub fn get(&mut self, d: &mut Decoder) -> u32 {
        let mut node = 1usize;
        for _ in 0..BITS {
            let bit = d.bit(&mut self.probs[node]);
            node = node << 1 | bit as usize;
        }
        node as u32 - (1 << BITS)
    }
}

/// One tree per context.
pub struct Contexts<const BITS: u32> {
    trees: Vec<Tree<BITS>>,
}

impl<const BITS: u32> Contexts<BITS> {
    pub fn new(count: usize) -> Self {
        Contexts {
            trees: vec![Tree::default(); count],
        }
    }

    /// The tree of context `c` (the last one for any larger `c`).
    pub fn at(&mut self, c: usize) -> &mut Tree<BITS> {
        let last = self.trees.len() - 1;
        &mut self.trees[c.min(last)]
    }
}

/// Unsigned integers up to 32 bits: the bit length by a tree, the bits below the leading one
/// each in the context of its place (sizes vary, the low bits are near random).
#[derive(Default)]
pub struct Uint {
    length: Tree<6>,
    bits: [Bit; 32],
}

impl Uint {
    pub fn put(&mut self, e: &mut Encoder, v: u32) {
        let len = 32 - v.leading_zeros();
        self.length.put(e, len);
        for k in (0..len.saturating_sub(1)).rev() {
            e.bit(&mut self.bits[k as usize], v >> k & 1 == 1);
        }
    }

    /// None when the length read is over 32 (only a damaged stream gives one).
    pub fn get(&mut self, d: &mut Decoder) -> Option<u32> {
        let len = self.length.get(d);
        if len == 0 {
            return Some(0);
        }
        if len > 32 {
            return None;
        }
        let mut v = 1u32;
        for k in (0..len - 1).rev() {
            v = v << 1 | d.bit(&mut self.bits[k as usize]) as u32;
        }
        Some(v)
    }
}

/// A signed byte difference as an unsigned symbol, small magnitudes first: 0, −1, 1, −2, …
pub fn zigzag(d: i8) -> u32 {
    ((d as i32) << 1 ^ (d as i32) >> 7) as u8 as u32
}

pub fn unzigzag(z: u32) -> i8 {
    let z = z as u8;
    ((z >> 1) as i8) ^ -((z & 1) as i8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix;

    #[test]
    fn zigzag_is_a_bijection_on_bytes() {
        for d in i8::MIN..=i8::MAX {
            assert!(zigzag(d) < 256);
            assert_eq!(unzigzag(zigzag(d)), d);
        }
        assert_eq!((zigzag(0), zigzag(-1), zigzag(1), zigzag(-2)), (0, 1, 2, 3));
    }

    #[test]
    fn symbols_and_integers_come_back_and_skewed_data_shrinks() {
        let mut rng = SplitMix(7);
        let mut data = Vec::new();
        for i in 0..20_000u32 {
            // Mostly one symbol, sometimes any: a well-predicted field (entropy 1.6 bits).
            let s = if rng.below(10) == 0 { rng.below(256) as u32 } else { 3 };
            let n = match i % 3 {
                0 => 0,
                1 => rng.below(1000) as u32,
                _ => rng.next_u64() as u32,
            };
            data.push((s, n, (i % 4) as usize));
        }
        let (mut trees, mut ints) = (Contexts::<8>::new(3), Uint::default());
        let (mut e, mut f) = (Encoder::default(), Encoder::default());
        for &(s, n, c) in &data {
            trees.at(c).put(&mut e, s);
            ints.put(&mut f, n);
        }
        let (symbols, numbers) = (e.finish(), f.finish());
        let (mut trees, mut ints) = (Contexts::<8>::new(3), Uint::default());
        let (mut d, mut g) = (Decoder::new(&symbols), Decoder::new(&numbers));
        for &(s, n, c) in &data {
            assert_eq!(trees.at(c).get(&mut d), s);
            assert_eq!(ints.get(&mut g), Some(n));
        }
        assert!(!d.overran() && !g.overran());
        // 20,000 bytes raw; at most 2 bits a symbol.
        assert!(symbols.len() < 20_000 / 4, "{} bytes", symbols.len());
        // Zeros, 10-bit and 32-bit numbers: about 0.1 + 1.4 + 4.1 bytes a third.
        assert!(numbers.len() < 20_000 / 3 * 6, "{} bytes", numbers.len());
    }

    #[test]
    fn garbage_decodes_without_panicking() {
        let mut rng = SplitMix(3);
        for len in [0usize, 1, 4, 9, 100] {
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            let mut d = Decoder::new(&bytes);
            let (mut t, mut u) = (Tree::<6>::default(), Uint::default());
            for _ in 0..1000 {
                assert!(t.get(&mut d) < 64);
                let _ = u.get(&mut d);
            }
            assert!(d.overran() || len > 100);
        }
    }
}
