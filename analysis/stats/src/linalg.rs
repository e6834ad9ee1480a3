//! A tiny dense symmetric positive-definite solver (Cholesky).
//!
//! The rating fit needs to solve and invert the negated Hessian of a concave
//! log-likelihood for at most a few dozen parameters; a 60-line Cholesky is
//! simpler to audit than a linear-algebra dependency. Matrices are row-major
//! `Vec<f64>` of size `m × m`.

/// The matrix was not (numerically) positive definite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NotPositiveDefinite;

/// Lower-triangular Cholesky factor `L` with `A = L·Lᵀ`.
#[derive(Debug, Clone)]
pub(crate) struct Cholesky {
    m: usize,
    l: Vec<f64>,
}

impl Cholesky {
    /// Factorises the symmetric matrix `a` (only its lower triangle is read).
    pub(crate) fn new(a: &[f64], m: usize) -> Result<Self, NotPositiveDefinite> {
        if a.len() != m * m {
            return Err(NotPositiveDefinite);
        }
        let scale = (0..m).map(|i| a[i * m + i].abs()).fold(0.0, f64::max);
        let mut l = vec![0.0; m * m];
        for i in 0..m {
            for j in 0..=i {
                let mut sum = a[i * m + j];
                for k in 0..j {
                    sum -= l[i * m + k] * l[j * m + k];
                }
                if i == j {
                    // Relative pivot threshold: a pivot this small means the
                    // matrix is singular to working precision.
                    let usable = sum.is_finite() && sum > 1e-13 * scale;
                    if !usable {
                        return Err(NotPositiveDefinite);
                    }
                    l[i * m + i] = sum.sqrt();
                } else {
                    l[i * m + j] = sum / l[j * m + j];
                }
            }
        }
        Ok(Self { m, l })
    }

    /// Solves `A·x = b`.
    pub(crate) fn solve(&self, b: &[f64]) -> Vec<f64> {
        let m = self.m;
        let l = &self.l;
        let mut y = b.to_vec();
        for i in 0..m {
            for k in 0..i {
                y[i] -= l[i * m + k] * y[k];
            }
            y[i] /= l[i * m + i];
        }
        for i in (0..m).rev() {
            for k in i + 1..m {
                y[i] -= l[k * m + i] * y[k];
            }
            y[i] /= l[i * m + i];
        }
        y
    }

    /// `L·z`: independent standard normals `z` made into a draw with
    /// covariance `A` (a parametric bootstrap of correlated estimates).
    pub(crate) fn correlate(&self, z: &[f64]) -> Vec<f64> {
        let m = self.m;
        (0..m)
            .map(|i| (0..=i).map(|k| self.l[i * m + k] * z[k]).sum())
            .collect()
    }

    /// `A⁻¹`, row-major.
    pub(crate) fn inverse(&self) -> Vec<f64> {
        let m = self.m;
        let mut inv = vec![0.0; m * m];
        let mut e = vec![0.0; m];
        for j in 0..m {
            e.iter_mut().for_each(|x| *x = 0.0);
            e[j] = 1.0;
            let col = self.solve(&e);
            for i in 0..m {
                inv[i * m + j] = col[i];
            }
        }
        inv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_and_inverts_known_matrix() {
        // A = [[4, 2, 0], [2, 5, 1], [0, 1, 3]], det = 4*14 - 2*6 = 44.
        let a = [4.0, 2.0, 0.0, 2.0, 5.0, 1.0, 0.0, 1.0, 3.0];
        let c = Cholesky::new(&a, 3).unwrap();
        let x = c.solve(&[2.0, 8.0, 7.0]);
        for i in 0..3 {
            let r: f64 = (0..3).map(|j| a[i * 3 + j] * x[j]).sum();
            assert!((r - [2.0, 8.0, 7.0][i]).abs() < 1e-12);
        }
        let inv = c.inverse();
        // (A⁻¹)₀₀ = (5*3 - 1*1)/44 = 14/44.
        assert!((inv[0] - 14.0 / 44.0).abs() < 1e-12);
        for i in 0..3 {
            for j in 0..3 {
                let p: f64 = (0..3).map(|k| a[i * 3 + k] * inv[k * 3 + j]).sum();
                assert!((p - if i == j { 1.0 } else { 0.0 }).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn correlate_multiplies_by_the_factor() {
        // L = [[2, 0], [1, 2]] for A = [[4, 2], [2, 5]]: L·(1, 1) = (2, 3).
        let c = Cholesky::new(&[4.0, 2.0, 2.0, 5.0], 2).unwrap();
        assert_eq!(c.correlate(&[1.0, 1.0]), vec![2.0, 3.0]);
    }

    #[test]
    fn rejects_singular_and_indefinite() {
        assert!(Cholesky::new(&[1.0, 1.0, 1.0, 1.0], 2).is_err());
        assert!(Cholesky::new(&[1.0, 2.0, 2.0, 1.0], 2).is_err());
        assert!(Cholesky::new(&[f64::NAN], 1).is_err());
        assert!(Cholesky::new(&[1.0], 2).is_err());
    }
}
