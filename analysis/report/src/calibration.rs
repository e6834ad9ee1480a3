//! The pawn unit of a report: measured from a pawn-odds matchup in the log
//! (two armies equal but for removed pawns), else assumed; and said plainly
//! when the measurement gives no positive unit.

use std::collections::BTreeMap;

use pocketlab_core::Position;
use pocketlab_selfplay::Experiment;
use pocketlab_selfplay::experiment::Army;

use super::matchups::summarize;
use super::model::{Calibration, CalibrationSource};
use super::read::MatchupCounts;
use pocketlab_stats::{ConfidenceLevel, PawnOddsError, PawnUnit, calibrate_from_pawn_odds};

/// Whether a matchup only calibrates: the same army, some pawns removed
/// from one side.
pub(super) fn is_pawn_odds(a: &Army, b: &Army) -> bool {
    a.replace == b.replace
        && a.place == b.place
        && a.pocket == b.pocket
        && a.remove.len() != b.remove.len()
}

/// The pawns a calibration matchup gives, and whether army A is the side
/// with more: `Some` when the two armies are the same but for removed
/// pawns (the first such matchup calibrates the report and the design).
pub(crate) fn pawn_odds(exp: &Experiment, matchup: usize) -> Option<(f64, bool)> {
    let m = exp.matchups.get(matchup)?;
    let (a, b) = (&exp.armies[m.a], &exp.armies[m.b]);
    let start = Position::start(&exp.variant);
    let removed_are_pawns = a.remove.iter().chain(&b.remove).all(|sq| {
        start
            .piece_at(*sq)
            .is_some_and(|p| exp.variant.is_pawn(p.kind))
    });
    (is_pawn_odds(a, b) && removed_are_pawns).then(|| {
        (
            a.remove.len().abs_diff(b.remove.len()) as f64,
            a.remove.len() < b.remove.len(),
        )
    })
}

/// The unit every pawn figure and test of the report uses, with the
/// report's account of it.
pub(super) fn calibrate(
    exp: &Experiment,
    counts: &BTreeMap<u64, MatchupCounts>,
    level: ConfidenceLevel,
) -> (PawnUnit, Calibration) {
    for (i, m) in exp.matchups.iter().enumerate() {
        let Some((pawns, a_has_more)) = pawn_odds(exp, i) else {
            continue;
        };
        let Some(c) = counts.get(&(i as u64)) else {
            continue;
        };
        let Some(summary) = summarize(c, level).0 else {
            continue;
        };
        // The score of the side with more pawns.
        let score = if a_has_more {
            summary.score
        } else {
            1.0 - summary.score
        };
        let games = c.games();
        return match calibrate_from_pawn_odds(score, summary.score_std_error, pawns, level) {
            Ok(odds) if odds.shows_advantage() => (
                odds.unit,
                Calibration {
                    elo_per_pawn: odds.unit.elo_per_pawn(),
                    std_error: odds.unit.std_error(),
                    interval: Some((odds.interval.lower, odds.interval.upper)),
                    source: CalibrationSource::Measured,
                    pairs: c.pentanomial.iter().sum(),
                    note: format!(
                        "Measured by matchup {} ({games} games): the side a pawn up scored {:.1}%, so one pawn = \
                         {:.0} Elo ({:.0} to {:.0}). This uncertainty is carried into every pawn interval and \
                         verdict.",
                        m.name,
                        100.0 * score,
                        odds.unit.elo_per_pawn(),
                        odds.interval.lower,
                        odds.interval.upper
                    ),
                },
            ),
            // The estimate is kept (the tests stay valid with it), but no
            // pawn figure can be given: said, not replaced by an assumption.
            Ok(odds) => (
                odds.unit,
                Calibration {
                    elo_per_pawn: f64::NAN,
                    std_error: odds.unit.std_error(),
                    interval: Some((odds.interval.lower, odds.interval.upper)),
                    source: CalibrationSource::NoPawnAdvantage,
                    pairs: c.pentanomial.iter().sum(),
                    note: format!(
                        "The pawn-odds matchup {} ({games} games) shows no pawn advantage: the side a pawn up scored \
                         {:.1}% (at most 50%), so no Elo value of a pawn can be measured from it. Pawn figures are \
                         not given and no pair can be shown equivalent within a margin in pawns; Elo figures and \
                         'different' verdicts stand. Play more pawn-odds pairs, or check the engine settings.",
                        m.name,
                        100.0 * score
                    ),
                },
            ),
            Err(e) => (
                PawnUnit::Unknown,
                Calibration {
                    elo_per_pawn: f64::NAN,
                    std_error: f64::NAN,
                    interval: None,
                    source: CalibrationSource::Unmeasurable,
                    pairs: c.pentanomial.iter().sum(),
                    note: format!(
                        "The pawn-odds matchup {} ({games} games) gives no pawn unit ({}). Pawn figures are not \
                         given and no pair can be shown equivalent within a margin in pawns; Elo figures and \
                         'different' verdicts stand.",
                        m.name,
                        match e {
                            PawnOddsError::OneSided(s) if s >= 1.0 =>
                                "the side a pawn up won every game".to_owned(),
                            PawnOddsError::OneSided(_) =>
                                "the side a pawn up lost every game".to_owned(),
                            other => other.to_string(),
                        }
                    ),
                },
            ),
        };
    }
    let unit = PawnUnit::muller();
    (
        unit,
        Calibration {
            elo_per_pawn: unit.elo_per_pawn(),
            std_error: 0.0,
            interval: None,
            source: CalibrationSource::Assumed,
            pairs: 0,
            note: format!(
                "Pawn units assume H. G. Muller's calibration (a pawn is worth about 15% of score, {:.0} Elo): this \
                 log has no pawn-odds matchup.",
                unit.elo_per_pawn()
            ),
        },
    )
}
