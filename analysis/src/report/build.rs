//! From log directories to a [`Report`]: read the logs ([`super::read`]),
//! compute the statistics (the pawn unit in [`super::calibration`], per
//! matchup in [`super::matchups`], per group in [`super::groups`], the
//! game's balance in [`super::balance`], colours in [`super::colours`]),
//! and put them in words ([`super::wording`]).

use std::path::PathBuf;

use super::model::*;
use super::read::{common_experiment, log_error, read_games};
use super::{balance, calibration, colours, groups, matchups, wording};
use crate::stats::{ConfidenceLevel, EquivalenceTest};

pub use super::read::{ReportError, experiment_of};

/// Settings of the analysis.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// The equivalence margin in pawns per piece exchanged (a quarter of a
    /// pawn by default).
    pub margin_pawns: f64,
    /// Significance level of the verdicts.
    pub alpha: f64,
}

impl Default for ReportOptions {
    fn default() -> ReportOptions {
        ReportOptions {
            margin_pawns: 0.25,
            alpha: 0.05,
        }
    }
}

/// Build the report for the logs in `dirs` (all of one experiment). A
/// damaged file is reported by name.
pub fn build_report(dirs: &[PathBuf], options: &ReportOptions) -> Result<Report, ReportError> {
    let (exp, manifest) = common_experiment(dirs)?;
    let level = ConfidenceLevel::NINETY_FIVE;
    let games = read_games(dirs)?;

    let (unit, calibration) = calibration::calibrate(&exp, &games.matchups, level);
    let matchups = matchups::matchup_stats(&exp, &games.matchups, &unit, level);
    let test = EquivalenceTest::new(options.margin_pawns, unit, options.alpha)
        .map_err(|e| log_error(&dirs[0], format!("equivalence test: {e}")))?;
    let groups = groups::rating_groups(&exp, &matchups, &games.colour_records, &test, level);
    let engines = matchups::engine_verdicts(&exp, &matchups);
    let balance = balance::game_balance(&games, dirs, &exp, level)?;
    let pocket_use = balance::pocket_use(&games, &exp.variant);
    let colour_values = colours::colour_values(dirs, &exp)?;
    let notes = wording::notes(&calibration, &matchups, &groups, &games.engines, &balance);

    Ok(Report {
        experiment: ExperimentInfo {
            name: exp.name.clone(),
            description: exp.description.clone(),
            variant: exp.variant.name.clone(),
            variant_description: exp.variant.description.clone(),
            rule_overrides: exp.rule_overrides.clone(),
            seed: exp.seed,
            code_version: manifest.code_version.clone(),
            experiment_hash: manifest.experiment_hash,
            experiment_text: exp.source_text,
            logs: dirs.iter().map(|d| d.display().to_string()).collect(),
            engines: games.engines,
        },
        headlines: wording::headlines(
            &calibration,
            &groups,
            &engines,
            &balance,
            colour_values.as_ref(),
        ),
        notes,
        margin_pawns: options.margin_pawns,
        margin_elo: if unit.is_positive() {
            unit.to_elo(options.margin_pawns)
        } else {
            f64::NAN
        },
        calibration,
        matchups,
        groups,
        engines,
        balance,
        pocket_use,
        colour_values,
        training: None,
    })
}
