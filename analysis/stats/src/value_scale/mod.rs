//! Every piece of a variant on one value scale, and the class table the
//! evidence supports.
//!
//! # The design
//!
//! A *value-scale design* plays single-piece substitutions as
//! colour-swapped pairs from shared openings. Army A and army B differ in
//! one piece on one square:
//!
//! * **substitution**: piece `X` in army A where army B has piece `Y`; the
//!   matchup measures `v(X) - v(Y)`;
//! * **piece odds**: `X` in army A, the square empty in army B; it measures
//!   `v(X) - v(Nothing) = v(X)`, the empty square being worth 0 by
//!   definition;
//! * **pawn odds**: the same with a pawn; it measures `v(P)`, the unit of
//!   the pawn scale.
//!
//! Each matchup is a [`ScaleMatchup`]: two [`PieceRef`]s and the
//! pentanomial counts of army A's pairs. Pieces are indices; their names
//! stay with the caller.
//!
//! # The fit ([`fit_scale`])
//!
//! Per matchup, army A's per-game score over pairs gives the logistic Elo
//! difference `d_m` and its delta-method standard error from the pair
//! variance (the pair is the independent unit; see [`crate::pentanomial`]).
//! Two guards keep small samples honest: the pair variance is floored as
//! the sequential design floors it ([`crate::sequential::LookEstimate`]),
//! so a handful of identical pairs does not claim a zero error; and a
//! perfect score is counted as one pair short of perfect by half a point
//! (the best imperfect score is one pair short by a whole point), so its
//! Elo is finite, the order of scores is kept and no other score moves.
//!
//! The values then come from weighted least squares over the comparison
//! graph: `d_m = v_a - v_b` with `v(Nothing) = 0`, each matchup weighted by
//! the inverse of its Elo variance. That is Thurstone's model on the normal
//! approximation: the estimate is the Gauss–Markov combination of every
//! route through the graph, and its covariance `(XᵀWX)⁻¹` holds the
//! correlations the shared routes create (a piece measured through the
//! pawn carries the pawn's error). Pearson's statistic of the residuals
//! says whether the matchups agree with one additive scale
//! ([`Consistency`]).
//!
//! **Departures.** A piece may be worth more against one neighbour than
//! the difference of the two values says (its worth depends on the army
//! and the square). Each matchup then measures `v_a - v_b + δ_m`, with
//! `δ_m` of variance `τ²` beyond its sampling error. The fit estimates `τ²`
//! by Paule–Mandel (the `τ²` at which Pearson's statistic, every variance
//! increased by `τ²`, equals its degrees of freedom; 0 when the additive
//! fit's statistic is already within them) and weighs each matchup by
//! `1/(σ²_m + τ²)`, so every interval carries the departures and more
//! pairs of one matchup cannot narrow it past them. A figure whose
//! variance includes `τ²` takes Student's t on the residual degrees of
//! freedom at most (Hartung–Knapp), since `τ²` is known only as well as
//! the residuals tell it. The pawn's own odds define the unit and carry no
//! departure.
//!
//! The variance of a matchup's Elo is taken at the *fitted* difference, by
//! iterative reweighting (a quasi-likelihood fit): the observed variance's
//! dispersion over the binomial `s(1 - s)` is the matchup's own, the
//! binomial part and the score-to-Elo slope are those of `v_a - v_b`.
//! Weighting each matchup by the variance at its own score would favour
//! matchups whose score fell towards ½ by chance, and so pull every value
//! towards 0: on simulated 18-piece ladders of 200-pair matchups by a
//! fifth of a standard error at the top.
//!
//! Intervals use Student's t with Welch–Satterthwaite degrees of freedom:
//! each matchup's variance is estimated from its pairs, and a value resting
//! on a few short matchups has heavier tails than the normal (the crate's
//! equivalence tests and sequential boundaries do the same).
//!
//! **Identification.** A value is defined only for a piece joined to
//! `Nothing` by a chain of played matchups: substitutions alone fix
//! differences, never levels. Other pieces get no value and the reason
//! ([`NoValue`]); nothing is printed for them.
//!
//! **Pawns.** A value in pawns is `v_i / v_P`. The pawn's value is measured
//! with error and correlated with the other values (they are often measured
//! through it), so the interval is Fieller's for a ratio of correlated
//! normals: every `θ` with `|v_i - θ·v_P| ≤ c·sd(v_i - θ·v_P)` (`c` the t
//! boundary of that statistic). It is bounded exactly when the unit is
//! shown positive at that boundary (`v_P > c·se(v_P)`; in practice, when
//! [`UnitEstimate::shown_positive`]); otherwise the set is unbounded and
//! reported as such
//! ([`Pawns::Unbounded`]), never as a number. The same holds for the
//! difference of two pieces in pawns ([`ScaleFit::difference`]), such as
//! two neighbours on the scale ([`ScaleFit::adjacent_differences`]).
//!
//! # Planning ([`next_matchups`])
//!
//! A sequential design plays the matchups that most shrink the widest
//! interval still above its target (adjacent differences in pawns, the
//! unit's relative precision), judged by the information one more block of
//! pairs adds given the current variances.
//!
//! # The class table ([`partition`], [`partition_within`])
//!
//! Pieces in value order are cut into contiguous classes: `K` classes
//! minimising the largest within-class spread (exactly, by dynamic
//! programming), or the fewest classes whose members are all within a
//! margin. Each table comes with its stability: the share of parametric
//! bootstrap draws of the values (multivariate normal from the fitted
//! covariance) that give the same table. How many classes any table that
//! holds needs at least ([`least_classes`]): the chromatic number of the
//! pairs shown to differ by more than the margin (Holm across every pair).
//!
//! # Checking it
//!
//! [`ScaleModel`] draws pentanomial counts for any plan from known piece
//! values with draws, White's edge and openings that correlate the two
//! games of a pair ([`crate::sim::PairModel`]); the tests hold the
//! intervals' coverage against the nominal level with the crate's exact
//! binomial check ([`crate::error_rate`]).

mod allocate;
mod distinct;
mod fit;
mod partition;
mod simulate;

pub use allocate::{
    Allocation, AllocationError, AllocationOptions, PlannedPairs, Target, TargetCheck, Targets,
    check_targets, ladder_plan, next_matchups,
};
pub use distinct::{LeastClasses, least_classes};
pub use fit::{
    AdjacentDifference, Consistency, MatchupEstimate, NoValue, Pawns, PieceValue, ScaleDifference,
    ScaleError, ScaleFit, ScaleOptions, UnitEstimate, fit_scale,
};
pub use partition::{
    ClassTable, PartitionError, PartitionOptions, ScaleUnits, WithinClass, fewest_classes,
    minimax_agreement, minimax_classes, partition, partition_apart, partition_within,
};
pub use simulate::ScaleModel;

use crate::pentanomial::Pentanomial;

/// One side's piece on the square a matchup varies: a piece (by index into
/// the caller's list) or the empty square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceRef {
    /// The piece with this index.
    Piece(usize),
    /// The empty square: worth 0 by definition, the scale's origin.
    Nothing,
}

impl PieceRef {
    /// The piece's index (`None` for the empty square).
    pub fn index(self) -> Option<usize> {
        match self {
            Self::Piece(i) => Some(i),
            Self::Nothing => None,
        }
    }
}

impl From<usize> for PieceRef {
    fn from(i: usize) -> Self {
        Self::Piece(i)
    }
}

/// One matchup of a value-scale design: army A has piece `a` where army B
/// has `b`, everything else equal; `counts` are army A's pair scores, so
/// the matchup measures `v(a) - v(b)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScaleMatchup {
    /// Army A's piece on the varied square.
    pub a: PieceRef,
    /// Army B's piece on the varied square.
    pub b: PieceRef,
    /// Army A's colour-swapped pairs by score (all zero: not yet played).
    pub counts: Pentanomial,
}

impl ScaleMatchup {
    /// A matchup of `a` against `b` with army A's counts.
    pub fn new(a: PieceRef, b: PieceRef, counts: Pentanomial) -> Self {
        Self { a, b, counts }
    }

    /// Piece `x` replaced by piece `y` (army A keeps `x`): measures
    /// `v(x) - v(y)`.
    pub fn substitution(x: usize, y: usize, counts: Pentanomial) -> Self {
        Self::new(PieceRef::Piece(x), PieceRef::Piece(y), counts)
    }

    /// Odds of piece `x` (army A has it, army B does not; pawn odds when
    /// `x` is the pawn): measures `v(x)`.
    pub fn odds(x: usize, counts: Pentanomial) -> Self {
        Self::new(PieceRef::Piece(x), PieceRef::Nothing, counts)
    }

    /// The same matchup without pairs: an entry of a plan not yet played.
    pub fn planned(a: PieceRef, b: PieceRef) -> Self {
        Self::new(a, b, Pentanomial::default())
    }
}
