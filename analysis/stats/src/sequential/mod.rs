//! Adaptive studies: a group-sequential design for the three-way question
//! "equivalent within the margin, different, or undecided", valid at every
//! look it takes.
//!
//! # The design
//!
//! Every matchup of a study plays colour-swapped pairs in stages of
//! `look_every` pairs; after each stage (a *look*, at a fixed pair count)
//! each undecided comparison of two pieces is tested, and a decided one
//! plays no more. Per comparison, with `θ` the difference in pawns per piece
//! exchanged and `m` the margin (the trustworthy-verdicts definitions, see
//! [`crate::equivalence`]):
//!
//! * **equivalent** when both one-sided tests of TOST reject (`θ ≥ m` and
//!   `θ ≤ -m`), each Fieller's linear-combination test with the pawn unit
//!   measured so far ([`crate::PawnUnit::z_against`]);
//! * **different** when the two-sided test of equal strength (a score of
//!   ½, on the score scale) rejects; equivalence wins a tie at one look;
//! * **undecided** otherwise; at the cap (`max_pairs`) or when the study's
//!   budget stops it, with a planning figure of the pairs it would need.
//!
//! Each test is a group-sequential test with an α-spending function (Lan
//! and DeMets 1983): at look `k` of `K` (information fraction `t_k`, the
//! pairs so far over the cap) the boundary `c_k` is set so that the chance
//! of a first crossing there under the null is `f(t_k) - f(t_{k-1})`
//! ([`boundaries`], computed by the recursive numerical integration of
//! Armitage, McPherson and Rowe 1969; Jennison and Turnbull 2000, ch. 7
//! and 19). The two one-sided TOST tests use level `α` each, the
//! difference test `α/2` per side. The default spending is of the
//! Haybittle-Peto type (5% of α at the interim looks, the rest at the cap;
//! [`Spending`]). Boundaries are taken on the Student-t scale with the
//! look's degrees of freedom, since variances are estimated.
//!
//! **Multiplicity.** As in the report, each class is a family, and each
//! kind of claim is Holm-corrected within it: a comparison is tested at
//! `α/(h - r)` (`h` comparisons in the class, `r` claims of that kind made
//! so far), and when a claim is made at a look its share passes to the
//! others, which are tested again at that look with the new level: the
//! group-sequential Holm procedure of the graphical approach (Maurer and
//! Bretz 2013, "Multiple testing in group sequential trials using graphical
//! approaches", Statistics in Biopharmaceutical Research 5:311-320), each
//! hypothesis's boundaries recomputed at its new level as if planned so
//! from the start.
//!
//! **The calibration in the same loop.** The pawn-odds matchup plays its
//! stages alongside the comparisons while any comparison is undecided (up
//! to the same cap), and each look's equivalence tests use the unit
//! measured from the calibration's pairs up to that look. The unit serves
//! equivalence verdicts only (the difference test is on the score scale),
//! so with a calibration futility `γ` (`[stop] calibration_futility`) the
//! calibration stops for good once no undecided comparison could still be
//! shown equivalent with a chance of `γ`, reckoned at the truth most
//! favourable to it (no difference, the pawn at the upper end of its
//! bound; [`LookEstimate::equivalence_chance`]): a stochastic curtailment
//! of the calibration alone (Lan, Simon and Halperin 1982; Jennison and
//! Turnbull 2000, ch. 10). The comparisons play on with the unit as it
//! stands.
//!
//! **Allocation.** [`Study`] funds each stage: every undecided comparison
//! below its cap, and the calibration. When the study's `budget_games`
//! cannot pay for all of them, the calibration is paid first, then the
//! comparisons closest to a decision (fewest planned pairs; ties in
//! experiment order), each for the whole stage; the rest stop undecided.
//!
//! # Why the error rates hold whatever the stopping time
//!
//! * For one comparison, "equivalent" at some look needs the one-sided
//!   test of the true null side (`θ ≥ m` when `θ ≥ m`) to have crossed its
//!   boundary at that look, and the chance of that ever happening is at
//!   most the level the spending function distributes over the looks. A
//!   comparison stopped early (decided, at its cap, by the budget, at a
//!   time that depends on any results at all) only has fewer chances; the
//!   same holds for "different" when `θ = 0`, and for the wrong sign of a
//!   difference (`α/2`). Stopping never raises an error rate, so decisions
//!   and allocation may depend on the data freely, provided the looks stay
//!   at the planned pair counts.
//! * The boundaries assume the z-statistics of successive looks are those
//!   of a Brownian motion read at the pair fractions. For the difference
//!   test that is the usual large-sample result. For the TOST statistic the
//!   variance at look `k` is `a/N_k + b/C_k` (comparison and calibration
//!   pairs), whose successive values have correlations `√(V_k/V_j)`; these
//!   are at least the assumed `√(N_j/N_k)` when `N_k/C_k` never falls, which
//!   holds because the calibration plays in step with the comparisons while
//!   it plays and never resumes once stopped (early, by its futility rule,
//!   or with the last comparison). Larger correlations only lower
//!   the chance of crossing (Slepian's inequality), so the test errs on the
//!   safe side.
//! * Holm's recycling across looks is the graphical procedure above, which
//!   controls the family-wise error of each kind at α under any dependence
//!   between comparisons (the shared pawn unit makes them dependent).
//! * Variances are estimated: boundaries on the t scale, and a small-sample
//!   floor on the per-pair variance ([`LookEstimate`]) keeps a handful of
//!   identical pairs from giving an infinite z.
//!
//! The rates are checked on simulated studies with known truths
//! ([`simulate`], whose tests print them; `pocketlab simulate` runs them
//! for any design).
//!
//! # What it costs
//!
//! A group-sequential test cannot beat the fixed-sample test at the same
//! cap: α spent at interim looks is missing at the last. The default
//! spending keeps that loss to about half a percent of decisions on studies
//! shaped like the Pocket Mutation Chess class study, while clear cases
//! stop after a few dozen pairs; see the README for the measured figures.
//!
//! References: Lan and DeMets, Biometrika 70 (1983) 659-663; Jennison and
//! Turnbull, *Group Sequential Methods with Applications to Clinical
//! Trials* (2000); Lan, Simon and Halperin, Communications in Statistics C
//! 1 (1982) 207-219, for stochastic curtailment; Schuirmann (1987) for TOST; Fieller (1954) for the
//! ratio; Haybittle (1971) and Peto et al. (1976) for high interim
//! boundaries; Maurer and Bretz (2013) for Holm across looks.

pub mod adjust;
pub mod boundaries;
pub mod design;
pub mod settings;
pub mod simulate;
pub mod study;

pub use boundaries::{BoundaryTable, PETO_INTERIM_SHARE, SpendingFunction, upper_boundaries};
pub use design::{Design, DesignError, LookEstimate};
pub use settings::{DEFAULT_ALPHA, DEFAULT_MARGIN_PAWNS, SequentialStop, Spending, look_schedule};
pub use study::{
    Claim, LookRecord, MatchupRecord, PairScores, Role, Stage, Status, Study, StudyHistory,
};
