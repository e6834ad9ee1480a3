//! Rating a set of players (pieces) from their pairwise games, in the spirit
//! of Ordo and BayesElo.
//!
//! # Model
//!
//! Davidson's extension of Bradley–Terry to draws, with a white-advantage
//! term. With strengths `γᵢ = 10^(rᵢ/400)`, White `w` against Black `b`:
//!
//! ```text
//! P(white wins) ∝ γ_w·A        A = 10^(h/400), the white advantage h in Elo
//! P(black wins) ∝ γ_b
//! P(draw)       ∝ ν·sqrt(γ_w·A·γ_b)
//! ```
//!
//! Without draws (`ν = 0`) this is exactly the logistic Elo model, so ratings
//! are on the Elo scale. With draws the expected score is slightly flatter
//! than the logistic curve (near equality, a rating gap `Δ` gives the score
//! that `Δ·2/(2+ν)` logistic Elo would), much like BayesElo's `drawelo`
//! ratings; [`RatingFit::expected_score`] and [`RatingFit::score_elo`] give
//! the head-to-head prediction on the plain score↔Elo scale.
//!
//! Davidson was chosen over BayesElo's model because it is a multinomial
//! logit whose log-odds are linear in the parameters (log-strengths, the
//! white advantage and `ln ν`), so the log-likelihood is concave and Newton's
//! method converges reliably from zero.
//!
//! # Fit
//!
//! Maximum a-posteriori by Newton's method with step halving. The prior is
//! BayesElo-like virtual games: every pair of players that met gets
//! [`FitOptions::virtual_games`] extra games (default 2), spread evenly over
//! both colour assignments and the three results (a mirror pairing `i` vs
//! `i` gets them as a third of each result). They keep every estimate finite
//! — a player who won every game, a run without draws or without black wins —
//! and shift ratings by a negligible amount once a pair has played a few
//! dozen games.
//!
//! Ratings are only defined up to a common shift; the fit anchors them so
//! that the mean, or a chosen player, is 0 ([`Anchor`]).
//!
//! # Uncertainty
//!
//! [`fit`] uses the observed Fisher information: the covariance is the
//! inverse of the negated Hessian of the log-posterior at the optimum
//! (a small hand-written Cholesky solver), transformed to the anchored ratings, and
//! intervals are `r ± z·se` (the anchor player, if any, has a zero-width
//! interval). [`bootstrap`] is the parametric-bootstrap alternative: it
//! replays the same schedule from the fitted model, refits, and reports
//! percentile intervals — slower, but it does not rely on the likelihood
//! being quadratic, which matters for small samples or lopsided results.

use std::collections::{BTreeMap, BTreeSet};
use std::f64::consts::LN_10;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use super::elo::score_to_elo;
use super::estimate::{ConfidenceLevel, Interval};
use super::linalg::Cholesky;

/// Elo per natural-log unit of strength.
const ELO_PER_NAT: f64 = 400.0 / LN_10;

/// Result of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won.
    WhiteWin,
    /// Draw.
    Draw,
    /// Black won.
    BlackWin,
}

/// One game between two players (indices into the player list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Game {
    /// Index of the player with White.
    pub white: usize,
    /// Index of the player with Black.
    pub black: usize,
    /// Result.
    pub result: GameResult,
}

/// Aggregated results of all games with `white` playing White against
/// `black`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PairRecord {
    /// Index of the player with White.
    pub white: usize,
    /// Index of the player with Black.
    pub black: usize,
    /// Games White won.
    pub white_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black_wins: u64,
}

impl PairRecord {
    /// Total games in the record (saturating).
    pub fn games(&self) -> u64 {
        self.white_wins
            .saturating_add(self.draws)
            .saturating_add(self.black_wins)
    }
}

/// Which ratings are pinned to zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Anchor {
    /// The mean rating is 0.
    #[default]
    Mean,
    /// This player's rating is 0 (e.g. the reference piece).
    Player(usize),
}

/// Settings of the rating fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitOptions {
    /// How ratings are anchored.
    pub anchor: Anchor,
    /// Virtual games added per pair of players that met (see the module
    /// documentation). 0 gives the plain maximum-likelihood fit, which does
    /// not exist (fails to converge) for e.g. a player with a perfect score.
    pub virtual_games: f64,
    /// Level of the reported intervals.
    pub level: ConfidenceLevel,
    /// Newton iterations allowed.
    pub max_iterations: usize,
    /// Convergence threshold on the largest parameter step, in natural-log
    /// strength units (1e-9 ≈ 2e-7 Elo).
    pub tolerance: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        Self {
            anchor: Anchor::Mean,
            virtual_games: 2.0,
            level: ConfidenceLevel::NINETY_FIVE,
            max_iterations: 100,
            tolerance: 1e-9,
        }
    }
}

/// Why a rating fit could not be produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum FitError {
    /// Zero players.
    #[error("no players to rate")]
    NoPlayers,
    /// No games at all.
    #[error("no games to fit")]
    NoGames,
    /// A record or game refers to a player that does not exist.
    #[error("player index {index} out of range for {players} players")]
    PlayerOutOfRange {
        /// The offending index.
        index: usize,
        /// Number of players.
        players: usize,
    },
    /// Some players are not linked to the others by any chain of games, so
    /// their relative ratings are undefined.
    #[error("the players do not form a single connected group of opponents")]
    Disconnected,
    /// An option is out of range (non-finite or negative virtual games, zero
    /// iterations, bad tolerance, zero bootstrap replicates).
    #[error("invalid fit option: {0}")]
    InvalidOption(&'static str),
    /// The information matrix was singular (possible only without virtual
    /// games).
    #[error("information matrix is singular; add virtual games")]
    Singular,
    /// Newton's method did not converge in the allowed iterations.
    #[error("rating fit did not converge in {0} iterations")]
    NotConverged(usize),
    /// Every bootstrap replicate failed to fit.
    #[error("all bootstrap replicates failed")]
    NoReplicates,
}

/// A fitted rating list.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingFit {
    /// Anchored ratings in Elo (Davidson scale, see the module docs).
    pub ratings: Vec<f64>,
    /// Standard errors of `ratings` (0 for an anchor player).
    pub std_errors: Vec<f64>,
    /// `ratings ± z·std_errors` at `level`.
    pub intervals: Vec<Interval>,
    /// White's advantage in Elo.
    pub white_advantage: f64,
    /// Its standard error.
    pub white_advantage_std_error: f64,
    /// Davidson's draw parameter `ν` (ν = P(draw)/P(win) between equal
    /// players with the white advantage removed).
    pub draw_nu: f64,
    /// Delta-method standard error of `ν`.
    pub draw_nu_std_error: f64,
    /// Covariance of the anchored ratings, row-major `n × n`, Elo².
    pub covariance: Vec<f64>,
    /// Log-likelihood of the observed games (without the prior) at the fit.
    pub log_likelihood: f64,
    /// Newton iterations used.
    pub iterations: usize,
    /// The anchor used.
    pub anchor: Anchor,
    /// The level of `intervals`.
    pub level: ConfidenceLevel,
}

/// Difference of two fitted ratings with its standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingDifference {
    /// `rating[i] - rating[j]` in Elo.
    pub elo: f64,
    /// Its standard error, accounting for the covariance of the two ratings.
    pub std_error: f64,
    /// `elo ± z·std_error` at the fit's level.
    pub interval: Interval,
}

impl RatingFit {
    /// Number of players.
    pub fn players(&self) -> usize {
        self.ratings.len()
    }

    /// Covariance of ratings `i` and `j` (Elo²), `None` if out of range.
    pub fn covariance_of(&self, i: usize, j: usize) -> Option<f64> {
        let n = self.players();
        (i < n && j < n).then(|| self.covariance[i * n + j])
    }

    /// `rating[i] - rating[j]` with its standard error (independent of the
    /// anchor). `None` if an index is out of range.
    pub fn difference(&self, i: usize, j: usize) -> Option<RatingDifference> {
        let var = self.covariance_of(i, i)? + self.covariance_of(j, j)?
            - 2.0 * self.covariance_of(i, j)?;
        let elo = self.ratings[i] - self.ratings[j];
        let std_error = var.max(0.0).sqrt();
        Some(RatingDifference {
            elo,
            std_error,
            interval: Interval::symmetric(elo, self.level.z() * std_error),
        })
    }

    /// Predicted `[white wins, draw, black wins]` probabilities for `white`
    /// against `black`; `None` if an index is out of range.
    pub fn probabilities(&self, white: usize, black: usize) -> Option<[f64; 3]> {
        let (rw, rb) = (*self.ratings.get(white)?, *self.ratings.get(black)?);
        Some(probabilities(
            rw / ELO_PER_NAT,
            rb / ELO_PER_NAT,
            self.white_advantage / ELO_PER_NAT,
            self.draw_nu.ln(),
        ))
    }

    /// Predicted per-game score of `i` against `j`, averaged over both
    /// colours.
    pub fn expected_score(&self, i: usize, j: usize) -> Option<f64> {
        let [w1, d1, _] = self.probabilities(i, j)?;
        let [_, d2, b2] = self.probabilities(j, i)?;
        Some((w1 + d1 / 2.0 + b2 + d2 / 2.0) / 2.0)
    }

    /// [`Self::expected_score`] converted to logistic Elo: the head-to-head
    /// Elo difference the model predicts, directly comparable with a
    /// trinomial or pentanomial match result.
    pub fn score_elo(&self, i: usize, j: usize) -> Option<f64> {
        score_to_elo(self.expected_score(i, j)?).ok()
    }
}

/// Aggregates individual games into per-(White, Black) records.
pub fn aggregate(games: &[Game]) -> Vec<PairRecord> {
    let mut map: BTreeMap<(usize, usize), PairRecord> = BTreeMap::new();
    for g in games {
        let rec = map.entry((g.white, g.black)).or_insert(PairRecord {
            white: g.white,
            black: g.black,
            ..PairRecord::default()
        });
        let slot = match g.result {
            GameResult::WhiteWin => &mut rec.white_wins,
            GameResult::Draw => &mut rec.draws,
            GameResult::BlackWin => &mut rec.black_wins,
        };
        *slot = slot.saturating_add(1);
    }
    map.into_values().collect()
}

/// Fits ratings from individual games; see [`fit`].
pub fn fit_games(
    players: usize,
    games: &[Game],
    options: &FitOptions,
) -> Result<RatingFit, FitError> {
    fit(players, &aggregate(games), options)
}

/// Fits ratings for `players` players from aggregated records by maximum a
/// posteriori (see the module documentation), with intervals from the
/// observed Fisher information.
pub fn fit(
    players: usize,
    records: &[PairRecord],
    options: &FitOptions,
) -> Result<RatingFit, FitError> {
    let problem = Problem::new(players, records, options)?;
    let (theta, iterations) = problem.maximise(options)?;
    let (_, _, hessian) = problem.evaluate(&theta, &problem.cells, true);
    let neg: Vec<f64> = hessian.iter().map(|h| -h).collect();
    let cov_theta = Cholesky::new(&neg, problem.dim())
        .map_err(|_| FitError::Singular)?
        .inverse();
    Ok(problem.finish(&theta, &cov_theta, iterations, options))
}

/// Ratings with parametric-bootstrap uncertainty.
#[derive(Debug, Clone, PartialEq)]
pub struct BootstrapFit {
    /// The fit to the observed data (point estimates, Fisher-information
    /// errors for comparison).
    pub fit: RatingFit,
    /// Standard deviation of each anchored rating over the replicates.
    pub std_errors: Vec<f64>,
    /// Percentile intervals of each anchored rating at the fit's level.
    pub intervals: Vec<Interval>,
    /// Replicates that were fitted successfully.
    pub replicates: usize,
    /// Replicates whose fit failed (excluded).
    pub failed: usize,
}

/// Parametric bootstrap: fits the data, then `replicates` times simulates
/// every record's games (same schedule, same counts) from the fitted model
/// with a `ChaCha8Rng` seeded by `seed`, refits, and summarises the spread of
/// the anchored ratings. Deterministic for a given seed. Costs one fit plus
/// one simulated game per real game for every replicate.
pub fn bootstrap(
    players: usize,
    records: &[PairRecord],
    options: &FitOptions,
    replicates: usize,
    seed: u64,
) -> Result<BootstrapFit, FitError> {
    if replicates == 0 {
        return Err(FitError::InvalidOption(
            "bootstrap needs at least one replicate",
        ));
    }
    let fitted = fit(players, records, options)?;
    let schedule: Vec<(usize, usize, u64, [f64; 3])> = records
        .iter()
        .filter(|r| r.games() > 0)
        .map(|r| {
            let p = fitted
                .probabilities(r.white, r.black)
                .unwrap_or([1.0 / 3.0; 3]);
            (r.white, r.black, r.games(), p)
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(replicates); players];
    let mut failed = 0;
    for _ in 0..replicates {
        let simulated: Vec<PairRecord> = schedule
            .iter()
            .map(|&(white, black, games, [pw, pd, _])| {
                let mut rec = PairRecord {
                    white,
                    black,
                    ..PairRecord::default()
                };
                for _ in 0..games {
                    let u: f64 = rng.random();
                    if u < pw {
                        rec.white_wins += 1;
                    } else if u < pw + pd {
                        rec.draws += 1;
                    } else {
                        rec.black_wins += 1;
                    }
                }
                rec
            })
            .collect();
        match fit(players, &simulated, options) {
            Ok(f) => {
                for (s, r) in samples.iter_mut().zip(&f.ratings) {
                    s.push(*r);
                }
            }
            Err(_) => failed += 1,
        }
    }
    let ok = replicates - failed;
    if ok == 0 {
        return Err(FitError::NoReplicates);
    }
    let level = options.level.get();
    let (lo_q, hi_q) = ((1.0 - level) / 2.0, (1.0 + level) / 2.0);
    let mut std_errors = Vec::with_capacity(players);
    let mut intervals = Vec::with_capacity(players);
    for s in &mut samples {
        let mean = s.iter().sum::<f64>() / ok as f64;
        let var = s.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (ok.max(2) - 1) as f64;
        std_errors.push(var.sqrt());
        s.sort_by(f64::total_cmp);
        intervals.push(Interval::new(quantile(s, lo_q), quantile(s, hi_q)));
    }
    Ok(BootstrapFit {
        fit: fitted,
        std_errors,
        intervals,
        replicates: ok,
        failed,
    })
}

/// Linear-interpolation quantile of sorted, non-empty data.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let frac = pos - lo as f64;
    sorted[lo] * (1.0 - frac) + sorted[hi] * frac
}

/// `[white wins, draw, black wins]` from log-strengths (natural units), the
/// log white advantage `h` and `tau = ln ν`.
fn probabilities(lw: f64, lb: f64, h: f64, tau: f64) -> [f64; 3] {
    let eta = predictors(lw, lb, h, tau);
    let max = eta.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e = eta.map(|x| (x - max).exp());
    let sum: f64 = e.iter().sum();
    e.map(|x| x / sum)
}

/// The multinomial-logit predictors `[η_white, η_draw, η_black]`.
fn predictors(lw: f64, lb: f64, h: f64, tau: f64) -> [f64; 3] {
    [lw + h, tau + (lw + h + lb) / 2.0, lb]
}

/// `∂η_k/∂(λ_w, λ_b, h, τ)`: constant, since the predictors are linear.
const DESIGN: [[f64; 4]; 3] = [
    [1.0, 0.0, 1.0, 0.0],
    [0.5, 0.5, 0.5, 1.0],
    [0.0, 1.0, 0.0, 0.0],
];

/// One (White, Black) cell of counts `[white wins, draws, black wins]`.
#[derive(Debug, Clone, Copy)]
struct Cell {
    white: usize,
    black: usize,
    counts: [f64; 3],
}

/// The fitting problem. Parameters `θ = (λ₁ … λₙ₋₁, h, τ)` in natural units;
/// player 0's log-strength is fixed at 0 to remove the shift invariance
/// (the requested anchor is applied afterwards).
#[derive(Debug)]
struct Problem {
    n: usize,
    /// Observed cells.
    data: Vec<Cell>,
    /// Observed cells followed by the virtual-game cells.
    cells: Vec<Cell>,
}

impl Problem {
    fn new(n: usize, records: &[PairRecord], options: &FitOptions) -> Result<Self, FitError> {
        if n == 0 {
            return Err(FitError::NoPlayers);
        }
        if !(options.virtual_games.is_finite() && options.virtual_games >= 0.0) {
            return Err(FitError::InvalidOption(
                "virtual_games must be finite and >= 0",
            ));
        }
        if options.max_iterations == 0 {
            return Err(FitError::InvalidOption("max_iterations must be positive"));
        }
        if !(options.tolerance.is_finite() && options.tolerance > 0.0) {
            return Err(FitError::InvalidOption(
                "tolerance must be finite and positive",
            ));
        }
        if let Anchor::Player(k) = options.anchor
            && k >= n
        {
            return Err(FitError::PlayerOutOfRange {
                index: k,
                players: n,
            });
        }
        let mut map: BTreeMap<(usize, usize), [f64; 3]> = BTreeMap::new();
        for r in records {
            for index in [r.white, r.black] {
                if index >= n {
                    return Err(FitError::PlayerOutOfRange { index, players: n });
                }
            }
            if r.games() == 0 {
                continue;
            }
            let c = map.entry((r.white, r.black)).or_insert([0.0; 3]);
            c[0] += r.white_wins as f64;
            c[1] += r.draws as f64;
            c[2] += r.black_wins as f64;
        }
        if map.is_empty() {
            return Err(FitError::NoGames);
        }
        let met: BTreeSet<(usize, usize)> =
            map.keys().map(|&(w, b)| (w.min(b), w.max(b))).collect();
        if !connected(n, &met) {
            return Err(FitError::Disconnected);
        }
        let data: Vec<Cell> = map
            .iter()
            .map(|(&(white, black), &counts)| Cell {
                white,
                black,
                counts,
            })
            .collect();
        let mut cells = data.clone();
        let v = options.virtual_games;
        if v > 0.0 {
            for &(i, j) in &met {
                if i == j {
                    cells.push(Cell {
                        white: i,
                        black: i,
                        counts: [v / 3.0; 3],
                    });
                } else {
                    for (white, black) in [(i, j), (j, i)] {
                        cells.push(Cell {
                            white,
                            black,
                            counts: [v / 6.0; 3],
                        });
                    }
                }
            }
        }
        Ok(Self { n, data, cells })
    }

    fn dim(&self) -> usize {
        self.n + 1
    }

    fn lambda(theta: &[f64], i: usize) -> f64 {
        if i == 0 { 0.0 } else { theta[i - 1] }
    }

    /// Log-posterior (or log-likelihood, for `cells = data`), and when
    /// `derivatives` its gradient and Hessian (row-major).
    fn evaluate(
        &self,
        theta: &[f64],
        cells: &[Cell],
        derivatives: bool,
    ) -> (f64, Vec<f64>, Vec<f64>) {
        let m = self.dim();
        let (h, tau) = (theta[m - 2], theta[m - 1]);
        let mut value = 0.0;
        let mut grad = vec![0.0; if derivatives { m } else { 0 }];
        let mut hess = vec![0.0; if derivatives { m * m } else { 0 }];
        for cell in cells {
            let lw = Self::lambda(theta, cell.white);
            let lb = Self::lambda(theta, cell.black);
            let p = probabilities(lw, lb, h, tau);
            let total: f64 = cell.counts.iter().sum();
            for (&n, &pk) in cell.counts.iter().zip(&p) {
                if n > 0.0 {
                    value += n * pk.ln();
                }
            }
            if !derivatives {
                continue;
            }
            let idx = [
                cell.white.checked_sub(1),
                cell.black.checked_sub(1),
                Some(m - 2),
                Some(m - 1),
            ];
            // E_p[X] per local parameter.
            let mut mean_x = [0.0; 4];
            for (a, mx) in mean_x.iter_mut().enumerate() {
                *mx = (0..3).map(|k| p[k] * DESIGN[k][a]).sum();
            }
            for a in 0..4 {
                let Some(ga) = idx[a] else { continue };
                let g: f64 = (0..3)
                    .map(|k| DESIGN[k][a] * (cell.counts[k] - total * p[k]))
                    .sum();
                grad[ga] += g;
                for b in 0..4 {
                    let Some(gb) = idx[b] else { continue };
                    let e_xx: f64 = (0..3).map(|k| p[k] * DESIGN[k][a] * DESIGN[k][b]).sum();
                    hess[ga * m + gb] -= total * (e_xx - mean_x[a] * mean_x[b]);
                }
            }
        }
        (value, grad, hess)
    }

    /// Newton's method with step halving on the concave log-posterior.
    fn maximise(&self, options: &FitOptions) -> Result<(Vec<f64>, usize), FitError> {
        let m = self.dim();
        let mut theta = vec![0.0; m];
        for iteration in 1..=options.max_iterations {
            let (value, grad, hess) = self.evaluate(&theta, &self.cells, true);
            let neg: Vec<f64> = hess.iter().map(|h| -h).collect();
            let step = Cholesky::new(&neg, m)
                .map_err(|_| FitError::Singular)?
                .solve(&grad);
            let mut t = 1.0;
            let mut accepted = false;
            for _ in 0..60 {
                let trial: Vec<f64> = theta.iter().zip(&step).map(|(x, d)| x + t * d).collect();
                let (v, _, _) = self.evaluate(&trial, &self.cells, false);
                if v.is_finite() && v >= value - 1e-12 * value.abs() {
                    theta = trial;
                    accepted = true;
                    break;
                }
                t /= 2.0;
            }
            let largest = step.iter().fold(0.0f64, |acc, d| acc.max((t * d).abs()));
            if !accepted || largest.is_nan() {
                return Err(FitError::NotConverged(iteration));
            }
            if largest < options.tolerance {
                return Ok((theta, iteration));
            }
        }
        Err(FitError::NotConverged(options.max_iterations))
    }

    /// Converts the optimum and its covariance into anchored Elo ratings.
    fn finish(
        &self,
        theta: &[f64],
        cov_theta: &[f64],
        iterations: usize,
        options: &FitOptions,
    ) -> RatingFit {
        let n = self.n;
        let m = self.dim();
        let weights: Vec<f64> = match options.anchor {
            Anchor::Mean => vec![1.0 / n as f64; n],
            Anchor::Player(k) => (0..n).map(|i| if i == k { 1.0 } else { 0.0 }).collect(),
        };
        let lambda: Vec<f64> = (0..n).map(|i| Self::lambda(theta, i)).collect();
        let shift: f64 = lambda.iter().zip(&weights).map(|(l, w)| l * w).sum();
        let ratings: Vec<f64> = lambda.iter().map(|l| (l - shift) * ELO_PER_NAT).collect();

        // Covariance of λ (player 0 fixed ⇒ zero row/column), then of
        // r = (I - 1·wᵀ)·λ: C_ij - (Cw)_i - (Cw)_j + wᵀCw.
        let c = |i: usize, j: usize| {
            if i == 0 || j == 0 {
                0.0
            } else {
                cov_theta[(i - 1) * m + (j - 1)]
            }
        };
        let cw: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| c(i, j) * weights[j]).sum())
            .collect();
        let wcw: f64 = cw.iter().zip(&weights).map(|(a, w)| a * w).sum();
        let scale = ELO_PER_NAT * ELO_PER_NAT;
        let mut covariance = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                covariance[i * n + j] = (c(i, j) - cw[i] - cw[j] + wcw) * scale;
            }
        }
        let z = options.level.z();
        let std_errors: Vec<f64> = (0..n)
            .map(|i| covariance[i * n + i].max(0.0).sqrt())
            .collect();
        let intervals = ratings
            .iter()
            .zip(&std_errors)
            .map(|(&r, &se)| Interval::symmetric(r, z * se))
            .collect();
        let tau = theta[m - 1];
        let draw_nu = tau.exp();
        let (log_likelihood, _, _) = self.evaluate(theta, &self.data, false);
        RatingFit {
            ratings,
            std_errors,
            intervals,
            white_advantage: theta[m - 2] * ELO_PER_NAT,
            white_advantage_std_error: cov_theta[(m - 2) * m + (m - 2)].max(0.0).sqrt()
                * ELO_PER_NAT,
            draw_nu,
            draw_nu_std_error: draw_nu * cov_theta[(m - 1) * m + (m - 1)].max(0.0).sqrt(),
            covariance,
            log_likelihood,
            iterations,
            anchor: options.anchor,
            level: options.level,
        }
    }
}

/// Whether the graph on `n` players with edges `met` is connected.
fn connected(n: usize, met: &BTreeSet<(usize, usize)>) -> bool {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for &(a, b) in met {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra] = rb;
    }
    let r0 = root(&mut parent, 0);
    (1..n).all(|i| root(&mut parent, i) == r0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    /// Round robin: every ordered pair plays `games` games, drawn from the
    /// Davidson model with the given true parameters.
    fn simulate(
        ratings: &[f64],
        white_advantage: f64,
        nu: f64,
        games: u64,
        rng: &mut impl Rng,
    ) -> Vec<PairRecord> {
        let mut out = Vec::new();
        for (w, &rw) in ratings.iter().enumerate() {
            for (b, &rb) in ratings.iter().enumerate() {
                if w == b {
                    continue;
                }
                let p = probabilities(
                    rw / ELO_PER_NAT,
                    rb / ELO_PER_NAT,
                    white_advantage / ELO_PER_NAT,
                    nu.ln(),
                );
                let mut rec = PairRecord {
                    white: w,
                    black: b,
                    ..PairRecord::default()
                };
                for _ in 0..games {
                    let u: f64 = rng.random();
                    if u < p[0] {
                        rec.white_wins += 1;
                    } else if u < p[0] + p[1] {
                        rec.draws += 1;
                    } else {
                        rec.black_wins += 1;
                    }
                }
                out.push(rec);
            }
        }
        out
    }

    const TRUTH: [f64; 5] = [-90.0, -30.0, 0.0, 40.0, 80.0];

    #[test]
    fn known_answer_two_players_without_draw_prior() {
        // Player 1 wins 30, player 0 wins 10, 2 draws, colours balanced.
        // The Davidson score equations give p_k = n_k/N for the pooled
        // results, so γ1/γ0 = 30/10 ⇒ r1 - r0 = 400·log10(3) = 190.85 Elo,
        // h = 0, and ν = p_D/sqrt(p0·p1) = D/sqrt(W0·W1) = 2/sqrt(300).
        // Each colour cell is then matched exactly (15/1/5 and 5/1/15).
        let records = [
            PairRecord {
                white: 1,
                black: 0,
                white_wins: 15,
                draws: 1,
                black_wins: 5,
            },
            PairRecord {
                white: 0,
                black: 1,
                white_wins: 5,
                draws: 1,
                black_wins: 15,
            },
        ];
        let options = FitOptions {
            virtual_games: 0.0,
            anchor: Anchor::Player(0),
            ..FitOptions::default()
        };
        let fit = fit(2, &records, &options).unwrap();
        assert!(
            (fit.ratings[1] - 400.0 * 3f64.log10()).abs() < 1e-6,
            "{:?}",
            fit.ratings
        );
        assert_eq!(fit.ratings[0], 0.0);
        assert_eq!(fit.std_errors[0], 0.0);
        assert!(fit.white_advantage.abs() < 1e-6);
        assert!(
            (fit.draw_nu - 2.0 / 300f64.sqrt()).abs() < 1e-6,
            "{}",
            fit.draw_nu
        );
        assert!((fit.score_elo(1, 0).unwrap() - score_to_elo(31.0 / 42.0).unwrap()).abs() < 1e-6);
    }

    #[test]
    fn recovers_ratings_within_intervals() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let records = simulate(&TRUTH, 35.0, 0.8, 150, &mut rng);
        let fit = fit(TRUTH.len(), &records, &FitOptions::default()).unwrap();
        for (i, t) in TRUTH.iter().enumerate() {
            assert!(
                fit.intervals[i].contains(*t),
                "player {i}: {:?} vs {t}",
                fit.intervals[i]
            );
            assert!(fit.std_errors[i] > 1.0 && fit.std_errors[i] < 30.0);
        }
        assert!(fit.ratings.iter().sum::<f64>().abs() < 1e-6);
        assert!((fit.white_advantage - 35.0).abs() < 3.0 * fit.white_advantage_std_error);
        assert!((fit.draw_nu - 0.8).abs() < 3.0 * fit.draw_nu_std_error);
        // Anchoring on a player shifts ratings but not differences.
        let anchored = super::fit(
            TRUTH.len(),
            &records,
            &FitOptions {
                anchor: Anchor::Player(2),
                ..FitOptions::default()
            },
        )
        .unwrap();
        assert_eq!(anchored.ratings[2], 0.0);
        let d1 = fit.difference(4, 0).unwrap();
        let d2 = anchored.difference(4, 0).unwrap();
        assert!((d1.elo - d2.elo).abs() < 1e-6);
        assert!((d1.std_error - d2.std_error).abs() < 1e-6);
        assert!((d1.std_error - anchored.std_errors[4]).abs() > 1e-3);
    }

    /// 2,000 seeded round robins of 5 players, 30 games per ordered pair:
    /// the 95% Fisher intervals of a rating and of a difference miss the
    /// truth at most at the nominal rate.
    #[test]
    fn interval_coverage_is_nominal() {
        use crate::error_rate::ObservedRate;
        let mut rng = ChaCha8Rng::seed_from_u64(2024);
        let runs = 2000;
        let (mut rating_missed, mut difference_missed) = (0, 0);
        for _ in 0..runs {
            let records = simulate(&TRUTH, 35.0, 0.8, 30, &mut rng);
            let fit = fit(TRUTH.len(), &records, &FitOptions::default()).unwrap();
            rating_missed += u64::from(!fit.intervals[4].contains(TRUTH[4]));
            let d = fit.difference(4, 0).unwrap();
            difference_missed += u64::from(!d.interval.contains(TRUTH[4] - TRUTH[0]));
        }
        ObservedRate::new(rating_missed, runs)
            .assert_at_most(0.05, "a rating's 95% interval misses");
        ObservedRate::new(difference_missed, runs)
            .assert_at_most(0.05, "a difference's 95% interval misses");
    }

    #[test]
    fn perfect_score_stays_finite() {
        // Player 0 wins every game against both others.
        let mut records = Vec::new();
        for opp in [1, 2] {
            records.push(PairRecord {
                white: 0,
                black: opp,
                white_wins: 20,
                ..Default::default()
            });
            records.push(PairRecord {
                white: opp,
                black: 0,
                black_wins: 20,
                ..Default::default()
            });
        }
        records.push(PairRecord {
            white: 1,
            black: 2,
            white_wins: 5,
            draws: 10,
            black_wins: 5,
        });
        records.push(PairRecord {
            white: 2,
            black: 1,
            white_wins: 5,
            draws: 10,
            black_wins: 5,
        });
        let fit = fit(3, &records, &FitOptions::default()).unwrap();
        assert!(fit.ratings.iter().all(|r| r.is_finite()));
        assert!(fit.std_errors.iter().all(|s| s.is_finite()));
        assert!(fit.ratings[0] > fit.ratings[1] + 300.0, "{:?}", fit.ratings);
        assert!(fit.ratings[0] < 3000.0);
        // Without the prior the MLE does not exist.
        let plain = FitOptions {
            virtual_games: 0.0,
            ..FitOptions::default()
        };
        assert!(super::fit(3, &records, &plain).is_err());
    }

    #[test]
    fn rejects_bad_input() {
        let rec = PairRecord {
            white: 0,
            black: 1,
            white_wins: 1,
            ..Default::default()
        };
        let o = FitOptions::default();
        assert_eq!(fit(0, &[rec], &o), Err(FitError::NoPlayers));
        assert_eq!(fit(2, &[], &o), Err(FitError::NoGames));
        assert_eq!(
            fit(1, &[rec], &o),
            Err(FitError::PlayerOutOfRange {
                index: 1,
                players: 1
            })
        );
        assert_eq!(fit(3, &[rec], &o), Err(FitError::Disconnected));
        let bad = FitOptions {
            virtual_games: f64::NAN,
            ..o
        };
        assert!(matches!(
            fit(2, &[rec], &bad),
            Err(FitError::InvalidOption(_))
        ));
        let bad = FitOptions {
            anchor: Anchor::Player(5),
            ..o
        };
        assert!(matches!(
            fit(2, &[rec], &bad),
            Err(FitError::PlayerOutOfRange { .. })
        ));
        assert!(matches!(
            bootstrap(2, &[rec], &o, 0, 1),
            Err(FitError::InvalidOption(_))
        ));
    }

    #[test]
    fn games_and_records_agree_and_predictions_are_consistent() {
        let games = [
            Game {
                white: 0,
                black: 1,
                result: GameResult::WhiteWin,
            },
            Game {
                white: 0,
                black: 1,
                result: GameResult::Draw,
            },
            Game {
                white: 1,
                black: 0,
                result: GameResult::BlackWin,
            },
            Game {
                white: 1,
                black: 0,
                result: GameResult::Draw,
            },
            Game {
                white: 1,
                black: 0,
                result: GameResult::WhiteWin,
            },
        ];
        let recs = aggregate(&games);
        assert_eq!(recs.len(), 2);
        let a = fit_games(2, &games, &FitOptions::default()).unwrap();
        let b = fit(2, &recs, &FitOptions::default()).unwrap();
        assert_eq!(a, b);
        let p = a.probabilities(0, 1).unwrap();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let s01 = a.expected_score(0, 1).unwrap();
        let s10 = a.expected_score(1, 0).unwrap();
        assert!((s01 + s10 - 1.0).abs() < 1e-12);
        assert!(a.ratings[0] > a.ratings[1] && s01 > 0.5);
        // Head-to-head logistic Elo is smaller than the Davidson gap.
        let e = a.score_elo(0, 1).unwrap();
        assert!(e > 0.0 && e < a.ratings[0] - a.ratings[1]);
        assert!(a.probabilities(0, 9).is_none());
    }

    #[test]
    fn bootstrap_matches_fisher_errors_and_is_reproducible() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let truth = [-40.0, 0.0, 40.0];
        let records = simulate(&truth, 30.0, 0.8, 60, &mut rng);
        let o = FitOptions::default();
        let boot = bootstrap(3, &records, &o, 150, 99).unwrap();
        assert_eq!(boot.replicates + boot.failed, 150);
        assert_eq!(boot.failed, 0);
        for i in 0..3 {
            let ratio = boot.std_errors[i] / boot.fit.std_errors[i];
            assert!((0.8..1.25).contains(&ratio), "player {i}: ratio {ratio}");
            assert!(boot.intervals[i].contains(boot.fit.ratings[i]));
        }
        assert_eq!(bootstrap(3, &records, &o, 150, 99).unwrap(), boot);
        assert_ne!(
            bootstrap(3, &records, &o, 150, 100).unwrap().std_errors,
            boot.std_errors
        );
    }
}
