//! The `[stop]` table: how many pairs each matchup plays, and what may stop
//! it sooner: nothing (a fixed number of pairs), an SPRT (engine tests),
//! the sequential-equivalence design (piece studies, whose settings and
//! decisions are `pocketlab_stats::sequential`'s), or the value-scale
//! design (every piece on one scale, planned by
//! `pocketlab_stats::value_scale::next_matchups`).

use pocketlab_stats::sequential::{
    DEFAULT_ALPHA, DEFAULT_MARGIN_PAWNS, SequentialStop, look_schedule,
};
use pocketlab_stats::sprt::Sprt;
use pocketlab_stats::value_scale::{AllocationOptions, Targets};

use super::file::{DesignName, StopFile};
use super::{Ctx, ExperimentError, ScalePlan, limits};

/// What may stop a matchup before `pairs`.
#[derive(Clone, Debug)]
pub enum StopDesign {
    /// Nothing: every matchup plays `pairs` pairs.
    Fixed,
    /// An SPRT, applied after every pair.
    Sprt(Sprt),
    /// The sequential-equivalence design.
    SequentialEquivalence(SequentialStop),
    /// The value-scale design.
    ValueScale(ScaleStop),
}

/// The value-scale design's settings: how its stages are planned and when
/// the study ends.
#[derive(Clone, Debug, PartialEq)]
pub struct ScaleStop {
    /// Games the whole study may play (`None`: no budget).
    pub budget_games: Option<u64>,
    /// The precision goals that end the study once all are met.
    pub targets: Targets,
    /// The warm-up, the blocks of a stage and the cap per matchup
    /// (`max_pairs`).
    pub allocation: AllocationOptions,
}

impl ScaleStop {
    /// Games of the first stage, the warm-up of `matchups` matchups.
    pub fn warmup_games(&self, matchups: usize) -> u64 {
        2 * self.allocation.warmup_pairs * matchups as u64
    }
}

/// When matchups stop.
#[derive(Clone, Debug)]
pub struct StopRule {
    /// The most pairs a matchup plays (`pairs`, or the design's `max_pairs`).
    pub pairs: u64,
    /// What may stop a matchup sooner, and how a staged study is planned.
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

    /// The value-scale design, if the study has one.
    pub fn value_scale(&self) -> Option<&ScaleStop> {
        match &self.design {
            StopDesign::ValueScale(s) => Some(s),
            _ => None,
        }
    }

    /// The games a staged design may play in all, if it has a budget.
    pub fn budget_games(&self) -> Option<u64> {
        match &self.design {
            StopDesign::SequentialEquivalence(s) => s.budget_games,
            StopDesign::ValueScale(s) => s.budget_games,
            _ => None,
        }
    }

    /// Whether the study is played in stages planned from its log.
    pub fn staged(&self) -> bool {
        matches!(
            self.design,
            StopDesign::SequentialEquivalence(_) | StopDesign::ValueScale(_)
        )
    }
}

/// The `[stop]` keys each design reads: any other key set is an error.
fn design_keys(design: DesignName) -> &'static [&'static str] {
    match design {
        DesignName::Fixed => &["pairs", "sprt"],
        DesignName::SequentialEquivalence => &[
            "max_pairs",
            "look_every",
            "budget_games",
            "margin",
            "alpha",
            "spending",
            "calibration_futility",
        ],
        DesignName::ValueScale => &[
            "max_pairs",
            "budget_games",
            "warmup_pairs",
            "block_pairs",
            "stage_blocks",
            "adjacent_half_width",
            "unit_precision",
            "unit_max_pairs",
        ],
    }
}

/// The first key set in `f` that `design` does not read, and the designs
/// that do.
fn foreign_key(f: &StopFile, design: DesignName) -> Option<(&'static str, String)> {
    let set = [
        ("pairs", f.pairs.is_some()),
        ("sprt", f.sprt.is_some()),
        ("max_pairs", f.max_pairs.is_some()),
        ("look_every", f.look_every.is_some()),
        ("budget_games", f.budget_games.is_some()),
        ("margin", f.margin.is_some()),
        ("alpha", f.alpha.is_some()),
        ("spending", f.spending.is_some()),
        ("calibration_futility", f.calibration_futility.is_some()),
        ("warmup_pairs", f.warmup_pairs.is_some()),
        ("block_pairs", f.block_pairs.is_some()),
        ("stage_blocks", f.stage_blocks.is_some()),
        ("adjacent_half_width", f.adjacent_half_width.is_some()),
        ("unit_precision", f.unit_precision.is_some()),
        ("unit_max_pairs", f.unit_max_pairs.is_some()),
    ];
    let (key, _) = set
        .into_iter()
        .find(|&(key, is_set)| is_set && !design_keys(design).contains(&key))?;
    let owners: Vec<String> = [
        DesignName::Fixed,
        DesignName::SequentialEquivalence,
        DesignName::ValueScale,
    ]
    .into_iter()
    .filter(|&d| design_keys(d).contains(&key))
    .map(|d| format!("design = \"{}\"", d.as_str()))
    .collect();
    Some((key, owners.join(" or ")))
}

/// Validate `[stop]` for an experiment of `matchups` matchups; `scale`:
/// the value scale its generator laid out, if any.
pub(super) fn stop_rule(
    cx: &Ctx<'_>,
    f: &StopFile,
    matchups: usize,
    scale: Option<&ScalePlan>,
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
    let design = f.design.unwrap_or_default();
    match design {
        DesignName::Fixed => {
            if let Some((key, owners)) = foreign_key(f, design) {
                return Err(cx.err(
                    format!("stop.{key}"),
                    format!(
                        "belongs to {owners} (this [stop] plays a fixed number of pairs: set \
                         pairs, or add the design)"
                    ),
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
            if let Some((key, owners)) = foreign_key(f, design) {
                return Err(cx.err(
                    format!("stop.{key}"),
                    format!("belongs to {owners}, not to design = \"sequential-equivalence\""),
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
        DesignName::ValueScale => value_scale_stop(cx, f, matchups, scale, pairs_in_range),
    }
}

/// `[stop]` of the value-scale design, for an experiment whose matchups are
/// all its generator's.
fn value_scale_stop(
    cx: &Ctx<'_>,
    f: &StopFile,
    matchups: usize,
    scale: Option<&ScalePlan>,
    pairs_in_range: impl Fn(&str, u64) -> Result<u64, ExperimentError>,
) -> Result<StopRule, ExperimentError> {
    if let Some((key, owners)) = foreign_key(f, DesignName::ValueScale) {
        return Err(cx.err(
            format!("stop.{key}"),
            format!(
                "belongs to {owners}, not to design = \"value-scale\" (which plays up to \
                 max_pairs per matchup, in stages planned from the fit so far)"
            ),
        ));
    }
    match scale {
        None => {
            return Err(cx.err(
                "stop.design",
                "the value-scale design plans the matchups of a value scale: add [[generators]] \
                 with kind = \"value-scale\"",
            ));
        }
        Some(plan) if plan.matchups.len() != matchups => {
            return Err(cx.err(
                "stop.design",
                format!(
                    "the value-scale design plans only its generator's matchups: {} of the {matchups} \
                     matchups are not on the scale (leave out other generators and [[matchups]])",
                    matchups - plan.matchups.len()
                ),
            ));
        }
        Some(_) => {}
    }
    let max_pairs = pairs_in_range(
        "stop.max_pairs",
        f.max_pairs.ok_or_else(|| {
            cx.err(
                "stop.max_pairs",
                "the value-scale design needs max_pairs (pairs per matchup at most)",
            )
        })?,
    )?;
    let unit_max_pairs =
        pairs_in_range("stop.unit_max_pairs", f.unit_max_pairs.unwrap_or(max_pairs))?;
    if unit_max_pairs < max_pairs {
        return Err(cx.err(
            "stop.unit_max_pairs",
            format!(
                "at least max_pairs ({max_pairs}): the unit's matchups are capped no lower than the \
                 others, got {unit_max_pairs}"
            ),
        ));
    }
    let within_cap = |key: &str, value: Option<u64>, default: u64| {
        let value = value.unwrap_or(default);
        if (1..=max_pairs).contains(&value) {
            Ok(value)
        } else {
            Err(cx.err(
                format!("stop.{key}"),
                format!("between 1 and max_pairs ({max_pairs}), got {value}"),
            ))
        }
    };
    let defaults = AllocationOptions::default();
    let warmup_pairs = within_cap(
        "warmup_pairs",
        f.warmup_pairs,
        defaults.warmup_pairs.min(max_pairs),
    )?;
    let block_pairs = within_cap(
        "block_pairs",
        f.block_pairs,
        defaults.block_pairs.min(max_pairs),
    )?;
    let stage_blocks = f.stage_blocks.unwrap_or(defaults.blocks as u64);
    if !(1..=limits::MAX_STAGE_BLOCKS).contains(&stage_blocks) {
        return Err(cx.err(
            "stop.stage_blocks",
            format!(
                "between 1 and {}, got {stage_blocks}",
                limits::MAX_STAGE_BLOCKS
            ),
        ));
    }
    let goals = Targets::default();
    let adjacent_half_width = f.adjacent_half_width.unwrap_or(goals.adjacent_half_width);
    if !(adjacent_half_width > 0.0 && adjacent_half_width < 10.0) {
        return Err(cx.err(
            "stop.adjacent_half_width",
            format!("between 0 and 10 pawns, got {adjacent_half_width}"),
        ));
    }
    let unit_precision = f.unit_precision.unwrap_or(goals.unit_relative_half_width);
    if !(unit_precision > 0.0 && unit_precision < 1.0) {
        return Err(cx.err(
            "stop.unit_precision",
            format!(
                "a share of the pawn's value between 0 and 1 (0.08: ±8%), got {unit_precision}"
            ),
        ));
    }
    let stop = ScaleStop {
        budget_games: f.budget_games,
        targets: Targets {
            adjacent_half_width,
            unit_relative_half_width: unit_precision,
        },
        allocation: AllocationOptions {
            block_pairs,
            blocks: stage_blocks as usize,
            warmup_pairs,
            max_pairs,
            unit_max_pairs,
        },
    };
    let warmup = stop.warmup_games(matchups);
    if let Some(budget) = f.budget_games
        && budget < warmup
    {
        return Err(cx.err(
            "stop.budget_games",
            format!(
                "{budget} games cannot pay for the warm-up ({matchups} matchups x {warmup_pairs} \
                 pairs x 2 = {warmup} games)"
            ),
        ));
    }
    Ok(StopRule {
        pairs: unit_max_pairs,
        design: StopDesign::ValueScale(stop),
    })
}
