//! Texel tuning: every evaluation weight fitted to the results of the lab's
//! own games.
//!
//! The data are the quiet positions of self-play logs (not in check, no
//! capture or promotion that wins material by exchange), each labelled with
//! its game's result for White. The model predicts that result as
//! `1 / (1 + 10^(-k * eval / 400))`, with `eval` the static evaluation from
//! White's side; `k` is fitted first to the starting parameters and then
//! held, and the weights of [`EvalParams::weights_mut`] are walked by a
//! local search (each weight up or down by a step while the mean squared
//! error falls, the step halving when no weight moves) until no step of
//! one improves it. Positions of one game pair in ten (chosen by pair, so
//! both games of an opening stay on one side) are held out: their error
//! before and after says whether the fit generalises.
//!
//! [`tune_squares`] fits per-square tables for every piece type instead
//! (`piece_squares`, hundreds of numbers): the evaluation is linear in
//! them, so it runs gradient descent (Adam) on precomputed features, with
//! a small ridge penalty for squares a piece seldom visits.
//!
//! Piece values are not tuned here: they are what the balance study
//! measures, and `pocketlab train` fits them from the same kind of data.

use std::path::PathBuf;

use anyhow::bail;
use pocketlab_core::engine::{EvalParams, Evaluator, MAX_WEIGHT, SquareTable};
use pocketlab_core::{Color, Position, Variant};
use pocketlab_selfplay::log::{GameId, open_log};
use rayon::prelude::*;

use super::samples::for_each_quiet_position;

/// One position with its game's result.
#[derive(Clone, Debug)]
pub(super) struct Labelled<'v> {
    pub(super) pos: Position<'v>,
    /// White's score in the game: 1, 0.5 or 0.
    pub(super) result: f64,
}

/// The labelled quiet positions of some logs, split into a training set and
/// a held-out set.
#[derive(Debug)]
pub struct TexelData<'v> {
    pub(super) train: Vec<Labelled<'v>>,
    pub(super) held_out: Vec<Labelled<'v>>,
}

impl<'v> TexelData<'v> {
    /// Quiet positions of `logs`, which must all be logs of `variant`.
    pub fn from_logs(
        logs: &[PathBuf],
        variant: &'v Variant,
        params: &EvalParams,
    ) -> anyhow::Result<TexelData<'v>> {
        let eval = Evaluator::new(variant, params);
        let mut data = TexelData {
            train: Vec::new(),
            held_out: Vec::new(),
        };
        for log in logs {
            let exp = open_log(log)?.experiment()?;
            if exp.variant.name != variant.name {
                bail!(
                    "{}: a log of variant '{}', not '{}': tune one variant at a time",
                    log.display(),
                    exp.variant.name,
                    variant.name
                );
            }
            for_each_quiet_position(log, variant, &eval, |pos, game, result| {
                let labelled = Labelled { pos, result };
                if GameId::decode(game).pair.is_multiple_of(10) {
                    data.held_out.push(labelled);
                } else {
                    data.train.push(labelled);
                }
            })?;
        }
        if data.train.is_empty() {
            bail!(
                "no quiet logged positions in {} log(s): log positions with `[log] fen_every` \
                 (every 2 plies is a good choice for tuning)",
                logs.len()
            );
        }
        Ok(data)
    }

    /// `set` as both the training and the held-out set (tests with a
    /// known truth, where generalising is not the question).
    #[cfg(test)]
    pub(super) fn fit_and_hold_out(set: Vec<Labelled<'v>>) -> TexelData<'v> {
        TexelData {
            train: set.clone(),
            held_out: set,
        }
    }

    /// Positions for fitting and positions held out.
    pub fn sizes(&self) -> (usize, usize) {
        (self.train.len(), self.held_out.len())
    }
}

/// The static evaluation of `pos` from White's side.
pub(super) fn white_view(eval: &Evaluator, pos: &Position<'_>) -> f64 {
    let stm = f64::from(eval.evaluate(pos));
    if pos.side_to_move() == Color::White {
        stm
    } else {
        -stm
    }
}

/// Mean squared error of the predicted results of `set` under `eval`.
pub(super) fn mean_error(set: &[Labelled<'_>], eval: &Evaluator, k: f64) -> f64 {
    if set.is_empty() {
        return f64::NAN;
    }
    // Collected in order and summed in one thread: the same sum, bit for
    // bit, for any number of threads.
    let errors: Vec<f64> = set
        .par_iter()
        .map(|l| {
            let white = white_view(eval, &l.pos);
            let predicted = 1.0 / (1.0 + 10f64.powf(-k * white / 400.0));
            (l.result - predicted).powi(2)
        })
        .collect();
    errors.iter().sum::<f64>() / set.len() as f64
}

/// The scale `k` that fits the results best under `params` (golden-section
/// search; the error is unimodal in `k`).
pub(super) fn fit_scale(set: &[Labelled<'_>], variant: &Variant, params: &EvalParams) -> f64 {
    let eval = Evaluator::new(variant, params);
    let (mut lo, mut hi) = (0.05f64, 4.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if mean_error(set, &eval, a) < mean_error(set, &eval, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct TexelOptions {
    /// The first step each weight is moved by (halved down to 1).
    pub first_step: i32,
    /// The most passes over all weights.
    pub max_passes: usize,
    /// Tune only the weights whose key starts with one of these (all when
    /// empty); the others are held.
    pub only: Vec<String>,
}

impl Default for TexelOptions {
    fn default() -> TexelOptions {
        TexelOptions {
            first_step: 16,
            max_passes: 40,
            only: Vec::new(),
        }
    }
}

/// What a tuning run found.
#[derive(Clone, Debug)]
pub struct TexelOutcome {
    /// The tuned parameters.
    pub params: EvalParams,
    /// The scale `k`, fitted to the start parameters on the training set
    /// and held: White's predicted result is `1 / (1 + 10^(-k * eval / 400))`,
    /// `eval` in centipawns.
    pub scale: f64,
    /// Mean squared error of the predicted results (0 to 1) against the
    /// game results on the training set, at the start parameters.
    pub train_error_before: f64,
    /// The same at the tuned parameters.
    pub train_error_after: f64,
    /// Mean squared error on the held-out positions at the start
    /// parameters (NaN when none are held out).
    pub held_out_error_before: f64,
    /// The same at the tuned parameters.
    pub held_out_error_after: f64,
    /// Passes made: over all weights for [`tune`], epochs for
    /// [`tune_squares`] and network fits.
    pub passes: usize,
    /// Weights that changed: key, before, after.
    pub changed: Vec<(String, i32, i32)>,
}

/// Tunes every weight of `start` on `data`; `progress` hears of each pass.
pub fn tune(
    data: &TexelData<'_>,
    variant: &Variant,
    start: &EvalParams,
    options: &TexelOptions,
    mut progress: impl FnMut(usize, i32, f64),
) -> TexelOutcome {
    let k = fit_scale(&data.train, variant, start);
    let error_of =
        |params: &EvalParams| mean_error(&data.train, &Evaluator::new(variant, params), k);
    let train_error_before = error_of(start);
    let mut best = start.clone();
    let mut best_error = train_error_before;
    let tuned: Vec<usize> = start
        .weights()
        .iter()
        .enumerate()
        .filter(|(_, (key, _))| {
            options.only.is_empty() || options.only.iter().any(|o| key.starts_with(o.as_str()))
        })
        .map(|(i, _)| i)
        .collect();
    let mut step = options.first_step.max(1);
    let mut passes = 0;
    while passes < options.max_passes {
        passes += 1;
        let mut moved = false;
        for &i in &tuned {
            for delta in [step, -step] {
                let mut candidate = best.clone();
                let mut weights = candidate.weights_mut();
                *weights[i].1 = weights[i].1.saturating_add(delta);
                drop(weights);
                if candidate.validate().is_err() {
                    continue;
                }
                let error = error_of(&candidate);
                if error < best_error {
                    best = candidate;
                    best_error = error;
                    moved = true;
                    break;
                }
            }
        }
        progress(passes, step, best_error);
        if !moved {
            if step == 1 {
                break;
            }
            step /= 2;
        }
    }
    let held_out =
        |params: &EvalParams| mean_error(&data.held_out, &Evaluator::new(variant, params), k);
    let changed = start
        .weights()
        .into_iter()
        .zip(best.weights())
        .filter(|((_, a), (_, b))| a != b)
        .map(|((key, a), (_, b))| (key, a, b))
        .collect();
    TexelOutcome {
        held_out_error_before: held_out(start),
        held_out_error_after: held_out(&best),
        params: best,
        scale: k,
        train_error_before,
        train_error_after: best_error,
        passes,
        changed,
    }
}

/// Settings of a piece-square fit ([`tune_squares`]).
#[derive(Clone, Debug)]
pub struct SquareOptions {
    /// Passes of gradient descent (Adam) over the whole training set.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub rate: f64,
    /// Ridge penalty per centipawn² of adjustment, so squares a piece
    /// seldom stands on stay near the derived bonus.
    pub ridge: f64,
}

impl Default for SquareOptions {
    fn default() -> SquareOptions {
        SquareOptions {
            epochs: 400,
            rate: 1.0,
            ridge: 1e-7,
        }
    }
}

/// One training position reduced to what the piece-square fit needs: the
/// evaluation without the new adjustments, the middlegame share and the
/// pieces on the board (table index, +1 White / -1 Black).
struct SquareSample {
    base: f64,
    middlegame: f64,
    pieces: Vec<(u32, f64)>,
    result: f64,
}

/// The evaluation is linear in the piece-square tables: a piece of type
/// `t` and `color` on `sq` adds its table's value at White's view of `sq`,
/// weighted by the middlegame share (middlegame half) or its complement.
fn square_samples(set: &[Labelled<'_>], variant: &Variant, eval: &Evaluator) -> Vec<SquareSample> {
    set.par_iter()
        .map(|l| {
            let base = white_view(eval, &l.pos);
            let mut pieces = Vec::with_capacity(32);
            for kind in variant.piece_types() {
                for color in Color::ALL {
                    let sign = if color == Color::White { 1.0 } else { -1.0 };
                    for sq in l.pos.pieces(color, kind) {
                        let white_sq = SquareTable::white_square(color, sq);
                        pieces.push(((kind.index() * 64 + white_sq.index()) as u32, sign));
                    }
                }
            }
            SquareSample {
                base,
                middlegame: eval.middlegame_share(&l.pos),
                pieces,
                result: l.result,
            }
        })
        .collect()
}

/// Fits per-square adjustments for every piece type (royal and pawns
/// included) to `data`, on top of `start` and with every other weight
/// held: gradient descent on the mean squared error of the predicted
/// results (the same model and scale as [`tune`]). The fitted tables are
/// rounded to centipawns and added to `start`'s; the errors reported are
/// the evaluator's own, before and after.
pub fn tune_squares(
    data: &TexelData<'_>,
    variant: &Variant,
    start: &EvalParams,
    options: &SquareOptions,
    mut progress: impl FnMut(usize, f64),
) -> TexelOutcome {
    let k = fit_scale(&data.train, variant, start);
    let eval = Evaluator::new(variant, start);
    let samples = square_samples(&data.train, variant, &eval);
    let types = variant.piece_types().count();
    // Parameters: per table index, middlegame then endgame.
    let n = types * 64 * 2;
    let mut theta = vec![0.0f64; n];
    let (mut m, mut v) = (vec![0.0f64; n], vec![0.0f64; n]);
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let count = samples.len() as f64;
    for epoch in 1..=options.epochs {
        // Fixed chunks summed in order: the same gradient for any number of threads.
        let parts: Vec<(Vec<f64>, f64)> = samples
            .par_chunks(4096)
            .map(|chunk| {
                let mut grad = vec![0.0f64; n];
                let mut error = 0.0;
                for s in chunk {
                    let phase = s.middlegame;
                    let shift: f64 = s
                        .pieces
                        .iter()
                        .map(|&(i, sign)| {
                            let i = i as usize * 2;
                            sign * (phase * theta[i] + (1.0 - phase) * theta[i + 1])
                        })
                        .sum();
                    let predicted = 1.0 / (1.0 + (-scale * (s.base + shift)).exp());
                    let diff = predicted - s.result;
                    error += diff * diff;
                    let common = 2.0 * diff * predicted * (1.0 - predicted) * scale;
                    for &(i, sign) in &s.pieces {
                        let i = i as usize * 2;
                        grad[i] += common * sign * phase;
                        grad[i + 1] += common * sign * (1.0 - phase);
                    }
                }
                (grad, error)
            })
            .collect();
        let mut grad = vec![0.0f64; n];
        let mut error = 0.0;
        for (g, e) in parts {
            error += e;
            for (total, part) in grad.iter_mut().zip(g) {
                *total += part;
            }
        }
        for i in 0..n {
            let g = grad[i] / count + 2.0 * options.ridge * theta[i];
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(epoch as i32));
            theta[i] -= options.rate * m_hat / (v_hat.sqrt() + eps);
        }
        progress(epoch, error / count);
    }
    let mut tuned = start.clone();
    for kind in variant.piece_types() {
        // Keyed as the evaluator looks tables up.
        let table = tuned
            .piece_squares
            .entry(variant.letter(kind).to_string())
            .or_insert_with(SquareTable::zero);
        let bound = f64::from(MAX_WEIGHT);
        let add =
            |old: i32, fitted: f64| (f64::from(old) + fitted).round().clamp(-bound, bound) as i32;
        for sq in 0..64 {
            let i = (kind.index() * 64 + sq) * 2;
            table.mg[sq] = add(table.mg[sq], theta[i]);
            table.eg[sq] = add(table.eg[sq], theta[i + 1]);
        }
    }
    let error = |set: &[Labelled<'_>], params: &EvalParams| {
        mean_error(set, &Evaluator::new(variant, params), k)
    };
    TexelOutcome {
        scale: k,
        train_error_before: error(&data.train, start),
        train_error_after: error(&data.train, &tuned),
        held_out_error_before: error(&data.held_out, start),
        held_out_error_after: error(&data.held_out, &tuned),
        params: tuned,
        passes: options.epochs,
        changed: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pocketlab_core::builtin;

    /// The positions of `fens`, each labelled with the result `eval`
    /// predicts exactly (k = 1), as both the training and held-out sets.
    fn labelled_by<'v>(v: &'v Variant, eval: &Evaluator, fens: &[&str]) -> TexelData<'v> {
        let set: Vec<Labelled<'v>> = fens
            .iter()
            .map(|fen| {
                let pos = Position::from_fen(v, fen).unwrap();
                let white = white_view(eval, &pos);
                let result = 1.0 / (1.0 + 10f64.powf(-white / 400.0));
                Labelled { pos, result }
            })
            .collect();
        TexelData::fit_and_hold_out(set)
    }

    /// Positions labelled by a known evaluation: the tuner must move a
    /// mis-set weight back toward the truth and lower the error.
    #[test]
    fn a_mis_set_weight_is_moved_toward_the_truth() {
        let v = builtin::load("chess").unwrap();
        let truth = EvalParams::default();
        let eval = Evaluator::new(&v, &truth);
        let fens = [
            "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1",
            "4k3/ppp5/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/3p4/8/8/4K3 w - - 0 1",
            "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/3p4/8/4K3 w - - 0 1",
            "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/1p6/4K3 w - - 0 1",
        ];
        let data = labelled_by(&v, &eval, &fens);
        let mut start = truth.clone();
        start.passed_pawn[6].eg = 0;
        let outcome = tune(&data, &v, &start, &TexelOptions::default(), |_, _, _| {});
        assert!(outcome.train_error_after < outcome.train_error_before);
        let tuned = outcome.params.passed_pawn[6].eg;
        assert!(
            (tuned - truth.passed_pawn[6].eg).abs() < truth.passed_pawn[6].eg.abs(),
            "tuned {tuned}, truth {}",
            truth.passed_pawn[6].eg
        );
    }

    /// Positions labelled by an evaluation with a planted knight table:
    /// the piece-square fit must find the planted squares and lower the
    /// error, leaving the other weights alone.
    #[test]
    fn a_planted_square_table_is_recovered() {
        let v = builtin::load("chess").unwrap();
        let mut truth = EvalParams::default();
        let mut knight = SquareTable::zero();
        // d4 (index 27) good, a1 (index 0) bad, in both phases.
        knight.mg[27] = 80;
        knight.eg[27] = 80;
        knight.mg[0] = -80;
        knight.eg[0] = -80;
        truth.piece_squares.insert("N".into(), knight);
        let eval = Evaluator::new(&v, &truth);
        let fens = [
            "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/3N4/8/8/4K3 b - - 0 1",
            "4k3/8/8/8/8/8/8/N3K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/N3K3 b - - 0 1",
            "n3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3n4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1",
        ];
        let data = labelled_by(&v, &eval, &fens);
        let start = EvalParams::default();
        let options = SquareOptions {
            epochs: 2000,
            ..SquareOptions::default()
        };
        let outcome = tune_squares(&data, &v, &start, &options, |_, _| {});
        assert!(outcome.train_error_after < outcome.train_error_before / 4.0);
        let fitted = &outcome.params.piece_squares["N"];
        // The positions are endgames: the endgame half carries the signal.
        assert!(fitted.eg[27] > 40, "d4: {}", fitted.eg[27]);
        assert!(fitted.eg[0] < -40, "a1: {}", fitted.eg[0]);
        assert_eq!(fitted.eg[63], 0, "a square no knight stood on stays put");
        assert_eq!(outcome.params.weights(), start.weights());
    }
}
