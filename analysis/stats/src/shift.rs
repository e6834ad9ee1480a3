//! Has a pair's difference moved between two studies? Each study's estimate
//! per piece with its standard error; the change and its test, Holm across
//! the pairs compared.
//!
//! Two studies of the same pairs (another engine, more nodes, other squares)
//! are independent samples, so the change `d = θ₂ - θ₁` has standard error
//! `sqrt(se₁² + se₂²)` and `z = d / se` is standard normal when nothing
//! moved. Intervals built for a verdict cannot be combined instead: under
//! the sequential design they sit at boundaries of z 3.5 to 4, and treating
//! their halves as 1.96 standard errors makes a change interval twice too
//! wide, so that "nothing moved" can hardly fail.
//!
//! The decision is taken in Elo per piece, which needs no pawn unit (the
//! unit may itself move between studies). Across the pairs compared, the
//! claims "moved" are Holm-corrected at α, and every interval of a change is
//! given at the Holm level in force once the procedure stops, so an interval
//! excludes 0 exactly when the pair is said to have moved. The same change
//! in pawns per piece (each study's own unit, delta-method errors) is given
//! beside it.
//!
//! A sequentially stopped pair's estimate leans away from the hypothesis its
//! deciding look rejected, by an amount that depends on the look; its
//! callers pass bias-adjusted estimates
//! ([`super::sequential::adjust`]) for such pairs, and the rate of "moved"
//! at no shift is checked on simulated pairs of sequential studies
//! (`stats::sequential::simulate`'s tests).

use super::equivalence::holm_bonferroni;
use super::estimate::{standard_normal_cdf, standard_normal_quantile};

/// One study's estimate: a value and its standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The value per piece, in the unit both studies share (Elo per piece
    /// for the decision, or pawns per piece).
    pub value: f64,
    /// Its standard error, same unit; usable only when finite and positive.
    pub std_error: f64,
}

impl Estimate {
    /// Whether both numbers are usable.
    pub fn is_usable(&self) -> bool {
        self.value.is_finite() && self.std_error.is_finite() && self.std_error > 0.0
    }
}

/// The change between two estimates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// Second minus first, in the estimates' unit.
    pub change: f64,
    /// Its standard error, `sqrt(se₁² + se₂²)` (the studies independent).
    pub std_error: f64,
    /// `change / std_error`: standard normal when nothing moved.
    pub z: f64,
    /// Two-sided p-value of "no change".
    pub p_value: f64,
}

impl Change {
    /// The change from `first` to `second` (`None` when either is unusable).
    pub fn between(first: Estimate, second: Estimate) -> Option<Self> {
        if !(first.is_usable() && second.is_usable()) {
            return None;
        }
        let change = second.value - first.value;
        let std_error = first.std_error.hypot(second.std_error);
        let z = change / std_error;
        Some(Self {
            change,
            std_error,
            z,
            p_value: (2.0 * standard_normal_cdf(-z.abs())).min(1.0),
        })
    }

    /// `change ± c·se` at two-sided level `1 - level`.
    pub fn interval(&self, level: f64) -> (f64, f64) {
        let c = standard_normal_quantile(1.0 - level / 2.0);
        (
            self.change - c * self.std_error,
            self.change + c * self.std_error,
        )
    }
}

/// Which changes of a family are claimed ("moved"), Holm-corrected at
/// `alpha`, and the level in force for their intervals (`alpha` divided by
/// the number of changes not claimed). `None` entries are not tested.
pub fn moved(changes: &[Option<Change>], alpha: f64) -> (Vec<bool>, f64) {
    let tested: Vec<usize> = (0..changes.len())
        .filter(|&i| changes[i].is_some())
        .collect();
    let p: Vec<f64> = tested
        .iter()
        .filter_map(|&i| changes[i].map(|c| c.p_value))
        .collect();
    let rejected = holm_bonferroni(&p, alpha).unwrap_or_else(|_| vec![false; p.len()]);
    let mut out = vec![false; changes.len()];
    for (&i, &r) in tested.iter().zip(&rejected) {
        out[i] = r;
    }
    let open = rejected.iter().filter(|&&r| !r).count().max(1);
    (out, alpha / open as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(value: f64, std_error: f64) -> Estimate {
        Estimate { value, std_error }
    }

    #[test]
    fn known_answers() {
        // 0.34 ± 0.06 against 0 ± 0.08: se 0.1, z 3.4, p 0.000674.
        let c = Change::between(est(0.0, 0.08), est(0.34, 0.06)).unwrap();
        assert!((c.std_error - 0.1).abs() < 1e-12);
        assert!((c.z - 3.4).abs() < 1e-12);
        assert!((c.p_value - 0.000_673_8).abs() < 1e-6, "{c:?}");
        let (lo, hi) = c.interval(0.05);
        assert!((lo - (0.34 - 0.195_996)).abs() < 1e-5 && hi > lo);
        assert!(Change::between(est(0.0, 0.0), est(1.0, 0.1)).is_none());
        assert!(Change::between(est(f64::NAN, 0.1), est(1.0, 0.1)).is_none());
    }

    #[test]
    fn holm_across_pairs_and_the_level_in_force() {
        let changes = [
            Change::between(est(0.0, 0.1), est(0.4, 0.1)), // z 2.83, p 0.0047
            Change::between(est(0.0, 0.1), est(0.3, 0.1)), // z 2.12, p 0.034
            None,
            Change::between(est(0.0, 0.1), est(0.05, 0.1)), // p 0.72
        ];
        let (moved, level) = moved(&changes, 0.05);
        // 0.0047 ≤ 0.05/3 ✓; 0.034 > 0.05/2 ✗: one claim, two open.
        assert_eq!(moved, [true, false, false, false]);
        assert!((level - 0.025).abs() < 1e-12);
        // The intervals at the level in force agree with the claims.
        for (c, m) in changes.iter().zip(&moved) {
            if let Some(c) = c {
                let (lo, hi) = c.interval(level);
                assert_eq!(lo > 0.0 || hi < 0.0, *m, "{c:?}");
            }
        }
    }
}
