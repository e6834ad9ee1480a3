//! The numbers printed beside a verdict, built from the tests that made it.
//!
//! A pair's verdict comes from two tests (see [`super::equivalence`] and
//! [`super::sequential`]): TOST against `±m` pawns per piece, with
//! Fieller's linear combination for the pawn unit, and the two-sided test
//! of equal strength on the **score scale**. Each test inverts into an
//! interval, and the interval printed beside a verdict is the inverted test
//! that made it, at the level the test was run at (the Holm level in force,
//! and under the sequential design the boundary of the look):
//!
//! * the **equivalence interval** (pawns per piece) holds every `θ` that
//!   neither one-sided test of TOST rejects at boundary `c_eq`: the Fieller
//!   interval, so it lies inside `(-m, m)` exactly when the pair is shown
//!   equivalent; its level is `1 - 2·L_eq`;
//! * the **difference interval** is the score interval `s ± c_diff·se`
//!   mapped to Elo, so it excludes 0 exactly when the pair is shown
//!   different; its level is `1 - L_diff`. In pawns per piece it is
//!   Fieller's interval with the Elo errors of that asymmetric interval
//!   (the lower half facing smaller values, the upper half larger), so it
//!   too excludes 0 exactly when the test rejects.
//!
//! A pawn size is given only where the unit resolves it at the level: the
//! unit's own lower bound at that boundary is at least half its estimate
//! ([`PawnUnit::resolves`]). Past that, a Fieller bound grows without limit
//! as the unit's lower bound nears zero (an interval of 0.30 to 425 pawns
//! says only that the unit is not yet measured), so the size in pawns is
//! reported as not yet known, and more calibration pairs resolve it.
//!
//! Both levels are at least `1 - 2α` and `1 - α` (the Holm level in force
//! is at most `α`), so each interval covers the truth at least that often
//! as a confidence interval, and under the sequential design whatever look
//! stopped the pair (a repeated confidence interval, Jennison and Turnbull
//! 2000, ch. 9).

use super::elo::score_to_elo;
use super::estimate::{Interval, standard_normal_quantile};
use super::pawns::PawnUnit;

/// What a pair's pairs say, with the boundaries of the tests in force.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VerdictInputs {
    /// A's mean score per game, 0..1.
    pub score: f64,
    /// Its standard error over pairs, on the score scale.
    pub score_std_error: f64,
    /// A minus B in Elo (the armies).
    pub elo: f64,
    /// The delta-method standard error of `elo`, in Elo.
    pub elo_std_error: f64,
    /// Pieces the armies exchange (per-piece figures divide by it).
    pub pieces: u32,
    /// The pawn unit the tests used.
    pub unit: PawnUnit,
    /// The level of each one-sided TOST test.
    pub equivalence_level: f64,
    /// Its boundary `c_eq`: the z each one-sided test must pass.
    pub equivalence_boundary: f64,
    /// The two-sided level of the difference test.
    pub difference_level: f64,
    /// Its boundary per side `c_diff`: the `|z|` (score scale) it must
    /// reach.
    pub difference_boundary: f64,
}

impl VerdictInputs {
    /// Fixed-sample boundaries (normal quantiles) at these levels.
    pub fn fixed_sample(self) -> Self {
        Self {
            equivalence_boundary: standard_normal_quantile(1.0 - self.equivalence_level),
            difference_boundary: standard_normal_quantile(1.0 - self.difference_level / 2.0),
            ..self
        }
    }
}

/// The figures beside one verdict; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VerdictNumbers {
    /// A minus B in Elo (the armies).
    pub elo: f64,
    /// The difference interval in Elo (the armies): `score ± c_diff·se`
    /// clipped to [0, 1] and mapped to Elo (±∞ at a clipped end), so it
    /// excludes 0 exactly when the pair is shown different.
    pub elo_interval: Interval,
    /// The difference interval's confidence level.
    pub difference_level: f64,
    /// A minus B in pawns per piece at the unit's estimate (NaN unless the
    /// unit is positive).
    pub pawns_per_piece: f64,
    /// The equivalence interval in pawns per piece (unbounded when the
    /// unit is not shown positive at its boundary).
    pub equivalence_interval: Interval,
    /// Its confidence level.
    pub equivalence_level: f64,
    /// The difference interval in pawns per piece, where the unit resolves
    /// it ([`PawnUnit::resolves`]); `None`: the size in pawns is not known.
    pub difference_pawns_interval: Option<Interval>,
}

impl VerdictNumbers {
    /// The figures of `inputs`.
    pub fn new(inputs: &VerdictInputs) -> Self {
        let n = f64::from(inputs.pieces.max(1));
        let (elo, se) = (inputs.elo / n, inputs.elo_std_error / n);
        let (c_eq, c_diff) = (inputs.equivalence_boundary, inputs.difference_boundary);
        let elo_interval = score_interval_in_elo(inputs.score, inputs.score_std_error, c_diff);
        let equivalence_interval = inputs.unit.interval_at(elo, se, c_eq);
        let difference_pawns_interval = inputs.unit.resolves(c_diff).then(|| {
            asymmetric_fieller(
                &inputs.unit,
                elo,
                (elo - elo_interval.lower / n) / c_diff,
                (elo_interval.upper / n - elo) / c_diff,
                c_diff,
            )
        });
        Self {
            elo: inputs.elo,
            elo_interval,
            difference_level: 1.0 - inputs.difference_level,
            pawns_per_piece: inputs.unit.to_pawns(elo),
            equivalence_interval,
            equivalence_level: 1.0 - 2.0 * inputs.equivalence_level,
            difference_pawns_interval,
        }
    }
}

/// `score ± c·se`, clipped to [0, 1], mapped to Elo (±∞ at the ends).
pub fn score_interval_in_elo(score: f64, score_std_error: f64, c: f64) -> Interval {
    let lo = (score - c * score_std_error).clamp(0.0, 1.0);
    let hi = (score + c * score_std_error).clamp(0.0, 1.0);
    Interval::new(
        score_to_elo(lo).unwrap_or(f64::NEG_INFINITY),
        score_to_elo(hi).unwrap_or(f64::INFINITY),
    )
}

/// Fieller's interval for `elo / k` at boundary `c`, with the Elo error
/// `below` for values under the estimate and `above` for values over it.
/// Each end solves `(elo - θk)² = c²(se² + θ²s_k²)` with its side's `se`,
/// so 0 lies outside exactly when `elo - c·below > 0` or
/// `elo + c·above < 0`. Unbounded where the unit is not shown positive at
/// `c`, or an error is not finite.
fn asymmetric_fieller(unit: &PawnUnit, elo: f64, below: f64, above: f64, c: f64) -> Interval {
    let unbounded = Interval::new(f64::NEG_INFINITY, f64::INFINITY);
    let (k, sk) = (unit.elo_per_pawn(), unit.std_error());
    let a = k * k - c * c * sk * sk;
    if !(a > 0.0 && elo.is_finite() && below.is_finite() && above.is_finite()) {
        return unbounded;
    }
    let root = |se: f64| c * (se * se * a + elo * elo * sk * sk).sqrt();
    Interval::new((elo * k - root(below)) / a, (elo * k + root(above)) / a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::elo_per_score_at;

    fn inputs(score: f64, se: f64, unit: PawnUnit, pieces: u32) -> VerdictInputs {
        let elo = score_to_elo(score).unwrap();
        VerdictInputs {
            score,
            score_std_error: se,
            elo,
            elo_std_error: se * elo_per_score_at(score).unwrap(),
            pieces,
            unit,
            equivalence_level: 0.05,
            equivalence_boundary: f64::NAN,
            difference_level: 0.05,
            difference_boundary: f64::NAN,
        }
        .fixed_sample()
    }

    #[test]
    fn levels_follow_the_boundaries() {
        let v = VerdictNumbers::new(&inputs(0.52, 0.01, PawnUnit::exact(100.0).unwrap(), 1));
        assert!((v.equivalence_level - 0.90).abs() < 1e-9);
        assert!((v.difference_level - 0.95).abs() < 1e-9);
    }

    /// The difference interval excludes 0 in Elo and in pawns exactly when
    /// the score-scale test rejects, across scores near its boundary; the
    /// Elo-scale (delta-method) interval would not.
    #[test]
    fn the_difference_interval_agrees_with_the_score_scale_test() {
        let unit = PawnUnit::estimated(120.0, 12.0).unwrap();
        let se = 0.04;
        let c = standard_normal_quantile(0.975);
        let mut disagreements_on_elo_scale = 0;
        for i in 0..400 {
            let score = 0.5 + c * se * (0.9 + 0.2 * f64::from(i) / 400.0);
            let x = inputs(score, se, unit, 2);
            let v = VerdictNumbers::new(&x);
            let rejects = (score - 0.5) / se >= c;
            assert_eq!(v.elo_interval.lower > 0.0, rejects, "score {score}");
            let pawns = v.difference_pawns_interval.unwrap();
            assert_eq!(pawns.lower > 0.0, rejects, "score {score}: {pawns:?}");
            assert!(pawns.contains(v.pawns_per_piece));
            disagreements_on_elo_scale +=
                usize::from((x.elo - c * x.elo_std_error > 0.0) != rejects);
        }
        assert!(
            disagreements_on_elo_scale > 0,
            "the scales differ near the boundary"
        );
    }

    /// The equivalence interval lies inside the margin exactly when both
    /// one-sided tests reject.
    #[test]
    fn the_equivalence_interval_is_the_tost_verdict() {
        let unit = PawnUnit::estimated(110.0, 15.0).unwrap();
        let m = 0.25;
        for i in 0..200 {
            let score = 0.47 + 0.06 * f64::from(i) / 200.0;
            let x = inputs(score, 0.012, unit, 2);
            let v = VerdictNumbers::new(&x);
            let (elo, se) = (x.elo / 2.0, x.elo_std_error / 2.0);
            let c = x.equivalence_boundary;
            let tost = unit.z_against(elo, se, m).unwrap() <= -c
                && unit.z_against(elo, se, -m).unwrap() >= c;
            let inside = -m < v.equivalence_interval.lower && v.equivalence_interval.upper < m;
            assert_eq!(inside, tost, "score {score}: {:?}", v.equivalence_interval);
        }
    }

    /// A unit barely shown positive gives no pawn size, rather than a
    /// bound in the hundreds.
    #[test]
    fn an_unresolved_unit_gives_no_pawn_size() {
        // k = 60 ± 25: positive at z = 1.96 (60 > 49) but its lower bound,
        // 11, is far below half the estimate.
        let weak = PawnUnit::estimated(60.0, 25.0).unwrap();
        let v = VerdictNumbers::new(&inputs(0.6, 0.02, weak, 2));
        assert_eq!(v.difference_pawns_interval, None);
        assert!(v.elo_interval.lower > 0.0);
        let firm = PawnUnit::estimated(60.0, 10.0).unwrap();
        let v = VerdictNumbers::new(&inputs(0.6, 0.02, firm, 2));
        let i = v.difference_pawns_interval.unwrap();
        assert!(i.upper < 3.0 * v.pawns_per_piece, "{i:?}");
        assert_eq!(
            VerdictNumbers::new(&inputs(0.6, 0.02, PawnUnit::Unknown, 1)).difference_pawns_interval,
            None
        );
    }
}
