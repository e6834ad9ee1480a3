//! The `[stop]` table: how many pairs each matchup plays, and what may stop
//! it sooner: nothing (a fixed number of pairs), an SPRT (engine tests), or
//! the sequential-equivalence design (piece studies, whose decisions the
//! analysis crate makes: see `pocketlab_analysis::stats::sequential`).

use serde::Deserialize;

use super::file::StopFile;
use super::{Ctx, ExperimentError, limits};
use crate::sprt::Sprt;

/// The `design` key: which stop rule.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DesignName {
    /// `pairs` per matchup (with `[stop.sprt]`, at most `pairs`).
    #[default]
    Fixed,
    /// Looks every `look_every` pairs up to `max_pairs`, each matchup
    /// stopped once decided, within `budget_games`.
    SequentialEquivalence,
}

/// How a group-sequential test spends its α over the looks (the names;
/// the boundaries are computed by the analysis crate).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Spending {
    /// 5% of α over the interim looks, the rest at the cap.
    #[default]
    HaybittlePeto,
    /// Lan-DeMets O'Brien-Fleming type.
    #[serde(rename = "obrien-fleming")]
    OBrienFleming,
    /// Lan-DeMets Pocock type.
    Pocock,
}

impl Spending {
    /// Every spending function.
    pub const ALL: [Spending; 3] = [Self::HaybittlePeto, Self::OBrienFleming, Self::Pocock];

    /// As experiment files spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::HaybittlePeto => "haybittle-peto",
            Self::OBrienFleming => "obrien-fleming",
            Self::Pocock => "pocock",
        }
    }

    /// The spending function spelt `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

/// The sequential-equivalence design's settings, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct SequentialStop {
    /// Pairs per matchup at most (the calibration's too).
    pub max_pairs: u64,
    /// Pairs per stage: a look after every `look_every` pairs, and one at
    /// `max_pairs`.
    pub look_every: u64,
    /// Games the whole study may play (`None`: no limit but the caps).
    pub budget_games: Option<u64>,
    /// The equivalence margin, pawns per piece exchanged.
    pub margin_pawns: f64,
    /// Error rate of each kind of claim per class (Holm).
    pub alpha: f64,
    pub spending: Spending,
    /// When set (γ): the calibration stops once no undecided comparison has
    /// a chance above γ of being shown equivalent by its cap, even were
    /// the truth the most favourable to it; unset, it plays while any
    /// comparison is undecided.
    pub calibration_futility: Option<f64>,
}

/// Default margin: a quarter of a pawn per piece.
pub const DEFAULT_MARGIN_PAWNS: f64 = 0.25;
/// Default error rate per kind of claim.
pub const DEFAULT_ALPHA: f64 = 0.05;

impl SequentialStop {
    /// Pairs per matchup at each look, increasing, the last `max_pairs`.
    pub fn looks(&self) -> Vec<u64> {
        look_schedule(self.look_every, self.max_pairs)
    }
}

/// Pair counts at the looks: every `look_every` pairs below `max_pairs`,
/// then `max_pairs` (both at least 1).
pub fn look_schedule(look_every: u64, max_pairs: u64) -> Vec<u64> {
    let step = look_every.max(1);
    let mut looks: Vec<u64> = (1..)
        .map(|k| k * step)
        .take_while(|&n| n < max_pairs)
        .collect();
    looks.push(max_pairs.max(1));
    looks
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_every_block_and_at_the_cap() {
        assert_eq!(look_schedule(20, 100), [20, 40, 60, 80, 100]);
        assert_eq!(look_schedule(30, 100), [30, 60, 90, 100]);
        assert_eq!(look_schedule(200, 100), [100]);
        for s in Spending::ALL {
            assert_eq!(Spending::parse(s.as_str()), Some(s));
        }
    }
}
