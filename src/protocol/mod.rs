//! Text protocols: parsing one input line into a typed command, and formatting replies.
//!
//! Each protocol module knows its own text; the engine works with the typed values only.
//! Parse errors are values (never panics) that the engine turns into the protocol's error reply.

pub mod gtp;
pub mod io;
pub mod nboard;

use nom::IResult;
use nom::Parser;
use nom::bytes::complete::take_while1;
use nom::character::complete::{digit1, one_of, space0};
use nom::combinator::{all_consuming, opt, recognize};
use nom::sequence::delimited;

/// Fixed-point decimal with no exponent and no `-0.00` (GUIs parse numbers without exponent).
/// Non-finite values print as 0.
pub fn fixed(v: f64, decimals: usize) -> String {
    let v = if v.is_finite() { v } else { 0.0 };
    let s = format!("{v:.decimals$}");
    match s.strip_prefix('-') {
        Some(abs) if abs.bytes().all(|b| b == b'0' || b == b'.') => abs.to_string(),
        _ => s,
    }
}

/// One whitespace-free token.
pub(crate) fn token(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace()).parse(i)
}

/// An optionally signed decimal integer, as text.
pub(crate) fn integer_text(i: &str) -> IResult<&str, &str> {
    recognize((opt(one_of("+-")), digit1)).parse(i)
}

/// Parses the whole of `args` (surrounding blanks allowed) with `p`.
pub(crate) fn whole<'a, O>(args: &'a str, p: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>) -> Option<O> {
    all_consuming(delimited(space0, p, space0))
        .parse(args.trim())
        .ok()
        .map(|(_, o)| o)
}

/// A whole-argument integer of type `T`.
pub(crate) fn whole_int<T: std::str::FromStr>(args: &str) -> Option<T> {
    whole(args, integer_text).and_then(|t| t.strip_prefix('+').unwrap_or(t).parse().ok())
}

/// The risk-aware style's setting (NBoard `set risk`, GTP `oxello-risk`): a confidence 1-99
/// in percent, or 0 / `off` for the ordinary search (Some(None)); None when malformed.
pub(crate) fn risk_confidence(args: &str) -> Option<Option<u32>> {
    if args.trim().eq_ignore_ascii_case("off") {
        return Some(None);
    }
    match whole_int::<u32>(args)? {
        0 => Some(None),
        c if c <= 99 => Some(Some(c)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn risk_settings() {
        assert_eq!(risk_confidence("95"), Some(Some(95)));
        assert_eq!(risk_confidence(" 5 "), Some(Some(5)));
        assert_eq!(risk_confidence("0"), Some(None));
        assert_eq!(risk_confidence("OFF"), Some(None));
        for bad in ["100", "-5", "x", "", "50%", "5 5"] {
            assert_eq!(risk_confidence(bad), None, "{bad}");
        }
    }

    #[test]
    fn fixed_point_never_uses_exponents() {
        assert_eq!(fixed(1.5, 2), "1.50");
        assert_eq!(fixed(1e-7, 3), "0.000");
        assert_eq!(fixed(-0.001, 2), "0.00");
        assert_eq!(fixed(-1.005, 1), "-1.0");
        assert_eq!(fixed(1e20, 2), "100000000000000000000.00");
        assert_eq!(fixed(f64::NAN, 2), "0.00");
    }

    /// Random mutations of valid lines and random text: every parser returns, none panics.
    #[test]
    fn parsers_never_panic() {
        let seeds = [
            "set game (;GM[Othello]PC[NBoard]TI[05:00//02:00]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//2.449]W[pa/1e-3/2.7680000000000002];)",
            "move d6 -1.00 0.0",
            "ping 123",
            "12 play B d3",
            "time_left w 1:00 0",
        ];
        let alphabet: Vec<char> = "()[];/\\:.-+*#0123456789 \tabcdefghOXpPAS\u{e9}\u{0}".chars().collect();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut rand = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for round in 0..20_000 {
            let seed = seeds[round % seeds.len()];
            let mut chars: Vec<char> = seed.chars().collect();
            for _ in 0..1 + rand(4) {
                let c = alphabet[rand(alphabet.len())];
                match rand(3) {
                    0 if !chars.is_empty() => {
                        let i = rand(chars.len());
                        chars[i] = c;
                    }
                    1 if !chars.is_empty() => {
                        chars.truncate(rand(chars.len()));
                    }
                    _ => chars.insert(rand(chars.len() + 1), c),
                }
            }
            let line: String = chars.into_iter().collect();
            let _ = nboard::parse(&line);
            let _ = gtp::parse(&line);
            let _ = crate::ggf::GgfGame::parse(line.trim_start_matches("set game "));
        }
    }

    #[test]
    fn argument_helpers() {
        assert_eq!(whole_int::<u32>(" 12 "), Some(12));
        assert_eq!(whole_int::<u32>("+12"), Some(12));
        assert_eq!(whole_int::<i32>("-100"), Some(-100));
        assert_eq!(whole_int::<u32>("-1"), None);
        assert_eq!(whole_int::<u32>("12 x"), None);
        assert_eq!(whole_int::<u32>(""), None);
        assert_eq!(whole_int::<u8>("300"), None);
        assert_eq!(token("ab cd"), Ok((" cd", "ab")));
    }
}
