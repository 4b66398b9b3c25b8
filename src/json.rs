//! The crate's one JSON module: the value type, the parser (bounded nesting: bodies come from
//! outside) and the writer the page and the server exchange (`oxello serve`), and the flat
//! one-object-per-line builder the reports use (`--json` of solve, analyze, bench,
//! probcut-report). One string writer escapes for both. Small enough that a dependency would
//! be the bigger thing to review.

use std::fmt::{self, Write};

/// A JSON value; objects keep their keys in order (the writer prints them as built).
#[derive(Clone, PartialEq, Debug)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

/// Deeper nesting is refused: the parser recurses, and no request of ours nests at all.
const MAX_DEPTH: usize = 16;

impl Json {
    /// An object from `(key, value)` pairs.
    pub fn obj<const N: usize>(fields: [(&str, Json); N]) -> Json {
        Json::Obj(fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    pub fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into())
    }

    /// A field of an object (None for other values and missing keys).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Num(n) => Some(*n),
            _ => None,
        }
    }

    pub fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser {
            s: text.as_bytes(),
            at: 0,
        };
        let v = p.value(0)?;
        p.blank();
        if p.at != p.s.len() {
            return Err(p.error("text after the value"));
        }
        Ok(v)
    }
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        format!("bad JSON at byte {}: {what}", self.at)
    }

    fn blank(&mut self) {
        while self.s.get(self.at).is_some_and(|b| b" \t\r\n".contains(b)) {
            self.at += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.blank();
        let hit = self.s.get(self.at) == Some(&b);
        self.at += usize::from(hit);
        hit
    }

    fn literal(&mut self, word: &str, v: Json) -> Result<Json, String> {
        if self.s[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(v)
        } else {
            Err(self.error("unknown word"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.blank();
        match self.s.get(self.at) {
            None => Err(self.error("unexpected end")),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value(depth + 1)?);
                        if self.eat(b']') {
                            break;
                        }
                        if !self.eat(b',') {
                            return Err(self.error("expected ',' or ']'"));
                        }
                    }
                }
                Ok(Json::Arr(items))
            }
            Some(b'{') => {
                self.at += 1;
                let mut fields = Vec::new();
                if !self.eat(b'}') {
                    loop {
                        self.blank();
                        if self.s.get(self.at) != Some(&b'"') {
                            return Err(self.error("expected a key"));
                        }
                        let key = self.string()?;
                        if !self.eat(b':') {
                            return Err(self.error("expected ':'"));
                        }
                        fields.push((key, self.value(depth + 1)?));
                        if self.eat(b'}') {
                            break;
                        }
                        if !self.eat(b',') {
                            return Err(self.error("expected ',' or '}'"));
                        }
                    }
                }
                Ok(Json::Obj(fields))
            }
            Some(_) => self.number(),
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.at;
        while self.s.get(self.at).is_some_and(|b| b"+-.eE0123456789".contains(b)) {
            self.at += 1;
        }
        std::str::from_utf8(&self.s[start..self.at])
            .ok()
            .filter(|t| !t.is_empty() && !t.starts_with('+'))
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|n| n.is_finite())
            .map(Json::Num)
            .ok_or_else(|| self.error("expected a value"))
    }

    /// A string; the cursor is on its opening quote.
    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while self.s.get(self.at).is_some_and(|&b| b != b'"' && b != b'\\' && b >= 0x20) {
                self.at += 1;
            }
            // The input is a &str and the run stops at ASCII bytes: always a whole UTF-8 run.
            out += std::str::from_utf8(&self.s[start..self.at]).map_err(|_| self.error("bad UTF-8"))?;
            match self.s.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let c = match self.s.get(self.at + 1) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let hex = self.s.get(self.at + 2..self.at + 6).and_then(|h| std::str::from_utf8(h).ok());
                            let code = hex.and_then(|h| u32::from_str_radix(h, 16).ok());
                            self.at += 4;
                            // Surrogate pairs are not needed by our requests: they read as U+FFFD.
                            code.map(|c| char::from_u32(c).unwrap_or('\u{fffd}'))
                                .ok_or_else(|| self.error("bad \\u escape"))?
                        }
                        _ => return Err(self.error("bad escape")),
                    };
                    out.push(c);
                    self.at += 2;
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }
}

/// Writes `s` as a JSON string. `<` is escaped too, so that no `</script>` can appear in JSON
/// inside a page; control characters as `\uXXXX`.
fn write_str(f: &mut impl Write, s: &str) -> fmt::Result {
    f.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if c < ' ' || c == '<' => write!(f, "\\u{:04x}", c as u32)?,
            c => f.write_char(c)?,
        }
    }
    f.write_char('"')
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Num(n) if n.is_finite() => write!(f, "{n}"),
            Json::Num(_) => f.write_str("null"),
            Json::Str(s) => write_str(f, s),
            Json::Arr(items) => {
                f.write_char('[')?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_char(']')
            }
            Json::Obj(fields) => {
                f.write_char('{')?;
                for (i, (k, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write_str(f, k)?;
                    write!(f, ":{v}")?;
                }
                f.write_char('}')
            }
        }
    }
}

/// A flat JSON object built field by field.
#[derive(Default)]
pub struct JsonObject {
    body: String,
}

/// `s` as a JSON string (quotes included).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    // Writing to a String cannot fail.
    let _ = write_str(&mut out, s);
    out
}

impl JsonObject {
    pub fn new() -> JsonObject {
        JsonObject::default()
    }

    fn key(&mut self, k: &str) {
        if !self.body.is_empty() {
            self.body.push(',');
        }
        self.body.push_str(&escape(k));
        self.body.push(':');
    }

    pub fn str(mut self, k: &str, v: &str) -> Self {
        self.key(k);
        self.body.push_str(&escape(v));
        self
    }

    pub fn int(mut self, k: &str, v: i64) -> Self {
        self.key(k);
        let _ = write!(self.body, "{v}");
        self
    }

    pub fn opt_int(self, k: &str, v: Option<i64>) -> Self {
        match v {
            Some(v) => self.int(k, v),
            None => self.raw(k, "null"),
        }
    }

    /// A float in plain decimal notation (never an exponent).
    pub fn float(mut self, k: &str, v: f64, decimals: usize) -> Self {
        self.key(k);
        if v.is_finite() {
            let _ = write!(self.body, "{v:.decimals$}");
        } else {
            self.body.push_str("null");
        }
        self
    }

    pub fn bool(self, k: &str, v: bool) -> Self {
        self.raw(k, if v { "true" } else { "false" })
    }

    pub fn raw(mut self, k: &str, v: &str) -> Self {
        self.key(k);
        self.body.push_str(v);
        self
    }

    pub fn finish(self) -> String {
        format!("{{{}}}", self.body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_back_as_written() {
        let v = Json::obj([
            ("moves", Json::str("f5d6")),
            ("level", Json::Num(12.0)),
            ("score", Json::Num(-1.5)),
            ("ok", Json::Bool(true)),
            ("none", Json::Null),
            ("text", Json::str("a \"quote\"\n\\ é </script>")),
            ("list", Json::Arr(vec![Json::Num(1.0), Json::Arr(vec![])])),
        ]);
        let text = v.to_string();
        assert!(!text.contains("</"), "{text}");
        assert_eq!(Json::parse(&text), Ok(v));
        let spaced = Json::parse(" { \"a\" : [ 1 , 2e1 ] , \"b\":\"\\u00e9\\t\" } ").expect("valid");
        assert_eq!(spaced.get("a"), Some(&Json::Arr(vec![Json::Num(1.0), Json::Num(20.0)])));
        assert_eq!(spaced.get("b").and_then(Json::as_str), Some("é\t"));
    }

    #[test]
    fn bad_json_is_an_error_not_a_panic() {
        let deep = "[".repeat(10_000);
        for bad in [
            "",
            "{",
            "{\"a\"}",
            "{\"a\":}",
            "[1,]",
            "nul",
            "tru",
            "\"abc",
            "\"\\x\"",
            "\"\\u12\"",
            "1 2",
            "{a:1}",
            "+1",
            "1e999",
            "\"\u{1}\"",
            &deep,
            "{\"a\":1,}",
            "[1 2]",
            "-",
            ".",
        ] {
            assert!(Json::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn writes_flat_objects() {
        let s = JsonObject::new()
            .int("a", 1)
            .str("b", "x\"y")
            .float("c", 0.00001, 3)
            .opt_int("d", None)
            .bool("e", true)
            .finish();
        assert_eq!(s, r#"{"a":1,"b":"x\"y","c":0.000,"d":null,"e":true}"#);
    }
}
