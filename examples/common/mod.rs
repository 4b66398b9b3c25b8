//! What the measurement examples share (each example includes this module).

use oxello::board::Board;
use oxello::search::request::{Pruning, SearchRequest};

/// A setting from the environment variable `name`, else `default`.
pub fn setting(name: &str, default: u32) -> u32 {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// The measurements' search of `b`: `depth` plies at 80 %.
#[allow(dead_code)] // not every example searches this way
pub fn at_80(b: Board, depth: u32) -> SearchRequest {
    SearchRequest {
        pruning: Pruning::from_percent(80),
        ..SearchRequest::fixed_depth(b, depth)
    }
}
