//! `pocketlab compare`: two studies of the same pairs side by side (more
//! nodes, other squares, mutation on): has a pair's difference moved?

use std::path::PathBuf;

use clap::Args;

use pocketlab_report::build::{ReportOptions, build_report};
use pocketlab_report::compare::compare;
use pocketlab_report::render::{comparison_summary, write_comparison};

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Log directory of the first study.
    pub first: PathBuf,
    /// Log directory of the second study.
    pub second: PathBuf,
    /// Names of the two studies in the output (default: their experiment names).
    #[arg(long, num_args = 2, value_names = ["FIRST", "SECOND"])]
    pub labels: Option<Vec<String>>,
    /// Where to write comparison.{html,md,csv}.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: &CompareArgs) -> anyhow::Result<()> {
    let options = ReportOptions::default();
    let first = build_report(std::slice::from_ref(&args.first), &options)?;
    let second = build_report(std::slice::from_ref(&args.second), &options)?;
    let (first_label, second_label) = match &args.labels {
        Some(labels) => (labels[0].clone(), labels[1].clone()),
        None => (
            first.experiment.name.clone(),
            second.experiment.name.clone(),
        ),
    };
    let cmp = compare(&first, &second, &first_label, &second_label);
    if cmp.pairs.is_empty() && cmp.pieces.is_empty() {
        anyhow::bail!(
            "{} and {} share no pair of players and no piece of a value scale: nothing to compare",
            args.first.display(),
            args.second.display()
        );
    }
    let rendered = write_comparison(&cmp, &args.out)?;
    println!("{}", comparison_summary(&cmp));
    println!("comparison: {}", rendered.markdown.display());
    Ok(())
}
