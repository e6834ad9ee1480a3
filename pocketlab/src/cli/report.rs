//! `pocketlab report`: a balance report from one or more log directories.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::Args;
use pocketlab_selfplay::Experiment;
use pocketlab_selfplay::files::create_output_dir;
use pocketlab_selfplay::log::{MOVES_DIR, chunk_name, list_chunks};

use pocketlab_report::build::{ReportOptions, build_report};
use pocketlab_report::render::write_report;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Log directories of one experiment (several for shards kept apart).
    #[arg(required = true)]
    pub logs: Vec<PathBuf>,
    /// Where to write the report (default: the parent of the first log, i.e. `reports/<experiment>/`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Equivalence margin in pawns.
    #[arg(long, default_value_t = 0.25)]
    pub margin: f64,
    /// A class study's log whose verdicts a value scale's class tables
    /// take as known (repeat for several): a pair it found different
    /// cannot share a class of a table that holds.
    #[arg(long = "verdicts", value_name = "LOG_DIR")]
    pub verdicts: Vec<PathBuf>,
}

pub fn run(args: &ReportArgs) -> anyhow::Result<()> {
    if !(args.margin > 0.0 && args.margin < 10.0) {
        anyhow::bail!("--margin must be between 0 and 10 pawns");
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(&args.logs[0]));
    write(
        &args.logs,
        &out,
        &ReportOptions {
            margin_pawns: args.margin,
            verdict_logs: args.verdicts.clone(),
            ..ReportOptions::default()
        },
    )
}

/// The report counts games from the games chunks; replays (branching
/// factor, colour values) need their moves. Name the moves chunks that are
/// orphaned or missing instead of failing on them, and changes to play
/// since the run (replays use the files as they are now).
fn warn_about_moves(logs: &[PathBuf]) -> anyhow::Result<()> {
    let files = list_chunks(logs)?;
    for chunk in &files.orphaned_moves {
        eprintln!(
            "note: {}: a moves chunk without its games chunk (a run died between writing the \
             two): left out",
            chunk.path.display()
        );
    }
    // A log's experiment is read when first wanted, and once; one that no
    // longer loads warns of nothing here (the report says why it cannot
    // use it).
    let experiments: Vec<OnceCell<Option<Experiment>>> =
        files.logs.iter().map(|_| OnceCell::new()).collect();
    let experiment = |dir: usize| {
        experiments[dir]
            .get_or_init(|| files.logs[dir].experiment().ok())
            .as_ref()
    };
    for chunk in &files.games_without_moves {
        if experiment(chunk.dir).is_some_and(|e| e.log.moves) {
            eprintln!(
                "warning: {} has no moves chunk ({} is missing): its games count, but are not \
                 replayed",
                chunk.path.display(),
                files
                    .dir_of(chunk)
                    .join(MOVES_DIR)
                    .join(chunk_name(chunk.shard, chunk.number))
                    .display()
            );
        }
    }
    if let Some(log) = files.logs.first()
        && let Some(exp) = experiment(0)
    {
        // Changed rules refuse the log when the report is built; what is
        // left to warn of are changes to play (engine, evaluation, book).
        let changes = log.changes_since_run(exp);
        if !changes.is_empty() && log.rule_changes_since_run(exp).is_empty() {
            eprintln!(
                "warning: changed since the run (replays use the files as they are now): {}",
                changes.join("; ")
            );
        }
    }
    Ok(())
}

/// `reports/<experiment>/` for a log in `reports/<experiment>/log`.
pub fn default_out(log: &Path) -> PathBuf {
    log.parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Build and render a report; print where it went and its headlines.
pub fn write(logs: &[PathBuf], out: &Path, options: &ReportOptions) -> anyhow::Result<()> {
    warn_about_moves(logs)?;
    // The folder exists before the report is built, so that commands the
    // report prints can name files relative to it.
    create_output_dir(out).with_context(|| out.display().to_string())?;
    let options = ReportOptions {
        out_dir: Some(out.to_path_buf()),
        ..options.clone()
    };
    let report = build_report(logs, &options)?;
    let rendered = write_report(&report, out)?;
    for h in &report.headlines {
        println!("{h}");
    }
    println!("report: {}", rendered.html.display());
    Ok(())
}
