//! `pocketlab stages`: the stages of a study under the sequential design
//! or the value-scale design, and (with a log) where it stands. The last
//! line is the number of stages alone (for the value-scale design, whose
//! stages are planned one at a time, the most it can take), for scripts
//! that submit one job per stage.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use pocketlab_selfplay::log::read_games;
use pocketlab_selfplay::pair_scores;

use super::run::load_experiment;
use pocketlab_report::adaptive::AdaptiveStudy;
use pocketlab_report::scale_study::{ScaleEnd, ScaleStudy};
use pocketlab_selfplay::Experiment;

#[derive(Debug, Args)]
pub struct StagesArgs {
    /// Experiment file (default: the embedded default experiment).
    pub experiment: Option<PathBuf>,
    /// A log of the study: say which stage is next.
    #[arg(long)]
    pub log: Option<PathBuf>,
}

pub fn run(args: &StagesArgs) -> anyhow::Result<()> {
    let exp = load_experiment(args.experiment.as_deref())?;
    if let Some(study) = ScaleStudy::of(&exp) {
        return value_scale_stages(args, &exp, &study);
    }
    let study = AdaptiveStudy::of(&exp).with_context(|| {
        format!(
            "experiment {}: [stop] does not use design = \"sequential-equivalence\" or \
             \"value-scale\": it has no stages",
            exp.name
        )
    })?;
    let looks = study.design().looks();
    for (k, &to) in looks.iter().enumerate() {
        let from = if k == 0 { 0 } else { looks[k - 1] };
        println!(
            "stage {}: pairs {from} to {} of each matchup still undecided, then look {}",
            k + 1,
            to - 1,
            k + 1
        );
    }
    if let Some(log) = &args.log {
        let scores = pair_scores(&exp, &read_games(log)?);
        let history = study.replay(&scores);
        match &history.next {
            None => println!(
                "{}: the study is over after {} looks ({} games)",
                log.display(),
                history.looks_done,
                history.games
            ),
            Some(s) => println!(
                "{}: {} looks taken ({} games); stage {} is next, for {} matchups",
                log.display(),
                history.looks_done,
                history.games,
                s.number,
                s.matchups.len()
            ),
        }
    }
    println!("{}", looks.len());
    Ok(())
}

/// The value-scale design: its stages are planned one at a time from the
/// log, so what is said is how, where the study stands, and the most
/// stages it can take.
fn value_scale_stages(
    args: &StagesArgs,
    exp: &Experiment,
    study: &ScaleStudy,
) -> anyhow::Result<()> {
    let stop = study.stop();
    let options = &stop.allocation;
    let matchups = study.plan().matchups.len();
    println!(
        "stage 1: the warm-up, pairs 0 to {} of each of the {matchups} matchups",
        options.warmup_pairs.min(options.max_pairs) - 1
    );
    println!(
        "later stages: up to {} blocks of {} pairs, given to the matchups that most narrow the \
         widest interval above its target (neighbour differences to ±{} pawns, the pawn unit to \
         ±{}%), planned from the log of the stages before; up to {} pairs per matchup{}",
        options.blocks,
        options.block_pairs,
        stop.targets.adjacent_half_width,
        stop.targets.unit_relative_half_width * 100.0,
        options.max_pairs,
        stop.budget_games
            .map(|b| format!(", {b} games in all"))
            .unwrap_or_default()
    );
    if let Some(log) = &args.log {
        let scores = pair_scores(exp, &read_games(log)?);
        let history = study.replay(&scores).map_err(|e| {
            anyhow::anyhow!("{}: the log does not follow the design: {e}", log.display())
        })?;
        let met = history.allocation.checks.iter().filter(|c| c.met).count();
        let targets = history.allocation.checks.len();
        match (&history.next, history.end) {
            (Some(s), _) => println!(
                "{}: {} stages complete ({} games, {met} of {targets} targets met); stage {} is \
                 next, {} pairs of {} matchups",
                log.display(),
                history.stages_done,
                history.games,
                s.number,
                s.ranges.iter().map(|r| r.to - r.from).sum::<u64>(),
                s.ranges.len()
            ),
            (None, end) => println!(
                "{}: the study is over after {} stages ({} games): {}",
                log.display(),
                history.stages_done,
                history.games,
                end.unwrap_or(ScaleEnd::Stalled).describe()
            ),
        }
    }
    println!("{}", study.most_stages());
    Ok(())
}
