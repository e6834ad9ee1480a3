//! Statistics per matchup: the score model over pairs (or games), Elo, and
//! pawns for the armies and per piece exchanged, with the pawn unit's
//! uncertainty carried.

use std::collections::BTreeMap;

use pocketlab_selfplay::Experiment;
use pocketlab_selfplay::experiment::{Army, pieces_exchanged, same_setup};

use super::model::{Compared, EngineVerdict, EngineVerdictKind, MatchupStats, ScoreModel};
use super::read::MatchupCounts;
use super::wording;
use crate::stats::{ConfidenceLevel, PawnUnit, Pentanomial, ScoreSummary, Trinomial};

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
/// pieces exchanged are known (Fieller intervals at `level`).
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
        let interval = unit.interval(elo, std_error, level);
        let n = pieces.map_or(f64::NAN, f64::from);
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
        let (score, score_interval, elo, elo_interval, elo_std_error, los) = match &summary {
            Some(s) => (
                s.score,
                (s.score_interval.lower, s.score_interval.upper),
                s.elo,
                (s.elo_interval.lower, s.elo_interval.upper),
                s.elo_std_error,
                s.los,
            ),
            None => (f64::NAN, nan2, f64::NAN, nan2, f64::NAN, f64::NAN),
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
