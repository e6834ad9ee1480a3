//! Shared vocabulary for the statistics modules: a validated confidence level,
//! a closed interval, and the summary every score model produces.
//!
//! Keeping these in one place means the trinomial, pentanomial, rating and
//! equivalence code all report uncertainty the same way, and a level such as
//! `1.7` or `NaN` is rejected once, at construction, instead of in every
//! function that needs a normal quantile.

use statrs::distribution::{ContinuousCDF, Normal};
use thiserror::Error;

use super::elo;

/// A confidence level strictly between 0 and 1, e.g. `0.95`.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct ConfidenceLevel(f64);

/// A confidence level outside the open interval (0, 1), or NaN.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[error("confidence level must lie strictly between 0 and 1, got {0}")]
pub struct InvalidLevel(pub f64);

impl ConfidenceLevel {
    /// The conventional 95% level.
    pub const NINETY_FIVE: Self = Self(0.95);

    /// Validates `level` (must be in the open interval (0, 1)).
    pub fn new(level: f64) -> Result<Self, InvalidLevel> {
        if level > 0.0 && level < 1.0 {
            Ok(Self(level))
        } else {
            Err(InvalidLevel(level))
        }
    }

    /// The level as a probability, e.g. `0.95`.
    pub fn get(self) -> f64 {
        self.0
    }

    /// The two-sided standard-normal quantile `z` such that
    /// `P(|Z| <= z) = level` (1.959964 for 95%).
    pub fn z(self) -> f64 {
        standard_normal_quantile(0.5 + self.0 / 2.0)
    }
}

impl Default for ConfidenceLevel {
    fn default() -> Self {
        Self::NINETY_FIVE
    }
}

/// A closed interval `[lower, upper]`; bounds may be infinite (an Elo
/// interval whose score interval touches 0 or 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
}

impl Interval {
    /// Builds `[lower, upper]`, swapping the bounds if given in the wrong order.
    pub fn new(a: f64, b: f64) -> Self {
        if b < a {
            Self { lower: b, upper: a }
        } else {
            Self { lower: a, upper: b }
        }
    }

    /// `centre ± half_width`.
    pub fn symmetric(centre: f64, half_width: f64) -> Self {
        Self::new(centre - half_width, centre + half_width)
    }

    /// Whether `x` lies in the closed interval.
    pub fn contains(&self, x: f64) -> bool {
        self.lower <= x && x <= self.upper
    }

    /// `upper - lower`.
    pub fn width(&self) -> f64 {
        self.upper - self.lower
    }

    /// Applies a monotone map to both ends (re-ordering if it is decreasing).
    pub fn map(self, f: impl Fn(f64) -> f64) -> Self {
        Self::new(f(self.lower), f(self.upper))
    }
}

/// What a score model (trinomial or pentanomial) says about one match-up.
///
/// All scores are per game, from the first player's point of view, in
/// `[0, 1]`; Elo is logistic Elo (400 scale, see [`crate::elo`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreSummary {
    /// Independent samples behind the estimate: games for the trinomial
    /// model, game pairs for the pentanomial one.
    pub samples: u64,
    /// Games played (equal to `samples` for the trinomial model, twice it for
    /// the pentanomial one).
    pub games: u64,
    /// Mean score per game.
    pub score: f64,
    /// Standard error of `score`.
    pub score_std_error: f64,
    /// Normal-approximation interval `score ± z·se`, clipped to `[0, 1]`.
    pub score_interval: Interval,
    /// Logistic Elo of `score` (±∞ for a score of exactly 1 or 0).
    pub elo: f64,
    /// Delta-method standard error of `elo`: `se · dElo/ds` at `score`.
    pub elo_std_error: f64,
    /// `score_interval` mapped through score→Elo (asymmetric, may be
    /// infinite); this is the interval to report.
    pub elo_interval: Interval,
    /// Likelihood of superiority: the (normal-approximation) probability that
    /// the first player is truly stronger.
    pub los: f64,
    /// Normalized Elo (Van den Bergh): `(score - ½) / σ_game · 800 / ln 10`,
    /// `None` when the observed variance is zero.
    pub normalized_elo: Option<f64>,
    /// Variance of one sample's mean per-game score (a game's score for the
    /// trinomial model, a pair's average for the pentanomial one); used to
    /// plan sample sizes.
    pub sample_variance: f64,
    /// The level used for the intervals.
    pub level: ConfidenceLevel,
}

/// Counts that cannot be summarised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum SampleError {
    /// No games (or no pairs) at all: nothing to estimate.
    #[error("no games recorded")]
    Empty,
    /// The counts add up to more than `u64::MAX`.
    #[error("game counts overflow u64")]
    Overflow,
}

/// Summarises a discrete score distribution: `values[k]` is the mean
/// per-game score of a sample in category `k`, seen `counts[k]` times; each
/// sample holds `games_per_sample` games. The score interval is the normal
/// approximation `mean ± z·sqrt(var/n)` clipped to `[0, 1]`, the Elo interval
/// is its image under score→Elo, the LOS is `Φ((mean - ½)/se)`.
pub(crate) fn summarize_discrete(
    values: &[f64],
    counts: &[u64],
    games_per_sample: u64,
    level: ConfidenceLevel,
) -> Result<ScoreSummary, SampleError> {
    let samples = counts
        .iter()
        .try_fold(0u64, |acc, &c| acc.checked_add(c))
        .ok_or(SampleError::Overflow)?;
    if samples == 0 {
        return Err(SampleError::Empty);
    }
    let games = samples
        .checked_mul(games_per_sample)
        .ok_or(SampleError::Overflow)?;
    let n = samples as f64;
    let mean = values
        .iter()
        .zip(counts)
        .map(|(&v, &c)| v * c as f64)
        .sum::<f64>()
        / n;
    // Clamp: rounding can push the mean a hair outside [0, 1].
    let mean = mean.clamp(0.0, 1.0);
    let variance = values
        .iter()
        .zip(counts)
        .map(|(&v, &c)| c as f64 * (v - mean).powi(2))
        .sum::<f64>()
        / n;
    let se = (variance / n).sqrt();
    let half = level.z() * se;
    let score_interval = Interval::new((mean - half).max(0.0), (mean + half).min(1.0));
    // The clamps above keep every argument in [0, 1], so these cannot fail.
    let to_elo = |s: f64| elo::score_to_elo(s).unwrap_or(f64::NAN);
    let elo = to_elo(mean);
    let elo_std_error = se * elo::elo_per_score_at(mean).unwrap_or(f64::NAN);
    let elo_interval = score_interval.map(to_elo);
    let los = los_from_t(mean - 0.5, se);
    let sigma_game = (variance * games_per_sample as f64).sqrt();
    let normalized_elo = (sigma_game > 0.0).then(|| (mean - 0.5) / sigma_game * NELO_PER_T);
    Ok(ScoreSummary {
        samples,
        games,
        score: mean,
        score_std_error: se,
        score_interval,
        elo,
        elo_std_error: if se == 0.0 { 0.0 } else { elo_std_error },
        elo_interval,
        los,
        normalized_elo,
        sample_variance: variance,
        level,
    })
}

/// A mean over observations that come in independent clusters (the two
/// games of a colour-swapped pair share their opening, so a pair, not a
/// game, is the independent unit), with the cluster-robust standard error
/// of the ratio estimator.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClusteredMean {
    /// `Σ sums / Σ counts`.
    pub mean: f64,
    /// Cluster-robust standard error (Cameron & Miller 2015, with the
    /// `G/(G-1)` small-sample factor): treats clusters, not observations,
    /// as independent, so correlated observations within a cluster are not
    /// counted as separate evidence.
    pub std_error: f64,
    /// `mean ± z·std_error`.
    pub interval: Interval,
    /// Clusters with at least one observation.
    pub clusters: u64,
    /// Observations over all clusters.
    pub observations: u64,
}

/// The mean of clustered observations: each cluster gives `(sum of its
/// observations, number of them)`. `None` without observations; the
/// standard error needs two clusters (NaN with one).
pub fn clustered_mean(clusters: &[(f64, u64)], level: ConfidenceLevel) -> Option<ClusteredMean> {
    let observations: u64 = clusters.iter().map(|c| c.1).sum();
    if observations == 0 {
        return None;
    }
    let total = observations as f64;
    let mean = clusters.iter().map(|c| c.0).sum::<f64>() / total;
    let g = clusters.iter().filter(|c| c.1 > 0).count() as f64;
    let residuals: f64 = clusters
        .iter()
        .map(|&(sum, n)| (sum - mean * n as f64).powi(2))
        .sum();
    let std_error = if g > 1.0 {
        (g / (g - 1.0) * residuals).sqrt() / total
    } else {
        f64::NAN
    };
    Some(ClusteredMean {
        mean,
        std_error,
        interval: Interval::symmetric(mean, level.z() * std_error),
        clusters: g as u64,
        observations,
    })
}

/// Normalized Elo per unit of per-game t-value: `800 / ln 10`.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// `Φ(diff / se)`, with the limits 1, 0 or ½ when `se` is zero.
pub(crate) fn los_from_t(diff: f64, se: f64) -> f64 {
    if se > 0.0 {
        standard_normal_cdf(diff / se)
    } else if diff > 0.0 {
        1.0
    } else if diff < 0.0 {
        0.0
    } else {
        0.5
    }
}

/// Standard-normal quantile, defined on the open interval (0, 1).
pub(crate) fn standard_normal_quantile(p: f64) -> f64 {
    Normal::standard().inverse_cdf(p)
}

/// Standard-normal CDF.
pub(crate) fn standard_normal_cdf(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error_rate::ObservedRate;

    #[test]
    fn level_validation_and_z() {
        assert!(ConfidenceLevel::new(0.0).is_err());
        assert!(ConfidenceLevel::new(1.0).is_err());
        assert!(ConfidenceLevel::new(f64::NAN).is_err());
        assert!((ConfidenceLevel::NINETY_FIVE.z() - 1.959_964).abs() < 1e-5);
        let l90 = ConfidenceLevel::new(0.90).unwrap();
        assert!((l90.z() - 1.644_854).abs() < 1e-5);
    }

    #[test]
    fn clustered_mean_known_answer() {
        // Pairs scoring 2, 0.5 and 1.5 points of 2: mean 4/6; residuals
        // (sum - mean·2)², se = sqrt(3/2 · Σ residuals)/6.
        let m = clustered_mean(
            &[(2.0, 2), (0.5, 2), (1.5, 2)],
            ConfidenceLevel::NINETY_FIVE,
        )
        .unwrap();
        assert!((m.mean - 4.0 / 6.0).abs() < 1e-12);
        let residuals = (2.0f64 - 4.0 / 3.0).powi(2)
            + (0.5f64 - 4.0 / 3.0).powi(2)
            + (1.5f64 - 4.0 / 3.0).powi(2);
        assert!((m.std_error - (1.5 * residuals).sqrt() / 6.0).abs() < 1e-12);
        assert_eq!((m.clusters, m.observations), (3, 6));
        assert!(clustered_mean(&[], ConfidenceLevel::NINETY_FIVE).is_none());
        assert!(
            clustered_mean(&[(1.0, 2)], ConfidenceLevel::NINETY_FIVE)
                .unwrap()
                .std_error
                .is_nan()
        );
    }

    /// White's score when both games of a pair share an opening that
    /// favours White or Black: the per-pair interval holds its level, a
    /// per-game interval (games taken as independent) does not.
    #[test]
    fn clustered_interval_covers_correlated_pairs() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let (truth, bias, pairs, runs) = (0.55, 0.3, 300, 2000);
        let level = ConfidenceLevel::NINETY_FIVE;
        let (mut by_pair, mut by_game) = (0, 0);
        for _ in 0..runs {
            let clusters: Vec<(f64, u64)> = (0..pairs)
                .map(|_| {
                    let p = truth + if rng.random::<bool>() { bias } else { -bias };
                    let game = |rng: &mut rand_chacha::ChaCha8Rng| {
                        if rng.random::<f64>() < p { 1.0 } else { 0.0 }
                    };
                    (game(&mut rng) + game(&mut rng), 2)
                })
                .collect();
            let m = clustered_mean(&clusters, level).unwrap();
            by_pair += i32::from(m.interval.contains(truth));
            let games = 2.0 * f64::from(pairs);
            let sd = (m.mean * (1.0 - m.mean) / games).sqrt();
            by_game += i32::from(Interval::symmetric(m.mean, level.z() * sd).contains(truth));
        }
        let rate = |n: i32| f64::from(n) / f64::from(runs);
        eprintln!(
            "White's score, 95% interval: over pairs covers {}, over games {} ({runs} runs)",
            rate(by_pair),
            rate(by_game)
        );
        let misses = |covered: i32| ObservedRate::new((runs - covered) as u64, runs as u64);
        misses(by_pair).assert_at_most(0.05, "the per-pair 95% interval misses");
        assert!(
            misses(by_game).exceeds(0.05, 0.99),
            "per-game coverage {}",
            rate(by_game)
        );
    }

    #[test]
    fn interval_orders_and_maps() {
        let i = Interval::new(3.0, 1.0);
        assert_eq!((i.lower, i.upper), (1.0, 3.0));
        assert!(i.contains(2.0) && !i.contains(3.5));
        let neg = i.map(|x| -x);
        assert_eq!((neg.lower, neg.upper), (-3.0, -1.0));
    }
}
