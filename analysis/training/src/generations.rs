//! The training loop: play a generation with the current values, fit new
//! values to the quiet positions of every generation so far (pooled, so the
//! sampling noise shrinks as games accumulate), write them as the next
//! generation's parameter file; resume from whatever generations are done.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::Context;
use pocketlab_core::engine::{EvalParams, Evaluator};
use pocketlab_core::{Position, Variant};
use pocketlab_selfplay::{Experiment, RunOptions, Shard, run};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::config::TrainingFile;
use super::samples::{FeatureSpace, samples_from_log};
use pocketlab_selfplay::files::{create_output_dir, replace_whole};
use pocketlab_stats::logistic::{FitSettings, Sample, fit};

/// One learned value with its bootstrap interval (centipawns).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct LearnedValue {
    /// The fitted value.
    pub value: f64,
    /// Lower end of its 95% bootstrap percentile interval (NaN where the
    /// value is not measured: seen in too few games, or mostly the prior;
    /// the value itself without bootstrap replicates).
    pub low: f64,
    /// Upper end of the same interval (NaN likewise).
    pub high: f64,
}

/// What one generation learned (`gen-NNN/fit.toml`).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GenerationFit {
    /// The generation, 0-based (its directory is `gen-NNN`).
    pub generation: u32,
    /// Games the fit used: every generation's so far.
    pub games: usize,
    /// Quiet positions the fit used, from those games.
    pub samples: usize,
    /// The fitted logistic scale `k`, per centipawn: White's expected score
    /// is `σ(k · evaluation)`.
    pub scale: f64,
    /// Mean cross-entropy per position at the values the generation played
    /// with (at the fitted scale).
    pub loss_before: f64,
    /// Mean cross-entropy per position at the learned values and scale.
    pub loss_after: f64,
    /// Board values by letter.
    pub board: BTreeMap<String, LearnedValue>,
    /// Pocketed-piece values by letter.
    pub pocket: BTreeMap<String, LearnedValue>,
    /// Largest change of a board value from the previous generation, in pawns.
    pub largest_change_pawns: f64,
    /// Whether the fit itself reached its optimum (records written before
    /// the fit had a tolerance read as not converged).
    #[serde(default)]
    pub fit_converged: bool,
}

/// The whole run's outcome.
#[derive(Debug, Clone)]
pub struct TrainingOutcome {
    /// Each generation's record in order, up to the one that settled or
    /// the last allowed.
    pub fits: Vec<GenerationFit>,
    /// The parameter file the last fit wrote (`params.toml` of the
    /// generation after it): the trained values.
    pub final_params: PathBuf,
    /// The starting parameters, `initial-params.toml` in the run's directory.
    pub initial_params: PathBuf,
    /// Whether the values settled: the last generation (not the first)
    /// reached its fit's optimum and moved no board value by
    /// `tolerance_pawns` or more.
    pub converged: bool,
    /// The run's directory, holding one `gen-NNN` directory per generation.
    pub dir: PathBuf,
}

/// Training has converged when a generation's fit reached its own optimum
/// and moved no value by more than the tolerance from the one before.
fn settled(fit: &GenerationFit, file: &TrainingFile, g: u32) -> bool {
    g > 0 && fit.fit_converged && fit.largest_change_pawns < file.tolerance_pawns
}

fn generation_dir(root: &Path, g: u32) -> PathBuf {
    root.join(format!("gen-{g:03}"))
}

/// Absolute variant spec, so generated experiments find it from any directory.
fn variant_spec(file: &TrainingFile, dir: &Path) -> String {
    if pocketlab_core::builtin::text(&file.variant).is_some() {
        file.variant.clone()
    } else {
        dir.join(&file.variant)
            .canonicalize()
            .map_or_else(|_| file.variant.clone(), |p| p.display().to_string())
    }
}

/// Random armies: each of the base army's piece letters becomes a piece of
/// its class or the next, so every piece appears and material is unequal.
pub fn random_armies(
    variant: &Variant,
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<BTreeMap<String, String>> {
    let start = Position::start(variant);
    let slots: Vec<_> = variant
        .piece_types()
        .filter(|&t| {
            t != variant.royal
                && !variant.is_pawn(t)
                && start.pieces_of_type(t).any()
                && variant.piece(t).class.is_some()
        })
        .collect();
    (0..count)
        .map(|_| {
            slots
                .iter()
                .map(|&t| {
                    let class = variant.piece(t).class.expect("slots have classes");
                    let mut choices: Vec<_> = variant.class(class).unwrap_or_default().to_vec();
                    if let Some(next) = variant.class(class + 1) {
                        choices.extend_from_slice(next);
                    }
                    let pick = choices[rng.random_range(0..choices.len())];
                    (
                        variant.letter(t).to_string(),
                        variant.letter(pick).to_string(),
                    )
                })
                .collect()
        })
        .collect()
}

fn generation_experiment(
    file: &TrainingFile,
    spec: &str,
    g: u32,
    armies: &[BTreeMap<String, String>],
) -> String {
    let mut t = String::new();
    let pairs = file
        .pairs_per_generation
        .div_ceil(armies.len() as u64)
        .max(1);
    writeln!(t, "# Generated by `pocketlab train` for generation {g}.").ok();
    writeln!(
        t,
        "name = \"{}-gen-{g:03}\"\nvariant = \"{}\"\nseed = {}",
        file.name,
        spec.replace('\\', "/"),
        file.seed + u64::from(g)
    )
    .ok();
    writeln!(
        t,
        "[engine]\nnodes = {}\neval = \"params.toml\"\nhash_mb = 4",
        file.nodes
    )
    .ok();
    writeln!(t, "[openings]\nrandom_plies = 4").ok();
    writeln!(
        t,
        "[adjudication]\nmax_plies = 300\nresign_score = 1500\nresign_moves = 3"
    )
    .ok();
    writeln!(t, "[stop]\npairs = {pairs}").ok();
    writeln!(t, "[log]\nfen_every = {}", file.fen_every).ok();
    for (i, army) in armies.iter().enumerate() {
        let replace: Vec<String> = army.iter().map(|(a, b)| format!("{a} = \"{b}\"")).collect();
        writeln!(t, "[armies.r{i}]\nreplace = {{ {} }}", replace.join(", ")).ok();
    }
    for i in 0..armies.len() {
        writeln!(
            t,
            "[[matchups]]\na = \"r{i}\"\nb = \"r{}\"",
            (i + 1) % armies.len()
        )
        .ok();
    }
    t
}

/// Run (or resume) training; `root` receives one directory per generation.
pub fn train(
    file: &TrainingFile,
    dir: &Path,
    root: &Path,
    threads: usize,
    quiet: bool,
) -> anyhow::Result<TrainingOutcome> {
    let spec = variant_spec(file, dir);
    let variant = pocketlab_selfplay::load_variant(&spec)?;
    let space = FeatureSpace::new(&variant);
    create_output_dir(root).with_context(|| root.display().to_string())?;
    let initial_params = root.join("initial-params.toml");
    if !initial_params.exists() {
        let params = match &file.eval {
            Some(p) => super::load_params(&dir.join(p))?,
            None => EvalParams::default(),
        };
        replace_whole(&initial_params, params.to_toml().as_bytes())?;
    }
    let mut fits = Vec::new();
    let mut params_path = initial_params.clone();
    let mut converged = false;
    for g in 0..file.generations {
        let gdir = generation_dir(root, g);
        std::fs::create_dir_all(&gdir)?;
        let fit_path = gdir.join("fit.toml");
        let next_params = generation_dir(root, g + 1).join("params.toml");
        let record = if fit_path.exists() && next_params.exists() {
            toml::from_str(&std::fs::read_to_string(&fit_path)?)
                .with_context(|| format!("{}: damaged generation record", fit_path.display()))?
        } else {
            let generation = Generation {
                file,
                spec: &spec,
                variant: &variant,
                space: &space,
                root,
                g,
            };
            let params = super::load_params(&params_path)?;
            let exp = generation.play(&params_path, threads, quiet)?;
            let record = generation.fit(&exp, &params)?;
            std::fs::create_dir_all(generation_dir(root, g + 1))?;
            let next = next_params_of(&params, &record);
            replace_whole(&next_params, next.to_toml().as_bytes())?;
            // The fit record is written last: it marks the generation as done.
            replace_whole(&fit_path, toml::to_string(&record)?.as_bytes())?;
            if !quiet {
                eprintln!(
                    "generation {g}: {} positions from {} games, loss {:.4} -> {:.4}, largest \
                     change {:.2} pawns",
                    record.samples,
                    record.games,
                    record.loss_before,
                    record.loss_after,
                    record.largest_change_pawns
                );
            }
            record
        };
        converged = settled(&record, file, g);
        fits.push(record);
        params_path = next_params;
        if converged {
            break;
        }
    }
    Ok(TrainingOutcome {
        fits,
        final_params: params_path,
        initial_params,
        converged,
        dir: root.to_path_buf(),
    })
}

/// One generation of a training run, before it is played.
struct Generation<'a> {
    file: &'a TrainingFile,
    spec: &'a str,
    variant: &'a Variant,
    space: &'a FeatureSpace,
    root: &'a Path,
    g: u32,
}

impl Generation<'_> {
    /// Plays (or resumes) the generation's games with the parameters at
    /// `params_path`, copied into its directory; returns its experiment.
    fn play(&self, params_path: &Path, threads: usize, quiet: bool) -> anyhow::Result<Experiment> {
        let (file, g) = (self.file, self.g);
        let gdir = generation_dir(self.root, g);
        // Generation g > 0 finds its parameters already in place (written by
        // g - 1); copying a file onto itself would truncate it.
        let own_params = gdir.join("params.toml");
        if params_path != own_params {
            replace_whole(
                &own_params,
                std::fs::read_to_string(params_path)?.as_bytes(),
            )?;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(file.seed ^ u64::from(g).wrapping_mul(0x9e37_79b9));
        let mut armies = random_armies(self.variant, file.random_armies, &mut rng);
        // Some armies stay the variant's own, so the positions of the game
        // as designed (and its mutation choices) are among the samples.
        let own = (file.random_armies as f64 * file.own_army_share).round() as usize;
        armies.iter_mut().take(own).for_each(BTreeMap::clear);
        let exp_text = generation_experiment(file, self.spec, g, &armies);
        let exp_path = gdir.join("experiment.toml");
        replace_whole(&exp_path, exp_text.as_bytes())?;
        let exp = Experiment::parse(&exp_path.display().to_string(), &exp_text, &gdir)?;
        if !quiet {
            eprintln!(
                "generation {g}: playing {} games with {}",
                exp.max_games(),
                params_path.display()
            );
        }
        let options = RunOptions {
            out_dir: gdir.join("log"),
            threads,
            shard: Shard::WHOLE,
            quiet,
        };
        let summary = run(&exp, &options, &Arc::new(AtomicBool::new(false)))?;
        anyhow::ensure!(
            !summary.interrupted,
            "generation {g} was interrupted; run the same command to resume"
        );
        Ok(exp)
    }

    /// Every generation's quiet positions so far, not only this one's: one
    /// generation alone gives values that jump by their sampling noise
    /// (about ±0.4 pawns for 800 games); pooled, the noise shrinks as games
    /// accumulate and the values settle. Positions are scored by outcome,
    /// so games played with older values remain valid samples.
    fn pooled_samples(&self, exp: &Experiment, eval: &Evaluator) -> anyhow::Result<Vec<Sample>> {
        let mut samples = Vec::new();
        let mut sources = Vec::new();
        for earlier in 0..=self.g {
            let more = samples_from_log(
                &generation_dir(self.root, earlier).join("log"),
                &exp.variant,
                eval,
                self.space,
            )?;
            sources.extend(std::iter::repeat_n(earlier, more.len()));
            samples.extend(more);
        }
        // Game ids repeat across generations and the bootstrap resamples
        // pairs: key each sample's game and pair by (generation, id),
        // numbered in that order, without assuming anything of the id's bits.
        let renumber = |ids: Vec<(u32, u64)>| -> Vec<u64> {
            let number: std::collections::HashMap<(u32, u64), u64> = ids
                .iter()
                .copied()
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .zip(0..)
                .collect();
            ids.iter().map(|k| number[k]).collect()
        };
        let games = renumber(
            sources
                .iter()
                .zip(&samples)
                .map(|(&g, s)| (g, s.game))
                .collect(),
        );
        let pairs = renumber(
            sources
                .iter()
                .zip(&samples)
                .map(|(&g, s)| (g, s.pair))
                .collect(),
        );
        for ((s, game), pair) in samples.iter_mut().zip(games).zip(pairs) {
            s.game = game;
            s.pair = pair;
        }
        anyhow::ensure!(
            !samples.is_empty(),
            "generation {}: no quiet position logged (raise pairs_per_generation)",
            self.g
        );
        Ok(samples)
    }

    /// Fits the values to the pooled positions: the generation's record.
    fn fit(&self, exp: &Experiment, params: &EvalParams) -> anyhow::Result<GenerationFit> {
        let (file, g, space) = (self.file, self.g, self.space);
        let eval = Evaluator::new(&exp.variant, params);
        let samples = self.pooled_samples(exp, &eval)?;
        let prior = space.prior(&eval);
        let settings = FitSettings {
            regularization: file.regularization,
            max_iterations: 40,
            bootstrap: file.bootstrap,
            seed: file.seed.wrapping_add(u64::from(g)),
            // The first pawn-like piece's board value is the unit.
            anchor: space.kinds.iter().position(|&t| self.variant.is_pawn(t)),
        };
        let result = fit(&samples, &prior, &settings);
        let n = space.kinds.len();
        let learned = |i: usize| LearnedValue {
            value: result.values[i],
            low: result.intervals[i].0,
            high: result.intervals[i].1,
        };
        let letter = |i: usize| self.variant.letter(space.kinds[i % n]).to_string();
        let largest_change_pawns = (0..n)
            .map(|i| (result.values[i] - prior[i]).abs() / 100.0)
            .fold(0.0, f64::max);
        Ok(GenerationFit {
            generation: g,
            games: result.games,
            samples: result.samples,
            scale: result.scale,
            loss_before: result.loss_before,
            loss_after: result.loss_after,
            board: (0..n).map(|i| (letter(i), learned(i))).collect(),
            pocket: (n..2 * n).map(|i| (letter(i), learned(i))).collect(),
            largest_change_pawns,
            fit_converged: result.converged,
        })
    }
}

/// The next generation's parameters: `params` with the learned values.
fn next_params_of(params: &EvalParams, record: &GenerationFit) -> EvalParams {
    let mut next = params.clone();
    for (l, v) in &record.board {
        next.piece_values.insert(l.clone(), v.value.round() as i32);
    }
    for (l, v) in &record.pocket {
        next.pocket_values.insert(l.clone(), v.value.round() as i32);
    }
    next
}
