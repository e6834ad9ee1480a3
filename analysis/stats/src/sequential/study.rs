//! A whole study under the design: every comparison and the calibration,
//! looked at together, stage by stage, from the pair results alone.
//!
//! [`Study::replay`] is the one place the design's decisions are made: the
//! runner asks it which pairs the next stage plays, the report asks it what
//! was decided when, `pocketlab simulate` runs it on synthetic results. It
//! reads only the results of pairs below each look's pair count, so the same
//! log gives the same history for any thread count, shard split or resume.

use super::design::{Design, LookEstimate};
use crate::equivalence::{DifferenceEstimate, EquivalenceTest, Leaning, Plan, Side, Verdict};
use crate::pawns::PawnUnit;
use crate::pentanomial::Pentanomial;
use crate::verdict_numbers::{VerdictInputs, VerdictNumbers};

/// What a matchup is in the study.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Role {
    /// Two pieces (or armies) compared: equivalence and difference tested
    /// in Holm family `family` (a class), per piece of `pieces` exchanged.
    Compared {
        /// The family (0-based) whose Holm correction it shares.
        family: usize,
        /// Pieces the armies exchange (1 when compared whole).
        pieces: u32,
    },
    /// The pawn-odds calibration: `pawns` pawns given, to A when `a_has_more`.
    Calibration {
        /// Pawns the other side lacks.
        pawns: f64,
        /// Whether army A is the side with more pawns.
        a_has_more: bool,
    },
}

/// A study: the design, what each matchup is, and the games budget.
#[derive(Debug)]
pub struct Study<'d> {
    design: &'d Design,
    roles: Vec<Role>,
    budget_games: Option<u64>,
    families: usize,
    assumed: PawnUnit,
}

/// A decided comparison's claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Within the margin per piece.
    Equivalent,
    /// One side is stronger.
    Different {
        /// The stronger side.
        stronger: Side,
    },
    /// Both tests rejected at the deciding look: within the margin per
    /// piece, and yet one side measurably stronger.
    EquivalentAndDifferent {
        /// The stronger side.
        stronger: Side,
    },
}

impl Claim {
    /// Whether the claim includes equivalence within the margin.
    pub fn is_equivalent(self) -> bool {
        matches!(self, Self::Equivalent | Self::EquivalentAndDifferent { .. })
    }

    /// The side shown stronger, if any.
    pub fn stronger(self) -> Option<Side> {
        match self {
            Self::Equivalent => None,
            Self::Different { stronger } | Self::EquivalentAndDifferent { stronger } => {
                Some(stronger)
            }
        }
    }
}

/// Where a matchup stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Plays in the next stage.
    Playing,
    /// Decided at `look` (0-based).
    Decided {
        /// The look.
        look: usize,
        /// What was shown.
        claim: Claim,
    },
    /// Undecided at the per-matchup cap.
    Cap,
    /// Undecided: the study's budget did not fund its next stage after
    /// `look` (0-based).
    Budget {
        /// Its last look.
        look: usize,
    },
    /// The calibration stopped after `look`: no comparison was left
    /// undecided, or (with the design's calibration futility) none left
    /// had a chance of an equivalence verdict worth calibrating for.
    CalibrationDone {
        /// Its last look.
        look: usize,
    },
}

/// What a comparison's pairs said at its last look.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LookRecord {
    /// The look, 0-based.
    pub look: usize,
    /// Pairs behind it: the look's pair count.
    pub pairs: u64,
    /// What those pairs say: score, Elo and their standard errors.
    pub estimate: LookEstimate,
    /// The pawn unit at that look (from the calibration's pairs so far).
    pub unit: PawnUnit,
    /// TOST z-statistics at `+margin` and `-margin` per piece (`None`: no
    /// unit, or a one-sided score).
    pub tost_z: Option<(f64, f64)>,
    /// The difference test's z (score scale).
    pub difference_z: f64,
    /// Holm level in force at that look for each one-sided test of TOST.
    pub equivalence_level: f64,
    /// The design's one-sided boundary at `equivalence_level` for this look
    /// and pair count ([`Design::boundary`]): equivalence needs the TOST z
    /// at `+margin` at most `-boundary` and the one at `-margin` at least
    /// `boundary`.
    pub equivalence_boundary: f64,
    /// Holm level in force at that look for the two-sided difference test.
    pub difference_level: f64,
    /// The design's one-sided boundary at half `difference_level`
    /// ([`Design::boundary`]): a difference needs `|difference_z|` at least
    /// this, a two-sided test at `difference_level`.
    pub difference_boundary: f64,
    /// For an undecided comparison: what a fixed-sample test at its Holm
    /// level would need (a planning figure).
    pub plan: Option<Plan>,
    /// With the design's calibration futility, for an undecided comparison
    /// below the cap: its chance of an equivalence verdict by the cap at
    /// the truth most favourable to one
    /// ([`LookEstimate::equivalence_chance`]); `None` otherwise, or without
    /// a unit.
    pub equivalence_chance: Option<f64>,
}

impl LookRecord {
    /// The figures beside the verdict made at this look: the two tests
    /// inverted at its boundaries and Holm levels ([`VerdictNumbers`]),
    /// for armies exchanging `pieces` pieces.
    pub fn numbers(&self, pieces: u32) -> VerdictNumbers {
        let e = &self.estimate;
        VerdictNumbers::new(&VerdictInputs {
            score: e.score,
            score_std_error: e.score_std_error,
            elo: e.elo,
            elo_std_error: e.elo_std_error,
            pieces,
            unit: self.unit,
            equivalence_level: self.equivalence_level,
            equivalence_boundary: self.equivalence_boundary,
            difference_level: self.difference_level,
            difference_boundary: self.difference_boundary,
        })
    }
}

/// One matchup's history.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchupRecord {
    /// Pairs through its last look.
    pub pairs: u64,
    /// Where it stands after its last look.
    pub status: Status,
    /// Its statistics at its last look (comparisons only).
    pub last: Option<LookRecord>,
}

/// The pairs one stage plays: `from..to` of each listed matchup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stage {
    /// 1-based: stage `k` ends at look `k - 1` (0-based).
    pub number: usize,
    /// First pair played (0-based): the previous look's pair count, 0 for
    /// the first stage.
    pub from: u64,
    /// The pair count at the stage's look; pair `to` is not played.
    pub to: u64,
    /// The matchups that play it, as indices into the roles, ascending.
    pub matchups: Vec<usize>,
}

impl Stage {
    /// Games the stage plays.
    pub fn games(&self) -> u64 {
        2 * (self.to - self.from) * self.matchups.len() as u64
    }
}

/// The design's account of a study so far.
#[derive(Debug, Clone, PartialEq)]
pub struct StudyHistory {
    /// Each matchup's record, in the order of the roles.
    pub matchups: Vec<MatchupRecord>,
    /// Looks taken.
    pub looks_done: usize,
    /// The stage to play next (incomplete in the log), or `None`: the
    /// study is over.
    pub next: Option<Stage>,
    /// Games through the last look.
    pub games: u64,
    /// The pawn unit at the last look.
    pub unit: PawnUnit,
}

impl StudyHistory {
    /// Whether every matchup is done.
    pub fn finished(&self) -> bool {
        self.next.is_none()
    }

    /// Pairs of `matchup` the design plays up to the end of the next stage:
    /// a logged pair at or beyond this was not scheduled.
    pub fn scheduled_pairs(&self, matchup: usize) -> u64 {
        match &self.next {
            Some(s) if s.matchups.contains(&matchup) => s.to,
            _ => self.matchups[matchup].pairs,
        }
    }
}

/// Each matchup's pair results in pair order: `scores[m][p]` is A's half
/// points (0..=4) in pair `p` of matchup `m`, `None` while not logged.
pub type PairScores = [Vec<Option<u8>>];

fn counts(scores: &PairScores, m: usize, pairs: u64) -> Pentanomial {
    let mut c = Pentanomial::default();
    for s in scores[m].iter().take(pairs as usize).flatten() {
        c.counts[usize::from((*s).min(4))] += 1;
    }
    c
}

fn complete(scores: &PairScores, m: usize, from: u64, to: u64) -> bool {
    let logged = &scores[m];
    (from..to).all(|p| logged.get(p as usize).is_some_and(Option::is_some))
}

impl<'d> Study<'d> {
    /// A study of matchups with these roles (at most one calibration; the
    /// first is used), under `design`, within `budget_games` if set.
    pub fn new(design: &'d Design, roles: Vec<Role>, budget_games: Option<u64>) -> Self {
        let families = roles
            .iter()
            .filter_map(|r| match r {
                Role::Compared { family, .. } => Some(family + 1),
                Role::Calibration { .. } => None,
            })
            .max()
            .unwrap_or(0);
        Self {
            design,
            roles,
            budget_games,
            families,
            assumed: PawnUnit::muller(),
        }
    }

    /// The unit used when no matchup calibrates (default: Muller's).
    pub fn with_assumed_unit(self, assumed: PawnUnit) -> Self {
        Self { assumed, ..self }
    }

    /// The design.
    pub fn design(&self) -> &Design {
        self.design
    }

    /// The roles, by matchup.
    pub fn roles(&self) -> &[Role] {
        &self.roles
    }

    fn calibration(&self) -> Option<(usize, f64, bool)> {
        self.roles.iter().enumerate().find_map(|(i, r)| match *r {
            Role::Calibration { pawns, a_has_more } => Some((i, pawns, a_has_more)),
            Role::Compared { .. } => None,
        })
    }

    /// The design's decisions from the results logged so far: looks are
    /// taken while their stage is complete; the first incomplete stage is
    /// the one to play.
    pub fn replay(&self, scores: &PairScores) -> StudyHistory {
        let d = self.design;
        let looks = d.looks();
        let n = self.roles.len();
        assert_eq!(scores.len(), n, "one score list per matchup");
        let mut records = vec![
            MatchupRecord {
                pairs: 0,
                status: Status::Playing,
                last: None,
            };
            n
        ];
        let mut games = 0u64;
        let mut unit = self.assumed_unit();
        let mut eq_rejected = vec![false; n];
        let mut diff_rejected = vec![false; n];
        let mut active = self.fund(&mut records, 0, games);
        for (k, &to) in looks.iter().enumerate() {
            let from = if k == 0 { 0 } else { looks[k - 1] };
            let stage = Stage {
                number: k + 1,
                from,
                to,
                matchups: active.clone(),
            };
            if stage.matchups.is_empty() {
                return self.history(records, k, None, games, unit);
            }
            if !stage
                .matchups
                .iter()
                .all(|&m| complete(scores, m, from, to))
            {
                return self.history(records, k, Some(stage), games, unit);
            }
            games += stage.games();
            for &m in &stage.matchups {
                records[m].pairs = to;
            }
            if let Some((cal, pawns, a_has_more)) = self.calibration() {
                unit = LookEstimate::from_counts(&counts(scores, cal, records[cal].pairs))
                    .map_or(PawnUnit::Unknown, |e| e.pawn_unit(pawns, a_has_more));
            }
            self.look(
                k,
                scores,
                &stage.matchups,
                &unit,
                &mut records,
                &mut eq_rejected,
                &mut diff_rejected,
            );
            if k + 1 == looks.len() {
                for r in &mut records {
                    if r.status == Status::Playing {
                        r.status = Status::Cap;
                    }
                }
                return self.history(records, k + 1, None, games, unit);
            }
            active = self.fund(&mut records, k + 1, games);
        }
        unreachable!("the last look ends the study")
    }

    fn history(
        &self,
        records: Vec<MatchupRecord>,
        looks_done: usize,
        next: Option<Stage>,
        games: u64,
        unit: PawnUnit,
    ) -> StudyHistory {
        StudyHistory {
            matchups: records,
            looks_done,
            next,
            games,
            unit,
        }
    }

    /// Without a calibration matchup, the assumed unit.
    fn assumed_unit(&self) -> PawnUnit {
        if self.calibration().is_some() {
            PawnUnit::Unknown
        } else {
            self.assumed
        }
    }

    /// Look `k`: test every comparison that played up to it, family by
    /// family, with Holm's levels recycled as claims are made (Maurer and
    /// Bretz 2013), until no further claim is made at this look.
    #[allow(clippy::too_many_arguments)]
    fn look(
        &self,
        k: usize,
        scores: &PairScores,
        played: &[usize],
        unit: &PawnUnit,
        records: &mut [MatchupRecord],
        eq_rejected: &mut [bool],
        diff_rejected: &mut [bool],
    ) {
        let d = self.design;
        let margin = d.margin_pawns();
        let calibration_pairs = self.calibration().map_or(0, |(c, ..)| records[c].pairs);
        let mut size = vec![0usize; self.families];
        for r in &self.roles {
            if let Role::Compared { family, .. } = r {
                size[*family] += 1;
            }
        }
        let rejected_in = |flags: &[bool], family: usize| {
            self.roles
                .iter()
                .zip(flags)
                .filter(|(r, f)| {
                    matches!(r, Role::Compared { family: g, .. } if *g == family) && **f
                })
                .count()
        };
        let level = |flags: &[bool], family: usize| {
            d.alpha() / (size[family] - rejected_in(flags, family)).max(1) as f64
        };
        let tested: Vec<(usize, usize, u32, LookEstimate)> = played
            .iter()
            .filter_map(|&m| match self.roles[m] {
                Role::Compared { family, pieces } => {
                    let e = LookEstimate::from_counts(&counts(scores, m, records[m].pairs))?;
                    Some((m, family, pieces, e))
                }
                Role::Calibration { .. } => None,
            })
            .collect();
        loop {
            let mut changed = false;
            for &(m, family, pieces, e) in &tested {
                if !eq_rejected[m] {
                    let c = d.boundary(level(eq_rejected, family), k, e.pairs);
                    if let Some((upper, lower)) = e.tost_z(unit, pieces, margin)
                        && upper <= -c
                        && lower >= c
                    {
                        eq_rejected[m] = true;
                        changed = true;
                    }
                }
                if !diff_rejected[m] {
                    let c = d.boundary(level(diff_rejected, family) / 2.0, k, e.pairs);
                    if e.difference_z().abs() >= c {
                        diff_rejected[m] = true;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for &(m, family, pieces, e) in &tested {
            let equivalence_level = level(eq_rejected, family);
            let difference_level = level(diff_rejected, family);
            let stronger = if e.score > 0.5 {
                Side::First
            } else {
                Side::Second
            };
            // Both tests may reject at one look: both are said.
            let claim = match (eq_rejected[m], diff_rejected[m]) {
                (true, true) => Some(Claim::EquivalentAndDifferent { stronger }),
                (true, false) => Some(Claim::Equivalent),
                (false, true) => Some(Claim::Different { stronger }),
                (false, false) => None,
            };
            let plan = claim
                .is_none()
                .then(|| plan(unit, margin, equivalence_level, &e, pieces));
            let equivalence_chance = d
                .calibration_futility()
                .filter(|_| claim.is_none() && records[m].pairs < d.max_pairs())
                .and_then(|gamma| e.equivalence_chance(d, gamma, unit, calibration_pairs, pieces));
            records[m].last = Some(LookRecord {
                look: k,
                pairs: records[m].pairs,
                estimate: e,
                unit: *unit,
                tost_z: e.tost_z(unit, pieces, margin),
                difference_z: e.difference_z(),
                equivalence_level,
                equivalence_boundary: d.boundary(equivalence_level, k, e.pairs),
                difference_level,
                difference_boundary: d.boundary(difference_level / 2.0, k, e.pairs),
                plan,
                equivalence_chance,
            });
            if let Some(claim) = claim {
                records[m].status = Status::Decided { look: k, claim };
            }
        }
    }

    /// Which matchups play stage `stage` (0-based: the pairs up to look
    /// `stage`), after the look before it. Every undecided comparison below
    /// its cap plays, and the calibration plays with them while any is
    /// undecided: a pair still open at the cap needs the unit as precise as
    /// the fixed design's (stopping the calibration once its error was a
    /// quarter of a comparison's lost one equivalence verdict in six at
    /// the cap in simulations). With the design's calibration futility `γ`
    /// it stops sooner, once every undecided comparison's chance of an
    /// equivalence verdict is below `γ` even at the truth most favourable
    /// to one; it never resumes. When the budget cannot pay for all, the calibration is paid
    /// first (every equivalence verdict needs it), then the comparisons
    /// closest to a decision (fewest planned pairs; ties in experiment
    /// order), each for the whole stage; the others stop, undecided.
    fn fund(&self, records: &mut [MatchupRecord], stage: usize, games: u64) -> Vec<usize> {
        let looks = self.design.looks();
        let from = if stage == 0 { 0 } else { looks[stage - 1] };
        let cost = 2 * (looks[stage] - from);
        let last_look = stage.saturating_sub(1);
        let mut compared: Vec<usize> = (0..self.roles.len())
            .filter(|&m| {
                matches!(self.roles[m], Role::Compared { .. })
                    && records[m].status == Status::Playing
            })
            .collect();
        let calibration = self
            .calibration()
            .map(|(c, ..)| c)
            .filter(|&c| records[c].status == Status::Playing);
        let mut calibrate = calibration.is_some();
        // The calibration serves equivalence verdicts only.
        let needs_unit = |m: &usize| match self.design.calibration_futility() {
            None => true,
            Some(gamma) => records[*m]
                .last
                .and_then(|l| l.equivalence_chance)
                .is_none_or(|chance| chance >= gamma),
        };
        if let Some(c) = calibration
            && !compared.iter().any(needs_unit)
        {
            records[c].status = Status::CalibrationDone { look: last_look };
            calibrate = false;
        }
        // Games the budget still allows (`None`: no budget).
        let mut left = self.budget_games.map(|b| b.saturating_sub(games));
        let mut pay = || match left.as_mut() {
            None => true,
            Some(l) if *l >= cost => {
                *l -= cost;
                true
            }
            Some(_) => false,
        };
        let calibration_paid = calibrate && pay();
        // Closest to a decision first.
        compared.sort_by_key(|&m| {
            let need = match records[m].last.and_then(|l| l.plan) {
                Some(Plan::MorePairs(p)) => p,
                Some(Plan::MoreCalibration) => u64::MAX,
                Some(Plan::BoundaryAhead(_)) | None => 0,
            };
            (need, m)
        });
        let mut funded = Vec::new();
        for m in compared {
            if pay() {
                funded.push(m);
            } else {
                records[m].status = Status::Budget { look: last_look };
            }
        }
        if let Some(c) = calibration
            && calibrate
        {
            if calibration_paid && !funded.is_empty() {
                funded.push(c);
            } else {
                records[c].status = Status::Budget { look: last_look };
            }
        }
        funded.sort_unstable();
        funded
    }
}

/// What a fixed-sample test at `level` would need, if the truth were the
/// current estimate (see [`EquivalenceTest`]'s plans).
fn plan(unit: &PawnUnit, margin: f64, level: f64, e: &LookEstimate, pieces: u32) -> Plan {
    let estimate = DifferenceEstimate {
        elo: e.elo,
        std_error: e.elo_std_error,
        score: e.score,
        score_std_error: e.score_std_error,
        pairs: e.pairs,
        pieces,
    };
    match EquivalenceTest::new(margin, *unit, level.min(0.499))
        .and_then(|t| t.evaluate(&estimate))
        .map(|o| o.verdict)
    {
        Ok(Verdict::Inconclusive { plan }) => plan,
        Ok(Verdict::Equivalent | Verdict::EquivalentAndDifferent { .. }) => {
            Plan::BoundaryAhead(Leaning::Equivalent)
        }
        Ok(Verdict::Different { .. }) => Plan::BoundaryAhead(Leaning::Different),
        // A one-sided score: its difference is plain, the next look shows it.
        Err(_) => Plan::BoundaryAhead(Leaning::Different),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequential::Spending;

    fn design() -> Design {
        Design::new(0.25, 0.05, Spending::HaybittlePeto, 10, 50).unwrap()
    }

    /// Two comparisons in one class and a calibration: matchup 0 wins every
    /// pair (decided at the first look), matchup 1 is level, the
    /// calibration is a pawn's worth. Pairs exist up to `logged`.
    fn scores(logged: usize) -> Vec<Vec<Option<u8>>> {
        let level = [2u8, 1, 3, 2, 2, 0, 4, 2, 1, 3];
        let pawn = [3u8, 2, 4, 3, 2, 3, 1, 4, 3, 2];
        vec![
            vec![Some(4); logged],
            (0..logged).map(|p| Some(level[p % 10])).collect(),
            (0..logged).map(|p| Some(pawn[p % 10])).collect(),
        ]
    }

    /// `compared` comparisons of `pieces` pieces in one class, then the
    /// calibration (a pawn, to A).
    fn class_and_calibration(compared: usize, pieces: u32) -> Vec<Role> {
        let mut roles = vec![Role::Compared { family: 0, pieces }; compared];
        roles.push(Role::Calibration {
            pawns: 1.0,
            a_has_more: true,
        });
        roles
    }

    fn roles() -> Vec<Role> {
        class_and_calibration(2, 2)
    }

    #[test]
    fn a_difference_a_fixed_test_would_call_waits_for_the_boundary_not_for_pairs() {
        let unit = PawnUnit::Exact {
            elo_per_pawn: 100.0,
        };
        // An estimate of `elo` at a standard error of `se`, its score
        // figures the ones the delta method pairs with it.
        let at = |elo: f64, se: f64| {
            let score = crate::elo_to_score(elo);
            let slope = crate::elo::elo_per_score_at(score).unwrap();
            LookEstimate {
                pairs: 50,
                score,
                score_std_error: se / slope,
                elo,
                elo_std_error: se,
            }
        };
        let estimate = |elo: f64| at(elo, 20.0);
        // 100 Elo at a standard error of 20: plain at a fixed sample.
        assert_eq!(
            plan(&unit, 0.25, 0.05, &estimate(100.0), 1),
            Plan::BoundaryAhead(Leaning::Different)
        );
        // 2 Elo at a standard error of 5, a quarter pawn being 25 Elo:
        // a fixed test would already call it equivalent.
        let close = at(2.0, 5.0);
        assert_eq!(
            plan(&unit, 0.25, 0.05, &close, 1),
            Plan::BoundaryAhead(Leaning::Equivalent)
        );
        // 20 Elo: neither claim yet; more pairs would settle it.
        assert!(matches!(
            plan(&unit, 0.25, 0.05, &estimate(20.0), 1),
            Plan::MorePairs(n) if n > 1
        ));
    }

    #[test]
    fn a_decided_matchup_receives_no_more_pairs() {
        let d = design();
        let study = Study::new(&d, roles(), None);
        let h = study.replay(&scores(10));
        assert_eq!(h.looks_done, 1);
        assert!(
            matches!(
                h.matchups[0].status,
                Status::Decided {
                    look: 0,
                    claim: Claim::Different {
                        stronger: Side::First
                    }
                }
            ),
            "{:?}",
            h.matchups[0]
        );
        let next = h.next.clone().unwrap();
        assert_eq!((next.number, next.from, next.to), (2, 10, 20));
        assert_eq!(next.matchups, [1, 2]);
        assert_eq!(h.scheduled_pairs(0), 10);
        assert_eq!(h.scheduled_pairs(1), 20);
        // However many pairs it has in the log, it is never looked at again.
        let later = study.replay(&scores(50));
        assert_eq!(later.matchups[0].pairs, 10);
        assert_eq!(later.matchups[0].status, h.matchups[0].status);
        // Stage 1 for all three, then 40 more pairs for the other two.
        assert_eq!(later.games, 2 * 3 * 10 + 2 * 2 * 40);
    }

    #[test]
    fn an_incomplete_stage_is_the_next_to_play_and_resumes_exactly() {
        let d = design();
        let study = Study::new(&d, roles(), None);
        let full = study.replay(&scores(20));
        // Stage 2 half played (a run killed in its middle): the same stage,
        // the same matchups, nothing decided differently.
        let mut partial = scores(20);
        for m in [1, 2] {
            for p in [12, 15, 19] {
                partial[m][p] = None;
            }
        }
        let h = study.replay(&partial);
        assert_eq!(h.looks_done, 1);
        assert_eq!(h.next.as_ref().unwrap().number, 2);
        assert_eq!(h.matchups[0].status, full.matchups[0].status);
        // Completed, the history is the uninterrupted one's.
        let mut completed = partial.clone();
        completed[1] = scores(20)[1].clone();
        completed[2] = scores(20)[2].clone();
        assert_eq!(study.replay(&completed), full);
    }

    #[test]
    fn the_budget_pays_the_calibration_then_the_closest_comparisons() {
        let d = design();
        let roles = class_and_calibration(3, 1);
        let level = [2u8, 1, 3, 2, 2, 0, 4, 2, 1, 3];
        let leaning = [3u8, 2, 4, 2, 3, 1, 3, 2, 4, 2];
        let pawn = [3u8, 2, 4, 3, 2, 3, 1, 4, 3, 2];
        let s: Vec<Vec<Option<u8>>> = [level, leaning, level, pawn]
            .iter()
            .map(|r| (0..50).map(|p| Some(r[p % 10])).collect())
            .collect();
        // Stage 1 (4 matchups x 10 pairs = 80 games) and two more
        // matchups' worth of stage 2 (40 games): the calibration and one.
        let study = Study::new(&d, roles, Some(120));
        let h = study.replay(&s);
        assert_eq!(h.games, 120);
        let played: Vec<u64> = h.matchups.iter().map(|r| r.pairs).collect();
        assert_eq!(played[3], 20, "the calibration is paid first: {h:?}");
        assert_eq!(played.iter().filter(|&&p| p == 20).count(), 2, "{h:?}");
        let chosen = (0..3).find(|&m| played[m] == 20).unwrap();
        // The one closest to a decision: fewest planned pairs at look 1.
        let need = |m: usize| match h.matchups[m].last.unwrap().plan {
            Some(Plan::MorePairs(p)) => p,
            _ => u64::MAX,
        };
        for m in 0..3 {
            if m != chosen {
                assert!(matches!(h.matchups[m].status, Status::Budget { look: 0 }));
                assert!(need(chosen) <= need(m));
            }
        }
        assert!(h.finished());
    }

    #[test]
    fn with_futility_the_calibration_stops_once_no_equivalence_is_within_reach() {
        // One comparison of one piece, leaning well beyond a quarter pawn
        // (about 70 Elo) but short of the interim boundaries: undecided
        // until the cap, where it is shown different.
        let leaning = [3u8, 2, 3, 2, 2, 1, 3, 2, 4, 2];
        let pawn = [3u8, 2, 4, 3, 2, 3, 1, 4, 3, 2];
        let s: Vec<Vec<Option<u8>>> = [leaning, pawn]
            .iter()
            .map(|r| (0..50).map(|p| Some(r[p % 10])).collect())
            .collect();
        let plain = design();
        let h = Study::new(&plain, class_and_calibration(1, 1), None).replay(&s);
        assert!(h.finished());
        assert!(matches!(
            h.matchups[0].status,
            Status::Decided {
                look: 4,
                claim: Claim::Different { .. }
            }
        ));
        assert_eq!(h.matchups[1].pairs, 50, "{h:?}");
        let eager = design().with_calibration_futility(Some(0.05)).unwrap();
        let f = Study::new(&eager, class_and_calibration(1, 1), None).replay(&s);
        // The same verdict at the same look, on fewer calibration pairs.
        assert_eq!(f.matchups[0].status, h.matchups[0].status);
        let Status::CalibrationDone { look } = f.matchups[1].status else {
            panic!("{f:?}");
        };
        assert!(look < 4, "{f:?}");
        assert_eq!(f.matchups[1].pairs, eager.looks()[look]);
        assert_eq!(f.games, h.games - 2 * (50 - f.matchups[1].pairs));
        // Its chance at the look that stopped it was below γ.
        let chance = Study::new(&eager, class_and_calibration(1, 1), None)
            .replay(&truncated(&s, eager.looks()[look]))
            .matchups[0]
            .last
            .and_then(|l| l.equivalence_chance)
            .unwrap();
        assert!(chance < 0.05, "{chance}");
    }

    fn truncated(s: &[Vec<Option<u8>>], pairs: u64) -> Vec<Vec<Option<u8>>> {
        s.iter()
            .map(|v| v.iter().take(pairs as usize).copied().collect())
            .collect()
    }

    #[test]
    fn without_comparisons_left_the_calibration_stops() {
        let d = design();
        let mut s = scores(50);
        s[1] = vec![Some(0); 50];
        let h = Study::new(&d, roles(), None).replay(&s);
        assert!(h.finished());
        assert_eq!(h.looks_done, 1);
        assert_eq!(h.matchups[2].status, Status::CalibrationDone { look: 0 });
        assert_eq!(h.games, 60);
    }
}
