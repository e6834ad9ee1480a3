//! From log directories to a [`Report`]: read the logs (`super::read`),
//! compute the statistics (the pawn unit in `super::calibration`, per
//! matchup in `super::matchups`, per group in `super::groups`, the
//! game's balance in `super::balance`, colours in `super::colours`),
//! and put them in words (`super::wording`).

use std::path::{Path, PathBuf};

use pocketlab_core::Variant;
use pocketlab_selfplay::experiment::Program;
use pocketlab_selfplay::{Experiment, PairScores};

use super::adaptive::{self, AdaptiveStudy};
use super::model::*;
use super::read::{GamesSummary, common_experiment, log_error, read_games};
use super::value_scale::KnownVerdict;
use super::{balance, calibration, colours, games, groups, matchups, value_scale, wording};
use pocketlab_stats::{ConfidenceLevel, EquivalenceTest};

pub use super::read::{ReportError, experiment_of};

/// Settings of the analysis.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// The equivalence margin in pawns per piece exchanged (a quarter of a
    /// pawn by default). A study under the sequential design uses its
    /// design's margin and α: its verdicts were made at them.
    pub margin_pawns: f64,
    /// Significance level of the verdicts.
    pub alpha: f64,
    /// The folder the report is written to, if known: commands the report
    /// prints to be run there name files from it.
    pub out_dir: Option<PathBuf>,
    /// Logs of class studies of the same variant whose verdicts a value
    /// scale's class tables take as known: a pair found different cannot
    /// share a class of a table that holds. Each directory is one study's
    /// log; only a value scale's report reads them.
    pub verdict_logs: Vec<PathBuf>,
}

impl Default for ReportOptions {
    fn default() -> ReportOptions {
        ReportOptions {
            margin_pawns: 0.25,
            alpha: 0.05,
            out_dir: None,
            verdict_logs: Vec::new(),
        }
    }
}

/// The piece values of each evaluation the lab's engines use, armies
/// grouped by evaluation in the order they first appear.
fn eval_values(exp: &Experiment) -> Vec<EvalPieceValues> {
    let mut out: Vec<EvalPieceValues> = Vec::new();
    for army in &exp.armies {
        let engine = &army.engine;
        if engine.program != Program::Lab {
            continue;
        }
        if let Some(entry) = out.iter_mut().find(|e| e.eval == engine.eval_label) {
            entry.armies.push(army.name.clone());
            continue;
        }
        let variant = &exp.variant;
        let pieces = variant
            .piece_types()
            .filter(|&kind| kind != variant.royal)
            .map(|kind| {
                let def = variant.piece(kind);
                EvalPieceValue {
                    letter: variant.letter(kind).to_string(),
                    name: def.name.clone(),
                    class: def.class,
                    centipawns: engine.eval.piece_value(variant, kind),
                }
            })
            .collect();
        out.push(EvalPieceValues {
            eval: engine.eval_label.clone(),
            armies: vec![army.name.clone()],
            pieces,
        });
    }
    out
}

/// Each matchup's logged pair results in pair order, as the runner's
/// planners read them.
fn logged_scores(exp: &Experiment, games: &GamesSummary) -> PairScores {
    (0..exp.matchups.len())
        .map(|m| {
            let logged = games.matchups.get(&(m as u64));
            let end = logged
                .and_then(|c| c.pair_scores.keys().next_back())
                .map_or(0, |&p| p + 1);
            (0..end)
                .map(|p| logged.and_then(|c| c.pair_scores.get(&p).copied()))
                .collect()
        })
        .collect()
}

/// The class verdicts of the studies logged in `verdict_logs`, for the
/// value scale of `exp` (logged in `dirs`): each study's report built on
/// its own, its pairs taken by piece letter. A study of another variant,
/// a log without class verdicts, or verdicts asked of a report that is not
/// a value scale's is refused, naming the directory.
fn known_verdicts(
    exp: &Experiment,
    dirs: &[PathBuf],
    verdict_logs: &[PathBuf],
) -> Result<Vec<KnownVerdict>, ReportError> {
    if verdict_logs.is_empty() {
        return Ok(Vec::new());
    }
    if exp.scale.is_none() {
        return Err(log_error(
            &dirs[0],
            format!(
                "class verdicts ({}) inform a value scale's class tables, and experiment {} is not \
                 a value scale",
                verdict_logs[0].display(),
                exp.name
            ),
        ));
    }
    let mut known = Vec::new();
    for dir in verdict_logs {
        // A study of a revised class table (a proposal's confirmation)
        // compares the same pieces: its verdicts count.
        let (studied, _) = experiment_of(dir)?;
        if !same_pieces(&studied.variant, &exp.variant) {
            return Err(log_error(
                dir,
                format!(
                    "its class study is of variant {}, whose pieces are not those of the value \
                     scale's variant {}",
                    studied.variant.name, exp.variant.name
                ),
            ));
        }
        let study = build_report(std::slice::from_ref(dir), &ReportOptions::default())?;
        let info = &study.experiment;
        let before = known.len();
        for group in study.groups.iter().filter(|g| g.class.is_some()) {
            known.extend(group.pairs.iter().map(|p| KnownVerdict {
                a: p.a.clone(),
                b: p.b.clone(),
                kind: p.kind,
                source: info.name.clone(),
            }));
        }
        if known.len() == before {
            return Err(log_error(
                dir,
                format!(
                    "experiment {} holds no class verdicts (no class of pieces was compared)",
                    info.name
                ),
            ));
        }
    }
    Ok(known)
}

/// Refuses to write a new proposed table over one a class study played
/// (or to remove it): a study given with `--verdicts`, or one logged in a
/// folder beside the report (`confirmation/log`, where the printed
/// confirmation command plays). That study's log names the file and would
/// no longer read back once it changed. Nothing is written then.
fn keep_played_table(
    out_dir: &Path,
    new: Option<&str>,
    verdict_logs: &[PathBuf],
) -> Result<(), ReportError> {
    let target = out_dir.join(value_scale::PROPOSED_CLASSES);
    let (Ok(old), Ok(target)) = (std::fs::read_to_string(&target), target.canonicalize()) else {
        return Ok(());
    };
    if new == Some(old.as_str()) {
        return Ok(());
    }
    let beside: Vec<PathBuf> = std::fs::read_dir(out_dir)
        .into_iter()
        .flatten()
        .filter_map(|entry| Some(entry.ok()?.path().join("log")))
        .filter(|log| log.join(pocketlab_selfplay::log::MANIFEST_FILE).is_file())
        .collect();
    let played = |dir: &Path| {
        experiment_of(dir).is_ok_and(|(studied, _)| {
            studied
                .dir
                .join(&studied.variant_label)
                .canonicalize()
                .is_ok_and(|played| played == target)
        })
    };
    if let Some(dir) = verdict_logs.iter().chain(&beside).find(|d| played(d)) {
        return Err(log_error(
            dir,
            format!(
                "its class study played {}, which this report would {}, leaving that log \
                 unreadable: write this report to another folder (--out)",
                target.display(),
                if new.is_some() {
                    "replace with a new proposed table"
                } else {
                    "remove"
                }
            ),
        ));
    }
    Ok(())
}

/// Whether two variants have the same pieces, letter for letter and move
/// for move, whatever their classes and values.
fn same_pieces(a: &Variant, b: &Variant) -> bool {
    a.royal == b.royal
        && a.pieces.len() == b.pieces.len()
        && a.pieces.iter().zip(&b.pieces).all(|(x, y)| {
            (x.letter, &x.betza, x.by_region, x.pawn) == (y.letter, &y.betza, y.by_region, y.pawn)
        })
}

/// Build the report for the logs in `dirs` (all of one experiment). A
/// damaged file is reported by name.
pub fn build_report(dirs: &[PathBuf], options: &ReportOptions) -> Result<Report, ReportError> {
    let (exp, manifest) = common_experiment(dirs)?;
    let level = ConfidenceLevel::NINETY_FIVE;
    let games = read_games(dirs)?;

    let (unit, calibration) = calibration::calibrate(&exp, &games.matchups, level);
    let matchups = matchups::matchup_stats(&exp, &games.matchups, &unit, level);
    let published = matchups::published_checks(&exp, &matchups);
    let eval_values = eval_values(&exp);
    // A sequential study's verdicts were made at its design's margin and α.
    let (margin_pawns, alpha) = exp
        .stop
        .sequential()
        .map_or((options.margin_pawns, options.alpha), |s| {
            (s.margin_pawns, s.alpha)
        });
    let test = EquivalenceTest::new(margin_pawns, unit, alpha)
        .map_err(|e| log_error(&dirs[0], format!("equivalence test: {e}")))?;
    let test = if calibration.pairs > 0 {
        test.with_calibration_pairs(calibration.pairs)
    } else {
        test
    };
    // The design's verdicts stand only for a log the design wrote: pairs it
    // never scheduled (a synthetic log, logs of another experiment merged
    // in) make it a fixed-sample report, and a note says why.
    let mut off_design = None;
    let scores = logged_scores(&exp, &games);
    let known = known_verdicts(&exp, dirs, &options.verdict_logs)?;
    let value_scale = value_scale::value_scale(&exp, &scores, options.out_dir.as_deref(), &known);
    if let (Some(out_dir), Some(scale)) = (options.out_dir.as_deref(), &value_scale) {
        keep_played_table(
            out_dir,
            scale.proposed_variant.as_deref(),
            &options.verdict_logs,
        )?;
    }
    let adaptive = AdaptiveStudy::of(&exp).and_then(|study| {
        let history = study.replay(&scores);
        if let Some(problem) = study.unscheduled(&scores, &history) {
            off_design = Some(problem);
            return None;
        }
        Some(adaptive::account(&exp, &study, &history))
    });
    // A value scale's matchups exchange one piece for its neighbour on the
    // scale, across classes: its answer is the scale, not class verdicts.
    let groups = if value_scale.is_some() {
        Vec::new()
    } else {
        groups::rating_groups(
            &exp,
            &matchups,
            &games.colour_records,
            &test,
            level,
            adaptive.as_ref().map(|(verdicts, _)| verdicts),
        )
    };
    let adaptive = adaptive.map(|(_, summary)| summary);
    let engines = matchups::engine_verdicts(&exp, &matchups);
    let balance = balance::game_balance(&games, dirs, &exp, level)?;
    let pocket_use = balance::pocket_use(&games, &exp.variant);
    let colour_values = colours::colour_values(dirs, &exp)?;
    // A value scale shows the games of the matchups that depart most from it.
    let departing: Option<Vec<usize>> = value_scale
        .as_ref()
        .and_then(|v| v.consistency.as_ref())
        .map(|c| c.departing.iter().map(|d| d.matchup).collect());
    let shown_games = games::shown_games(dirs, &exp.variant, departing.as_deref())?;
    let notes = wording::notes(
        &calibration,
        &matchups,
        &groups,
        &games.engines,
        &balance,
        adaptive.as_ref(),
        off_design.as_deref(),
    );

    let mut headlines = wording::headlines(
        &calibration,
        &groups,
        &engines,
        &balance,
        colour_values.as_ref(),
        adaptive.as_ref(),
        &published,
    );
    // A value scale rates every piece on its own scale, not in groups.
    if value_scale.is_some() {
        headlines.retain(|h| h != wording::NOTHING_RATED);
    }

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
            verdict_logs: options
                .verdict_logs
                .iter()
                .map(|d| d.display().to_string())
                .collect(),
            engines: games.engines,
            eval_values,
        },
        headlines,
        notes,
        margin_pawns,
        margin_elo: if unit.is_positive() {
            unit.to_elo(margin_pawns)
        } else {
            f64::NAN
        },
        calibration,
        matchups,
        published,
        groups,
        engines,
        balance,
        pocket_use,
        colour_values,
        adaptive,
        value_scale,
        training: None,
        shown_games,
    })
}
