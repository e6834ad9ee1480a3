//! An experiment under the value-scale design: the study the runner plans
//! its stages with ([`ScaleStudy`] is the runner's [`StagePlanner`]), and
//! where the study stands, for the report. Both replay the same design
//! over the same logged pair results, so the report states exactly the
//! plan that steered the run.
//!
//! The replay: stage 1 is the warm-up (every matchup of the scale plays
//! `warmup_pairs`); each later stage is what
//! [`pocketlab_stats::value_scale::next_matchups`] asks of the fit of every
//! stage before it, cut to the caps and to the budget left. The study ends
//! when every piece is valued and every target met, when the budget cannot
//! pay for another block, when every matchup that could help is at its cap,
//! or when no matchup of the plan can move the targets left.

use pocketlab_selfplay::experiment::{ScalePlan, ScaleStop};
use pocketlab_selfplay::{Experiment, PairScores, StagePairs, StagePlanner, StageRange};
use pocketlab_stats::Pentanomial;
use pocketlab_stats::value_scale::{
    Allocation, AllocationOptions, ScaleMatchup, ScaleOptions, next_matchups,
};

/// Why a value-scale study is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScaleEnd {
    /// Every piece valued and every precision target met.
    TargetsMet,
    /// Every target met or, out of reach of the departures, within a tenth
    /// of the floor they leave.
    Floors,
    /// The budget cannot pay for another block of pairs.
    Budget,
    /// The matchups that could narrow the targets left are at their caps
    /// (`max_pairs`, `unit_max_pairs` for the pawn's).
    Caps,
    /// No matchup of the plan moves the targets left (a piece the plan
    /// never joins to the empty square, or a unit not yet measurable).
    Stalled,
}

impl ScaleEnd {
    /// Why the study is over, in words.
    pub fn describe(self) -> &'static str {
        match self {
            ScaleEnd::TargetsMet => "every piece valued, every target met",
            ScaleEnd::Floors => {
                "every target met or, out of reach of the matchups' departures from one scale, \
                 within a tenth of the floor they leave"
            }
            ScaleEnd::Budget => "the budget is spent",
            ScaleEnd::Caps => "the matchups that could narrow the targets left are at their cap",
            ScaleEnd::Stalled => "no matchup of the plan can narrow the targets left",
        }
    }
}

/// The design's replay over a log.
#[derive(Clone, Debug)]
pub struct ScaleHistory {
    /// Stages complete in the log.
    pub stages_done: usize,
    /// Pairs of each matchup (by experiment index) in the complete stages.
    pub scheduled: Vec<u64>,
    /// Games of the complete stages.
    pub games: u64,
    /// The stage to play next (`None`: the study is over).
    pub next: Option<StagePairs>,
    /// Why the study is over, once it is.
    pub end: Option<ScaleEnd>,
    /// The last planning: the fit of the complete stages, every target's
    /// standing and the pairs it asked for.
    pub allocation: Allocation,
}

/// The value-scale design of an experiment.
#[derive(Debug)]
pub struct ScaleStudy {
    stop: ScaleStop,
    plan: ScalePlan,
    names: Vec<String>,
}

impl ScaleStudy {
    /// The study of `exp`, when its `[stop]` uses the value-scale design
    /// (validated with the experiment: its matchups are all on the scale).
    pub fn of(exp: &Experiment) -> Option<Self> {
        Some(Self {
            stop: exp.stop.value_scale()?.clone(),
            plan: exp.scale.clone()?,
            names: exp.matchups.iter().map(|m| m.name.clone()).collect(),
        })
    }

    /// The design's settings.
    pub fn stop(&self) -> &ScaleStop {
        &self.stop
    }

    /// The scale's pieces and matchups.
    pub fn plan(&self) -> &ScalePlan {
        &self.plan
    }

    /// The most stages the study can take: the warm-up, a stage per block
    /// of the pairs left after it (within the budget and the caps), and one
    /// more per matchup whose last block is cut to its cap. For scripts
    /// that submit one job per stage: a stage past the end plays nothing.
    pub fn most_stages(&self) -> usize {
        let options = &self.stop.allocation;
        let matchups = self.plan.matchups.len() as u64;
        let warmup = options.warmup_pairs.min(options.max_pairs);
        let mut pairs_left: u64 = (0..self.plan.matchups.len())
            .map(|i| self.plan.cap(i, options) - warmup)
            .sum();
        if let Some(budget) = self.stop.budget_games {
            pairs_left = pairs_left.min(budget.saturating_sub(2 * warmup * matchups) / 2);
        }
        (1 + pairs_left.div_ceil(options.block_pairs) + matchups) as usize
    }

    /// The design over the logged `scores`; an error names a logged pair
    /// the design never planned.
    pub fn replay(&self, scores: &PairScores) -> Result<ScaleHistory, String> {
        let pieces = self.plan.pieces.len();
        let fit_options = ScaleOptions::new(self.plan.pawn);
        let options = self.stop.allocation;
        let warmup = options.warmup_pairs.min(options.max_pairs);
        let mut scheduled = vec![0u64; self.names.len()];
        let mut games = 0u64;
        let mut stages_done = 0;
        loop {
            let counts = scale_counts(&self.plan, scores, Some(&scheduled));
            let warming_up = self
                .plan
                .matchups
                .iter()
                .any(|&(m, ..)| scheduled[m] < warmup);
            // After the warm-up, a stage gives only the blocks the budget
            // left can pay for.
            let affordable = match self.stop.budget_games {
                Some(budget) if !warming_up => {
                    (budget.saturating_sub(games) / (2 * options.block_pairs)) as usize
                }
                _ => options.blocks,
            };
            let stage_options = AllocationOptions {
                blocks: options.blocks.min(affordable).max(1),
                ..options
            };
            let allocation = next_matchups(
                pieces,
                &counts,
                &fit_options,
                &self.stop.targets,
                &stage_options,
            )
            .map_err(|e| format!("the value scale cannot be planned: {e}"))?;
            let at_caps = self
                .plan
                .matchups
                .iter()
                .enumerate()
                .all(|(i, &(m, ..))| scheduled[m] >= self.plan.cap(i, &options));
            let end = if allocation.met {
                Some(ScaleEnd::TargetsMet)
            } else if allocation.settled {
                Some(ScaleEnd::Floors)
            } else if affordable == 0 {
                Some(ScaleEnd::Budget)
            } else if allocation.next.is_empty() && at_caps {
                Some(ScaleEnd::Caps)
            } else if allocation.next.is_empty() {
                Some(self.why_stalled(&allocation, &scheduled))
            } else {
                None
            };
            let next = end.is_none().then(|| StagePairs {
                number: stages_done + 1,
                ranges: allocation
                    .next
                    .iter()
                    .map(|p| {
                        let matchup = self.plan.matchups[p.matchup].0;
                        StageRange {
                            matchup,
                            from: scheduled[matchup],
                            to: scheduled[matchup] + p.pairs,
                        }
                    })
                    .collect(),
            });
            let complete = next.as_ref().is_some_and(|stage| {
                stage.ranges.iter().all(|r| {
                    (r.from..r.to).all(|p| {
                        scores
                            .get(r.matchup)
                            .and_then(|s| s.get(p as usize))
                            .is_some_and(Option::is_some)
                    })
                })
            });
            if !complete {
                let history = ScaleHistory {
                    stages_done,
                    scheduled,
                    games,
                    next,
                    end,
                    allocation,
                };
                return match self.unplanned(scores, &history) {
                    Some(problem) => Err(problem),
                    None => Ok(history),
                };
            }
            for r in next.iter().flat_map(|s| &s.ranges) {
                scheduled[r.matchup] = r.to;
                games += 2 * (r.to - r.from);
            }
            stages_done += 1;
        }
    }

    /// Nothing planned, though not every matchup is at its cap: the caps
    /// end the study if every matchup that could help is at its cap,
    /// otherwise nothing in the plan moves the targets left.
    fn why_stalled(&self, allocation: &Allocation, scheduled: &[u64]) -> ScaleEnd {
        let useful_at_cap = self
            .plan
            .matchups
            .iter()
            .zip(&allocation.fit.matchups)
            .enumerate()
            .filter(|(_, (_, e))| e.as_ref().is_some_and(|e| e.used))
            .all(|(i, (&(m, ..), _))| scheduled[m] >= self.plan.cap(i, &self.stop.allocation));
        if useful_at_cap && allocation.unvalued.is_empty() {
            ScaleEnd::Caps
        } else {
            ScaleEnd::Stalled
        }
    }

    /// A logged pair past what the design planned (the complete stages and
    /// the next one), named; `None` when the log follows the design.
    fn unplanned(&self, scores: &PairScores, history: &ScaleHistory) -> Option<String> {
        for (m, logged) in scores.iter().enumerate() {
            let next = history
                .next
                .iter()
                .flat_map(|s| &s.ranges)
                .find(|r| r.matchup == m)
                .map_or(0, |r| r.to);
            let planned = history.scheduled.get(m).copied().unwrap_or(0).max(next);
            if let Some(p) = (planned as usize..logged.len()).find(|&p| logged[p].is_some()) {
                let name = self.names.get(m).map_or("?", String::as_str);
                return Some(format!(
                    "matchup {name} has pair {p} logged, but the value-scale design plans {planned} \
                     pairs of it so far (was the log written by another version of this \
                     experiment?)"
                ));
            }
        }
        None
    }
}

/// The scale's matchups with army A's counts over pairs `0..upto[m]` of
/// each (experiment index `m`; `None`: every logged pair); a pair not
/// logged whole is not counted.
pub fn scale_counts(
    plan: &ScalePlan,
    scores: &PairScores,
    upto: Option<&[u64]>,
) -> Vec<ScaleMatchup> {
    plan.matchups
        .iter()
        .map(|&(m, a, b)| {
            let logged = scores.get(m).map_or(&[][..], Vec::as_slice);
            let end = upto.map_or(logged.len(), |u| (u[m] as usize).min(logged.len()));
            let mut counts = Pentanomial::default();
            for &half_points in logged[..end].iter().flatten() {
                // Half points of a pair are 0..=4 by construction.
                let _ = counts.add_half_points(half_points);
            }
            ScaleMatchup::new(a, b, counts)
        })
        .collect()
}

impl StagePlanner for ScaleStudy {
    fn next_stage(&self, scores: &PairScores) -> Result<Option<StagePairs>, String> {
        Ok(self.replay(scores)?.next)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use pocketlab_stats::value_scale::PieceRef;

    fn parsed(stop: &str) -> (Experiment, ScaleStudy) {
        let text = format!(
            "name = \"t\"\nvariant = \"pocket-mutation\"\nseed = 1\n\
             [stop]\ndesign = \"value-scale\"\n{stop}\n\
             [[generators]]\nkind = \"value-scale\"\npieces = \"NBRQ\"\n"
        );
        let exp = Experiment::parse("t.toml", &text, Path::new(".")).unwrap();
        let study = ScaleStudy::of(&exp).unwrap();
        (exp, study)
    }

    /// A made-up result for pair `p` of matchup `m`: army A, the stronger
    /// side, scores about two thirds.
    fn result(m: usize, p: u64) -> u8 {
        let h = (m as u64 * 0x9E37_79B9 + p * 0x85EB_CA6B) % 97;
        match h {
            0..=4 => 0,
            5..=14 => 1,
            15..=39 => 2,
            40..=69 => 3,
            _ => 4,
        }
    }

    /// Plays the study to its end by the planner, as the runner does.
    fn play_to_the_end(exp: &Experiment, study: &ScaleStudy) -> (PairScores, Vec<StagePairs>) {
        let mut scores: PairScores = vec![Vec::new(); exp.matchups.len()];
        let mut stages = Vec::new();
        while let Some(stage) = study.next_stage(&scores).unwrap() {
            assert_eq!(stage.number, stages.len() + 1);
            assert!(!stage.ranges.is_empty());
            for r in &stage.ranges {
                let logged = &mut scores[r.matchup];
                assert_eq!(logged.len() as u64, r.from, "stages follow each other");
                logged.extend((r.from..r.to).map(|p| Some(result(r.matchup, p))));
            }
            stages.push(stage);
            assert!(stages.len() < 10_000, "no end in sight");
        }
        (scores, stages)
    }

    #[test]
    fn the_replay_is_deterministic_and_within_caps_and_budget() {
        let stop = "max_pairs = 40\nbudget_games = 600\nwarmup_pairs = 4\nblock_pairs = 3\n\
                    stage_blocks = 4";
        let (exp, study) = parsed(stop);
        let (scores, stages) = play_to_the_end(&exp, &study);
        // The warm-up first: every matchup, 4 pairs.
        assert_eq!(stages[0].ranges.len(), exp.matchups.len());
        assert!(stages[0].ranges.iter().all(|r| (r.from, r.to) == (0, 4)));
        // Later stages: at most 4 blocks of 3 pairs, none past the cap.
        for s in &stages[1..] {
            let pairs: u64 = s.ranges.iter().map(|r| r.to - r.from).sum();
            assert!(pairs <= 12, "stage {}: {pairs} pairs", s.number);
        }
        assert!(scores.iter().all(|s| s.len() <= 40));
        let history = study.replay(&scores).unwrap();
        let games: u64 = scores.iter().map(|s| 2 * s.len() as u64).sum();
        assert_eq!(history.games, games);
        assert!(games <= 600, "{games} games");
        assert_eq!(history.stages_done, stages.len());
        assert!(history.next.is_none() && history.end.is_some());
        assert!(study.most_stages() >= stages.len());
        // Same log, same plan: replayed again, and from every prefix.
        let again = study.replay(&scores).unwrap();
        assert_eq!(again.scheduled, history.scheduled);
        assert_eq!(again.allocation, history.allocation);
        let (_, replayed) = play_to_the_end(&exp, &study);
        assert_eq!(replayed, stages);
        // A tight budget ends the study at the budget.
        let (exp, tight) = parsed(&stop.replace("budget_games = 600", "budget_games = 200"));
        let (scores, _) = play_to_the_end(&exp, &tight);
        let history = tight.replay(&scores).unwrap();
        assert_eq!(history.end, Some(ScaleEnd::Budget));
        assert!(history.games <= 200 && history.games > 200 - 2 * 3);
    }

    /// With every comparison of pieces at its cap, the pawn odds go on to
    /// their own cap while the unit is short of its goal.
    #[test]
    fn the_pawn_odds_play_past_the_others_cap_to_their_own() {
        let (exp, study) =
            parsed("max_pairs = 10\nunit_max_pairs = 60\nwarmup_pairs = 4\nblock_pairs = 5");
        let (scores, stages) = play_to_the_end(&exp, &study);
        let plan = study.plan();
        let is_unit = |m: usize| {
            plan.sides(m)
                .is_some_and(|(a, b)| [a, b].contains(&PieceRef::Piece(plan.pawn)))
        };
        for (m, s) in scores.iter().enumerate() {
            let cap = if is_unit(m) { 60 } else { 10 };
            assert!(s.len() <= cap, "matchup {m}: {} pairs", s.len());
        }
        let unit_pairs: usize = (0..scores.len())
            .filter(|&m| is_unit(m))
            .map(|m| scores[m].len())
            .sum();
        assert!(unit_pairs > 10, "{unit_pairs} pairs of pawn odds");
        let history = study.replay(&scores).unwrap();
        assert!(history.end.is_some());
        assert!(study.most_stages() >= stages.len());
        assert_eq!(
            exp.max_games(),
            2 * (10 * (exp.matchups.len() as u64 - 1) + 60)
        );
    }

    #[test]
    fn a_log_with_pairs_the_design_never_planned_is_refused() {
        let (exp, study) = parsed("max_pairs = 40\nwarmup_pairs = 4");
        let mut scores: PairScores = vec![Vec::new(); exp.matchups.len()];
        let warmup = study.next_stage(&scores).unwrap().unwrap();
        for r in &warmup.ranges {
            scores[r.matchup].extend((r.from..r.to).map(|p| Some(result(r.matchup, p))));
        }
        // Half of the next stage is logged: it is still the next.
        let next = study.next_stage(&scores).unwrap().unwrap();
        assert_eq!(next.number, 2);
        // A pair far past the plan is named.
        let m = 1;
        scores[m].resize(31, None);
        scores[m][30] = Some(2);
        let err = study.next_stage(&scores).unwrap_err();
        assert!(
            err.contains(&exp.matchups[m].name) && err.contains("pair 30"),
            "{err}"
        );
    }
}
