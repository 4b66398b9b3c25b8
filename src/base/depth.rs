//! The depth of a search: what a searcher is asked for and reports (`DepthKind`), and how a
//! reported value's depth is shown and stored (`SearchDepth`, NBoard's depth field, the book's
//! depth column). Below the search, the protocols and the book, which all name depths.

use std::fmt;

/// The kind of result a reported depth stands for (GUIs show `18`, `100%W`, `100%`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthKind {
    /// Midgame search to `depth` plies at selectivity `percent` (100 = no forward pruning).
    Midgame { depth: u32, percent: u32 },
    /// Proven win/loss/draw.
    Wld,
    /// Probable win/loss/draw: a ProbCut search to the end at this confidence.
    ProbableWld { percent: u32 },
    /// Exact final score.
    Exact,
}

/// How far a reported value was searched, as NBoard's depth field shows it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SearchDepth {
    /// A midgame search of this many plies (`12`).
    Plies(u32),
    /// A selective search: depth at a confidence in percent (`22@95%`).
    Selective { depth: u32, percent: u32 },
    /// Exact solve (`100%`).
    Exact,
    /// Win/loss/draw solve (`100%W`).
    Wld,
    /// Probable win/loss/draw solve at a confidence (`95%W`).
    ProbableWld { percent: u32 },
}

impl From<DepthKind> for SearchDepth {
    fn from(kind: DepthKind) -> SearchDepth {
        match kind {
            DepthKind::Midgame { depth, percent: 100 } => SearchDepth::Plies(depth),
            DepthKind::Midgame { depth, percent } => SearchDepth::Selective { depth, percent },
            DepthKind::Wld => SearchDepth::Wld,
            DepthKind::ProbableWld { percent } => SearchDepth::ProbableWld { percent },
            DepthKind::Exact => SearchDepth::Exact,
        }
    }
}

impl fmt::Display for SearchDepth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchDepth::Plies(d) => write!(f, "{d}"),
            SearchDepth::Selective { depth, percent } => write!(f, "{depth}@{percent}%"),
            SearchDepth::Exact => f.write_str("100%"),
            SearchDepth::Wld => f.write_str("100%W"),
            SearchDepth::ProbableWld { percent } => write!(f, "{percent}%W"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_strings() {
        assert_eq!(SearchDepth::Plies(12).to_string(), "12");
        assert_eq!(SearchDepth::Selective { depth: 22, percent: 95 }.to_string(), "22@95%");
        assert_eq!(SearchDepth::Exact.to_string(), "100%");
        assert_eq!(SearchDepth::ProbableWld { percent: 95 }.to_string(), "95%W");
        assert_eq!(SearchDepth::Wld.to_string(), "100%W");
    }
}
