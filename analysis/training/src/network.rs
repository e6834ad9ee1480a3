//! Fitting the evaluation's learned correction ([`Network`]) to the lab's
//! own games.
//!
//! The model is the hand-written evaluation of the start parameters plus
//! the network's output for the side to move; it predicts each quiet
//! position's label as `1 / (1 + 10^(-k * eval / 400))` with the scale `k`
//! of [`super::texel`], fitted to the start parameters and held. A label
//! is the game's result for White or, with [`NetworkOptions::search_nodes`],
//! a blend of it with what a node-limited search of the start parameters
//! predicts (the search's score through the same curve): the network then
//! learns what the search sees and the static terms miss. Labelling
//! ([`label_positions`]) and fitting ([`fit_network`]) are two steps, so
//! search scores can be kept in a label file ([`super::labels`]) and serve
//! many fits.
//!
//! Training is mini-batch gradient descent (Adam) in `f32` from seeded
//! weights, the output weights starting at zero (so the first model is the
//! start evaluation). Each batch's gradient is summed over fixed chunks in
//! order, so the fit is the same for any number of threads. The epoch
//! whose held-out error (labels as trained) is lowest is kept and rounded
//! to the integer weights the evaluator runs; the errors reported against
//! game results are the evaluator's own, comparable with a weight fit's.

use std::collections::HashSet;

use pocketlab_core::engine::{
    ACTIVATION_ONE, Activation, EvalParams, Evaluator, MAX_INPUT_WEIGHT, MAX_OUTPUT_WEIGHT,
    Network, NetworkInputs, OUTPUT_UNIT, SearchLimits, SearchOptions, Searcher, Views,
};
use pocketlab_core::splitmix;
use pocketlab_core::{Color, MoveList, Position, Variant};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use pocketlab_core::engine::is_quiet;

use super::labels::{LabelSearch, SearchScores};
use super::texel::{Labelled, TexelData, TexelOutcome, fit_scale, mean_error, white_view};

/// Settings of a network fit ([`tune_network`]).
#[derive(Clone, Debug)]
pub struct NetworkOptions {
    /// Hidden units.
    pub hidden: usize,
    /// From which sides the hidden layer reads a position.
    pub views: Views,
    /// The hidden units' activation.
    pub activation: Activation,
    /// Output buckets: one output layer per share of the material left
    /// ([`NetworkInputs::bucket`]); 1 for one output layer.
    pub buckets: usize,
    /// King buckets: one set of input weights per bucket of where the
    /// reading side's royal piece stands ([`Network::king_buckets`]).
    pub king_buckets: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size.
    pub rate: f32,
    /// When an epoch does not lower the held-out error, the fit returns
    /// to the best weights so far and multiplies the step size by this
    /// (below 1), stopping once it is a thousandth of `rate`; 1 keeps the
    /// step size constant for every epoch.
    pub rate_drop: f32,
    /// Seeds the first weights and the order of the positions.
    pub seed: u64,
    /// Label positions by a search of this many nodes with the start's
    /// whole evaluation (its network too) as well as by the game's result
    /// (`None`: the result alone).
    pub search_nodes: Option<u64>,
    /// With `search_nodes`: the search's share of a label, 0 to 1.
    pub search_share: f64,
    /// With `search_nodes`: per logged position, this many more reached
    /// from it by one to four random legal moves (kept when quiet),
    /// labelled by the search alone.
    pub derived: usize,
    /// Train on each training position's mirror image too (files a to h
    /// reversed, the same label): twice the positions for no search, in a
    /// variant whose rules a mirror keeps ([`Variant::is_file_symmetric`];
    /// an error otherwise). Held-out positions are not mirrored.
    pub mirror: bool,
    /// The hand-written terms the network is fitted on top of and written
    /// with (any network of theirs dropped); `None`: the start's. The
    /// labels stay the start's (its searches, its quiet and derived
    /// positions), so one label file serves fits on several bases: a base
    /// without the terms that read attacks evaluates faster and leaves
    /// them to the network.
    pub base: Option<EvalParams>,
    /// Begin from the start parameters' network instead of seeded weights
    /// (its shape must be the fit's: [`NetworkOptions::check_warm_start`]),
    /// so a fit to new positions refines what the start knows rather than
    /// learning it afresh. The first model is then the start's whole
    /// evaluation, so a fit that finds nothing better keeps it (epoch 0).
    /// A start of one king bucket becomes the part of the input weights
    /// every king bucket shares: the same evaluation, which the fit then
    /// lets differ by where the king stands.
    pub warm_start: bool,
}

impl NetworkOptions {
    /// With [`NetworkOptions::warm_start`]: that `start` holds a network
    /// for `variant`'s pieces of this fit's shape (hidden units, views,
    /// activation, buckets, king buckets; or one king bucket, which then
    /// starts every bucket of the fit). Checked before any position is
    /// labelled.
    pub fn check_warm_start(&self, start: &EvalParams, variant: &Variant) -> Result<(), String> {
        if !self.warm_start {
            return Ok(());
        }
        let Some(net) = &start.network else {
            return Err("the start parameters hold no network to begin from".to_owned());
        };
        let pieces = piece_letters(variant);
        let mismatch = |what: &str, theirs: String, ours: String| {
            Err(format!(
                "the start's network has {what} {theirs}, the fit asks for {ours}"
            ))
        };
        if net.pieces != pieces {
            return mismatch("piece letters", net.pieces.clone(), pieces);
        }
        if net.hidden != self.hidden {
            return mismatch(
                "hidden units",
                net.hidden.to_string(),
                self.hidden.to_string(),
            );
        }
        if net.views != self.views {
            let name = |v: Views| v.name().to_owned();
            return mismatch("views", name(net.views), name(self.views));
        }
        if net.activation != self.activation {
            let name = |a: Activation| a.name().to_owned();
            return mismatch("activation", name(net.activation), name(self.activation));
        }
        if net.buckets != self.buckets {
            return mismatch("buckets", net.buckets.to_string(), self.buckets.to_string());
        }
        if net.king_buckets != self.king_buckets && net.king_buckets != 1 {
            return mismatch(
                "king buckets",
                net.king_buckets.to_string(),
                self.king_buckets.to_string(),
            );
        }
        Ok(())
    }

    /// The hand-written terms the fit adds the network to.
    fn base_params(&self, start: &EvalParams) -> EvalParams {
        let mut base = self.base.as_ref().unwrap_or(start).clone();
        base.network = None;
        base
    }
}

impl Default for NetworkOptions {
    fn default() -> NetworkOptions {
        NetworkOptions {
            hidden: 32,
            views: Views::Mover,
            activation: Activation::Clipped,
            buckets: 1,
            king_buckets: 1,
            epochs: 30,
            batch: 4096,
            rate: 1e-3,
            rate_drop: 1.0,
            seed: 1,
            search_nodes: None,
            search_share: 0.5,
            derived: 0,
            mirror: false,
            base: None,
            warm_start: false,
        }
    }
}

/// Progress of a network fit, per epoch.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// The epoch, from 1; 0 reports the start, before any step.
    pub epoch: usize,
    /// Mean squared error of the predicted score (0 to 1) against the
    /// labels, on the training set.
    pub train_error: f64,
    /// The same on the held-out set (NaN when it is empty).
    pub held_out_error: f64,
}

/// What a network fit found: the evaluator's errors against game results
/// (comparable with a weight fit's) and the fit's own against its labels.
#[derive(Clone, Debug)]
pub struct NetworkOutcome {
    /// The start parameters with the kept network, and the evaluator's
    /// errors against game results before and after; `passes` counts the
    /// epochs run, `changed` is empty.
    pub fit: TexelOutcome,
    /// The epoch kept (lowest held-out error against the labels; 0: none
    /// improved on the start).
    pub best_epoch: usize,
    /// Held-out mean squared error against the labels at the start: the
    /// hand-written terms alone (the output weights at zero).
    pub label_error_before: f64,
    /// The same at the kept epoch (equal to `label_error_before` when none
    /// improved).
    pub label_error_after: f64,
}

/// One position as the fit sees it.
#[derive(Debug)]
struct Sample {
    /// The start evaluation from White's side, in centipawns.
    base: f32,
    /// +1 when White is to move (the network speaks for the mover).
    sign: f32,
    /// The active inputs from the mover's side.
    inputs: Vec<(u32, f32)>,
    /// The same from the other side's ([`Views::Both`]; empty otherwise).
    other: Vec<(u32, f32)>,
    /// The output bucket of the position.
    bucket: u16,
    label: f32,
}

impl Sample {
    /// The active inputs of view `v` (0: the mover's).
    fn view(&self, v: usize) -> &[(u32, f32)] {
        if v == 0 { &self.inputs } else { &self.other }
    }
}

/// The float model: input weights feature by feature, hidden biases,
/// output weights (per bucket and view) and biases (per bucket) in pawns;
/// activations run from 0 to 1 (the evaluator's [`ACTIVATION_ONE`]).
#[derive(Clone)]
struct Model {
    hidden: usize,
    views: usize,
    activation: Activation,
    /// With king buckets, each bucket's own part of its input weights.
    input: Vec<f32>,
    /// With king buckets, the part of every input's weights that all
    /// buckets share (one bucket's worth, added to each bucket's own part;
    /// empty with one bucket): what holds wherever the king stands is
    /// learned from every position, and a bucket's own part only from its
    /// positions. The file holds the sums.
    shared: Vec<f32>,
    bias: Vec<f32>,
    output: Vec<f32>,
    output_bias: Vec<f32>,
}

impl Model {
    /// How many numbers the model holds, in the order [`Model::apply`]
    /// walks them.
    fn parameter_count(&self) -> usize {
        self.input.len()
            + self.shared.len()
            + self.bias.len()
            + self.output.len()
            + self.output_bias.len()
    }

    /// The shared row of `input` (of any king bucket), if the model has
    /// shared weights.
    #[inline]
    fn shared_row(&self, input: usize) -> Option<std::ops::Range<usize>> {
        let rows = self.shared.len() / self.hidden;
        (rows > 0).then(|| {
            let row = input % rows;
            row * self.hidden..(row + 1) * self.hidden
        })
    }

    /// Output buckets.
    fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// King buckets: as many as `input` holds copies of the shared part.
    fn king_buckets(&self) -> usize {
        if self.shared.is_empty() {
            1
        } else {
            self.input.len() / self.shared.len()
        }
    }

    /// Where `bucket`'s output weights start in `output`.
    fn output_start(&self, bucket: u16) -> usize {
        usize::from(bucket) * self.views * self.hidden
    }

    /// Seeded first weights for `inputs` inputs (every king bucket's):
    /// with king buckets the shared part is drawn and each bucket's own
    /// starts at zero.
    fn new(inputs: usize, options: &NetworkOptions, rng: &mut ChaCha8Rng) -> Model {
        let hidden = options.hidden;
        let king_buckets = options.king_buckets;
        let mut drawn = |n: usize| -> Vec<f32> {
            (0..n * hidden)
                .map(|_| rng.random_range(-0.05f32..0.05))
                .collect()
        };
        let (input, shared) = if king_buckets == 1 {
            (drawn(inputs), Vec::new())
        } else {
            (vec![0.0; inputs * hidden], drawn(inputs / king_buckets))
        };
        Model {
            hidden,
            views: options.views.count(),
            activation: options.activation,
            input,
            shared,
            bias: vec![0.5; hidden],
            output: vec![0.0; options.buckets * options.views.count() * hidden],
            output_bias: vec![0.0; options.buckets],
        }
    }

    /// The float model of an integer network with `king_buckets` king
    /// buckets: the inverse of [`Model::rounded`], exact for every integer
    /// weight a file holds. A network of one king bucket becomes the
    /// shared part of every bucket's weights (the same evaluation); a
    /// network of as many buckets keeps them as the buckets' own parts.
    fn from_network(net: &Network, king_buckets: usize) -> Model {
        assert!(net.king_buckets == king_buckets || net.king_buckets == 1);
        let one = ACTIVATION_ONE as f32;
        let output_unit = 100.0 * OUTPUT_UNIT as f32;
        let weights: Vec<f32> = net.input.iter().map(|&w| w as f32 / one).collect();
        let (input, shared) = match (net.king_buckets, king_buckets) {
            (1, 1) => (weights, Vec::new()),
            (1, k) => (vec![0.0; k * weights.len()], weights),
            (k, _) => {
                let shared = vec![0.0; weights.len() / k];
                (weights, shared)
            }
        };
        Model {
            hidden: net.hidden,
            views: net.views.count(),
            activation: net.activation,
            input,
            shared,
            bias: net.bias.iter().map(|&w| w as f32 / one).collect(),
            output: net.output.iter().map(|&o| o as f32 / output_unit).collect(),
            output_bias: net.output_bias.iter().map(|&b| b as f32 / 100.0).collect(),
        }
    }

    /// The hidden sums of every view of `sample`, into `acc` (a view's
    /// units after another's).
    fn hidden_sums(&self, sample: &Sample, acc: &mut [f32]) {
        for (v, acc) in acc.chunks_exact_mut(self.hidden).enumerate() {
            acc.copy_from_slice(&self.bias);
            for &(i, x) in sample.view(v) {
                let row = &self.input[i as usize * self.hidden..(i as usize + 1) * self.hidden];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w * x;
                }
                if let Some(shared) = self.shared_row(i as usize) {
                    for (a, w) in acc.iter_mut().zip(&self.shared[shared]) {
                        *a += w * x;
                    }
                }
            }
        }
    }

    /// What a unit whose sum is `a` passes on.
    #[inline]
    fn activate(&self, a: f32) -> f32 {
        let clipped = a.clamp(0.0, 1.0);
        match self.activation {
            Activation::Clipped => clipped,
            Activation::Squared => clipped * clipped,
        }
    }

    /// The activation's slope at `a`: a clipped unit passes gradient only
    /// inside its range.
    #[inline]
    fn slope(&self, a: f32) -> f32 {
        if a > 0.0 && a < 1.0 {
            match self.activation {
                Activation::Clipped => 1.0,
                Activation::Squared => 2.0 * a,
            }
        } else {
            0.0
        }
    }

    /// The correction in centipawns for the side to move, given the sums,
    /// through the output layer of `bucket`.
    fn output_of(&self, acc: &[f32], bucket: u16) -> f32 {
        let sum: f32 = acc
            .iter()
            .zip(&self.output[self.output_start(bucket)..])
            .map(|(&a, o)| self.activate(a) * o)
            .sum();
        100.0 * (sum + self.output_bias[usize::from(bucket)])
    }

    fn predict(&self, sample: &Sample, acc: &mut [f32], scale: f32) -> f32 {
        self.hidden_sums(sample, acc);
        let white = sample.base + sample.sign * self.output_of(acc, sample.bucket);
        1.0 / (1.0 + (-scale * white).exp())
    }

    /// Adds the gradient of `sample`'s squared error to `grad` (laid out
    /// as [`Model::apply`] reads it); returns the error.
    fn accumulate(&self, sample: &Sample, acc: &mut [f32], scale: f32, grad: &mut [f32]) -> f32 {
        let p = self.predict(sample, acc, scale);
        let diff = p - sample.label;
        // d error / d output (in pawns).
        let g = 2.0 * diff * p * (1.0 - p) * scale * sample.sign * 100.0;
        let h = self.hidden;
        let (g_input, rest) = grad.split_at_mut(self.input.len());
        let (g_shared, rest) = rest.split_at_mut(self.shared.len());
        let (g_bias, rest) = rest.split_at_mut(h);
        let (g_output, g_output_bias) = rest.split_at_mut(self.output.len());
        g_output_bias[usize::from(sample.bucket)] += g;
        let first = self.output_start(sample.bucket);
        let (g_output, output) = (&mut g_output[first..], &self.output[first..]);
        for (j, a) in acc.iter_mut().enumerate() {
            g_output[j] += g * self.activate(*a);
            // From here on `acc` holds each unit's share of the gradient.
            *a = g * output[j] * self.slope(*a);
            g_bias[j % h] += *a;
        }
        for (v, acc) in acc.chunks_exact(h).enumerate() {
            for &(i, x) in sample.view(v) {
                let row = &mut g_input[i as usize * h..(i as usize + 1) * h];
                for (gw, d) in row.iter_mut().zip(acc) {
                    *gw += d * x;
                }
                if let Some(shared) = self.shared_row(i as usize) {
                    for (gw, d) in g_shared[shared].iter_mut().zip(acc) {
                        *gw += d * x;
                    }
                }
            }
        }
        diff * diff
    }

    fn mean_error(&self, set: &[Sample], scale: f32) -> f64 {
        if set.is_empty() {
            return f64::NAN;
        }
        let errors: Vec<f64> = set
            .par_chunks(1024)
            .map(|chunk| {
                let mut acc = vec![0.0; self.views * self.hidden];
                chunk
                    .iter()
                    .map(|s| {
                        let d = self.predict(s, &mut acc, scale) - s.label;
                        f64::from(d * d)
                    })
                    .sum::<f64>()
            })
            .collect();
        errors.iter().sum::<f64>() / set.len() as f64
    }

    /// One Adam step along `grad` (already averaged).
    fn apply(&mut self, grad: &[f32], adam: &mut Adam, rate: f32) {
        adam.step += 1;
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let c1 = 1.0 - b1.powi(adam.step);
        let c2 = 1.0 - b2.powi(adam.step);
        let params = self
            .input
            .iter_mut()
            .chain(self.shared.iter_mut())
            .chain(self.bias.iter_mut())
            .chain(self.output.iter_mut())
            .chain(self.output_bias.iter_mut());
        for (((w, &g), m), v) in params
            .zip(grad)
            .zip(adam.m.iter_mut())
            .zip(adam.v.iter_mut())
        {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *w -= rate * (*m / c1) / ((*v / c2).sqrt() + eps);
        }
        // Keep the rounded weights within what a file may hold.
        let input_bound = MAX_INPUT_WEIGHT as f32 / ACTIVATION_ONE as f32;
        let first_layer = self.input.iter_mut().chain(self.shared.iter_mut());
        for w in first_layer.chain(self.bias.iter_mut()) {
            *w = w.clamp(-input_bound, input_bound);
        }
    }

    /// The integer network the evaluator runs.
    fn rounded(&self, pieces: &str) -> Network {
        let one = ACTIVATION_ONE as f32;
        let input_weight =
            |w: &f32| ((w * one).round() as i32).clamp(-MAX_INPUT_WEIGHT, MAX_INPUT_WEIGHT);
        let output_weight = |cp: f32| {
            (cp.round() as i64).clamp(-i64::from(MAX_OUTPUT_WEIGHT), i64::from(MAX_OUTPUT_WEIGHT))
                as i32
        };
        Network {
            pieces: pieces.to_owned(),
            hidden: self.hidden,
            views: if self.views == 2 {
                Views::Both
            } else {
                Views::Mover
            },
            activation: self.activation,
            buckets: self.buckets(),
            king_buckets: self.king_buckets(),
            input: if self.shared.is_empty() {
                self.input.iter().map(input_weight).collect()
            } else {
                let shared = self.shared.iter().cycle();
                self.input
                    .iter()
                    .zip(shared)
                    .map(|(own, shared)| input_weight(&(own + shared)))
                    .collect()
            },
            bias: self.bias.iter().map(input_weight).collect(),
            output: self
                .output
                .iter()
                .map(|o| output_weight(o * 100.0 * OUTPUT_UNIT as f32))
                .collect(),
            output_bias: self
                .output_bias
                .iter()
                .map(|b| output_weight(b * 100.0))
                .collect(),
        }
    }
}

#[derive(Clone)]
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

/// The lowest held-out error met so far, with what reached it.
struct Best {
    error: f64,
    model: Model,
    adam: Adam,
    epoch: usize,
}

/// The letters of every piece type of `variant`, in its order.
fn piece_letters(variant: &Variant) -> String {
    variant
        .piece_types()
        .map(|k| variant.letter(k).to_ascii_uppercase())
        .collect()
}

/// A node-limited search's score of `pos` from White's side.
fn search_score<'v>(
    searcher: &mut Searcher<pocketlab_core::engine::StandardRules<'v>>,
    pos: &Position<'v>,
    nodes: u64,
) -> i32 {
    // Each position searched from a fresh table: the score depends on the
    // position alone, not on which positions a thread met before.
    searcher.new_game();
    let stm = searcher.search(pos, &[], &SearchLimits::nodes(nodes)).score;
    if pos.side_to_move() == Color::White {
        stm
    } else {
        -stm
    }
}

/// Positions one to four random legal moves from each of `set`'s, `per`
/// tries per position, kept when quiet; their result is unknown (NaN).
fn derived_positions<'v>(
    set: &[Labelled<'v>],
    per: usize,
    seed: u64,
    eval: &Evaluator,
) -> Vec<Labelled<'v>> {
    set.par_iter()
        .enumerate()
        .flat_map_iter(|(i, l)| {
            let mut rng = ChaCha8Rng::seed_from_u64(splitmix(seed ^ splitmix(i as u64)));
            let mut buffer = MoveList::new();
            let mut out = Vec::new();
            for _ in 0..per {
                let mut pos = l.pos.clone();
                for _ in 0..rng.random_range(1..=4) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
                }
                if !pos.legal_moves().is_empty() && is_quiet(&pos, eval, &mut buffer) {
                    out.push(Labelled {
                        pos,
                        result: f64::NAN,
                    });
                }
            }
            out
        })
        .collect()
}

/// The samples of `set`'s positions, each followed by its mirror image's
/// with the same label when `mirror` (the variant must be file-symmetric).
fn samples(
    set: &[Labelled<'_>],
    base: &Evaluator,
    inputs: &NetworkInputs,
    label: &(dyn Fn(usize, &Labelled<'_>) -> f64 + Sync),
    mirror: bool,
    views: Views,
    buckets: usize,
) -> Vec<Sample> {
    let sample = |pos: &Position<'_>, label: f64| {
        let features = |view: Color| {
            let mut features = Vec::with_capacity(40);
            inputs.for_each_from(pos, view, |input, value| {
                features.push((input as u32, value as f32));
            });
            features
        };
        let us = pos.side_to_move();
        Sample {
            base: white_view(base, pos) as f32,
            sign: if pos.side_to_move() == Color::White {
                1.0
            } else {
                -1.0
            },
            inputs: features(us),
            other: match views {
                Views::Mover => Vec::new(),
                Views::Both => features(!us),
            },
            bucket: inputs.bucket(pos, buckets) as u16,
            label: label as f32,
        }
    };
    set.par_iter()
        .enumerate()
        .flat_map_iter(|(i, l)| {
            let label = label(i, l);
            let mirrored = mirror.then(|| {
                let image = l.pos.mirror_files().expect("a file-symmetric variant");
                sample(&image, label)
            });
            std::iter::once(sample(&l.pos, label)).chain(mirrored)
        })
        .collect()
}

/// The positions of a network fit with their labels, training and
/// held-out sets ([`label_positions`]).
#[derive(Debug)]
pub struct NetworkLabels {
    /// The result curve's scale, fitted to the start's hand-written terms.
    k: f64,
    /// The views the samples hold inputs for.
    views: Views,
    /// The output buckets the samples are sorted into.
    buckets: usize,
    /// The king buckets of the samples' inputs.
    king_buckets: usize,
    train: Vec<Sample>,
    held_out: Vec<Sample>,
    /// Derived positions in the training set (not counting mirror images).
    pub train_derived: usize,
    /// Derived positions in the held-out set.
    pub held_out_derived: usize,
    /// Training samples (mirror images included) by the king bucket the
    /// side to move reads them in: how much each bucket's own weights have
    /// to learn from.
    pub train_by_king_bucket: Vec<usize>,
}

/// How far the search labelling has come: positions searched of those
/// whose score was not known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelProgress {
    /// Positions searched so far.
    pub searched: usize,
    /// Positions to search in all: each distinct position of both sets
    /// whose score was not known.
    pub to_search: usize,
}

/// Positions searched between two calls of [`label_positions`]'s
/// `progress` (a block is searched in parallel, each position alone).
const LABEL_BLOCK: usize = 16_384;

/// Labels `data`'s positions (and the derived ones) for a fit on top of
/// `start`'s hand-written terms. Search scores are taken from `scores`
/// where it has them and searched (and added to it) where not; `scores`
/// must be for [`NetworkOptions::search_nodes`] and `start` (unused
/// without search labels). `progress` hears after each block of
/// searches, with the scores so far (to keep them: an error it returns
/// stops the labelling).
pub fn label_positions<'v>(
    data: &TexelData<'v>,
    variant: &Variant,
    start: &EvalParams,
    options: &NetworkOptions,
    scores: &mut SearchScores,
    mut progress: impl FnMut(LabelProgress, &SearchScores) -> anyhow::Result<()>,
) -> anyhow::Result<NetworkLabels> {
    if options.mirror && !variant.is_file_symmetric() {
        anyhow::bail!(
            "variant {}: a mirror (files a to h reversed) changes its rules (castling, or moves \
             that depend on the square), so mirror images are not positions of the same worth",
            variant.name
        );
    }
    // The labels' curve and derived positions are the start's, whatever
    // the base the network is fitted on.
    let mut start_terms = start.clone();
    start_terms.network = None;
    let k = fit_scale(&data.train, variant, &start_terms);
    let start_eval = Evaluator::new(variant, &start_terms);
    let base = Evaluator::new(variant, &options.base_params(start));
    let inputs = NetworkInputs::new(variant, &piece_letters(variant), options.king_buckets);
    let with_derived = |logged: &[Labelled<'v>], salt: u64| {
        let mut set = logged.to_vec();
        if options.search_nodes.is_some() && options.derived > 0 {
            set.extend(derived_positions(
                logged,
                options.derived,
                options.seed ^ salt,
                &start_eval,
            ));
        }
        set
    };
    let sets = [
        with_derived(&data.train, 0),
        with_derived(&data.held_out, 1),
    ];
    let searched: Option<[Vec<f64>; 2]> = match options.search_nodes {
        None => None,
        Some(nodes) => {
            debug_assert_eq!(*scores.search(), LabelSearch::new(variant, start, nodes));
            let fens: Vec<Vec<String>> = sets
                .iter()
                .map(|set| set.par_iter().map(|l| l.pos.to_fen()).collect())
                .collect();
            // Each position once: openings and derived positions repeat.
            let mut seen = HashSet::new();
            let mut missing: Vec<(&Labelled<'_>, &String)> = Vec::new();
            for (set, fens) in sets.iter().zip(&fens) {
                for (l, fen) in set.iter().zip(fens) {
                    if scores.get(fen).is_none() && seen.insert(fen) {
                        missing.push((l, fen));
                    }
                }
            }
            let search_options = SearchOptions {
                hash_megabytes: 1,
                ..SearchOptions::default()
            };
            let mut done = 0;
            for block in missing.chunks(LABEL_BLOCK) {
                let found: Vec<i32> = block
                    .par_chunks(64)
                    .flat_map_iter(|chunk| {
                        // The whole start, its network too: a stronger
                        // searcher labels better, and the new network
                        // learns what the old one saw.
                        let mut searcher =
                            Searcher::standard(variant, start, search_options.clone());
                        chunk
                            .iter()
                            .map(|(l, _)| search_score(&mut searcher, &l.pos, nodes))
                            .collect::<Vec<_>>()
                    })
                    .collect();
                for ((_, fen), score) in block.iter().zip(found) {
                    scores.insert((*fen).clone(), score);
                }
                done += block.len();
                progress(
                    LabelProgress {
                        searched: done,
                        to_search: missing.len(),
                    },
                    scores,
                )?;
            }
            let curve = |white: i32| 1.0 / (1.0 + 10f64.powf(-k * f64::from(white) / 400.0));
            let label = |fens: &[String]| -> Vec<f64> {
                fens.iter()
                    .map(|f| curve(scores.get(f).expect("every position is scored")))
                    .collect()
            };
            Some([label(&fens[0]), label(&fens[1])])
        }
    };
    let share = options.search_share.clamp(0.0, 1.0);
    let build = |which: usize, logged: usize| {
        let set = &sets[which];
        let label = |i: usize, l: &Labelled<'_>| match &searched {
            // A derived position has no game: the search alone labels it.
            Some(s) if l.result.is_nan() => s[which][i],
            Some(s) => share * s[which][i] + (1.0 - share) * l.result,
            None => l.result,
        };
        // Training positions only: the held-out error stays comparable.
        let mirror = options.mirror && which == 0;
        (
            samples(
                set,
                &base,
                &inputs,
                &label,
                mirror,
                options.views,
                options.buckets,
            ),
            set.len() - logged,
        )
    };
    let (train, train_derived) = build(0, data.train.len());
    let (held_out, held_out_derived) = build(1, data.held_out.len());
    let bucket_inputs = Network::inputs_for(piece_letters(variant).len(), 1);
    let mut train_by_king_bucket = vec![0; options.king_buckets];
    for sample in &train {
        // Every input of a view lies in its king bucket; the royal pieces
        // are inputs, so no sample is without one.
        if let Some(&(input, _)) = sample.inputs.first() {
            train_by_king_bucket[input as usize / bucket_inputs] += 1;
        }
    }
    Ok(NetworkLabels {
        k,
        views: options.views,
        buckets: options.buckets,
        king_buckets: options.king_buckets,
        train,
        held_out,
        train_derived,
        held_out_derived,
        train_by_king_bucket,
    })
}

/// Seconds between two writes of a label file while labelling, so a
/// stopped labelling resumes about where it was.
const LABEL_SAVE_SECONDS: u64 = 300;

/// Labels `data`'s positions and fits the network, as `pocketlab tune
/// --network` and the self-play loop do: search scores are read from and
/// kept in the Parquet file `labels` (when given: written every few
/// minutes while searching and before the fit, the costly part), and
/// `say` hears the progress in lines for a person.
pub fn label_and_fit(
    data: &TexelData<'_>,
    variant: &Variant,
    start: &EvalParams,
    options: &NetworkOptions,
    labels: Option<&std::path::Path>,
    say: &mut dyn FnMut(String),
) -> anyhow::Result<NetworkOutcome> {
    // Before the searches, which may take hours.
    options
        .check_warm_start(start, variant)
        .map_err(|reason| anyhow::anyhow!("warm start: {reason}"))?;
    let search = LabelSearch::new(variant, start, options.search_nodes.unwrap_or(0));
    let mut scores = match labels {
        Some(path) => SearchScores::read(path, search)?,
        None => SearchScores::new(search),
    };
    if let Some(nodes) = options.search_nodes {
        say(format!(
            "labelling every position by a search of {nodes} nodes as well"
        ));
        if let Some(path) = labels {
            say(format!(
                "{}: {} positions already scored by this search",
                path.display(),
                scores.len()
            ));
        }
    }
    let mut last_write = std::time::Instant::now();
    let began = std::time::Instant::now();
    let made = label_positions(
        data,
        variant,
        start,
        options,
        &mut scores,
        |progress, scores| {
            let seconds = began.elapsed().as_secs_f64();
            let left = progress.to_search.saturating_sub(progress.searched) as f64;
            let eta = if progress.searched > 0 {
                format!(", ETA {:.0} s", seconds / progress.searched as f64 * left)
            } else {
                String::new()
            };
            say(format!(
                "searched {} of {} positions{eta}",
                progress.searched, progress.to_search
            ));
            if let Some(path) = labels
                && last_write.elapsed().as_secs() >= LABEL_SAVE_SECONDS
            {
                scores.write(path)?;
                last_write = std::time::Instant::now();
            }
            Ok(())
        },
    )?;
    if let Some(path) = labels {
        if scores.added() > 0 {
            scores.write(path)?;
        }
        say(format!(
            "{}: {} positions scored, {} of them new",
            path.display(),
            scores.len(),
            scores.added()
        ));
    }
    if made.train_derived + made.held_out_derived > 0 {
        say(format!(
            "{} derived positions to fit, {} held out",
            made.train_derived, made.held_out_derived
        ));
    }
    if options.king_buckets > 1 {
        let total = made.train_by_king_bucket.iter().sum::<usize>().max(1);
        let shares: Vec<String> = made
            .train_by_king_bucket
            .iter()
            .enumerate()
            .map(|(b, &n)| format!("{b}: {:.1}%", 100.0 * n as f64 / total as f64))
            .collect();
        say(format!(
            "training positions by the mover's king bucket: {}",
            shares.join(", ")
        ));
    }
    let outcome = fit_network(&made, data, variant, start, options, |r| {
        say(format!(
            "epoch {:>4}  error {:.6}  held out {:.6}",
            r.epoch, r.train_error, r.held_out_error
        ));
    });
    say(format!(
        "kept epoch {}: held-out error against the labels {:.6} -> {:.6}",
        outcome.best_epoch, outcome.label_error_before, outcome.label_error_after
    ));
    Ok(outcome)
}

/// Labels and fits in one step, search scores searched afresh
/// ([`label_positions`], then [`fit_network`]).
pub fn tune_network(
    data: &TexelData<'_>,
    variant: &Variant,
    start: &EvalParams,
    options: &NetworkOptions,
    progress: impl FnMut(EpochReport),
) -> NetworkOutcome {
    let nodes = options.search_nodes.unwrap_or(0);
    let mut scores = SearchScores::new(LabelSearch::new(variant, start, nodes));
    let labels = label_positions(data, variant, start, options, &mut scores, |_, _| Ok(()))
        .expect("no progress callback fails");
    fit_network(&labels, data, variant, start, options, progress)
}

/// Fits a network on top of `start`'s hand-written terms to `labels`
/// (made from `data` and `start` by [`label_positions`] with the same
/// `options`); any network `start` holds is replaced (with
/// [`NetworkOptions::warm_start`], refined). `progress` hears of each
/// epoch.
///
/// # Panics
///
/// With `warm_start`, if [`NetworkOptions::check_warm_start`] fails:
/// callers check it first.
pub fn fit_network(
    labels: &NetworkLabels,
    data: &TexelData<'_>,
    variant: &Variant,
    start: &EvalParams,
    options: &NetworkOptions,
    mut progress: impl FnMut(EpochReport),
) -> NetworkOutcome {
    let NetworkLabels {
        k,
        views,
        buckets,
        king_buckets,
        ref train,
        ref held_out,
        ..
    } = *labels;
    assert_eq!(views, options.views, "labels made for other views");
    assert_eq!(buckets, options.buckets, "labels made for other buckets");
    assert_eq!(
        king_buckets, options.king_buckets,
        "labels made for other king buckets"
    );
    let pieces = piece_letters(variant);
    let scale = (k * std::f64::consts::LN_10 / 400.0) as f32;
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    // Drawn even when warm: the positions' order is then a cold fit's.
    let inputs = Network::inputs_for(pieces.len(), options.king_buckets);
    let mut model = Model::new(inputs, options, &mut rng);
    if options.warm_start {
        options
            .check_warm_start(start, variant)
            .unwrap_or_else(|reason| panic!("warm start: {reason}"));
        let net = start.network.as_ref().expect("checked above");
        model = Model::from_network(net, options.king_buckets);
    }
    let n = model.parameter_count();
    let mut adam = Adam {
        m: vec![0.0; n],
        v: vec![0.0; n],
        step: 0,
    };
    let mut order: Vec<usize> = (0..train.len()).collect();
    let label_error_before = model.mean_error(held_out, scale);
    let mut best = Best {
        error: label_error_before,
        model: model.clone(),
        adam: adam.clone(),
        epoch: 0,
    };
    progress(EpochReport {
        epoch: 0,
        train_error: model.mean_error(train, scale),
        held_out_error: label_error_before,
    });
    let mut rate = options.rate;
    let mut passes = 0;
    const CHUNK: usize = 512;
    for epoch in 1..=options.epochs {
        passes = epoch;
        order.shuffle(&mut rng);
        for batch in order.chunks(options.batch.max(1)) {
            // Fixed chunks summed in order: the same step for any number of threads.
            let parts: Vec<Vec<f32>> = batch
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut grad = vec![0.0f32; n];
                    let mut acc = vec![0.0f32; model.views * model.hidden];
                    for &i in chunk {
                        model.accumulate(&train[i], &mut acc, scale, &mut grad);
                    }
                    grad
                })
                .collect();
            let mut grad = vec![0.0f32; n];
            for part in parts {
                for (g, p) in grad.iter_mut().zip(part) {
                    *g += p;
                }
            }
            let count = batch.len() as f32;
            grad.iter_mut().for_each(|g| *g /= count);
            model.apply(&grad, &mut adam, rate);
        }
        let report = EpochReport {
            epoch,
            train_error: model.mean_error(train, scale),
            held_out_error: model.mean_error(held_out, scale),
        };
        progress(report);
        if report.held_out_error < best.error {
            best = Best {
                error: report.held_out_error,
                model: model.clone(),
                adam: adam.clone(),
                epoch,
            };
        } else if options.rate_drop < 1.0 {
            // Past the best: smaller steps from the best weights.
            rate *= options.rate_drop;
            if rate < options.rate / 1000.0 {
                break;
            }
            model = best.model.clone();
            adam = best.adam.clone();
        }
    }
    let mut tuned = options.base_params(start);
    tuned.network = Some(best.model.rounded(&pieces));
    let error = |set: &[Labelled<'_>], params: &EvalParams| {
        mean_error(set, &Evaluator::new(variant, params), k)
    };
    NetworkOutcome {
        fit: TexelOutcome {
            scale: k,
            train_error_before: error(&data.train, start),
            train_error_after: error(&data.train, &tuned),
            held_out_error_before: error(&data.held_out, start),
            held_out_error_after: error(&data.held_out, &tuned),
            params: tuned,
            passes,
            changed: Vec::new(),
        },
        best_epoch: best.epoch,
        label_error_before,
        label_error_after: best.error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pocketlab_core::builtin;

    use crate::labels::MAX_LABEL_SCORE;

    /// Positions labelled by an evaluation that knows something the start
    /// parameters do not (a knight on its own c3 is worth a pawn more):
    /// the network must learn it, and the evaluator running the rounded
    /// network must predict the labels better than the start.
    #[test]
    fn a_planted_term_is_learned_by_the_network() {
        let v = builtin::load("chess").unwrap();
        let start = EvalParams::default();
        let eval = Evaluator::new(&v, &start);
        let (data, fens) = planted_knight(&v);
        let shapes = NETWORK_SHAPES.iter().map(|&(v, a)| (v, a, 1, 1));
        for (views, activation, buckets, king_buckets) in shapes.chain([
            (Views::Both, Activation::Squared, 4, 1),
            (Views::Both, Activation::Squared, 1, 4),
        ]) {
            let options = NetworkOptions {
                hidden: 4,
                views,
                activation,
                buckets,
                king_buckets,
                epochs: 3000,
                batch: 8,
                rate: 3e-3,
                ..NetworkOptions::default()
            };
            let outcome = tune_network(&data, &v, &start, &options, |_| {}).fit;
            let shape = format!(
                "{views:?} {activation:?} {buckets} bucket(s) {king_buckets} king bucket(s)"
            );
            assert!(
                outcome.held_out_error_after < outcome.held_out_error_before / 4.0,
                "{shape}: {} -> {}",
                outcome.held_out_error_before,
                outcome.held_out_error_after
            );
            let net = outcome.params.network.as_ref().unwrap();
            assert_eq!(
                (net.views, net.activation, net.buckets, net.king_buckets),
                (views, activation, buckets, king_buckets)
            );
            let tuned = Evaluator::new(&v, &outcome.params);
            let pos = Position::from_fen(&v, fens[0]).unwrap();
            let gain = tuned.evaluate(&pos) - eval.evaluate(&pos);
            // The scale `k` is fitted, so the gain is near, not at, the planted 100.
            assert!(
                (30..=200).contains(&gain),
                "{shape}: knight on c3 gained {gain}"
            );
            // The hand-written weights are left as they were.
            assert_eq!(outcome.params.weights(), start.weights());
        }
    }

    /// With another base the network is fitted on top of its terms and
    /// written with them: it learns the planted term and what the base
    /// left out, from the start's labels.
    #[test]
    fn a_network_fitted_on_another_base_is_written_with_it() {
        let v = builtin::load("chess").unwrap();
        let start = EvalParams::default();
        let (data, fens) = planted_knight(&v);
        let mut base = start.clone();
        base.reach_square = pocketlab_core::engine::Phased::new(0, 0);
        base.tempo = 0;
        let options = NetworkOptions {
            hidden: 4,
            views: Views::Both,
            activation: Activation::Squared,
            epochs: 3000,
            batch: 8,
            rate: 3e-3,
            base: Some(base.clone()),
            ..NetworkOptions::default()
        };
        let outcome = tune_network(&data, &v, &start, &options, |_| {}).fit;
        assert_eq!(outcome.params.weights(), base.weights());
        assert!(outcome.params.network.is_some());
        assert!(
            outcome.held_out_error_after < outcome.held_out_error_before / 4.0,
            "{} -> {}",
            outcome.held_out_error_before,
            outcome.held_out_error_after
        );
        // The knight on its own c3 against one on a1, as the labels have it:
        // the planted 100 and the reach the base lacks.
        let tuned = Evaluator::new(&v, &outcome.params);
        let labelled = Evaluator::new(&v, &start);
        let at = |e: &Evaluator, fen: &str| e.evaluate(&Position::from_fen(&v, fen).unwrap());
        let wanted = at(&labelled, fens[0]) + 100 - at(&labelled, fens[4]);
        let learned = at(&tuned, fens[0]) - at(&tuned, fens[4]);
        assert!(
            (learned - wanted).abs() <= wanted / 2,
            "c3 over a1: learned {learned}, labels {wanted}"
        );
    }

    /// Every shape of network the tests fit.
    const NETWORK_SHAPES: [(Views, Activation); 3] = [
        (Views::Mover, Activation::Clipped),
        (Views::Both, Activation::Clipped),
        (Views::Both, Activation::Squared),
    ];

    /// The gradient [`Model::accumulate`] sums is the slope of the squared
    /// error, parameter by parameter (by central differences), for every
    /// shape of network (king buckets with both kings off bucket 0).
    #[test]
    fn the_gradient_is_the_slope_of_the_error() {
        let v = builtin::load("chess").unwrap();
        let eval = Evaluator::new(&v, &EvalParams::default());
        let opening = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4";
        let walked = "r1bq1rk1/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPPKPPP/RNBQ3R b - - 4 4";
        let shapes = NETWORK_SHAPES.iter().map(|&(v, a)| (v, a, 1, 1, opening));
        for (views, activation, buckets, king_buckets, fen) in shapes.chain([
            (Views::Both, Activation::Squared, 3, 1, opening),
            (Views::Both, Activation::Squared, 2, 4, walked),
        ]) {
            let options = NetworkOptions {
                hidden: 3,
                views,
                activation,
                buckets,
                king_buckets,
                ..NetworkOptions::default()
            };
            let inputs = NetworkInputs::new(&v, &piece_letters(&v), king_buckets);
            let pos = Position::from_fen(&v, fen).unwrap();
            let set = [Labelled { pos, result: 0.8 }];
            let label = |_: usize, l: &Labelled<'_>| l.result;
            let sample = &samples(&set, &eval, &inputs, &label, false, views, buckets)[0];
            let bucket_inputs = Network::inputs_for(6, 1) as u32;
            if king_buckets > 1 {
                // Black to move, its king on g8: bucket 1; White's on e2: 2.
                assert!(sample.inputs.iter().all(|&(i, _)| i / bucket_inputs == 1));
                assert!(sample.other.iter().all(|&(i, _)| i / bucket_inputs == 2));
            }
            let mut rng = ChaCha8Rng::seed_from_u64(3);
            let inputs = Network::inputs_for(6, king_buckets);
            let mut model = Model::new(inputs, &options, &mut rng);
            // Buckets' own parts that differ from zero.
            if king_buckets > 1 {
                for w in &mut model.input {
                    *w = rng.random_range(-0.05f32..0.05);
                }
            }
            // Spread the units over their range, and give every output a say.
            let first_layer = model.input.iter_mut().chain(model.shared.iter_mut());
            first_layer.for_each(|w| *w *= 4.0);
            model.bias = vec![0.3, 0.5, 0.7];
            for o in &mut model.output {
                *o = rng.random_range(-0.5f32..0.5);
            }
            let scale = 0.004;
            let mut acc = vec![0.0; views.count() * 3];
            let mut grad = vec![0.0; model.parameter_count()];
            model.accumulate(sample, &mut acc, scale, &mut grad);
            let error = |m: &Model| {
                let mut acc = vec![0.0; views.count() * 3];
                let d = m.predict(sample, &mut acc, scale) - sample.label;
                f64::from(d * d)
            };
            // The active inputs' rows (their shared parts too), the biases
            // and the outputs.
            let mut checked = 0;
            let first_input = sample.inputs[0].0 as usize * 3;
            let other_input = sample.view(views.count() - 1)[1].0 as usize * 3;
            let (n_input, n_shared) = (model.input.len(), model.shared.len());
            let own = [first_input, first_input + 2, other_input + 1];
            let shared = own
                .iter()
                .filter(|_| n_shared > 0)
                .map(|i| n_input + i % n_shared.max(1));
            let watched = own
                .into_iter()
                .chain(shared)
                .chain(n_input + n_shared..model.parameter_count());
            for index in watched {
                let h = 5e-3f32;
                let nudge = |m: &mut Model, by: f32| {
                    let p = m
                        .input
                        .iter_mut()
                        .chain(m.shared.iter_mut())
                        .chain(m.bias.iter_mut())
                        .chain(m.output.iter_mut())
                        .chain(m.output_bias.iter_mut())
                        .nth(index)
                        .unwrap();
                    *p += by;
                };
                let (mut up, mut down) = (model.clone(), model.clone());
                nudge(&mut up, h);
                nudge(&mut down, -h);
                let slope = (error(&up) - error(&down)) / (2.0 * f64::from(h));
                let found = f64::from(grad[index]);
                // Within 1%: the errors are taken in f32, so the step is large
                // enough for their differences to stand clear of f32's
                // resolution, and small enough to cross no clipping point.
                assert!(
                    (slope - found).abs() <= 1e-2 * slope.abs().max(1e-3),
                    "{views:?} {activation:?} {buckets} {king_buckets}: parameter {index}: \
                     slope {slope}, gradient {found}"
                );
                checked += 1;
            }
            let shared_checked = if king_buckets > 1 { 3 } else { 0 };
            assert_eq!(
                checked,
                3 + shared_checked + 3 + (3 * views.count() + 1) * buckets
            );
        }
    }

    /// With a step-size drop the fit goes back to its best weights when
    /// an epoch does no better, and stops once the step is too small to
    /// matter: it learns the planted term in fewer passes, the same way
    /// every time.
    #[test]
    fn a_dropping_step_size_stops_early_and_still_learns() {
        let v = builtin::load("chess").unwrap();
        let start = EvalParams::default();
        let (data, _) = planted_knight(&v);
        let options = NetworkOptions {
            hidden: 4,
            epochs: 3000,
            batch: 8,
            rate: 3e-3,
            rate_drop: 0.5,
            ..NetworkOptions::default()
        };
        let mut epochs = Vec::new();
        let outcome = tune_network(&data, &v, &start, &options, |e| epochs.push(e.epoch));
        let fit = &outcome.fit;
        assert!(fit.passes < 3000, "ran all {} passes", fit.passes);
        assert_eq!(epochs.last(), Some(&fit.passes));
        assert!(outcome.best_epoch <= fit.passes);
        assert!(
            fit.held_out_error_after < fit.held_out_error_before / 4.0,
            "{} -> {}",
            fit.held_out_error_before,
            fit.held_out_error_after
        );
        let again = tune_network(&data, &v, &start, &options, |_| {}).fit;
        assert_eq!(again.params, fit.params);
        assert_eq!(again.passes, fit.passes);
    }

    /// A warm start begins from the start's network, exactly as its file
    /// holds it: where a cold fit starts from the hand-written terms alone,
    /// a warm one starts knowing the planted term, and it keeps the start's
    /// network when no epoch does better.
    #[test]
    fn a_warm_start_begins_from_the_start_network() {
        let v = builtin::load("chess").unwrap();
        let (data, _) = planted_knight(&v);
        let cold = NetworkOptions {
            hidden: 4,
            views: Views::Both,
            activation: Activation::Squared,
            epochs: 3000,
            batch: 8,
            rate: 3e-3,
            ..NetworkOptions::default()
        };
        let start = EvalParams::default();
        let fitted = tune_network(&data, &v, &start, &cold, |_| {});
        let trained = fitted.fit.params;
        let net = trained.network.as_ref().unwrap();
        // The float model of a file's network rounds back to it exactly.
        let letters = piece_letters(&v);
        assert_eq!(&Model::from_network(net, 1).rounded(&letters), net);

        let warm = NetworkOptions {
            warm_start: true,
            epochs: 1,
            rate: 1e-9,
            ..cold.clone()
        };
        let mut first = Vec::new();
        let refined = tune_network(&data, &v, &trained, &warm, |e| first.push(e));
        let mut cold_first = Vec::new();
        tune_network(
            &data,
            &v,
            &trained,
            &NetworkOptions { epochs: 1, ..cold },
            |e| cold_first.push(e),
        );
        assert!(
            first[0].train_error < cold_first[0].train_error / 4.0,
            "warm {} against cold {}",
            first[0].train_error,
            cold_first[0].train_error
        );
        // A step too small to change the rounded weights: the start is kept.
        assert_eq!(refined.fit.params.network.as_ref(), Some(net));
        assert_eq!(refined.fit.params.weights(), trained.weights());

        // Into king buckets: every bucket starts as the one-bucket network,
        // so the first evaluation is the start's, position for position.
        let bucketed = NetworkOptions {
            king_buckets: 4,
            ..warm
        };
        assert_eq!(bucketed.check_warm_start(&trained, &v), Ok(()));
        let mut bucketed_first = Vec::new();
        let spread = tune_network(&data, &v, &trained, &bucketed, |e| bucketed_first.push(e));
        assert_eq!(bucketed_first[0].train_error, first[0].train_error);
        assert_eq!(bucketed_first[0].held_out_error, first[0].held_out_error);
        let spread = spread.fit.params;
        let spread_net = spread.network.as_ref().unwrap();
        assert_eq!(spread_net.king_buckets, 4);
        assert_eq!(spread_net.input, net.input.repeat(4));
        let walked = Position::from_fen(&v, "8/4k3/8/8/8/2N5/6K1/8 w - - 0 1").unwrap();
        let four = NetworkInputs::new(&v, &letters, 4);
        assert_eq!(four.king_bucket(&walked, Color::White), 2);
        assert_eq!(
            Evaluator::new(&v, &spread).evaluate(&walked),
            Evaluator::new(&v, &trained).evaluate(&walked)
        );
    }

    /// A warm start needs a network of the fit's shape, said before any
    /// position is searched.
    #[test]
    fn a_warm_start_refuses_a_network_of_another_shape() {
        let v = builtin::load("chess").unwrap();
        let (data, _) = planted_knight(&v);
        let options = NetworkOptions {
            hidden: 4,
            epochs: 2,
            batch: 8,
            ..NetworkOptions::default()
        };
        let trained = tune_network(&data, &v, &EvalParams::default(), &options, |_| {})
            .fit
            .params;
        type Change = fn(&mut NetworkOptions);
        let warm = |change: Change| {
            let mut o = NetworkOptions {
                warm_start: true,
                ..options.clone()
            };
            change(&mut o);
            o
        };
        assert_eq!(warm(|_| {}).check_warm_start(&trained, &v), Ok(()));
        let cases: [(Change, &str); 4] = [
            (|o| o.hidden = 8, "hidden units 4, the fit asks for 8"),
            (
                |o| o.views = Views::Both,
                "views mover, the fit asks for both",
            ),
            (|o| o.activation = Activation::Squared, "activation clipped"),
            (|o| o.buckets = 2, "buckets 1, the fit asks for 2"),
        ];
        for (change, says) in cases {
            let error = warm(change).check_warm_start(&trained, &v).unwrap_err();
            assert!(error.contains(says), "{error}");
        }
        // One king bucket starts any number of them; more must match.
        assert_eq!(
            warm(|o| o.king_buckets = 4).check_warm_start(&trained, &v),
            Ok(())
        );
        let mut bucketed = trained.clone();
        let net = bucketed.network.as_mut().unwrap();
        net.king_buckets = 4;
        net.input = net.input.repeat(4);
        let error = warm(|o| o.king_buckets = 2)
            .check_warm_start(&bucketed, &v)
            .unwrap_err();
        assert!(
            error.contains("king buckets 4, the fit asks for 2"),
            "{error}"
        );
        let error = warm(|_| {})
            .check_warm_start(&EvalParams::default(), &v)
            .unwrap_err();
        assert!(error.contains("no network"), "{error}");
        let other = builtin::load("pocket-mutation").unwrap();
        let error = warm(|_| {}).check_warm_start(&trained, &other).unwrap_err();
        assert!(error.contains("piece letters"), "{error}");
        let labels = std::env::temp_dir().join("pocketlab-warm-start-refused.parquet");
        let refused = label_and_fit(
            &data,
            &v,
            &EvalParams::default(),
            &warm(|_| {}),
            Some(&labels),
            &mut |_| {},
        );
        assert!(refused.unwrap_err().to_string().contains("warm start"));
        assert!(!labels.exists(), "nothing is labelled before the check");
    }

    /// Positions where a knight on its own c3 is worth a pawn more than the
    /// default evaluation says, labelled by result, split for fitting; and
    /// their FENs (the first has White's knight on c3, White to move).
    fn planted_knight(v: &Variant) -> (TexelData<'_>, [&'static str; 8]) {
        let eval = Evaluator::new(v, &EvalParams::default());
        let fens = [
            "4k3/8/8/8/8/2N5/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/2N5/8/4K3 b - - 0 1",
            "4k3/8/2n5/8/8/8/8/4K3 b - - 0 1",
            "4k3/8/2n5/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/N3K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/N3K3 b - - 0 1",
            "n3k3/8/8/8/8/8/8/4K3 b - - 0 1",
            "4k3/8/8/8/8/8/1N6/4K3 w - - 0 1",
        ];
        let set: Vec<Labelled<'_>> = fens
            .iter()
            .map(|fen| {
                let pos = Position::from_fen(v, fen).unwrap();
                let mut white = white_view(&eval, &pos);
                // The planted term, for whichever side has the knight on
                // its own c3 (White's c3 or Black's c6).
                if fen.contains("2N5/8/4K3") {
                    white += 100.0;
                }
                if fen.starts_with("4k3/8/2n5") {
                    white -= 100.0;
                }
                let result = 1.0 / (1.0 + 10f64.powf(-white / 400.0));
                Labelled { pos, result }
            })
            .collect();
        (TexelData::fit_and_hold_out(set), fens)
    }

    /// Derived positions are a few legal moves away, quiet, not over, and
    /// the same for the same seed.
    #[test]
    fn derived_positions_are_quiet_reachable_and_seeded() {
        let v = builtin::load("chess").unwrap();
        let eval = Evaluator::new(&v, &EvalParams::default());
        let start = Labelled {
            pos: Position::start(&v),
            result: 0.5,
        };
        let set = vec![start.clone(), start];
        let derived = derived_positions(&set, 20, 7, &eval);
        assert!(derived.len() >= 20, "{} of 40 kept", derived.len());
        let mut buffer = MoveList::new();
        for l in &derived {
            assert!(l.result.is_nan());
            assert!(is_quiet(&l.pos, &eval, &mut buffer));
            assert!(!l.pos.legal_moves().is_empty());
            assert_ne!(l.pos.hash(), set[0].pos.hash());
            // One to four plies from the start: at most two moves each.
            assert!(l.pos.fullmove_number() <= 3, "{}", l.pos.to_fen());
        }
        let again = derived_positions(&set, 20, 7, &eval);
        let fens = |ls: &[Labelled<'_>]| ls.iter().map(|l| l.pos.to_fen()).collect::<Vec<_>>();
        assert_eq!(fens(&derived), fens(&again));
        assert_ne!(fens(&derived), fens(&derived_positions(&set, 20, 8, &eval)));
    }

    /// `n` positions, a knight ending and a pawn ending in turn, the
    /// `i`-th with result `result(i)`, split for fitting.
    fn two_endings(v: &Variant, n: u32, result: impl Fn(u32) -> f64) -> TexelData<'_> {
        let set = (0..n)
            .map(|i| {
                let fen = if i % 2 == 0 {
                    "4k3/8/8/8/8/2N5/8/4K3 w - - 0 1"
                } else {
                    "4k3/8/8/8/8/8/PPP5/4K3 b - - 0 1"
                };
                Labelled {
                    pos: Position::from_fen(v, fen).unwrap(),
                    result: result(i),
                }
            })
            .collect();
        TexelData::fit_and_hold_out(set)
    }

    /// The training positions are counted by the mover's king bucket:
    /// every position once, in the bucket its royal piece stands in.
    #[test]
    fn training_positions_are_counted_by_the_movers_king_bucket() {
        let v = builtin::load("chess-nocastle").unwrap();
        let start = EvalParams::default();
        // White to move with its king on e1, g1 or e2; Black's on e8.
        let fens = [
            "4k3/8/8/8/8/2N5/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/2N5/8/6K1 w - - 0 1",
            "4k3/8/8/8/8/2N5/4K3/8 w - - 0 1",
        ];
        let set = (0..60)
            .map(|i| Labelled {
                pos: Position::from_fen(&v, fens[i % 3]).unwrap(),
                result: 0.5,
            })
            .collect();
        let data = TexelData::fit_and_hold_out(set);
        let options = NetworkOptions {
            king_buckets: 4,
            ..NetworkOptions::default()
        };
        let mut scores = SearchScores::new(LabelSearch::new(&v, &start, 0));
        let labels =
            label_positions(&data, &v, &start, &options, &mut scores, |_, _| Ok(())).unwrap();
        let mut want = vec![0; 4];
        for l in &data.train {
            let fen = l.pos.to_fen();
            let bucket = fens.iter().position(|f| fen.starts_with(&f[..20])).unwrap();
            want[bucket] += 1;
        }
        assert_eq!(labels.train_by_king_bucket, want);
        assert!(want[..3].iter().all(|&n| n > 0), "{want:?}");
    }

    /// With `mirror` each training position is followed by its mirror
    /// image, labelled alike; held-out positions are not mirrored; and a
    /// variant a mirror changes (castling) is refused.
    #[test]
    fn mirror_images_double_the_training_positions() {
        let v = builtin::load("chess-nocastle").unwrap();
        let start = EvalParams::default();
        let data = two_endings(&v, 40, |i| f64::from(i % 3) / 2.0);
        let label = |mirror: bool| {
            let options = NetworkOptions {
                mirror,
                ..NetworkOptions::default()
            };
            let mut scores = SearchScores::new(LabelSearch::new(&v, &start, 0));
            label_positions(&data, &v, &start, &options, &mut scores, |_, _| Ok(()))
        };
        let (plain, mirrored) = (label(false).unwrap(), label(true).unwrap());
        assert_eq!(mirrored.train.len(), 2 * plain.train.len());
        assert_eq!(mirrored.held_out.len(), plain.held_out.len());
        let inputs = NetworkInputs::new(&v, &piece_letters(&v), 1);
        for (i, sample) in plain.train.iter().enumerate() {
            let (same, image) = (&mirrored.train[2 * i], &mirrored.train[2 * i + 1]);
            assert_eq!(same.inputs, sample.inputs);
            assert_eq!((same.label, image.label), (sample.label, sample.label));
            // The image's inputs are the mirrored position's.
            let pos = data.train[i].pos.mirror_files().unwrap();
            let mut features = Vec::new();
            inputs.for_each(&pos, |input, value| {
                features.push((input as u32, value as f32));
            });
            assert_eq!(image.inputs, features);
            assert_ne!(image.inputs, sample.inputs);
        }

        let chess = builtin::load("chess").unwrap();
        let data = two_endings(&chess, 10, |_| 0.5);
        let options = NetworkOptions {
            mirror: true,
            ..NetworkOptions::default()
        };
        let mut scores = SearchScores::new(LabelSearch::new(&chess, &start, 0));
        let error = label_positions(&data, &chess, &start, &options, &mut scores, |_, _| Ok(()))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("variant chess") && error.contains("mirror"),
            "{error}"
        );
    }

    /// Search labels come from the start as it stands, network included:
    /// a start whose network gives the side to move three pawns labels
    /// positions far from what its hand-written terms alone say.
    #[test]
    fn search_labels_use_the_start_network() {
        let v = builtin::load("chess").unwrap();
        let data = two_endings(&v, 40, |_| 0.5);
        let options = NetworkOptions {
            hidden: 2,
            epochs: 1,
            search_nodes: Some(200),
            search_share: 1.0,
            ..NetworkOptions::default()
        };
        let plain = EvalParams::default();
        let mut biased = plain.clone();
        biased.network = Some(Network {
            pieces: "PNBRQK".into(),
            hidden: 1,
            views: Views::Mover,
            activation: Activation::Clipped,
            buckets: 1,
            king_buckets: 1,
            input: vec![0; Network::inputs_for(6, 1)],
            bias: vec![0],
            output: vec![0],
            output_bias: vec![300],
        });
        biased.validate().unwrap();
        let error = |start: &EvalParams| {
            tune_network(&data, &v, start, &options, |_| {}).label_error_before
        };
        let (plain, biased) = (error(&plain), error(&biased));
        assert!(biased > 4.0 * plain, "{plain} against {biased}");
    }

    /// Scores read back from a label file label as the searches did: the
    /// same fit, no position searched again; and the labels are the
    /// file's (a planted score shows in them).
    #[test]
    fn a_label_file_stands_in_for_the_searches() {
        let v = builtin::load("chess").unwrap();
        let start = EvalParams::default();
        let data = two_endings(&v, 60, |i| f64::from(i % 3) / 2.0);
        let options = NetworkOptions {
            hidden: 4,
            epochs: 2,
            search_nodes: Some(200),
            search_share: 1.0,
            derived: 1,
            ..NetworkOptions::default()
        };
        let search = LabelSearch::new(&v, &start, 200);
        let mut fresh = SearchScores::new(search.clone());
        let mut heard = Vec::new();
        let labels = label_positions(&data, &v, &start, &options, &mut fresh, |p, scores| {
            heard.push((p, scores.added()));
            Ok(())
        })
        .unwrap();
        let &(last, added) = heard.last().expect("progress is reported");
        assert_eq!((last.searched, last.to_search), (last.to_search, added));
        let fit = |labels: &NetworkLabels| {
            fit_network(labels, &data, &v, &start, &options, |_| {})
                .fit
                .params
        };
        assert!(fresh.added() > 2, "{} searched", fresh.added());

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("labels.parquet");
        fresh.write(&path).unwrap();
        let mut read = SearchScores::read(&path, search).unwrap();
        assert_eq!((read.len(), read.added()), (fresh.len(), 0));
        let again = label_positions(&data, &v, &start, &options, &mut read, |_, _| Ok(())).unwrap();
        assert_eq!(read.added(), 0, "nothing searched again");
        assert_eq!(fit(&again), fit(&labels));

        let mut planted = SearchScores::new(read.search().clone());
        let knight = Position::from_fen(&v, "4k3/8/8/8/8/2N5/8/4K3 w - - 0 1").unwrap();
        planted.insert(knight.to_fen(), -MAX_LABEL_SCORE);
        let relabelled =
            label_positions(&data, &v, &start, &options, &mut planted, |_, _| Ok(())).unwrap();
        let knights: Vec<usize> = (0..data.train.len())
            .filter(|&i| data.train[i].pos.to_fen() == knight.to_fen())
            .collect();
        assert!(!knights.is_empty());
        let lost = 1.0 / (1.0 + 10f64.powf(relabelled.k * f64::from(MAX_LABEL_SCORE) / 400.0));
        for i in knights {
            let (planted, searched) = (relabelled.train[i].label, labels.train[i].label);
            assert!(
                (f64::from(planted) - lost).abs() < 1e-6,
                "{planted} against {lost}"
            );
            assert!(searched > planted + 0.05, "{searched}");
        }
    }

    /// The fit depends on the seed and the data alone, not on the threads,
    /// search labels and derived positions included.
    #[test]
    fn a_fit_is_the_same_for_any_number_of_threads() {
        let v = builtin::load("chess").unwrap();
        let start = EvalParams::default();
        let data = two_endings(&v, 600, |i| f64::from(i % 3) / 2.0);
        let options = NetworkOptions {
            hidden: 8,
            epochs: 3,
            batch: 1500,
            search_nodes: Some(300),
            derived: 1,
            ..NetworkOptions::default()
        };
        let fit = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| tune_network(&data, &v, &start, &options, |_| {}).fit.params)
        };
        assert_eq!(fit(1), fit(3));
    }
}
