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

/// The corpus runs named on the command line, else `corpus`.
#[allow(dead_code)] // not every example reads the corpus
pub fn corpus_paths() -> Vec<std::path::PathBuf> {
    let paths: Vec<std::path::PathBuf> = std::env::args().skip(1).map(std::path::PathBuf::from).collect();
    if paths.is_empty() {
        vec![std::path::PathBuf::from("corpus")]
    } else {
        paths
    }
}

/// The stages listed in the environment variable `STAGES` (comma list), else `default`.
#[allow(dead_code)] // not every example works by stage
pub fn stages(default: &str) -> Result<Vec<usize>, String> {
    let stages: Vec<usize> = std::env::var("STAGES")
        .unwrap_or_else(|_| default.into())
        .split(',')
        .map(|s| s.trim().parse::<usize>().map_err(|e| format!("STAGES: {s:?}: {e}")))
        .collect::<Result<_, _>>()?;
    if let Some(bad) = stages.iter().find(|&&s| s >= oxello::eval::STAGES) {
        return Err(format!("STAGES: {bad} is not a stage (0..{})", oxello::eval::STAGES));
    }
    Ok(stages)
}
