//! Are two pieces equally strong? Equivalence testing with TOST, in pawns
//! per piece, with the pawn unit's uncertainty carried.
//!
//! "No significant difference" is not evidence of balance: a short match
//! never finds one. The question is turned around with the two one-sided
//! tests procedure (TOST, Schuirmann 1987): given an equivalence margin `m`
//! in pawns per piece (a quarter of a pawn by default), the pieces are
//! declared *equivalent* when both `H0: θ ≥ m` and `H0: θ ≤ -m` are rejected
//! at level α, where `θ = D / (n·k)` is the difference in pawns per piece:
//! `D` the Elo difference of the two armies, `n` the pieces the matchup
//! exchanges (two knights become two bishops: `n = 2`) and `k` the Elo a
//! pawn is worth ([`PawnUnit`]).
//!
//! Each one-sided test is Fieller's linear-combination test
//! ([`PawnUnit::z_against`]): `z = (D/n - θ₀·k̂) / sqrt(s²/n² + θ₀²·s_k²)`.
//! With a measured `k` this carries the calibration's error into the
//! verdict, so a "equivalent" is wrong at most α of the time whatever the
//! calibration's sample size (taking `k̂` as exact makes it wrong 13% of the
//! time with a 100-pair calibration); with an assumed `k` it is the usual
//! TOST on the Elo scale.
//!
//! Each comparison ends in one [`Verdict`]:
//!
//! * `Equivalent`: TOST rejects;
//! * `Different`: the two-sided test of equal strength (a score of ½, on
//!   the score scale, Student's t with the pairs' degrees of freedom)
//!   rejects (this needs no pawn unit);
//! * `EquivalentAndDifferent`: both reject: the difference is inside the
//!   margin and yet one piece is measurably stronger, and both are said;
//! * `Inconclusive`: neither; with a [`Plan`]: how many more pairs would
//!   give power `1 - β` (default 80%) to settle it if the truth were the
//!   current estimate, from the normal power functions of the two tests
//!   (at a true difference of 0 the TOST's power is `2Φ(m/se - z₁₋α) - 1`,
//!   so it needs `m/se ≥ z₁₋α + z₁₋β/₂`, not `z₁₋β`), or that more pairs
//!   cannot do it while the pawn unit is as uncertain as it is. A planning
//!   figure, not a promise: the estimate itself is noisy when `n` is small.
//!
//! TOST's boundary is Student's t with the Welch-Satterthwaite degrees of
//! freedom of the comparison's and the calibration's variances
//! ([`EquivalenceTest::with_calibration_pairs`]). Each outcome carries the
//! numbers to print beside it ([`VerdictNumbers`]): the two tests inverted
//! at the Holm levels in force, so an "equivalent" interval always lies
//! inside the margin and a "different" one always excludes 0. The tests
//! assume a sample size fixed in advance; after a sequential stop (SPRT)
//! they are conditional on stopping, and the report says so.
//!
//! # Multiple comparisons
//!
//! Balancing a class of pieces means comparing many pairs, and with twenty
//! comparisons at α = 5% one is "equivalent" by luck.
//! [`EquivalenceTest::evaluate_family`] applies the Holm–Bonferroni step-down
//! procedure ([`holm_bonferroni`]), separately to the family of equivalence
//! claims and to the family of difference claims, so each kind of claim has
//! its family-wise error rate controlled at α under any dependence between
//! the comparisons (the shared pawn unit makes them dependent). Sample-size
//! plans for a family use the Bonferroni level α/k (conservative).

use thiserror::Error;

use statrs::distribution::{ContinuousCDF, StudentsT};

use super::elo::{elo_per_score_at, elo_to_score};
use super::estimate::{ScoreSummary, standard_normal_cdf, standard_normal_quantile};
use super::pawns::PawnUnit;
use super::verdict_numbers::{VerdictInputs, VerdictNumbers};

/// Invalid input to an equivalence test.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum EquivalenceError {
    /// The margin is not finite and positive.
    #[error("equivalence margin must be finite and positive, got {0} pawns")]
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
    /// No piece exchanged: a per-piece figure is undefined.
    #[error("a difference must exchange at least one piece")]
    NoPieces,
    /// A p-value outside [0, 1] or NaN.
    #[error("p-value must lie in [0, 1], got {0}")]
    InvalidPValue(f64),
}

/// An estimated Elo difference between two armies (first minus second).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DifferenceEstimate {
    /// Difference of the armies in logistic Elo, first minus second.
    pub elo: f64,
    /// Its standard error.
    pub std_error: f64,
    /// The first army's mean score per game, 0..1 (½ is equal strength):
    /// the scale of the difference test.
    pub score: f64,
    /// Standard error of `score`, on the score scale.
    pub score_std_error: f64,
    /// Independent samples behind it (game pairs; games for unpaired data).
    /// Needed to turn the standard error into a per-pair variance.
    pub pairs: u64,
    /// Pieces the two armies exchange: per-piece figures are the army's
    /// divided by this (pair effects, such as a second bishop, included).
    pub pieces: u32,
}

impl DifferenceEstimate {
    /// The difference measured by a head-to-head score summary (pentanomial
    /// or trinomial) of armies that exchange `pieces` pieces.
    pub fn from_summary(summary: &ScoreSummary, pieces: u32) -> Self {
        Self {
            elo: summary.elo,
            std_error: summary.elo_std_error,
            score: summary.score,
            score_std_error: summary.score_std_error,
            pairs: summary.samples,
            pieces,
        }
    }

    /// A difference given in Elo alone: the score and its error are the
    /// ones the delta method pairs with it.
    pub fn from_elo(elo: f64, std_error: f64, pairs: u64, pieces: u32) -> Self {
        let score = elo_to_score(elo);
        let slope = elo_per_score_at(score).unwrap_or(f64::INFINITY);
        Self {
            elo,
            std_error,
            score,
            score_std_error: std_error / slope,
            pairs,
            pieces,
        }
    }

    /// The z-statistic of equal strength on the score scale.
    pub fn difference_z(&self) -> f64 {
        let d = self.score - 0.5;
        if self.score_std_error > 0.0 {
            d / self.score_std_error
        } else if d == 0.0 {
            0.0
        } else {
            d.signum() * f64::INFINITY
        }
    }

    /// The difference per piece exchanged, and its standard error, in Elo.
    pub fn per_piece(&self) -> (f64, f64) {
        let n = f64::from(self.pieces.max(1));
        (self.elo / n, self.std_error / n)
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
        if self.pieces == 0 {
            return Err(EquivalenceError::NoPieces);
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

/// What would settle an inconclusive comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// About this many more pairs (at least 1), the pawn unit as it is.
    MorePairs(u64),
    /// More pairs of this matchup cannot show equivalence while the pawn
    /// unit is this uncertain, nor a difference this small: the pawn-odds
    /// calibration needs more pairs.
    MoreCalibration,
    /// A sequential design's look: the data so far would settle a
    /// fixed-sample test at this level (with this claim), but the look's
    /// boundary, stricter than the fixed test's while looks remain, is not
    /// crossed. The pair is decided at a later look if the data hold.
    BoundaryAhead(Leaning),
}

/// The claim a fixed-sample test would already make (see
/// [`Plan::BoundaryAhead`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaning {
    /// The fixed-sample test would show equivalence within the margin
    /// (whether or not it also shows a difference).
    Equivalent,
    /// The fixed-sample test would show one piece stronger and not
    /// equivalence; also the leaning of an estimate that cannot be tested
    /// (a perfect score, of infinite Elo).
    Different,
}

/// The conclusion about one comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// The difference per piece is shown to lie within the margin.
    Equivalent,
    /// One piece is shown to be stronger.
    Different {
        /// The stronger piece.
        stronger: Side,
    },
    /// Both: the difference lies within the margin, and one piece is
    /// measurably stronger.
    EquivalentAndDifferent {
        /// The stronger piece.
        stronger: Side,
    },
    /// Not enough data for either claim.
    Inconclusive {
        /// What would settle it.
        plan: Plan,
    },
}

impl Verdict {
    /// Whether the verdict includes equivalence within the margin.
    pub fn is_equivalent(self) -> bool {
        matches!(self, Self::Equivalent | Self::EquivalentAndDifferent { .. })
    }

    /// The piece shown stronger, if any.
    pub fn stronger(self) -> Option<Side> {
        match self {
            Self::Different { stronger } | Self::EquivalentAndDifferent { stronger } => {
                Some(stronger)
            }
            Self::Equivalent | Self::Inconclusive { .. } => None,
        }
    }
}

/// Everything computed for one comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EquivalenceOutcome {
    /// The verdict (after multiple-comparison correction, for a family).
    pub verdict: Verdict,
    /// Unadjusted TOST p-value: the larger of the two one-sided p-values
    /// (1 when no pawn unit is known).
    pub tost_p_value: f64,
    /// Unadjusted two-sided p-value for `D = 0`.
    pub difference_p_value: f64,
    /// The figures beside the verdict: the tests' own intervals at the
    /// Holm levels in force ([`VerdictNumbers`]).
    pub numbers: VerdictNumbers,
}

/// A configured equivalence test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EquivalenceTest {
    margin_pawns: f64,
    unit: PawnUnit,
    /// Pairs behind a measured unit (its variance's degrees of freedom).
    calibration_pairs: Option<u64>,
    alpha: f64,
    power: f64,
}

impl EquivalenceTest {
    /// A test of "within ±`margin_pawns` pawns per piece" under `unit`, at
    /// level α (for each one-sided test of TOST, and the two-sided
    /// difference test); planning power 80%.
    pub fn new(margin_pawns: f64, unit: PawnUnit, alpha: f64) -> Result<Self, EquivalenceError> {
        if !(margin_pawns.is_finite() && margin_pawns > 0.0) {
            return Err(EquivalenceError::InvalidMargin(margin_pawns));
        }
        if !(alpha > 0.0 && alpha < 0.5) {
            return Err(EquivalenceError::InvalidAlpha(alpha));
        }
        Ok(Self {
            margin_pawns,
            unit,
            calibration_pairs: None,
            alpha,
            power: 0.8,
        })
    }

    /// The pairs a measured unit was estimated from: TOST then takes its
    /// boundary on the Student-t scale with the Welch-Satterthwaite degrees
    /// of freedom of the two variances it combines (without it, the
    /// calibration's variance counts as known). With 100 calibration pairs
    /// the normal boundary says "equivalent" at the margin a little more
    /// often than α; the t boundary holds it.
    pub fn with_calibration_pairs(self, pairs: u64) -> Self {
        Self {
            calibration_pairs: Some(pairs),
            ..self
        }
    }

    /// Sets the power assumed when planning the pairs still needed.
    pub fn with_power(self, power: f64) -> Result<Self, EquivalenceError> {
        if power > 0.0 && power < 1.0 {
            Ok(Self { power, ..self })
        } else {
            Err(EquivalenceError::InvalidPower(power))
        }
    }

    /// The margin in pawns per piece.
    pub fn margin_pawns(&self) -> f64 {
        self.margin_pawns
    }

    /// The pawn unit the margin is measured in.
    pub fn unit(&self) -> PawnUnit {
        self.unit
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
        let tost_p: Vec<f64> = estimates.iter().map(|e| self.tost_p_value(e)).collect();
        let diff_p: Vec<f64> = estimates
            .iter()
            .map(|e| (2.0 * t_upper_tail(e.difference_z().abs(), e.pairs)).min(1.0))
            .collect();
        let equivalent = holm_bonferroni(&tost_p, self.alpha)?;
        let different = holm_bonferroni(&diff_p, self.alpha)?;
        let family_alpha = self.alpha / estimates.len().max(1) as f64;
        // The Holm level in force once the procedure stops: every claim of
        // the kind was made at or below it, and every other p-value is above
        // it, so the intervals at this level agree with all the verdicts.
        let in_force = |rejected: &[bool]| {
            self.alpha / (rejected.len() - rejected.iter().filter(|&&r| r).count()).max(1) as f64
        };
        let (equivalence_level, difference_level) = (in_force(&equivalent), in_force(&different));
        Ok(estimates
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let stronger = if e.score > 0.5 {
                    Side::First
                } else {
                    Side::Second
                };
                let verdict = match (equivalent[i], different[i]) {
                    (true, true) => Verdict::EquivalentAndDifferent { stronger },
                    (true, false) => Verdict::Equivalent,
                    (false, true) => Verdict::Different { stronger },
                    (false, false) => Verdict::Inconclusive {
                        plan: self.plan(e, family_alpha),
                    },
                };
                let numbers = VerdictNumbers::new(&VerdictInputs {
                    score: e.score,
                    score_std_error: e.score_std_error,
                    elo: e.elo,
                    elo_std_error: e.std_error,
                    pieces: e.pieces,
                    unit: self.unit,
                    equivalence_level,
                    equivalence_boundary: t_quantile(1.0 - equivalence_level, self.tost_df(e)),
                    difference_level,
                    difference_boundary: t_quantile(
                        1.0 - difference_level / 2.0,
                        e.pairs.saturating_sub(1) as f64,
                    ),
                });
                EquivalenceOutcome {
                    verdict,
                    tost_p_value: tost_p[i],
                    difference_p_value: diff_p[i],
                    numbers,
                }
            })
            .collect())
    }

    /// Degrees of freedom of TOST's combined variance at `±margin`
    /// (Welch-Satterthwaite over the comparison's and the calibration's
    /// pairs); the comparison's alone when the unit is exact, infinite
    /// when the unit's variance counts as known.
    fn tost_df(&self, e: &DifferenceEstimate) -> f64 {
        let (_, se) = e.per_piece();
        let v1 = se * se;
        let v2 = (self.margin_pawns * self.unit.std_error()).powi(2);
        let df1 = e.pairs.saturating_sub(1) as f64;
        if v2 == 0.0 {
            return if df1 >= 1.0 { df1 } else { f64::INFINITY };
        }
        let Some(df2) = self.calibration_pairs.map(|n| n.saturating_sub(1) as f64) else {
            return f64::INFINITY;
        };
        if v1 + v2 <= 0.0 || v1.is_nan() || df1 < 1.0 || df2 < 1.0 {
            return f64::INFINITY;
        }
        (v1 + v2).powi(2) / (v1 * v1 / df1 + v2 * v2 / df2)
    }

    /// The larger of the two one-sided p-values at `±margin` per piece.
    fn tost_p_value(&self, e: &DifferenceEstimate) -> f64 {
        let (elo, se) = e.per_piece();
        let m = self.margin_pawns;
        let df = self.tost_df(e);
        match (
            self.unit.z_against(elo, se, m),
            self.unit.z_against(elo, se, -m),
        ) {
            // H0: θ ≥ m is rejected for a low z at +m; H0: θ ≤ -m for a high z at -m.
            (Some(at_upper), Some(at_lower)) => t_cdf(at_upper, df).max(t_cdf(-at_lower, df)),
            _ => 1.0,
        }
    }

    /// More pairs for power `self.power` at level `alpha`, if the truth
    /// were the current estimate and the per-pair variance stays as it is;
    /// the pawn unit's error does not shrink with more pairs of this matchup.
    fn plan(&self, e: &DifferenceEstimate, alpha: f64) -> Plan {
        let (elo, se) = e.per_piece();
        let d = elo.abs();
        let var_pair = se * se * e.pairs as f64;
        let margin_elo = self.unit.to_elo(self.margin_pawns);
        let margin_var = (self.margin_pawns * self.unit.std_error()).powi(2);
        let z_one = standard_normal_quantile(1.0 - alpha);
        let z_two = standard_normal_quantile(1.0 - alpha / 2.0);
        let sd_at = |n: f64| (var_pair / n + margin_var).sqrt();
        let equivalence = |n: f64| {
            let sd = sd_at(n);
            standard_normal_cdf((margin_elo - d) / sd - z_one)
                + standard_normal_cdf((margin_elo + d) / sd - z_one)
                - 1.0
        };
        let difference = |n: f64| {
            let se = (var_pair / n).sqrt();
            standard_normal_cdf(d / se - z_two) + standard_normal_cdf(-d / se - z_two)
        };
        let n_equivalent = if margin_elo > d {
            pairs_for_power(equivalence, self.power)
        } else {
            None
        };
        let n_difference = if d > 0.0 {
            pairs_for_power(difference, self.power)
        } else {
            None
        };
        match (n_equivalent, n_difference) {
            (None, None) => Plan::MoreCalibration,
            (a, b) => {
                let total = a.unwrap_or(f64::INFINITY).min(b.unwrap_or(f64::INFINITY));
                // Float-to-int casts saturate.
                Plan::MorePairs((total.ceil() as u64).saturating_sub(e.pairs).max(1))
            }
        }
    }
}

/// The fewest pairs (as a real number) at which `power(n)`, increasing in
/// `n`, reaches `target`; `None` when no number of pairs does (the power's
/// limit, when only the pawn unit's error is left, falls short).
fn pairs_for_power(power: impl Fn(f64) -> f64, target: f64) -> Option<f64> {
    const MOST: f64 = 1e15;
    if power(MOST) < target {
        return None;
    }
    let (mut lo, mut hi) = (1e-3f64, MOST);
    if power(lo) >= target {
        return Some(lo);
    }
    // Bisection on a log scale: the power is monotone in n.
    for _ in 0..200 {
        let mid = (lo * hi).sqrt();
        if power(mid) >= target {
            hi = mid;
        } else {
            lo = mid;
        }
        if hi / lo < 1.0 + 1e-9 {
            break;
        }
    }
    Some(hi)
}

/// `P(T ≤ x)` for Student's t with `df` degrees of freedom (the normal's
/// for infinite or unusable `df`); exactly 0 or 1 at ±∞. Tests and
/// intervals share this rule and [`t_quantile`]'s, so that an interval
/// excludes a value exactly when the test at that value rejects.
pub(crate) fn t_cdf(x: f64, df: f64) -> f64 {
    if x.is_infinite() {
        return if x > 0.0 { 1.0 } else { 0.0 };
    }
    match StudentsT::new(0.0, 1.0, df) {
        Ok(t) if usable_df(df) => t.cdf(x),
        _ => standard_normal_cdf(x),
    }
}

/// Finite and positive: Student's t (fewer than one degree of freedom
/// included, whose tails are heavier still); else the normal.
fn usable_df(df: f64) -> bool {
    df.is_finite() && df > 0.0
}

/// `P(T > z)` with `pairs - 1` degrees of freedom.
fn t_upper_tail(z: f64, pairs: u64) -> f64 {
    1.0 - t_cdf(z, pairs.saturating_sub(1) as f64)
}

/// The Student-t quantile at `p` (`df` degrees of freedom; the normal's
/// for infinite or unusable `df`).
pub(crate) fn t_quantile(p: f64, df: f64) -> f64 {
    match StudentsT::new(0.0, 1.0, df) {
        Ok(t) if usable_df(df) => t.inverse_cdf(p),
        _ => standard_normal_quantile(p),
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
    use crate::error_rate::ObservedRate;
    use crate::estimate::ConfidenceLevel;
    use crate::pawns::calibrate_from_pawn_odds;
    use crate::pentanomial::Pentanomial;
    use crate::sim::{GameModel, simulate_pairs};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn student_tails_and_quantiles_are_one_rule() {
        assert!((1.0 - t_cdf(1.96, f64::INFINITY) - 0.025).abs() < 1e-3);
        assert!(1.0 - t_cdf(1.96, 5.0) > 0.05);
        assert!((t_cdf(0.0, 12.0) - 0.5).abs() < 1e-12);
        // Fewer than one degree of freedom: heavier tails than one, and
        // the quantile inverts the distribution function there too.
        for df in [0.4, 0.8, 1.0, 3.5, 40.0] {
            let q = t_quantile(0.975, df);
            assert!((t_cdf(q, df) - 0.975).abs() < 1e-6, "df {df}: {q}");
        }
        assert!(t_quantile(0.975, 0.5) > t_quantile(0.975, 1.0));
    }

    const L95: ConfidenceLevel = ConfidenceLevel::NINETY_FIVE;

    /// A quarter pawn of an exact 100-Elo pawn: a 25-Elo margin per piece.
    fn exact_test() -> EquivalenceTest {
        EquivalenceTest::new(0.25, PawnUnit::exact(100.0).unwrap(), 0.05).unwrap()
    }

    fn estimate(elo: f64, std_error: f64, pairs: u64) -> DifferenceEstimate {
        DifferenceEstimate::from_elo(elo, std_error, pairs, 1)
    }

    /// Simulates `pairs` pairs of armies `elo` apart.
    fn simulated(elo: f64, pairs: usize, pieces: u32, rng: &mut ChaCha8Rng) -> DifferenceEstimate {
        let model = GameModel::new(elo, 0.35, 0.15);
        let p = Pentanomial::from_pairs(simulate_pairs(&model, pairs, rng));
        DifferenceEstimate::from_summary(&p.summary(L95).unwrap(), pieces)
    }

    /// A pawn unit measured from `pairs` pawn-odds pairs of a pawn worth `k`.
    fn measured_unit(k: f64, pairs: usize, rng: &mut ChaCha8Rng) -> PawnUnit {
        measured_unit_in((0.35, 0.15), k, pairs, rng)
    }

    fn measured_unit_in(model: (f64, f64), k: f64, pairs: usize, rng: &mut ChaCha8Rng) -> PawnUnit {
        let s = Pentanomial::from_pairs(simulate_pairs(
            &GameModel::new(k, model.0, model.1),
            pairs,
            rng,
        ))
        .summary(L95)
        .unwrap();
        calibrate_from_pawn_odds(s.score, s.score_std_error, 1.0, L95)
            .unwrap()
            .unit
    }

    #[test]
    fn known_answer_tost() {
        // Δ = 5 ± 8, m = 25: one-sided p-values P(Z > 30/8) = 8.8e-5 and
        // P(Z > 20/8 = 2.5) = 0.00621 ⇒ TOST p = 0.00621 < 0.05 ⇒ equivalent.
        // Two-sided p for Δ = 0: 2·P(Z > 0.625) = 0.532.
        let out = exact_test().evaluate(&estimate(5.0, 8.0, 500)).unwrap();
        assert_eq!(out.verdict, Verdict::Equivalent);
        // With the exact unit TOST's variance is the comparison's: t with
        // 499 degrees of freedom, P(T > 2.5) = 0.0063696. The difference
        // test is on the score scale: 0.507195 ± 0.0115105, z = 0.62509,
        // two-sided p = 0.53220.
        assert!((out.tost_p_value - 0.006_369_6).abs() < 1e-6, "{out:?}");
        assert!((out.difference_p_value - 0.532_200).abs() < 1e-5, "{out:?}");
        // The equivalence interval: (5 ± t·8)/100 at the one-sided 5%
        // quantile of t with 499 degrees of freedom (1.64791), level 90%.
        assert!((out.numbers.pawns_per_piece - 0.05).abs() < 1e-12);
        let upper = (5.0 + 1.647_91 * 8.0) / 100.0;
        assert!(
            (out.numbers.equivalence_interval.upper - upper).abs() < 1e-5,
            "{out:?}"
        );
        assert!((out.numbers.equivalence_level - 0.90).abs() < 1e-12);
    }

    #[test]
    fn known_answer_with_an_uncertain_unit() {
        // Δ = 5 ± 8 Elo, k = 100 ± 20: at +m the combination 5 - 25 has
        // sd sqrt(64 + 0.0625·400) = 9.434: z = -2.120, p = 0.01700; at -m,
        // (5 + 25)/9.434 = 3.180, p = 0.00074. TOST p = 0.01700.
        let unit = PawnUnit::estimated(100.0, 20.0).unwrap();
        let t = EquivalenceTest::new(0.25, unit, 0.05).unwrap();
        let out = t.evaluate(&estimate(5.0, 8.0, 500)).unwrap();
        assert!((out.tost_p_value - 0.017_00).abs() < 1e-4, "{out:?}");
        assert_eq!(out.verdict, Verdict::Equivalent);
        // With k = 100 ± 70 no margin in pawns can be shown.
        let vague = EquivalenceTest::new(0.25, PawnUnit::estimated(100.0, 70.0).unwrap(), 0.05)
            .unwrap()
            .evaluate(&estimate(0.0, 1.0, 500))
            .unwrap();
        assert!(
            matches!(
                vague.verdict,
                Verdict::Inconclusive {
                    plan: Plan::MoreCalibration
                }
            ),
            "{vague:?}"
        );
        assert!(vague.numbers.equivalence_interval.upper.is_infinite());
        assert_eq!(vague.numbers.difference_pawns_interval, None);
        // No unit at all: differences are still found, equivalence never.
        let none = EquivalenceTest::new(0.25, PawnUnit::Unknown, 0.05).unwrap();
        assert_eq!(
            none.evaluate(&estimate(-40.0, 10.0, 400)).unwrap().verdict,
            Verdict::Different {
                stronger: Side::Second
            }
        );
        assert_eq!(
            none.evaluate(&estimate(0.0, 1.0, 400))
                .unwrap()
                .tost_p_value,
            1.0
        );
    }

    #[test]
    fn the_margin_applies_per_piece() {
        // Two pieces exchanged, 40 ± 8 Elo for the army: 20 per piece, within
        // 25 only if per piece: z at +m = (20 - 25)/4 = -1.25, p = 0.106 ⇒ not
        // equivalent; as an army difference it would be 40 > 25: different.
        let two = DifferenceEstimate::from_elo(40.0, 8.0, 500, 2);
        let out = exact_test().evaluate(&two).unwrap();
        assert!((out.numbers.pawns_per_piece - 0.2).abs() < 1e-12);
        // t with 499 degrees of freedom: P(T ≤ -1.25) = 0.10595.
        assert!((out.tost_p_value - 0.105_95).abs() < 1e-4, "{out:?}");
        // With four times the precision it is equivalent per piece, and
        // the first army measurably stronger: both are said.
        let precise = DifferenceEstimate::from_elo(40.0, 2.0, 500, 2);
        let out = exact_test().evaluate(&precise).unwrap();
        assert_eq!(
            out.verdict,
            Verdict::EquivalentAndDifferent {
                stronger: Side::First
            }
        );
        let n = out.numbers;
        assert!(n.equivalence_interval.lower > -0.25 && n.equivalence_interval.upper < 0.25);
        assert!(n.elo_interval.lower > 0.0, "{n:?}");
        let zero = DifferenceEstimate { pieces: 0, ..two };
        assert_eq!(
            exact_test().evaluate(&zero),
            Err(EquivalenceError::NoPieces)
        );
    }

    #[test]
    fn known_answer_plans() {
        // Δ = 0 ± 20 over 100 pairs: per-pair variance 40 000. Equivalence
        // with 80% power at Δ = 0 needs 2Φ(25/se - 1.64485) - 1 ≥ 0.8, i.e.
        // 25/se ≥ 1.64485 + 1.28155 (z at 1 - β/2): 40000·2.92640²/25² =
        // 548.09 ⇒ 549 pairs, 449 more (z at 1 - β would promise 80% power
        // with 296 more pairs that give 60%).
        assert_eq!(
            exact_test()
                .evaluate(&estimate(0.0, 20.0, 100))
                .unwrap()
                .verdict,
            Verdict::Inconclusive {
                plan: Plan::MorePairs(449)
            }
        );
        // Δ = 40 ± 30 over 100 pairs: only a difference can be shown; power
        // Φ(40/se - 1.95996) ≥ 0.8 ⇒ se ≤ 40/2.80158 ⇒ n = 90000·2.80158²/40²
        // = 441.6 (the other tail adds 1e-9) ⇒ 342 more.
        assert_eq!(
            exact_test()
                .evaluate(&estimate(40.0, 30.0, 100))
                .unwrap()
                .verdict,
            Verdict::Inconclusive {
                plan: Plan::MorePairs(342)
            }
        );
        // The planned sample size does give the promised power.
        let t = exact_test();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let pilot = simulated(0.0, 200, 1, &mut rng);
        let Verdict::Inconclusive {
            plan: Plan::MorePairs(more),
        } = t.evaluate(&pilot).unwrap().verdict
        else {
            panic!("200 pairs should not settle a 25-Elo margin");
        };
        let total = (200 + more) as usize;
        let runs = 400;
        let equivalent = (0..runs)
            .filter(|_| {
                t.evaluate(&simulated(0.0, total, 1, &mut rng))
                    .unwrap()
                    .verdict
                    == Verdict::Equivalent
            })
            .count();
        let power = equivalent as f64 / f64::from(runs);
        eprintln!(
            "planned {total} pairs for 80% power: equivalence shown in {power} ({runs} runs)"
        );
        // 80% ± 2 simulation SDs (0.02 over 400 runs), plus the pilot's noise.
        assert!(
            (0.72..=0.90).contains(&power),
            "power {power} at {total} pairs"
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
        let e = estimate(0.0, 13.0, 300);
        let t = exact_test();
        assert_eq!(t.evaluate(&e).unwrap().verdict, Verdict::Equivalent);
        for out in t.evaluate_family(&[e, e, e]).unwrap() {
            assert!(
                matches!(out.verdict, Verdict::Inconclusive { .. }),
                "{out:?}"
            );
            // t with 299 degrees of freedom beyond 25/13: 0.02771.
            assert!((out.tost_p_value - 0.027_71).abs() < 1e-4, "{out:?}");
        }
    }

    #[test]
    fn validates_input() {
        let unit = PawnUnit::muller();
        assert!(EquivalenceTest::new(0.0, unit, 0.05).is_err());
        assert!(EquivalenceTest::new(f64::NAN, unit, 0.05).is_err());
        assert!(EquivalenceTest::new(0.25, unit, 0.5).is_err());
        assert!(exact_test().with_power(1.0).is_err());
        let t = exact_test();
        assert!(t.evaluate(&estimate(f64::INFINITY, 1.0, 10)).is_err());
        assert!(t.evaluate(&estimate(1.0, -1.0, 10)).is_err());
        assert!(t.evaluate(&estimate(1.0, 1.0, 0)).is_err());
        // Zero variance is decided outright: inside the margin, and (no
        // noise at all) measurably stronger.
        assert_eq!(
            t.evaluate(&estimate(3.0, 0.0, 10)).unwrap().verdict,
            Verdict::EquivalentAndDifferent {
                stronger: Side::First
            }
        );
    }

    #[test]
    fn stronger_piece_is_found_different_never_equivalent() {
        let t = exact_test();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for run in 0..60 {
            let e = simulated(40.0, 4000, 1, &mut rng);
            let out = t.evaluate(&e).unwrap();
            assert_eq!(
                out.verdict,
                Verdict::Different {
                    stronger: Side::First
                },
                "run {run}: {e:?}"
            );
        }
    }

    #[test]
    fn identical_pieces_are_found_equivalent() {
        let t = exact_test();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut equivalent = 0;
        for run in 0..60 {
            match t
                .evaluate(&simulated(0.0, 3000, 1, &mut rng))
                .unwrap()
                .verdict
            {
                Verdict::Equivalent => equivalent += 1,
                // A false "stronger" beside it, at most α of the time.
                Verdict::EquivalentAndDifferent { .. } => equivalent += 1,
                Verdict::Inconclusive { .. } => {}
                v => panic!("run {run}: {v:?}"),
            }
        }
        assert!(equivalent >= 57, "only {equivalent}/60 equivalent");
    }

    /// Simulated games in one of several models: (draw rate, opening bias
    /// on the score scale). The first is the audit's (30% draws, no
    /// correlation within a pair); the others correlate the games of a
    /// pair and vary the draws. Each keeps the expected score exactly
    /// `elo_to_score(elo)`, so the truth is known.
    const MODELS: [(f64, f64); 3] = [(0.3, 0.0), (0.35, 0.15), (0.1, 0.3)];

    fn simulated_in(
        model: (f64, f64),
        elo: f64,
        pairs: usize,
        pieces: u32,
        rng: &mut ChaCha8Rng,
    ) -> DifferenceEstimate {
        let p = Pentanomial::from_pairs(simulate_pairs(
            &GameModel::new(elo, model.0, model.1),
            pairs,
            rng,
        ));
        DifferenceEstimate::from_summary(&p.summary(L95).unwrap(), pieces)
    }

    /// The audit's case at the statistics level: a piece truly stronger by
    /// exactly the margin per piece, two pieces exchanged, the pawn unit
    /// measured from 100 pawn-odds pairs, 1,000 pairs for the matchup, in
    /// each model. "Equivalent" must not be shown above α (at 99%
    /// confidence, 20,000 runs a model: an excess of 0.4 points is seen);
    /// dividing by the measured unit as if it were exact says it far more
    /// often.
    #[test]
    fn false_equivalence_at_the_margin_is_at_most_alpha_with_a_small_calibration() {
        let (k, margin, pieces) = (100.0, 0.25, 2);
        let runs = 20_000;
        for (i, model) in MODELS.into_iter().enumerate() {
            let mut rng = ChaCha8Rng::seed_from_u64(13 + i as u64);
            let (mut carried, mut as_exact) = (0, 0);
            for _ in 0..runs {
                let unit = measured_unit_in(model, k, 100, &mut rng);
                let e = simulated_in(
                    model,
                    f64::from(pieces) * margin * k,
                    1000,
                    pieces,
                    &mut rng,
                );
                let says = |unit: PawnUnit, pairs: Option<u64>| {
                    let t = EquivalenceTest::new(margin, unit, 0.05).unwrap();
                    let t = match pairs {
                        Some(n) => t.with_calibration_pairs(n),
                        None => t,
                    };
                    t.evaluate(&e).unwrap().verdict.is_equivalent()
                };
                carried += u64::from(says(unit, Some(100)));
                as_exact += u64::from(says(PawnUnit::exact(unit.elo_per_pawn()).unwrap(), None));
            }
            let what = format!(
                "truth = margin, 100 calibration pairs, draws {}, opening bias {}: 'equivalent'",
                model.0, model.1
            );
            ObservedRate::new(carried, runs).assert_at_most(0.05, &what);
            let naive = ObservedRate::new(as_exact, runs);
            eprintln!("  the same with the unit taken as exact: {}", naive.rate());
            assert!(naive.rate() > 0.09, "k taken as exact: {}", naive.rate());
        }
    }

    /// With a large calibration the rate is close to α (TOST's error is α
    /// on the boundary), not far below it.
    #[test]
    fn false_equivalence_at_the_margin_is_about_alpha() {
        let mut rng = ChaCha8Rng::seed_from_u64(14);
        let runs = 10_000;
        let mut equivalent = 0;
        for _ in 0..runs {
            let unit = measured_unit(107.5, 4000, &mut rng);
            let e = simulated(0.25 * 107.5, 1000, 1, &mut rng);
            let t = EquivalenceTest::new(0.25, unit, 0.05)
                .unwrap()
                .with_calibration_pairs(4000);
            equivalent += u64::from(t.evaluate(&e).unwrap().verdict.is_equivalent());
        }
        let observed = ObservedRate::new(equivalent, runs);
        observed.assert_at_most(0.05, "truth = margin, 4000 calibration pairs: 'equivalent'");
        assert!(observed.rate() > 0.04, "far below α: {}", observed.rate());
    }

    /// Identical pieces: "different" (alone or beside "equivalent") at
    /// most α of the time in each model, whatever the pawn unit.
    #[test]
    fn false_difference_rate_at_zero_is_at_most_alpha() {
        let runs = 20_000;
        for (i, model) in MODELS.into_iter().enumerate() {
            let mut rng = ChaCha8Rng::seed_from_u64(15 + i as u64);
            let mut different = 0;
            for _ in 0..runs {
                let unit = measured_unit_in(model, 107.5, 100, &mut rng);
                let t = EquivalenceTest::new(0.25, unit, 0.05)
                    .unwrap()
                    .with_calibration_pairs(100);
                let out = t
                    .evaluate(&simulated_in(model, 0.0, 300, 2, &mut rng))
                    .unwrap();
                different += u64::from(out.verdict.stronger().is_some());
            }
            ObservedRate::new(different, runs).assert_at_most(
                0.05,
                &format!(
                    "truth 0, draws {}, opening bias {}: 'different'",
                    model.0, model.1
                ),
            );
        }
    }

    /// The intervals beside a verdict cover the true pawns per piece at
    /// least at their levels, calibration error included: the equivalence
    /// interval at 90%, the difference interval in pawns (where given) at
    /// 95%; misses are held against 10% and 5%.
    #[test]
    fn the_verdicts_intervals_cover_the_truth() {
        let (k, truth, pieces) = (107.5, 0.25, 2);
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        let runs = 10_000;
        let (mut eq_missed, mut diff_missed, mut diff_given) = (0, 0, 0);
        for _ in 0..runs {
            let unit = measured_unit(k, 100, &mut rng);
            let e = simulated(f64::from(pieces) * truth * k, 1000, pieces, &mut rng);
            let t = EquivalenceTest::new(0.25, unit, 0.05)
                .unwrap()
                .with_calibration_pairs(100);
            let n = t.evaluate(&e).unwrap().numbers;
            eq_missed += u64::from(!n.equivalence_interval.contains(truth));
            if let Some(i) = n.difference_pawns_interval {
                diff_given += 1;
                diff_missed += u64::from(!i.contains(truth));
            }
        }
        ObservedRate::new(eq_missed, runs).assert_at_most(0.10, "90% equivalence interval misses");
        ObservedRate::new(diff_missed, diff_given)
            .assert_at_most(0.05, "95% difference interval (pawns) misses");
        assert!(
            diff_given > runs / 2,
            "the unit resolves sizes: {diff_given}"
        );
    }
}
