//! `pocketlab paired`: two players' runs against one opponent from the
//! same openings (two evaluation files against one sparring engine, each
//! run with the same seed), compared opening by opening.

use std::path::PathBuf;

use clap::Args;

use pocketlab_report::paired::{LogPairs, MatchedPairs};
use pocketlab_stats::estimate::{ConfidenceLevel, Interval};
use pocketlab_stats::paired::paired_difference;
use pocketlab_stats::pentanomial::Pentanomial;

#[derive(Debug, Args)]
pub struct PairedArgs {
    /// Log directories of the first player's runs.
    #[arg(long, required = true, num_args = 1..)]
    pub first: Vec<PathBuf>,
    /// Log directories of the second player's runs, in the same order
    /// (each on the seed of the first's run in its place).
    #[arg(long, required = true, num_args = 1..)]
    pub second: Vec<PathBuf>,
    /// The army whose results are compared, in both logs (default: each
    /// log's first matchup's army A).
    #[arg(long)]
    pub army: Option<String>,
}

fn elo_interval(interval: Interval) -> String {
    format!("{:+.0} to {:+.0}", interval.lower, interval.upper)
}

pub fn run(args: &PairedArgs) -> anyhow::Result<()> {
    if args.first.len() != args.second.len() {
        anyhow::bail!(
            "--first has {} log directories and --second {}: each run of the first is paired \
             with the second's run in its place",
            args.first.len(),
            args.second.len()
        );
    }
    let level = ConfidenceLevel::NINETY_FIVE;
    let army = args.army.as_deref();
    // Pooled over every run: the pairs both players finished, and the
    // armies compared (the first run's: each later run names its own).
    let mut pooled: Vec<(u8, u8)> = Vec::new();
    let mut armies: Option<[String; 2]> = None;
    for (first, second) in args.first.iter().zip(&args.second) {
        let (a, b) = (LogPairs::read(first, army)?, LogPairs::read(second, army)?);
        let matched = MatchedPairs::of(&a, &b)?;
        let line = match matched.difference(level) {
            Some(d) => format!(
                "{} pairs, {:+.0} ({})",
                d.pairs,
                d.elo,
                elo_interval(d.elo_interval)
            ),
            None => "no pair played in both".to_owned(),
        };
        println!("{} - {}: {line}", first.display(), second.display());
        for log in [&a, &b] {
            if log.unfinished > 0 {
                println!(
                    "  {}: {} unfinished pairs left out",
                    log.dir.display(),
                    log.unfinished
                );
            }
        }
        if matched.first_only + matched.second_only > 0 {
            println!(
                "  pairs in one log only, left out: {} of the first, {} of the second",
                matched.first_only, matched.second_only
            );
        }
        armies.get_or_insert_with(|| [a.army.clone(), b.army.clone()]);
        pooled.extend(matched.pairs);
    }
    let (Ok(d), Some(armies)) = (paired_difference(&pooled, level), armies) else {
        anyhow::bail!("the two players' logs share no finished pair: nothing to compare");
    };
    // Each player over the pairs both played, against the opponent.
    for (side, (name, army)) in ["first", "second"].iter().zip(&armies).enumerate() {
        let half_points = pooled.iter().map(|p| if side == 0 { p.0 } else { p.1 });
        let summary = Pentanomial::from_half_points(half_points)?.summary(level)?;
        println!(
            "{name} ({army}) against its opponent: {:+.0} ({}) over {} pairs",
            summary.elo,
            elo_interval(summary.elo_interval),
            summary.samples
        );
    }
    let z = d.z.map_or("undefined (every pair alike)".to_owned(), |z| {
        format!("{z:.2}")
    });
    println!(
        "first - second, paired by opening: {:+.0} ({}) Elo over {} pairs; per-game score \
         difference {:+.4} (se {:.4}), z {z}",
        d.elo,
        elo_interval(d.elo_interval),
        d.pairs,
        d.score_difference,
        d.score_std_error
    );
    Ok(())
}
