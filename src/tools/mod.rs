//! Subcommands that run the engine over files and report figures.

pub mod json;
pub mod solve;
