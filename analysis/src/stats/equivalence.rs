//! Are two pieces equally strong? Equivalence testing with TOST.
//!
//! "No significant difference" is not evidence of balance: a short match
//! never finds one. The question is turned around with the two one-sided
//! tests procedure (TOST, Schuirmann 1987): given an equivalence margin `m`
//! (by default a quarter of a pawn, converted to Elo with a
//! [`PawnCalibration`]), the pieces are declared *equivalent* when both
//! `H0: Δ ≤ -m` and `H0: Δ ≥ m` are rejected at level α, i.e. when the
//! `1 - 2α` interval of the Elo difference `Δ` lies inside `(-m, m)`.
//!
//! Each comparison ends in one [`Verdict`]:
//!
//! * `Equivalent` — TOST rejects (this wins even if a tiny difference is
//!   also detectable: it is inside the margin, so it does not matter);
//! * `Different` — otherwise, if the two-sided test of `Δ = 0` rejects at α;
//! * `Inconclusive` — neither; with an estimate of how many more pairs would
//!   settle it, from the current per-pair variance `se²·n` and the current
//!   estimate: the smaller of the sample size giving power `1 - β` (default
//!   80%) to show equivalence if `Δ` equals the estimate (needs `|Δ| < m`),
//!   and the one giving that power to show `Δ ≠ 0`. This is a planning
//!   figure, not a promise: the estimate itself is noisy when `n` is small.
//!
//! All tests use the normal approximation on the Elo scale with the
//! delta-method standard error (what [`ScoreSummary::elo_std_error`] holds).
//! The calibration's own uncertainty is not propagated into the margin.
//!
//! # Multiple comparisons
//!
//! Balancing a class of pieces means comparing many pairs, and with twenty
//! comparisons at α = 5% one is "equivalent" by luck.
//! [`EquivalenceTest::evaluate_family`] applies the Holm–Bonferroni step-down procedure
//! ([`holm_bonferroni`]), separately to the family of equivalence claims and
//! to the family of difference claims, so each kind of claim has its
//! family-wise error rate controlled at α under any dependence between the
//! comparisons. Holm is uniformly more powerful than plain Bonferroni and
//! needs no independence assumption. Sample-size estimates for a family use
//! the Bonferroni level α/k (conservative).

use thiserror::Error;

use super::elo::PawnCalibration;
use super::estimate::{Interval, ScoreSummary, standard_normal_cdf, standard_normal_quantile};

/// The equivalence margin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Margin {
    /// A margin in logistic Elo.
    Elo(f64),
    /// A margin in pawns, converted with the calibration.
    Pawns {
        /// Size of the margin in pawns.
        pawns: f64,
        /// Elo value of a pawn.
        calibration: PawnCalibration,
    },
}

impl Margin {
    /// A quarter of a pawn under `calibration`.
    pub fn quarter_pawn(calibration: PawnCalibration) -> Self {
        Margin::Pawns {
            pawns: 0.25,
            calibration,
        }
    }

    /// The margin in Elo; must come out finite and positive.
    pub fn to_elo(&self) -> Result<f64, EquivalenceError> {
        let elo = match *self {
            Margin::Elo(e) => e,
            Margin::Pawns { pawns, calibration } => calibration.pawns_to_elo(pawns),
        };
        if elo.is_finite() && elo > 0.0 {
            Ok(elo)
        } else {
            Err(EquivalenceError::InvalidMargin(elo))
        }
    }
}

impl Default for Margin {
    /// A quarter of a pawn with Muller's calibration (≈ 26.9 Elo).
    fn default() -> Self {
        Self::quarter_pawn(PawnCalibration::muller_default())
    }
}

/// Invalid input to an equivalence test.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum EquivalenceError {
    /// The margin is not finite and positive.
    #[error("equivalence margin must be finite and positive, got {0} Elo")]
    InvalidMargin(f64),
    /// α outside (0, 0.5).
    #[error("alpha must lie in (0, 0.5), got {0}")]
    InvalidAlpha(f64),
    /// Power outside (0, 1).
    #[error("power must lie in (0, 1), got {0}")]
    InvalidPower(f64),
    /// A non-finite difference (e.g. from a perfect score).
    #[error("difference estimate must be finite, got {0}")]
    InvalidEstimate(f64),
    /// A negative or non-finite standard error.
    #[error("standard error must be finite and non-negative, got {0}")]
    InvalidStdError(f64),
    /// No pairs behind an estimate.
    #[error("an estimate needs at least one pair")]
    NoPairs,
    /// A p-value outside [0, 1] or NaN.
    #[error("p-value must lie in [0, 1], got {0}")]
    InvalidPValue(f64),
}

/// An estimated Elo difference between two pieces (first minus second).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DifferenceEstimate {
    /// Estimated difference in logistic Elo, first minus second.
    pub elo: f64,
    /// Its standard error.
    pub std_error: f64,
    /// Independent samples behind it (game pairs; games for unpaired data).
    /// Needed to turn the standard error into a per-pair variance.
    pub pairs: u64,
}

impl DifferenceEstimate {
    /// The difference measured by a head-to-head score summary
    /// (pentanomial or trinomial).
    pub fn from_summary(summary: &ScoreSummary) -> Self {
        Self {
            elo: summary.elo,
            std_error: summary.elo_std_error,
            pairs: summary.samples,
        }
    }

    fn validate(&self) -> Result<(), EquivalenceError> {
        if !self.elo.is_finite() {
            return Err(EquivalenceError::InvalidEstimate(self.elo));
        }
        if !(self.std_error.is_finite() && self.std_error >= 0.0) {
            return Err(EquivalenceError::InvalidStdError(self.std_error));
        }
        if self.pairs == 0 {
            return Err(EquivalenceError::NoPairs);
        }
        Ok(())
    }
}

/// Which of the two compared pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first piece (the estimate is first minus second).
    First,
    /// The second piece.
    Second,
}

/// An Elo amount with its (marginal, two-sided `1 - α`) interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// Point estimate in Elo.
    pub elo: f64,
    /// Interval in Elo.
    pub interval: Interval,
}

/// The conclusion about one comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// The difference is shown to lie within the margin.
    Equivalent,
    /// One piece is shown to be stronger.
    Different {
        /// The stronger piece.
        stronger: Side,
        /// By how much (positive, from the stronger side's view).
        by: EloEstimate,
    },
    /// Not enough data for either claim.
    Inconclusive {
        /// Estimated additional pairs needed (at least 1).
        more_pairs_needed: u64,
    },
}

/// Everything computed for one comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EquivalenceOutcome {
    /// The verdict (after multiple-comparison correction, for a family).
    pub verdict: Verdict,
    /// Unadjusted TOST p-value: the larger of the two one-sided p-values.
    pub tost_p_value: f64,
    /// Unadjusted two-sided p-value for `Δ = 0`.
    pub difference_p_value: f64,
    /// The `1 - 2α` interval TOST compares with the margin (unadjusted).
    pub tost_interval: Interval,
    /// The margin in Elo.
    pub margin_elo: f64,
}

/// A configured equivalence test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EquivalenceTest {
    margin_elo: f64,
    alpha: f64,
    power: f64,
}

impl EquivalenceTest {
    /// A test with the given margin and level α (for each one-sided test of
    /// TOST, and the two-sided difference test); planning power 80%.
    pub fn new(margin: Margin, alpha: f64) -> Result<Self, EquivalenceError> {
        let margin_elo = margin.to_elo()?;
        if !(alpha > 0.0 && alpha < 0.5) {
            return Err(EquivalenceError::InvalidAlpha(alpha));
        }
        Ok(Self {
            margin_elo,
            alpha,
            power: 0.8,
        })
    }

    /// Sets the power assumed when estimating the pairs still needed.
    pub fn with_power(self, power: f64) -> Result<Self, EquivalenceError> {
        if power > 0.0 && power < 1.0 {
            Ok(Self { power, ..self })
        } else {
            Err(EquivalenceError::InvalidPower(power))
        }
    }

    /// The margin in Elo.
    pub fn margin_elo(&self) -> f64 {
        self.margin_elo
    }

    /// The level α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// Tests a single comparison (no multiplicity correction).
    pub fn evaluate(
        &self,
        estimate: &DifferenceEstimate,
    ) -> Result<EquivalenceOutcome, EquivalenceError> {
        let mut out = self.evaluate_family(std::slice::from_ref(estimate))?;
        Ok(out.remove(0))
    }

    /// Tests a family of comparisons (e.g. all pairs within a class) with
    /// Holm–Bonferroni correction; see the module documentation.
    pub fn evaluate_family(
        &self,
        estimates: &[DifferenceEstimate],
    ) -> Result<Vec<EquivalenceOutcome>, EquivalenceError> {
        for e in estimates {
            e.validate()?;
        }
        let m = self.margin_elo;
        let tost_p: Vec<f64> = estimates
            .iter()
            .map(|e| {
                let below = upper_tail(e.elo + m, e.std_error);
                let above = upper_tail(m - e.elo, e.std_error);
                below.max(above)
            })
            .collect();
        let diff_p: Vec<f64> = estimates
            .iter()
            .map(|e| (2.0 * upper_tail(e.elo.abs(), e.std_error)).min(1.0))
            .collect();
        let equivalent = holm_bonferroni(&tost_p, self.alpha)?;
        let different = holm_bonferroni(&diff_p, self.alpha)?;
        let family_alpha = self.alpha / estimates.len().max(1) as f64;
        let z_tost = standard_normal_quantile(1.0 - self.alpha);
        let z_two = standard_normal_quantile(1.0 - self.alpha / 2.0);
        Ok(estimates
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let verdict = if equivalent[i] {
                    Verdict::Equivalent
                } else if different[i] {
                    let (stronger, elo) = if e.elo > 0.0 {
                        (Side::First, e.elo)
                    } else {
                        (Side::Second, -e.elo)
                    };
                    Verdict::Different {
                        stronger,
                        by: EloEstimate {
                            elo,
                            interval: Interval::symmetric(elo, z_two * e.std_error),
                        },
                    }
                } else {
                    Verdict::Inconclusive {
                        more_pairs_needed: self.more_pairs_needed(e, family_alpha),
                    }
                };
                EquivalenceOutcome {
                    verdict,
                    tost_p_value: tost_p[i],
                    difference_p_value: diff_p[i],
                    tost_interval: Interval::symmetric(e.elo, z_tost * e.std_error),
                    margin_elo: m,
                }
            })
            .collect())
    }

    /// Additional pairs for power `self.power` at level `alpha` given the
    /// current estimate and per-pair variance (see the module docs).
    fn more_pairs_needed(&self, e: &DifferenceEstimate, alpha: f64) -> u64 {
        let var_pair = e.std_error * e.std_error * e.pairs as f64;
        let z_power = standard_normal_quantile(self.power);
        let d = e.elo.abs();
        let n_equivalent = if d < self.margin_elo {
            let z = standard_normal_quantile(1.0 - alpha) + z_power;
            var_pair * z * z / (self.margin_elo - d).powi(2)
        } else {
            f64::INFINITY
        };
        let n_different = if d > 0.0 {
            let z = standard_normal_quantile(1.0 - alpha / 2.0) + z_power;
            var_pair * z * z / (d * d)
        } else {
            f64::INFINITY
        };
        // Float-to-int casts saturate, so an infinite need becomes u64::MAX.
        let total = n_equivalent.min(n_different).ceil() as u64;
        total.saturating_sub(e.pairs).max(1)
    }
}

/// `P(Z > x / se)`, with the limits 0, 1 or ½ when `se` is zero.
fn upper_tail(x: f64, se: f64) -> f64 {
    if se > 0.0 {
        standard_normal_cdf(-x / se)
    } else if x > 0.0 {
        0.0
    } else if x < 0.0 {
        1.0
    } else {
        0.5
    }
}

/// Holm–Bonferroni step-down procedure: sorts the `k` p-values ascending and
/// rejects the `j`-th smallest (0-based) while `p ≤ α/(k - j)`, stopping at
/// the first failure. Controls the family-wise error rate at `alpha` under
/// arbitrary dependence. Returns, in input order, whether each hypothesis is
/// rejected.
pub fn holm_bonferroni(p_values: &[f64], alpha: f64) -> Result<Vec<bool>, EquivalenceError> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(EquivalenceError::InvalidAlpha(alpha));
    }
    if let Some(&bad) = p_values.iter().find(|p| !(0.0..=1.0).contains(*p)) {
        return Err(EquivalenceError::InvalidPValue(bad));
    }
    let k = p_values.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    let mut rejected = vec![false; k];
    for (j, &i) in order.iter().enumerate() {
        if p_values[i] <= alpha / (k - j) as f64 {
            rejected[i] = true;
        } else {
            break;
        }
    }
    Ok(rejected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::estimate::ConfidenceLevel;
    use crate::stats::pentanomial::Pentanomial;
    use crate::stats::sim::{GameModel, simulate_pairs};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn elo_test(margin: f64) -> EquivalenceTest {
        EquivalenceTest::new(Margin::Elo(margin), 0.05).unwrap()
    }

    /// Simulates `pairs` pairs of a piece `elo` stronger than its rival.
    fn simulated(elo: f64, pairs: usize, seed: u64) -> DifferenceEstimate {
        let model = GameModel::new(elo, 0.35, 0.15);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let p = Pentanomial::from_pairs(simulate_pairs(&model, pairs, &mut rng));
        DifferenceEstimate::from_summary(&p.summary(ConfidenceLevel::NINETY_FIVE).unwrap())
    }

    #[test]
    fn known_answer_tost() {
        // Δ = 5 ± 8, m = 25: one-sided p-values P(Z > 30/8) = 8.8e-5 and
        // P(Z > 20/8 = 2.5) = 0.00621 ⇒ TOST p = 0.00621 < 0.05 ⇒ equivalent.
        // Two-sided p for Δ = 0: 2·P(Z > 0.625) = 0.532.
        let e = DifferenceEstimate {
            elo: 5.0,
            std_error: 8.0,
            pairs: 500,
        };
        let out = elo_test(25.0).evaluate(&e).unwrap();
        assert_eq!(out.verdict, Verdict::Equivalent);
        assert!((out.tost_p_value - 0.006_209_7).abs() < 1e-6);
        assert!((out.difference_p_value - 0.531_971).abs() < 1e-5);
        // 90% interval 5 ± 1.6449·8 = [-8.159, 18.159] ⊂ (-25, 25).
        assert!((out.tost_interval.upper - 18.159).abs() < 1e-3);
    }

    #[test]
    fn known_answer_different_and_inconclusive() {
        // Δ = -40 ± 10: z = 4 ⇒ the second piece is stronger by 40 ± 19.6.
        let e = DifferenceEstimate {
            elo: -40.0,
            std_error: 10.0,
            pairs: 400,
        };
        match elo_test(25.0).evaluate(&e).unwrap().verdict {
            Verdict::Different { stronger, by } => {
                assert_eq!(stronger, Side::Second);
                assert_eq!(by.elo, 40.0);
                assert!((by.interval.lower - (40.0 - 19.599_64)).abs() < 1e-4);
            }
            v => panic!("expected Different, got {v:?}"),
        }
        // Δ = 0 ± 20 over 100 pairs: per-pair variance 40 000. Equivalence
        // with 80% power needs 40000·(1.64485 + 0.84162)²/25² = 395.8 ⇒ 396
        // pairs, 296 more (showing Δ ≠ 0 is impossible at Δ = 0).
        let e = DifferenceEstimate {
            elo: 0.0,
            std_error: 20.0,
            pairs: 100,
        };
        assert_eq!(
            elo_test(25.0).evaluate(&e).unwrap().verdict,
            Verdict::Inconclusive {
                more_pairs_needed: 296
            }
        );
        // Δ = 10 ± 20 over 100 pairs: equivalence needs
        // 40000·6.1826/15² = 1099.1, difference needs
        // 40000·(1.95996 + 0.84162)²/10² = 3137.8 ⇒ 1100 - 100 = 1000 more.
        let e = DifferenceEstimate {
            elo: 10.0,
            std_error: 20.0,
            pairs: 100,
        };
        assert_eq!(
            elo_test(25.0).evaluate(&e).unwrap().verdict,
            Verdict::Inconclusive {
                more_pairs_needed: 1000
            }
        );
    }

    #[test]
    fn holm_known_answers() {
        // α/3 = 0.0167, α/2 = 0.025, α = 0.05: all three rejected (plain
        // Bonferroni would reject only the first).
        assert_eq!(
            holm_bonferroni(&[0.01, 0.02, 0.04], 0.05).unwrap(),
            [true, true, true]
        );
        // Sorted 0.005 ≤ 0.0125 ✓, 0.01 ≤ 0.0167 ✓, 0.03 > 0.025 ✗ ⇒ stop.
        assert_eq!(
            holm_bonferroni(&[0.01, 0.04, 0.03, 0.005], 0.05).unwrap(),
            [true, false, false, true]
        );
        assert_eq!(holm_bonferroni(&[], 0.05).unwrap(), Vec::<bool>::new());
        assert!(holm_bonferroni(&[f64::NAN], 0.05).is_err());
        assert!(holm_bonferroni(&[0.5], 1.5).is_err());
    }

    #[test]
    fn family_correction_withholds_marginal_claims() {
        // Δ = 0 ± 13, m = 25: TOST p = P(Z > 1.923) = 0.0272 < 0.05 alone,
        // but three such comparisons need 0.0272 ≤ 0.05/3: none passes.
        let e = DifferenceEstimate {
            elo: 0.0,
            std_error: 13.0,
            pairs: 300,
        };
        let t = elo_test(25.0);
        assert_eq!(t.evaluate(&e).unwrap().verdict, Verdict::Equivalent);
        let family = t.evaluate_family(&[e, e, e]).unwrap();
        for out in family {
            assert!(
                matches!(out.verdict, Verdict::Inconclusive { .. }),
                "{out:?}"
            );
            assert!((out.tost_p_value - 0.027_24).abs() < 1e-4);
        }
    }

    #[test]
    fn validates_input() {
        assert!(EquivalenceTest::new(Margin::Elo(0.0), 0.05).is_err());
        assert!(EquivalenceTest::new(Margin::Elo(f64::NAN), 0.05).is_err());
        assert!(EquivalenceTest::new(Margin::Elo(20.0), 0.5).is_err());
        assert!(elo_test(20.0).with_power(1.0).is_err());
        let t = elo_test(20.0);
        let bad = |elo, std_error, pairs| {
            t.evaluate(&DifferenceEstimate {
                elo,
                std_error,
                pairs,
            })
        };
        assert!(bad(f64::INFINITY, 1.0, 10).is_err());
        assert!(bad(1.0, -1.0, 10).is_err());
        assert!(bad(1.0, 1.0, 0).is_err());
        // Zero variance is decided outright.
        assert_eq!(bad(3.0, 0.0, 10).unwrap().verdict, Verdict::Equivalent);
        let default = Margin::default().to_elo().unwrap();
        assert!((default - 26.885).abs() < 1e-2, "{default}");
    }

    #[test]
    fn stronger_piece_is_found_different_never_equivalent() {
        let t = elo_test(25.0);
        for seed in 0..60 {
            let e = simulated(30.0, 4000, seed);
            match t.evaluate(&e).unwrap().verdict {
                Verdict::Different {
                    stronger: Side::First,
                    by,
                } => {
                    assert!(by.interval.contains(30.0) || (by.elo - 30.0).abs() < 15.0);
                }
                v => panic!("seed {seed}: expected Different, got {v:?} from {e:?}"),
            }
        }
    }

    #[test]
    fn identical_pieces_are_found_equivalent() {
        let t = elo_test(25.0);
        let mut equivalent = 0;
        for seed in 100..160 {
            let e = simulated(0.0, 3000, seed);
            match t.evaluate(&e).unwrap().verdict {
                Verdict::Equivalent => equivalent += 1,
                Verdict::Inconclusive { .. } => {}
                v => panic!("seed {seed}: {v:?}"),
            }
        }
        assert!(equivalent >= 57, "only {equivalent}/60 equivalent");
    }

    #[test]
    fn tiny_samples_are_inconclusive_with_sensible_estimate() {
        // 30 pairs of identical pieces: equivalence within 25 Elo is out of
        // reach (se ≈ 34 Elo), a false "Different" happens at about the test
        // level, and the planning estimate should be in the hundreds (the
        // per-pair sd is ≈ 184 Elo: 184²·6.18/25² ≈ 335 pairs at Δ = 0).
        let t = elo_test(25.0);
        let mut needed = Vec::new();
        let mut different = 0;
        for seed in 0..40 {
            let e = simulated(0.0, 30, seed);
            match t.evaluate(&e).unwrap().verdict {
                Verdict::Equivalent => panic!("seed {seed}: equivalence from 30 pairs"),
                Verdict::Inconclusive { more_pairs_needed } => needed.push(30 + more_pairs_needed),
                Verdict::Different { .. } => different += 1,
            }
        }
        assert!(different <= 8, "{different}/40 false differences");
        needed.sort_unstable();
        let median = needed[needed.len() / 2];
        assert!(
            (150..=2000).contains(&median),
            "median total pairs {median}"
        );
        assert!(needed.iter().all(|&n| n > 30 && n < 1_000_000));
    }

    #[test]
    fn false_difference_rate_is_near_alpha() {
        // Identical pieces, 300 pairs, 400 seeds: the two-sided difference
        // test should fire about 5% of the time.
        let t = elo_test(25.0);
        let runs: u32 = 400;
        let mut different = 0u32;
        for seed in 0..runs {
            let e = simulated(0.0, 300, u64::from(10_000 + seed));
            if matches!(t.evaluate(&e).unwrap().verdict, Verdict::Different { .. }) {
                different += 1;
            }
        }
        let rate = f64::from(different) / f64::from(runs);
        assert!(
            (0.02..=0.09).contains(&rate),
            "false difference rate {rate}"
        );
    }

    #[test]
    fn false_equivalence_rate_at_the_margin_is_about_alpha() {
        // True difference exactly at the margin (25 Elo): TOST's type-I
        // error is at most α = 5% and reaches it on the boundary.
        let t = elo_test(25.0);
        let runs: u32 = 300;
        let mut equivalent = 0u32;
        for seed in 0..runs {
            let e = simulated(25.0, 1000, u64::from(50_000 + seed));
            if t.evaluate(&e).unwrap().verdict == Verdict::Equivalent {
                equivalent += 1;
            }
        }
        let rate = f64::from(equivalent) / f64::from(runs);
        assert!(
            (0.015..=0.09).contains(&rate),
            "false equivalence rate {rate}"
        );
    }
}
