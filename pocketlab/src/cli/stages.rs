//! `pocketlab stages`: the stages of a study under the sequential design,
//! and (with a log) where it stands. The last line is the number of stages
//! alone, for scripts that submit one job per stage.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use pocketlab_selfplay::log::read_games;
use pocketlab_selfplay::pair_scores;

use super::run::load_experiment;
use pocketlab_report::adaptive::AdaptiveStudy;

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
    let study = AdaptiveStudy::of(&exp).with_context(|| {
        format!(
            "experiment {}: [stop] does not use design = \"sequential-equivalence\": it has no stages",
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
