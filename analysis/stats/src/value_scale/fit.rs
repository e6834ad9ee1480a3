//! One weighted least-squares fit of every piece's value, with the full
//! covariance, and the figures in pawns it supports.

use statrs::distribution::{ChiSquared, ContinuousCDF, StudentsT};
use thiserror::Error;

use super::{PieceRef, ScaleMatchup};
use crate::elo::{elo_per_score_at, elo_to_score, score_to_elo};
use crate::estimate::{ConfidenceLevel, Interval};
use crate::linalg::Cholesky;
use crate::pawns::PawnUnit;
use crate::sequential::design::{PRIOR_PAIRS, PRIOR_VARIANCE};

/// Pair scores per game by half points.
const PAIR_SCORE: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Settings of [`fit_scale`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScaleOptions {
    /// The pawn's index: its value is the unit of the pawn scale.
    pub pawn: usize,
    /// Level of every interval.
    pub level: ConfidenceLevel,
}

impl ScaleOptions {
    /// 95% intervals, with `pawn` as the unit.
    pub fn new(pawn: usize) -> Self {
        Self {
            pawn,
            level: ConfidenceLevel::NINETY_FIVE,
        }
    }
}

/// Why a set of matchups cannot be fitted.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum ScaleError {
    /// Zero pieces.
    #[error("no pieces to value")]
    NoPieces,
    /// The pawn's index is not a piece.
    #[error("the pawn is piece {pawn}, but there are {pieces} pieces")]
    PawnOutOfRange {
        /// The pawn's index.
        pawn: usize,
        /// Number of pieces.
        pieces: usize,
    },
    /// A matchup names a piece that does not exist.
    #[error("matchup {matchup} names piece {index}, but there are {pieces} pieces")]
    PieceOutOfRange {
        /// The matchup's position in the list.
        matchup: usize,
        /// The offending index.
        index: usize,
        /// Number of pieces.
        pieces: usize,
    },
    /// A matchup with the same piece (or the empty square) on both sides
    /// measures nothing.
    #[error("matchup {0} has the same piece on both sides: it measures nothing")]
    SameSides(usize),
    /// A matchup's pair counts overflow `u64`.
    #[error("matchup {0}: the pair counts overflow u64")]
    Overflow(usize),
    /// The reweighting did not settle (seen only with extreme inputs).
    #[error("the weights did not settle in {0} iterations")]
    NotConverged(usize),
    /// The information matrix is not positive definite (it always is for
    /// positive weights on a graph joined to `Nothing`; seen only with
    /// extreme or non-finite inputs).
    #[error("the information matrix is singular")]
    Singular,
}

/// Why a piece has no value on the scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoValue {
    /// The piece is in no played matchup.
    NotPlayed,
    /// The piece is played, but no chain of played matchups joins it to
    /// `Nothing`: its matchups fix differences to other pieces, not a level.
    Disconnected,
}

/// What one matchup's pairs say, before the fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchupEstimate {
    /// Pairs played.
    pub pairs: u64,
    /// Army A's observed mean score per game.
    pub score: f64,
    /// `v(a) - v(b)`, logistic Elo, from the score (a perfect score
    /// counted as one pair short of it by half a point; see the module
    /// documentation).
    pub elo: f64,
    /// Its delta-method standard error at the observed score (pair
    /// variance floored).
    pub std_error: f64,
    /// Its sampling standard error at the fitted difference: the same
    /// pair variance, with the binomial part and the score-to-Elo slope
    /// at `v_a - v_b` (the fit weighs the matchup by the inverse of its
    /// square plus [`Consistency::departure_variance`]).
    pub fitted_std_error: f64,
    /// Whether the fit used it (both sides joined to `Nothing`).
    pub used: bool,
    /// The matchup's Pearson residual under one additive scale: its
    /// observed score less the score of `v_a - v_b`, over the score's
    /// sampling standard error there (`None` when unused). Beyond ±3 it
    /// disagrees with the rest of the graph.
    pub standardized_residual: Option<f64>,
}

/// A figure in pawns: a ratio to the pawn's value, with Fieller's interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pawns {
    /// The unit is shown positive at the interval's boundary: the estimate
    /// and its (bounded) interval.
    Bounded {
        /// The ratio at the estimates.
        pawns: f64,
        /// Fieller's interval at the fit's level.
        interval: Interval,
    },
    /// The pawn's value is not shown positive at the interval's boundary:
    /// Fieller's confidence set is unbounded and no size in pawns is
    /// supported.
    Unbounded,
    /// The pawn itself has no value: there is no unit.
    NoUnit,
}

impl Pawns {
    /// The interval (`-∞..∞` unless bounded).
    pub fn interval(&self) -> Interval {
        match *self {
            Self::Bounded { interval, .. } => interval,
            _ => Interval::new(f64::NEG_INFINITY, f64::INFINITY),
        }
    }

    /// Half the interval's width (∞ unless bounded): the precision a plan
    /// targets.
    pub fn half_width(&self) -> f64 {
        self.interval().width() / 2.0
    }

    /// The estimate, if bounded.
    pub fn estimate(&self) -> Option<f64> {
        match *self {
            Self::Bounded { pawns, .. } => Some(pawns),
            _ => None,
        }
    }
}

/// One piece's place on the scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PieceValue {
    /// Value in logistic Elo (the empty square is 0).
    pub elo: f64,
    /// Its standard error.
    pub std_error: f64,
    /// Welch–Satterthwaite degrees of freedom of the estimate (the pair
    /// variances it rests on are estimated).
    pub degrees_of_freedom: f64,
    /// `elo ± t·std_error` (Student's t with those degrees of freedom).
    pub elo_interval: Interval,
    /// The value in pawns.
    pub pawns: Pawns,
}

/// The pawn's value as the unit of the scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitEstimate {
    /// Elo per pawn.
    pub elo: f64,
    /// Its standard error.
    pub std_error: f64,
    /// Welch–Satterthwaite degrees of freedom of the estimate.
    pub degrees_of_freedom: f64,
    /// `elo ± t·std_error`.
    pub interval: Interval,
    /// Half-width over value (`t·se / elo`; ∞ unless the value is
    /// positive): every figure in pawns is at best this precise.
    pub relative_precision: f64,
    /// Whether the value is shown positive at the level
    /// (`elo > t·std_error`): without it no figure in pawns exists.
    pub shown_positive: bool,
}

/// Whether the matchups agree with one additive scale, and how far they
/// depart from it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Consistency {
    /// Pearson's statistic of the fit on one additive scale: the sum of
    /// the squared [`MatchupEstimate::standardized_residual`]s.
    pub chi_square: f64,
    /// Used matchups minus valued pieces.
    pub degrees_of_freedom: usize,
    /// Chance of a statistic this large if the scale is additive (small:
    /// some substitution is not worth the difference of the two values,
    /// e.g. a piece whose worth depends on the square or the army).
    pub p_value: f64,
    /// The variance, Elo², of a matchup's departure from the difference
    /// of its two values beyond chance (Paule–Mandel; 0 when the
    /// statistic is at most its degrees of freedom). Every value's
    /// covariance includes it: a departure is not averaged away by more
    /// pairs of the same matchup, only by more matchups. The pawn's own
    /// odds carry none: they define the unit.
    pub departure_variance: f64,
    /// The lower end of a 95% interval for `departure_variance` (the
    /// Q-profile: the variance at which Pearson's statistic equals its
    /// upper 2.5% point; 0 when the additive fit's is below it).
    pub departure_variance_lower: f64,
}

impl Consistency {
    /// The standard deviation of a matchup's departure, Elo.
    pub fn departure(&self) -> f64 {
        self.departure_variance.sqrt()
    }
}

/// The difference of two values (or a value and the empty square).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScaleDifference {
    /// `v(first) - v(second)` in Elo.
    pub elo: f64,
    /// Its standard error, covariance included.
    pub std_error: f64,
    /// Welch–Satterthwaite degrees of freedom of the estimate.
    pub degrees_of_freedom: f64,
    /// `elo ± t·std_error`.
    pub elo_interval: Interval,
    /// The difference in pawns (Fieller, covariances with the unit
    /// included).
    pub pawns: Pawns,
}

/// Two neighbours on the scale and their difference.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdjacentDifference {
    /// The lower piece.
    pub lower: usize,
    /// The next piece up.
    pub upper: usize,
    /// `v(upper) - v(lower)`.
    pub difference: ScaleDifference,
}

/// Every piece's value from one fit; see the module documentation.
#[derive(Debug, Clone, PartialEq)]
pub struct ScaleFit {
    /// Per piece, its value or why it has none.
    pub values: Vec<Result<PieceValue, NoValue>>,
    /// The pawn's value as the unit, or why it has none.
    pub unit: Result<UnitEstimate, NoValue>,
    /// Per matchup (same order as given), what its pairs say (`None`: no
    /// pairs yet).
    pub matchups: Vec<Option<MatchupEstimate>>,
    /// The residual check (`None` with no more matchups than values).
    pub consistency: Option<Consistency>,
    /// The pawn's index.
    pub pawn: usize,
    /// Level of every interval.
    pub level: ConfidenceLevel,
    /// Position of each piece among the valued ones.
    pub(super) index: Vec<Option<usize>>,
    /// Covariance of the valued pieces, row-major, Elo².
    pub(super) covariance: Vec<f64>,
    /// Values of the valued pieces, Elo.
    pub(super) estimates: Vec<f64>,
    /// The used matchups as the fit weighs them.
    pub(super) rows: Vec<Row>,
    /// The departure variance in every row's weight (Elo²).
    pub(super) departure_variance: f64,
    /// Degrees of freedom of the departure variance's estimate.
    pub(super) departure_df: f64,
}

/// One used matchup in the fit: its sides' positions among the valued
/// pieces (`None` for the empty square), its sampling variance (Elo², at
/// the fitted difference) and that variance's degrees of freedom; the fit
/// weighs it by `1 / (sampling + departure variance)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Row {
    pub(super) a: Option<usize>,
    pub(super) b: Option<usize>,
    pub(super) sampling: f64,
    pub(super) df: f64,
    /// Whether the departure variance enters its weight (not for the
    /// pawn's own odds, which define the unit).
    pub(super) departs: bool,
}

impl Row {
    /// The departure variance in this row's variance.
    fn departure(&self, tau2: f64) -> f64 {
        if self.departs { tau2 } else { 0.0 }
    }
}

/// A linear combination of the values, as reported.
struct Figure {
    elo: f64,
    std_error: f64,
    degrees_of_freedom: f64,
    elo_interval: Interval,
    pawns: Pawns,
}

impl ScaleFit {
    /// Number of pieces (valued or not).
    pub fn pieces(&self) -> usize {
        self.values.len()
    }

    /// Pieces with a value.
    pub fn valued(&self) -> usize {
        self.estimates.len()
    }

    /// The value of `r` in Elo (0 for the empty square).
    pub fn elo(&self, r: PieceRef) -> Result<f64, NoValue> {
        match r {
            PieceRef::Nothing => Ok(0.0),
            PieceRef::Piece(i) => self.value(i).map(|v| v.elo),
        }
    }

    /// Covariance of the values of `a` and `b`, Elo² (0 with the empty
    /// square).
    pub fn covariance(&self, a: PieceRef, b: PieceRef) -> Result<f64, NoValue> {
        let (Some(i), Some(j)) = (self.slot(a)?, self.slot(b)?) else {
            return Ok(0.0);
        };
        Ok(self.covariance[i * self.valued() + j])
    }

    /// The half-width in pawns, at the fit's level, below which no number
    /// of pairs of the played matchups can narrow `v(a) - v(b)`: every
    /// matchup's sampling error gone, its departure left (the unit then
    /// exact; the delta method, Student's t on the residual degrees of
    /// freedom). `None` without departures (more pairs narrow every
    /// interval towards 0), without a unit, or for a piece without a value.
    pub fn departure_floor(&self, a: PieceRef, b: PieceRef) -> Option<f64> {
        self.floor_at(a, b, self.departure_variance)
    }

    /// [`Self::departure_floor`] at the lower end of the departure
    /// variance's 95% interval: a floor the departures leave with 95%
    /// confidence. `None` when that end is 0.
    pub fn departure_floor_lower(&self, a: PieceRef, b: PieceRef) -> Option<f64> {
        let lower = self.consistency.map_or(0.0, |c| c.departure_variance_lower);
        self.floor_at(a, b, lower)
    }

    /// The floor of `v(a) - v(b)` in pawns were the departure variance
    /// `tau2`.
    fn floor_at(&self, a: PieceRef, b: PieceRef, tau2: f64) -> Option<f64> {
        let (Some(u), Ok(unit)) = (self.index[self.pawn], self.unit) else {
            return None;
        };
        if !(tau2 > 0.0 && unit.elo > 0.0) {
            return None;
        }
        let k = self.valued();
        let mut info = vec![0.0; k * k];
        for r in &self.rows {
            // A row without a departure is exact once its pairs are many.
            let w = if r.departs {
                1.0 / tau2
            } else {
                1e9 / r.sampling
            };
            for (p, sp) in [(r.a, 1.0), (r.b, -1.0)] {
                let Some(p) = p else { continue };
                for (q, sq) in [(r.a, 1.0), (r.b, -1.0)] {
                    if let Some(q) = q {
                        info[p * k + q] += w * sp * sq;
                    }
                }
            }
        }
        let floor = Cholesky::new(&info, k).ok()?.inverse();
        let mut g = vec![0.0; k];
        for (r, sign) in [(a, 1.0), (b, -1.0)] {
            if let Some(p) = self.slot(r).ok()? {
                g[p] += sign / unit.elo;
            }
        }
        let theta = (self.elo(a).ok()? - self.elo(b).ok()?) / unit.elo;
        g[u] -= theta / unit.elo;
        let var: f64 = (0..k)
            .map(|i| g[i] * (0..k).map(|j| floor[i * k + j] * g[j]).sum::<f64>())
            .sum();
        Some(t_boundary(self.level, self.departure_df) * var.max(0.0).sqrt())
    }

    /// The delta method's standard error of piece `i`'s value in pawns
    /// (`v(i) / v(pawn)`), the unit's error and its covariance with the
    /// piece's value included: 0 for the pawn itself. `None` for a piece
    /// without a value or a scale without a positive unit.
    pub fn pawns_std_error(&self, i: usize) -> Option<f64> {
        let unit = self.unit.ok().filter(|u| u.elo > 0.0)?;
        let (piece, pawn) = (PieceRef::Piece(i), PieceRef::Piece(self.pawn));
        let pawns = self.elo(piece).ok()? / unit.elo;
        let variance = self.covariance(piece, piece).ok()?
            - 2.0 * pawns * self.covariance(piece, pawn).ok()?
            + pawns * pawns * self.covariance(pawn, pawn).ok()?;
        Some(variance.max(0.0).sqrt() / unit.elo)
    }

    /// `v(a) - v(b)` with its intervals in Elo and in pawns.
    pub fn difference(&self, a: PieceRef, b: PieceRef) -> Result<ScaleDifference, NoValue> {
        self.elo(a)?;
        self.elo(b)?;
        let mut c = vec![0.0; self.valued()];
        for (r, sign) in [(a, 1.0), (b, -1.0)] {
            if let Some(p) = self.slot(r)? {
                c[p] += sign;
            }
        }
        let f = self.figure(&c);
        Ok(ScaleDifference {
            elo: f.elo,
            std_error: f.std_error,
            degrees_of_freedom: f.degrees_of_freedom,
            elo_interval: f.elo_interval,
            pawns: f.pawns,
        })
    }

    /// Valued pieces from the lowest value to the highest (ties by index).
    pub fn ladder(&self) -> Vec<usize> {
        let mut order: Vec<(usize, f64)> = self
            .values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.as_ref().ok().map(|v| (i, v.elo)))
            .collect();
        order.sort_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)));
        order.into_iter().map(|(i, _)| i).collect()
    }

    /// Each piece of the [`Self::ladder`] against the next one up: the
    /// gaps a class table is cut at.
    pub fn adjacent_differences(&self) -> Vec<AdjacentDifference> {
        self.ladder()
            .windows(2)
            .filter_map(|w| {
                let d = self
                    .difference(PieceRef::Piece(w[1]), PieceRef::Piece(w[0]))
                    .ok()?;
                Some(AdjacentDifference {
                    lower: w[0],
                    upper: w[1],
                    difference: d,
                })
            })
            .collect()
    }

    /// The unit as a [`PawnUnit`] for the equivalence tests of single
    /// matchups (which take it as independent of the matchup; here it is
    /// independent only of matchups the fit did not use).
    pub fn pawn_unit(&self) -> PawnUnit {
        self.unit
            .ok()
            .and_then(|u| PawnUnit::estimated(u.elo, u.std_error).ok())
            .unwrap_or(PawnUnit::Unknown)
    }

    fn value(&self, i: usize) -> Result<&PieceValue, NoValue> {
        match self.values.get(i) {
            Some(Ok(v)) => Ok(v),
            Some(Err(e)) => Err(*e),
            None => Err(NoValue::NotPlayed),
        }
    }

    /// The position among valued pieces (`None` for the empty square).
    fn slot(&self, r: PieceRef) -> Result<Option<usize>, NoValue> {
        match r {
            PieceRef::Nothing => Ok(None),
            PieceRef::Piece(i) => {
                self.value(i)?;
                Ok(self.index[i])
            }
        }
    }

    /// `Σ·c` for a combination `c` of the valued pieces' values.
    pub(super) fn times_covariance(&self, c: &[f64]) -> Vec<f64> {
        let k = self.valued();
        (0..k)
            .map(|i| (0..k).map(|j| self.covariance[i * k + j] * c[j]).sum())
            .collect()
    }

    /// Welch–Satterthwaite degrees of freedom of `cᵀv̂`: the estimate is
    /// `Σ_m ℓ_m·d_m` with `ℓ_m = w_m·x_mᵀΣc` and `w_m = 1/(σ²_m + τ²)`; its
    /// variance `Σ ℓ_m²σ²_m + τ²·Σ ℓ_m²` sums each matchup's sampling
    /// variance (estimated from its pairs, `df_m`) and the departure
    /// variance (estimated from the residuals, `df_τ`), so
    /// `(Σ ℓ_m²(σ²_m + τ²))² / (Σ (ℓ_m²σ²_m)²/df_m + (τ²·Σ ℓ_m²)²/df_τ)`.
    /// ∞ for a combination with no variance.
    pub(super) fn degrees_of_freedom(&self, c: &[f64]) -> f64 {
        let sc = self.times_covariance(c);
        let at = |p: Option<usize>| p.map_or(0.0, |p| sc[p]);
        let var: f64 = c.iter().zip(&sc).map(|(x, y)| x * y).sum();
        let tau2 = self.departure_variance;
        let (mut sampling, mut leverage) = (0.0, 0.0);
        for r in &self.rows {
            let w = 1.0 / (r.sampling + r.departure(tau2));
            let l2 = (w * (at(r.a) - at(r.b))).powi(2);
            sampling += (l2 * r.sampling).powi(2) / r.df;
            if r.departs {
                leverage += l2;
            }
        }
        let departures = if tau2 > 0.0 {
            (tau2 * leverage).powi(2) / self.departure_df
        } else {
            0.0
        };
        let mut df = var * var / (sampling + departures);
        if departures > 0.0 {
            // The departure variance is estimated from the residuals alone:
            // no figure resting on it is known better than they know it
            // (Hartung–Knapp's t with the residual degrees of freedom).
            df = df.min(self.departure_df);
        }
        if df.is_finite() && df > 0.0 {
            df
        } else {
            f64::INFINITY
        }
    }

    /// The two-sided boundary of the fit's level for `cᵀv̂`: Student's t
    /// with its degrees of freedom.
    pub(super) fn boundary(&self, level: ConfidenceLevel, c: &[f64]) -> f64 {
        t_boundary(level, self.degrees_of_freedom(c))
    }

    /// The combination `c` of the valued pieces' values in Elo and in pawns.
    fn figure(&self, c: &[f64]) -> Figure {
        let sc = self.times_covariance(c);
        let elo: f64 = c.iter().zip(&self.estimates).map(|(x, y)| x * y).sum();
        let var: f64 = c.iter().zip(&sc).map(|(x, y)| x * y).sum::<f64>().max(0.0);
        let degrees_of_freedom = self.degrees_of_freedom(c);
        let t = t_boundary(self.level, degrees_of_freedom);
        let pawns = match (self.index[self.pawn], self.unit) {
            (Some(u), Ok(_)) => {
                // Fieller's test statistic is `(c - θ·e_u)ᵀv̂`: its degrees
                // of freedom, at the estimate of `θ`, set the boundary.
                let unit = self.estimates[u];
                let theta = if unit > 0.0 { elo / unit } else { 0.0 };
                let mut g = c.to_vec();
                g[u] -= theta;
                let t = self.boundary(self.level, &g);
                let s_uu = self.covariance[u * self.valued() + u];
                in_pawns(elo, unit, var, s_uu, sc[u], t)
            }
            _ => Pawns::NoUnit,
        };
        Figure {
            elo,
            std_error: var.sqrt(),
            degrees_of_freedom,
            elo_interval: Interval::symmetric(elo, t * var.sqrt()),
            pawns,
        }
    }
}

/// The two-sided Student-t quantile of `level` with `df` degrees of
/// freedom (the normal one for infinite or huge `df`).
pub(super) fn t_boundary(level: ConfidenceLevel, df: f64) -> f64 {
    if !(df.is_finite() && df < 1e7) {
        return level.z();
    }
    StudentsT::new(0.0, 1.0, df)
        .map(|t| t.inverse_cdf(0.5 + level.get() / 2.0))
        .ok()
        .filter(|t| t.is_finite())
        .unwrap_or_else(|| level.z())
}

/// A ratio `a / b` of correlated normal estimates in pawns: bounded when
/// `b` is shown positive at boundary `c`.
pub(super) fn in_pawns(a: f64, b: f64, s_aa: f64, s_bb: f64, s_ab: f64, c: f64) -> Pawns {
    match fieller(a, b, s_aa, s_bb, s_ab, c) {
        Some(interval) => Pawns::Bounded {
            pawns: a / b,
            interval,
        },
        None => Pawns::Unbounded,
    }
}

/// Fieller's interval for `a / b`, where `a` and `b` are normal estimates
/// with variances `s_aa`, `s_bb` and covariance `s_ab`: every `θ` with
/// `(a - θb)² ≤ c²·(s_aa - 2θ·s_ab + θ²·s_bb)`. `None` unless `b` is shown
/// positive at `c` (`b > c·sqrt(s_bb)`), when the set is unbounded (or
/// absurd, for a `b` shown negative).
pub(super) fn fieller(a: f64, b: f64, s_aa: f64, s_bb: f64, s_ab: f64, c: f64) -> Option<Interval> {
    let finite = [a, b, s_aa, s_bb, s_ab, c].iter().all(|x| x.is_finite());
    if !finite || b <= c * s_bb.max(0.0).sqrt() {
        return None;
    }
    // (b² - c²s_bb)θ² - 2(ab - c²s_ab)θ + (a² - c²s_aa) ≤ 0; the
    // discriminant over 4 written without the cancellation of a²b².
    let quad = b * b - c * c * s_bb;
    let half_linear = a * b - c * c * s_ab;
    let disc = c * c * (b * b * s_aa - 2.0 * a * b * s_ab + a * a * s_bb)
        - c.powi(4) * (s_aa * s_bb - s_ab * s_ab);
    let root = disc.max(0.0).sqrt();
    Some(Interval::new(
        (half_linear - root) / quad,
        (half_linear + root) / quad,
    ))
}

/// What one matchup's pairs give the fit.
#[derive(Debug, Clone, Copy)]
struct Raw {
    pairs: u64,
    /// Observed mean score per game.
    score: f64,
    /// Elo of the (guarded) score.
    elo: f64,
    /// Variance of the score's mean over pairs (floored), score².
    score_variance: f64,
}

impl Raw {
    /// The Elo variance were the difference `elo`: the observed variance's
    /// dispersion over the binomial `s(1-s)` kept, the binomial part and
    /// the score-to-Elo slope taken at `elo`.
    fn elo_variance_at(&self, elo: f64) -> f64 {
        let observed = elo_to_score(self.elo);
        let at = elo_to_score(elo);
        let dispersion = self.score_variance / (observed * (1.0 - observed));
        let slope = elo_per_score_at(at).unwrap_or(f64::INFINITY);
        dispersion * at * (1.0 - at) * slope * slope
    }

    /// The observed score less the score of the difference `elo`, in Elo
    /// through the score-to-Elo slope at `elo`: Pearson's residual on the
    /// scale of [`Self::elo_variance_at`]. Unlike `self.elo - elo` it does
    /// not swell where the logistic curve flattens (a lopsided score).
    fn linear_residual_at(&self, elo: f64) -> f64 {
        let slope = elo_per_score_at(elo_to_score(elo)).unwrap_or(f64::INFINITY);
        (elo_to_score(self.elo) - elo_to_score(elo)) * slope
    }
}

/// One matchup's pairs; `None` without pairs. A perfect score is counted
/// as one pair short of it by half a point (the best score short of
/// perfect is one pair short by a whole point), so its Elo is finite and
/// every other score is left as it is.
fn estimate(m: usize, counts: &[u64; 5]) -> Result<Option<Raw>, ScaleError> {
    let n = counts
        .iter()
        .try_fold(0u64, |acc, &c| acc.checked_add(c))
        .ok_or(ScaleError::Overflow(m))?;
    if n == 0 {
        return Ok(None);
    }
    let nf = n as f64;
    let mean = (counts
        .iter()
        .zip(PAIR_SCORE)
        .map(|(&c, v)| c as f64 * v)
        .sum::<f64>()
        / nf)
        .clamp(0.0, 1.0);
    let observed = counts
        .iter()
        .zip(PAIR_SCORE)
        .map(|(&c, v)| c as f64 * (v - mean).powi(2))
        .sum::<f64>()
        / nf;
    let floor = PRIOR_PAIRS * PRIOR_VARIANCE / (nf + PRIOR_PAIRS);
    let guarded = mean.clamp(0.125 / nf, 1.0 - 0.125 / nf);
    Ok(Some(Raw {
        pairs: n,
        score: mean,
        elo: score_to_elo(guarded).unwrap_or(f64::NAN),
        score_variance: observed.max(floor) / nf,
    }))
}

/// A matchup's sides as positions among the valued pieces (`None`: the
/// empty square).
type Sides = (Option<usize>, Option<usize>);

/// Reweighting rounds allowed.
const MAX_ROUNDS: usize = 200;

/// The weighted least-squares solution for `rows` (`(a, b)` positions
/// among `k` valued pieces, `None` for the empty square), differences `d`
/// and weights `w`: estimates and the Cholesky factor of the information.
fn solve(
    k: usize,
    rows: &[Sides],
    d: &[f64],
    w: &[f64],
) -> Result<(Vec<f64>, Cholesky), ScaleError> {
    let mut info = vec![0.0; k * k];
    let mut rhs = vec![0.0; k];
    for ((&(ia, ib), &d), &w) in rows.iter().zip(d).zip(w) {
        for (p, sp) in [(ia, 1.0), (ib, -1.0)] {
            let Some(p) = p else { continue };
            rhs[p] += w * sp * d;
            for (q, sq) in [(ia, 1.0), (ib, -1.0)] {
                if let Some(q) = q {
                    info[p * k + q] += w * sp * sq;
                }
            }
        }
    }
    let chol = Cholesky::new(&info, k).map_err(|_| ScaleError::Singular)?;
    Ok((chol.solve(&rhs), chol))
}

/// Union-find root with path halving.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Fits every piece's value from the matchups of a value-scale design:
/// per-matchup Elo differences from the pentanomial pair counts, combined
/// by weighted least squares with the empty square at 0 (see the module
/// documentation). `pieces` is the number of pieces; matchups without pairs
/// are allowed (a plan's unplayed entries) and ignored. Pieces not joined
/// to the empty square by played matchups get [`NoValue`] rather than a
/// number.
///
/// ```
/// use pocketlab_stats::Pentanomial;
/// use pocketlab_stats::value_scale::{Pawns, PieceRef, ScaleMatchup, ScaleOptions, fit_scale};
///
/// // The caller's names: 0 pawn, 1 knight, 2 bishop.
/// let (pawn, knight, bishop) = (0, 1, 2);
/// let matchups = [
///     // Pawn odds: the side with the extra pawn scores about 62%.
///     ScaleMatchup::odds(pawn, Pentanomial::new([20, 70, 160, 170, 80])),
///     // A bishop where the other army has a knight: about even.
///     ScaleMatchup::substitution(bishop, knight, Pentanomial::new([45, 105, 200, 105, 45])),
///     // A knight where the other army has a pawn.
///     ScaleMatchup::substitution(knight, pawn, Pentanomial::new([5, 25, 120, 190, 160])),
/// ];
/// let fit = fit_scale(3, &matchups, &ScaleOptions::new(pawn))?;
/// let unit = fit.unit.unwrap();
/// assert!(unit.shown_positive);
/// let knight_value = fit.values[knight].unwrap();
/// let Pawns::Bounded { pawns, interval } = knight_value.pawns else {
///     panic!("the unit is shown positive, so the interval is bounded");
/// };
/// assert!(interval.contains(pawns) && pawns > 1.0);
/// // The bishop is reached only through the knight: its error is larger.
/// assert!(fit.values[bishop].unwrap().std_error > knight_value.std_error);
/// // A piece in no matchup has no value, and says why.
/// let fit = fit_scale(4, &matchups, &ScaleOptions::new(pawn))?;
/// assert!(fit.values[3].is_err());
/// # Ok::<(), pocketlab_stats::value_scale::ScaleError>(())
/// ```
pub fn fit_scale(
    pieces: usize,
    matchups: &[ScaleMatchup],
    options: &ScaleOptions,
) -> Result<ScaleFit, ScaleError> {
    fit_with(pieces, matchups, options, true)
}

/// [`fit_scale`] as one additive scale, every departure taken for chance:
/// what the fit's intervals would be without the departure variance.
#[cfg(test)]
pub(super) fn fit_scale_additive(
    pieces: usize,
    matchups: &[ScaleMatchup],
    options: &ScaleOptions,
) -> Result<ScaleFit, ScaleError> {
    fit_with(pieces, matchups, options, false)
}

/// [`fit_scale`], with the departure variance estimated or not.
fn fit_with(
    pieces: usize,
    matchups: &[ScaleMatchup],
    options: &ScaleOptions,
    estimate_departures: bool,
) -> Result<ScaleFit, ScaleError> {
    check_inputs(pieces, matchups, options)?;
    let raw = matchups
        .iter()
        .enumerate()
        .map(|(m, x)| estimate(m, &x.counts.counts))
        .collect::<Result<Vec<_>, _>>()?;
    let joined = Joined::of(pieces, matchups, &raw);
    let k = joined.valued;
    let slot = |r: PieceRef| r.index().and_then(|i| joined.index[i]);
    let fitted: Vec<(usize, Raw, Sides)> = raw
        .iter()
        .zip(matchups)
        .enumerate()
        .filter(|&(m, _)| joined.used[m])
        .filter_map(|(m, (e, x))| Some((m, (*e)?, (slot(x.a), slot(x.b)))))
        .collect();
    // The pawn's own odds define the unit: they carry no departure.
    let pawn_slot = joined.index[options.pawn];
    let departs: Vec<bool> = fitted
        .iter()
        .map(|(_, _, sides)| {
            estimate_departures && (*sides != (pawn_slot, None) || pawn_slot.is_none())
        })
        .collect();
    let departures = departures(k, &fitted, &departs)?;
    let (diagnostics, consistency) = diagnostics(&raw, &fitted, &departures, k);
    let rows_out: Vec<Row> = fitted
        .iter()
        .zip(&departures.fit.sampling)
        .zip(&departs)
        .map(|(((_, e, (a, b)), var), &departs)| Row {
            a: *a,
            b: *b,
            sampling: *var,
            df: (e.pairs.saturating_sub(1)).max(1) as f64,
            departs,
        })
        .collect();
    let mut fit = ScaleFit {
        values: Vec::new(),
        unit: Err(NoValue::NotPlayed),
        matchups: Vec::new(),
        consistency: None,
        pawn: options.pawn,
        level: options.level,
        index: joined.index,
        covariance: departures.fit.covariance,
        estimates: departures.fit.estimates,
        rows: rows_out,
        departure_variance: departures.variance,
        departure_df: fitted.len().saturating_sub(k).max(1) as f64,
    };
    fit.unit = unit_estimate(&fit, options.pawn, joined.played[options.pawn]);
    fit.values = (0..pieces)
        .map(|i| piece_value(&fit, i, joined.played[i]))
        .collect();
    fit.matchups = diagnostics;
    fit.consistency = consistency;
    Ok(fit)
}

/// Refuses a fit with no pieces or with references past them.
fn check_inputs(
    pieces: usize,
    matchups: &[ScaleMatchup],
    options: &ScaleOptions,
) -> Result<(), ScaleError> {
    if pieces == 0 {
        return Err(ScaleError::NoPieces);
    }
    if options.pawn >= pieces {
        return Err(ScaleError::PawnOutOfRange {
            pawn: options.pawn,
            pieces,
        });
    }
    for (m, x) in matchups.iter().enumerate() {
        for r in [x.a, x.b] {
            if let PieceRef::Piece(index) = r
                && index >= pieces
            {
                return Err(ScaleError::PieceOutOfRange {
                    matchup: m,
                    index,
                    pieces,
                });
            }
        }
        if x.a == x.b {
            return Err(ScaleError::SameSides(m));
        }
    }
    Ok(())
}

/// Identification: which pieces the played matchups join to the empty
/// square (node `pieces`), numbered for the fit.
struct Joined {
    /// Each piece's index among the fitted values, if joined.
    index: Vec<Option<usize>>,
    /// Pieces joined (the fit's unknowns).
    valued: usize,
    /// Whether a piece is in any played matchup.
    played: Vec<bool>,
    /// Whether a matchup is played and joined (so it enters the fit).
    used: Vec<bool>,
}

impl Joined {
    fn of(pieces: usize, matchups: &[ScaleMatchup], raw: &[Option<Raw>]) -> Joined {
        let node = |r: PieceRef| r.index().unwrap_or(pieces);
        let mut parent: Vec<usize> = (0..=pieces).collect();
        let mut played = vec![false; pieces];
        for (x, e) in matchups.iter().zip(raw) {
            if e.is_some() {
                let (ra, rb) = (root(&mut parent, node(x.a)), root(&mut parent, node(x.b)));
                parent[ra] = rb;
                for r in [x.a, x.b] {
                    if let Some(i) = r.index() {
                        played[i] = true;
                    }
                }
            }
        }
        let origin = root(&mut parent, pieces);
        let mut index = vec![None; pieces];
        let mut valued = 0;
        for (i, slot) in index.iter_mut().enumerate() {
            if root(&mut parent, i) == origin {
                *slot = Some(valued);
                valued += 1;
            }
        }
        let used = matchups
            .iter()
            .zip(raw)
            .map(|(x, e)| e.is_some() && root(&mut parent, node(x.a)) == origin)
            .collect();
        Joined {
            index,
            valued,
            played,
            used,
        }
    }
}

/// One weighted least-squares fit at a given departure variance.
#[derive(Clone)]
struct Weighted {
    /// Values of the valued pieces, Elo.
    estimates: Vec<f64>,
    /// Their covariance, row-major.
    covariance: Vec<f64>,
    /// Each used matchup's sampling variance at its fitted difference.
    sampling: Vec<f64>,
}

impl Weighted {
    /// Each used matchup's fitted difference `v_a - v_b`.
    fn fitted(&self, fitted: &[(usize, Raw, Sides)]) -> Vec<f64> {
        let at = |r: Option<usize>| r.map_or(0.0, |p| self.estimates[p]);
        fitted
            .iter()
            .map(|(_, _, (a, b))| at(*a) - at(*b))
            .collect()
    }

    /// Pearson's statistic with the departure variance `tau2` in every
    /// matchup's variance: each matchup's score residual at its fitted
    /// difference, in Elo through the slope there, squared over the
    /// matchup's variance.
    fn pearson(&self, fitted: &[(usize, Raw, Sides)], departs: &[bool], tau2: f64) -> f64 {
        fitted
            .iter()
            .zip(self.fitted(fitted))
            .zip(&self.sampling)
            .zip(departs)
            .map(|((((_, e, _), f), var), &d)| {
                e.linear_residual_at(f).powi(2) / (var + if d { tau2 } else { 0.0 })
            })
            .sum()
    }
}

/// The departure variance and the fit at it.
struct Departures {
    variance: f64,
    /// The lower end of its 95% interval (the Q-profile).
    lower: f64,
    fit: Weighted,
    /// The fit on one additive scale (no departures), for the test of it.
    additive: Weighted,
}

/// Paule–Mandel: the departure variance `τ²` at which Pearson's statistic
/// of the fit weighted by `1/(σ²_m + τ²)` equals its degrees of freedom
/// (0 when the additive fit's statistic is already at most that). The
/// statistic falls as `τ²` grows, so the root is found by bisection.
fn departures(
    k: usize,
    fitted: &[(usize, Raw, Sides)],
    departs: &[bool],
) -> Result<Departures, ScaleError> {
    let additive = reweighted_least_squares(k, fitted, departs, 0.0)?;
    let df = fitted.len().saturating_sub(k) as f64;
    let any_departs = departs.iter().any(|&d| d);
    if k == 0 || df < 1.0 || !any_departs {
        return Ok(Departures {
            variance: 0.0,
            lower: 0.0,
            fit: additive.clone(),
            additive,
        });
    }
    let at_zero = additive.pearson(fitted, departs, 0.0);
    let variance = root_of_statistic(k, fitted, departs, &additive, at_zero, df)?;
    // The Q-profile: the statistic's upper 2.5% point gives the lower end
    // of a 95% interval for the departure variance.
    let upper = ChiSquared::new(df)
        .map(|c| c.inverse_cdf(0.975))
        .unwrap_or(f64::INFINITY);
    let lower = root_of_statistic(k, fitted, departs, &additive, at_zero, upper)?;
    let fit = if variance > 0.0 {
        reweighted_least_squares(k, fitted, departs, variance)?
    } else {
        additive.clone()
    };
    Ok(Departures {
        variance,
        lower,
        fit,
        additive,
    })
}

/// The departure variance at which Pearson's statistic (every departing
/// matchup's variance increased by it) equals `target`; 0 when the
/// additive fit's statistic, `at_zero`, is already at most `target`. The
/// statistic falls as the variance grows, so the root is found by
/// bisection.
fn root_of_statistic(
    k: usize,
    fitted: &[(usize, Raw, Sides)],
    departs: &[bool],
    additive: &Weighted,
    at_zero: f64,
    target: f64,
) -> Result<f64, ScaleError> {
    if at_zero.is_nan() || at_zero <= target {
        return Ok(0.0);
    }
    let statistic = |tau2: f64| -> Result<f64, ScaleError> {
        let fit = reweighted_least_squares(k, fitted, departs, tau2)?;
        Ok(fit.pearson(fitted, departs, tau2))
    };
    // An upper bracket: the largest sampling variance, doubled until the
    // statistic falls to the target.
    let mut hi = additive.sampling.iter().copied().fold(1.0, f64::max);
    for _ in 0..200 {
        if statistic(hi)? <= target {
            break;
        }
        hi *= 2.0;
    }
    let mut lo = 0.0;
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if statistic(mid)? > target {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-9 * hi {
            break;
        }
    }
    Ok(hi)
}

/// Weighted least squares over the joined matchups, each weighed by
/// `1/(σ²_m + tau2)` (`1/σ²_m` where it does not depart) and reweighted
/// until every `σ²_m` is the sampling variance at the fitted difference.
fn reweighted_least_squares(
    k: usize,
    fitted: &[(usize, Raw, Sides)],
    departs: &[bool],
    tau2: f64,
) -> Result<Weighted, ScaleError> {
    let rows: Vec<_> = fitted.iter().map(|f| f.2).collect();
    let d: Vec<f64> = fitted.iter().map(|f| f.1.elo).collect();
    let at = |v: &[f64], r: Option<usize>| r.map_or(0.0, |p| v[p]);
    let mut sampling: Vec<f64> = fitted
        .iter()
        .map(|f| f.1.elo_variance_at(f.1.elo))
        .collect();
    if k == 0 {
        return Ok(Weighted {
            estimates: Vec::new(),
            covariance: Vec::new(),
            sampling,
        });
    }
    let mut round = 0;
    loop {
        let w: Vec<f64> = sampling
            .iter()
            .zip(departs)
            .map(|(v, &d)| 1.0 / (v + if d { tau2 } else { 0.0 }))
            .collect();
        let (v, chol) = solve(k, &rows, &d, &w)?;
        let next: Vec<f64> = fitted
            .iter()
            .map(|(_, e, (ia, ib))| e.elo_variance_at(at(&v, *ia) - at(&v, *ib)))
            .collect();
        let settled = next
            .iter()
            .zip(&sampling)
            .all(|(a, b)| (a - b).abs() <= 1e-10 * b);
        round += 1;
        if settled || !next.iter().all(|x| x.is_finite() && *x > 0.0) {
            return Ok(Weighted {
                estimates: v,
                covariance: chol.inverse(),
                sampling,
            });
        }
        if round == MAX_ROUNDS {
            return Err(ScaleError::NotConverged(MAX_ROUNDS));
        }
        sampling = next;
    }
}

/// The coefficient vector picking fitted value `p` of `k`.
fn unit_vector(k: usize, p: usize) -> Vec<f64> {
    let mut c = vec![0.0; k];
    c[p] = 1.0;
    c
}

/// The pawn's value as the unit, or why there is none.
fn unit_estimate(fit: &ScaleFit, pawn: usize, played: bool) -> Result<UnitEstimate, NoValue> {
    match fit.index[pawn] {
        Some(p) => {
            let f = fit.figure(&unit_vector(fit.estimates.len(), p));
            let half = f.elo_interval.width() / 2.0;
            Ok(UnitEstimate {
                elo: f.elo,
                std_error: f.std_error,
                degrees_of_freedom: f.degrees_of_freedom,
                interval: f.elo_interval,
                relative_precision: if f.elo > 0.0 {
                    half / f.elo
                } else {
                    f64::INFINITY
                },
                shown_positive: f.elo > half,
            })
        }
        None if played => Err(NoValue::Disconnected),
        None => Err(NoValue::NotPlayed),
    }
}

/// Piece `i`'s value, or why there is none.
fn piece_value(fit: &ScaleFit, i: usize, played: bool) -> Result<PieceValue, NoValue> {
    let Some(p) = fit.index[i] else {
        return Err(if played {
            NoValue::Disconnected
        } else {
            NoValue::NotPlayed
        });
    };
    let f = fit.figure(&unit_vector(fit.estimates.len(), p));
    Ok(PieceValue {
        elo: f.elo,
        std_error: f.std_error,
        degrees_of_freedom: f.degrees_of_freedom,
        elo_interval: f.elo_interval,
        pawns: f.pawns,
    })
}

/// Each matchup's own estimate and, where it entered the fit, its
/// Pearson residual on one additive scale; and the test of that scale
/// with the departure variance.
fn diagnostics(
    raw: &[Option<Raw>],
    fitted: &[(usize, Raw, Sides)],
    departures: &Departures,
    k: usize,
) -> (Vec<Option<MatchupEstimate>>, Option<Consistency>) {
    let mut out: Vec<Option<MatchupEstimate>> = raw
        .iter()
        .map(|e| {
            e.map(|e| MatchupEstimate {
                pairs: e.pairs,
                score: e.score,
                elo: e.elo,
                std_error: e.elo_variance_at(e.elo).sqrt(),
                fitted_std_error: e.elo_variance_at(e.elo).sqrt(),
                used: false,
                standardized_residual: None,
            })
        })
        .collect();
    let additive = &departures.additive;
    let mut chi_square = 0.0;
    for (((m, e, _), f), var) in fitted
        .iter()
        .zip(additive.fitted(fitted))
        .zip(&additive.sampling)
    {
        let r = e.linear_residual_at(f) / var.sqrt();
        chi_square += r * r;
        if let Some(x) = out[*m].as_mut() {
            x.used = true;
            x.standardized_residual = Some(r);
        }
    }
    for ((m, ..), var) in fitted.iter().zip(&departures.fit.sampling) {
        if let Some(x) = out[*m].as_mut() {
            x.fitted_std_error = var.sqrt();
        }
    }
    let consistency = (fitted.len() > k).then(|| {
        let df = fitted.len() - k;
        let p_value = ChiSquared::new(df as f64).map_or(f64::NAN, |c| c.sf(chi_square));
        Consistency {
            chi_square,
            degrees_of_freedom: df,
            p_value,
            departure_variance: departures.variance,
            departure_variance_lower: departures.lower,
        }
    });
    (out, consistency)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Pentanomial;
    use crate::estimate::ScoreSummary;

    const L95: ConfidenceLevel = ConfidenceLevel::NINETY_FIVE;

    fn summary(counts: [u64; 5]) -> ScoreSummary {
        Pentanomial::new(counts).summary(L95).unwrap()
    }

    /// A chain from the empty square (pawn odds, knight for pawn, bishop
    /// for knight) is a tree: the values are the running sums of the
    /// matchups' Elo and the variances the running sums of theirs, exactly
    /// the pentanomial summaries' figures.
    #[test]
    fn a_chain_sums_its_links() {
        let (c1, c2, c3) = (
            [20, 70, 160, 170, 80],
            [5, 25, 120, 190, 160],
            [45, 105, 200, 105, 45],
        );
        let matchups = [
            ScaleMatchup::odds(0, Pentanomial::new(c1)),
            ScaleMatchup::substitution(1, 0, Pentanomial::new(c2)),
            ScaleMatchup::substitution(2, 1, Pentanomial::new(c3)),
        ];
        let fit = fit_scale(3, &matchups, &ScaleOptions::new(0)).unwrap();
        let (s1, s2, s3) = (summary(c1), summary(c2), summary(c3));
        let v: Vec<PieceValue> = fit.values.iter().map(|v| v.unwrap()).collect();
        assert!((v[0].elo - s1.elo).abs() < 1e-9);
        assert!((v[1].elo - (s1.elo + s2.elo)).abs() < 1e-9);
        assert!((v[2].elo - (s1.elo + s2.elo + s3.elo)).abs() < 1e-9);
        let var = |s: &ScoreSummary| s.elo_std_error.powi(2);
        assert!((v[2].std_error.powi(2) - (var(&s1) + var(&s2) + var(&s3))).abs() < 1e-6);
        let n = PieceRef::Piece;
        assert!((fit.covariance(n(0), n(2)).unwrap() - var(&s1)).abs() < 1e-6);
        assert!((fit.covariance(n(1), n(2)).unwrap() - var(&s1) - var(&s2)).abs() < 1e-6);
        // The bishop minus the knight is the last link alone.
        let d = fit.difference(n(2), n(1)).unwrap();
        assert!((d.elo - s3.elo).abs() < 1e-9);
        assert!((d.std_error - s3.elo_std_error).abs() < 1e-9);
        let unit = fit.unit.unwrap();
        assert!((unit.std_error - s1.elo_std_error).abs() < 1e-9);
        // Welch–Satterthwaite: one link of 500 pairs behind the unit, three
        // behind the bishop.
        let pairs = |c: [u64; 5]| c.iter().sum::<u64>() as f64;
        assert!((unit.degrees_of_freedom - (pairs(c1) - 1.0)).abs() < 1e-6);
        let t = |df: f64| StudentsT::new(0.0, 1.0, df).unwrap().inverse_cdf(0.975);
        let t_unit = t(unit.degrees_of_freedom);
        assert!(t_unit > L95.z());
        assert!((unit.relative_precision - t_unit * unit.std_error / unit.elo).abs() < 1e-12);
        let parts = [(s1, c1), (s2, c2), (s3, c3)].map(|(s, c)| (var(&s), pairs(c) - 1.0));
        let total: f64 = parts.iter().map(|p| p.0).sum();
        let df = total * total / parts.iter().map(|p| p.0 * p.0 / p.1).sum::<f64>();
        assert!(
            (v[2].degrees_of_freedom - df).abs() < 1e-6 * df,
            "{} vs {df}",
            v[2].degrees_of_freedom
        );
        let half = v[2].elo_interval.width() / 2.0;
        assert!((half - t(df) * v[2].std_error).abs() < 1e-9);
        assert_eq!(fit.pawn_unit().elo_per_pawn(), unit.elo);
        // A tree fits exactly: no residual, no consistency check.
        assert!(fit.consistency.is_none());
        for m in fit.matchups.iter().flatten() {
            assert!(m.used && m.standardized_residual.unwrap().abs() < 1e-9);
        }
        assert_eq!(fit.ladder().len(), 3);
        // The pawn in pawns is exactly 1.
        let Pawns::Bounded { pawns, interval } = v[0].pawns else {
            panic!("{:?}", v[0].pawns);
        };
        assert!((pawns - 1.0).abs() < 1e-12 && interval.width() < 1e-6);
    }

    /// Two measurements of the same difference combine by inverse-variance
    /// weights, each variance taken at the fitted value (a fixed point:
    /// the observed dispersion over the binomial, times the binomial
    /// variance and the squared score-to-Elo slope at the fit), and the
    /// residual check sees their disagreement: Pearson's statistic, within
    /// its degrees of freedom here, so no departure is added.
    #[test]
    fn parallel_matchups_combine_by_inverse_variance() {
        let (c1, c2) = ([30, 80, 150, 160, 80], [10, 60, 230, 120, 80]);
        let matchups = [
            ScaleMatchup::odds(0, Pentanomial::new(c1)),
            ScaleMatchup::odds(0, Pentanomial::new(c2)),
        ];
        let fit = fit_scale(1, &matchups, &ScaleOptions::new(0)).unwrap();
        let (s1, s2) = (summary(c1), summary(c2));
        let v = fit.values[0].unwrap();
        let q = elo_to_score(v.elo);
        let slope = elo_per_score_at(q).unwrap();
        let variance = |s: &ScoreSummary| {
            s.score_std_error.powi(2) / (s.score * (1.0 - s.score)) * q * (1.0 - q) * slope * slope
        };
        let (w1, w2) = (1.0 / variance(&s1), 1.0 / variance(&s2));
        assert!((v.elo - (w1 * s1.elo + w2 * s2.elo) / (w1 + w2)).abs() < 1e-6);
        assert!((v.std_error - (w1 + w2).powf(-0.5)).abs() < 1e-6);
        assert!(v.elo > s1.elo.min(s2.elo) && v.elo < s1.elo.max(s2.elo));
        let c = fit.consistency.unwrap();
        assert_eq!(c.degrees_of_freedom, 1);
        // Each score's residual at the fitted difference, in Elo through
        // the slope there, over the matchup's variance at the fit.
        let pearson = |s: &ScoreSummary, w: f64| ((s.score - q) * slope).powi(2) * w;
        let expected = pearson(&s1, w1) + pearson(&s2, w2);
        assert!((c.chi_square - expected).abs() < 1e-6 * expected.max(1.0));
        assert!(c.chi_square < 1.0 && c.departure_variance == 0.0);
        assert!(c.p_value > 0.0 && c.p_value < 1.0);
        for (m, s) in fit.matchups.iter().zip([s1, s2]) {
            let m = m.unwrap();
            assert!((m.std_error - s.elo_std_error).abs() < 1e-9);
            assert!((m.fitted_std_error - variance(&s).sqrt()).abs() < 1e-6);
        }
    }

    /// Two measurements of one difference that disagree beyond chance: the
    /// departure variance `τ²` is the Paule–Mandel root (Pearson's
    /// statistic with `σ²_m + τ²` in each variance equals its degrees of
    /// freedom), the value combines the two by `1/(σ²_m + τ²)`, and its
    /// interval is wider than the additive fit's, with Student's t on the
    /// residual degrees of freedom.
    #[test]
    fn disagreeing_matchups_add_their_departure_to_the_variance() {
        let (c1, c2) = ([30, 80, 150, 160, 80], [5, 20, 150, 175, 150]);
        let unit = ScaleMatchup::odds(1, Pentanomial::new([20, 70, 160, 170, 80]));
        let matchups = [
            ScaleMatchup::odds(0, Pentanomial::new(c1)),
            ScaleMatchup::odds(0, Pentanomial::new(c2)),
            unit,
        ];
        // Piece 1 is the pawn: its odds define the unit and carry no
        // departure; it is a leaf, so it adds nothing to the statistic.
        let fit = fit_scale(2, &matchups, &ScaleOptions::new(1)).unwrap();
        let c = fit.consistency.unwrap();
        assert!(c.chi_square > 10.0 && c.p_value < 0.01, "{c:?}");
        let tau2 = c.departure_variance;
        assert!(tau2 > 0.0 && (c.departure() - tau2.sqrt()).abs() < 1e-12);
        let v = fit.values[0].unwrap();
        let q = elo_to_score(v.elo);
        let slope = elo_per_score_at(q).unwrap();
        let mut weights = 0.0;
        let mut weighted = 0.0;
        let mut statistic = 0.0;
        let unit_alone = summary([20, 70, 160, 170, 80]);
        let u = fit.unit.unwrap();
        assert!((u.std_error - unit_alone.elo_std_error).abs() < 1e-9);
        for (m, s) in fit.matchups.iter().zip([summary(c1), summary(c2)]) {
            let sampling = m.unwrap().fitted_std_error.powi(2);
            let w = 1.0 / (sampling + tau2);
            weights += w;
            weighted += w * s.elo;
            statistic += ((s.score - q) * slope).powi(2) * w;
        }
        assert!((v.elo - weighted / weights).abs() < 1e-6);
        assert!((v.std_error - weights.powf(-0.5)).abs() < 1e-6);
        assert!(
            (statistic - 1.0).abs() < 1e-6,
            "Paule–Mandel root: {statistic}"
        );
        assert!((v.degrees_of_freedom - 1.0).abs() < 1e-12);
        let t = StudentsT::new(0.0, 1.0, 1.0).unwrap().inverse_cdf(0.975);
        assert!((v.elo_interval.width() / 2.0 - t * v.std_error).abs() < 1e-9);
        // Either matchup alone is tighter than the pair once the pair's
        // disagreement is counted.
        let alone = fit_scale(2, &[matchups[0], unit], &ScaleOptions::new(1)).unwrap();
        assert!(v.elo_interval.width() > alone.values[0].unwrap().elo_interval.width());
    }

    /// The floor of a difference is what its departures alone leave: a
    /// piece measured by two departing odds matchups against the exact
    /// unit has `t·sqrt(τ²/2)/v_P` pawns; without departures there is none.
    #[test]
    fn the_departure_floor_is_what_the_departures_leave() {
        let unit = ScaleMatchup::odds(1, Pentanomial::new([20, 70, 160, 170, 80]));
        let matchups = [
            ScaleMatchup::odds(0, Pentanomial::new([30, 80, 150, 160, 80])),
            ScaleMatchup::odds(0, Pentanomial::new([5, 20, 150, 175, 150])),
            unit,
        ];
        let fit = fit_scale(2, &matchups, &ScaleOptions::new(1)).unwrap();
        let tau2 = fit.consistency.unwrap().departure_variance;
        let (piece, nothing) = (PieceRef::Piece(0), PieceRef::Nothing);
        let floor = fit.departure_floor(piece, nothing).unwrap();
        let t = StudentsT::new(0.0, 1.0, 1.0).unwrap().inverse_cdf(0.975);
        let expected = t * (tau2 / 2.0).sqrt() / fit.unit.unwrap().elo;
        assert!(
            (floor - expected).abs() < 1e-6 * expected,
            "{floor} vs {expected}"
        );
        // Below the interval now: the sampling errors still count there.
        let now = fit.difference(piece, nothing).unwrap().pawns.half_width();
        assert!(floor < now, "{floor} vs {now}");
        let agree = [
            ScaleMatchup::odds(0, Pentanomial::new([30, 80, 150, 160, 80])),
            ScaleMatchup::odds(0, Pentanomial::new([10, 60, 230, 120, 80])),
            unit,
        ];
        let fit = fit_scale(2, &agree, &ScaleOptions::new(1)).unwrap();
        assert_eq!(fit.departure_floor(piece, nothing), None);
    }

    /// At either end of Fieller's interval the test of the ratio sits at
    /// the boundary; with no covariance it is `PawnUnit`'s interval.
    #[test]
    fn fieller_known_answers_and_boundary_property() {
        let c = L95.z();
        let (a, b, s_aa, s_bb, s_ab) = (250.0, 100.0, 400.0, 100.0, 60.0);
        let i = fieller(a, b, s_aa, s_bb, s_ab, c).unwrap();
        for theta in [i.lower, i.upper] {
            let t = (a - theta * b) / (s_aa - 2.0 * theta * s_ab + theta * theta * s_bb).sqrt();
            assert!((t.abs() - c).abs() < 1e-9, "{theta}: {t}");
        }
        assert!(i.contains(a / b));
        let independent = fieller(50.0, 100.0, 100.0, 100.0, 0.0, c).unwrap();
        let unit = PawnUnit::estimated(100.0, 10.0)
            .unwrap()
            .interval(50.0, 10.0, L95);
        assert!((independent.lower - unit.lower).abs() < 1e-12);
        assert!((independent.upper - unit.upper).abs() < 1e-12);
        // A positive covariance with the unit narrows a ratio above 1.
        let uncorrelated = fieller(a, b, s_aa, s_bb, 0.0, c).unwrap();
        assert!(i.width() < uncorrelated.width());
        // Not shown positive: no interval.
        assert!(fieller(50.0, 15.0, 100.0, 100.0, 0.0, c).is_none());
        assert!(fieller(50.0, -50.0, 100.0, 100.0, 0.0, c).is_none());
        assert!(fieller(f64::NAN, 100.0, 100.0, 100.0, 0.0, c).is_none());
    }

    /// Pieces joined to each other but not to the empty square get no
    /// value; an unplayed piece says so; a weak unit gives no pawns.
    #[test]
    fn identification_and_weak_units() {
        let even = Pentanomial::new([20, 60, 140, 60, 20]);
        let matchups = [
            ScaleMatchup::odds(0, Pentanomial::new([20, 70, 160, 170, 80])),
            ScaleMatchup::substitution(1, 0, even),
            ScaleMatchup::substitution(3, 2, even),
            ScaleMatchup::planned(PieceRef::Piece(4), PieceRef::Nothing),
        ];
        let fit = fit_scale(5, &matchups, &ScaleOptions::new(0)).unwrap();
        assert!(fit.values[0].is_ok() && fit.values[1].is_ok());
        assert_eq!(fit.values[2], Err(NoValue::Disconnected));
        assert_eq!(fit.values[3], Err(NoValue::Disconnected));
        assert_eq!(fit.values[4], Err(NoValue::NotPlayed));
        assert_eq!(fit.valued(), 2);
        assert!(fit.matchups[3].is_none());
        assert!(!fit.matchups[2].unwrap().used);
        assert_eq!(
            fit.difference(PieceRef::Piece(3), PieceRef::Piece(1)),
            Err(NoValue::Disconnected)
        );
        // Without the pawn odds there is no unit at all.
        let fit = fit_scale(5, &matchups[2..], &ScaleOptions::new(0)).unwrap();
        assert_eq!(fit.unit, Err(NoValue::NotPlayed));
        assert_eq!(fit.pawn_unit(), PawnUnit::Unknown);
        // A pawn-odds result near 50%: a value, but no size in pawns.
        let weak = [
            ScaleMatchup::odds(0, Pentanomial::new([40, 100, 120, 100, 45])),
            ScaleMatchup::odds(1, Pentanomial::new([5, 25, 120, 190, 160])),
        ];
        let fit = fit_scale(2, &weak, &ScaleOptions::new(0)).unwrap();
        assert!(!fit.unit.unwrap().shown_positive);
        assert_eq!(fit.values[1].unwrap().pawns, Pawns::Unbounded);
        assert!(fit.values[1].unwrap().pawns.half_width().is_infinite());
    }

    #[test]
    fn guards_and_bad_input() {
        // A perfect score is finite, and above the best imperfect score.
        let perfect = [ScaleMatchup::odds(0, Pentanomial::new([0, 0, 0, 0, 30]))];
        let fit = fit_scale(1, &perfect, &ScaleOptions::new(0)).unwrap();
        let v = fit.values[0].unwrap();
        assert!(v.elo.is_finite() && v.std_error > 0.0);
        let best = [ScaleMatchup::odds(0, Pentanomial::new([0, 0, 0, 1, 29]))];
        let below = fit_scale(1, &best, &ScaleOptions::new(0)).unwrap();
        assert!(v.elo > below.values[0].unwrap().elo);
        let lost = [ScaleMatchup::odds(0, Pentanomial::new([30, 0, 0, 0, 0]))];
        let lost = fit_scale(1, &lost, &ScaleOptions::new(0)).unwrap();
        assert!((lost.values[0].unwrap().elo + v.elo).abs() < 1e-9);
        // Identical pairs: the floor keeps the error above zero.
        let draws = [ScaleMatchup::odds(0, Pentanomial::new([0, 0, 10, 0, 0]))];
        assert!(
            fit_scale(1, &draws, &ScaleOptions::new(0)).unwrap().values[0]
                .unwrap()
                .std_error
                > 0.0
        );
        let c = Pentanomial::new([1, 1, 1, 1, 1]);
        assert_eq!(
            fit_scale(0, &[], &ScaleOptions::new(0)),
            Err(ScaleError::NoPieces)
        );
        assert!(matches!(
            fit_scale(2, &[], &ScaleOptions::new(2)),
            Err(ScaleError::PawnOutOfRange { .. })
        ));
        assert!(matches!(
            fit_scale(2, &[ScaleMatchup::odds(2, c)], &ScaleOptions::new(0)),
            Err(ScaleError::PieceOutOfRange {
                matchup: 0,
                index: 2,
                ..
            })
        ));
        assert_eq!(
            fit_scale(
                2,
                &[ScaleMatchup::substitution(1, 1, c)],
                &ScaleOptions::new(0)
            ),
            Err(ScaleError::SameSides(0))
        );
        let overflow = [ScaleMatchup::odds(
            0,
            Pentanomial::new([u64::MAX, 1, 0, 0, 0]),
        )];
        assert_eq!(
            fit_scale(1, &overflow, &ScaleOptions::new(0)),
            Err(ScaleError::Overflow(0))
        );
        // No matchups at all: a fit with nothing valued.
        let empty = fit_scale(2, &[], &ScaleOptions::new(0)).unwrap();
        assert_eq!(empty.valued(), 0);
        assert!(empty.ladder().is_empty());
    }
}
