//! Data and training: self-play games, the evaluation's fit and checks, the ProbCut models
//! and their report, balanced openings.

use super::{Globals, Outcome, load};
use clap::Subcommand;
use oxello::base::OrderingEval;
use oxello::board::notation::{parse_transcript, play_transcript};
use oxello::board::{Position, Square};
use oxello::corpus::LabelPolicy;
use oxello::eval::Evaluator;
use oxello::eval::bootstrap::BootstrapEval;
use oxello::eval::dataset::{self, Record};
use oxello::search::request::Pruning;
use oxello::tools::selfplay::{self, SelfplayOptions};
use oxello::tools::{evalmae, fitendcut, fitmpc, matchplay, probcut_report, train};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum Command {
    /// Generate training games (resumable; appends to OUT).
    Selfplay(SelfplayArgs),
    /// Fit the evaluation weights on self-play records (ridge least squares by conjugate gradients, then a Huber refinement).
    Train(TrainArgs),
    /// Mean absolute error of the evaluation and of a fixed-depth search on held-out self-play
    /// positions, against exact scores (solved here) or deep-search values.
    EvalMae(EvalMaeArgs),
    /// Fit the Multi-ProbCut parameters on self-play positions and draw the v'-v plots.
    FitMpc(FitMpcArgs),
    /// Fit the endgame ProbCut model (exact score from a 2/4-ply evaluation search) per empties count.
    FitEndcut(FitEndcutArgs),
    /// Reproduce Buro's ProbCut tables (Table 2: node savings; Table 1: tournament).
    ProbcutReport(ProbcutReportArgs),
    /// Match the selected evaluation against the bootstrap one at equal depth (both colours).
    EvalMatch(EvalMatchArgs),
    /// The training corpus (corpus/): generate games into it, print its figures, merge shards.
    Corpus {
        #[command(subcommand)]
        action: super::corpus::Action,
    },
    /// Write openings: random N-ply lines whose search score is within ±max discs (or in a band).
    Openings(OpeningsArgs),
}

#[derive(clap::Args)]
pub struct SelfplayArgs {
    #[arg(long, default_value = "data/selfplay.txt")]
    out: PathBuf,
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Random plies at the start of each game (a range).
    #[arg(long, default_value_t = 8)]
    random_min: u32,
    #[arg(long, default_value_t = 24)]
    random_max: u32,
    /// Midgame search depth per move.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Selectivity of the midgame searches (Multi-ProbCut confidence in percent; 100: none).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100))]
    selectivity: u32,
    /// Label positions before the perfect-play part with their own search's value (kind
    /// `search`), not the game's result; the random plies are searched for their label too.
    #[arg(long)]
    search_labels: bool,
    /// Empties from which the game is played perfectly (exact labels).
    #[arg(long, default_value_t = 20)]
    exact: u32,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also solve and record the moves not played, for children with empties from
    /// --sibling-min to --sibling-max (exact labels off the game line; 0 0: off).
    #[arg(long, default_value_t = 0)]
    sibling_min: u32,
    #[arg(long, default_value_t = 0)]
    sibling_max: u32,
    /// Follow these games (one transcript per line, `f5d6c3...`) until --exact empties instead
    /// of random plies and searches: line N is game N (at most --games). Lines that are not
    /// legal games reaching --exact empties or the end are skipped, and counted.
    #[arg(long)]
    lines: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct TrainArgs {
    /// Dataset files (text records) and corpus folders or shard files (`corpus`).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The label of a corpus position before perfect play: the game's result (`game`), the
    /// value of the search that chose its move (`search`), that value from N empties up and
    /// the result below (`search-from-N`), or only the deeper searches' values from N empties
    /// up (positions there without one are left out) and the result below (`deep-from-N`).
    #[arg(long, default_value = "game", value_parser = LabelPolicy::parse)]
    labels: LabelPolicy,
    #[arg(long, default_value = "params/eval.bin")]
    out: PathBuf,
    /// Conjugate-gradient iterations of the least-squares fit.
    #[arg(long, default_value_t = 100)]
    iterations: usize,
    /// Ridge strength (pulls rarely seen pattern configurations towards zero).
    #[arg(long, default_value_t = 10.0)]
    ridge: f32,
    /// Huber threshold in discs for the reweighted rounds (0: plain least squares).
    #[arg(long, default_value_t = 4.0)]
    huber: f32,
    #[arg(long, default_value_t = 2)]
    huber_rounds: usize,
    /// Solve this many game-labelled training positions at 21 and at 22 empties and shift
    /// the game-result labels of each parity by the mean error found (0: no shift).
    #[arg(long, default_value_t = 0)]
    calibrate: usize,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Records also train the stages within this many empties of their own.
    #[arg(long, default_value_t = 2)]
    share: u32,
    /// Start from the selected weights (embedded or `--params`) instead of zeros: the fit
    /// learns a correction to them (the ridge pulls it to zero), so new data refines what
    /// earlier rounds learned without their datasets.
    #[arg(long)]
    warm_start: bool,
    /// Fit only these stages (stage = empties / 6); the others keep the starting weights.
    #[arg(long, num_args = 1..)]
    stages: Option<Vec<usize>>,
    /// Use about this share of the training games (learning curves; held-out games all stay).
    #[arg(long, default_value_t = 1.0)]
    fraction: f64,
    /// Keep the solved siblings (corpus) of about this share of the training games (those of
    /// held-out games all stay). All of them outnumber the game line 2 to 1 at 12-17 empties
    /// and bias a search's values there upward.
    #[arg(long, default_value_t = 1.0, value_parser = parse_share)]
    sibling_share: f64,
    /// Fit the siblings (corpus positions after a move not played) with an offset per empties
    /// count of their own, which the evaluation does not keep: they are better for their side
    /// to move than the line by construction, and without it the evaluation's offset takes on
    /// that (held-out figures include the siblings' offset)
    #[arg(long)]
    off_line_offset: bool,
    /// Training positions whose label is beyond ± this many discs count `--lopsided-weight`
    /// times (held-out ones are not reweighted): do the lopsided positions of games with
    /// blunders pull a stage away from the balanced ones? (stages 4-8: no,
    /// docs/history/training.md#session-27)
    #[arg(long, value_name = "DISCS")]
    lopsided_beyond: Option<f32>,
    /// The weight of the positions `--lopsided-beyond` selects (0: left out)
    #[arg(long, default_value_t = 1.0)]
    lopsided_weight: f32,
}

#[derive(clap::Args)]
pub struct EvalMaeArgs {
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    #[arg(long, default_value_t = 100)]
    positions: usize,
    #[arg(long, default_value_t = 20)]
    min_empties: u32,
    #[arg(long, default_value_t = 24)]
    max_empties: u32,
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Also write the measured positions with their reference values here (a dataset that
    /// later runs can measure without solving or searching again)
    #[arg(long)]
    save: Option<PathBuf>,
    /// Reference values from a search of this depth instead of exact solves (for positions
    /// too far from the end to solve; 0: solve). Search labels in the data are kept.
    #[arg(long, default_value_t = 0)]
    reference_depth: u32,
    /// Selectivity of the reference search (percent; 100: none).
    #[arg(long, default_value_t = 95, value_parser = clap::value_parser!(u32).range(1..=100))]
    reference_selectivity: u32,
    /// Corpus positions before perfect play carry the game's result (`game`) or their move's
    /// search value (`search`); with --fresh either is measured against the reference.
    #[arg(long, default_value = "game", value_parser = LabelPolicy::parse)]
    labels: LabelPolicy,
    /// Search the reference even where the record has a search label, and report the labels'
    /// own error (label-MAE).
    #[arg(long)]
    fresh: bool,
    /// Take positions from every game, not only the held-out ones (data no fit has seen).
    #[arg(long)]
    any_game: bool,
    /// Instead of the MAE, measure how well the depth-`--depth` search chooses moves: the
    /// exact value of the best move minus that of the move it picks, in discs (every move's
    /// child is solved). A bias shared by all moves does not count here.
    #[arg(long)]
    move_loss: bool,
    /// With --move-loss: exact scores of children solved before (read if the file exists) and
    /// of those solved now (written back), so that other weights are measured on the same
    /// children without solving them again.
    #[arg(long, requires = "move_loss")]
    loss_cache: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct FitMpcArgs {
    /// Dataset files (self-play records, or positions) and corpus folders or shard files (`corpus`: positions of held-out games).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Positions per game stage.
    #[arg(long, default_value_t = 200)]
    positions: usize,
    /// Deepest search fitted (at most 20).
    #[arg(long, default_value_t = 10)]
    max_depth: u32,
    /// Selectivity of the fitting searches in percent (100: full width). Deep pairs are
    /// affordable only with the selective search the levels play with.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100))]
    selectivity: u32,
    #[arg(long, default_value = "params/mpc.txt")]
    out: PathBuf,
    #[arg(long, default_value = "params/plots")]
    plots: PathBuf,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(clap::Args)]
pub struct FitEndcutArgs {
    /// Dataset files (self-play records); exact-labelled positions of held-out games are used.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Positions per empties count (at most).
    #[arg(long, default_value_t = 3000)]
    per_empties: usize,
    #[arg(long, default_value_t = 10)]
    min_empties: u32,
    #[arg(long, default_value_t = 20)]
    max_empties: u32,
    /// Rows past the labelled range are extrapolated up to this many empties.
    #[arg(long, default_value_t = 40)]
    extrapolate_to: u32,
    #[arg(long, default_value = "params/endcut.txt")]
    out: PathBuf,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(clap::Args)]
pub struct ProbcutReportArgs {
    /// Only this table (default: both).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    table: Option<u8>,
    /// Positions per disc count (Table 2).
    #[arg(long, default_value_t = 50)]
    positions: usize,
    /// Search depth (Table 2).
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Games per threshold (Table 1; the paper used 70).
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Time per move in milliseconds (Table 1).
    #[arg(long, default_value_t = 100)]
    time_ms: u64,
    /// ProbCut threshold t for Table 2.
    #[arg(long, default_value_t = 1.5)]
    t: f64,
    /// Width of the N-best comparison (Table 2).
    #[arg(long, default_value_t = 3)]
    nbest: u32,
    #[arg(long)]
    json: bool,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(clap::Args)]
pub struct EvalMatchArgs {
    /// Openings file (one transcript per line).
    #[arg(long, default_value = "book/openings.txt")]
    openings: PathBuf,
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Empties from which both sides solve exactly.
    #[arg(long, default_value_t = 14)]
    exact: u32,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct OpeningsArgs {
    /// How many openings.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Random plies from the start position.
    #[arg(long, default_value_t = 8)]
    plies: u32,
    /// Depth of the search that values each candidate.
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Selectivity of that search (Multi-ProbCut confidence in percent; 100: none).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100))]
    selectivity: u32,
    /// Keep a candidate when its value is within this many discs of 0 (with --min-score: at
    /// most this, signed).
    #[arg(long, default_value_t = 2, allow_negative_numbers = true)]
    max_score: i32,
    /// Keep a candidate only when its value (for the side to move, signed) is at least this:
    /// with --max-score a band, e.g. --min-score 4 --max-score 10 (the side to move ahead by
    /// 4-10 discs) or --min-score -10 --max-score -4 (behind by 4-10).
    #[arg(long, allow_negative_numbers = true)]
    min_score: Option<i32>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(command: Command, globals: &Globals, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    match command {
        Command::Selfplay(args) => self_play(&args, eval),
        Command::Train(args) => train(&args, globals, eval),
        Command::Corpus { action } => super::corpus::run(action, globals, eval),
        Command::EvalMae(args) => eval_mae(&args, eval),
        Command::FitMpc(args) => fit_mpc(&args, eval),
        Command::FitEndcut(args) => fit_endcut(&args, eval),
        Command::ProbcutReport(args) => probcut_report(&args, globals, eval),
        Command::EvalMatch(args) => eval_match(&args, eval),
        Command::Openings(args) => {
            for line in matchplay::generate_openings(
                args.count,
                args.plies,
                args.depth,
                Pruning::from_percent(args.selectivity),
                args.min_score.unwrap_or(-args.max_score)..=args.max_score,
                eval,
                args.seed,
            ) {
                println!("{line}");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn self_play(args: &SelfplayArgs, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    let lines = match &args.lines {
        Some(path) => read_lines(path, args.exact)?,
        None => Vec::new(),
    };
    let opts = SelfplayOptions {
        games: if lines.is_empty() {
            args.games
        } else {
            args.games.min(lines.len() as u64)
        },
        random_plies_min: args.random_min,
        random_plies_max: args.random_max.max(args.random_min),
        depth: args.depth,
        selectivity: args.selectivity,
        search_labels: args.search_labels,
        exact: args.exact,
        threads: args.threads,
        seed: args.seed,
        hash_mb: 16,
        siblings: args.sibling_min..=args.sibling_max,
        lines,
    };
    let out = &args.out;
    // A directory that cannot be made shows up as the file that cannot be opened.
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = std::fs::create_dir_all(dir);
    }
    let n = selfplay::run(out, &opts, eval).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    eprintln!("selfplay: {n} games written to {}", out.display());
    Ok(ExitCode::SUCCESS)
}

/// The games of a transcripts file as square indices; a line that is not a legal game reaching
/// `exact` empties (or the end) becomes an empty game, skipped by self-play, so that line N
/// stays game N.
fn read_lines(path: &Path, exact: u32) -> Result<Vec<Vec<usize>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut skipped = 0;
    let games: Vec<Vec<usize>> = text
        .lines()
        .map(|line| {
            let reaches = |p: &Position| p.board.is_game_over() || p.board.empty_count() <= exact;
            match (parse_transcript(line), play_transcript(Position::start(), line)) {
                (Ok(moves), Ok(line)) if line.last().is_some_and(reaches) => moves
                    .into_iter()
                    .filter_map(|m| match m {
                        Square::At(sq) => Some(sq as usize),
                        Square::Pass => None,
                    })
                    .collect(),
                _ => {
                    skipped += 1;
                    Vec::new()
                }
            }
        })
        .collect();
    eprintln!(
        "selfplay: {} games in {}, {skipped} skipped",
        games.len() - skipped,
        path.display()
    );
    Ok(games)
}

fn train(args: &TrainArgs, globals: &Globals, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    load::output_folder(&args.out)?;
    if let Some(bad) = args.stages.iter().flatten().find(|&&s| s >= oxello::eval::STAGES) {
        return Err(format!("--stages {bad}: stages are 0..={}", oxello::eval::STAGES - 1));
    }
    if !(args.fraction > 0.0 && args.fraction <= 1.0) {
        return Err(format!("--fraction {}: must be in (0, 1]", args.fraction));
    }
    if let Some(d) = args.lopsided_beyond.filter(|d| d.is_nan() || *d < 0.0) {
        return Err(format!("--lopsided-beyond {d}: must be a number of discs >= 0"));
    }
    if !(0.0..=1e6).contains(&args.lopsided_weight) {
        return Err(format!("--lopsided-weight {}: must be in 0..=1e6", args.lopsided_weight));
    }
    let init = if args.warm_start {
        Some(Evaluator::load_or_embedded(globals.params.as_deref()).map_err(|e| e.to_string())?)
    } else {
        None
    };
    let mut opts = train::TrainOptions {
        iterations: args.iterations,
        ridge: args.ridge,
        huber: args.huber,
        huber_rounds: args.huber_rounds,
        threads: args.threads,
        share: args.share,
        init,
        label_shift: train::LabelShift::default(),
        stages: args.stages.clone(),
        fraction: args.fraction,
        off_line_offset: args.off_line_offset,
        lopsided: (args.lopsided_beyond.unwrap_or(f32::INFINITY), args.lopsided_weight),
    };
    let policy = args.labels;
    let records = read_records_as(&args.data, "train", policy, args.sibling_share)?;
    if args.calibrate > 0 {
        let (shift, n) = train::calibrate(&records, args.calibrate, [21, 22], eval, opts.threads);
        eprintln!(
            "train: {n} game-labelled positions solved: labels shifted by {:+.2} at odd empties, {:+.2} at even",
            shift.odd, shift.even
        );
        opts.label_shift = shift;
    }
    let (evaluator, _) = train::train(&records, &opts, true);
    let (mae, n) = train::holdout_mae(&evaluator, &records, 20..=24);
    println!("held-out MAE of the static evaluation at 20-24 empties (exact labels): {mae:.2} discs over {n} positions");
    load::write(&args.out, evaluator.encode())?;
    println!("weights written to {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

fn eval_mae(args: &EvalMaeArgs, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    if let Some(path) = &args.save {
        load::output_folder(path)?;
    }
    let (min_empties, max_empties, depth) = (args.min_empties, args.max_empties, args.depth);
    let policy = args.labels;
    let records = read_records_as(&args.data, "eval-mae", policy, 1.0)?;
    let picked = evalmae::pick(&records, min_empties..=max_empties, args.positions, args.any_game);
    let reference = match args.reference_depth {
        0 => evalmae::Reference::Exact,
        d => evalmae::Reference::Search {
            depth: d,
            percent: args.reference_selectivity,
        },
    };
    if args.move_loss {
        return move_loss(args, &picked, eval);
    }
    let r = evalmae::measure(&picked, depth, reference, args.fresh, eval, true);
    if let Some(path) = &args.save {
        load::write(path, evalmae::format_records(&r.solved))?;
    }
    let against = match reference {
        evalmae::Reference::Exact => "exact scores".to_string(),
        evalmae::Reference::Search { depth, percent } => format!("depth-{depth} searches at {percent} %"),
    };
    println!(
        "{} held-out positions at {min_empties}-{max_empties} empties, against {against}: static evaluation MAE {:.2} discs, depth-{depth} search MAE {:.2} discs",
        r.positions, r.static_mae, r.search_mae
    );
    println!("empties positions static-MAE static-bias depth-{depth}-MAE depth-{depth}-bias label-MAE label-bias");
    for x in &r.rows {
        let label = if x.label_positions > 0 {
            format!("{:9.2} {:10.2}", x.label_mae, x.label_bias)
        } else {
            format!("{:>9} {:>10}", "-", "-")
        };
        println!(
            "{:7} {:9} {:10.2} {:11.2} {:11.2} {:12.2} {label}",
            x.empties, x.positions, x.static_mae, x.static_bias, x.search_mae, x.search_bias
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `eval-mae --move-loss`: the search's move choices against every move's exact value.
fn move_loss(args: &EvalMaeArgs, picked: &[dataset::Record], eval: &(dyn OrderingEval + Sync)) -> Outcome {
    if args.reference_depth != 0 {
        return Err("eval-mae: --move-loss measures against exact values; leave out --reference-depth".to_string());
    }
    let mut cache = evalmae::ExactCache::new();
    // The file as read: the newly solved children are appended to it, so its order is stable.
    let mut text = String::new();
    if let Some(path) = args.loss_cache.as_ref().filter(|p| p.exists()) {
        text = load::read_text(path)?;
        let (records, errors) = dataset::parse(&text);
        report_skipped(path, &errors);
        cache.extend(
            records
                .iter()
                .filter(|r| r.label == dataset::Label::Exact)
                .map(|r| (r.board, r.score as i32)),
        );
        eprintln!("eval-mae: {} exact scores from {}", cache.len(), path.display());
    }
    let depth = args.depth;
    let r = evalmae::move_loss(picked, depth, eval, &mut cache, true);
    if let Some(path) = args.loss_cache.as_ref().filter(|_| !r.solved.is_empty()) {
        text.push_str(&evalmae::format_records(&r.solved));
        load::write(path, text)?;
    }
    println!(
        "{} positions at {}-{} empties: depth-{depth} search loses {:.3} discs a move against the best move's exact value, best move in {:.1} %",
        r.positions,
        args.min_empties,
        args.max_empties,
        r.loss,
        100.0 * r.best as f64 / r.positions.max(1) as f64
    );
    println!("empties positions loss best-move-%");
    for x in &r.rows {
        println!(
            "{:7} {:9} {:6.3} {:11.1}",
            x.empties,
            x.positions,
            x.loss,
            100.0 * x.best as f64 / x.positions.max(1) as f64
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn fit_mpc(args: &FitMpcArgs, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    load::output_folder(&args.out)?;
    let corpora: Vec<PathBuf> = args.data.iter().filter(|p| is_corpus(p)).cloned().collect();
    // From a corpus only the held-out games (numbered 9 mod 10): the evaluation was fitted on
    // the others, where it looks more accurate than where the search meets it.
    let mut positions: Vec<_> = if corpora.is_empty() {
        Vec::new()
    } else {
        read_records(&corpora, "fit-mpc")?
            .into_iter()
            .filter(|r| r.game % 10 == 9 && r.board.moves() != 0)
            .map(|r| r.board)
            .collect()
    };
    for file in args.data.iter().filter(|p| !is_corpus(p)) {
        let (p, errors) = fitmpc::read_positions(&load::read_text(file)?);
        report_skipped(file, &errors);
        positions.extend(p);
    }
    if positions.is_empty() {
        return Err(no_records(&args.data));
    }
    let opts = fitmpc::FitOptions {
        positions_per_stage: args.positions,
        max_depth: args.max_depth.min(20),
        selectivity: args.selectivity,
        threads: args.threads,
        seed: args.seed,
    };
    let (table, svgs) = fitmpc::run(&positions, &opts, eval);
    let header = format!(
        "Multi-ProbCut parameters: v = a*v' + b + e, e ~ N(0, sigma^2), per stage (empties) and depth pair.\n\
         depth 60 = exact score. Regenerate with: {}",
        command_line()
    );
    load::write(&args.out, table.to_text(&header))?;
    // A directory that cannot be made shows up as the first plot that cannot be written.
    let _ = std::fs::create_dir_all(&args.plots);
    for (name, svg) in svgs {
        load::write(&args.plots.join(&name), svg)?;
    }
    println!(
        "{:>5} {:>5} {:>5} {:>5} {:>7} {:>7} {:>6} {:>6} {:>6}",
        "emin", "emax", "d", "d'", "a", "b", "sigma", "r2", "n"
    );
    for f in table.fits() {
        println!(
            "{:>5} {:>5} {:>5} {:>5} {:>7.3} {:>7.2} {:>6.2} {:>6.3} {:>6}",
            f.min_empties, f.max_empties, f.depth, f.check, f.a, f.b, f.sigma, f.r2, f.samples
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn fit_endcut(args: &FitEndcutArgs, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    load::output_folder(&args.out)?;
    let records = read_records(&args.data, "fit-endcut")?;
    let opts = fitendcut::EndCutOptions {
        per_empties: args.per_empties,
        min_empties: args.min_empties,
        max_empties: args.max_empties,
        extrapolate_to: args.extrapolate_to.min(64),
        threads: args.threads,
        seed: args.seed,
    };
    let table = fitendcut::run(&records, &opts, eval);
    if table.fits().iter().all(|f| f.samples == 0) {
        return Err(format!(
            "fit-endcut: no exact-labelled held-out positions with {}-{} empties (held-out games are those numbered 9 mod 10; \
             set --min-empties and --max-empties to where the data has `exact` records)",
            args.min_empties, args.max_empties
        ));
    }
    let header = format!(
        "Endgame ProbCut: exact score v = a*v' + b + e, e ~ N(0, sigma^2), v' = the solver's check search\n\
         (2 plies below {} empties, 4 from there). One row per empties count; samples 0 = extrapolated.\n\
         Regenerate with: {}",
        oxello::search::endcut::DEEP_CHECK_FROM,
        command_line()
    );
    load::write(&args.out, table.to_text(&header))?;
    for f in table.fits() {
        println!(
            "empties {:2} check {}: a {:.3} b {:+.2} sigma {:.2} r2 {:.3} samples {}",
            f.min_empties, f.check, f.a, f.b, f.sigma, f.r2, f.samples
        );
    }
    println!("written to {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

fn probcut_report(args: &ProbcutReportArgs, globals: &Globals, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    let opts = probcut_report::ReportOptions {
        positions: args.positions,
        depth: args.depth,
        games: args.games,
        time_per_move: std::time::Duration::from_millis(args.time_ms),
        t: args.t,
        nbest: args.nbest,
        seed: args.seed,
        threads: args.threads,
    };
    let mpc = load::mpc(globals.params.as_deref())?;
    if args.table != Some(1) {
        let rows = probcut_report::table2(&opts, &mpc, eval, true);
        if !args.json {
            println!(
                "Table 2: {}-ply searches, brute force vs selective, {} positions per disc count\n",
                args.depth, args.positions
            );
        }
        print!("{}", probcut_report::format_table2(&rows, args.json));
    }
    if args.table != Some(2) {
        let rows = probcut_report::table1(&opts, eval, true);
        if !args.json {
            println!(
                "\nTable 1: ProbCut vs full width at {} ms per move, {} games per row\n",
                args.time_ms, args.games
            );
        }
        print!("{}", probcut_report::format_table1(&rows, args.json));
    }
    Ok(ExitCode::SUCCESS)
}

fn eval_match(args: &EvalMatchArgs, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    let text = load::openings_text(&args.openings)?;
    let lines = matchplay::parse_openings(&text).map_err(|(line, e)| format!("{}:{line}: {e}", args.openings.display()))?;
    fn player<'a>(name: &str, eval: &'a (dyn OrderingEval + Sync), args: &EvalMatchArgs) -> matchplay::Player<'a> {
        matchplay::Player {
            name: name.to_string(),
            eval,
            depth: Some(args.depth),
            time_per_move: None,
            exact_empties: args.exact,
            wld_empties: args.exact,
            pruning: Pruning::None,
        }
    }
    let a = player("evaluation", eval, args);
    let b = player("bootstrap", &BootstrapEval, args);
    let s = matchplay::run_match(&a, &b, &lines, args.threads, 16, !args.json);
    let average = s.discs as f64 / s.games().max(1) as f64;
    if args.json {
        println!(
            "{{\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"percent\":{:.1},\"average_discs\":{average:.2}}}",
            s.games(),
            s.wins,
            s.draws,
            s.losses,
            s.percent(),
        );
    } else {
        println!(
            "evaluation vs bootstrap at depth {}: {} games, +{} ={} -{}, {:.1} %, average {average:+.2} discs",
            args.depth,
            s.games(),
            s.wins,
            s.draws,
            s.losses,
            s.percent(),
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// A folder or a `.oxc` shard is a corpus; anything else a text dataset.
fn is_corpus(p: &Path) -> bool {
    p.is_dir() || p.extension().is_some_and(|x| x == "oxc")
}

/// Reads dataset files and corpora (game-result labels before perfect play).
fn read_records(data: &[PathBuf], tool: &str) -> Result<Vec<Record>, String> {
    read_records_as(data, tool, LabelPolicy::Game, 1.0)
}

/// Reads dataset files; bad records are reported by line (the first ten per file) and skipped.
/// A folder or a `.oxc` file is a corpus, read whole (any bad shard is an error), its
/// positions before perfect play labelled by `policy`, the siblings of about `sibling_share`
/// of its training games kept.
fn read_records_as(data: &[PathBuf], tool: &str, policy: LabelPolicy, sibling_share: f64) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    let corpora: Vec<PathBuf> = data.iter().filter(|p| is_corpus(p)).cloned().collect();
    if !corpora.is_empty() {
        records.extend(super::corpus::records(&corpora, policy, sibling_share)?);
    }
    // Text datasets' game numbers restart in each file; a file index after the corpora's
    // runs (each a multiple of RUN_STRIDE apart) keeps them apart.
    for (k, file) in data.iter().filter(|p| !is_corpus(p)).enumerate() {
        let (mut r, errors) = dataset::parse_file(&load::read_text(file)?, k);
        for rec in &mut r {
            rec.game += oxello::corpus::store::RUN_STRIDE * 1_000;
        }
        report_skipped(file, &errors);
        records.extend(r);
    }
    eprintln!("{tool}: {} records", records.len());
    if records.is_empty() {
        return Err(no_records(data));
    }
    Ok(records)
}

/// The error of datasets in which no line was a record.
fn no_records(data: &[PathBuf]) -> String {
    let files: Vec<String> = data.iter().map(|f| f.display().to_string()).collect();
    format!(
        "{}: no usable record (expected lines '<64 squares> <X|O> <score> <exact|search|game>', as selfplay writes)",
        files.join(", ")
    )
}

/// Warns about the bad lines of a dataset (the first ten), which the tools skip.
fn report_skipped(file: &Path, errors: &[(usize, String)]) {
    for (line, e) in errors.iter().take(10) {
        eprintln!("oxello: {}:{line}: {e} (record skipped)", file.display());
    }
    if errors.len() > 10 {
        eprintln!("oxello: {}: {} more bad records skipped", file.display(), errors.len() - 10);
    }
}

/// This run's command line as `oxello ARGS` (not the binary's path), for file headers.
fn command_line() -> String {
    std::iter::once("oxello".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A share between 0 and 1.
fn parse_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a share between 0 and 1")),
    }
}
