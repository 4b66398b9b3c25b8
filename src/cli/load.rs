//! What several commands read: the evaluation and tables selected by the global options, the
//! book, a position given by `--board` and `--moves`, text files. Errors are messages in the
//! style of `super::exit`.

use super::{Eval, Globals};
use oxello::board::Position;
use oxello::board::notation::{parse_position, play_transcript};
use oxello::book::Book;
use oxello::engine::book::{EngineBook, Lottery};
use oxello::engine::searcher::LayerLoader;
use oxello::eval::Evaluator;
use oxello::eval::bootstrap::BootstrapEval;
use oxello::search::endcut::EndCut;
use oxello::search::levels::Levels;
use oxello::search::mpc::MpcTable;
use std::path::Path;

/// The level table: `--params DIR/levels.txt` when present, else the embedded one.
pub fn levels(globals: &Globals) -> Result<Levels, String> {
    match globals.params.as_ref().map(|d| d.join("levels.txt")).filter(|p| p.exists()) {
        Some(p) => Levels::load(&p),
        None => Levels::embedded(),
    }
    .map_err(|e| e.to_string())
}

/// The evaluation selected on the command line: trained weights (embedded or from --params)
/// or the bootstrap evaluation. `--params DIR/endcut.txt`, when present, replaces the embedded
/// endgame ProbCut model first (it belongs to the weights in the same directory).
pub fn evaluation(globals: &Globals) -> Result<Eval, String> {
    install_endcut(globals.params.as_deref())?;
    if globals.bootstrap_eval {
        return Ok(Box::new(BootstrapEval));
    }
    Evaluator::load_or_embedded(globals.params.as_deref())
        .map(|e| Box::new(e) as Eval)
        .map_err(|e| e.to_string())
}

/// The layer the engines' levels marked `layer` read when the evaluation has none: the
/// embedded one, trained over the embedded weights. None with `--params` (a `DIR/net.bin` is
/// read with `DIR/eval.bin`, the weights it corrects) or with the bootstrap evaluation.
pub fn layer_loader(globals: &Globals) -> Option<LayerLoader> {
    if globals.params.is_some() || globals.bootstrap_eval {
        return None;
    }
    Some(std::sync::Arc::new(|| {
        Evaluator::embedded_with_layer()
            .map(|e| Box::new(e) as Eval)
            .map_err(|e| e.to_string())
    }))
}

fn install_endcut(params: Option<&Path>) -> Result<(), String> {
    let Some(path) = params.map(|d| d.join("endcut.txt")).filter(|p| p.exists()) else {
        return Ok(());
    };
    let name = path.display().to_string();
    let text = read_text(&path)?;
    let model = EndCut::parse(&text, &name).map_err(|e| e.to_string())?;
    // The model is read once per process; a second install would leave the first in use
    // while the caller believed the file was loaded.
    if EndCut::install(model) {
        Ok(())
    } else {
        Err(format!("{name}: an end-cut model is already in use"))
    }
}

/// The MPC table: `--params DIR/mpc.txt` when present, else the embedded one.
pub fn mpc(params: Option<&Path>) -> Result<MpcTable, String> {
    match params.map(|d| d.join("mpc.txt")).filter(|p| p.exists()) {
        Some(p) => MpcTable::load(&p).map_err(|e| e.to_string()),
        None => MpcTable::embedded().map_err(|e| e.to_string()),
    }
}

/// The engines' book: empty with --no-book, the file of --book (empty when it does not exist
/// yet), else the embedded one.
pub fn book(globals: &Globals) -> Result<EngineBook, String> {
    let chance = |book, file| EngineBook {
        book,
        file,
        randomness: globals.book_randomness,
        rng: Lottery::from_clock(),
    };
    if globals.no_book {
        return Ok(chance(Book::new(), None));
    }
    let Some(path) = globals.book.as_deref() else {
        let book = Book::embedded().map_err(|e| e.to_string())?;
        return Ok(chance(book, None));
    };
    let book = if path.exists() {
        Book::load(path).map_err(|e| e.to_string())?
    } else {
        log::warn!(target: super::LOG, "book {} does not exist yet: starting empty", path.display());
        Book::new()
    };
    Ok(chance(book, Some(path.to_path_buf())))
}

/// The `--board` option: the start position when absent.
pub fn board_option(board: Option<&str>) -> Result<Position, String> {
    match board {
        None => Ok(Position::start()),
        Some(b) => parse_position(b).map_err(|e| {
            format!("--board '{b}': {e}; a position is \"<64 squares> <X|O>\", a1 to h8 as X, O or -, then the side to move")
        }),
    }
}

/// The position of `--board` (default: the start) after the `--moves` transcript, if any.
pub fn position_option(board: Option<&str>, moves: Option<&str>) -> Result<Position, String> {
    let start = board_option(board)?;
    let Some(moves) = moves else {
        return Ok(start);
    };
    let line = play_transcript(start, moves).map_err(|e| format!("--moves '{moves}': {e}"))?;
    Ok(*line.last().unwrap_or(&start))
}

/// A file's text.
pub fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))
}

/// An openings file's text (`--openings`, which defaults to a path inside the repository).
pub fn openings_text(path: &Path) -> Result<String, String> {
    read_text(path).map_err(|e| {
        format!(
            "{e}; --openings FILE takes one opening a line (e.g. f5d6c3), by default the oxello repository's book/openings.txt"
        )
    })
}

/// Fails before a long run whose output could not be written: the folder of `path` does not
/// exist (or is no folder).
pub fn output_folder(path: &Path) -> Result<(), String> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if dir.is_dir() {
        Ok(())
    } else {
        Err(format!("{}: cannot write: no folder {}", path.display(), dir.display()))
    }
}

/// Writes a file.
pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), String> {
    std::fs::write(path, contents).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}
