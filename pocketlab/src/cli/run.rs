//! `pocketlab run`: play an experiment (the embedded default without arguments).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use clap::Args;
use pocketlab_selfplay::{
    AbsentEval, DEFAULT_MEMORY_BUDGET_MB, Experiment, RunOptions, RunSummary, Shard, StagePlanner,
    check_memory, run, run_stages,
};

use pocketlab_report::adaptive::AdaptiveStudy;
use pocketlab_report::scale_study::ScaleStudy;

/// The default experiment `cargo run --release` plays: a small but real
/// class-equivalence study (see `configs/experiments/default.toml`).
pub const DEFAULT_EXPERIMENT: &str = include_str!("../../../configs/experiments/default.toml");

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Experiment file (TOML). Without one, the embedded default experiment.
    pub experiment: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Play only part I of N of the schedule (pairs with index % N == I).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Staged designs: play only stage K (1-based; with --shard, this
    /// shard's part of it), after checking the stages before it are
    /// complete in the log. A stage past the end of the study does nothing.
    #[arg(long, value_name = "K")]
    pub stage: Option<usize>,
    /// Log directory (default: `reports/<experiment>/log`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress output.
    #[arg(long)]
    pub quiet: bool,
    /// Memory the engines' hash tables may take, MiB: both engines of a
    /// game, times the worker threads (checked before the run starts).
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MEMORY_BUDGET_MB)]
    pub max_memory_mb: u64,
}

/// Most worker threads a run may start.
const MAX_THREADS: usize = 1024;

/// The worker threads `--threads` asks for (default: all cores), refused
/// outside 1 to [`MAX_THREADS`] rather than adjusted.
pub fn worker_threads(asked: Option<usize>) -> anyhow::Result<usize> {
    let threads =
        asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    if !(1..=MAX_THREADS).contains(&threads) {
        anyhow::bail!("--threads must be between 1 and {MAX_THREADS}, got {threads}");
    }
    Ok(threads)
}

pub fn load_experiment(path: Option<&Path>) -> anyhow::Result<Experiment> {
    load_experiment_with(path, AbsentEval::Shipped)
}

/// [`load_experiment`], an engine table without `eval` playing `absent_eval`.
fn load_experiment_with(
    path: Option<&Path>,
    absent_eval: AbsentEval,
) -> anyhow::Result<Experiment> {
    Ok(match path {
        Some(p) => Experiment::load_with(p, absent_eval)?,
        None => Experiment::parse_with(
            "configs/experiments/default.toml (embedded)",
            DEFAULT_EXPERIMENT,
            Path::new("."),
            absent_eval,
        )?,
    })
}

/// What an engine table without `eval` plays in the log at `out_dir`, if
/// one was begun there: a log continues with the player it began with.
fn logged_absent_eval(out_dir: &Path) -> Option<AbsentEval> {
    let log = pocketlab_selfplay::log::open_log(out_dir).ok()?;
    Some(AbsentEval::of_recorded(
        log.manifest.inputs.keys().map(String::as_str),
    ))
}

/// What a run left to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Played {
    /// Every pair the experiment (or its design) plays is in the log.
    Complete,
    /// A sequential study with a stage still to play (or to finish, by
    /// other shards); stderr said which.
    StagesLeft,
}

/// Play the experiment; returns it, its log directory and what is left.
pub fn play(args: &RunArgs) -> anyhow::Result<(Experiment, PathBuf, Played)> {
    let mut exp = load_experiment(args.experiment.as_deref())?;
    let out_dir = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("reports").join(&exp.name).join("log"));
    if let Some(absent_eval) = logged_absent_eval(&out_dir).filter(|a| *a != AbsentEval::Shipped) {
        exp = load_experiment_with(args.experiment.as_deref(), absent_eval)?;
    }
    let threads = worker_threads(args.threads)?;
    check_memory(&exp, threads, args.max_memory_mb)?;
    let options = RunOptions {
        out_dir: out_dir.clone(),
        threads,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        quiet: args.quiet,
    };
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupt);
    // A second Ctrl-C while shutting down kills the process; the log stays whole either way.
    ctrlc_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    if !args.quiet {
        eprintln!(
            "experiment {}: {} matchups, up to {} games, {threads} threads, shard {}, log {}",
            exp.name,
            exp.matchups.len(),
            exp.max_games(),
            options.shard,
            out_dir.display()
        );
    }
    // Not an error: a designer may want the pairs' score anyway.
    for m in exp.mirrored_matchups() {
        eprintln!(
            "note: matchup {}: armies {} and {} play alike (same setup, same reproducible engine, no root noise), so each pair's second game repeats its first; for distinct games set root_noise under [engine] or give the armies different limits",
            m.name, exp.armies[m.a].name, exp.armies[m.b].name
        );
    }
    let summary = match stage_planner(&exp) {
        Some(planner) => run_stages(&exp, &options, planner.as_ref(), args.stage, &interrupt),
        None if args.stage.is_some() => {
            anyhow::bail!(
                "--stage is for experiments with design = \"sequential-equivalence\" or \
                 \"value-scale\" in [stop]"
            )
        }
        None => run(&exp, &options, &interrupt),
    }
    .with_context(|| format!("running experiment {}", exp.name))?;
    if summary.interrupted {
        anyhow::bail!(
            "interrupted after {} new games; the log in {} is complete up to its last chunk: run the same command to resume",
            summary.played_games,
            out_dir.display()
        );
    }
    if !args.quiet {
        let total = summary.resumed_games + summary.played_games;
        eprintln!(
            "{} games played in {:.1} s ({:.0} games/hour), {} resumed from the log, {total} in total",
            summary.played_games,
            summary.seconds,
            summary.played_games as f64 / summary.seconds.max(1e-9) * 3600.0,
            summary.resumed_games
        );
    }
    Ok((exp, out_dir, stage_outcome(&summary, options.shard)))
}

/// The planner of a study played in stages, if `exp` is one.
pub fn stage_planner(exp: &Experiment) -> Option<Box<dyn StagePlanner>> {
    if let Some(study) = AdaptiveStudy::of(exp) {
        return Some(Box::new(study));
    }
    ScaleStudy::of(exp).map(|study| Box::new(study) as Box<dyn StagePlanner>)
}

/// Where a staged study stands after this run, said on stderr.
fn stage_outcome(summary: &RunSummary, shard: Shard) -> Played {
    let Some(stages) = &summary.stages else {
        return Played::Complete;
    };
    let played = match stages.played.as_slice() {
        [] => "no stage to play here".to_owned(),
        [one] => format!("stage {one} played"),
        [first, .., last] => format!("stages {first} to {last} played"),
    };
    match stages.next {
        None => {
            eprintln!("{played}; the study is over");
            Played::Complete
        }
        Some(next) if stages.missing_pairs > 0 && stages.played.contains(&next) => {
            eprintln!(
                "{played} (shard {shard}); {} pairs of stage {next} are still to be logged by \
                 other shards; when every shard has finished, play stage {}",
                stages.missing_pairs,
                next + 1
            );
            Played::StagesLeft
        }
        Some(next) => {
            eprintln!(
                "{played}; next: stage {next} ({} pairs): pocketlab run … --stage {next}",
                stages.missing_pairs
            );
            Played::StagesLeft
        }
    }
}

pub(super) fn ctrlc_handler(f: impl FnMut() + Send + 'static) {
    // Failing to install the handler only loses the graceful shutdown.
    if let Err(e) = ctrlc::set_handler(f) {
        eprintln!(
            "warning: no Ctrl-C handler ({e}); an interrupt will still leave a consistent log"
        );
    }
}
