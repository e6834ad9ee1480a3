//! Sequential probability ratio test (SPRT) for stopping self-play early.
//!
//! Playing a fixed, large number of games wastes time when a change is
//! obviously good or bad. The SPRT plays until the evidence for one of two
//! hypotheses is strong enough:
//!
//! * `H0`: the true Elo difference is `elo0`,
//! * `H1`: it is `elo1` (> `elo0`),
//!
//! with error rates `α = P(accept H1 | H0)` and `β = P(accept H0 | H1)`.
//! After every update the log-likelihood ratio `LLR` is compared with Wald's
//! bounds `A = ln(β/(1-α))` and `B = ln((1-β)/α)`: `LLR ≤ A` accepts `H0`,
//! `LLR ≥ B` accepts `H1`, anything in between continues.
//!
//! # Model
//!
//! Elo bounds are **logistic Elo**: `Hᵢ` says the expected per-game score is
//! `sᵢ = 1/(1 + 10^(-eloᵢ/400))`. (Normalized-Elo bounds, which fishtest
//! now prefers, are not implemented.) Results are counted either as game
//! pairs with colours reversed on the same opening (pentanomial,
//! [`Pentanomial`]; the pair is the independent unit, which is what paired
//! openings require) or as independent games (trinomial, [`Trinomial`]).
//! A sample's score is its per-game mean: a pair scoring 3 half points
//! counts as 0.75.
//!
//! Neither hypothesis fixes the whole outcome distribution, only its mean,
//! so this is a *generalized* SPRT (Michel Van den Bergh's notes, as used by
//! fishtest's `LLR_logistic`): under each `Hᵢ` the outcome probabilities are
//! the maximum-likelihood distribution with mean `sᵢ` given the observed
//! frequencies `p̂ₖ` of the scores `aₖ`. That distribution is
//! `pₖ = p̂ₖ / (1 + x·(aₖ - sᵢ))` where `x` solves the secular equation
//! `Σ p̂ₖ (aₖ - sᵢ) / (1 + x·(aₖ - sᵢ)) = 0`, and
//!
//! ```text
//! LLR = N · Σ p̂ₖ · [ln(1 + x₀(aₖ - s₀)) - ln(1 + x₁(aₖ - s₁))]
//! ```
//!
//! ([`Sprt::llr`]). Its quadratic approximation (fastchess and fishtest's
//! `LLR_alt2`), accurate while the observed mean `ŝ` is near `s₀` and `s₁`,
//! is `LLR ≈ N·(s₁ - s₀)(2ŝ - s₀ - s₁) / (2σ̂²)` with `σ̂²` the per-sample
//! variance ([`Sprt::llr_approx`]). As in fishtest, empty outcome categories
//! are given a count of 0.001 so the constrained maximum always exists.

use thiserror::Error;

use crate::{Pentanomial, Trinomial};

/// Count given to empty outcome categories (fishtest's regularisation).
const REGULARISATION: f64 = 1e-3;

/// Result counts an SPRT can be run on.
pub trait SprtCounts {
    /// Counts ordered by ascending score; category `k` of `m` has per-game
    /// score `k/(m-1)`.
    fn ascending_counts(&self) -> Vec<u64>;
}

impl SprtCounts for Pentanomial {
    fn ascending_counts(&self) -> Vec<u64> {
        self.counts.to_vec()
    }
}

impl SprtCounts for Trinomial {
    fn ascending_counts(&self) -> Vec<u64> {
        vec![self.losses, self.draws, self.wins]
    }
}

/// Invalid SPRT settings.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum SprtError {
    /// An Elo bound is not finite.
    #[error("Elo bounds must be finite, got {0} and {1}")]
    NonFiniteElo(f64, f64),
    /// `elo0 >= elo1`.
    #[error("elo0 ({0}) must be below elo1 ({1})")]
    BoundsOrder(f64, f64),
    /// α or β outside (0, 1), or `α + β >= 1` (then `A >= B`).
    #[error("alpha and beta must be in (0, 1) with alpha + beta < 1, got {0} and {1}")]
    InvalidErrorRates(f64, f64),
}

/// What to do after an update.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// Stop: the difference is (about) `elo0` or less.
    AcceptH0,
    /// Stop: the difference is (about) `elo1` or more.
    AcceptH1,
}

/// A configured SPRT.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    lower: f64,
    upper: f64,
}

impl Sprt {
    /// An SPRT of `H0: elo = elo0` against `H1: elo = elo1` (logistic Elo)
    /// with error rates `alpha` and `beta`, e.g. `Sprt::new(0.0, 10.0, 0.05,
    /// 0.05)`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Self, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite()) {
            return Err(SprtError::NonFiniteElo(elo0, elo1));
        }
        if elo0 >= elo1 {
            return Err(SprtError::BoundsOrder(elo0, elo1));
        }
        let valid = |x: f64| x > 0.0 && x < 1.0;
        if !(valid(alpha) && valid(beta) && alpha + beta < 1.0) {
            return Err(SprtError::InvalidErrorRates(alpha, beta));
        }
        Ok(Self {
            elo0,
            elo1,
            alpha,
            beta,
            lower: (beta / (1.0 - alpha)).ln(),
            upper: ((1.0 - beta) / alpha).ln(),
        })
    }

    /// `elo0`.
    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    /// `elo1`.
    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    /// α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// β.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// Lower bound `A = ln(β/(1-α))`: at or below it, accept `H0`.
    pub fn lower_bound(&self) -> f64 {
        self.lower
    }

    /// Upper bound `B = ln((1-β)/α)`: at or above it, accept `H1`.
    pub fn upper_bound(&self) -> f64 {
        self.upper
    }

    fn scores(&self) -> (f64, f64) {
        (logistic(self.elo0), logistic(self.elo1))
    }

    /// Generalized log-likelihood ratio (maximum-likelihood distributions
    /// under each hypothesis, see the module docs). 0 with no results.
    pub fn llr(&self, counts: &impl SprtCounts) -> f64 {
        let Some(pdf) = Pdf::new(&counts.ascending_counts()) else {
            return 0.0;
        };
        let (s0, s1) = self.scores();
        let x0 = pdf.secular_root(s0);
        let x1 = pdf.secular_root(s1);
        let per_sample: f64 = pdf
            .values
            .iter()
            .zip(&pdf.probs)
            .map(|(&a, &p)| p * ((x0 * (a - s0)).ln_1p() - (x1 * (a - s1)).ln_1p()))
            .sum();
        pdf.total * per_sample
    }

    /// The quadratic approximation `N·(s₁-s₀)(2ŝ-s₀-s₁)/(2σ̂²)` of
    /// [`Self::llr`]. 0 with no results.
    pub fn llr_approx(&self, counts: &impl SprtCounts) -> f64 {
        let Some(pdf) = Pdf::new(&counts.ascending_counts()) else {
            return 0.0;
        };
        let (s0, s1) = self.scores();
        let (mean, var) = pdf.mean_variance();
        pdf.total * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The decision for a given LLR.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper {
            SprtDecision::AcceptH1
        } else if llr <= self.lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// The decision for the results so far (using [`Self::llr`]).
    pub fn decision(&self, counts: &impl SprtCounts) -> SprtDecision {
        self.decide(self.llr(counts))
    }
}

/// Expected score of a side `elo` logistic Elo stronger.
fn logistic(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A regularised empirical distribution over equally spaced scores in
/// `[0, 1]`.
struct Pdf {
    values: Vec<f64>,
    probs: Vec<f64>,
    total: f64,
}

impl Pdf {
    /// `None` when there are no results (or fewer than two categories).
    fn new(counts: &[u64]) -> Option<Self> {
        if counts.len() < 2 || counts.iter().all(|&c| c == 0) {
            return None;
        }
        let regular: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { REGULARISATION } else { c as f64 })
            .collect();
        let total: f64 = regular.iter().sum();
        let last = (counts.len() - 1) as f64;
        Some(Self {
            values: (0..counts.len()).map(|k| k as f64 / last).collect(),
            probs: regular.iter().map(|c| c / total).collect(),
            total,
        })
    }

    fn mean_variance(&self) -> (f64, f64) {
        let mean: f64 = self
            .values
            .iter()
            .zip(&self.probs)
            .map(|(a, p)| a * p)
            .sum();
        let var = self
            .values
            .iter()
            .zip(&self.probs)
            .map(|(a, p)| p * (a - mean).powi(2))
            .sum();
        (mean, var)
    }

    /// Solves `Σ p̂ₖ bₖ / (1 + x·bₖ) = 0` with `bₖ = aₖ - s`, for `s` strictly
    /// inside (0, 1), on the interval where every `1 + x·bₖ > 0`. The
    /// left-hand side decreases in `x` from +∞ to -∞ there, so the root is
    /// unique; safeguarded Newton (bisection whenever Newton leaves the
    /// bracket) finds it in a few steps.
    fn secular_root(&self, s: f64) -> f64 {
        let b: Vec<f64> = self.values.iter().map(|a| a - s).collect();
        let (min_b, max_b) = b
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                (lo.min(x), hi.max(x))
            });
        let (mut lo, mut hi) = (-1.0 / max_b, -1.0 / min_b);
        let mut x = 0.0;
        for _ in 0..200 {
            let (mut f, mut df) = (0.0, 0.0);
            for (&bk, &pk) in b.iter().zip(&self.probs) {
                let d = 1.0 + x * bk;
                f += pk * bk / d;
                df -= pk * bk * bk / (d * d);
            }
            if f > 0.0 {
                lo = x;
            } else {
                hi = x;
            }
            let newton = x - f / df;
            let next = if newton > lo && newton < hi {
                newton
            } else {
                0.5 * (lo + hi)
            };
            if (next - x).abs() <= 1e-15 * (1.0 + x.abs()) {
                return next;
            }
            x = next;
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn bounds_follow_wald() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        assert!((sprt.lower_bound() + 2.944_439).abs() < 1e-6);
        assert!((sprt.upper_bound() - 2.944_439).abs() < 1e-6);
        let skewed = Sprt::new(-5.0, 5.0, 0.1, 0.02).unwrap();
        assert!((skewed.lower_bound() - (0.02f64 / 0.9).ln()).abs() < 1e-12);
        assert!((skewed.upper_bound() - (0.98f64 / 0.1).ln()).abs() < 1e-12);
        assert_eq!(sprt.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(sprt.decide(-3.0), SprtDecision::AcceptH0);
        assert_eq!(sprt.decide(0.0), SprtDecision::Continue);
    }

    #[test]
    fn rejects_bad_parameters() {
        assert!(matches!(
            Sprt::new(10.0, 0.0, 0.05, 0.05),
            Err(SprtError::BoundsOrder(..))
        ));
        assert!(matches!(
            Sprt::new(0.0, f64::NAN, 0.05, 0.05),
            Err(SprtError::NonFiniteElo(..))
        ));
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 1.0).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5).is_err());
        assert!(Sprt::new(0.0, 5.0, f64::NAN, 0.05).is_err());
    }

    #[test]
    fn no_results_means_continue() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        assert_eq!(sprt.llr_approx(&Trinomial::default()), 0.0);
        assert_eq!(
            sprt.decision(&Pentanomial::default()),
            SprtDecision::Continue
        );
    }

    #[test]
    fn hand_computed_pentanomial_llr() {
        // 100 pairs [2, 10, 50, 28, 10] over scores 0, ¼, ½, ¾, 1:
        //   ŝ = (2.5 + 25 + 21 + 10)/100 = 0.585,
        //   σ̂² = (0.625 + 12.5 + 15.75 + 10)/100 - 0.585² = 0.046525.
        // elo0 = 0, elo1 = 10: s₀ = 0.5, s₁ = 1/(1 + 10^(-1/40)) = 0.5143872.
        // Approximation: 100·0.0143872·(1.17 - 1.0143872)/(2·0.046525)
        //   = 100·0.0143872·0.1556128/0.09305 = 2.40605.
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let counts = Pentanomial::new([2, 10, 50, 28, 10]);
        assert!((sprt.llr_approx(&counts) - 2.406_05).abs() < 1e-4);
        // The exact GSPRT value, from an independent (bisection) evaluation
        // of the same formula: 2.028503. ŝ is far from s₀, s₁ here, so the
        // quadratic approximation overshoots.
        assert!(
            (sprt.llr(&counts) - 2.028_503).abs() < 1e-5,
            "{}",
            sprt.llr(&counts)
        );
        assert_eq!(sprt.decision(&counts), SprtDecision::Continue);
    }

    #[test]
    fn trinomial_llr_matches_binomial_closed_form() {
        // With no draws the maximum-likelihood distribution with mean s is
        // Bernoulli(s), so LLR = W·ln(s₁/s₀) + L·ln((1-s₁)/(1-s₀)). With
        // W = 60, L = 40, s₀ = 0.5, s₁ = L(50) = 0.5714631:
        //   60·ln(1.1429262) + 40·ln(0.8570738) = 8.01551 - 6.16925 = 1.84626.
        // The 0.001 virtual draw moves this by ~1e-5.
        let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        let counts = Trinomial::new(60, 0, 40);
        assert!(
            (sprt.llr(&counts) - 1.846_26).abs() < 1e-4,
            "{}",
            sprt.llr(&counts)
        );
    }

    #[test]
    fn exact_and_approximate_llr_agree_near_the_bounds() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        // ŝ = 1007.5/2000 = 0.50375 (≈ 2.6 Elo, between the bounds).
        let counts = Pentanomial::new([140, 400, 900, 410, 150]);
        let (exact, approx) = (sprt.llr(&counts), sprt.llr_approx(&counts));
        assert!(
            (exact - approx).abs() < 0.02 * approx.abs().max(1.0),
            "{exact} vs {approx}"
        );
    }

    /// Games with expected score `L(elo)`, `DRAW` draws, and an opening
    /// bias of ±`BIAS` for White that correlates the games of a pair.
    const DRAW: f64 = 0.4;
    const BIAS: f64 = 0.1;

    fn game(expected: f64, rng: &mut impl Rng) -> u8 {
        let u: f64 = rng.random();
        let win = expected - DRAW / 2.0;
        if u < win {
            2
        } else if u < win + DRAW {
            1
        } else {
            0
        }
    }

    /// Runs one SPRT on simulated pairs until a decision or `max_pairs`.
    fn run(sprt: &Sprt, elo: f64, max_pairs: usize, rng: &mut impl Rng) -> SprtDecision {
        let s = logistic(elo);
        let mut counts = Pentanomial::default();
        for _ in 0..max_pairs {
            let bias = if rng.random::<bool>() { BIAS } else { -BIAS };
            let pair = game(s + bias, rng) + game(s - bias, rng);
            counts.add_half_points(pair).unwrap();
            match sprt.decision(&counts) {
                SprtDecision::Continue => {}
                d => return d,
            }
        }
        SprtDecision::Continue
    }

    fn rates(sprt: &Sprt, elo: f64, runs: u32, seed: u64) -> (f64, f64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut h0, mut h1) = (0u32, 0u32);
        for _ in 0..runs {
            match run(sprt, elo, 30_000, &mut rng) {
                SprtDecision::AcceptH0 => h0 += 1,
                SprtDecision::AcceptH1 => h1 += 1,
                SprtDecision::Continue => {}
            }
        }
        (
            f64::from(h0) / f64::from(runs),
            f64::from(h1) / f64::from(runs),
        )
    }

    #[test]
    fn clear_cases_are_decided_correctly() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (_, h1) = rates(&sprt, 20.0, 100, 1);
        assert!(h1 >= 0.97, "true +20 Elo accepted H1 only {h1}");
        let (h0, _) = rates(&sprt, -10.0, 100, 2);
        assert!(h0 >= 0.97, "true -10 Elo accepted H0 only {h0}");
    }

    #[test]
    fn error_rates_are_near_alpha_and_beta() {
        // At the hypotheses themselves the error rates should be about α and
        // β (a little less: the LLR overshoots the bounds).
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (_, false_h1) = rates(&sprt, 0.0, 300, 3);
        assert!(
            (0.01..=0.09).contains(&false_h1),
            "alpha estimate {false_h1}"
        );
        let (false_h0, _) = rates(&sprt, 10.0, 300, 4);
        assert!(
            (0.01..=0.09).contains(&false_h0),
            "beta estimate {false_h0}"
        );
    }
}
