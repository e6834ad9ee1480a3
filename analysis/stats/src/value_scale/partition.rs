//! The class table the evidence supports: contiguous classes of the value
//! ladder, exact by dynamic programming, with their bootstrap stability.
//!
//! # Tables
//!
//! Pieces are taken in value order and cut into contiguous classes; a
//! class's *spread* is its highest value minus its lowest.
//!
//! * [`partition`]: `K` classes minimising the largest spread.
//! * [`partition_within`]: the fewest classes whose members are all within
//!   a margin `m` of each other, by one of two criteria ([`WithinClass`]):
//!   the estimates' spread at most `m`, or every pair of a class *shown*
//!   within `m` (its confidence interval for the difference inside `±m`,
//!   which is TOST at `(1 - level)/2` per pair). Among the tables with that
//!   many classes, the one with the smallest largest spread.
//! * [`partition_apart`]: the fewest classes that keep every pair known to
//!   differ in different classes (the pairs a table that holds cannot put
//!   together), every other pair of a class within a margin by the
//!   estimates unless known equivalent, arranged as [`partition_within`]
//!   arranges them.
//!
//! Many tables can share the smallest largest spread (only the widest class
//! is pinned), so ties are broken by the smallest sum of spreads: the
//! classes other than the widest are as tight as they can be. Both stages
//! are exact dynamic programmes over the ladder (`O(K·n²)`).
//!
//! # Stability
//!
//! A table is a function of the estimates; the estimates are uncertain.
//! Values are drawn from the multivariate normal of the fit (its estimates
//! and full covariance, so pieces measured through the same matchups move
//! together; seeded ChaCha8), the same rule is applied to each draw, and
//! the table's stability is the share of draws that give the same table:
//! the same classes as sets of pieces. Near 1, the data pin the table down;
//! well below, pieces near a boundary could go either way and the table is
//! one of several the evidence allows. Each class also gets its own share
//! of draws in which it appears exactly.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use super::fit::{ScaleFit, fieller};
use crate::estimate::ConfidenceLevel;
use crate::linalg::Cholesky;
use crate::sim::standard_normal;

/// The scale a table is cut on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ScaleUnits {
    /// Logistic Elo.
    Elo,
    /// Pawns (values over the pawn's; the unit must be shown positive).
    #[default]
    Pawns,
}

/// When the members of a class count as within the margin of each other.
///
/// The intervals of [`WithinClass::ConfidenceBound`] are those of
/// [`ScaleFit::difference`] at the given level: Student's t with the
/// difference's Welch–Satterthwaite degrees of freedom.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WithinClass {
    /// The estimates: the class's spread is at most the margin.
    Estimates,
    /// The evidence: for every pair in the class, the two-sided interval at
    /// this level for their difference lies inside `±margin` (a 90% level
    /// is TOST at 5% per pair; no correction across the pairs). In pawns
    /// the interval is Fieller's.
    ConfidenceBound(ConfidenceLevel),
}

/// Settings of the stability bootstrap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PartitionOptions {
    /// The scale of values and margin.
    pub units: ScaleUnits,
    /// Bootstrap draws (at least 1).
    pub draws: usize,
    /// Seed of the draws.
    pub seed: u64,
}

impl Default for PartitionOptions {
    fn default() -> Self {
        Self {
            units: ScaleUnits::Pawns,
            draws: 1000,
            seed: 0,
        }
    }
}

/// Why no table can be given.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum PartitionError {
    /// No piece has a value.
    #[error("no piece has a value")]
    NoValues,
    /// Zero classes, or more classes than valued pieces.
    #[error("{classes} classes asked of {pieces} valued pieces")]
    Classes {
        /// Classes asked for.
        classes: usize,
        /// Pieces with a value.
        pieces: usize,
    },
    /// A margin that is negative or not finite.
    #[error("the margin must be finite and non-negative, got {0}")]
    Margin(f64),
    /// Zero bootstrap draws.
    #[error("the stability needs at least one bootstrap draw")]
    NoDraws,
    /// A table in pawns without a unit shown positive.
    #[error("no table in pawns: the pawn's value is not shown positive")]
    NoUnit,
    /// The covariance could not be factorised for the draws.
    #[error("the covariance of the values is not positive definite")]
    Covariance,
}

/// A class table and how firmly the evidence holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassTable {
    /// Classes from the lowest to the highest, each its pieces from the
    /// lowest value up.
    pub classes: Vec<Vec<usize>>,
    /// Each class's spread (highest minus lowest value), in `units`.
    pub spreads: Vec<f64>,
    /// The largest spread.
    pub largest_spread: f64,
    /// Share of bootstrap draws giving the same table.
    pub stability: f64,
    /// Per class, the share of draws in which it is a class.
    pub class_stability: Vec<f64>,
    /// Bootstrap draws behind the shares.
    pub draws: usize,
    /// The scale of values and spreads.
    pub units: ScaleUnits,
}

/// `K` contiguous classes of `sorted` (ascending values) minimising the
/// largest spread, ties broken by the smallest sum of spreads: the first
/// index of each class (the first is 0). `None` unless `1 ≤ classes ≤
/// sorted.len()`.
pub fn minimax_classes(sorted: &[f64], classes: usize) -> Option<Vec<usize>> {
    let spread = |i: usize, j: usize| sorted[j - 1] - sorted[i];
    best_partition(sorted.len(), classes, &spread, &|_, _| true)
}

/// The fewest contiguous classes of `sorted` (ascending) with every spread
/// at most `margin`, arranged as [`minimax_classes`] arranges them: the
/// first index of each class. Empty for no values.
pub fn fewest_classes(sorted: &[f64], margin: f64) -> Vec<usize> {
    let spread = |i: usize, j: usize| sorted[j - 1] - sorted[i];
    fewest(sorted.len(), &spread, &|i, j| spread(i, j) <= margin)
}

/// `K` classes minimising the largest spread in `options.units`, with their
/// stability; see the module documentation.
pub fn partition(
    fit: &ScaleFit,
    classes: usize,
    options: &PartitionOptions,
) -> Result<ClassTable, PartitionError> {
    let values = Values::new(fit, options)?;
    let pieces = values.ids.len();
    if classes == 0 || classes > pieces {
        return Err(PartitionError::Classes { classes, pieces });
    }
    values.table(options, |v| {
        let sorted: Vec<f64> = v.order.iter().map(|&p| v.value[p]).collect();
        minimax_classes(&sorted, classes).unwrap_or_default()
    })
}

/// The fewest classes whose members are within `margin` of each other by
/// `within`, with the smallest largest spread among such tables, and
/// their stability; see the module documentation.
pub fn partition_within(
    fit: &ScaleFit,
    margin: f64,
    within: WithinClass,
    options: &PartitionOptions,
) -> Result<ClassTable, PartitionError> {
    if !(margin.is_finite() && margin >= 0.0) {
        return Err(PartitionError::Margin(margin));
    }
    let values = Values::new(fit, options)?;
    let boundaries = match within {
        WithinClass::ConfidenceBound(level) => values.boundaries(level),
        WithinClass::Estimates => Vec::new(),
    };
    values.table(options, |v| {
        let sorted: Vec<f64> = v.order.iter().map(|&p| v.value[p]).collect();
        let spread = |i: usize, j: usize| sorted[j - 1] - sorted[i];
        match within {
            WithinClass::Estimates => fewest(sorted.len(), &spread, &|i, j| spread(i, j) <= margin),
            WithinClass::ConfidenceBound(_) => {
                let ok = values.pairs_within(v, margin, &boundaries);
                fewest(sorted.len(), &spread, &|i, j| ok[i][j - 1])
            }
        }
    })
}

/// The fewest contiguous classes that put no pair of `apart` (piece
/// indices, in either order) in one class, and no other pair whose
/// estimates are more than `margin` apart (infinite: no limit) unless it
/// is in `alike` (known equivalent), with the smallest largest spread
/// among such tables, and their stability; see the module documentation.
/// The pairs stay fixed across the bootstrap draws (they are claims
/// already made); pairs naming a piece without a value are left out, and
/// a pair in both lists is apart.
pub fn partition_apart(
    fit: &ScaleFit,
    apart: &[(usize, usize)],
    alike: &[(usize, usize)],
    margin: f64,
    options: &PartitionOptions,
) -> Result<ClassTable, PartitionError> {
    if margin.is_nan() || margin < 0.0 {
        return Err(PartitionError::Margin(margin));
    }
    let values = Values::new(fit, options)?;
    let k = values.ids.len();
    let position = |piece: usize| values.ids.iter().position(|&i| i == piece);
    let mark = |pairs: &[(usize, usize)]| {
        let mut marked = vec![vec![false; k]; k];
        for &(a, b) in pairs {
            if let (Some(p), Some(q)) = (position(a), position(b)) {
                marked[p][q] = true;
                marked[q][p] = true;
            }
        }
        marked
    };
    let (split, equal) = (mark(apart), mark(alike));
    values.table(options, |v| {
        let sorted: Vec<f64> = v.order.iter().map(|&p| v.value[p]).collect();
        let spread = |i: usize, j: usize| sorted[j - 1] - sorted[i];
        let pair = |i: usize, j: usize| {
            let (p, q) = (v.order[i], v.order[j]);
            !split[p][q] && (equal[p][q] || sorted[j] - sorted[i] <= margin)
        };
        let together = runs_where(k, pair);
        fewest(k, &spread, &|i, j| together[i][j - 1])
    })
}

/// How often the evidence picks a given table (pieces by index, every
/// valued piece in one class, none unvalued): the share of bootstrap
/// draws in which [`partition`]'s table with as many classes is this one,
/// as sets of pieces. A table that is not contiguous on the ladder is
/// never picked.
pub fn minimax_agreement(
    fit: &ScaleFit,
    classes: &[Vec<usize>],
    options: &PartitionOptions,
) -> Result<f64, PartitionError> {
    let values = Values::new(fit, options)?;
    let k = values.ids.len();
    let wrong_size = PartitionError::Classes {
        classes: classes.len(),
        pieces: k,
    };
    let table: Vec<Vec<usize>> = classes
        .iter()
        .map(|c| {
            c.iter()
                .map(|&piece| values.ids.iter().position(|&i| i == piece))
                .collect::<Option<Vec<usize>>>()
        })
        .collect::<Option<_>>()
        .ok_or(PartitionError::NoValues)?;
    let mut covered: Vec<usize> = table.iter().flatten().copied().collect();
    covered.sort_unstable();
    covered.dedup();
    let members: usize = table.iter().map(Vec::len).sum();
    if classes.is_empty() || classes.len() > k || covered.len() != k || members != k {
        return Err(wrong_size);
    }
    let target = labels(&table, k);
    let same = values
        .draws(options)?
        .iter()
        .filter(|d| {
            let sorted: Vec<f64> = d.order.iter().map(|&p| d.value[p]).collect();
            let starts = minimax_classes(&sorted, classes.len()).unwrap_or_default();
            labels(&classes_of(&d.order, &starts, k), k) == target
        })
        .count();
    Ok(same as f64 / options.draws as f64)
}

/// The valued pieces' estimates (or a draw of them) on the table's scale.
struct Draw {
    /// Values by position among the valued pieces.
    value: Vec<f64>,
    /// Elo values by position (the draw itself), for the interval criterion.
    elo: Vec<f64>,
    /// Positions from the lowest value up (ties by position).
    order: Vec<usize>,
}

/// What the tables are built from.
struct Values<'a> {
    fit: &'a ScaleFit,
    /// Piece index of each position.
    ids: Vec<usize>,
    /// Position of the pawn (for tables in pawns).
    unit: Option<usize>,
    units: ScaleUnits,
}

impl<'a> Values<'a> {
    fn new(fit: &'a ScaleFit, options: &PartitionOptions) -> Result<Self, PartitionError> {
        if options.draws == 0 {
            return Err(PartitionError::NoDraws);
        }
        let ids: Vec<usize> = (0..fit.pieces())
            .filter(|&i| fit.index[i].is_some())
            .collect();
        if ids.is_empty() {
            return Err(PartitionError::NoValues);
        }
        let unit = match options.units {
            ScaleUnits::Elo => None,
            ScaleUnits::Pawns => match fit.unit {
                Ok(u) if u.shown_positive => fit.index[fit.pawn],
                _ => return Err(PartitionError::NoUnit),
            },
        };
        Ok(Self {
            fit,
            ids,
            unit,
            units: options.units,
        })
    }

    fn draw(&self, elo: Vec<f64>) -> Draw {
        let value: Vec<f64> = match self.unit {
            Some(u) => elo.iter().map(|v| v / elo[u]).collect(),
            None => elo.clone(),
        };
        let mut order: Vec<usize> = (0..value.len()).collect();
        order.sort_by(|&x, &y| value[x].total_cmp(&value[y]).then(x.cmp(&y)));
        Draw { value, elo, order }
    }

    /// Per pair of positions, the boundary of `level` for the statistic
    /// of its difference (Student's t with its degrees of freedom, at the
    /// fit's estimates; in pawns Fieller's `(e_q - e_p - θ·e_u)ᵀv̂`).
    fn boundaries(&self, level: ConfidenceLevel) -> Vec<Vec<f64>> {
        let k = self.ids.len();
        let est = &self.fit.estimates;
        (0..k)
            .map(|p| {
                (0..k)
                    .map(|q| {
                        let mut c = vec![0.0; k];
                        c[q] += 1.0;
                        c[p] -= 1.0;
                        if let Some(u) = self.unit {
                            c[u] -= (est[q] - est[p]) / est[u];
                        }
                        self.fit.boundary(level, &c)
                    })
                    .collect()
            })
            .collect()
    }

    /// `ok[i][j]` (ladder positions, `i ≤ j`): every pair among positions
    /// `i..=j` has its interval inside `±margin`, centred on the draw's
    /// values with the fit's covariance and `boundaries`.
    fn pairs_within(&self, d: &Draw, margin: f64, boundaries: &[Vec<f64>]) -> Vec<Vec<bool>> {
        let k = self.ids.len();
        let cov = |p: usize, q: usize| self.fit.covariance[p * k + q];
        let pair = |p: usize, q: usize| {
            let c = boundaries[p][q];
            let diff = d.elo[q] - d.elo[p];
            let var = cov(p, p) + cov(q, q) - 2.0 * cov(p, q);
            match self.unit {
                None => diff.abs() + c * var.max(0.0).sqrt() <= margin,
                Some(u) => fieller(diff, d.elo[u], var, cov(u, u), cov(q, u) - cov(p, u), c)
                    .is_some_and(|i| -margin <= i.lower && i.upper <= margin),
            }
        };
        runs_where(k, |i, j| pair(d.order[i], d.order[j]))
    }

    /// The fit's estimates, by position.
    fn estimates(&self) -> Vec<f64> {
        self.ids
            .iter()
            .map(|&i| self.fit.values[i].map_or(f64::NAN, |v| v.elo))
            .collect()
    }

    /// The bootstrap draws of the values (seeded): multivariate normal
    /// from the fit's estimates and covariance.
    fn draws(&self, options: &PartitionOptions) -> Result<Vec<Draw>, PartitionError> {
        let k = self.ids.len();
        let estimates = self.estimates();
        let chol =
            Cholesky::new(&self.fit.covariance, k).map_err(|_| PartitionError::Covariance)?;
        let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
        Ok((0..options.draws)
            .map(|_| {
                let z: Vec<f64> = (0..k).map(|_| standard_normal(&mut rng)).collect();
                let elo: Vec<f64> = chol
                    .correlate(&z)
                    .iter()
                    .zip(&estimates)
                    .map(|(e, m)| m + e)
                    .collect();
                self.draw(elo)
            })
            .collect())
    }

    /// The table `rule` gives on the estimates, and the share of draws on
    /// which it gives the same one.
    fn table(
        &self,
        options: &PartitionOptions,
        rule: impl Fn(&Draw) -> Vec<usize>,
    ) -> Result<ClassTable, PartitionError> {
        let k = self.ids.len();
        let at_estimates = self.draw(self.estimates());
        let starts = rule(&at_estimates);
        let classes = classes_of(&at_estimates.order, &starts, k);
        let table_labels = labels(&classes, k);
        let mut same = 0usize;
        let mut class_same = vec![0usize; classes.len()];
        for d in self.draws(options)? {
            let drawn = classes_of(&d.order, &rule(&d), k);
            same += usize::from(labels(&drawn, k) == table_labels);
            for (c, hits) in classes.iter().zip(&mut class_same) {
                let mut sorted = c.clone();
                sorted.sort_unstable();
                *hits += usize::from(drawn.iter().any(|x| {
                    let mut x = x.clone();
                    x.sort_unstable();
                    x == sorted
                }));
            }
        }
        let spreads: Vec<f64> = classes
            .iter()
            .map(|c| at_estimates.value[c[c.len() - 1]] - at_estimates.value[c[0]])
            .collect();
        let share = |n: usize| n as f64 / options.draws as f64;
        Ok(ClassTable {
            classes: classes
                .iter()
                .map(|c| c.iter().map(|&p| self.ids[p]).collect())
                .collect(),
            largest_spread: spreads.iter().copied().fold(0.0, f64::max),
            spreads,
            stability: share(same),
            class_stability: class_same.into_iter().map(share).collect(),
            draws: options.draws,
            units: self.units,
        })
    }
}

/// `ok[i][j]` (ladder positions, `i ≤ j`): every pair among positions
/// `i..=j` satisfies `pair` (built from the shorter runs inside it).
fn runs_where(k: usize, pair: impl Fn(usize, usize) -> bool) -> Vec<Vec<bool>> {
    let mut ok = vec![vec![true; k]; k];
    for len in 1..k {
        for i in 0..k - len {
            let j = i + len;
            ok[i][j] = ok[i][j - 1] && ok[i + 1][j] && pair(i, j);
        }
    }
    ok
}

/// The classes (positions) that class starts `starts` cut `order` into.
fn classes_of(order: &[usize], starts: &[usize], k: usize) -> Vec<Vec<usize>> {
    let mut ends: Vec<usize> = starts.iter().skip(1).copied().collect();
    ends.push(k);
    starts
        .iter()
        .zip(ends)
        .map(|(&s, e)| order[s..e].to_vec())
        .collect()
}

/// Each position's class, labelled by the smallest position in it: equal
/// exactly for tables with the same classes as sets.
fn labels(classes: &[Vec<usize>], k: usize) -> Vec<usize> {
    let mut out = vec![0; k];
    for c in classes {
        let label = c.iter().copied().min().unwrap_or(0);
        for &p in c {
            out[p] = label;
        }
    }
    out
}

/// `table[c][j]`: the smallest largest spread of `c` classes over the first
/// `j` values using feasible classes (∞ when there is none).
fn minimax_table(
    n: usize,
    max_classes: usize,
    spread: &dyn Fn(usize, usize) -> f64,
    feasible: &dyn Fn(usize, usize) -> bool,
) -> Vec<Vec<f64>> {
    let mut t = vec![vec![f64::INFINITY; n + 1]; max_classes + 1];
    t[0][0] = f64::NEG_INFINITY;
    for c in 1..=max_classes {
        let (done, rest) = t.split_at_mut(c);
        let prev = &done[c - 1];
        for (j, cell) in rest[0].iter_mut().enumerate().skip(c) {
            *cell = (c - 1..j)
                .filter(|&i| prev[i] < f64::INFINITY && feasible(i, j))
                .map(|i| prev[i].max(spread(i, j)))
                .fold(f64::INFINITY, f64::min);
        }
    }
    t
}

/// Among `classes`-class tables of feasible classes with no spread above
/// `bound`, the one with the smallest sum of spreads: its class starts.
fn least_total(
    n: usize,
    classes: usize,
    bound: f64,
    spread: &dyn Fn(usize, usize) -> f64,
    feasible: &dyn Fn(usize, usize) -> bool,
) -> Option<Vec<usize>> {
    let mut total = vec![vec![f64::INFINITY; n + 1]; classes + 1];
    let mut from = vec![vec![0usize; n + 1]; classes + 1];
    total[0][0] = 0.0;
    for c in 1..=classes {
        for j in c..=n {
            for i in c - 1..j {
                if total[c - 1][i] < f64::INFINITY && feasible(i, j) && spread(i, j) <= bound {
                    let t = total[c - 1][i] + spread(i, j);
                    if t < total[c][j] {
                        total[c][j] = t;
                        from[c][j] = i;
                    }
                }
            }
        }
    }
    if total[classes][n] == f64::INFINITY {
        return None;
    }
    let mut starts = vec![0; classes];
    let mut j = n;
    for c in (1..=classes).rev() {
        starts[c - 1] = from[c][j];
        j = from[c][j];
    }
    Some(starts)
}

/// The minimax table of `classes` classes of feasible classes, ties by
/// the sum of spreads.
fn best_partition(
    n: usize,
    classes: usize,
    spread: &dyn Fn(usize, usize) -> f64,
    feasible: &dyn Fn(usize, usize) -> bool,
) -> Option<Vec<usize>> {
    if classes == 0 || classes > n {
        return None;
    }
    let bound = minimax_table(n, classes, spread, feasible)[classes][n];
    if bound == f64::INFINITY {
        return None;
    }
    least_total(n, classes, bound, spread, feasible)
}

/// The fewest feasible classes (singletons always are), arranged by
/// [`best_partition`].
fn fewest(
    n: usize,
    spread: &dyn Fn(usize, usize) -> f64,
    feasible: &dyn Fn(usize, usize) -> bool,
) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    let t = minimax_table(n, n, spread, feasible);
    let classes = (1..=n).find(|&c| t[c][n] < f64::INFINITY).unwrap_or(n);
    least_total(n, classes, t[classes][n], spread, feasible).unwrap_or_else(|| (0..n).collect())
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::value_scale::{ScaleModel, ScaleOptions, fit_scale, ladder_plan};

    /// Largest and total spread of the classes starting at `starts`.
    fn score(sorted: &[f64], starts: &[usize]) -> (f64, f64) {
        let mut ends: Vec<usize> = starts[1..].to_vec();
        ends.push(sorted.len());
        starts
            .iter()
            .zip(ends)
            .fold((0.0f64, 0.0), |(m, s), (&a, b)| {
                let spread = sorted[b - 1] - sorted[a];
                (m.max(spread), s + spread)
            })
    }

    /// Every way to cut `n` values into contiguous classes, as class starts.
    fn all_tables(n: usize) -> Vec<Vec<usize>> {
        (0..1u32 << (n - 1))
            .map(|mask| {
                let mut starts = vec![0];
                starts.extend((1..n).filter(|b| mask & (1 << (b - 1)) != 0));
                starts
            })
            .collect()
    }

    /// The best (largest, total) spread over `tables`, lexicographically.
    fn best(sorted: &[f64], tables: impl Iterator<Item = Vec<usize>>) -> Option<(f64, f64)> {
        tables
            .map(|t| score(sorted, &t))
            .fold(None, |b, s| match b {
                Some(b) if (b.0, b.1) <= s => Some(b),
                _ => Some(s),
            })
    }

    /// On random ladders of up to 9 values (some with ties), the dynamic
    /// programmes find the same optimum as trying every table: `K`
    /// classes with the smallest largest spread and then the smallest
    /// total; the fewest classes within a margin, arranged the same way.
    #[test]
    fn dynamic_programmes_match_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        for instance in 0..400 {
            let n = rng.random_range(1..=9usize);
            let mut sorted: Vec<f64> = (0..n)
                .map(|_| {
                    let v: f64 = rng.random_range(0.0..10.0);
                    if instance % 3 == 0 { v.round() } else { v }
                })
                .collect();
            sorted.sort_by(f64::total_cmp);
            let tables = all_tables(n);
            for k in 1..=n {
                let dp = minimax_classes(&sorted, k).unwrap();
                assert_eq!(dp.len(), k);
                assert!(dp.windows(2).all(|w| w[0] < w[1]) && dp[0] == 0);
                let brute = best(&sorted, tables.iter().filter(|t| t.len() == k).cloned()).unwrap();
                let got = score(&sorted, &dp);
                assert_eq!(got.0, brute.0, "{sorted:?} k={k}");
                assert!(
                    (got.1 - brute.1).abs() < 1e-9,
                    "{sorted:?} k={k}: {got:?} vs {brute:?}"
                );
            }
            assert_eq!(minimax_classes(&sorted, 0), None);
            assert_eq!(minimax_classes(&sorted, n + 1), None);
            let margin = rng.random_range(0.0..4.0);
            let dp = fewest_classes(&sorted, margin);
            let fits = |t: &Vec<usize>| score(&sorted, t).0 <= margin;
            let fewest = tables
                .iter()
                .filter(|t| fits(t))
                .map(Vec::len)
                .min()
                .unwrap();
            assert_eq!(dp.len(), fewest, "{sorted:?} margin {margin}");
            let brute = best(
                &sorted,
                tables
                    .iter()
                    .filter(|t| t.len() == fewest && fits(t))
                    .cloned(),
            )
            .unwrap();
            let got = score(&sorted, &dp);
            assert!(got.0 <= margin);
            assert_eq!(got.0, brute.0);
            assert!((got.1 - brute.1).abs() < 1e-9);
        }
        assert!(fewest_classes(&[], 1.0).is_empty());
    }

    #[test]
    fn known_tables() {
        let v = [0.0, 1.0, 10.0, 11.0, 12.0, 30.0];
        assert_eq!(minimax_classes(&v, 3), Some(vec![0, 2, 5]));
        assert_eq!(minimax_classes(&v, 1), Some(vec![0]));
        assert_eq!(minimax_classes(&v, 6), Some(vec![0, 1, 2, 3, 4, 5]));
        // Within 1: {0, 1}, {10, 11}, {12}, {30}; the tie ({10}, {11, 12})
        // has the same spreads, and the first found is kept.
        assert_eq!(fewest_classes(&v, 1.0).len(), 4);
        assert_eq!(fewest_classes(&v, 2.0), vec![0, 2, 5]);
    }

    /// A fit of `values` (Elo, piece 0 the pawn) from the ladder plan,
    /// every matchup played `pairs` pairs.
    fn fitted(values: &[f64], pairs: u64, seed: u64) -> ScaleFit {
        let model = ScaleModel::new(values.to_vec());
        let plan = ladder_plan(values, 0, 250.0);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let played = model.play_plan(&plan, pairs, &mut rng).unwrap();
        fit_scale(values.len(), &played, &ScaleOptions::new(0)).unwrap()
    }

    fn options(units: ScaleUnits) -> PartitionOptions {
        PartitionOptions {
            units,
            draws: 1000,
            seed: 3,
        }
    }

    /// The best table is picked as often as its stability says; a table
    /// that splits a tight pair, or is not contiguous, almost never; a
    /// table that leaves a piece out is refused.
    #[test]
    fn agreement_with_a_given_table() {
        let values = [100.0, 110.0, 300.0, 315.0, 600.0];
        let fit = fitted(&values, 2000, 1);
        let o = options(ScaleUnits::Pawns);
        let best = partition(&fit, 3, &o).unwrap();
        let share = minimax_agreement(&fit, &best.classes, &o).unwrap();
        assert_eq!(share, best.stability);
        let split = [vec![0], vec![1, 2, 3], vec![4]];
        assert!(minimax_agreement(&fit, &split, &o).unwrap() < 0.05);
        let scattered = [vec![0, 2], vec![1, 3], vec![4]];
        assert_eq!(minimax_agreement(&fit, &scattered, &o).unwrap(), 0.0);
        let short = [vec![0, 1], vec![2, 3]];
        assert!(matches!(
            minimax_agreement(&fit, &short, &o),
            Err(PartitionError::Classes { .. })
        ));
    }

    /// Three classes far apart compared with the errors: the true table,
    /// found again in nearly every bootstrap draw, on either scale.
    #[test]
    fn separated_classes_are_stable() {
        let values = [100.0, 110.0, 300.0, 315.0, 600.0];
        let fit = fitted(&values, 2000, 1);
        for units in [ScaleUnits::Elo, ScaleUnits::Pawns] {
            let t = partition(&fit, 3, &options(units)).unwrap();
            eprintln!("{units:?}: {:?}, stability {}", t.classes, t.stability);
            assert_eq!(t.classes, vec![vec![0, 1], vec![2, 3], vec![4]]);
            assert!(t.stability >= 0.95, "{}", t.stability);
            assert!(t.class_stability.iter().all(|&s| s >= t.stability));
            assert_eq!(
                t.largest_spread,
                t.spreads.iter().copied().fold(0.0, f64::max)
            );
            assert_eq!(t.draws, 1000);
            // The same table by the margin, on the estimates and on the
            // evidence (90% intervals within half a pawn).
            let margin = match units {
                ScaleUnits::Elo => 50.0,
                ScaleUnits::Pawns => 0.5,
            };
            for within in [
                WithinClass::Estimates,
                WithinClass::ConfidenceBound(ConfidenceLevel::new(0.9).unwrap()),
            ] {
                let m = partition_within(&fit, margin, within, &options(units)).unwrap();
                assert_eq!(m.classes, t.classes, "{within:?}");
                assert!(m.stability >= 0.95, "{within:?}: {}", m.stability);
            }
        }
        // Reproducible from the seed.
        let o = options(ScaleUnits::Pawns);
        assert_eq!(partition(&fit, 3, &o), partition(&fit, 3, &o));
    }

    /// Tied cuts: three equally spaced pieces in two classes (either cut
    /// is as good), and four equal pieces within a margin below their
    /// errors. A table drawn around its own estimates is found again often
    /// even under a tie (for two equal cuts the stability is uniform on
    /// ½..1, 0.75 on average), so the check is on the average over
    /// simulated studies, against well-separated classes at the same
    /// precision.
    #[test]
    fn tied_cuts_are_unstable() {
        let studies = 20;
        let mean = |values: &[f64], table: &dyn Fn(&ScaleFit) -> ClassTable| {
            (0..studies)
                .map(|s| table(&fitted(values, 1000, 100 + s)).stability)
                .sum::<f64>()
                / studies as f64
        };
        let o = options(ScaleUnits::Elo);
        let two = |f: &ScaleFit| partition(f, 2, &o).unwrap();
        let tied = mean(&[100.0, 200.0, 300.0], &two);
        let apart = mean(&[100.0, 120.0, 300.0], &two);
        let within = |f: &ScaleFit| partition_within(f, 10.0, WithinClass::Estimates, &o).unwrap();
        let equal = mean(&[100.0, 100.0, 100.0, 100.0], &within);
        eprintln!(
            "mean stability over {studies} studies: tied cut {tied:.3}, separated {apart:.3}, four equal pieces within 10 Elo {equal:.3}"
        );
        assert!(apart > 0.95, "{apart}");
        assert!(tied < 0.85, "{tied}");
        assert!(equal < 0.85, "{equal}");
    }

    /// The evidence criterion never merges what the estimates keep apart,
    /// and keeps apart two pieces whose estimates are within the margin
    /// while their interval is not.
    #[test]
    fn the_evidence_criterion_is_stricter() {
        use crate::value_scale::PieceRef;
        let fit = fitted(&[100.0, 120.0, 400.0], 300, 4);
        let level = ConfidenceLevel::new(0.9).unwrap();
        let d = fit
            .difference(PieceRef::Piece(1), PieceRef::Piece(0))
            .unwrap();
        // Between the estimate and its 90% bound.
        let margin = d.elo.abs() + 0.5 * level.z() * d.std_error;
        let o = options(ScaleUnits::Elo);
        let on_estimates = partition_within(&fit, margin, WithinClass::Estimates, &o).unwrap();
        let shown =
            partition_within(&fit, margin, WithinClass::ConfidenceBound(level), &o).unwrap();
        eprintln!(
            "margin {margin:.1}: {:?} vs {:?}",
            on_estimates.classes, shown.classes
        );
        assert_eq!(on_estimates.classes.len(), 2);
        assert_eq!(shown.classes.len(), 3);
        for margin in [0.1, 0.3, 1.0, 3.0] {
            let o = options(ScaleUnits::Pawns);
            let e = partition_within(&fit, margin, WithinClass::Estimates, &o).unwrap();
            let b =
                partition_within(&fit, margin, WithinClass::ConfidenceBound(level), &o).unwrap();
            assert!(b.classes.len() >= e.classes.len(), "margin {margin}");
        }
    }

    /// Pairs kept apart cut a class the values alone would keep: the
    /// fewest classes grow by what the pairs force and no class holds a
    /// pair; with no pair and no margin, every piece shares one class; a
    /// margin cuts where the values are far apart, unless the pair is
    /// known equivalent; a pair naming a piece without a value changes
    /// nothing.
    #[test]
    fn pairs_apart_cut_classes() {
        let values = [100.0, 105.0, 140.0, 300.0, 310.0];
        let fit = fitted(&values, 2000, 7);
        let o = options(ScaleUnits::Pawns);
        let any = f64::INFINITY;
        assert_eq!(
            partition_apart(&fit, &[], &[], any, &o)
                .unwrap()
                .classes
                .len(),
            1
        );
        let near = partition_apart(&fit, &[], &[], 0.5, &o).unwrap();
        assert_eq!(near.classes, vec![vec![0, 1, 2], vec![3, 4]]);
        // Within 0.3 pawns the low three need two classes, unless the pairs
        // of 1.4 are known equivalent; a pair apart is apart even if also
        // called alike.
        let tight = partition_apart(&fit, &[], &[], 0.3, &o).unwrap();
        assert_eq!(tight.classes.len(), 3, "{:?}", tight.classes);
        let alike = [(0, 2), (1, 2)];
        let bridged = partition_apart(&fit, &[], &alike, 0.3, &o).unwrap();
        assert_eq!(bridged.classes, near.classes);
        let both = partition_apart(&fit, &[(0, 2)], &alike, 0.3, &o).unwrap();
        assert_eq!(both.classes.len(), 3);
        let low_apart = [(2, 0), (3, 2)];
        let t = partition_apart(&fit, &low_apart, &[], any, &o).unwrap();
        assert_eq!(t.classes.len(), 3, "{:?}", t.classes);
        for &(a, b) in &low_apart {
            assert!(
                !t.classes.iter().any(|c| c.contains(&a) && c.contains(&b)),
                "{:?} puts {a} and {b} together",
                t.classes
            );
        }
        // Of the 3-class tables that keep the pairs apart, the one with the
        // smallest largest spread ({0} | {1, 2} | {3, 4} spans 0.35 pawns).
        assert_eq!(t.classes, vec![vec![0, 1], vec![2], vec![3, 4]]);
        assert!(t.stability > 0.9, "{}", t.stability);
        assert_eq!(
            partition_apart(&fit, &[(0, 9)], &[], any, &o)
                .unwrap()
                .classes
                .len(),
            1
        );
        assert_eq!(
            partition_apart(&fit, &[], &[], -1.0, &o),
            Err(PartitionError::Margin(-1.0))
        );
    }

    #[test]
    fn rejects_bad_input() {
        let fit = fitted(&[100.0, 200.0], 100, 5);
        let o = options(ScaleUnits::Elo);
        assert_eq!(
            partition(&fit, 0, &o),
            Err(PartitionError::Classes {
                classes: 0,
                pieces: 2
            })
        );
        assert!(partition(&fit, 3, &o).is_err());
        assert_eq!(
            partition_within(&fit, -1.0, WithinClass::Estimates, &o),
            Err(PartitionError::Margin(-1.0))
        );
        let none = PartitionOptions { draws: 0, ..o };
        assert_eq!(partition(&fit, 1, &none), Err(PartitionError::NoDraws));
        let empty = fit_scale(2, &[], &ScaleOptions::new(0)).unwrap();
        assert_eq!(partition(&empty, 1, &o), Err(PartitionError::NoValues));
        // A unit not shown positive: no table in pawns, one in Elo.
        let weak = fitted(&[0.0, 200.0], 50, 6);
        assert!(!weak.unit.unwrap().shown_positive);
        assert_eq!(
            partition(&weak, 1, &options(ScaleUnits::Pawns)),
            Err(PartitionError::NoUnit)
        );
        assert!(partition(&weak, 1, &o).is_ok());
    }
}
