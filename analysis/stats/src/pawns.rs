//! From Elo to pawns, with the pawn unit's own uncertainty carried.
//!
//! A designer reads differences in pawns. One pawn is worth `k` Elo: measured
//! by a pawn-odds matchup (H. G. Muller's method, [`calibrate_from_pawn_odds`])
//! or assumed (Muller's rule of thumb, a pawn ≈ 15% of score, [`PawnUnit::muller`]).
//! A difference of `D` Elo between two armies that exchange `n` pieces is
//! `θ = D / (n·k)` pawns per piece (`n` is applied by the caller, who divides
//! `D` and its standard error by it).
//!
//! When `k` is measured its error is as real as `D`'s: with 100 calibration
//! pairs `k` is known to about ±15%, and taking it as exact makes a
//! "equivalent within a quarter pawn" verdict wrong far more often than the
//! test's α (13% instead of 5% in the lab's simulations). So the ratio is
//! treated by **Fieller's theorem** (Fieller 1954; see also Franz 2007,
//! "Ratios: a short guide to confidence limits and proper use"): for
//! independent, near-normal estimates `D̂ ± s_D` and `k̂ ± s_k`, the linear
//! combination `D̂ - θ₀·k̂` has standard error `sqrt(s_D² + θ₀²·s_k²)` under
//! `θ = θ₀`, so
//!
//! * the one-sided test of `θ = θ₀` is `z = (D̂ - θ₀·k̂) / sqrt(s_D² + θ₀²·s_k²)`
//!   ([`PawnUnit::z_against`]), whose error rate holds for any calibration
//!   size (the equivalence test uses it at `θ₀ = ±margin`);
//! * the interval is every `θ₀` that test does not reject two-sided
//!   ([`PawnUnit::interval`]): bounded when `k̂ > z·s_k`, the whole line
//!   otherwise (the calibration cannot tell how many pawns any difference is).
//!
//! An assumed unit is exact (`s_k = 0`) and both reduce to dividing by `k`.

use thiserror::Error;

use super::elo::{EloError, elo_per_score_at, score_to_elo};
use super::estimate::{ConfidenceLevel, Interval};

/// Muller's rule of thumb: one pawn ≈ 15% of score around 50%.
pub const MULLER_SCORE_PER_PAWN: f64 = 0.15;

/// How many Elo one pawn is worth, and how well that is known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PawnUnit {
    /// Taken as exact (an assumed calibration): every pawn figure is off by
    /// the same factor if it is wrong, but it adds no sampling error.
    Exact {
        /// Elo per pawn, finite and positive.
        elo_per_pawn: f64,
    },
    /// Measured, with the standard error of the estimate. The estimate may
    /// be at or below zero (a pawn-odds side that did not score above 50%):
    /// the tests stay valid, and no difference can then be shown equivalent.
    Estimated {
        /// Elo per pawn.
        elo_per_pawn: f64,
        /// Its standard error.
        std_error: f64,
    },
    /// No unit can be had (e.g. a pawn-odds side that won every game):
    /// pawn figures are unknown and equivalence in pawns cannot be shown.
    Unknown,
}

impl PawnUnit {
    /// An exact unit of `elo_per_pawn` (finite and positive).
    pub fn exact(elo_per_pawn: f64) -> Result<Self, EloError> {
        if elo_per_pawn.is_finite() && elo_per_pawn > 0.0 {
            Ok(Self::Exact { elo_per_pawn })
        } else {
            Err(EloError::InvalidCalibration(elo_per_pawn))
        }
    }

    /// A measured unit (finite estimate, finite non-negative standard error).
    pub fn estimated(elo_per_pawn: f64, std_error: f64) -> Result<Self, EloError> {
        if !elo_per_pawn.is_finite() {
            return Err(EloError::InvalidCalibration(elo_per_pawn));
        }
        if !(std_error.is_finite() && std_error >= 0.0) {
            return Err(EloError::InvalidStdError(std_error));
        }
        Ok(Self::Estimated {
            elo_per_pawn,
            std_error,
        })
    }

    /// The exact unit a pawn worth `score_per_pawn` of score around 50%
    /// gives: `score_to_elo(0.5 + score_per_pawn)` Elo (must lie in (0, 0.5)).
    pub fn from_score_per_pawn(score_per_pawn: f64) -> Result<Self, EloError> {
        if !(score_per_pawn > 0.0 && score_per_pawn < 0.5) {
            return Err(EloError::InvalidCalibration(score_per_pawn));
        }
        Self::exact(score_to_elo(0.5 + score_per_pawn)?)
    }

    /// Muller's assumed unit: 15% of score, about 107.5 Elo per pawn.
    pub fn muller() -> Self {
        Self::Exact {
            elo_per_pawn: score_to_elo(0.5 + MULLER_SCORE_PER_PAWN).unwrap_or(f64::NAN),
        }
    }

    /// Elo per pawn (NaN when unknown).
    pub fn elo_per_pawn(&self) -> f64 {
        match *self {
            Self::Exact { elo_per_pawn } | Self::Estimated { elo_per_pawn, .. } => elo_per_pawn,
            Self::Unknown => f64::NAN,
        }
    }

    /// Standard error of the Elo per pawn (0 when exact, NaN when unknown).
    pub fn std_error(&self) -> f64 {
        match *self {
            Self::Exact { .. } => 0.0,
            Self::Estimated { std_error, .. } => std_error,
            Self::Unknown => f64::NAN,
        }
    }

    /// Whether point figures in pawns exist: the unit is known and positive.
    pub fn is_positive(&self) -> bool {
        self.elo_per_pawn() > 0.0
    }

    /// `elo` in pawns at the point estimate; NaN unless [`Self::is_positive`].
    pub fn to_pawns(&self, elo: f64) -> f64 {
        if self.is_positive() {
            elo / self.elo_per_pawn()
        } else {
            f64::NAN
        }
    }

    /// `pawns` in Elo at the point estimate (NaN when unknown).
    pub fn to_elo(&self, pawns: f64) -> f64 {
        pawns * self.elo_per_pawn()
    }

    /// The one-sided test statistic of "`elo` is `pawns` pawns":
    /// `(elo - pawns·k̂) / sqrt(se² + pawns²·s_k²)`, standard normal when it
    /// holds. `None` for an unknown unit; ±∞ when both errors are zero and
    /// the hypothesis is off.
    pub fn z_against(&self, elo: f64, elo_std_error: f64, pawns: f64) -> Option<f64> {
        if matches!(self, Self::Unknown) {
            return None;
        }
        let diff = elo - pawns * self.elo_per_pawn();
        let sd = (elo_std_error.powi(2) + (pawns * self.std_error()).powi(2)).sqrt();
        Some(if sd > 0.0 {
            diff / sd
        } else if diff > 0.0 {
            f64::INFINITY
        } else if diff < 0.0 {
            f64::NEG_INFINITY
        } else {
            0.0
        })
    }

    /// Fieller's two-sided interval at `level` for `elo / k`, given `elo`'s
    /// standard error: every pawn figure the test at that level does not
    /// reject. Unbounded (−∞ to +∞) when the unit is unknown or not shown
    /// positive at the level (`k̂ ≤ z·s_k`).
    pub fn interval(&self, elo: f64, elo_std_error: f64, level: ConfidenceLevel) -> Interval {
        self.interval_at(elo, elo_std_error, level.z())
    }

    /// Fieller's interval at boundary `c` (a normal or Student-t quantile,
    /// or a sequential design's boundary): every `θ` with
    /// `|z_against(elo, se, θ)| < c`.
    pub fn interval_at(&self, elo: f64, elo_std_error: f64, c: f64) -> Interval {
        let unbounded = Interval::new(f64::NEG_INFINITY, f64::INFINITY);
        if !(elo.is_finite() && elo_std_error.is_finite() && c.is_finite())
            || matches!(self, Self::Unknown)
        {
            return unbounded;
        }
        let (k, sk, sd) = (self.elo_per_pawn(), self.std_error(), elo_std_error);
        // (elo - θk)² ≤ c²(sd² + θ²sk²)  ⇔  aθ² - 2·elo·kθ + (elo² - c²sd²) ≤ 0.
        let a = k * k - c * c * sk * sk;
        if a <= 0.0 {
            return unbounded;
        }
        // The discriminant over 4: c²(sd²·a + elo²·sk²) ≥ 0 when a > 0.
        let root = c * (sd * sd * a + elo * elo * sk * sk).sqrt();
        Interval::new((elo * k - root) / a, (elo * k + root) / a)
    }

    /// Whether pawn sizes are worth giving at boundary `c`: the unit is
    /// known, and its lower bound `k̂ - c·s_k` is at least half of `k̂`, so
    /// no Fieller bound is more than about twice the plain quotient. Below
    /// that a bound can be any size at all (it is infinite once the lower
    /// bound reaches 0), and the honest answer is that the size in pawns is
    /// not yet known.
    pub fn resolves(&self, c: f64) -> bool {
        let k = self.elo_per_pawn();
        k > 0.0 && k - c * self.std_error() >= k / 2.0
    }
}

/// A calibration measured from a pawn-odds matchup.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PawnOdds {
    /// The unit, with its delta-method standard error.
    pub unit: PawnUnit,
    /// Interval of Elo per pawn: the score interval's ends mapped through
    /// score→Elo and divided by the pawns given (asymmetric, like the score
    /// model's Elo intervals).
    pub interval: Interval,
    /// The per-game score of the side with more pawns.
    pub score: f64,
    /// Level of `interval`.
    pub level: ConfidenceLevel,
}

impl PawnOdds {
    /// Whether the side a pawn up scored above 50% (else no positive
    /// unit was measured and the report must say so).
    pub fn shows_advantage(&self) -> bool {
        self.score > 0.5
    }
}

/// Why a pawn-odds result gives no unit at all.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum PawnOddsError {
    /// The score or its error is invalid.
    #[error(transparent)]
    Invalid(#[from] EloError),
    /// A score of exactly 0 or 1: no finite Elo explains it.
    #[error("the side with more pawns scored {0}: no finite Elo per pawn")]
    OneSided(f64),
    /// Not a positive number of pawns.
    #[error("pawns given must be positive, got {0}")]
    NoPawns(f64),
}

/// Elo per pawn from a measured pawn-odds result: `score` is the per-game
/// score of the side given `pawns` extra pawns, with standard error
/// `score_std_error` (from a pentanomial or trinomial summary). The unit is
/// `score_to_elo(score) / pawns` with the delta-method standard error; a
/// score at or below 50% still gives a (non-positive) estimate, so the tests
/// that use it stay honest rather than falling back to an assumption.
pub fn calibrate_from_pawn_odds(
    score: f64,
    score_std_error: f64,
    pawns: f64,
    level: ConfidenceLevel,
) -> Result<PawnOdds, PawnOddsError> {
    if !(0.0..=1.0).contains(&score) {
        return Err(EloError::ScoreOutOfRange(score).into());
    }
    if !(score_std_error.is_finite() && score_std_error >= 0.0) {
        return Err(EloError::InvalidStdError(score_std_error).into());
    }
    if !(pawns.is_finite() && pawns > 0.0) {
        return Err(PawnOddsError::NoPawns(pawns));
    }
    if score <= 0.0 || score >= 1.0 {
        return Err(PawnOddsError::OneSided(score));
    }
    let elo_per_pawn = score_to_elo(score)? / pawns;
    let std_error = score_std_error * elo_per_score_at(score)? / pawns;
    let half = level.z() * score_std_error;
    let end = |s: f64| score_to_elo(s.clamp(0.0, 1.0)).map(|e| e / pawns);
    Ok(PawnOdds {
        unit: PawnUnit::estimated(elo_per_pawn, std_error)?,
        interval: Interval::new(end(score - half)?, end(score + half)?),
        score,
        level,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error_rate::ObservedRate;
    use crate::sim::{GameModel, simulate_pairs};
    use crate::{Pentanomial, elo_to_score};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    const L95: ConfidenceLevel = ConfidenceLevel::NINETY_FIVE;

    #[test]
    fn muller_unit_is_about_107_elo() {
        let unit = PawnUnit::muller();
        // 400·log10(0.65/0.35) = 107.54.
        assert!((unit.elo_per_pawn() - 107.54).abs() < 0.01);
        let same = PawnUnit::from_score_per_pawn(0.15).unwrap();
        assert!((same.elo_per_pawn() - unit.elo_per_pawn()).abs() < 1e-9);
        assert!((unit.to_pawns(unit.to_elo(0.25)) - 0.25).abs() < 1e-12);
        assert!(PawnUnit::from_score_per_pawn(0.5).is_err());
        assert!(PawnUnit::exact(-3.0).is_err());
        assert!(PawnUnit::exact(f64::NAN).is_err());
        assert!(PawnUnit::estimated(100.0, -1.0).is_err());
        assert!(PawnUnit::Unknown.to_pawns(50.0).is_nan());
        assert!(
            PawnUnit::estimated(-10.0, 5.0)
                .unwrap()
                .to_pawns(50.0)
                .is_nan()
        );
    }

    #[test]
    fn pawn_odds_known_answers() {
        // Two pawns odds scoring 0.75 ± 0.01: 190.85/2 = 95.42 Elo per pawn.
        let odds = calibrate_from_pawn_odds(0.75, 0.01, 2.0, L95).unwrap();
        assert!((odds.unit.elo_per_pawn() - 95.424).abs() < 1e-3);
        // Delta method: 0.01 · 400/(ln10 · 0.1875) / 2 = 4.632.
        assert!((odds.unit.std_error() - 4.632).abs() < 1e-3);
        let lo = score_to_elo(0.75 - 0.019_599_64).unwrap() / 2.0;
        let hi = score_to_elo(0.75 + 0.019_599_64).unwrap() / 2.0;
        assert!((odds.interval.lower - lo).abs() < 1e-3);
        assert!((odds.interval.upper - hi).abs() < 1e-3);
        assert!(odds.shows_advantage());
        // At or below 50% the estimate is kept (non-positive), not refused.
        let none = calibrate_from_pawn_odds(0.48, 0.02, 1.0, L95).unwrap();
        assert!(!none.shows_advantage());
        assert!(none.unit.elo_per_pawn() < 0.0);
        assert!(!none.unit.is_positive());
        assert_eq!(
            calibrate_from_pawn_odds(1.0, 0.0, 1.0, L95),
            Err(PawnOddsError::OneSided(1.0))
        );
        assert!(calibrate_from_pawn_odds(0.6, -1.0, 1.0, L95).is_err());
        assert!(calibrate_from_pawn_odds(0.6, 0.01, 0.0, L95).is_err());
        assert!(calibrate_from_pawn_odds(f64::NAN, 0.01, 1.0, L95).is_err());
    }

    #[test]
    fn fieller_known_answers() {
        // D = 50 ± 10, k = 100 ± 10, z = 1.96: a = 10000 - 384.15 = 9615.85;
        // root = 1.96·sqrt(100·9615.85 + 2500·100) = 1.96·1100.72 = 2157.4;
        // θ = (5000 ∓ 2157.4)/9615.85 = 0.29562 .. 0.74434.
        let unit = PawnUnit::estimated(100.0, 10.0).unwrap();
        let i = unit.interval(50.0, 10.0, L95);
        assert!((i.lower - 0.295_62).abs() < 1e-4, "{i:?}");
        assert!((i.upper - 0.744_34).abs() < 1e-4, "{i:?}");
        // The test at an end of the interval sits exactly at z.
        let z = unit.z_against(50.0, 10.0, i.upper).unwrap();
        assert!((z + L95.z()).abs() < 1e-9, "{z}");
        // Exact unit: plain division.
        let exact = PawnUnit::exact(100.0).unwrap();
        let i = exact.interval(50.0, 10.0, L95);
        assert!((i.lower - (50.0 - 19.599_64) / 100.0).abs() < 1e-6);
        // A unit not shown positive: unbounded.
        let weak = PawnUnit::estimated(15.0, 10.0).unwrap();
        assert!(weak.interval(50.0, 10.0, L95).lower.is_infinite());
        assert!(
            PawnUnit::Unknown
                .interval(50.0, 10.0, L95)
                .upper
                .is_infinite()
        );
        assert_eq!(PawnUnit::Unknown.z_against(1.0, 1.0, 0.25), None);
    }

    /// Interval coverage of the pawn figure with a 100-pair calibration.
    /// Dividing by `k̂` as if it were exact covers the truth too rarely; the
    /// Fieller interval holds its level.
    #[test]
    fn pawn_interval_covers_at_its_level_with_a_small_calibration() {
        let k = 107.5;
        let (pawns, draw, bias) = (0.5, 0.35, 0.15);
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let runs = 2000;
        let (mut fieller, mut naive) = (0, 0);
        for _ in 0..runs {
            let cal = Pentanomial::from_pairs(simulate_pairs(
                &GameModel::new(k, draw, bias),
                100,
                &mut rng,
            ))
            .summary(L95)
            .unwrap();
            let m = Pentanomial::from_pairs(simulate_pairs(
                &GameModel::new(pawns * k, draw, bias),
                1000,
                &mut rng,
            ))
            .summary(L95)
            .unwrap();
            let odds = calibrate_from_pawn_odds(cal.score, cal.score_std_error, 1.0, L95).unwrap();
            if odds
                .unit
                .interval(m.elo, m.elo_std_error, L95)
                .contains(pawns)
            {
                fieller += 1;
            }
            let k_hat = odds.unit.elo_per_pawn();
            let half = L95.z() * m.elo_std_error / k_hat;
            if Interval::symmetric(m.elo / k_hat, half).contains(pawns) {
                naive += 1;
            }
        }
        let rate = |n: i32| f64::from(n) / f64::from(runs);
        eprintln!(
            "95% pawn interval, 100 calibration pairs: Fieller covers {}, k taken as exact {} ({runs} runs)",
            rate(fieller),
            rate(naive)
        );
        let misses = |covered: i32| ObservedRate::new((runs - covered) as u64, runs as u64);
        misses(fieller).assert_at_most(0.05, "the 95% Fieller pawn interval misses");
        assert!(
            misses(naive).exceeds(0.05, 0.99),
            "naive coverage {}",
            rate(naive)
        );
        assert!(elo_to_score(pawns * k) > 0.5);
    }
}
