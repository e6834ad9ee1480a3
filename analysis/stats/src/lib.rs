//! Pure statistics for piece-balance experiments: no I/O, no data frames.
//!
//! # Choices, and why
//!
//! * **Elo scale** ([`elo`]): logistic Elo, 400 points per factor of 10 in
//!   odds — the scale of cutechess, fastchess, Ordo and fishtest — so results
//!   read like engine-testing results.
//! * **Pawns** ([`pawns`]): one pawn is worth a [`PawnUnit`] of Elo, measured
//!   from a pawn-odds match (Muller's method) or assumed (Muller's ~15% of
//!   score per pawn). A measured unit's error is carried into every pawn
//!   interval and test by Fieller's theorem, so they hold their error rates
//!   for any calibration size.
//! * **Score models** ([`trinomial`], [`pentanomial`]): a multinomial over
//!   the per-sample score with a normal-approximation interval. Self-play
//!   uses colour-swapped pairs on the same opening, so the *pair* is the
//!   independent unit (pentanomial); treating the games of a pair as
//!   independent (trinomial) mis-states the error when openings favour a
//!   colour. The score interval's ends are mapped to Elo rather than using a
//!   symmetric Elo interval, so it respects the logistic curve; the
//!   delta-method Elo standard error is also given for tests that need one.
//! * **Ratings for many pieces** ([`bradley_terry`]): Davidson's draw model
//!   with a white-advantage term, fitted by Newton's method on a concave
//!   log-likelihood, with BayesElo-style virtual games as a weak prior so
//!   perfect scores stay finite. Intervals from the observed Fisher
//!   information (a small Cholesky solver), or a seeded parametric bootstrap.
//! * **Balance verdicts** ([`equivalence`]): "not significantly different"
//!   is not evidence of balance, so equivalence is tested with TOST against a
//!   margin in pawns per piece exchanged (default a quarter pawn), with
//!   Holm–Bonferroni across the comparisons of a class and a sample-size
//!   plan when inconclusive.
//! * **Adaptive studies** ([`sequential`]): the same verdicts reached
//!   with the fewest games, by a group-sequential design (looks at fixed
//!   pair counts, an α-spending function, Holm recycled across looks, the
//!   calibration played in the same loop) whose error rates hold whatever
//!   the stopping look; checked on simulated studies ([`sim`] draws the
//!   games).
//! * **Fits of results on features** ([`logistic`]): a regularised logistic
//!   regression (Texel tuning, colour values) fitted jointly with its scale
//!   to convergence, with a bootstrap over colour-swapped pairs that refits
//!   everything in each replicate.
//! * **Every piece on one scale** ([`value_scale`]): single-piece
//!   substitutions and piece or pawn odds fitted together by weighted least
//!   squares with the empty square at 0, values in pawns with Fieller's
//!   interval for the correlated unit, a sequential plan of which matchups
//!   to play next, and the class tables the values support with their
//!   bootstrap stability.
//! * **Two players against one opponent** ([`paired`]): matches from the
//!   same openings paired by opening, so that the openings' share of each
//!   match's spread cancels in the difference.
//! * **Stopping engine tests** ([`sprt`]): the generalized SPRT on
//!   pentanomial pair counts (or trinomial game counts), as the self-play
//!   runner applies it after every pair.
//!
//! The crate is pure: no files, no threads, no data frames. The self-play
//! runner and the reports use the same types, so a count, a spending
//! function or a design's settings mean one thing everywhere.

#![warn(missing_docs)]

pub mod bradley_terry;
pub mod elo;
pub mod equivalence;
pub mod error_rate;
pub mod estimate;
pub(crate) mod linalg;
pub mod logistic;
pub mod paired;
pub mod pawns;
pub mod pentanomial;
pub mod sequential;
pub mod shift;
pub mod sprt;
pub mod trinomial;
pub mod value_scale;
pub mod verdict_numbers;

pub mod sim;

pub use bradley_terry::{
    Anchor, BootstrapFit, FitError, FitOptions, Game, GameResult, PairRecord, RatingDifference,
    RatingFit, bootstrap, fit, fit_games,
};
pub use elo::{EloError, elo_to_score, score_to_elo};
pub use equivalence::{
    DifferenceEstimate, EquivalenceError, EquivalenceOutcome, EquivalenceTest, Plan, Side, Verdict,
    holm_bonferroni,
};
pub use estimate::{
    ClusteredMean, ConfidenceLevel, Interval, InvalidLevel, SampleError, ScoreSummary,
    clustered_mean,
};
pub use pawns::{PawnOdds, PawnOddsError, PawnUnit, calibrate_from_pawn_odds};
pub use pentanomial::{InvalidPairScore, Pentanomial};
pub use trinomial::{Outcome, Trinomial};
pub use verdict_numbers::{VerdictInputs, VerdictNumbers};
