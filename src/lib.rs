//! oxello: an Othello engine. The library holds everything; `main.rs` is the command line.

pub mod base;
pub mod board;
pub mod book;
pub mod corpus;
pub mod engine;
pub mod eval;
pub mod game;
pub mod ggf;
pub mod json;
pub mod obf;
pub mod perft;
pub mod protocol;
pub mod rng;
#[cfg(test)]
mod scratch;
pub mod search;
pub mod serve;
pub mod time;
pub mod tools;
