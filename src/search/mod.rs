//! Search: midgame PVS/MTD(f), exact endgame solver, transposition table, levels, kernel choice.

pub mod busy;
pub mod dist;
pub mod draw;
pub mod endcache;
pub mod endcut;
pub mod endgame;
#[cfg(feature = "leaf-sample")]
pub mod leaf_sample;
pub mod levels;
pub mod midgame;
pub mod mpc;
pub mod request;
pub mod risk;
pub mod split;
pub mod stack;
pub mod tt;
