//! splitmix64, the one small generator behind the engine's random choices (self-play
//! openings, book randomness): reproducible from a seed, no dependency.

/// The state's step between two outputs.
pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The output for the state `s` (already advanced by `GAMMA`).
pub fn mix(s: u64) -> u64 {
    let mut z = (s ^ (s >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
