//! `pocketlab tune`: fit every evaluation weight to logged self-play games
//! (Texel tuning) and write the tuned parameter file.

use std::path::PathBuf;

use clap::Args;
use pocketlab_core::Variant;
use pocketlab_core::engine::{Activation, EvalParams, Views};
use pocketlab_selfplay::files::replace_whole;
use pocketlab_selfplay::log::open_log;

use pocketlab_training::load_params;
use pocketlab_training::network::{NetworkOptions, label_and_fit};
use pocketlab_training::texel::{
    SquareOptions, TexelData, TexelOptions, TexelOutcome, tune, tune_squares,
};

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
    /// Fit a learned correction instead of the weights: a network over
    /// where each piece stands (`[network]` in the file; every weight
    /// held, any network of `--params` replaced).
    #[arg(long, conflicts_with_all = ["squares", "weights"])]
    pub network: bool,
    /// With `--network`: hidden units.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=pocketlab_core::engine::MAX_HIDDEN as i64), requires = "network")]
    pub hidden: u32,
    /// With `--network`: the hidden layer reads the position from the
    /// mover's side (`mover`) or from both sides, each view with output
    /// weights of its own (`both`).
    #[arg(long, default_value = "mover", requires = "network")]
    pub views: Views,
    /// With `--network`: the hidden units' activation, `clipped` or
    /// `squared` (the clipped sum squared).
    #[arg(long, default_value = "clipped", requires = "network")]
    pub activation: Activation,
    /// With `--network`: output buckets, one output layer for each equal
    /// share of the material left on the board and in the pockets (1: one
    /// output layer for every position).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=pocketlab_core::engine::MAX_BUCKETS as i64), requires = "network")]
    pub buckets: u32,
    /// With `--network`: king buckets, one set of input weights for each
    /// bucket of where the reading side's king stands (1: one set; 2: on
    /// its first rank or farther; 4: first rank on files c to f, first
    /// rank on a, b, g or h, second rank, farther).
    #[arg(long, default_value_t = 1, value_parser = parse_king_buckets, requires = "network")]
    pub king_buckets: usize,
    /// With `--network`: label each position by a search of this many
    /// nodes with the `--params` evaluation as it stands (its network too,
    /// the one being replaced) as well as by its game's result.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000), requires = "network")]
    pub search_nodes: Option<u64>,
    /// With `--search-nodes`: the search's share of each label, 0 to 1.
    #[arg(long, default_value_t = 0.5, value_parser = share, requires = "search_nodes")]
    pub search_share: f64,
    /// With `--search-nodes`: per logged position, this many more reached
    /// from it by one to four random legal moves (kept when quiet),
    /// labelled by the search alone: more and more varied positions.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100), requires = "search_nodes")]
    pub derived: u32,
    /// With `--search-nodes`: a label file (Parquet) to take search scores
    /// from and add new ones to, so that fits of other sizes, seeds or
    /// epochs need not search again. Scores are kept per variant, engine
    /// version, `--params` and `--search-nodes`; a missing file is created.
    #[arg(long, requires = "search_nodes")]
    pub labels: Option<PathBuf>,
    /// With `--network`: when an epoch does not lower the held-out error,
    /// go back to the best weights and multiply the step size by this
    /// (e.g. 0.3), stopping once it is a thousandth of the first; 1 keeps
    /// the step size constant.
    #[arg(long, default_value_t = 1.0, value_parser = unit_fraction, requires = "network")]
    pub rate_drop: f32,
    /// With `--network`: train on each training position's mirror image
    /// too (files a to h reversed, the same label), for variants whose
    /// rules a mirror keeps (no castling, no square-dependent moves).
    #[arg(long, requires = "network")]
    pub mirror: bool,
    /// With `--network`: fit the network on top of this file's
    /// hand-written weights (any network of its own dropped) and write it
    /// with them, instead of on `--params`'s. The positions and labels
    /// stay `--params`'s (its searches, the same label file). A base whose
    /// attack-reading terms (mobility, king danger, threats) are zero
    /// evaluates faster and leaves those terms to the network.
    #[arg(long, requires = "network")]
    pub base: Option<PathBuf>,
    /// With `--network`: begin from the `--params` file's network (of the
    /// shape `--hidden`, `--views`, `--activation` and `--buckets` ask
    /// for) instead of seeded weights, refining it on these positions; a
    /// fit that finds nothing better keeps it.
    #[arg(long, requires = "network")]
    pub warm_start: bool,
    /// With `--network`: the first step size of the fit (Adam's); a warm
    /// start may want a smaller one.
    #[arg(long, default_value_t = NetworkOptions::default().rate, value_parser = unit_fraction, requires = "network")]
    pub rate: f32,
    /// With `--network`: seeds the first weights and the order of the positions.
    #[arg(long, default_value_t = 1, requires = "network")]
    pub seed: u64,
    /// Passes over the positions: with `--squares` (default 400) or
    /// `--network` (default 30).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub epochs: Option<u32>,
    /// With `--squares`: the ridge penalty per centipawn² of adjustment
    /// (larger keeps seldom-visited squares nearer the derived bonus).
    #[arg(long, default_value_t = 1e-7)]
    pub ridge: f64,
}

fn share(text: &str) -> Result<f64, String> {
    let value: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} is outside 0 to 1"))
    }
}

/// A king-bucket count a network may have.
fn parse_king_buckets(text: &str) -> Result<usize, String> {
    let value: usize = text.parse().map_err(|e| format!("{e}"))?;
    pocketlab_core::engine::Network::check_king_buckets(value)?;
    Ok(value)
}

/// A number in (0, 1]: a step size or its drop.
fn unit_fraction(text: &str) -> Result<f32, String> {
    let value: f32 = text.parse().map_err(|e| format!("{e}"))?;
    if value > 0.0 && value <= 1.0 {
        Ok(value)
    } else {
        Err(format!("{value} is outside (0, 1]"))
    }
}

pub fn run(args: &TuneArgs) -> anyhow::Result<()> {
    let start = match &args.params {
        None => EvalParams::default(),
        Some(path) => load_params(path)?,
    };
    check_weight_prefixes(&args.weights, &start)?;
    let exp = open_log(&args.logs[0])?.experiment()?;
    let variant = &exp.variant;
    let data = TexelData::from_logs(&args.logs, variant, &start)?;
    let (train, held_out) = data.sizes();
    println!(
        "variant {}: {train} quiet positions to fit, {held_out} held out (one game pair in ten)",
        variant.name
    );
    let (outcome, label_fit) = if args.network {
        fit_network_to_labels(args, &data, variant, &start)?
    } else if args.squares {
        let options = SquareOptions {
            epochs: args.epochs.unwrap_or(400) as usize,
            ridge: args.ridge,
            ..SquareOptions::default()
        };
        let fit = tune_squares(&data, variant, &start, &options, |epoch, error| {
            if epoch % 25 == 0 {
                println!("epoch {epoch:>5}  error {error:.6}");
            }
        });
        (fit, None)
    } else {
        let options = TexelOptions {
            first_step: args.step,
            max_passes: args.max_passes as usize,
            only: args.weights.clone(),
        };
        let fit = tune(&data, variant, &start, &options, |pass, step, error| {
            println!("pass {pass:>3}  step {step:>3}  error {error:.6}");
        });
        (fit, None)
    };
    print_outcome(&outcome, label_fit);
    let mut text = file_header(args, &variant.name, train, &outcome, label_fit);
    text += &outcome.params.to_toml();
    replace_whole(&args.out, text.as_bytes())?;
    println!("tuned parameters: {}", args.out.display());
    Ok(())
}

/// Refuses a `--weights` prefix that starts no weight's key.
fn check_weight_prefixes(prefixes: &[String], start: &EvalParams) -> anyhow::Result<()> {
    let keys = start.weights();
    if let Some(unknown) = prefixes
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
    Ok(())
}

/// The held-out error against the search labels before and after a fit
/// to them (`None`: the fit was to game results alone).
type LabelFit = Option<(f64, f64)>;

/// `--network`: labels the positions (by game result, and by search when
/// asked, through the label file), then fits the network.
fn fit_network_to_labels(
    args: &TuneArgs,
    data: &TexelData,
    variant: &Variant,
    start: &EvalParams,
) -> anyhow::Result<(TexelOutcome, LabelFit)> {
    let options = NetworkOptions {
        hidden: args.hidden as usize,
        views: args.views,
        activation: args.activation,
        buckets: args.buckets as usize,
        king_buckets: args.king_buckets,
        epochs: args.epochs.unwrap_or(30) as usize,
        seed: args.seed,
        search_nodes: args.search_nodes,
        search_share: args.search_share,
        derived: args.derived as usize,
        rate: args.rate,
        rate_drop: args.rate_drop,
        mirror: args.mirror,
        base: args.base.as_deref().map(load_params).transpose()?,
        warm_start: args.warm_start,
        ..NetworkOptions::default()
    };
    if let Err(reason) = options.check_warm_start(start, variant) {
        let params = args.params.as_ref().map_or_else(
            || "the built-in weights".to_owned(),
            |p| p.display().to_string(),
        );
        anyhow::bail!("--warm-start: {params}: {reason}");
    }
    let outcome = label_and_fit(
        data,
        variant,
        start,
        &options,
        args.labels.as_deref(),
        &mut |line| println!("{line}"),
    )?;
    // With search labels the labels are mostly the search's: the error
    // against game results is then for comparison, not what was fitted.
    let label_fit = args
        .search_nodes
        .map(|_| (outcome.label_error_before, outcome.label_error_after));
    Ok((outcome.fit, label_fit))
}

fn print_outcome(outcome: &TexelOutcome, label_fit: LabelFit) {
    println!(
        "scale k = {:.3}; mean squared error: fitted {:.6} -> {:.6}, held out {:.6} -> {:.6}",
        outcome.scale,
        outcome.train_error_before,
        outcome.train_error_after,
        outcome.held_out_error_before,
        outcome.held_out_error_after
    );
    match label_fit {
        Some((before, after)) if after >= before => println!(
            "the held-out error against the labels did not fall: the network learned nothing \
             that generalises"
        ),
        Some(_) => {}
        None if outcome.held_out_error_after >= outcome.held_out_error_before => println!(
            "the held-out error did not fall: the fit does not generalise (more games, or fewer passes)"
        ),
        None => {}
    }
    for (key, before, after) in &outcome.changed {
        println!("  {key:<28} {before:>6} -> {after:>6}");
    }
}

/// The comment heading the written file: the command that made it and
/// what the fit achieved.
fn file_header(
    args: &TuneArgs,
    variant: &str,
    positions: usize,
    outcome: &TexelOutcome,
    label_fit: LabelFit,
) -> String {
    let params = args
        .params
        .as_ref()
        .map(|p| format!("--params {} ", p.display()))
        .unwrap_or_default();
    let logs = args
        .logs
        .iter()
        .map(|l| l.display().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let header = format!(
        "# {} for {variant}: `pocketlab tune {params}{}{logs}` ({positions} positions, held-out \
         error {:.6} -> {:.6}).\n",
        if args.network {
            "Evaluation with a fitted network"
        } else {
            "Texel-tuned evaluation"
        },
        method_options(args),
        outcome.held_out_error_before,
        outcome.held_out_error_after
    );
    match label_fit {
        Some((before, after)) => format!(
            "{header}# Fitted to search labels: their held-out error {before:.6} -> {after:.6} \
             (the error above is against game results).\n"
        ),
        None => header,
    }
}

/// The options of the fitting method, as the command line gave them.
fn method_options(args: &TuneArgs) -> String {
    if args.network {
        let search = args
            .search_nodes
            .map(|n| {
                format!(
                    "--search-nodes {n} --search-share {} --derived {} ",
                    args.search_share, args.derived
                )
            })
            .unwrap_or_default();
        let mut fit = String::new();
        if args.views != Views::default() {
            fit += &format!("--views {} ", args.views.name());
        }
        if args.activation != Activation::default() {
            fit += &format!("--activation {} ", args.activation.name());
        }
        if args.buckets != 1 {
            fit += &format!("--buckets {} ", args.buckets);
        }
        if args.king_buckets != 1 {
            fit += &format!("--king-buckets {} ", args.king_buckets);
        }
        if args.warm_start {
            fit += "--warm-start ";
        }
        if args.rate != NetworkOptions::default().rate {
            fit += &format!("--rate {} ", args.rate);
        }
        if args.rate_drop < 1.0 {
            fit += &format!("--rate-drop {} ", args.rate_drop);
        }
        if args.mirror {
            fit += "--mirror ";
        }
        if let Some(base) = &args.base {
            fit += &format!("--base {} ", base.display());
        }
        format!(
            "--network --hidden {} --epochs {} --seed {} {fit}{search}",
            args.hidden,
            args.epochs.unwrap_or(30),
            args.seed
        )
    } else if args.squares {
        format!(
            "--squares --epochs {} --ridge {} ",
            args.epochs.unwrap_or(400),
            args.ridge
        )
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
    }
}
