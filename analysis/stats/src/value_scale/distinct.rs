//! How many classes a table that holds needs at least: the largest set of
//! pieces every two of which differ beyond chance.
//!
//! Two pieces shown to differ cannot share a class of a table that holds,
//! so a set of `m` pieces that pairwise differ needs `m` classes, whatever
//! the cuts. Every pair of valued pieces is tested (`v(a) - v(b) = 0`,
//! two-sided, Student's t on the difference's degrees of freedom, the
//! covariance of the fit included) and the claims "different" are
//! Holm-corrected across *all* pairs at α, so they hold together with
//! probability at least `1 - α` under any dependence, and a set chosen
//! from them afterwards (the largest clique of the "differ" graph, found
//! exactly) inherits that guarantee: "a table that holds needs at least
//! `m` classes" is wrong with probability at most α. The test is in Elo
//! and needs no unit.

use statrs::distribution::{ContinuousCDF, StudentsT};

use super::{PieceRef, ScaleFit};
use crate::equivalence::holm_bonferroni;
use crate::estimate::standard_normal_cdf;

/// The largest set of pieces that pairwise differ beyond chance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DistinctPieces {
    /// The set, by piece index, lowest value first: a table that holds
    /// puts each in a class of its own.
    pub pieces: Vec<usize>,
    /// Pairs of valued pieces tested (the Holm family).
    pub pairs_tested: usize,
    /// Pairs shown to differ.
    pub pairs_different: usize,
}

/// The [`DistinctPieces`] of `fit` at family-wise error rate `alpha`
/// (`None` for an `alpha` outside (0, 1)).
pub fn distinct_pieces(fit: &ScaleFit, alpha: f64) -> Option<DistinctPieces> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return None;
    }
    let ladder = fit.ladder();
    let n = ladder.len();
    let mut pairs = Vec::new();
    let mut p_values = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let Ok(d) = fit.difference(PieceRef::Piece(ladder[j]), PieceRef::Piece(ladder[i]))
            else {
                continue;
            };
            pairs.push((i, j));
            p_values.push(two_sided_p(d.elo, d.std_error, d.degrees_of_freedom));
        }
    }
    let different = holm_bonferroni(&p_values, alpha).ok()?;
    let mut differ = vec![vec![false; n]; n];
    for (&(i, j), &d) in pairs.iter().zip(&different) {
        differ[i][j] = d;
        differ[j][i] = d;
    }
    let mut best = Vec::new();
    let all: Vec<usize> = (0..n).collect();
    largest_clique(&differ, &mut Vec::new(), &all, &mut best);
    best.sort_unstable();
    Some(DistinctPieces {
        pieces: best.into_iter().map(|i| ladder[i]).collect(),
        pairs_tested: pairs.len(),
        pairs_different: different.iter().filter(|&&d| d).count(),
    })
}

/// Two-sided p-value of `estimate / std_error` on Student's t with `df`
/// degrees of freedom (normal where `df` is unbounded); 1 without an error.
fn two_sided_p(estimate: f64, std_error: f64, df: f64) -> f64 {
    if !(std_error > 0.0 && estimate.is_finite()) {
        return 1.0;
    }
    let t = (estimate / std_error).abs();
    let tail = match StudentsT::new(0.0, 1.0, df) {
        Ok(dist) if df.is_finite() && df < 1e7 => 1.0 - dist.cdf(t),
        _ => standard_normal_cdf(-t),
    };
    (2.0 * tail).clamp(0.0, 1.0)
}

/// The largest clique of `adjacent` extending `chosen` by vertices of
/// `candidates` (all adjacent to every chosen one), kept in `best`: a
/// plain branch and bound, ample for a scale's few dozen pieces.
fn largest_clique(
    adjacent: &[Vec<bool>],
    chosen: &mut Vec<usize>,
    candidates: &[usize],
    best: &mut Vec<usize>,
) {
    if chosen.len() > best.len() {
        best.clone_from(chosen);
    }
    for (k, &v) in candidates.iter().enumerate() {
        if chosen.len() + candidates.len() - k <= best.len() {
            return;
        }
        let next: Vec<usize> = candidates[k + 1..]
            .iter()
            .copied()
            .filter(|&u| adjacent[v][u])
            .collect();
        chosen.push(v);
        largest_clique(adjacent, chosen, &next, best);
        chosen.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_clique_is_found() {
        // 0-1-2 a triangle, 2-3 and 3-4 an edge each, 1-4 an edge.
        let mut adjacent = vec![vec![false; 5]; 5];
        for (a, b) in [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (1, 4)] {
            adjacent[a][b] = true;
            adjacent[b][a] = true;
        }
        let mut best = Vec::new();
        largest_clique(&adjacent, &mut Vec::new(), &[0, 1, 2, 3, 4], &mut best);
        assert_eq!(best, [0, 1, 2]);
    }

    #[test]
    fn p_values_are_two_sided() {
        assert!((two_sided_p(1.96, 1.0, f64::INFINITY) - 0.05).abs() < 1e-3);
        assert!((two_sided_p(-1.96, 1.0, f64::INFINITY) - 0.05).abs() < 1e-3);
        // Heavier tails with few degrees of freedom.
        assert!(two_sided_p(1.96, 1.0, 5.0) > 0.1);
        assert_eq!(two_sided_p(1.0, 0.0, 5.0), 1.0);
    }
}
