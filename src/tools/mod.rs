//! Subcommands that run the engine over files and report figures.

pub mod analyze;
pub mod bench;
pub mod enginematch;
pub mod evalmae;
pub mod fitendcut;
pub mod fitmpc;
pub mod matchplay;
pub mod probcut_report;
pub mod selfplay;
pub mod solve;
pub mod train;
