//! Statistics per matchup: the score model over pairs (or games), Elo, and
//! pawns for the armies and per piece exchanged, with the pawn unit's
//! uncertainty carried.

use std::collections::BTreeMap;

use pocketlab_selfplay::Experiment;
use pocketlab_selfplay::experiment::{Army, pieces_exchanged, same_setup};

use super::model::{
    Compared, EngineVerdict, EngineVerdictKind, MatchupStats, PublishedAgreement, PublishedCheck,
    ScoreModel,
};
use super::read::MatchupCounts;
use super::wording;
use pocketlab_stats::{ConfidenceLevel, PawnUnit, Pentanomial, ScoreSummary, Trinomial};

/// The score summary of a matchup: pentanomial over complete pairs when
/// every game has its colour-swapped twin, else trinomial over games.
pub(super) fn summarize(
    c: &MatchupCounts,
    level: ConfidenceLevel,
) -> (Option<ScoreSummary>, ScoreModel) {
    let pairs: u64 = c.pentanomial.iter().sum();
    let paired = (!c.unpaired && pairs >= 2)
        .then(|| Pentanomial::new(c.pentanomial).summary(level).ok())
        .flatten();
    if let Some(s) = paired {
        return (Some(s), ScoreModel::Pentanomial);
    }
    (
        Trinomial::new(c.a_wins, c.draws, c.b_wins)
            .summary(level)
            .ok(),
        ScoreModel::Trinomial,
    )
}

/// Pawn figures of an Elo estimate: for the armies, and per piece when the
/// pieces exchanged are known (Fieller intervals at `level`). NaN where the
/// unit does not resolve sizes in pawns at that level
/// ([`PawnUnit::resolves`]): a bound in the hundreds of pawns says nothing.
pub(super) struct PawnFigures {
    pub pawns: f64,
    pub pawns_interval: (f64, f64),
    pub per_piece: f64,
    pub per_piece_interval: (f64, f64),
}

impl PawnFigures {
    pub fn new(
        unit: &PawnUnit,
        elo: f64,
        std_error: f64,
        pieces: Option<u32>,
        level: ConfidenceLevel,
    ) -> PawnFigures {
        let n = pieces.map_or(f64::NAN, f64::from);
        if !unit.resolves(level.z()) {
            let nan = (f64::NAN, f64::NAN);
            return PawnFigures {
                pawns: f64::NAN,
                pawns_interval: nan,
                per_piece: f64::NAN,
                per_piece_interval: nan,
            };
        }
        let interval = unit.interval(elo, std_error, level);
        PawnFigures {
            pawns: unit.to_pawns(elo),
            pawns_interval: (interval.lower, interval.upper),
            per_piece: unit.to_pawns(elo) / n,
            per_piece_interval: (interval.lower / n, interval.upper / n),
        }
    }
}

/// Every logged matchup of the experiment, in its order.
pub(super) fn matchup_stats(
    exp: &Experiment,
    counts: &BTreeMap<u64, MatchupCounts>,
    unit: &PawnUnit,
    level: ConfidenceLevel,
) -> Vec<MatchupStats> {
    let mut out = Vec::new();
    for (index, m) in exp.matchups.iter().enumerate() {
        let Some(c) = counts.get(&(index as u64)) else {
            continue;
        };
        let (a, b) = (&exp.armies[m.a], &exp.armies[m.b]);
        let (summary, model) = summarize(c, level);
        let nan2 = (f64::NAN, f64::NAN);
        let (score, score_interval, score_std_error, elo, elo_interval, elo_std_error, los) =
            match &summary {
                Some(s) => (
                    s.score,
                    (s.score_interval.lower, s.score_interval.upper),
                    s.score_std_error,
                    s.elo,
                    (s.elo_interval.lower, s.elo_interval.upper),
                    s.elo_std_error,
                    s.los,
                ),
                None => (f64::NAN, nan2, f64::NAN, f64::NAN, nan2, f64::NAN, f64::NAN),
            };
        let pieces = pieces_exchanged(&exp.variant, a, b);
        let pawns = PawnFigures::new(unit, elo, elo_std_error, pieces, level);
        let games = c.games();
        out.push(MatchupStats {
            name: m.name.clone(),
            a: a.name.clone(),
            b: b.name.clone(),
            compared: compared(exp, a, b),
            games,
            a_wins: c.a_wins,
            draws: c.draws,
            b_wins: c.b_wins,
            pairs: c.pentanomial.iter().sum(),
            pentanomial: c.pentanomial,
            model,
            score,
            score_interval,
            score_std_error,
            elo,
            elo_interval,
            elo_std_error,
            pieces,
            pawns: pawns.pawns,
            pawns_interval: pawns.pawns_interval,
            pawns_per_piece: pawns.per_piece,
            pawns_per_piece_interval: pawns.per_piece_interval,
            los,
            white_score: if games > 0 {
                c.white_points / games as f64
            } else {
                f64::NAN
            },
            stopped_early: c.sprt.as_ref().is_some_and(|s| s.decided()),
            sprt: c.sprt.clone(),
        });
    }
    out
}

/// The experiment's published figures beside the lab's measurement of the
/// same matchups (`stats` from [`matchup_stats`]), in file order.
pub(super) fn published_checks(exp: &Experiment, stats: &[MatchupStats]) -> Vec<PublishedCheck> {
    exp.published
        .iter()
        .map(|p| {
            let m = &exp.matchups[p.matchup];
            let played = stats.iter().find(|s| s.name == m.name);
            let (lab_pawns, lab_interval) = played
                .filter(|s| s.compared != Compared::Engines)
                .map_or((f64::NAN, (f64::NAN, f64::NAN)), |s| {
                    (s.pawns, s.pawns_interval)
                });
            let games = played.map_or(0, |s| s.games);
            PublishedCheck {
                matchup: m.name.clone(),
                a: exp.armies[m.a].name.clone(),
                b: exp.armies[m.b].name.clone(),
                source: p.source.clone(),
                published_pawns: p.pawns,
                lab_pawns,
                lab_interval,
                games,
                agreement: agreement(p.pawns, lab_pawns, lab_interval),
            }
        })
        .collect()
}

/// Where a published figure stands against the lab's estimate and its
/// interval. An unbounded end (Fieller, the pawn unit too uncertain) is
/// ±infinity: a figure beyond the other, finite end is still outside, one
/// inside tests nothing; only NaN means unmeasured.
pub(crate) fn agreement(published: f64, lab: f64, (lo, hi): (f64, f64)) -> PublishedAgreement {
    if lab.is_nan() || lo.is_nan() || hi.is_nan() {
        PublishedAgreement::NotMeasured
    } else if published < lo {
        PublishedAgreement::LabHigher
    } else if published > hi {
        PublishedAgreement::LabLower
    } else if lo.is_infinite() || hi.is_infinite() {
        PublishedAgreement::Unbounded
    } else {
        PublishedAgreement::Within
    }
}

/// What two armies differ in: their setup (pieces), their engine, both or
/// neither.
pub(super) fn compared(exp: &Experiment, a: &Army, b: &Army) -> Compared {
    match (same_setup(&exp.variant, a, b), a.engine == b.engine) {
        (true, true) => Compared::Nothing,
        (true, false) => Compared::Engines,
        (false, true) => Compared::Pieces,
        (false, false) => Compared::PiecesAndEngines,
    }
}

/// The verdict of every matchup that compares engines: its Elo interval
/// and the SPRT's decision.
pub(super) fn engine_verdicts(exp: &Experiment, matchups: &[MatchupStats]) -> Vec<EngineVerdict> {
    let army = |name: &str| exp.armies.iter().find(|x| x.name == name);
    matchups
        .iter()
        .filter(|m| m.compared == Compared::Engines)
        .map(|m| {
            let engine = |name: &str| army(name).map_or(String::new(), |a| a.engine.describe());
            let kind = if m.elo_interval.0 > 0.0 {
                EngineVerdictKind::Stronger
            } else if m.elo_interval.1 < 0.0 {
                EngineVerdictKind::Weaker
            } else {
                EngineVerdictKind::Undecided
            };
            let sprt = exp.stop.sprt();
            let mut v = EngineVerdict {
                matchup: m.name.clone(),
                a: m.a.clone(),
                b: m.b.clone(),
                a_engine: engine(&m.a),
                b_engine: engine(&m.b),
                elo: m.elo,
                elo_interval: m.elo_interval,
                los: m.los,
                games: m.games,
                pairs: m.pairs,
                kind,
                sprt: m.sprt.clone(),
                sprt_elo: sprt.map(|s| (s.elo0(), s.elo1())),
                sprt_bounds: sprt.map(|s| (s.lower_bound(), s.upper_bound())),
                text: String::new(),
                stopped_early: m.stopped_early,
            };
            v.text = wording::engine_text(&v);
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_published_figure_is_placed_against_the_interval() {
        use PublishedAgreement::*;
        let iv = (0.2, 0.8);
        assert_eq!(agreement(0.5, 0.5, iv), Within);
        assert_eq!(agreement(0.2, 0.5, iv), Within);
        assert_eq!(agreement(0.1, 0.5, iv), LabHigher);
        assert_eq!(agreement(1.0, 0.5, iv), LabLower);
        assert_eq!(agreement(9.0, 0.5, (0.2, f64::INFINITY)), Unbounded);
        assert_eq!(
            agreement(0.5, 0.5, (f64::NEG_INFINITY, f64::INFINITY)),
            Unbounded
        );
        assert_eq!(agreement(-9.0, 0.5, (0.2, f64::INFINITY)), LabHigher);
        assert_eq!(agreement(0.5, f64::NAN, iv), NotMeasured);
        assert_eq!(agreement(0.5, 0.5, (f64::NAN, 0.8)), NotMeasured);
    }
}
