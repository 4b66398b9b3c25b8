//! Types shared by the evaluation, the searches, the book and the protocols, kept below all of
//! them so no layer imports one above it: the evaluation's trait, the compiled-kernel choice
//! and the depth types.

pub mod depth;
pub mod kernel;
pub mod ordering;

pub use depth::{DepthKind, SearchDepth};
pub use kernel::{Isa, Kernel};
pub use ordering::{LANES, OrderingEval};
