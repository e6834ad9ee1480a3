//! Texel-style tuning: a regularised logistic regression of game results
//! on material features, with the rest of the evaluation as a fixed offset.
//!
//! Model: P(White scores) = σ(k · (offset + Σ wᵢ xᵢ)), where xᵢ are White-
//! minus-Black counts (pieces on the board, pieces in the pocket), wᵢ the
//! values in centipawns and k a scale fitted first with the starting
//! values. Values and scale are only identified together, so one value (the pawn)
//! is held at its prior as the unit, and the scale and the other values are
//! fitted in turn until they agree. Loss: cross-entropy against the result
//! (1, ½, 0), summed over positions, plus λ Σ (wᵢ − priorᵢ)², minimised by
//! Newton's method.
//! Intervals come from a bootstrap over games, since positions of one game
//! are correlated.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::stats::linalg::Cholesky;

/// One position: features (White minus Black), the fixed part of the
/// evaluation (White's view, centipawns), the result for White and its game.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub features: Vec<f64>,
    pub offset: f64,
    pub result: f64,
    pub game: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FitSettings {
    /// Pull towards the prior, per squared centipawn, against the summed
    /// log-loss of all samples: a fixed amount of evidence, so the prior
    /// fades as data grow. With the usual scale (k ≈ 0.003) `1e-4` weighs
    /// about as much as 100 positions where the piece is imbalanced.
    pub regularization: f64,
    pub max_iterations: usize,
    pub bootstrap: usize,
    pub seed: u64,
    /// The value held at its prior, fixing the unit (the pawn).
    pub anchor: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FitResult {
    pub values: Vec<f64>,
    /// 95% bootstrap percentile intervals; NaN where the feature was seen in
    /// fewer than [`MIN_SUPPORT_GAMES`] games or the prior weighs more than
    /// the data (the value is then mostly the prior's).
    pub intervals: Vec<(f64, f64)>,
    pub scale: f64,
    /// Mean cross-entropy at the prior and at the fit.
    pub loss_before: f64,
    pub loss_after: f64,
    pub samples: usize,
    pub games: usize,
}

/// Games in which a feature must be non-zero before its value counts as
/// measured; below this the fit only repeats the prior, and no interval is given.
pub const MIN_SUPPORT_GAMES: usize = 20;

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn loss(samples: &[&Sample], w: &[f64], scale: f64) -> f64 {
    let n = samples.len().max(1) as f64;
    samples
        .iter()
        .map(|s| {
            let z = scale * (s.offset + dot(&s.features, w));
            let p = sigmoid(z).clamp(1e-12, 1.0 - 1e-12);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / n
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The scale k that best fits the results with the prior values (golden section on log k).
fn fit_scale(samples: &[&Sample], prior: &[f64]) -> f64 {
    let (mut lo, mut hi) = ((1e-4f64).ln(), (0.1f64).ln());
    let f = |lk: f64| loss(samples, prior, lk.exp());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..80 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if f(a) < f(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Per value, what the data say about it: the diagonal of the mean
/// cross-entropy's Hessian at `w` (the prior adds `2λ` to each).
fn data_information(samples: &[&Sample], w: &[f64], scale: f64) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    let mut information = vec![0.0; w.len()];
    for s in samples {
        let p = sigmoid(scale * (s.offset + dot(&s.features, w)));
        let h = p * (1.0 - p) * scale * scale / n;
        for (info, &x) in information.iter_mut().zip(&s.features) {
            *info += h * x * x;
        }
    }
    information
}

/// Newton's method from `start`; features that never vary keep their prior.
fn newton(
    samples: &[&Sample],
    prior: &[f64],
    start: &[f64],
    scale: f64,
    settings: &FitSettings,
) -> Vec<f64> {
    let m = prior.len();
    let n = samples.len().max(1) as f64;
    // The prior is a fixed amount of evidence: λ against the summed
    // log-loss, so against the mean it weighs λ / n and fades as data grow.
    let lambda = settings.regularization / n;
    let mut w = start.to_vec();
    for _ in 0..settings.max_iterations {
        let mut grad = vec![0.0; m];
        let mut hess = vec![0.0; m * m];
        for s in samples {
            let p = sigmoid(scale * (s.offset + dot(&s.features, &w)));
            let g = (p - s.result) * scale / n;
            let h = p * (1.0 - p) * scale * scale / n;
            for (i, &xi) in s.features.iter().enumerate() {
                if xi == 0.0 {
                    continue;
                }
                grad[i] += g * xi;
                for (j, &xj) in s.features.iter().enumerate() {
                    if xj != 0.0 {
                        hess[i * m + j] += h * xi * xj;
                    }
                }
            }
        }
        for i in 0..m {
            grad[i] += 2.0 * lambda * (w[i] - prior[i]);
            hess[i * m + i] += 2.0 * lambda;
        }
        if let Some(a) = settings.anchor {
            for j in 0..m {
                hess[a * m + j] = 0.0;
                hess[j * m + a] = 0.0;
            }
            hess[a * m + a] = 1.0;
            grad[a] = 0.0;
        }
        let Ok(chol) = Cholesky::new(&hess, m) else {
            break;
        };
        let step = chol.solve(&grad);
        let mut largest = 0.0f64;
        for i in 0..m {
            w[i] -= step[i];
            largest = largest.max(step[i].abs());
        }
        if largest < 1e-3 {
            break;
        }
    }
    w
}

/// Fit values to samples, starting from (and regularised towards) `prior`.
pub fn fit(samples: &[Sample], prior: &[f64], settings: &FitSettings) -> FitResult {
    let all: Vec<&Sample> = samples.iter().collect();
    let mut scale = fit_scale(&all, prior);
    let mut values = newton(&all, prior, prior, scale, settings);
    if settings.anchor.is_some() {
        for _ in 0..8 {
            let next_scale = fit_scale(&all, &values);
            values = newton(&all, prior, &values, next_scale, settings);
            let settled = (next_scale / scale - 1.0).abs() < 1e-4;
            scale = next_scale;
            if settled {
                break;
            }
        }
    }
    // Bootstrap over games.
    let mut games: Vec<u64> = samples.iter().map(|s| s.game).collect();
    games.sort_unstable();
    games.dedup();
    let by_game: std::collections::HashMap<u64, Vec<&Sample>> =
        samples.iter().fold(Default::default(), |mut acc, s| {
            acc.entry(s.game).or_insert_with(Vec::new).push(s);
            acc
        });
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut draws: Vec<Vec<f64>> = vec![Vec::new(); prior.len()];
    for _ in 0..settings.bootstrap {
        let mut resample: Vec<&Sample> = Vec::with_capacity(samples.len());
        for _ in 0..games.len() {
            let g = games[rng.random_range(0..games.len())];
            resample.extend(by_game[&g].iter().copied());
        }
        let quick = FitSettings {
            max_iterations: 6,
            ..settings.clone()
        };
        let w = newton(&resample, prior, &values, scale, &quick);
        for (i, v) in w.into_iter().enumerate() {
            draws[i].push(v);
        }
    }
    let support: Vec<usize> = (0..prior.len())
        .map(|i| {
            by_game
                .values()
                .filter(|samples| samples.iter().any(|s| s.features[i] != 0.0))
                .count()
        })
        .collect();
    let data_information = data_information(&all, &values, scale);
    let prior_information = 2.0 * settings.regularization / samples.len().max(1) as f64;
    let intervals = draws
        .into_iter()
        .zip(&values)
        .zip(support.iter().zip(&data_information))
        .map(|((mut d, &v), (&games_with_feature, &information))| {
            // Too few games, or a value the prior holds more than the data
            // do: the bootstrap would only show the prior's narrowness.
            if games_with_feature < MIN_SUPPORT_GAMES || information < prior_information {
                return (f64::NAN, f64::NAN);
            }
            if d.is_empty() {
                return (v, v);
            }
            d.sort_by(f64::total_cmp);
            let at = |q: f64| d[((d.len() - 1) as f64 * q).round() as usize];
            (at(0.025), at(0.975))
        })
        .collect();
    FitResult {
        loss_before: loss(&all, prior, scale),
        loss_after: loss(&all, &values, scale),
        values,
        intervals,
        scale,
        samples: samples.len(),
        games: games.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples drawn from the model with known values.
    fn synthetic(truth: &[f64], scale: f64, games: u64, per_game: usize, seed: u64) -> Vec<Sample> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        for game in 0..games {
            let x: Vec<f64> = truth
                .iter()
                .map(|_| f64::from(rng.random_range(-2i32..=2)))
                .collect();
            let p = sigmoid(scale * dot(&x, truth));
            // Draws most likely between equals; the expected score stays σ.
            let p_draw = 0.3 * 4.0 * p * (1.0 - p);
            let u: f64 = rng.random();
            let result = if u < p - p_draw / 2.0 {
                1.0
            } else if u < p + p_draw / 2.0 {
                0.5
            } else {
                0.0
            };
            for _ in 0..per_game {
                out.push(Sample {
                    features: x.clone(),
                    offset: 0.0,
                    result,
                    game,
                });
            }
        }
        out
    }

    #[test]
    fn recovers_known_values_from_synthetic_games() {
        let truth = [100.0, 320.0, 500.0, 950.0];
        let samples = synthetic(&truth, 0.004, 20_000, 1, 3);
        let prior = [100.0, 300.0, 450.0, 800.0];
        let settings = FitSettings {
            regularization: 1e-9,
            max_iterations: 50,
            bootstrap: 30,
            seed: 1,
            anchor: Some(0),
        };
        let r = fit(&samples, &prior, &settings);
        for (i, (&t, &v)) in truth.iter().zip(&r.values).enumerate() {
            assert!((v - t).abs() < 0.12 * t, "value {i}: fitted {v}, true {t}");
            let (lo, hi) = r.intervals[i];
            assert!(lo <= v && v <= hi, "interval {lo}..{hi} around {v}");
        }
        assert!(r.loss_after <= r.loss_before);
        assert_eq!(r.games, 20_000);
    }

    #[test]
    fn regularisation_keeps_unseen_features_at_their_prior() {
        let mut samples = synthetic(&[200.0], 0.004, 2000, 1, 4);
        for s in &mut samples {
            s.features.push(0.0);
        }
        let r = fit(
            &samples,
            &[100.0, 777.0],
            &FitSettings {
                regularization: 1e-6,
                max_iterations: 30,
                bootstrap: 5,
                seed: 2,
                anchor: None,
            },
        );
        assert!((r.values[1] - 777.0).abs() < 1e-6);
    }

    #[test]
    fn values_the_prior_holds_get_no_interval() {
        // Feature 1 is imbalanced in only 30 positions (of 30 games): the
        // prior, worth about 100 such positions, outweighs them.
        let mut samples = synthetic(&[200.0], 0.004, 4000, 1, 6);
        for (i, s) in samples.iter_mut().enumerate() {
            s.features.push(if i < 30 { 1.0 } else { 0.0 });
        }
        let settings = FitSettings {
            regularization: 1e-4,
            max_iterations: 30,
            bootstrap: 20,
            seed: 3,
            anchor: None,
        };
        let r = fit(&samples, &[150.0, 500.0], &settings);
        assert!(r.intervals[0].0.is_finite(), "{:?}", r.intervals[0]);
        assert!(r.intervals[1].0.is_nan(), "{:?}", r.intervals[1]);
        // With ten times the evidence the same prior no longer decides.
        for s in samples.iter_mut().take(1500) {
            s.features[1] = 1.0;
        }
        let r = fit(&samples, &[150.0, 500.0], &settings);
        assert!(r.intervals[1].0.is_finite(), "{:?}", r.intervals[1]);
    }
}
