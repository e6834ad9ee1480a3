//! The design's settings and what one matchup's pairs say at a look.

use std::collections::HashMap;
use std::sync::Mutex;

use statrs::distribution::{ContinuousCDF, StudentsT};
use thiserror::Error;

use super::boundaries::{BoundaryTable, NEVER};
use super::settings::{SequentialStop, Spending, look_schedule};
use crate::elo::{elo_per_score_at, score_to_elo};
use crate::estimate::{ConfidenceLevel, standard_normal_cdf, standard_normal_quantile};
use crate::pawns::{PawnUnit, calibrate_from_pawn_odds};
use crate::pentanomial::Pentanomial;

/// Pair scores `0.0, 0.25, …, 1.0` by half points.
const PAIR_SCORE: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Small-sample guard: the per-pair variance is at least what a sample of
/// identical pairs would show with `PRIOR_PAIRS` pseudo-pairs of variance
/// `PRIOR_VARIANCE` (two independent decisive games at 50%) added,
/// `PRIOR_PAIRS·PRIOR_VARIANCE/(n + PRIOR_PAIRS)`. It keeps a handful of
/// identical pairs (all draws, all wins) from giving a zero standard error
/// and an infinite z at the first look; it only ever raises the variance
/// (a claim can only get harder), and is far below any real variance past
/// a few dozen pairs.
pub(crate) const PRIOR_PAIRS: f64 = 2.0;
pub(crate) const PRIOR_VARIANCE: f64 = 0.125;

/// Invalid design settings.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum DesignError {
    /// The margin is not finite and positive.
    #[error("the equivalence margin must be finite and positive, got {0} pawns")]
    Margin(f64),
    /// α outside (0, 0.5).
    #[error("alpha must lie in (0, 0.5), got {0}")]
    Alpha(f64),
    /// No pairs, or looks spaced by zero pairs.
    #[error("max_pairs and look_every must be at least 1 (got {max_pairs} and {look_every})")]
    Looks {
        /// The cap given: pairs per matchup at most.
        max_pairs: u64,
        /// The pairs given between looks.
        look_every: u64,
    },
    /// A calibration futility chance outside (0, 0.5).
    #[error("the calibration futility must lie in (0, 0.5), got {0}")]
    CalibrationFutility(f64),
}

/// A group-sequential equivalence design: looks at fixed pair counts, a
/// spending function, the margin in pawns per piece and the error rate.
#[derive(Debug)]
pub struct Design {
    margin_pawns: f64,
    alpha: f64,
    looks: Vec<u64>,
    table: BoundaryTable,
    calibration_futility: Option<f64>,
    /// Boundaries on the t scale by (level, look, pairs): the t quantile
    /// is an iterative computation, asked for at every look.
    on_t: Mutex<HashMap<(u64, usize, u64), f64>>,
}

impl Design {
    /// Looks every `look_every` pairs up to `max_pairs` (the last look at
    /// `max_pairs` exactly), α per claim (each one-sided test of TOST, the
    /// two-sided difference test), margin in pawns per piece.
    pub fn new(
        margin_pawns: f64,
        alpha: f64,
        spending: Spending,
        look_every: u64,
        max_pairs: u64,
    ) -> Result<Self, DesignError> {
        if !(margin_pawns.is_finite() && margin_pawns > 0.0) {
            return Err(DesignError::Margin(margin_pawns));
        }
        if !(alpha > 0.0 && alpha < 0.5) {
            return Err(DesignError::Alpha(alpha));
        }
        if max_pairs == 0 || look_every == 0 {
            return Err(DesignError::Looks {
                max_pairs,
                look_every,
            });
        }
        let looks = look_schedule(look_every, max_pairs);
        Ok(Self::with_looks(margin_pawns, alpha, spending, looks))
    }

    /// The design an experiment's `[stop]` describes.
    pub fn for_stop(stop: &SequentialStop) -> Result<Self, DesignError> {
        Self::new(
            stop.margin_pawns,
            stop.alpha,
            stop.spending,
            stop.look_every,
            stop.max_pairs,
        )?
        .with_calibration_futility(stop.calibration_futility)
    }

    /// The design with the calibration stopped once no undecided comparison
    /// has a chance above `gamma` of an equivalence verdict by its cap
    /// (`None`: it plays while any comparison is undecided); see
    /// [`LookEstimate::equivalence_chance`].
    pub fn with_calibration_futility(self, gamma: Option<f64>) -> Result<Self, DesignError> {
        match gamma {
            Some(g) if !(g > 0.0 && g < 0.5) => Err(DesignError::CalibrationFutility(g)),
            _ => Ok(Self {
                calibration_futility: gamma,
                ..self
            }),
        }
    }

    fn with_looks(margin_pawns: f64, alpha: f64, spending: Spending, looks: Vec<u64>) -> Self {
        let max_pairs = looks.last().copied().unwrap_or(1);
        let fractions = looks.iter().map(|&n| n as f64 / max_pairs as f64).collect();
        Self {
            margin_pawns,
            alpha,
            looks,
            table: BoundaryTable::new(spending, fractions),
            calibration_futility: None,
            on_t: Mutex::new(HashMap::new()),
        }
    }

    /// The calibration's futility chance, if it may stop before the last
    /// comparison does.
    pub fn calibration_futility(&self) -> Option<f64> {
        self.calibration_futility
    }

    /// The margin in pawns per piece.
    pub fn margin_pawns(&self) -> f64 {
        self.margin_pawns
    }

    /// α per claim (before Holm's division across a family).
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The spending function.
    pub fn spending(&self) -> Spending {
        self.table.spending()
    }

    /// Pairs per matchup at each look (0-based looks), increasing; the last
    /// is the cap.
    pub fn looks(&self) -> &[u64] {
        &self.looks
    }

    /// The per-matchup cap.
    pub fn max_pairs(&self) -> u64 {
        self.looks.last().copied().unwrap_or(0)
    }

    /// The one-sided boundary at `look` of a test at level `level`, for a
    /// statistic whose variance is estimated from `pairs` pairs: the
    /// normal boundary turned into the Student-t quantile (`pairs - 1`
    /// degrees of freedom) of the same tail probability. With a few dozen
    /// pairs an estimated variance gives tails a normal boundary
    /// understates (three times the error at 25 pairs and z = 3.3); from a
    /// few hundred on the two agree.
    pub fn boundary(&self, level: f64, look: usize, pairs: u64) -> f64 {
        // A poisoned lock only means a panic elsewhere mid-insert: the map
        // is still valid.
        let mut cache = self.on_t.lock().unwrap_or_else(|e| e.into_inner());
        *cache
            .entry((level.to_bits(), look, pairs))
            .or_insert_with(|| {
                on_t_scale(self.table.at(level, look), pairs.saturating_sub(1) as f64)
            })
    }

    /// The repeated confidence level at `look`: the level whose two-sided
    /// fixed-sample interval has the half-width of the design's α
    /// boundary there (`None` while the boundary is [`NEVER`]: unbounded).
    pub fn repeated_level(&self, look: usize, pairs: u64) -> Option<ConfidenceLevel> {
        let c = self.boundary(self.alpha / 2.0, look, pairs);
        if c >= NEVER {
            return None;
        }
        ConfidenceLevel::new(1.0 - 2.0 * standard_normal_cdf(-c)).ok()
    }
}

/// The Student-t quantile (`df` degrees of freedom) whose upper tail is
/// that of the standard normal beyond `z`.
fn on_t_scale(z: f64, df: f64) -> f64 {
    let tail = standard_normal_cdf(-z);
    if z >= NEVER || df < 1.0 || tail < 1e-250 {
        return z;
    }
    StudentsT::new(0.0, 1.0, df)
        .map(|t| -t.inverse_cdf(tail))
        .ok()
        .filter(|t| t.is_finite() && *t >= z)
        .unwrap_or(z)
}

/// What a matchup's pairs (or the calibration's) say at a look.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LookEstimate {
    /// Pairs behind it.
    pub pairs: u64,
    /// A's mean score per game.
    pub score: f64,
    /// Its standard error over pairs (with the small-sample guard).
    pub score_std_error: f64,
    /// A minus B in Elo (±∞ for a score of 1 or 0).
    pub elo: f64,
    /// The delta-method standard error of `elo`, in Elo (∞ for a score of
    /// 1 or 0).
    pub elo_std_error: f64,
}

impl LookEstimate {
    /// The estimate from pentanomial counts (`None` without pairs).
    pub fn from_counts(counts: &Pentanomial) -> Option<Self> {
        let n: u64 = counts.counts.iter().sum();
        if n == 0 {
            return None;
        }
        let nf = n as f64;
        let mean = counts
            .counts
            .iter()
            .zip(PAIR_SCORE)
            .map(|(&c, v)| c as f64 * v)
            .sum::<f64>()
            / nf;
        let mean = mean.clamp(0.0, 1.0);
        let observed = counts
            .counts
            .iter()
            .zip(PAIR_SCORE)
            .map(|(&c, v)| c as f64 * (v - mean).powi(2))
            .sum::<f64>()
            / nf;
        let floor = PRIOR_PAIRS * PRIOR_VARIANCE / (nf + PRIOR_PAIRS);
        let se = (observed.max(floor) / nf).sqrt();
        let elo = score_to_elo(mean).unwrap_or(f64::NAN);
        let slope = elo_per_score_at(mean).unwrap_or(f64::INFINITY);
        Some(Self {
            pairs: n,
            score: mean,
            score_std_error: se,
            elo,
            elo_std_error: se * slope,
        })
    }

    /// The z-statistic of "no difference" (a score of ½), on the score
    /// scale: the natural test of equal strength, and stronger than the
    /// Elo-scale Wald test at lopsided scores, where the delta method's
    /// Elo error balloons.
    pub fn difference_z(&self) -> f64 {
        (self.score - 0.5) / self.score_std_error
    }

    /// The two one-sided z-statistics of TOST against `±margin` pawns per
    /// piece under `unit` (Fieller's linear combination, see
    /// [`PawnUnit::z_against`]) for armies exchanging `pieces` pieces:
    /// `(at +margin, at -margin)`; equivalence needs the first low and the
    /// second high. `None` when the score is 0 or 1 or no unit exists.
    pub fn tost_z(&self, unit: &PawnUnit, pieces: u32, margin: f64) -> Option<(f64, f64)> {
        if !(self.elo.is_finite() && self.elo_std_error.is_finite()) {
            return None;
        }
        let n = f64::from(pieces.max(1));
        let (elo, se) = (self.elo / n, self.elo_std_error / n);
        Some((
            unit.z_against(elo, se, margin)?,
            unit.z_against(elo, se, -margin)?,
        ))
    }

    /// The chance that TOST shows equivalence at the cap, were the truth
    /// the most favourable to it: no difference at all, and a pawn worth
    /// the upper end of its one-sided `1 - γ` bound today (`γ` the
    /// calibration futility, in (0, 0.5)). The pairs still to come and
    /// the calibration's (`unit_pairs` so far, both to the cap) are drawn
    /// around that truth; the boundary is the last look's at level `α`,
    /// the most Holm can give. Both one-sided tests must pass, so the
    /// smaller of their chances bounds the verdict's.
    ///
    /// The calibration only serves equivalence verdicts: once this is below
    /// `γ` for every undecided comparison, more calibration pairs could
    /// only sharpen verdicts that are out of reach. Stopping it never
    /// raises an error rate (see the module docs); at a truth of no
    /// difference the chance of an equivalence verdict it costs is at most
    /// `γ`, since a conditional chance computed under the truth is a
    /// martingale. `None` when there is no unit or no finite Elo estimate.
    pub fn equivalence_chance(
        &self,
        design: &Design,
        gamma: f64,
        unit: &PawnUnit,
        unit_pairs: u64,
        pieces: u32,
    ) -> Option<f64> {
        let (k, sk) = match *unit {
            PawnUnit::Exact { elo_per_pawn } => (elo_per_pawn, 0.0),
            PawnUnit::Estimated {
                elo_per_pawn,
                std_error,
            } => (elo_per_pawn, std_error),
            PawnUnit::Unknown => return None,
        };
        if !(self.elo.is_finite() && self.elo_std_error.is_finite()) {
            return None;
        }
        let n = f64::from(pieces.max(1));
        let (elo, se) = (self.elo / n, self.elo_std_error / n);
        let m = design.margin_pawns();
        let cap = design.max_pairs();
        let c = design.boundary(design.alpha(), design.looks().len() - 1, cap);
        let cap = cap as f64;
        let now = (self.pairs as f64).min(cap);
        let calibrated = (unit_pairs as f64).clamp(1.0, cap);
        let k_best = k + standard_normal_quantile(1.0 - gamma) * sk;
        // At the cap: the comparison's Elo averages today's with new pairs
        // centred on 0, the unit today's with new pairs centred on k_best.
        let elo_mean = elo * now / cap;
        let elo_var = se * se * now * (cap - now) / (cap * cap);
        let k_mean = (k * calibrated + k_best * (cap - calibrated)) / cap;
        let k_var = sk * sk * calibrated * (cap - calibrated) / (cap * cap);
        let sd_at_cap = (se * se * now / cap + (m * sk).powi(2) * calibrated / cap).sqrt();
        let spread = (elo_var + m * m * k_var).sqrt();
        // Upper test: elo - m·k ≤ -c·sd; lower: elo + m·k ≥ c·sd.
        let upper = -c * sd_at_cap - (elo_mean - m * k_mean);
        let lower = (elo_mean + m * k_mean) - c * sd_at_cap;
        let chance = |margin_left: f64| {
            if spread > 0.0 {
                standard_normal_cdf(margin_left / spread)
            } else if margin_left >= 0.0 {
                1.0
            } else {
                0.0
            }
        };
        Some(chance(upper).min(chance(lower)))
    }

    /// The pawn unit a pawn-odds matchup's estimate gives (the side with
    /// more pawns is A when `a_has_more`), with its error; `Unknown` when
    /// none can be had (a one-sided score).
    pub fn pawn_unit(&self, pawns: f64, a_has_more: bool) -> PawnUnit {
        let score = if a_has_more {
            self.score
        } else {
            1.0 - self.score
        };
        calibrate_from_pawn_odds(
            score,
            self.score_std_error,
            pawns,
            ConfidenceLevel::NINETY_FIVE,
        )
        .map_or(PawnUnit::Unknown, |odds| odds.unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_designs_are_refused() {
        assert!(Design::new(0.25, 0.05, Spending::Pocock, 0, 10).is_err());
        assert!(Design::new(0.0, 0.05, Spending::Pocock, 1, 10).is_err());
        assert!(Design::new(0.25, 0.5, Spending::Pocock, 1, 10).is_err());
        let d = || Design::new(0.25, 0.05, Spending::Pocock, 1, 10).unwrap();
        for gamma in [0.0, 0.5, f64::NAN] {
            assert!(d().with_calibration_futility(Some(gamma)).is_err());
        }
        assert_eq!(
            d().with_calibration_futility(Some(0.1))
                .unwrap()
                .calibration_futility(),
            Some(0.1)
        );
    }

    #[test]
    fn boundaries_on_the_t_scale() {
        // t with 24 degrees of freedom beyond 3.7454 has the normal's tail
        // beyond 3.2905 (5e-4).
        let t = on_t_scale(3.290_527, 24.0);
        assert!((t - 3.7454).abs() < 2e-3, "{t}");
        // Many pairs: the normal boundary.
        assert!((on_t_scale(1.959_964, 1e6) - 1.959_964).abs() < 1e-4);
        assert_eq!(on_t_scale(NEVER, 10.0), NEVER);
    }

    #[test]
    fn estimate_known_answers_and_guard() {
        // 100 pairs [2, 10, 50, 28, 10]: mean 0.585, variance 0.046525
        // (the guard's 0.25/102 is far below).
        let e = LookEstimate::from_counts(&Pentanomial::new([2, 10, 50, 28, 10])).unwrap();
        assert!((e.score - 0.585).abs() < 1e-12);
        let se = (0.046_525 / 100.0f64).sqrt();
        assert!((e.score_std_error - se).abs() < 1e-6, "{e:?}");
        assert!((e.difference_z() - 0.085 / se).abs() < 1e-3);
        // Ten drawn pairs: no zero error.
        let draws = LookEstimate::from_counts(&Pentanomial::new([0, 0, 10, 0, 0])).unwrap();
        assert!((draws.score_std_error - (0.25f64 / 12.0 / 10.0).sqrt()).abs() < 1e-12);
        assert_eq!(draws.difference_z(), 0.0);
        // All won: a finite difference z, no TOST.
        let won = LookEstimate::from_counts(&Pentanomial::new([0, 0, 0, 0, 10])).unwrap();
        assert!(won.difference_z().is_finite() && won.difference_z() > 10.0);
        assert!(won.elo.is_infinite());
        assert_eq!(won.tost_z(&PawnUnit::muller(), 1, 0.25), None);
        assert!(LookEstimate::from_counts(&Pentanomial::default()).is_none());
    }
}
