//! `pocketlab tune`: fit every evaluation weight to logged self-play games
//! (Texel tuning) and write the tuned parameter file.

use std::path::PathBuf;

use clap::Args;
use pocketlab_core::engine::EvalParams;
use pocketlab_selfplay::log::open_log;

use crate::training::load_params;
use crate::training::texel::{SquareOptions, TexelData, TexelOptions, tune, tune_squares};

#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Log directories of self-play games of one variant, with positions
    /// logged (`[log] fen_every`).
    #[arg(required = true)]
    pub logs: Vec<PathBuf>,
    /// Where to write the tuned parameters (TOML, an `eval` file).
    #[arg(long)]
    pub out: PathBuf,
    /// Parameters to start from (default: the built-in defaults).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// The first step each weight moves by (halved down to 1).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(i32).range(1..=1000))]
    pub step: i32,
    /// The most passes over all weights.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_passes: u32,
    /// Tune only the weights whose key starts with one of these
    /// (comma-separated, e.g. `pair,open_file`); the rest are held.
    #[arg(long, value_delimiter = ',')]
    pub weights: Vec<String>,
    /// Fit per-square adjustments for every piece type instead of the
    /// weights (`piece_squares` in the file; gradient descent, every
    /// other weight held).
    #[arg(long)]
    pub squares: bool,
    /// With `--squares`: passes of gradient descent over the positions.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub epochs: u32,
    /// With `--squares`: the ridge penalty per centipawn² of adjustment
    /// (larger keeps seldom-visited squares nearer the derived bonus).
    #[arg(long, default_value_t = 1e-7)]
    pub ridge: f64,
}

pub fn run(args: &TuneArgs) -> anyhow::Result<()> {
    let start = match &args.params {
        None => EvalParams::default(),
        Some(path) => load_params(path)?,
    };
    let keys = start.weights();
    if let Some(unknown) = args
        .weights
        .iter()
        .find(|w| !keys.iter().any(|(key, _)| key.starts_with(w.as_str())))
    {
        anyhow::bail!(
            "--weights: '{unknown}' is the start of no weight's key (keys: {})",
            keys.iter()
                .map(|(k, _)| k.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let exp = open_log(&args.logs[0])?.experiment()?;
    let variant = &exp.variant;
    let data = TexelData::from_logs(&args.logs, variant, &start)?;
    let (train, held_out) = data.sizes();
    println!(
        "variant {}: {train} quiet positions to fit, {held_out} held out (one game pair in ten)",
        variant.name
    );
    let outcome = if args.squares {
        let options = SquareOptions {
            epochs: args.epochs as usize,
            ridge: args.ridge,
            ..SquareOptions::default()
        };
        tune_squares(&data, variant, &start, &options, |epoch, error| {
            if epoch % 25 == 0 {
                println!("epoch {epoch:>5}  error {error:.6}");
            }
        })
    } else {
        let options = TexelOptions {
            first_step: args.step,
            max_passes: args.max_passes as usize,
            only: args.weights.clone(),
        };
        tune(&data, variant, &start, &options, |pass, step, error| {
            println!("pass {pass:>3}  step {step:>3}  error {error:.6}");
        })
    };
    println!(
        "scale k = {:.3}; mean squared error: fitted {:.6} -> {:.6}, held out {:.6} -> {:.6}",
        outcome.scale,
        outcome.train_error_before,
        outcome.train_error_after,
        outcome.held_out_error_before,
        outcome.held_out_error_after
    );
    if outcome.held_out_error_after >= outcome.held_out_error_before {
        println!(
            "the held-out error did not fall: the fit does not generalise (more games, or fewer passes)"
        );
    }
    for (key, before, after) in &outcome.changed {
        println!("  {key:<28} {before:>6} -> {after:>6}");
    }
    let header = format!(
        "# Texel-tuned evaluation for {}: `pocketlab tune {}{}` ({train} positions, held-out \
         error {:.6} -> {:.6}).\n",
        variant.name,
        [
            args.params
                .as_ref()
                .map(|p| format!("--params {} ", p.display())),
            Some(if args.squares {
                format!("--squares --epochs {} --ridge {} ", args.epochs, args.ridge)
            } else {
                let only = if args.weights.is_empty() {
                    String::new()
                } else {
                    format!("--weights {} ", args.weights.join(","))
                };
                format!(
                    "--step {} --max-passes {} {only}",
                    args.step, args.max_passes
                )
            }),
        ]
        .into_iter()
        .flatten()
        .collect::<String>(),
        args.logs
            .iter()
            .map(|l| l.display().to_string())
            .collect::<Vec<_>>()
            .join(" "),
        outcome.held_out_error_before,
        outcome.held_out_error_after
    );
    std::fs::write(&args.out, header + &outcome.params.to_toml())
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.out.display()))?;
    println!("tuned parameters: {}", args.out.display());
    Ok(())
}
