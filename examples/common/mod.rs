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

/// Uniform in [-1, 1): the trainers' random starts.
#[allow(dead_code)] // only the layer trainers draw starts
pub fn uniform(seed: &mut oxello::rng::SplitMix) -> f32 {
    (seed.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
}

/// `x` in units of 1/`scale`, rounded and bounded as a stored weight is.
#[allow(dead_code)] // only the layer trainers write weights
pub fn quantize(x: f32, scale: f32) -> i16 {
    let max = f32::from(oxello::eval::weights::MAX_WEIGHT);
    (x * scale).round().clamp(-max, max) as i16
}

/// Writes one trained stage into `dir` as `embed_net`'s `ASSEMBLE` reads it: `stage-N.lin`, the
/// linear weights `lin` (`STAGE_WEIGHTS` of them, in discs), and `stage-N.net`, the layer `raw`.
#[allow(dead_code)] // only the layer trainers write stages
pub fn write_stage(dir: &std::path::Path, lin: &[f32], raw: oxello::eval::net::RawStage) -> Result<(), String> {
    let st = raw.stage;
    let lin: Vec<u8> = lin
        .iter()
        .flat_map(|w| quantize(*w, oxello::eval::SCALE as f32).to_le_bytes())
        .collect();
    for (name, bytes) in [
        (format!("stage-{st}.lin"), lin),
        (format!("stage-{st}.net"), oxello::eval::net::encode(&[raw])),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
