//! How many classes a table that holds needs at least.
//!
//! A class holds when every pair of it is equivalent within the margin, so
//! two pieces shown to differ by *more* than the margin cannot share a
//! class of a table that holds. Every pair of valued pieces is tested for
//! that (`H0: |θ| ≤ m`, `θ` the difference in pawns; the test at each end
//! of the margin is linear in the estimates, `v_a - v_b ∓ m·v_P`, as
//! Fieller's interval is, so the unit's error and its covariances are
//! carried; Student's t on the difference's degrees of freedom), and the
//! claims are Holm-corrected across *all* pairs at α, so they hold
//! together with probability at least `1 - α` under any dependence.
//!
//! A table that holds is then a colouring of the graph of those claims
//! (no class holds a claimed pair), so it needs at least the graph's
//! chromatic number of classes, found exactly (the few dozen pieces of a
//! scale make that cheap). The bound is wrong only if some claim is, with
//! probability at most α whatever the table. Its witness, the largest set
//! of pieces that pairwise differ, is reported beside it.
//!
//! Pairs known to differ from other evidence (a class study's verdicts)
//! can be added to the graph: the bound is then the fewest classes of a
//! table that keeps both kinds of pair apart, wrong only if a claim of
//! either kind is.

use super::{PieceRef, ScaleFit};
use crate::equivalence::{holm_bonferroni, t_cdf};

/// The least number of classes a table that holds needs, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeastClasses {
    /// Classes at least: the chromatic number of the pairs shown to
    /// differ by more than the margin.
    pub classes: usize,
    /// The largest set of pieces (by index, lowest value first) every two
    /// of which are shown to differ by more than the margin.
    pub pieces: Vec<usize>,
    /// Pairs of valued pieces tested (the Holm family).
    pub pairs_tested: usize,
    /// Pairs shown to differ by more than the margin.
    pub pairs_apart: usize,
    /// Pairs known to differ from other evidence that the scale did not
    /// already show apart.
    pub pairs_added: usize,
    /// Every pair kept apart (piece indices, lower index first): the
    /// scale's claims and the pairs added.
    pub apart: Vec<(usize, usize)>,
}

/// The [`LeastClasses`] of `fit` for a margin of `margin_pawns` pawns at
/// family-wise error rate `alpha`, with the pairs of `known_apart` (piece
/// indices; pairs naming a piece without a value are left out) kept apart
/// too: `None` without a positive unit, or for a margin or `alpha` out of
/// range.
pub fn least_classes(
    fit: &ScaleFit,
    margin_pawns: f64,
    alpha: f64,
    known_apart: &[(usize, usize)],
) -> Option<LeastClasses> {
    if !(alpha > 0.0 && alpha < 1.0 && margin_pawns >= 0.0 && margin_pawns.is_finite()) {
        return None;
    }
    let unit = fit.unit.ok().filter(|u| u.elo > 0.0)?;
    let ladder = fit.ladder();
    let n = ladder.len();
    let mut pairs = Vec::new();
    let mut p_values = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let (upper, lower) = (PieceRef::Piece(ladder[j]), PieceRef::Piece(ladder[i]));
            let Ok(d) = fit.difference(upper, lower) else {
                continue;
            };
            let beyond = |sign: f64| {
                let terms = [
                    (upper, 1.0),
                    (lower, -1.0),
                    (PieceRef::Piece(fit.pawn), -sign * margin_pawns),
                ];
                let variance = combination_variance(fit, &terms)?;
                Some((d.elo - sign * margin_pawns * unit.elo) / variance.sqrt())
            };
            let (Some(above), Some(below)) = (beyond(1.0), beyond(-1.0)) else {
                continue;
            };
            // Above +m or below -m: each one-sided, the nearer end decides.
            let df = d.degrees_of_freedom;
            let upper_tail = |t: f64| 1.0 - t_cdf(t, df);
            let p = 2.0 * upper_tail(above).min(upper_tail(-below));
            pairs.push((i, j));
            p_values.push(p.clamp(0.0, 1.0));
        }
    }
    let apart = holm_bonferroni(&p_values, alpha).ok()?;
    let mut adjacent = vec![vec![false; n]; n];
    for (&(i, j), &claimed) in pairs.iter().zip(&apart) {
        adjacent[i][j] = claimed;
        adjacent[j][i] = claimed;
    }
    let pairs_apart = apart.iter().filter(|&&a| a).count();
    let rung = |piece: usize| ladder.iter().position(|&p| p == piece);
    let mut pairs_added = 0;
    for &(a, b) in known_apart {
        if let (Some(i), Some(j)) = (rung(a), rung(b))
            && i != j
            && !adjacent[i][j]
        {
            adjacent[i][j] = true;
            adjacent[j][i] = true;
            pairs_added += 1;
        }
    }
    let all: Vec<usize> = (0..n).collect();
    let mut clique = Vec::new();
    largest_clique(&adjacent, &mut Vec::new(), &all, &mut clique);
    clique.sort_unstable();
    let classes = chromatic_number(&adjacent, clique.len());
    let mut kept_apart = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if adjacent[i][j] {
                let (a, b) = (ladder[i], ladder[j]);
                kept_apart.push((a.min(b), a.max(b)));
            }
        }
    }
    kept_apart.sort_unstable();
    Some(LeastClasses {
        classes,
        pieces: clique.into_iter().map(|i| ladder[i]).collect(),
        pairs_tested: pairs.len(),
        pairs_apart,
        pairs_added,
        apart: kept_apart,
    })
}

/// The variance of `Σ c·v(r)` over `terms` (`(r, c)`), Elo²: `None` for a
/// piece without a value, or a variance that is not positive.
fn combination_variance(fit: &ScaleFit, terms: &[(PieceRef, f64)]) -> Option<f64> {
    let mut variance = 0.0;
    for &(a, ca) in terms {
        for &(b, cb) in terms {
            variance += ca * cb * fit.covariance(a, b).ok()?;
        }
    }
    (variance > 0.0).then_some(variance)
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

/// The fewest colours of `adjacent` with no two adjacent vertices alike,
/// from `at_least` (a clique's size) up, by backtracking over the vertices
/// in order of falling degree.
fn chromatic_number(adjacent: &[Vec<bool>], at_least: usize) -> usize {
    let n = adjacent.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(adjacent[v].iter().filter(|&&a| a).count()));
    (at_least.max(1)..=n.max(1))
        .find(|&k| colourable(adjacent, &order, &mut vec![usize::MAX; n], 0, k))
        .unwrap_or(n)
}

fn colourable(
    adjacent: &[Vec<bool>],
    order: &[usize],
    colour: &mut [usize],
    next: usize,
    k: usize,
) -> bool {
    let Some(&v) = order.get(next) else {
        return true;
    };
    // A new colour only one above those in use: colourings that differ by
    // a renaming are tried once.
    let used = order[..next]
        .iter()
        .map(|&u| colour[u] + 1)
        .max()
        .unwrap_or(0);
    for c in 0..k.min(used + 1) {
        if (0..adjacent.len()).all(|u| !(adjacent[v][u] && colour[u] == c)) {
            colour[v] = c;
            if colourable(adjacent, order, colour, next + 1, k) {
                return true;
            }
            colour[v] = usize::MAX;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<bool>> {
        let mut adjacent = vec![vec![false; n]; n];
        for &(a, b) in edges {
            adjacent[a][b] = true;
            adjacent[b][a] = true;
        }
        adjacent
    }

    #[test]
    fn the_largest_clique_is_found() {
        // 0-1-2 a triangle, 2-3 and 3-4 an edge each, 1-4 an edge.
        let adjacent = graph(5, &[(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (1, 4)]);
        let mut best = Vec::new();
        largest_clique(&adjacent, &mut Vec::new(), &[0, 1, 2, 3, 4], &mut best);
        assert_eq!(best, [0, 1, 2]);
    }

    #[test]
    fn the_chromatic_number_can_exceed_the_largest_clique() {
        // A five-cycle: cliques of two, yet three colours.
        let cycle = graph(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]);
        assert_eq!(chromatic_number(&cycle, 2), 3);
        // An even cycle takes two; no edge, one.
        let square = graph(4, &[(0, 1), (1, 2), (2, 3), (3, 0)]);
        assert_eq!(chromatic_number(&square, 2), 2);
        assert_eq!(chromatic_number(&graph(3, &[]), 1), 1);
        // A complete graph takes as many as it has vertices.
        let k4 = graph(4, &[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
        assert_eq!(chromatic_number(&k4, 1), 4);
    }
}
