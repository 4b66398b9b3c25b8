//! Edax's search levels as oxello book depths. An Edax book position stores the level (0..60)
//! of the search that valued its moves; what that search was depends on the empties: Edax's
//! level table (`search_global_init` in Edax's search.c) solves exactly, solves selectively
//! or searches the midgame to a fixed depth, at one of six selectivities.

use crate::base::SearchDepth;

/// Percent confidence of Edax's selectivities 0..5 (5 = none).
const PERCENT: [u32; 6] = [73, 87, 95, 98, 99, 100];

/// Up to how many empties a level band searches to the end, and at which selectivity:
/// (last level of the band, [(up to empties, selectivity)]). Beyond the last step the band
/// searches the midgame to depth = level at selectivity 0. Levels 1..=10 and 36..=60 follow
/// formulas instead (see `search`).
const BANDS: [(u8, &[(u32, usize)]); 9] = [
    (12, &[(21, 5), (24, 3)]),
    (18, &[(21, 5), (24, 3), (27, 1)]),
    (21, &[(24, 5), (27, 3), (30, 1)]),
    (24, &[(24, 5), (27, 4), (30, 2), (33, 0)]),
    (27, &[(27, 5), (30, 3), (33, 1)]),
    (29, &[(27, 5), (30, 4), (33, 2), (36, 0)]),
    (31, &[(30, 5), (33, 3), (36, 1)]),
    (33, &[(30, 5), (33, 4), (36, 2), (39, 0)]),
    (35, &[(30, 5), (33, 4), (36, 3), (39, 1)]),
];

/// Depth and selectivity (0..5) of Edax's search at `level` with `empties` empty squares.
pub(super) fn search(level: u8, empties: u32) -> (u32, usize) {
    let l = u32::from(level);
    match level {
        0 => (0, 5),
        1..=10 => (if empties <= 2 * l { empties } else { l }, 5),
        11..=35 => {
            let steps = BANDS.iter().find(|(last, _)| level <= *last).map_or(&[][..], |b| b.1);
            steps
                .iter()
                .find(|(up_to, _)| empties <= *up_to)
                .map_or((l, 0), |&(_, sel)| (empties, sel))
        }
        36..=59 => {
            let steps = [(l - 6, 5), (l - 3, 4), (l, 3), (l + 3, 2), (l + 6, 1), (l + 9, 0)];
            steps
                .iter()
                .find(|(up_to, _)| empties <= *up_to)
                .map_or((l, 0), |&(_, sel)| (empties, sel))
        }
        _ => (empties, 5),
    }
}

/// The oxello depth of an Edax level at `empties` (`level` at most 60).
pub fn depth(level: u8, empties: u32) -> SearchDepth {
    let (d, sel) = search(level, empties);
    let percent = PERCENT[sel.min(5)];
    match (d >= empties, percent) {
        (true, 100) => SearchDepth::Exact,
        (true, percent) => SearchDepth::Selective { depth: empties, percent },
        (false, 100) => SearchDepth::Plies(d),
        (false, percent) => SearchDepth::Selective { depth: d, percent },
    }
}

/// The midgame depth a level stands for (its depth far from the end).
pub fn midgame_depth(d: SearchDepth) -> Option<u32> {
    match d {
        SearchDepth::Plies(n) | SearchDepth::Selective { depth: n, .. } => Some(n),
        _ => None,
    }
}

/// The Edax level for a book depth at `empties`: `preferred` when it gives that depth, else
/// the lowest level that does, else the nearest: the level of the same midgame depth, or the
/// lowest level that solves exactly at `empties` for a solve.
pub fn level(d: SearchDepth, empties: u32, preferred: u8) -> u8 {
    if preferred <= 60 && depth(preferred, empties) == d {
        return preferred;
    }
    if let Some(l) = (0..=60).find(|&l| depth(l, empties) == d) {
        return l;
    }
    match midgame_depth(d) {
        Some(n) => n.min(60) as u8,
        None => (0..=60).find(|&l| depth(l, empties) == SearchDepth::Exact).unwrap_or(60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_ten_solves_from_twenty_empties() {
        assert_eq!(depth(10, 20), SearchDepth::Exact);
        assert_eq!(depth(10, 21), SearchDepth::Plies(10));
        assert_eq!(depth(10, 0), SearchDepth::Exact);
        assert_eq!(depth(0, 30), SearchDepth::Plies(0));
    }

    #[test]
    fn higher_levels_solve_selectively_then_search_the_midgame() {
        assert_eq!(depth(21, 24), SearchDepth::Exact);
        assert_eq!(depth(21, 26), SearchDepth::Selective { depth: 26, percent: 98 });
        assert_eq!(depth(21, 30), SearchDepth::Selective { depth: 30, percent: 87 });
        assert_eq!(depth(21, 31), SearchDepth::Selective { depth: 21, percent: 73 });
        assert_eq!(depth(40, 34), SearchDepth::Exact);
        assert_eq!(depth(40, 49), SearchDepth::Selective { depth: 49, percent: 73 });
        assert_eq!(depth(40, 50), SearchDepth::Selective { depth: 40, percent: 73 });
        assert_eq!(depth(60, 60), SearchDepth::Exact);
    }

    #[test]
    fn levels_come_back() {
        for l in 0..=60u8 {
            for e in [4, 12, 20, 26, 33, 45, 58] {
                let back = level(depth(l, e), e, l);
                assert_eq!(back, l);
                assert_eq!(depth(level(depth(l, e), e, 0), e), depth(l, e));
            }
        }
        // Depths Edax has no level for map to the nearest.
        assert_eq!(level(SearchDepth::Selective { depth: 11, percent: 95 }, 50, 0), 11);
        assert_eq!(level(SearchDepth::Wld, 16, 0), 8);
    }
}
