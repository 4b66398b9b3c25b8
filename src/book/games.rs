//! Game files for `oxello book learn`: GGF records (any number per file, as GGS archives
//! hold them, from the start position or a set-up `BO[...]`) or one transcript per line
//! (`f5d6c3...`, from the start position, passes written `pa` or left out).

use crate::board::Position;
use crate::game::Game;
use crate::ggf::GgfGame;

/// The games of a file's text; errors name `file` and the line (transcripts) or the game
/// (GGF). Blank lines and lines starting with `#` are skipped.
pub fn read_games(text: &str, file: &str) -> Result<Vec<Game>, String> {
    if text.trim_start().starts_with("(;") {
        return ggf_games(text, file);
    }
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(n, l)| Game::from_transcript(Position::start(), l).map_err(|e| format!("{file}:{n}: {e}")))
        .collect()
}

/// Every `(;...;)` record of a text, in order.
fn ggf_games(text: &str, file: &str) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("(;") {
        let tail = &rest[start..];
        let end = tail
            .find(";)")
            .ok_or_else(|| format!("{file}: game {}: no closing ';)'", games.len() + 1))?;
        let record = &tail[..end + 2];
        let g = GgfGame::parse(record).map_err(|e| format!("{file}: game {}: {e}", games.len() + 1))?;
        games.push(g.game);
        rest = &tail[end + 2..];
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn transcripts_one_per_line_with_passes() {
        let text = "# two games\nf5d6c3\n\nf5f6e6f4\n";
        let games = read_games(text, "g.txt").expect("reads");
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].plies().len(), 4);
        let err = read_games("f5d6\nf5f5\n", "g.txt").expect_err("illegal");
        assert!(err.starts_with("g.txt:2: "), "{err}");
        // Edax's random games: transcripts with forced passes left out, which are put in.
        let edax = include_str!("../../tests/data/edax/games.txt");
        let games = read_games(edax, "games.txt").expect("reads");
        assert_eq!(games.len(), 40);
        assert!(games.iter().any(|g| g.plies().iter().any(|p| p.mv == Square::Pass)));
    }

    #[test]
    fn ggf_records_several_per_file_from_a_setup() {
        let a = "(;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)";
        let setup = Game::from_transcript(Position::start(), "f5d6").expect("legal").position();
        let b = GgfGame::new(Game::from_transcript(setup, "c3").expect("legal")).write();
        let games = read_games(&format!("{a}\n{b}\n"), "g.ggf").expect("reads");
        assert_eq!(games.len(), 2);
        assert_ne!(games[1].start(), Position::start());
        let err = read_games(&format!("{a}\n(;GM[Othello]B[A1];)"), "g.ggf").expect_err("illegal");
        assert!(err.starts_with("g.ggf: game 2: "), "{err}");
    }
}
