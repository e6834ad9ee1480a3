//! The `[stop]` table: how many pairs each matchup plays, and what may stop
//! it sooner: nothing (a fixed number of pairs), an SPRT (engine tests), or
//! the sequential-equivalence design (piece studies, whose settings and
//! decisions are `pocketlab_stats::sequential`'s).

use pocketlab_stats::sequential::{
    DEFAULT_ALPHA, DEFAULT_MARGIN_PAWNS, SequentialStop, look_schedule,
};
use pocketlab_stats::sprt::Sprt;

use super::file::{DesignName, StopFile};
use super::{Ctx, ExperimentError, limits};

/// What may stop a matchup before `pairs`.
#[derive(Clone, Debug)]
pub enum StopDesign {
    /// Nothing: every matchup plays `pairs` pairs.
    Fixed,
    /// An SPRT, applied after every pair.
    Sprt(Sprt),
    /// The sequential-equivalence design.
    SequentialEquivalence(SequentialStop),
}

/// When matchups stop.
#[derive(Clone, Debug)]
pub struct StopRule {
    /// The most pairs a matchup plays (`pairs`, or the design's `max_pairs`).
    pub pairs: u64,
    pub design: StopDesign,
}

impl StopRule {
    /// The SPRT, if one may stop matchups.
    pub fn sprt(&self) -> Option<&Sprt> {
        match &self.design {
            StopDesign::Sprt(s) => Some(s),
            _ => None,
        }
    }

    /// The sequential design, if the study has one.
    pub fn sequential(&self) -> Option<&SequentialStop> {
        match &self.design {
            StopDesign::SequentialEquivalence(s) => Some(s),
            _ => None,
        }
    }
}

/// Validate `[stop]` for an experiment of `matchups` matchups.
pub(super) fn stop_rule(
    cx: &Ctx<'_>,
    f: &StopFile,
    matchups: usize,
) -> Result<StopRule, ExperimentError> {
    let pairs_in_range = |key: &str, pairs: u64| {
        if pairs == 0 {
            return Err(cx.err(key, "zero game pairs: nothing would be played"));
        }
        if pairs > limits::MAX_PAIRS {
            return Err(cx.err(
                key,
                format!("{pairs} pairs: at most {} per matchup", limits::MAX_PAIRS),
            ));
        }
        Ok(pairs)
    };
    match f.design.unwrap_or_default() {
        DesignName::Fixed => {
            let only_sequential = [
                ("max_pairs", f.max_pairs.is_some()),
                ("look_every", f.look_every.is_some()),
                ("budget_games", f.budget_games.is_some()),
                ("margin", f.margin.is_some()),
                ("alpha", f.alpha.is_some()),
                ("spending", f.spending.is_some()),
                ("calibration_futility", f.calibration_futility.is_some()),
            ];
            if let Some((key, _)) = only_sequential.iter().find(|(_, set)| *set) {
                return Err(cx.err(
                    format!("stop.{key}"),
                    "belongs to design = \"sequential-equivalence\" (this [stop] plays a fixed \
                     number of pairs: set pairs, or add the design)",
                ));
            }
            let pairs = pairs_in_range("stop.pairs", f.pairs.unwrap_or(100))?;
            let design = match &f.sprt {
                Some(s) => StopDesign::Sprt(
                    Sprt::new(s.elo0, s.elo1, s.alpha, s.beta)
                        .map_err(|e| cx.err("stop.sprt", e.to_string()))?,
                ),
                None => StopDesign::Fixed,
            };
            Ok(StopRule { pairs, design })
        }
        DesignName::SequentialEquivalence => {
            if f.pairs.is_some() {
                return Err(cx.err(
                    "stop.pairs",
                    "the sequential-equivalence design plays up to max_pairs per matchup, in \
                     stages of look_every pairs: use max_pairs instead of pairs",
                ));
            }
            if f.sprt.is_some() {
                return Err(cx.err(
                    "stop.sprt",
                    "an SPRT and the sequential-equivalence design are two stop rules: keep \
                     one (the SPRT is for engine tests)",
                ));
            }
            let max_pairs = pairs_in_range(
                "stop.max_pairs",
                f.max_pairs.ok_or_else(|| {
                    cx.err(
                        "stop.max_pairs",
                        "the sequential-equivalence design needs max_pairs (pairs per matchup \
                         at most)",
                    )
                })?,
            )?;
            let look_every = f.look_every.ok_or_else(|| {
                cx.err(
                    "stop.look_every",
                    "the sequential-equivalence design needs look_every (pairs between looks)",
                )
            })?;
            if !(1..=max_pairs).contains(&look_every) {
                return Err(cx.err(
                    "stop.look_every",
                    format!("between 1 and max_pairs ({max_pairs}), got {look_every}"),
                ));
            }
            let looks = look_schedule(look_every, max_pairs).len();
            if looks > limits::MAX_LOOKS {
                return Err(cx.err(
                    "stop.look_every",
                    format!(
                        "{looks} looks: at most {} (raise look_every)",
                        limits::MAX_LOOKS
                    ),
                ));
            }
            let first_stage = 2 * look_every * matchups as u64;
            if let Some(budget) = f.budget_games
                && budget < first_stage
            {
                return Err(cx.err(
                    "stop.budget_games",
                    format!(
                        "{budget} games cannot pay for the first stage ({matchups} matchups x \
                         {look_every} pairs x 2 = {first_stage} games)"
                    ),
                ));
            }
            let margin_pawns = f.margin.unwrap_or(DEFAULT_MARGIN_PAWNS);
            if !(margin_pawns > 0.0 && margin_pawns < 10.0) {
                return Err(cx.err(
                    "stop.margin",
                    format!("between 0 and 10 pawns per piece, got {margin_pawns}"),
                ));
            }
            let alpha = f.alpha.unwrap_or(DEFAULT_ALPHA);
            if !(alpha > 0.0 && alpha < 0.5) {
                return Err(cx.err("stop.alpha", format!("between 0 and 0.5, got {alpha}")));
            }
            if let Some(gamma) = f.calibration_futility
                && !(gamma > 0.0 && gamma < 0.5)
            {
                return Err(cx.err(
                    "stop.calibration_futility",
                    format!(
                        "a chance between 0 and 0.5 (e.g. 0.05), got {gamma}; leave it out to \
                         calibrate while any pair of pieces is undecided"
                    ),
                ));
            }
            Ok(StopRule {
                pairs: max_pairs,
                design: StopDesign::SequentialEquivalence(SequentialStop {
                    max_pairs,
                    look_every,
                    budget_games: f.budget_games,
                    margin_pawns,
                    alpha,
                    spending: f.spending.unwrap_or_default(),
                    calibration_futility: f.calibration_futility,
                }),
            })
        }
    }
}
