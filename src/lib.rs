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

// Here rather than in scratch.rs, which the integration tests also include as source: there
// the test would run once in every test crate.
#[cfg(test)]
mod scratch_tests {
    use crate::scratch::Scratch;

    /// Two tests that choose one name get two folders, and each goes with its `Scratch`.
    #[test]
    fn one_name_twice_gives_two_folders_each_removed_on_drop() {
        let a = Scratch::new("scratch-same");
        let b = Scratch::new("scratch-same");
        assert_ne!(a.as_ref(), b.as_ref());
        std::fs::write(a.join("x"), b"a").expect("write in a");
        std::fs::write(b.join("x"), b"b").expect("write in b");
        let (a_path, b_path) = (a.to_path_buf(), b.to_path_buf());
        drop(a);
        assert!(!a_path.exists() && b_path.join("x").exists(), "dropping a leaves b alone");
        drop(b);
        assert!(!b_path.exists());
    }
}
