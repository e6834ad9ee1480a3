//! Score ↔ Elo ↔ pawn conversions.
//!
//! Elo here is *logistic* Elo on the usual 400 scale: a player scoring `s`
//! per game against an opponent is `400·log10(s / (1 - s))` Elo stronger.
//! This is the scale of cutechess, fastchess, Ordo and fishtest's "logistic
//! Elo", so numbers are comparable with engine-testing practice.
//!
//! Piece values are easier to read in pawns. H. G. Muller's piece-value
//! experiments express an advantage by its effect on the score: around an
//! even position a pawn is worth roughly 15% of score, i.e. pawn odds score
//! about 65%. A [`PawnCalibration`] fixes the Elo value of one pawn, either
//! from such a rule of thumb or, better, from a measured pawn-odds match
//! ([`calibrate_from_pawn_odds`]), whose uncertainty is carried along.

use std::f64::consts::LN_10;

use thiserror::Error;

use super::estimate::{ConfidenceLevel, Interval};

/// The logistic Elo scale: 400 points = a factor of 10 in odds.
pub const ELO_SCALE: f64 = 400.0;

/// Invalid input to an Elo conversion.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum EloError {
    /// A score outside `[0, 1]` or NaN.
    #[error("score must lie in [0, 1], got {0}")]
    ScoreOutOfRange(f64),
    /// A standard error that is negative or not finite.
    #[error("standard error must be finite and non-negative, got {0}")]
    InvalidStdError(f64),
    /// A calibration value that is not a finite positive number.
    #[error("calibration must be finite and positive, got {0}")]
    InvalidCalibration(f64),
    /// A pawn-odds match where the side with more material did not score
    /// above 50%: no positive Elo-per-pawn factor can be derived from it.
    #[error("pawn-odds score {0} is not above 0.5; cannot calibrate")]
    NoMaterialAdvantage(f64),
}

/// Expected score of a player `elo` points stronger (logistic model).
/// NaN maps to NaN; ±∞ map to 1 and 0.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / ELO_SCALE))
}

/// Logistic Elo difference implied by a per-game score.
///
/// A score of exactly 1 (or 0) gives `+∞` (or `-∞`): no finite Elo explains
/// a perfect result, and callers should report it as such.
pub fn score_to_elo(score: f64) -> Result<f64, EloError> {
    check_score(score)?;
    Ok(ELO_SCALE * (score / (1.0 - score)).log10())
}

/// `dElo/dscore` at `score`: `400 / (ln 10 · s · (1 - s))`. Multiplying a
/// score standard error by this gives the delta-method Elo standard error.
/// Infinite at 0 and 1.
pub fn elo_per_score_at(score: f64) -> Result<f64, EloError> {
    check_score(score)?;
    Ok(ELO_SCALE / (LN_10 * score * (1.0 - score)))
}

fn check_score(score: f64) -> Result<(), EloError> {
    if (0.0..=1.0).contains(&score) {
        Ok(())
    } else {
        Err(EloError::ScoreOutOfRange(score))
    }
}

/// How many Elo one pawn of material is worth in the variant being studied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PawnCalibration {
    elo_per_pawn: f64,
}

impl PawnCalibration {
    /// Muller's rule of thumb: one pawn ≈ 15% of score around 50%.
    pub const MULLER_SCORE_PER_PAWN: f64 = 0.15;

    /// A calibration stating the Elo value of one pawn directly.
    pub fn from_elo_per_pawn(elo_per_pawn: f64) -> Result<Self, EloError> {
        if elo_per_pawn.is_finite() && elo_per_pawn > 0.0 {
            Ok(Self { elo_per_pawn })
        } else {
            Err(EloError::InvalidCalibration(elo_per_pawn))
        }
    }

    /// A calibration stating the score gained by one extra pawn between
    /// equal sides: a pawn is worth `score_to_elo(0.5 + score_per_pawn)` Elo.
    /// `score_per_pawn` must lie in the open interval (0, 0.5).
    pub fn from_score_per_pawn(score_per_pawn: f64) -> Result<Self, EloError> {
        if !(score_per_pawn > 0.0 && score_per_pawn < 0.5) {
            return Err(EloError::InvalidCalibration(score_per_pawn));
        }
        Self::from_elo_per_pawn(score_to_elo(0.5 + score_per_pawn)?)
    }

    /// Muller's default (15% score per pawn ≈ 107.5 Elo per pawn).
    pub fn muller_default() -> Self {
        let elo = ELO_SCALE * (0.65f64 / 0.35).log10();
        Self { elo_per_pawn: elo }
    }

    /// Elo value of one pawn.
    pub fn elo_per_pawn(&self) -> f64 {
        self.elo_per_pawn
    }

    /// Converts an Elo difference to pawns.
    pub fn elo_to_pawns(&self, elo: f64) -> f64 {
        elo / self.elo_per_pawn
    }

    /// Converts a material difference in pawns to Elo.
    pub fn pawns_to_elo(&self, pawns: f64) -> f64 {
        pawns * self.elo_per_pawn
    }
}

impl Default for PawnCalibration {
    fn default() -> Self {
        Self::muller_default()
    }
}

/// A calibration measured from a pawn-odds match, with its uncertainty.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CalibrationEstimate {
    /// The point calibration.
    pub calibration: PawnCalibration,
    /// Delta-method standard error of the Elo-per-pawn factor.
    pub std_error: f64,
    /// Interval for Elo per pawn, obtained by mapping the score interval's
    /// ends through score→Elo and dividing by the pawns given (so it is
    /// asymmetric; the lower end may be ≤ 0 and the upper end `+∞`).
    pub interval: Interval,
    /// Level of `interval`.
    pub level: ConfidenceLevel,
}

impl CalibrationEstimate {
    /// Converts an Elo estimate with standard error into pawns, propagating
    /// both its error and the calibration's (first-order delta method,
    /// independent errors): `var(p) = var(e)/k² + e²·var(k)/k⁴`.
    /// Returns `(pawns, std_error)`.
    pub fn elo_to_pawns(&self, elo: f64, elo_std_error: f64) -> (f64, f64) {
        let k = self.calibration.elo_per_pawn;
        let pawns = elo / k;
        let var = (elo_std_error / k).powi(2) + (elo * self.std_error / (k * k)).powi(2);
        (pawns, var.sqrt())
    }
}

/// Derives Elo per pawn from a measured pawn-odds result.
///
/// `score` is the per-game score of the side *given* `pawns` extra pawns
/// (e.g. 0.66 over a few thousand games at one pawn odds), with standard
/// error `score_std_error` (from a trinomial or pentanomial summary). The
/// factor is `score_to_elo(score) / pawns`; its interval maps the score
/// interval `score ± z·se` (clipped to `[0, 1]`) through the same function,
/// and its standard error is the delta-method one.
pub fn calibrate_from_pawn_odds(
    score: f64,
    score_std_error: f64,
    pawns: f64,
    level: ConfidenceLevel,
) -> Result<CalibrationEstimate, EloError> {
    check_score(score)?;
    if !(score_std_error.is_finite() && score_std_error >= 0.0) {
        return Err(EloError::InvalidStdError(score_std_error));
    }
    if !(pawns.is_finite() && pawns > 0.0) {
        return Err(EloError::InvalidCalibration(pawns));
    }
    if score <= 0.5 || score >= 1.0 {
        return Err(EloError::NoMaterialAdvantage(score));
    }
    let elo_per_pawn = score_to_elo(score)? / pawns;
    let calibration = PawnCalibration::from_elo_per_pawn(elo_per_pawn)?;
    let std_error = score_std_error * elo_per_score_at(score)? / pawns;
    let half = level.z() * score_std_error;
    let lo = score_to_elo((score - half).max(0.0))? / pawns;
    let hi = score_to_elo((score + half).min(1.0))? / pawns;
    Ok(CalibrationEstimate {
        calibration,
        std_error,
        interval: Interval::new(lo, hi),
        level,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_score_elo_pairs() {
        // 10^(1/2) odds: s = sqrt(10)/(1+sqrt(10)) = 0.759747 <-> 200 Elo.
        assert!((elo_to_score(200.0) - 0.759_746_9).abs() < 1e-6);
        assert!((score_to_elo(0.759_746_9).unwrap() - 200.0).abs() < 1e-3);
        // 3:1 odds: 400*log10(3) = 190.848.
        assert!((score_to_elo(0.75).unwrap() - 190.848).abs() < 1e-3);
        assert_eq!(score_to_elo(0.5).unwrap(), 0.0);
        assert_eq!(score_to_elo(1.0).unwrap(), f64::INFINITY);
        assert_eq!(score_to_elo(0.0).unwrap(), f64::NEG_INFINITY);
        assert!(score_to_elo(1.2).is_err());
        assert!(score_to_elo(f64::NAN).is_err());
        // Slope at 0.5: 1600 / ln 10 = 694.871.
        assert!((elo_per_score_at(0.5).unwrap() - 694.871_17).abs() < 1e-4);
    }

    #[test]
    fn round_trip_is_identity() {
        for i in -20..=20 {
            let elo = f64::from(i) * 37.5;
            let back = score_to_elo(elo_to_score(elo)).unwrap();
            assert!((back - elo).abs() < 1e-9, "{elo} -> {back}");
        }
    }

    #[test]
    fn muller_calibration_is_about_107_elo() {
        let cal = PawnCalibration::muller_default();
        // 400*log10(0.65/0.35) = 107.54.
        assert!((cal.elo_per_pawn() - 107.54).abs() < 0.01);
        let same = PawnCalibration::from_score_per_pawn(0.15).unwrap();
        assert!((same.elo_per_pawn() - cal.elo_per_pawn()).abs() < 1e-9);
        assert!((cal.elo_to_pawns(cal.pawns_to_elo(0.25)) - 0.25).abs() < 1e-12);
        assert!(PawnCalibration::from_score_per_pawn(0.5).is_err());
        assert!(PawnCalibration::from_elo_per_pawn(-3.0).is_err());
        assert!(PawnCalibration::from_elo_per_pawn(f64::NAN).is_err());
    }

    #[test]
    fn pawn_odds_calibration_propagates_interval() {
        // Two pawns odds scoring 0.75 ± 0.01: 190.85/2 = 95.42 Elo per pawn.
        let est = calibrate_from_pawn_odds(0.75, 0.01, 2.0, ConfidenceLevel::NINETY_FIVE).unwrap();
        assert!((est.calibration.elo_per_pawn() - 95.424).abs() < 1e-3);
        // Interval ends: Elo(0.75 ∓ 1.96·0.01)/2.
        let lo = score_to_elo(0.75 - 0.019_599_64).unwrap() / 2.0;
        let hi = score_to_elo(0.75 + 0.019_599_64).unwrap() / 2.0;
        assert!((est.interval.lower - lo).abs() < 1e-3);
        assert!((est.interval.upper - hi).abs() < 1e-3);
        assert!(est.interval.contains(est.calibration.elo_per_pawn()));
        // Delta method: 0.01 * 400/(ln10*0.1875) / 2 = 4.632.
        assert!((est.std_error - 4.632).abs() < 1e-3);
        // Converting 50 ± 10 Elo into pawns carries both errors.
        let (p, se) = est.elo_to_pawns(50.0, 10.0);
        assert!((p - 50.0 / 95.424).abs() < 1e-4);
        assert!(se > 10.0 / 95.424);
    }

    #[test]
    fn pawn_odds_rejects_bad_input() {
        let l = ConfidenceLevel::NINETY_FIVE;
        assert_eq!(
            calibrate_from_pawn_odds(0.45, 0.01, 1.0, l),
            Err(EloError::NoMaterialAdvantage(0.45))
        );
        assert!(calibrate_from_pawn_odds(1.0, 0.0, 1.0, l).is_err());
        assert!(calibrate_from_pawn_odds(0.6, -1.0, 1.0, l).is_err());
        assert!(calibrate_from_pawn_odds(0.6, 0.01, 0.0, l).is_err());
        assert!(calibrate_from_pawn_odds(f64::NAN, 0.01, 1.0, l).is_err());
    }
}
