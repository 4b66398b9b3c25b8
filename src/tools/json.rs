//! Minimal JSON writing for one-object-per-line reports (no serde needed for flat records).

use std::fmt::Write;

/// A flat JSON object built field by field.
#[derive(Default)]
pub struct JsonObject {
    body: String,
}

/// Escapes a string for JSON.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
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
