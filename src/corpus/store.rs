//! A corpus as a whole: the shard files under one or more folders, read and checked; the
//! training records they hold; their figures; and merging one corpus folder into another.

use super::format::{CorpusError, Shard};
use super::game::{GameRecord, LabelPolicy};
use crate::eval::dataset::Record;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The shard files (`*.oxc`) under `path` (a folder, searched recursively, or one file), in
/// path order.
pub fn shard_files(path: &Path) -> Result<Vec<PathBuf>, CorpusError> {
    let err = |p: &Path, e: std::io::Error| CorpusError {
        path: p.to_path_buf(),
        message: format!("cannot read: {e}"),
    };
    if !path.is_dir() {
        return if path.exists() {
            Ok(vec![path.to_path_buf()])
        } else {
            Err(CorpusError {
                path: path.to_path_buf(),
                message: "no such corpus folder or shard file".into(),
            })
        };
    }
    let mut out = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).map_err(|e| err(&dir, e))? {
            let p = e.map_err(|e| err(&dir, e))?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "oxc") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The shards of one or more corpus folders (or shard files), each checked.
pub struct Corpus {
    pub shards: Vec<(PathBuf, Shard)>,
}

impl Corpus {
    /// Reads every shard; the first bad one is the error, and two files holding the same chunk
    /// of the same run are one.
    pub fn load(paths: &[PathBuf]) -> Result<Corpus, CorpusError> {
        let mut shards = Vec::new();
        let mut seen: HashMap<(String, u64), PathBuf> = HashMap::new();
        for p in paths {
            for f in shard_files(p)? {
                let s = Shard::load(&f)?;
                if let Some(first) = seen.insert((s.run().to_string(), s.chunk()), f.clone()) {
                    return Err(CorpusError {
                        path: f,
                        message: format!("chunk {} of run '{}' again (also in {})", s.chunk(), s.run(), first.display()),
                    });
                }
                shards.push((f, s));
            }
        }
        Ok(Corpus { shards })
    }

    /// The runs, sorted by name: a record's game number is `run's ordinal × RUN_STRIDE + the
    /// game's number in its run`, so the held-out games (≡ 9 mod 10) are the same whatever
    /// other runs are loaded beside.
    fn run_ordinals(&self) -> BTreeMap<&str, u64> {
        let mut names: Vec<&str> = self.shards.iter().map(|(_, s)| s.run()).collect();
        names.sort_unstable();
        names.dedup();
        names.into_iter().enumerate().map(|(i, n)| (n, i as u64)).collect()
    }

    /// Every position's training record (see `GameRecord::records`), the siblings of about
    /// `sibling_share` of the training games (chosen by a hash of the game's number) and of
    /// every held-out game, so held-out figures stay comparable between shares.
    pub fn records(&self, policy: LabelPolicy, sibling_share: f64) -> Vec<Record> {
        let runs = self.run_ordinals();
        let mut out = Vec::new();
        for (_, s) in &self.shards {
            let base = runs.get(s.run()).copied().unwrap_or(0) * RUN_STRIDE;
            for g in &s.games {
                // Checked when the shard was read.
                let Ok(positions) = g.replay() else { continue };
                let game = base + g.index as u64;
                let siblings = game % 10 == 9 || in_share(game, sibling_share);
                out.extend(g.records(&positions, policy, game, siblings));
            }
        }
        out
    }

    /// The figures `corpus stats` prints.
    pub fn stats(&self) -> Stats {
        let mut st = Stats::default();
        for (path, s) in &self.shards {
            st.bytes += std::fs::metadata(path).map_or(0, |m| m.len());
            let run = st.runs.entry(s.run().to_string()).or_default();
            run.shards += 1;
            run.games += s.games.len() as u64;
            run.settings = s
                .header
                .fields
                .iter()
                .filter(|(k, _)| !["run", "chunk", "games", "written"].contains(&k.as_str()))
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ");
            for g in &s.games {
                st.games += 1;
                st.held_out += (g.index % 10 == 9) as u64;
                *st.starts.entry(g.start.kind.name()).or_default() += 1;
                let Ok(positions) = g.replay() else { continue };
                let exact_from = g.exact_from.map_or(usize::MAX, |e| e as usize);
                for (i, p) in positions.iter().enumerate() {
                    let band = band(p.board.empty_count());
                    st.bands[band].line += 1;
                    if i >= exact_from {
                        st.bands[band].exact += 1;
                    } else {
                        st.bands[band].game += 1;
                        st.bands[band].search += (i < g.search.len()) as u64;
                    }
                }
                for d in &g.deep {
                    if let Some(p) = positions.get(d.position as usize) {
                        st.bands[band(p.board.empty_count())].deep += 1;
                    }
                }
                for sb in &g.siblings {
                    if let Some(p) = positions.get(sb.position as usize) {
                        st.bands[band(p.board.empty_count().saturating_sub(1))].siblings += 1;
                    }
                }
                for sb in &g.deep_siblings {
                    if let Some(p) = positions.get(sb.position as usize) {
                        st.bands[band(p.board.empty_count().saturating_sub(1))].deep_siblings += 1;
                    }
                }
                for w in &g.walks {
                    if let Some(end) = GameRecord::walk_end(&positions, w) {
                        st.bands[band(end.board.empty_count())].walks += 1;
                    }
                }
            }
        }
        st
    }
}

/// Game numbers of different runs stay apart by this much (a multiple of 10, so the held-out
/// split of each run is kept).
pub const RUN_STRIDE: u64 = 10_000_000_000;

/// Empties bands of `Stats`: 0–9, 10–19, …, 50–60.
fn band(empties: u32) -> usize {
    (empties as usize / 10).min(5)
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Band {
    /// Positions on the games' lines.
    pub line: u64,
    /// Of those, labelled exact (perfect play from there).
    pub exact: u64,
    /// Of those, before perfect play: labelled by the game's result…
    pub game: u64,
    /// …and of these, with the value of the search that chose the move.
    pub search: u64,
    /// With a deeper search's value.
    pub deep: u64,
    /// Moves not played, solved (counted by the child's empties).
    pub siblings: u64,
    /// Moves not played, valued by a deep search (counted by the child's empties).
    pub deep_siblings: u64,
    /// Ends of random walks off the line, solved (counted by their own empties).
    pub walks: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub bytes: u64,
    pub games: u64,
    pub held_out: u64,
    pub starts: BTreeMap<&'static str, u64>,
    pub bands: [Band; 6],
    pub runs: BTreeMap<String, RunStats>,
}

#[derive(Clone, Debug, Default)]
pub struct RunStats {
    pub shards: u64,
    pub games: u64,
    pub settings: String,
}

impl Stats {
    /// Labelled positions: every line position, every sibling and every walk's end.
    pub fn positions(&self) -> u64 {
        self.bands
            .iter()
            .map(|b| b.line + b.siblings + b.deep_siblings + b.walks)
            .sum()
    }

    pub fn report(&self) -> String {
        let mut s = String::new();
        let positions = self.positions();
        let _ = writeln!(
            s,
            "{} games ({} held out), {} labelled positions, {} bytes ({:.2} bytes a position)",
            self.games,
            self.held_out,
            positions,
            self.bytes,
            self.bytes as f64 / positions.max(1) as f64
        );
        let starts: Vec<String> = self.starts.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let _ = writeln!(s, "starts: {}", starts.join(", "));
        let _ = writeln!(
            s,
            "{:<8} {:>11} {:>11} {:>11} {:>11} {:>9} {:>11} {:>9} {:>9}",
            "empties", "positions", "exact", "game", "+search", "deep", "siblings", "deep sib", "walks"
        );
        let mut total = Band::default();
        for (i, b) in self.bands.iter().enumerate() {
            let name = if i == 5 {
                "50-60".to_string()
            } else {
                format!("{}-{}", i * 10, i * 10 + 9)
            };
            let _ = writeln!(
                s,
                "{name:<8} {:>11} {:>11} {:>11} {:>11} {:>9} {:>11} {:>9} {:>9}",
                b.line, b.exact, b.game, b.search, b.deep, b.siblings, b.deep_siblings, b.walks
            );
            total.line += b.line;
            total.exact += b.exact;
            total.game += b.game;
            total.search += b.search;
            total.deep += b.deep;
            total.siblings += b.siblings;
            total.deep_siblings += b.deep_siblings;
            total.walks += b.walks;
        }
        let _ = writeln!(
            s,
            "{:<8} {:>11} {:>11} {:>11} {:>11} {:>9} {:>11} {:>9} {:>9}",
            "all",
            total.line,
            total.exact,
            total.game,
            total.search,
            total.deep,
            total.siblings,
            total.deep_siblings,
            total.walks
        );
        for (name, r) in &self.runs {
            let _ = writeln!(s, "run {name}: {} shards, {} games; {}", r.shards, r.games, r.settings);
        }
        s
    }
}

/// What `merge` did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    pub copied: u64,
    pub already: u64,
}

/// Copies every shard of `sources` into `into` (as `into/RUN/cNNNNNN.oxc`), each checked
/// first; a chunk already there with the same contents (in either layout) is skipped, with
/// other contents refused.
pub fn merge(sources: &[PathBuf], into: &Path) -> Result<MergeReport, CorpusError> {
    let mut report = MergeReport::default();
    for src in sources {
        for f in shard_files(src)? {
            let shard = Shard::load(&f)?;
            if shard.run().is_empty() || shard.run().contains(['/', '\\']) || shard.run().starts_with('.') {
                return Err(CorpusError {
                    path: f,
                    message: format!("run name '{}' cannot name a folder", shard.run()),
                });
            }
            let dest = super::generate::shard_path(&into.join(shard.run()), shard.chunk());
            if dest.exists() {
                if Shard::load(&dest)? == shard {
                    report.already += 1;
                    continue;
                }
                return Err(CorpusError {
                    path: f,
                    message: format!(
                        "chunk {} of run '{}' differs from {}",
                        shard.chunk(),
                        shard.run(),
                        dest.display()
                    ),
                });
            }
            shard.save(&dest)?;
            report.copied += 1;
        }
    }
    Ok(report)
}

/// Is game `game` among about `share` of all games? A hash of its number (not the one
/// `train --fraction` uses, so the two subsets are independent).
pub(super) fn in_share(game: u64, share: f64) -> bool {
    crate::rng::in_hashed_share(game, 0xD6E8_FEB8_6659_FD93, share)
}

/// What `compact` did: shards rewritten packed, shards already packed, bytes before and after.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct CompactReport {
    pub packed: u64,
    pub already: u64,
    pub bytes_before: u64,
    pub bytes_after: u64,
}

/// Rewrites every shard under `path` that is in the plain layout (versions 1–3) in the packed
/// one (version 4), each replaced only after its packed bytes were read back to the same
/// header and games, and atomically (`Shard::save`): a killed run leaves every shard whole,
/// in one layout or the other.
pub fn compact(path: &Path) -> Result<CompactReport, CorpusError> {
    let mut report = CompactReport::default();
    for f in shard_files(path)? {
        let bytes = std::fs::read(&f).map_err(|e| CorpusError {
            path: f.clone(),
            message: format!("cannot read: {e}"),
        })?;
        let shard = Shard::decode(&bytes, &f)?;
        report.bytes_before += bytes.len() as u64;
        if Shard::version_of(&bytes) == Some(super::format::PACKED) {
            report.already += 1;
            report.bytes_after += bytes.len() as u64;
            continue;
        }
        let packed = shard.encode();
        if Shard::decode(&packed, &f)? != shard {
            return Err(CorpusError {
                path: f,
                message: "the packed shard does not read back the same games (a bug: the file is left as it was)".into(),
            });
        }
        shard.save(&f)?;
        report.packed += 1;
        report.bytes_after += packed.len() as u64;
    }
    Ok(report)
}
