//! The level table (`params/levels.txt`): level -> midgame depth, exact and WLD solve empties,
//! midgame selectivity, the empties of the probable WLD solves above the proven ones, and a
//! shallower depth for the opening; a row ending in the word `layer` reads the evaluation's
//! non-linear layer (where the evaluation has one).

use std::fmt;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub depth: u32,
    pub exact_empties: u32,
    pub wld_empties: u32,
    /// Multi-ProbCut confidence in percent (100 = none).
    pub selectivity: u32,
    /// Empties up to which a probable WLD solve at 95 %, 80 %, 50 % confidence replaces the
    /// midgame search (`search::request::PROBABLE_PERCENTS`); at most `wld_empties`: none.
    pub probable_empties: [u32; 3],
    /// (depth, empties): positions with at least that many empties are searched to that depth
    /// instead of `depth` (the opening's evaluation is the least accurate, a ply there buys
    /// less than one later).
    pub opening: Option<(u32, u32)>,
    /// (depth, selectivity, empties): positions with at most that many empties (above the
    /// solves, which take over below) are searched to that depth at that selectivity instead. Near the solves a
    /// midgame search is cheap (its leaves are a few empties from the end) and its pruning
    /// errors are the ones a game is decided on.
    pub late: Option<(u32, u32, u32)>,
    /// Whether the search reads the evaluation's non-linear layer (`eval::net`), where the
    /// evaluation has one: it costs about a quarter more time a node, which pays at the deep
    /// levels only.
    pub layer: bool,
}

impl Level {
    /// The midgame depth for a position with `empties` empty squares.
    pub fn depth_at(&self, empties: u32) -> u32 {
        match self.opening {
            Some((depth, from)) if empties >= from => depth,
            _ => self.late_at(empties).map_or(self.depth, |(depth, _)| depth),
        }
    }

    /// The Multi-ProbCut confidence for a position with `empties` empty squares.
    pub fn selectivity_at(&self, empties: u32) -> u32 {
        self.late_at(empties).map_or(self.selectivity, |(_, selectivity)| selectivity)
    }

    /// The late band's (depth, selectivity) if it applies at `empties` (the opening's depth,
    /// where both would, wins).
    fn late_at(&self, empties: u32) -> Option<(u32, u32)> {
        let in_opening = self.opening.is_some_and(|(_, from)| empties >= from);
        self.late
            .filter(|&(_, _, to)| empties <= to && !in_opening)
            .map(|(depth, selectivity, _)| (depth, selectivity))
    }
}

#[derive(Clone, Debug)]
pub struct Levels {
    table: Vec<Level>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelsError {
    pub file: String,
    pub line: usize,
    pub problem: String,
}

impl fmt::Display for LevelsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Line 0: the file as a whole (it cannot be read, or is empty).
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.problem)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.problem)
        }
    }
}

impl std::error::Error for LevelsError {}

pub(crate) const EMBEDDED: &str = include_str!("../../params/levels.txt");

impl Levels {
    /// The table shipped in the binary.
    pub fn embedded() -> Result<Levels, LevelsError> {
        Levels::parse(EMBEDDED, "params/levels.txt (embedded)")
    }

    pub fn load(path: &Path) -> Result<Levels, LevelsError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| LevelsError {
            file: name.clone(),
            line: 0,
            problem: format!("cannot read: {e}"),
        })?;
        Levels::parse(&text, &name)
    }

    /// Parses the table: levels 0..=60 in order, one line each, `#` comments.
    pub fn parse(text: &str, file: &str) -> Result<Levels, LevelsError> {
        let err = |line: usize, problem: String| LevelsError {
            file: file.to_string(),
            line,
            problem,
        };
        let mut table = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (line, layer) = match line.strip_suffix("layer") {
                Some(rest) if rest.is_empty() || rest.ends_with(char::is_whitespace) => (rest, true),
                _ => (line, false),
            };
            let nums: Result<Vec<u32>, _> = line.split_whitespace().map(str::parse::<u32>).collect();
            let nums = nums.map_err(|e| err(i + 1, format!("not a number: {e}")))?;
            // The three probable-solve columns are optional (none when left out), and so are
            // the opening's depth and the empties from which it applies after them.
            let (level, depth, exact, wld, selectivity, probable, opening, late) = match nums[..] {
                [level, depth, exact, wld, selectivity] => (level, depth, exact, wld, selectivity, [wld; 3], None, None),
                [level, depth, exact, wld, selectivity, p95, p80, p50] => {
                    (level, depth, exact, wld, selectivity, [p95, p80, p50], None, None)
                }
                [level, depth, exact, wld, selectivity, p95, p80, p50, od, oe] => {
                    (level, depth, exact, wld, selectivity, [p95, p80, p50], Some((od, oe)), None)
                }
                [level, depth, exact, wld, selectivity, p95, p80, p50, od, oe, ld, ls, le] => (
                    level,
                    depth,
                    exact,
                    wld,
                    selectivity,
                    [p95, p80, p50],
                    Some((od, oe)),
                    Some((ld, ls, le)),
                ),
                _ => return Err(err(i + 1, format!("expected 5, 8, 10 or 13 numbers, found {}", nums.len()))),
            };
            if late.is_some_and(|(ld, ls, le)| ld == 0 || ld > 60 || !(1..=100).contains(&ls) || le > 60) {
                return Err(err(
                    i + 1,
                    "the late depth must be 1..=60, its selectivity 1..=100 and its empties at most 60".into(),
                ));
            }
            if opening.is_some_and(|(od, oe)| od == 0 || od > 60 || oe > 60) {
                return Err(err(
                    i + 1,
                    "the opening's depth must be 1..=60 and its empties at most 60".into(),
                ));
            }
            if level as usize != table.len() {
                return Err(err(i + 1, format!("level {level} out of order (expected {})", table.len())));
            }
            let probable_ordered = wld <= probable[0] && probable[0] <= probable[1] && probable[1] <= probable[2];
            if depth > 60 || probable[2] > 60 || wld < exact || !probable_ordered || !(1..=100).contains(&selectivity) {
                return Err(err(
                    i + 1,
                    "values must be at most 60, exact <= wld <= 95 % <= 80 % <= 50 % empties, selectivity 1..=100".into(),
                ));
            }
            table.push(Level {
                depth,
                exact_empties: exact,
                wld_empties: wld,
                selectivity,
                probable_empties: probable,
                opening,
                late,
                layer,
            });
        }
        if table.len() != 61 {
            return Err(err(
                text.lines().count(),
                format!("expected levels 0..=60, found {}", table.len()),
            ));
        }
        Ok(Levels { table })
    }

    /// The level's settings (levels above 60 are clamped).
    pub fn get(&self, level: u32) -> Level {
        self.table[(level as usize).min(self.table.len() - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_table_is_valid() {
        let l = Levels::embedded().expect("embedded levels");
        assert_eq!(l.get(0).depth, 0);
        assert_eq!(l.get(60).exact_empties, 60);
        assert_eq!(l.get(99), l.get(60));
    }

    /// A table of levels 0..=60, all `DEPTH 2 4 80`, with `extra` columns on `level`'s line.
    fn table_with(depth: u32, level: u32, extra: &str) -> String {
        (0..=60)
            .map(|l| format!("{l} {depth} 2 4 80{}\n", if l == level { extra } else { "" }))
            .collect()
    }

    #[test]
    fn probable_columns_are_optional() {
        let text = table_with(1, 16, " 6 8 9");
        let l = Levels::parse(&text, "t").expect("valid table");
        assert_eq!(l.get(16).probable_empties, [6, 8, 9]);
        // Left out: no probable solve above the WLD empties.
        assert_eq!(l.get(15).probable_empties, [4, 4, 4]);
    }

    #[test]
    fn opening_depth_applies_from_its_empties() {
        let text = table_with(18, 17, " 4 4 4 16 45");
        let l = Levels::parse(&text, "t").expect("valid table");
        assert_eq!(l.get(17).opening, Some((16, 45)));
        assert_eq!(l.get(17).depth_at(45), 16);
        assert_eq!(l.get(17).depth_at(44), 18);
        assert_eq!(l.get(16).depth_at(50), 18);
        let bad = text.replace("4 4 4 16 45", "4 4 4 0 45");
        assert!(Levels::parse(&bad, "t").is_err());
    }

    #[test]
    fn late_depth_and_selectivity_apply_up_to_their_empties() {
        let text = table_with(18, 17, " 4 4 4 17 45 20 90 31");
        let l = Levels::parse(&text, "t").expect("valid table");
        let l17 = l.get(17);
        assert_eq!(l17.late, Some((20, 90, 31)));
        assert_eq!((l17.depth_at(45), l17.selectivity_at(45)), (17, 80));
        assert_eq!((l17.depth_at(32), l17.selectivity_at(32)), (18, 80));
        assert_eq!((l17.depth_at(31), l17.selectivity_at(31)), (20, 90));
        assert_eq!((l17.depth_at(20), l17.selectivity_at(20)), (20, 90));
        assert_eq!((l.get(16).depth_at(31), l.get(16).selectivity_at(31)), (18, 80));
        for bad in [
            "4 4 4 17 45 0 90 31",
            "4 4 4 17 45 20 0 31",
            "4 4 4 17 45 20 90 61",
            "4 4 4 17 45 20 90",
        ] {
            let t = text.replace("4 4 4 17 45 20 90 31", bad);
            assert!(Levels::parse(&t, "t").is_err(), "{bad}");
        }
    }

    #[test]
    fn a_row_ending_in_layer_reads_the_layer() {
        let text = table_with(18, 20, " 4 4 4 17 45 layer");
        let l = Levels::parse(&text, "t").expect("valid table");
        assert!(l.get(20).layer);
        assert_eq!(l.get(20).opening, Some((17, 45)));
        assert!(!l.get(19).layer);
        let short = Levels::parse(&table_with(18, 20, " layer"), "t").expect("five numbers and the word");
        assert!(short.get(20).layer && short.get(20).depth == 18);
        for bad in [" 4 4 4 17 45 layers", " 4 4 4 17 45 player", " layer 4 4 4"] {
            let e = Levels::parse(&table_with(18, 20, bad), "t").expect_err(bad);
            assert_eq!(e.line, 21, "{bad}: {e}");
        }
    }

    #[test]
    fn bad_tables_name_the_line() {
        let e = Levels::parse("0 0 0 0 100\n1 1 x 2 100\n", "t").expect_err("bad number");
        assert_eq!((e.file.as_str(), e.line), ("t", 2));
        assert!(e.to_string().starts_with("t:2: not a number"), "{e}");
        let e = Levels::parse("", "t").expect_err("empty");
        assert_eq!(e.to_string(), "t: expected levels 0..=60, found 0");
        let e = Levels::parse("0 0 0 0 100\n2 1 2 2 100\n", "t").expect_err("order");
        assert!(e.problem.contains("out of order"));
        let e = Levels::parse("0 0 0 0\n", "t").expect_err("short");
        assert!(e.problem.contains("expected 5, 8, 10 or 13 numbers"));
        let e = Levels::parse("0 0 0 4 100 5 3 6\n", "t").expect_err("probable columns out of order");
        assert!(e.problem.contains("95 %"), "{e}");
        let e = Levels::parse("0 0 0 0 0\n", "t").expect_err("selectivity 0");
        assert!(e.problem.contains("selectivity"));
        let e = Levels::parse("0 0 0 0 100\n", "t").expect_err("truncated");
        assert!(e.problem.contains("levels 0..=60"));
    }
}
