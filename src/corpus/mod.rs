//! The training corpus: games and the labels of the positions they reach, kept in the
//! repository (`corpus/`) so that every session, and anyone with spare cores, adds to the same
//! data and a fresh clone can refit the shipped weights from it.
//!
//! A corpus is a folder of shard files (`*.oxc`, format in `format.rs` and `corpus/README.md`).
//! A shard holds one chunk of consecutive games of one generator run and is written whole,
//! atomically (a temporary file renamed into place), and never changed afterwards: a killed
//! generator leaves every shard either absent or complete, and git sees each shard once.
//!
//! - `format`: the binary encoding of a shard, its checks and errors naming the file.
//! - `packed`: the games of a version-4 shard, each field coded where it is predictable;
//!   `range_coder`: the adaptive binary range coder and symbol models it codes them with.
//! - `game`: a game record — moves, result, and the labels of its positions — replayed into
//!   positions and training records.
//! - `play`: plays one labelled game (self-play from a start, or following a given line).
//! - `generate`: the resumable, shardable generator that writes shards.
//! - `store`: reading a corpus folder, merging folders, and the figures `corpus stats` prints.

pub mod format;
pub mod game;
pub mod generate;
mod packed;
pub mod play;
mod range_coder;
pub mod store;

#[cfg(test)]
mod tests;

pub use format::{CorpusError, Shard, ShardHeader};
pub use game::{GameRecord, LabelPolicy, Sibling, Start, StartKind};
