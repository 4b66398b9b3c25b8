//! Search: endgame solver, transposition table, kernel selection.

pub mod endgame;
pub mod kernel;
pub mod tt;
