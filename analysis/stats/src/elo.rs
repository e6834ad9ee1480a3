//! Score ↔ Elo ↔ pawn conversions.
//!
//! Elo here is *logistic* Elo on the usual 400 scale: a player scoring `s`
//! per game against an opponent is `400·log10(s / (1 - s))` Elo stronger.
//! This is the scale of cutechess, fastchess, Ordo and fishtest's "logistic
//! Elo", so numbers are comparable with engine-testing practice.
//!
//! Pawns, and the uncertainty of the Elo a pawn is worth, are in
//! [`super::pawns`].

use std::f64::consts::LN_10;

use thiserror::Error;

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
pub(crate) fn elo_per_score_at(score: f64) -> Result<f64, EloError> {
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
}
