//! An experiment under the sequential-equivalence design: the study the
//! runner plans its stages with ([`AdaptiveStudy`] is the runner's
//! [`StagePlanner`]), and what the design decided, for the report. Both
//! replay the same design over the same logged pair results
//! ([`pocketlab_stats::sequential::Study::replay`]), so the report states
//! exactly the decisions that steered the run.

use std::collections::BTreeMap;

use pocketlab_selfplay::experiment::pieces_exchanged;
use pocketlab_selfplay::{Experiment, PairScores, StagePairs, StagePlanner};
use pocketlab_stats::sequential::SequentialStop;

use super::calibration::{is_pawn_odds, pawn_odds};
use super::components::components;
use super::model::{AdaptiveMatchup, AdaptiveStatus, AdaptiveSummary, VerdictKind};
use super::wording;
use pocketlab_stats::equivalence::Plan;
use pocketlab_stats::pawns::PawnUnit;
use pocketlab_stats::sequential::adjust::{Adjusted, bias_adjusted};
use pocketlab_stats::sequential::{Claim, Design, LookRecord, Role, Status, Study, StudyHistory};
use pocketlab_stats::verdict_numbers::VerdictNumbers;

/// The design of an experiment, and each matchup's role in it.
#[derive(Debug)]
pub struct AdaptiveStudy {
    stop: SequentialStop,
    design: Design,
    roles: Vec<Role>,
    names: Vec<String>,
}

impl AdaptiveStudy {
    /// The study of `exp`, when its `[stop]` uses the sequential design.
    /// Each class (armies joined by matchups, the calibration aside) is a
    /// Holm family; the first pawn-odds matchup calibrates.
    pub fn of(exp: &Experiment) -> Option<Self> {
        let stop = exp.stop.sequential()?.clone();
        // Validated with the experiment: margin, α and looks are in range.
        let design = Design::for_stop(&stop).ok()?;
        let calibration = (0..exp.matchups.len()).find(|&m| pawn_odds(exp, m).is_some());
        let name = |i: usize| exp.armies[i].name.as_str();
        let compared: Vec<usize> = (0..exp.matchups.len())
            .filter(|&m| Some(m) != calibration)
            .collect();
        let component = components(
            compared
                .iter()
                .map(|&m| (name(exp.matchups[m].a), name(exp.matchups[m].b))),
        );
        // Families numbered 0, 1, … in experiment order.
        let mut family_of: BTreeMap<usize, usize> = BTreeMap::new();
        let roles = (0..exp.matchups.len())
            .map(|m| {
                let matchup = &exp.matchups[m];
                let (a, b) = (&exp.armies[matchup.a], &exp.armies[matchup.b]);
                match pawn_odds(exp, m) {
                    Some((pawns, a_has_more)) if Some(m) == calibration => {
                        Role::Calibration { pawns, a_has_more }
                    }
                    _ => {
                        let id = component[name(matchup.a)];
                        let next = family_of.len();
                        let family = *family_of.entry(id).or_insert(next);
                        let pieces = if is_pawn_odds(a, b) {
                            1
                        } else {
                            pieces_exchanged(&exp.variant, a, b).unwrap_or(1)
                        };
                        Role::Compared { family, pieces }
                    }
                }
            })
            .collect();
        Some(Self {
            stop,
            design,
            roles,
            names: exp.matchups.iter().map(|m| m.name.clone()).collect(),
        })
    }

    /// The study the design runs.
    pub fn study(&self) -> Study<'_> {
        Study::new(&self.design, self.roles.clone(), self.stop.budget_games)
    }

    /// The design.
    pub fn design(&self) -> &Design {
        &self.design
    }

    /// The design's history over these results.
    pub fn replay(&self, scores: &PairScores) -> StudyHistory {
        self.study().replay(scores)
    }

    /// A logged pair the design would not have played, named; `None` when
    /// the log follows the design.
    pub fn unscheduled(&self, scores: &PairScores, history: &StudyHistory) -> Option<String> {
        for (m, logged) in scores.iter().enumerate() {
            let scheduled = history.scheduled_pairs(m);
            if let Some(p) = (scheduled as usize..logged.len()).find(|&p| logged[p].is_some()) {
                return Some(format!(
                    "matchup {} has pair {p} logged, but the design plays {scheduled} pairs of it \
                     so far (was the log written by another version of this experiment?)",
                    self.names[m]
                ));
            }
        }
        None
    }
}

impl StagePlanner for AdaptiveStudy {
    fn next_stage(&self, scores: &PairScores) -> Result<Option<StagePairs>, String> {
        let history = self.replay(scores);
        if let Some(problem) = self.unscheduled(scores, &history) {
            return Err(problem);
        }
        Ok(history
            .next
            .map(|s| StagePairs::uniform(s.number, s.from, s.to, &s.matchups)))
    }
}

/// What the design says about one compared matchup, for its verdict.
#[derive(Clone, Debug)]
pub(super) struct SequentialVerdict {
    pub kind: VerdictKind,
    /// The figures beside the verdict, from the tests at its last look:
    /// repeated confidence intervals at the Holm levels in force there.
    pub numbers: VerdictNumbers,
    /// The armies' Elo standard error and the pawn unit at that look.
    pub elo_std_error: f64,
    pub unit: PawnUnit,
    /// The bias-adjusted estimate, for comparisons of studies.
    pub adjusted: Option<Adjusted>,
    pub more_pairs_needed: Option<u64>,
    pub more_calibration_needed: bool,
    /// How it ended, in words: "decided at look 3 (75 pairs)".
    pub how: String,
    /// The look (1-based) that decided it, or its last look.
    pub look: usize,
}

/// The report's account of the design's `history` (its replay over the
/// logged results): per compared matchup (by name) its verdict, and the
/// study's summary.
pub(super) fn account(
    exp: &Experiment,
    study: &AdaptiveStudy,
    history: &StudyHistory,
) -> (BTreeMap<String, SequentialVerdict>, AdaptiveSummary) {
    let design = study.design();
    let mut verdicts = BTreeMap::new();
    let mut matchups = Vec::new();
    let mut calibration = None;
    for (m, record) in history.matchups.iter().enumerate() {
        let matchup = &exp.matchups[m];
        let label = format!(
            "{} vs {}",
            wording::player_label(exp, &exp.armies[matchup.a].name),
            wording::player_label(exp, &exp.armies[matchup.b].name)
        );
        let (status, look) = match record.status {
            Status::Decided { look, claim } => (
                match claim {
                    Claim::Equivalent => AdaptiveStatus::Equivalent,
                    Claim::Different { .. } => AdaptiveStatus::Different,
                    Claim::EquivalentAndDifferent { .. } => AdaptiveStatus::EquivalentStronger,
                },
                look + 1,
            ),
            Status::Playing => (AdaptiveStatus::Playing, history.looks_done),
            Status::Cap => (AdaptiveStatus::Cap, history.looks_done),
            Status::Budget { look } => (AdaptiveStatus::Budget, look + 1),
            Status::CalibrationDone { look } => (AdaptiveStatus::CalibrationDone, look + 1),
        };
        let plan = record.last.and_then(|l| l.plan);
        let how = wording::adaptive_how(status, look, record.pairs, plan, &study.stop);
        let entry = AdaptiveMatchup {
            name: matchup.name.clone(),
            label,
            status,
            look,
            pairs: record.pairs,
            games: 2 * record.pairs,
            more_pairs_needed: match plan {
                Some(Plan::MorePairs(n)) => Some(n),
                _ => None,
            },
            text: how.clone(),
        };
        match study.roles[m] {
            Role::Calibration { .. } => calibration = Some(entry),
            Role::Compared { pieces, .. } => {
                if let Some(last) = record.last {
                    verdicts.insert(
                        matchup.name.clone(),
                        sequential_verdict(design, &last, pieces, (status, look), plan, how),
                    );
                }
                matchups.push(entry);
            }
        }
    }
    let fixed_games = 2 * study.stop.max_pairs * exp.matchups.len() as u64;
    let decided = matchups
        .iter()
        .filter(|m| {
            matches!(
                m.status,
                AdaptiveStatus::Equivalent
                    | AdaptiveStatus::Different
                    | AdaptiveStatus::EquivalentStronger
            )
        })
        .count();
    let summary = AdaptiveSummary {
        spending: study.stop.spending.as_str().to_owned(),
        look_every: study.stop.look_every,
        max_pairs: study.stop.max_pairs,
        budget_games: study.stop.budget_games,
        margin_pawns: study.stop.margin_pawns,
        alpha: study.stop.alpha,
        calibration_futility: study.stop.calibration_futility,
        looks_planned: design.looks().len(),
        looks_done: history.looks_done,
        next_stage: history.next.as_ref().map(|s| s.number),
        games: history.games,
        fixed_games,
        decided,
        text: wording::adaptive_summary(decided, matchups.len(), history, fixed_games),
        calibration,
        matchups,
    };
    (verdicts, summary)
}

fn sequential_verdict(
    design: &Design,
    last: &LookRecord,
    pieces: u32,
    (status, look): (AdaptiveStatus, usize),
    plan: Option<Plan>,
    how: String,
) -> SequentialVerdict {
    SequentialVerdict {
        kind: match status {
            AdaptiveStatus::Equivalent => VerdictKind::Equivalent,
            AdaptiveStatus::Different => VerdictKind::Different,
            AdaptiveStatus::EquivalentStronger => VerdictKind::EquivalentStronger,
            _ => VerdictKind::Inconclusive,
        },
        numbers: last.numbers(pieces),
        elo_std_error: last.estimate.elo_std_error,
        unit: last.unit,
        adjusted: bias_adjusted(design, last, pieces),
        more_pairs_needed: match plan {
            Some(Plan::MorePairs(p)) => Some(p),
            _ => None,
        },
        more_calibration_needed: plan == Some(Plan::MoreCalibration),
        how,
        look,
    }
}
