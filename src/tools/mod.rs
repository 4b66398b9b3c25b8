//! Subcommands that run the engine over files and report figures.

pub mod analyze;
pub mod bench;
pub mod json;
pub mod matchplay;
pub mod selfplay;
pub mod solve;
