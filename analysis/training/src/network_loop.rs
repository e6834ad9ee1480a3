//! Self-play training of a learned evaluation, over generations: play
//! self-play games with the current player, label their quiet positions by
//! searches, fit a network on top of the player's hand-written terms, and
//! keep it only if it beats the current player in an SPRT; repeat.
//!
//! Each generation lives in `gen-NNN/` under the run's directory:
//!
//! | file | written by |
//! |---|---|
//! | `player.toml` | the player the generation starts with |
//! | `selfplay/experiment.toml`, `selfplay/log/` | its self-play games |
//! | `labels.parquet` | the search scores of their positions |
//! | `candidate.toml`, `fit.toml` | the fitted network, and its figures |
//! | `gate/experiment.toml`, `gate/log/` | the SPRT of candidate against player |
//! | `result.toml` | the generation's figures and whether the candidate was kept |
//!
//! Every step is skipped when its output is there and resumes where it
//! stopped otherwise (the logs resume game by game, the label file keeps
//! its scores), so a run killed at any point continues when started again.
//! The players, self-play games and labels follow from the records and
//! seeds: a copy holding only the records (`result.toml`, `fit.toml`,
//! the candidates and the gates) plays and labels again what a later
//! generation needs, to the same files.
//! Seeds derive from the file's seed and the generation; the games do not
//! depend on the thread count, and so neither does anything after them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::Context;
use pocketlab_core::engine::{Activation, EvalParams, MAX_BUCKETS, MAX_HIDDEN, Network, Views};
use pocketlab_core::variant::describe_toml_error;
use pocketlab_core::{Variant, builtin};
use pocketlab_selfplay::files::{create_output_dir, read_text, replace_whole};
use pocketlab_selfplay::log::SprtAccepted;
use pocketlab_selfplay::{Experiment, RunOptions, RunSummary, Shard, run};
use pocketlab_stats::ConfidenceLevel;
use serde::{Deserialize, Serialize};

use super::network::{NetworkOptions, label_and_fit};
use super::texel::TexelData;

/// A self-play training run, as written in `configs/training/*-network.toml`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct NetworkLoopFile {
    /// The run's name (letters, digits, '-' and '_'): names its output
    /// directory and the experiments it generates.
    pub name: String,
    /// What the run is for, free text (optional), shown in its `README.md`.
    #[serde(default)]
    pub description: String,
    /// Shipped variant name or variant file (relative to this file).
    pub variant: String,
    /// Seed of the run: each generation's self-play games, network fit and
    /// gate are seeded from it and the generation number.
    pub seed: u64,
    /// Generations to run (each adds one self-play data set and one gate).
    pub generations: u32,
    /// The first player's evaluation file (relative to this file; default:
    /// the variant's shipped evaluation, else the hand-written weights).
    pub start: Option<String>,
    /// Each generation's self-play games (the `[selfplay]` table).
    pub selfplay: SelfPlaySettings,
    /// How their positions are labelled (the `[labels]` table).
    pub labels: LabelSettings,
    /// The network fitted each generation (the `[network]` table; all
    /// defaults when absent).
    #[serde(default)]
    pub network: NetworkSettings,
    /// The SPRT a candidate must pass to replace the player (the `[gate]`
    /// table).
    pub gate: GateSettings,
}

/// The self-play games of a generation.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct SelfPlaySettings {
    /// Game pairs per generation.
    pub pairs: u64,
    /// Engine nodes per move.
    pub nodes: u64,
    /// Seeded randomness at the root (centipawns), so a pair's two games
    /// differ and the positions vary.
    #[serde(default = "default_root_noise")]
    pub root_noise: u32,
    /// Random plies played from the start, the same in both games of a
    /// pair (default 8).
    #[serde(default = "default_random_plies")]
    pub random_plies: u32,
    /// A position is logged every this many plies.
    #[serde(default = "default_fen_every")]
    pub fen_every: u32,
    /// A game that reaches this many plies is a draw (default 300).
    #[serde(default = "default_max_plies")]
    pub max_plies: u32,
}

/// How positions are labelled.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct LabelSettings {
    /// Nodes of the search that scores each position (with the current
    /// player's evaluation).
    pub search_nodes: u64,
    /// The search's share of each label, against the game's result.
    #[serde(default = "default_search_share")]
    pub search_share: f64,
    /// Positions derived from each logged one by random moves.
    #[serde(default = "default_derived")]
    pub derived: u32,
    /// The self-play data sets a fit uses: this generation's and the ones
    /// before it, up to this many.
    #[serde(default = "default_window")]
    pub window: u32,
}

/// The network fitted each generation.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct NetworkSettings {
    /// Hidden units (default 256).
    #[serde(default = "default_hidden")]
    pub hidden: u32,
    /// `"mover"` or `"both"`.
    #[serde(default = "default_views")]
    pub views: String,
    /// `"clipped"` or `"squared"`.
    #[serde(default = "default_activation")]
    pub activation: String,
    /// Output buckets by the material left (default 1: one output layer).
    #[serde(default = "default_buckets")]
    pub buckets: u32,
    /// King buckets by where the reading side's king stands: 1, 2 or 4
    /// (default 1: one set of input weights).
    #[serde(default = "default_buckets")]
    pub king_buckets: u32,
    /// Passes over the training positions, at most (default 30).
    #[serde(default = "default_epochs")]
    pub epochs: u32,
    /// Factor on the step size after an epoch that does not lower the
    /// held-out error, the fit returning to its best weights; above 0, at
    /// most 1 (1: a constant step; default 0.3).
    #[serde(default = "default_rate_drop")]
    pub rate_drop: f32,
    /// Mirror images of the training positions (files a to h reversed),
    /// where the variant's rules allow it (default: wherever they do).
    pub mirror: Option<bool>,
    /// Each generation refines the player's network instead of fitting one
    /// from seeded weights (default false); the first player must then
    /// hold a network of this shape, checked before any game.
    #[serde(default)]
    pub warm_start: bool,
    /// The fit's first step size (Adam's; default 0.001), in (0, 1].
    #[serde(default = "default_rate")]
    pub rate: f32,
}

impl Default for NetworkSettings {
    fn default() -> Self {
        NetworkSettings {
            hidden: default_hidden(),
            views: default_views(),
            activation: default_activation(),
            buckets: default_buckets(),
            king_buckets: default_buckets(),
            epochs: default_epochs(),
            rate_drop: default_rate_drop(),
            mirror: None,
            warm_start: false,
            rate: default_rate(),
        }
    }
}

/// The SPRT that decides whether a candidate replaces the player.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct GateSettings {
    /// Engine nodes per move in the gate's games.
    pub nodes: u64,
    /// H0 of the SPRT: candidate minus player, logistic Elo (default 0).
    #[serde(default)]
    pub elo0: f64,
    /// H1 of the SPRT, logistic Elo, above `elo0` (default 10).
    #[serde(default = "default_elo1")]
    pub elo1: f64,
    /// The SPRT's chance of accepting H1 when H0 holds, i.e. of keeping a
    /// candidate no better than `elo0`; in (0, 0.5), default 0.05.
    #[serde(default = "default_error")]
    pub alpha: f64,
    /// The SPRT's chance of accepting H0 when H1 holds; in (0, 0.5),
    /// default 0.05.
    #[serde(default = "default_error")]
    pub beta: f64,
    /// The most pairs; a gate that reaches it undecided keeps the player.
    pub max_pairs: u64,
    /// Random plies played from the start, the same in both games of a
    /// pair (default 8).
    #[serde(default = "default_random_plies")]
    pub random_plies: u32,
}

fn default_root_noise() -> u32 {
    10
}
fn default_random_plies() -> u32 {
    8
}
fn default_fen_every() -> u32 {
    2
}
fn default_max_plies() -> u32 {
    300
}
fn default_search_share() -> f64 {
    1.0
}
fn default_derived() -> u32 {
    1
}
fn default_window() -> u32 {
    2
}
fn default_hidden() -> u32 {
    256
}
fn default_views() -> String {
    "both".to_owned()
}
fn default_activation() -> String {
    "squared".to_owned()
}
fn default_buckets() -> u32 {
    1
}
fn default_epochs() -> u32 {
    30
}
fn default_rate_drop() -> f32 {
    0.3
}
fn default_rate() -> f32 {
    NetworkOptions::default().rate
}
fn default_elo1() -> f64 {
    10.0
}
fn default_error() -> f64 {
    0.05
}

impl NetworkLoopFile {
    /// Read and check a loop file; returns it with its directory.
    pub fn load(path: &Path) -> anyhow::Result<(NetworkLoopFile, PathBuf)> {
        let label = format!("training loop file '{}'", path.display());
        let text = read_text(path).map_err(|e| anyhow::anyhow!("{label}: {e}"))?;
        let file: NetworkLoopFile = toml::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{label}: {}", describe_toml_error(&e, &text)))?;
        file.check()
            .map_err(|(key, why)| anyhow::anyhow!("{label}, key '{key}': {why}"))?;
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        Ok((file, dir))
    }

    fn check(&self) -> Result<(), (&'static str, String)> {
        let at_least_one = |key: &'static str, n: u64| {
            if n == 0 {
                Err((key, "at least 1".to_owned()))
            } else {
                Ok(())
            }
        };
        if self.name.is_empty()
            || !self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err((
                "name",
                "non-empty, only letters, digits, '-' and '_'".to_owned(),
            ));
        }
        at_least_one("generations", u64::from(self.generations))?;
        at_least_one("selfplay.pairs", self.selfplay.pairs)?;
        at_least_one("selfplay.nodes", self.selfplay.nodes)?;
        at_least_one("selfplay.fen_every", u64::from(self.selfplay.fen_every))?;
        at_least_one("labels.search_nodes", self.labels.search_nodes)?;
        at_least_one("labels.window", u64::from(self.labels.window))?;
        let within = |key, value: u32, most: usize| {
            if (1..=most).contains(&(value as usize)) {
                Ok(())
            } else {
                Err((key, format!("from 1 to {most}")))
            }
        };
        within("network.hidden", self.network.hidden, MAX_HIDDEN)?;
        within("network.buckets", self.network.buckets, MAX_BUCKETS)?;
        Network::check_king_buckets(self.network.king_buckets as usize)
            .map_err(|reason| ("network.king_buckets", reason))?;
        at_least_one("network.epochs", u64::from(self.network.epochs))?;
        at_least_one("gate.nodes", self.gate.nodes)?;
        at_least_one("gate.max_pairs", self.gate.max_pairs)?;
        if !(0.0..=1.0).contains(&self.labels.search_share) {
            return Err(("labels.search_share", "a share from 0 to 1".to_owned()));
        }
        for (key, value) in [
            ("network.rate", self.network.rate),
            ("network.rate_drop", self.network.rate_drop),
        ] {
            if !(value > 0.0 && value <= 1.0) {
                return Err((key, "above 0, at most 1".to_owned()));
            }
        }
        self.network
            .views
            .parse::<Views>()
            .map_err(|e| ("network.views", e))?;
        self.network
            .activation
            .parse::<Activation>()
            .map_err(|e| ("network.activation", e))?;
        if self.gate.elo1 <= self.gate.elo0 {
            return Err(("gate.elo1", "above elo0".to_owned()));
        }
        for (key, p) in [
            ("gate.alpha", self.gate.alpha),
            ("gate.beta", self.gate.beta),
        ] {
            if !(p > 0.0 && p < 0.5) {
                return Err((key, "an error rate above 0 and below 0.5".to_owned()));
            }
        }
        Ok(())
    }

    fn network_options(&self, variant: &Variant, g: u32) -> NetworkOptions {
        let n = &self.network;
        NetworkOptions {
            hidden: n.hidden as usize,
            views: n.views.parse().expect("checked on load"),
            activation: n.activation.parse().expect("checked on load"),
            buckets: n.buckets as usize,
            king_buckets: n.king_buckets as usize,
            epochs: n.epochs as usize,
            seed: self.seed ^ u64::from(g).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            search_nodes: Some(self.labels.search_nodes),
            search_share: self.labels.search_share,
            derived: self.labels.derived as usize,
            rate: n.rate,
            rate_drop: n.rate_drop,
            mirror: n.mirror.unwrap_or(true) && variant.is_file_symmetric(),
            warm_start: n.warm_start,
            ..NetworkOptions::default()
        }
    }
}

/// What one generation did (`gen-NNN/result.toml`).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GenerationResult {
    /// The generation, 0-based (its directory is `gen-NNN`).
    pub generation: u32,
    /// Self-play games of this generation.
    pub games: u64,
    /// Logged positions the fit learned from, over the window's self-play
    /// data sets (derived positions and mirror images not counted).
    pub positions: usize,
    /// Logged positions held out of the fit (those of one game pair in ten).
    pub held_out: usize,
    /// Held-out mean squared error against the labels (scores 0 to 1)
    /// before the fit: the player's hand-written terms alone.
    pub label_error_before: f64,
    /// The same with the fitted network, at its kept epoch.
    pub label_error_after: f64,
    /// The gate: pairs played.
    pub gate_pairs: u64,
    /// The candidate's logistic Elo against the player (pentanomial, pairs
    /// as the unit; NaN without pairs).
    pub gate_elo: f64,
    /// Lower end of its 95% interval, Elo (NaN without pairs).
    pub gate_elo_lo: f64,
    /// Upper end of its 95% interval, Elo (NaN without pairs).
    pub gate_elo_hi: f64,
    /// The SPRT's log-likelihood ratio after the last pair (NaN when none
    /// was logged).
    pub gate_llr: f64,
    /// The SPRT's decision: `"H1"` (better, kept), `"H0"` (not) or
    /// `"none"` (undecided at the cap).
    pub gate_decision: String,
    /// Whether the candidate becomes the next generation's player (the
    /// SPRT accepted H1).
    pub kept: bool,
}

/// The whole run.
#[derive(Debug, Clone)]
pub struct LoopOutcome {
    /// Each generation's record, in order.
    pub results: Vec<GenerationResult>,
    /// The player after the last generation (the last candidate kept, or
    /// the start).
    pub best: PathBuf,
}

fn generation_dir(root: &Path, g: u32) -> PathBuf {
    root.join(format!("gen-{g:03}"))
}

/// The variant as generated experiments name it: a shipped name, or the
/// file's absolute path so that it resolves from their directories.
fn variant_spec(file: &NetworkLoopFile, dir: &Path) -> String {
    if builtin::text(&file.variant).is_some() {
        file.variant.clone()
    } else {
        dir.join(&file.variant)
            .canonicalize()
            .map_or_else(|_| file.variant.clone(), |p| p.display().to_string())
    }
}

/// Run (or resume) the loop; `root` receives one directory per generation,
/// and after each generation `best.toml` (the player it leaves) and
/// `README.md` (one row per generation done).
pub fn train_network(
    file: &NetworkLoopFile,
    dir: &Path,
    root: &Path,
    threads: usize,
    quiet: bool,
    interrupt: &Arc<AtomicBool>,
) -> anyhow::Result<LoopOutcome> {
    let spec = variant_spec(file, dir);
    let variant = pocketlab_selfplay::load_variant(&spec)?;
    create_output_dir(root).with_context(|| root.display().to_string())?;
    let first_player = generation_dir(root, 0).join("player.toml");
    if !first_player.exists() {
        std::fs::create_dir_all(generation_dir(root, 0))?;
        let text = match &file.start {
            Some(path) => {
                let path = dir.join(path);
                super::load_params(&path)?;
                read_text(&path).with_context(|| path.display().to_string())?
            }
            None => match builtin::shipped_eval(&variant.name) {
                Some(eval) => eval.text.to_owned(),
                None => EvalParams::default().to_toml(),
            },
        };
        replace_whole(&first_player, text.as_bytes())?;
    }
    if file.network.warm_start {
        // Before any game: later players are fits of this shape.
        let player = super::load_params(&first_player)?;
        file.network_options(&variant, 0)
            .check_warm_start(&player, &variant)
            .map_err(|why| {
                anyhow::anyhow!("network.warm_start: {}: {why}", first_player.display())
            })?;
    }
    let step = Step {
        file,
        spec: &spec,
        variant: &variant,
        root,
        threads,
        quiet,
        interrupt,
    };
    let mut results = Vec::new();
    let best = root.join("best.toml");
    for g in 0..file.generations {
        let gdir = generation_dir(root, g);
        let result_path = gdir.join("result.toml");
        let result: GenerationResult = if result_path.exists() {
            toml::from_str(&read_text(&result_path)?)
                .with_context(|| format!("{}: damaged generation record", result_path.display()))?
        } else {
            let result = step.generation(g)?;
            // The record is written last: it marks the generation as done.
            replace_whole(&result_path, toml::to_string(&result)?.as_bytes())?;
            result
        };
        let next_player = generation_dir(root, g + 1).join("player.toml");
        if !next_player.exists() {
            std::fs::create_dir_all(generation_dir(root, g + 1))?;
            let kept = if result.kept {
                gdir.join("candidate.toml")
            } else {
                gdir.join("player.toml")
            };
            replace_whole(&next_player, read_text(&kept)?.as_bytes())?;
        }
        if !quiet {
            eprintln!("{}", generation_line(&result));
        }
        results.push(result);
        // After every generation, so a run stopped later still shows the
        // player it has reached and the generations done.
        replace_whole(&best, read_text(&next_player)?.as_bytes())?;
        replace_whole(
            &root.join("README.md"),
            summary_markdown(file, &results).as_bytes(),
        )?;
    }
    Ok(LoopOutcome { results, best })
}

fn generation_line(r: &GenerationResult) -> String {
    format!(
        "generation {}: {} games, {} positions, held-out label error {:.6} -> {:.6}; gate {} pairs, \
         {:+.0} Elo ({:+.0} to {:+.0}), {}: {}",
        r.generation,
        r.games,
        r.positions,
        r.label_error_before,
        r.label_error_after,
        r.gate_pairs,
        r.gate_elo,
        r.gate_elo_lo,
        r.gate_elo_hi,
        r.gate_decision,
        if r.kept { "kept" } else { "not kept" }
    )
}

/// The run's `README.md`: what it is and one row per generation.
fn summary_markdown(file: &NetworkLoopFile, results: &[GenerationResult]) -> String {
    let mut t = String::new();
    writeln!(t, "# Self-play training: {}\n", file.name).ok();
    if !file.description.is_empty() {
        writeln!(t, "{}\n", file.description).ok();
    }
    writeln!(
        t,
        "Each generation plays {} self-play pairs at {} nodes with the current player, labels \
         their positions by {}-node searches, fits a network of {} hidden units{} and keeps it \
         if it beats the player in an SPRT [{}, {}] at {} nodes (at most {} pairs). `best.toml` \
         is the player after the last generation.\n",
        file.selfplay.pairs,
        file.selfplay.nodes,
        file.labels.search_nodes,
        file.network.hidden,
        match (file.network.buckets, file.network.king_buckets) {
            (1, 1) => String::new(),
            (b, 1) => format!(" with {b} output buckets"),
            (1, k) => format!(" with {k} king buckets"),
            (b, k) => format!(" with {b} output buckets and {k} king buckets"),
        },
        file.gate.elo0,
        file.gate.elo1,
        file.gate.nodes,
        file.gate.max_pairs
    )
    .ok();
    writeln!(
        t,
        "| generation | games | positions | held-out label error | gate pairs | candidate vs player, Elo (95%) | SPRT | kept |\n|---:|---:|---:|---|---:|---|---|---|"
    )
    .ok();
    for r in results {
        writeln!(
            t,
            "| {} | {} | {} | {:.6} -> {:.6} | {} | {:+.0} ({:+.0} to {:+.0}) | {} (LLR {:.2}) | {} |",
            r.generation,
            r.games,
            r.positions,
            r.label_error_before,
            r.label_error_after,
            r.gate_pairs,
            r.gate_elo,
            r.gate_elo_lo,
            r.gate_elo_hi,
            r.gate_decision,
            r.gate_llr,
            if r.kept { "yes" } else { "no" }
        )
        .ok();
    }
    t
}

/// What every generation shares.
struct Step<'a> {
    file: &'a NetworkLoopFile,
    spec: &'a str,
    variant: &'a Variant,
    root: &'a Path,
    threads: usize,
    quiet: bool,
    interrupt: &'a Arc<AtomicBool>,
}

impl Step<'_> {
    /// Plays, labels, fits and gates generation `g` (each part resumed or
    /// skipped when done).
    fn generation(&self, g: u32) -> anyhow::Result<GenerationResult> {
        let gdir = generation_dir(self.root, g);
        let player_path = gdir.join("player.toml");
        let player = super::load_params(&player_path)?;
        let games = self
            .play(
                &gdir.join("selfplay"),
                &selfplay_experiment(self.file, self.spec, g),
            )?
            .matchups
            .iter()
            .map(|m| m.games())
            .sum();

        let fit_path = gdir.join("fit.toml");
        let fit: FitRecord = if fit_path.exists() {
            toml::from_str(&read_text(&fit_path)?)
                .with_context(|| format!("{}: damaged fit record", fit_path.display()))?
        } else {
            let fit = self.fit(g, &player, &gdir.join("candidate.toml"))?;
            // Written after the candidate: it marks the fit as done.
            replace_whole(&fit_path, toml::to_string(&fit)?.as_bytes())?;
            fit
        };

        let gate = self.play(
            &gdir.join("gate"),
            &gate_experiment(self.file, self.spec, g),
        )?;
        let m = gate
            .matchups
            .first()
            .context("the gate experiment has its one matchup")?;
        let summary = m.pairs.summary(ConfidenceLevel::NINETY_FIVE).ok();
        let kept = m.sprt_decision == Some(SprtAccepted::H1);
        Ok(GenerationResult {
            generation: g,
            games,
            positions: fit.positions,
            held_out: fit.held_out,
            label_error_before: fit.label_error_before,
            label_error_after: fit.label_error_after,
            gate_pairs: m.pairs.pairs().unwrap_or(0),
            gate_elo: summary.as_ref().map_or(f64::NAN, |s| s.elo),
            gate_elo_lo: summary.as_ref().map_or(f64::NAN, |s| s.elo_interval.lower),
            gate_elo_hi: summary.as_ref().map_or(f64::NAN, |s| s.elo_interval.upper),
            gate_llr: m.sprt_llr.unwrap_or(f64::NAN),
            gate_decision: m
                .sprt_decision
                .map_or_else(|| "none".to_owned(), |d| d.as_str().to_owned()),
            kept,
        })
    }

    /// Writes `text` as `dir/experiment.toml` and plays (or resumes) it
    /// into `dir/log`.
    fn play(&self, dir: &Path, text: &str) -> anyhow::Result<RunSummary> {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
        let path = dir.join("experiment.toml");
        replace_whole(&path, text.as_bytes())?;
        let exp = Experiment::parse(&path.display().to_string(), text, dir)?;
        if !self.quiet {
            eprintln!("{}: up to {} games", path.display(), exp.max_games());
        }
        let options = RunOptions {
            out_dir: dir.join("log"),
            threads: self.threads,
            shard: Shard::WHOLE,
            quiet: self.quiet,
        };
        let summary = run(&exp, &options, self.interrupt)?;
        if summary.interrupted {
            anyhow::bail!("interrupted; run the same command again to continue");
        }
        Ok(summary)
    }

    /// Labels the positions of the window's self-play logs with the
    /// player's searches and fits the candidate; returns its figures.
    fn fit(&self, g: u32, player: &EvalParams, candidate_path: &Path) -> anyhow::Result<FitRecord> {
        let first = g.saturating_sub(self.file.labels.window - 1);
        let logs: Vec<PathBuf> = (first..=g)
            .map(|h| generation_dir(self.root, h).join("selfplay").join("log"))
            .collect();
        // An earlier generation's games follow from its seed and player:
        // a copy without them (a clone keeps the records, not the games)
        // plays them again, the same games.
        for (h, log) in (first..g).zip(&logs) {
            if !log.join("manifest.toml").exists() {
                self.play(
                    &generation_dir(self.root, h).join("selfplay"),
                    &selfplay_experiment(self.file, self.spec, h),
                )?;
            }
        }
        let data = TexelData::from_logs(&logs, self.variant, player)?;
        let options = self.file.network_options(self.variant, g);
        let quiet = self.quiet;
        let outcome = label_and_fit(
            &data,
            self.variant,
            player,
            &options,
            Some(&generation_dir(self.root, g).join("labels.parquet")),
            &mut |line| {
                if !quiet {
                    eprintln!("generation {g}: {line}");
                }
            },
        )?;
        let (positions, held_out) = data.sizes();
        let header = format!(
            "# Generation {g} of the self-play training {}: a network fitted on top of the \
             player's weights.\n# positions = {positions}, held_out = {held_out}, \
             label_error_before = {:.6}, label_error_after = {:.6}\n",
            self.file.name, outcome.label_error_before, outcome.label_error_after
        );
        let text = header + &outcome.fit.params.to_toml();
        replace_whole(candidate_path, text.as_bytes())?;
        Ok(FitRecord {
            positions,
            held_out,
            label_error_before: outcome.label_error_before,
            label_error_after: outcome.label_error_after,
        })
    }
}

/// What a generation's fit did (`gen-NNN/fit.toml`).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct FitRecord {
    /// Logged positions fitted and held out (derived ones not counted).
    positions: usize,
    held_out: usize,
    /// Held-out error against the labels, before and after.
    label_error_before: f64,
    label_error_after: f64,
}

/// Generation `g`'s self-play experiment: the player against itself with
/// root noise, positions logged.
fn selfplay_experiment(file: &NetworkLoopFile, spec: &str, g: u32) -> String {
    let s = &file.selfplay;
    format!(
        "# Generated by `pocketlab train-network` for generation {g}: self-play of the player.\n\
         name = \"{name}-gen-{g:03}-selfplay\"\n\
         variant = \"{spec}\"\n\
         seed = {seed}\n\n\
         [engine]\nnodes = {nodes}\nhash_mb = 4\neval = \"../player.toml\"\nroot_noise = {noise}\n\n\
         [openings]\nrandom_plies = {plies}\n\n\
         [adjudication]\nmax_plies = {max_plies}\nresign_score = 1000\nresign_moves = 4\n\
         draw_score = 10\ndraw_moves = 12\ndraw_after_ply = 140\n\n\
         [log]\nfen_every = {fen_every}\n\n\
         [stop]\npairs = {pairs}\n\n\
         [armies.white]\n\n[armies.black]\n\n\
         [[matchups]]\na = \"white\"\nb = \"black\"\n",
        name = file.name,
        spec = spec.replace('\\', "/"),
        seed = file.seed.wrapping_add(u64::from(g) * 1000 + 1),
        nodes = s.nodes,
        noise = s.root_noise,
        plies = s.random_plies,
        max_plies = s.max_plies,
        fen_every = s.fen_every,
        pairs = s.pairs,
    )
}

/// Generation `g`'s gate: the candidate against the player, an SPRT.
fn gate_experiment(file: &NetworkLoopFile, spec: &str, g: u32) -> String {
    let gate = &file.gate;
    format!(
        "# Generated by `pocketlab train-network` for generation {g}: does the candidate beat the player?\n\
         name = \"{name}-gen-{g:03}-gate\"\n\
         variant = \"{spec}\"\n\
         seed = {seed}\n\n\
         [engine]\nnodes = {nodes}\nhash_mb = 8\n\n\
         [openings]\nrandom_plies = {plies}\n\n\
         [adjudication]\nmax_plies = 400\nresign_score = 1000\nresign_moves = 4\n\
         draw_score = 10\ndraw_moves = 12\ndraw_after_ply = 140\n\n\
         [stop]\npairs = {pairs}\n\
         sprt = {{ elo0 = {elo0:?}, elo1 = {elo1:?}, alpha = {alpha:?}, beta = {beta:?} }}\n\n\
         [armies.candidate]\nengine = {{ eval = \"../candidate.toml\" }}\n\n\
         [armies.player]\nengine = {{ eval = \"../player.toml\" }}\n\n\
         [[matchups]]\na = \"candidate\"\nb = \"player\"\n",
        name = file.name,
        spec = spec.replace('\\', "/"),
        seed = file.seed.wrapping_add(u64::from(g) * 1000 + 2),
        nodes = gate.nodes,
        plies = gate.random_plies,
        pairs = gate.max_pairs,
        elo0 = gate.elo0,
        elo1 = gate.elo1,
        alpha = gate.alpha,
        beta = gate.beta,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"
name = "tiny"
variant = "chess-nocastle"
seed = 3
generations = 2
[selfplay]
pairs = 4
nodes = 100
[labels]
search_nodes = 50
[gate]
nodes = 100
max_pairs = 6
"#;

    fn load(text: &str) -> anyhow::Result<NetworkLoopFile> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("loop.toml");
        std::fs::write(&path, text).unwrap();
        NetworkLoopFile::load(&path).map(|(f, _)| f)
    }

    #[test]
    fn a_loop_file_loads_with_its_defaults_and_bad_keys_are_named() {
        let file = load(FILE).unwrap();
        assert_eq!(file.network.hidden, 256);
        assert_eq!(file.labels.window, 2);
        let variant = builtin::load("chess-nocastle").unwrap();
        let options = file.network_options(&variant, 1);
        assert!(options.mirror, "chess without castling is file-symmetric");
        let chess = builtin::load("chess").unwrap();
        assert!(!file.network_options(&chess, 1).mirror);
        assert_eq!(options.king_buckets, 1);
        let text = FILE.replace("[labels]", "[network]\nking_buckets = 4\n[labels]");
        assert_eq!(
            load(&text)
                .unwrap()
                .network_options(&variant, 1)
                .king_buckets,
            4
        );

        for (change, key) in [
            (("pairs = 4", "pairs = 0"), "selfplay.pairs"),
            (
                ("search_nodes = 50", "search_nodes = 0"),
                "labels.search_nodes",
            ),
            (("max_pairs = 6", "max_pairs = 6\nelo1 = -1"), "gate.elo1"),
            (
                ("[labels]", "[network]\nviews = \"sideways\"\n[labels]"),
                "network.views",
            ),
            (
                ("[labels]", "[network]\nrate = 0\n[labels]"),
                "network.rate",
            ),
            (
                ("[labels]", "[network]\nking_buckets = 3\n[labels]"),
                "network.king_buckets",
            ),
        ] {
            let text = FILE.replace(change.0, change.1);
            let err = load(&text).unwrap_err().to_string();
            assert!(err.contains(key), "{err}");
        }
        let err = load(&FILE.replace("seed = 3", "seed = 3\nseeds = 4"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("seeds"), "{err}");
    }

    /// A warm start refines the player's network: the first player's shape
    /// is checked before any game, and the fit options carry the setting.
    #[test]
    fn a_warm_start_needs_a_first_player_network_of_the_fit_shape() {
        let variant = builtin::load("chess-nocastle").unwrap();
        let warm = |network: &str| {
            let text = FILE.replace("[labels]", &format!("[network]\n{network}\n[labels]"));
            load(&text).unwrap()
        };
        let file = warm("warm_start = true\nrate = 0.0003");
        let options = file.network_options(&variant, 1);
        assert!(options.warm_start);
        assert_eq!(options.rate, 0.0003);
        // The shipped chess player is a 256-unit network of both views and
        // squared units, the loop's default shape.
        let shipped = builtin::shipped_eval("chess-nocastle").unwrap().params();
        assert_eq!(options.check_warm_start(&shipped, &variant), Ok(()));

        let dir = tempfile::tempdir().unwrap();
        let interrupt = Arc::new(AtomicBool::new(false));
        let narrow = warm("warm_start = true\nhidden = 8");
        let err = train_network(&narrow, dir.path(), dir.path(), 1, true, &interrupt)
            .unwrap_err()
            .to_string();
        assert!(err.contains("network.warm_start"), "{err}");
        assert!(
            err.contains("hidden units 256, the fit asks for 8"),
            "{err}"
        );
        assert!(
            !generation_dir(dir.path(), 0).join("selfplay").exists(),
            "no game is played"
        );
    }

    #[test]
    fn generated_experiments_parse_and_pit_the_candidate_against_the_player() {
        let file = load(FILE).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let gdir = dir.path().join("gen-000");
        std::fs::create_dir_all(gdir.join("gate")).unwrap();
        std::fs::write(gdir.join("player.toml"), "tempo = 11\n").unwrap();
        std::fs::write(gdir.join("candidate.toml"), "tempo = 13\n").unwrap();
        let gate = gate_experiment(&file, "chess-nocastle", 0);
        let exp = Experiment::parse("gate.toml", &gate, &gdir.join("gate")).unwrap();
        assert!(exp.stop.sprt().is_some());
        assert_eq!(exp.armies[0].engine.eval.tempo, 13);
        assert_eq!(exp.armies[1].engine.eval.tempo, 11);
        let play = selfplay_experiment(&file, "chess-nocastle", 0);
        std::fs::create_dir_all(gdir.join("selfplay")).unwrap();
        let exp = Experiment::parse("play.toml", &play, &gdir.join("selfplay")).unwrap();
        assert_eq!(exp.armies[0].engine.eval.tempo, 11);
        assert_eq!(exp.armies[0].engine.root_noise, 10);
        // Each generation and each part has seeds of its own.
        assert_ne!(
            selfplay_experiment(&file, "chess-nocastle", 1),
            selfplay_experiment(&file, "chess-nocastle", 0)
        );
    }
}
