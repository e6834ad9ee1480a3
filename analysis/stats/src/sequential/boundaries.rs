//! Group-sequential boundaries from an α-spending function.
//!
//! A test looked at `K` times, at information fractions
//! `0 < t₁ < … < t_K ≤ 1`, rejects at look `k` when its z-statistic
//! reaches `c_k`. Lan and DeMets (1983) choose the `c_k` so that the
//! probability of a first crossing at look `k` under the null is
//! `f(t_k) - f(t_{k-1})`, for a spending function `f` rising from
//! `f(0) = 0` to `f(1) = a`: the test's level is `a` whatever the number of
//! looks, and a look that never comes only leaves α unspent.
//!
//! Under the null the z-statistics of successive looks are those of a
//! Brownian motion `S(t)` read at the fractions (`Z_k = S(t_k)/√t_k`), the
//! canonical joint distribution of Jennison and Turnbull (2000, ch. 3).
//! The crossing probabilities are computed by the recursive numerical
//! integration of Armitage, McPherson and Rowe (1969) (Jennison and
//! Turnbull ch. 19): the sub-density of `S(t_k)` over paths that have not
//! crossed is carried from look to look on a grid (Simpson's rule), and
//! each `c_k` is found by bisection.
//!
//! References: K. K. G. Lan and D. L. DeMets, "Discrete sequential
//! boundaries for clinical trials", Biometrika 70 (1983) 659-663;
//! C. Jennison and B. W. Turnbull, *Group Sequential Methods with
//! Applications to Clinical Trials*, Chapman & Hall 2000.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::settings::Spending;

use super::super::estimate::{standard_normal_cdf, standard_normal_quantile};

/// Share of α the Haybittle-Peto-type spending gives the interim looks:
/// small, because every bit spent before the cap is missing there (5% cost
/// the class study a quarter of a percent of its decisions; O'Brien-
/// Fleming's spending, 1.6%), and large enough that a clear case stops at
/// the first looks.
pub const PETO_INTERIM_SHARE: f64 = 0.05;

/// The α a spending function has spent by an information fraction: the
/// math behind the names experiment files use
/// ([`Spending`]):
///
/// * `haybittle-peto` (the lab's default): the interim looks share
///   [`PETO_INTERIM_SHARE`] of α in proportion to information,
///   `f(t) = 0.05·a·t`, and the rest is spent at the cap (`f(1) = a`).
///   Interim boundaries are high (z ≈ 3.9 at α = 0.05 with 20 looks), so
///   clear cases stop early while a pair that needs every pair up to the
///   cap is tested there at almost the fixed design's level: on studies
///   shaped like the Pocket Mutation Chess class study it decides within a
///   quarter of a percent as many pairs as the fixed design (see README).
/// * `obrien-fleming`: `f(t) = 2 - 2Φ(z₁₋ₐ/₂ / √t)` (Lan-DeMets): nearly
///   nothing early, more in the middle; with many looks the last boundary
///   rises well above the fixed test's (1.85 for 20 looks at α = 0.05
///   one-sided), which costs decisions at the cap.
/// * `pocock`: `f(t) = a·ln(1 + (e - 1)·t)` (Lan-DeMets): about the same
///   boundary at every look, so clear cases stop soonest and hard ones
///   lose the most power at the cap.
pub trait SpendingFunction {
    /// α spent by information fraction `t` (clamped to [0, 1]) of a
    /// one-sided test at level `a`.
    fn spent(self, t: f64, a: f64) -> f64;
}

impl SpendingFunction for Spending {
    fn spent(self, t: f64, a: f64) -> f64 {
        let t = t.clamp(0.0, 1.0);
        if t <= 0.0 {
            return 0.0;
        }
        match self {
            Self::HaybittlePeto if t >= 1.0 - 1e-12 => a,
            Self::HaybittlePeto => PETO_INTERIM_SHARE * a * t,
            Self::OBrienFleming => {
                let z = -standard_normal_quantile(a / 2.0);
                2.0 * standard_normal_cdf(-z / t.sqrt())
            }
            Self::Pocock => a * (1.0 + (std::f64::consts::E - 1.0) * t).ln(),
        }
    }
}

/// Boundaries above this z are never crossed in practice: a look that
/// spends (almost) nothing gets it.
pub const NEVER: f64 = 40.0;

/// One-sided upper boundaries `c_k` (z scale) at level `a` for looks at
/// the increasing information fractions `fractions` (each in (0, 1]; the
/// last may fall short of 1, leaving α unspent). A look whose share of α
/// is negligible gets [`NEVER`].
pub fn upper_boundaries(spending: Spending, a: f64, fractions: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(fractions.len());
    // The sub-density of S over the continuation region, on a grid.
    let mut grid: Vec<f64> = Vec::new();
    let mut density: Vec<f64> = Vec::new();
    let mut weights: Vec<f64> = Vec::new();
    let mut previous = 0.0;
    for (k, &t) in fractions.iter().enumerate() {
        let dt = t - previous;
        assert!(
            dt > 0.0 && t <= 1.0 + 1e-12,
            "fractions must increase in (0, 1]"
        );
        let sd = dt.sqrt();
        let share = spending.spent(t, a) - spending.spent(previous, a);
        // P(first crossing here | boundary b on the S scale).
        let crossing = |b: f64| -> f64 {
            if k == 0 {
                standard_normal_cdf(-b / sd)
            } else {
                grid.iter()
                    .zip(&density)
                    .zip(&weights)
                    .map(|((&s, &f), &w)| w * f * standard_normal_cdf((s - b) / sd))
                    .sum()
            }
        };
        let root_t = t.sqrt();
        let c = if share <= 1e-300 || crossing(NEVER * root_t) >= share {
            NEVER
        } else {
            // Crossing falls as c rises: bisect on the z scale.
            let (mut lo, mut hi) = (-10.0, NEVER);
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if crossing(mid * root_t) > share {
                    lo = mid;
                } else {
                    hi = mid;
                }
                if hi - lo < 1e-10 {
                    break;
                }
            }
            hi
        };
        out.push(c);
        if k + 1 == fractions.len() {
            break;
        }
        // The new sub-density over S < c·√t (truncated where it is nil).
        let next_sd = (fractions[k + 1] - t).sqrt();
        let (lo, hi) = (-8.0 * root_t, c.min(8.0) * root_t);
        let step = sd.min(next_sd) / 8.0;
        let intervals = (((hi - lo) / step).ceil() as usize).clamp(16, 20_000);
        let intervals = intervals + intervals % 2;
        let h = (hi - lo) / intervals as f64;
        let new_grid: Vec<f64> = (0..=intervals).map(|i| lo + h * i as f64).collect();
        let new_weights: Vec<f64> = (0..=intervals)
            .map(|i| {
                let simpson = if i == 0 || i == intervals {
                    1.0
                } else if i % 2 == 1 {
                    4.0
                } else {
                    2.0
                };
                simpson * h / 3.0
            })
            .collect();
        let normal = |x: f64| (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let new_density: Vec<f64> = new_grid
            .iter()
            .map(|&x| {
                if k == 0 {
                    normal(x / sd) / sd
                } else {
                    // Only points within 9 sd contribute.
                    let from = grid.partition_point(|&s| s < x - 9.0 * sd);
                    let to = grid.partition_point(|&s| s <= x + 9.0 * sd);
                    (from..to)
                        .map(|i| weights[i] * density[i] * normal((x - grid[i]) / sd) / sd)
                        .sum()
                }
            })
            .collect();
        grid = new_grid;
        density = new_density;
        weights = new_weights;
        previous = t;
    }
    out
}

/// Boundaries for one look schedule at any level, computed once each.
#[derive(Debug)]
pub struct BoundaryTable {
    spending: Spending,
    fractions: Vec<f64>,
    cache: Mutex<HashMap<u64, Arc<Vec<f64>>>>,
}

impl BoundaryTable {
    /// A table for looks at `fractions` (increasing, in (0, 1]).
    pub fn new(spending: Spending, fractions: Vec<f64>) -> Self {
        Self {
            spending,
            fractions,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The spending function.
    pub fn spending(&self) -> Spending {
        self.spending
    }

    /// The information fractions of the looks.
    pub fn fractions(&self) -> &[f64] {
        &self.fractions
    }

    /// The one-sided boundary at `look` (0-based) of a test at level `a`.
    pub fn at(&self, a: f64, look: usize) -> f64 {
        self.all(a).get(look).copied().unwrap_or(NEVER)
    }

    /// Every look's one-sided boundary at level `a`.
    pub fn all(&self, a: f64) -> Arc<Vec<f64>> {
        let key = a.to_bits();
        // A poisoned lock only means another thread panicked mid-insert:
        // the map itself is still valid.
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(
            cache
                .entry(key)
                .or_insert_with(|| Arc::new(upper_boundaries(self.spending, a, &self.fractions))),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn equal(k: usize) -> Vec<f64> {
        (1..=k).map(|i| i as f64 / k as f64).collect()
    }

    #[test]
    fn spending_functions_end_at_alpha() {
        for s in Spending::ALL {
            assert!((s.spent(1.0, 0.05) - 0.05).abs() < 1e-9, "{s:?}");
            assert_eq!(s.spent(0.0, 0.05), 0.0);
            assert!(s.spent(0.5, 0.05) < 0.05);
        }
        // Haybittle-Peto type: 5% of α over the interim looks.
        assert!((Spending::HaybittlePeto.spent(0.5, 0.05) - 0.00125).abs() < 1e-15);
        // O'Brien-Fleming spends almost nothing early: 2Φ(-1.95996/√0.1).
        let early = Spending::OBrienFleming.spent(0.1, 0.05);
        assert!((early - 2.0 * standard_normal_cdf(-6.1979)).abs() < 1e-12);
    }

    /// Published boundaries (gsDesign, one-sided α = 0.025, five equally
    /// spaced looks): Lan-DeMets O'Brien-Fleming 4.8769, 3.3569, 2.6803,
    /// 2.2898, 2.0310; Pocock 2.4380, 2.4268, 2.4101, 2.3966, 2.3859.
    #[test]
    fn known_boundaries() {
        let obf = upper_boundaries(Spending::OBrienFleming, 0.025, &equal(5));
        for (c, want) in obf.iter().zip([4.8769, 3.3569, 2.6803, 2.2898, 2.0310]) {
            assert!((c - want).abs() < 2e-3, "{obf:?}");
        }
        let pocock = upper_boundaries(Spending::Pocock, 0.025, &equal(5));
        for (c, want) in pocock.iter().zip([2.4380, 2.4268, 2.4101, 2.3966, 2.3859]) {
            assert!((c - want).abs() < 2e-3, "{pocock:?}");
        }
        // One look is the fixed-sample test.
        let one = upper_boundaries(Spending::OBrienFleming, 0.05, &[1.0]);
        assert!((one[0] - 1.644_854).abs() < 1e-6);
    }

    /// The boundaries hold their level on simulated Brownian paths, for
    /// many unequal looks, and a schedule cut short spends less.
    #[test]
    fn boundaries_hold_their_level_by_simulation() {
        let fractions: Vec<f64> = (1..=25).map(|i| f64::from(i) * 20.0 / 500.0).collect();
        let table = BoundaryTable::new(Spending::OBrienFleming, fractions.clone());
        let c = table.all(0.05);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let runs = 40_000;
        let (mut crossed, mut crossed_early) = (0, 0);
        for _ in 0..runs {
            let (mut s, mut prev) = (0.0, 0.0);
            for (k, &t) in fractions.iter().enumerate() {
                let u1: f64 = rng.random::<f64>().max(1e-300);
                let u2: f64 = rng.random();
                let n = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
                s += n * (t - prev).sqrt();
                prev = t;
                if s / t.sqrt() >= c[k] {
                    crossed += 1;
                    if k < 12 {
                        crossed_early += 1;
                    }
                    break;
                }
            }
        }
        let rate = f64::from(crossed) / f64::from(runs);
        let early = f64::from(crossed_early) / f64::from(runs);
        let want_early = Spending::OBrienFleming.spent(fractions[11], 0.05);
        eprintln!(
            "O'Brien-Fleming, 25 looks: crosses {rate} (nominal 0.05), by look 12 {early} ({want_early})"
        );
        // ±3 simulation SDs (0.0011 at 40,000 runs).
        assert!((rate - 0.05).abs() < 0.0035, "{rate}");
        assert!(
            (early - want_early).abs() < 0.0025,
            "{early} vs {want_early}"
        );
        // The last boundary is above the fixed-sample 1.645, not far.
        assert!(c[24] > 1.645 && c[24] < 1.90, "{}", c[24]);
    }
}
