//! `oxello corpus generate`: plays labelled games into shards of a corpus folder.
//!
//! A run (`--run NAME`) is a numbered series of games with one set of settings; its games are
//! cut into chunks of `chunk_games`, and chunk `c` is the shard file `DIR/NAME/cNNNNNN.oxc`.
//! A chunk is written once all its games are played (atomically: see `Shard::save`), so:
//! - resuming is running the same command again: chunks already on disk are skipped;
//! - `--shard I/N` plays only the chunks `c ≡ I (mod N)`, so N machines (or sessions) can share
//!   a run and their folders be merged (`corpus merge`) without overlap;
//! - a killed run loses only the games of the chunks in progress.
//!
//! Game `g` depends only on the run's seed and `g` (its own random generator), so the same
//! game comes out whichever machine, thread or sitting plays it.

use super::format::{CorpusError, Shard, ShardHeader};
use super::game::{GameRecord, Start, StartKind};
use super::play::{PlayOptions, Players, Rng, play_game};
use crate::base::OrderingEval;
use parking_lot::Mutex;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Where the games start.
#[derive(Clone, Debug)]
pub enum Starts {
    /// From the start position, random moves only (`PlayOptions::random_plies`).
    Random,
    /// Each game takes a line of this list chosen by its own generator (XOT, an openings
    /// file), then random moves. With `reserve` N > 0 the lines numbered (from 1) by a
    /// multiple of N are never taken: they are kept for held-out tests and matches.
    Pick {
        kind: StartKind,
        lines: Vec<Vec<u8>>,
        reserve: u32,
    },
    /// Game `g` follows line `g` (games given from outside); the run has as many games.
    Follow { lines: Vec<Vec<u8>> },
}

impl Starts {
    fn kind(&self) -> StartKind {
        match self {
            Starts::Random => StartKind::Random,
            Starts::Pick { kind, .. } => *kind,
            Starts::Follow { .. } => StartKind::Line,
        }
    }
}

pub struct GenerateOptions {
    /// The corpus folder; the run's shards go to `dir/run/`.
    pub dir: PathBuf,
    pub run: String,
    /// Games in the run (numbered from 0; rounded up to whole chunks unless lines are followed).
    pub games: u64,
    pub chunk_games: u32,
    /// (I, N): play the chunks c ≡ I (mod N).
    pub shard: (u64, u64),
    pub threads: usize,
    pub seed: u64,
    pub hash_mb: usize,
    pub play: PlayOptions,
    pub starts: Starts,
    /// Settings that say what made the games beyond `play` and `starts` (the start file's
    /// name and checksum, the evaluation's checksum, the program version).
    pub describe: ShardHeader,
    /// Stop taking new chunks after this long (the chunks begun are finished).
    pub time_limit: Option<Duration>,
}

/// What a generator run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub chunks_written: u64,
    pub games: u64,
    pub positions: u64,
    /// Chunks of this shard of the run already on disk, skipped.
    pub chunks_present: u64,
}

impl GenerateOptions {
    fn run_dir(&self) -> PathBuf {
        self.dir.join(&self.run)
    }

    /// The header every shard of this run carries (without its chunk).
    fn settings(&self) -> ShardHeader {
        let mut h = self.describe.clone();
        let p = &self.play;
        h.set("run", &self.run);
        h.set("chunk_games", self.chunk_games);
        h.set("seed", self.seed);
        h.set("start", self.starts.kind().name());
        if let Starts::Pick { reserve, .. } = &self.starts
            && *reserve > 1
        {
            h.set("start_reserved", format!("lines numbered by a multiple of {reserve}"));
        }
        h.set("search_depth", p.depth);
        h.set("selectivity", p.selectivity);
        h.set("exact", p.exact);
        h.set("random_plies", format!("{}-{}", p.random_plies.start(), p.random_plies.end()));
        let range = |r: &std::ops::RangeInclusive<u32>| {
            if r.is_empty() {
                "none".to_string()
            } else {
                format!("{}-{}", r.start(), r.end())
            }
        };
        h.set("siblings", range(&p.siblings));
        match &p.deep {
            Some(d) => h.set(
                "deep",
                format!(
                    "depth {} at {} %, empties {}, every {}{}",
                    d.depth,
                    d.selectivity,
                    range(&d.empties),
                    d.every,
                    // (absent when off, so the runs before it keep their settings)
                    match d.siblings_every {
                        0 => String::new(),
                        k => format!(", siblings of every {k} at depth {}", d.siblings_depth),
                    }
                ),
            ),
            None => h.set("deep", "none"),
        }
        // (absent when off, so the runs before it keep their settings)
        if let Some(b) = &p.blunders {
            h.set("blunders", format!("{} % at empties {}", b.percent, range(&b.empties)));
        }
        if let Some(w) = &p.walks {
            h.set(
                "walks",
                format!(
                    "{} from each position at empties {}, {} plies, solved",
                    w.count,
                    range(&w.from),
                    range(&w.plies)
                ),
            );
        }
        h
    }

    fn games_in_chunk(&self, chunk: u64) -> std::ops::Range<u64> {
        let first = chunk * self.chunk_games as u64;
        let end = match &self.starts {
            Starts::Follow { lines } => (first + self.chunk_games as u64).min(lines.len() as u64),
            _ => first + self.chunk_games as u64,
        };
        first..end
    }

    fn chunk_count(&self) -> u64 {
        let games = match &self.starts {
            Starts::Follow { lines } => lines.len() as u64,
            _ => self.games,
        };
        games.div_ceil(self.chunk_games.max(1) as u64)
    }
}

/// The file of chunk `c` of a run.
pub fn shard_path(run_dir: &Path, chunk: u64) -> PathBuf {
    run_dir.join(format!("c{chunk:06}.oxc"))
}

/// Keys of a shard header that vary between the shards of one run.
const PER_SHARD: [&str; 3] = ["chunk", "games", "written"];

/// Checks that the shards already in the run's folder were made with the same settings, and
/// returns the chunks present.
fn present_chunks(opts: &GenerateOptions) -> Result<HashSet<u64>, CorpusError> {
    let dir = opts.run_dir();
    let mut present = HashSet::new();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(present);
    };
    let want = opts.settings();
    let mut checked = false;
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        if name.ends_with(".tmp") {
            // A temporary file of a killed writer: never a shard.
            let _ = std::fs::remove_file(&path);
            continue;
        }
        let Some(chunk) = name
            .strip_prefix('c')
            .and_then(|n| n.strip_suffix(".oxc"))
            .and_then(|n| n.parse().ok())
        else {
            continue;
        };
        if !checked {
            let shard = Shard::load(&path)?;
            let mut have = shard.header.clone();
            for k in PER_SHARD {
                have.fields.remove(k);
            }
            if have != want {
                let diff: Vec<String> = want
                    .fields
                    .iter()
                    .filter(|(k, v)| have.get(k) != Some(v.as_str()))
                    .map(|(k, v)| format!("{k}: {} here, {v} asked", have.get(k).unwrap_or("unset")))
                    .collect();
                return Err(CorpusError {
                    path,
                    message: format!(
                        "run '{}' was made with other settings ({}); continue it with its own settings or name a new --run",
                        opts.run,
                        diff.join("; ")
                    ),
                });
            }
            checked = true;
        }
        present.insert(chunk);
    }
    Ok(present)
}

/// Plays the missing chunks of this shard of the run. `progress` receives each chunk written
/// (chunk, games, positions, seconds since the start).
pub fn run(
    opts: &GenerateOptions,
    eval: &(dyn OrderingEval + Sync),
    progress: &(dyn Fn(u64, &Summary, f64) + Sync),
) -> Result<Summary, CorpusError> {
    let (shard_i, shard_n) = opts.shard;
    let present = present_chunks(opts)?;
    let chunks: Vec<u64> = (0..opts.chunk_count()).filter(|c| c % shard_n.max(1) == shard_i).collect();
    let todo_chunks: Vec<u64> = chunks.iter().copied().filter(|c| !present.contains(c)).collect();
    let todo: Vec<(u64, u64)> = todo_chunks
        .iter()
        .flat_map(|&c| opts.games_in_chunk(c).map(move |g| (c, g)))
        .collect();
    let summary = Mutex::new(Summary {
        chunks_present: (chunks.len() - todo_chunks.len()) as u64,
        ..Summary::default()
    });
    let pending: Mutex<BTreeMap<u64, Vec<GameRecord>>> = Mutex::new(BTreeMap::new());
    let started: Mutex<HashSet<u64>> = Mutex::new(HashSet::new());
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<CorpusError>> = Mutex::new(None);
    let begun = Instant::now();
    let positions = AtomicU64::new(0);
    let settings = opts.settings();
    std::thread::scope(|scope| {
        for _ in 0..opts.threads.max(1) {
            scope.spawn(|| {
                let mut players = Players::new(opts.hash_mb, opts.play.deep.is_some());
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(chunk, g)) = todo.get(k) else { break };
                    if failed.lock().is_some() {
                        break;
                    }
                    {
                        let mut s = started.lock();
                        if !s.contains(&chunk) {
                            if opts.time_limit.is_some_and(|t| begun.elapsed() >= t) {
                                // Past the time limit no chunk is begun; later games belong
                                // to later chunks, so this thread is done.
                                break;
                            }
                            s.insert(chunk);
                        }
                    }
                    let game = play_one(opts, g, eval, &mut players);
                    positions.fetch_add(game.labelled() as u64, Ordering::Relaxed);
                    let complete = {
                        let mut p = pending.lock();
                        let games = p.entry(chunk).or_default();
                        games.push(game);
                        (games.len() as u64 == opts.games_in_chunk(chunk).count() as u64)
                            .then(|| p.remove(&chunk))
                            .flatten()
                    };
                    if let Some(mut games) = complete {
                        games.sort_by_key(|g| g.index);
                        let mut header = settings.clone();
                        header.set("chunk", chunk);
                        header.set("games", games.len());
                        let n: u64 = games.iter().map(|g| g.labelled() as u64).sum();
                        let shard = Shard { header, games };
                        if let Err(e) = shard.save(&shard_path(&opts.run_dir(), chunk)) {
                            *failed.lock() = Some(e);
                            break;
                        }
                        let mut s = summary.lock();
                        s.chunks_written += 1;
                        s.games += shard.games.len() as u64;
                        s.positions += n;
                        progress(chunk, &s, begun.elapsed().as_secs_f64());
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner() {
        return Err(e);
    }
    Ok(summary.into_inner())
}

/// Game `g` of the run.
fn play_one(opts: &GenerateOptions, g: u64, eval: &dyn OrderingEval, players: &mut Players) -> GameRecord {
    let mut rng = Rng(opts.seed ^ g.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let (start, opening): (Start, &[u8]) = match &opts.starts {
        Starts::Random => (
            Start {
                kind: StartKind::Random,
                plies: 0,
                id: 0,
            },
            &[],
        ),
        Starts::Pick { kind, lines, reserve } => {
            // The k-th usable line: with every N-th line reserved, N − 1 of each N are usable.
            let n = *reserve as u64;
            let k = if n > 1 {
                let usable = lines.len() as u64 - lines.len() as u64 / n;
                let j = rng.below(usable);
                (j / (n - 1) * n + j % (n - 1)) as usize
            } else {
                rng.below(lines.len() as u64) as usize
            };
            (
                Start {
                    kind: *kind,
                    plies: 0,
                    id: k as u32 + 1,
                },
                lines.get(k).map_or(&[][..], |l| l.as_slice()),
            )
        }
        Starts::Follow { lines } => (
            Start {
                kind: StartKind::Line,
                plies: 0,
                id: g as u32 + 1,
            },
            lines.get(g as usize).map_or(&[][..], |l| l.as_slice()),
        ),
    };
    play_game(g as u32, start, opening, &mut rng, &opts.play, eval, players)
}
