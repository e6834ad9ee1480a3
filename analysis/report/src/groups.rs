//! Statistics per group: armies connected by matchups are rated together
//! (Bradley-Terry with draws and White's advantage), and every pair that
//! met directly gets an equivalence verdict per piece exchanged, Holm-
//! corrected within its group. The numbers only; [`super::wording`] says
//! them in words.

use std::collections::{BTreeMap, BTreeSet};

use pocketlab_selfplay::Experiment;

use super::adaptive::SequentialVerdict;
use super::advice;
use super::calibration::is_pawn_odds;
use super::components::components;
use super::matchups::PawnFigures;
use super::model::{Compared, MatchupStats, PairVerdict, PlayerRating, RatingGroup, VerdictKind};
use super::read::ColourRecord;
use super::wording;
use pocketlab_stats::bradley_terry::{self, FitOptions, PairRecord};
use pocketlab_stats::{
    ConfidenceLevel, DifferenceEstimate, EquivalenceTest, Plan, Verdict, VerdictNumbers,
};

/// Connected groups of armies (pawn-odds calibration matchups and engine
/// comparisons excluded), each rated together, ordered by class.
pub(super) fn rating_groups(
    exp: &Experiment,
    matchups: &[MatchupStats],
    colour_records: &[ColourRecord],
    test: &EquivalenceTest,
    level: ConfidenceLevel,
    sequential: Option<&BTreeMap<String, SequentialVerdict>>,
) -> Vec<RatingGroup> {
    let army = |name: &str| exp.armies.iter().find(|x| x.name == name);
    let calibrates = |m: &MatchupStats| matches!((army(&m.a), army(&m.b)), (Some(a), Some(b)) if is_pawn_odds(a, b));
    let rated: Vec<&MatchupStats> = matchups
        .iter()
        .filter(|m| !calibrates(m) && m.games > 0 && m.compared != Compared::Engines)
        .collect();
    let component = components(rated.iter().map(|m| (m.a.as_str(), m.b.as_str())));
    let ids: BTreeSet<usize> = component.values().copied().collect();
    let mut groups: Vec<RatingGroup> = ids
        .into_iter()
        .map(|id| {
            // Players in the experiment's army order.
            let players: Vec<String> = exp
                .armies
                .iter()
                .map(|a| a.name.clone())
                .filter(|n| component.get(n) == Some(&id))
                .collect();
            rate_group(
                exp,
                &players,
                &rated,
                colour_records,
                test,
                level,
                sequential,
            )
        })
        .collect();
    groups.sort_by_key(|g| (g.class.unwrap_or(u8::MAX), g.title.clone()));
    groups
}

fn rate_group(
    exp: &Experiment,
    players: &[String],
    rated: &[&MatchupStats],
    colour_records: &[ColourRecord],
    test: &EquivalenceTest,
    level: ConfidenceLevel,
    sequential: Option<&BTreeMap<String, SequentialVerdict>>,
) -> RatingGroup {
    let v = &exp.variant;
    let index = |n: &str| players.iter().position(|p| p == n);
    // A class group: every player is a piece letter of one class.
    let classes: BTreeSet<Option<u8>> = players
        .iter()
        .map(|p| wording::piece_of(exp, p).and_then(|t| v.piece(t).class))
        .collect();
    let class = match classes.iter().collect::<Vec<_>>().as_slice() {
        [Some(c)] => Some(*c),
        _ => None,
    };
    let direct: Vec<&MatchupStats> = rated
        .iter()
        .copied()
        .filter(|m| index(&m.a).is_some() && index(&m.b).is_some())
        .collect();
    // The pieces every direct matchup exchanges, when they agree.
    let exchanged: BTreeSet<Option<u32>> = direct.iter().map(|m| m.pieces).collect();
    let pieces = match exchanged.iter().collect::<Vec<_>>().as_slice() {
        [Some(n)] => Some(*n),
        _ => None,
    };
    let (players_rated, white_advantage_elo, draw_parameter) =
        ratings(exp, players, colour_records, test, pieces, level);
    let pairs = pair_verdicts(exp, &direct, test, sequential);

    let n = players.len();
    let mut matrix = vec![vec![None; n]; n];
    let mut matrix_games = vec![vec![0; n]; n];
    for m in &direct {
        if let (Some(i), Some(j)) = (index(&m.a), index(&m.b)) {
            matrix[i][j] = Some(m.score);
            matrix[j][i] = Some(1.0 - m.score);
            matrix_games[i][j] = m.games;
            matrix_games[j][i] = m.games;
        }
    }
    let title = wording::group_title(exp, players, class);
    let summary = wording::group_summary(&title, &pairs, class.is_some());
    let short = class.map_or_else(|| title.clone(), |c| format!("Class {c}"));
    let advice = advice::group_advice(
        &short,
        players,
        &pairs,
        &|p| wording::player_name(exp, p),
        class.is_some(),
    );
    RatingGroup {
        title,
        class,
        pieces,
        players: players_rated,
        white_advantage_elo,
        draw_parameter,
        pairs,
        summary,
        advice,
        matrix,
        matrix_games,
    }
}

/// Bradley-Terry ratings of the players on the logistic Elo scale, in
/// pawns (for the armies and per piece), with White's advantage and the
/// draw parameter.
fn ratings(
    exp: &Experiment,
    players: &[String],
    colour_records: &[ColourRecord],
    test: &EquivalenceTest,
    pieces: Option<u32>,
    level: ConfidenceLevel,
) -> (Vec<PlayerRating>, f64, f64) {
    let index = |n: &str| players.iter().position(|p| p == n);
    let records: Vec<PairRecord> = colour_records
        .iter()
        .filter_map(|r| {
            Some(PairRecord {
                white: index(&r.white)?,
                black: index(&r.black)?,
                white_wins: r.white_wins,
                draws: r.draws,
                black_wins: r.black_wins,
            })
        })
        .collect();
    let games_of = |i: usize| {
        records
            .iter()
            .filter(|r| r.white == i || r.black == i)
            .map(PairRecord::games)
            .sum::<u64>()
    };
    let options = FitOptions {
        level,
        ..FitOptions::default()
    };
    let Ok(fit) = bradley_terry::fit(players.len(), &records, &options) else {
        return (Vec::new(), f64::NAN, f64::NAN);
    };
    // The fit's scale to logistic Elo (the scale of the pair verdicts and the
    // pawn unit): a player's logistic rating is its mean head-to-head Elo
    // against the group.
    let n = players.len();
    let logistic: Vec<f64> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i)
                .filter_map(|j| fit.score_elo(i, j))
                .sum::<f64>()
                / n as f64
        })
        .collect();
    let spread_fit: f64 = fit.ratings.iter().map(|r| r.abs()).sum();
    let spread_logistic: f64 = logistic.iter().map(|r| r.abs()).sum();
    let scale = if spread_fit > 1e-9 {
        spread_logistic / spread_fit
    } else {
        1.0
    };
    let rated = (0..n)
        .map(|i| {
            let se = fit.std_errors[i] * scale;
            let half = level.z() * se;
            let pawns = PawnFigures::new(&test.unit(), logistic[i], se, pieces, level);
            PlayerRating {
                name: players[i].clone(),
                label: wording::player_label(exp, &players[i]),
                elo: logistic[i],
                elo_interval: (logistic[i] - half, logistic[i] + half),
                pawns: pawns.pawns,
                pawns_interval: pawns.pawns_interval,
                pawns_per_piece: pawns.per_piece,
                pawns_per_piece_interval: pawns.per_piece_interval,
                games: games_of(i),
            }
        })
        .collect();
    (rated, fit.white_advantage, fit.draw_nu)
}

/// A verdict for every direct matchup of a group, Holm-corrected together;
/// under the sequential design, the design's verdicts (made at its looks,
/// Holm-corrected across them) with repeated confidence intervals.
fn pair_verdicts(
    exp: &Experiment,
    direct: &[&MatchupStats],
    test: &EquivalenceTest,
    sequential: Option<&BTreeMap<String, SequentialVerdict>>,
) -> Vec<PairVerdict> {
    let estimates: Vec<DifferenceEstimate> = direct
        .iter()
        .map(|m| DifferenceEstimate {
            elo: m.elo,
            std_error: m.elo_std_error,
            score: m.score,
            score_std_error: m.score_std_error,
            // Pairs, or games as half pairs for unpaired (trinomial) data.
            pairs: m.pairs.max(m.games / 2),
            // Armies that differ in more than exchanged pieces are compared whole.
            pieces: m.pieces.unwrap_or(1),
        })
        .collect();
    // One unusable estimate (an infinite Elo from a one-sided score) must
    // not void the family.
    let usable: Vec<usize> = (0..estimates.len())
        .filter(|&i| estimates[i].std_error > 0.0 && test.evaluate(&estimates[i]).is_ok())
        .collect();
    let outcomes = test
        .evaluate_family(&usable.iter().map(|&i| estimates[i]).collect::<Vec<_>>())
        .unwrap_or_default();
    direct
        .iter()
        .enumerate()
        .map(|(k, m)| {
            let outcome = usable
                .iter()
                .position(|&i| i == k)
                .and_then(|j| outcomes.get(j));
            let (kind, plan) = match outcome.map(|o| o.verdict) {
                Some(Verdict::Equivalent) => (VerdictKind::Equivalent, None),
                Some(Verdict::Different { .. }) => (VerdictKind::Different, None),
                Some(Verdict::EquivalentAndDifferent { .. }) => {
                    (VerdictKind::EquivalentStronger, None)
                }
                Some(Verdict::Inconclusive { plan }) => (VerdictKind::Inconclusive, Some(plan)),
                None => (VerdictKind::Inconclusive, None),
            };
            let nan2 = (f64::NAN, f64::NAN);
            let mut verdict = PairVerdict {
                a: m.a.clone(),
                b: m.b.clone(),
                elo: m.elo,
                elo_interval: nan2,
                elo_level: f64::NAN,
                elo_std_error: m.elo_std_error,
                pieces: m.pieces,
                pawns: f64::NAN,
                pawns_interval: nan2,
                pawns_per_piece: f64::NAN,
                pawns_per_piece_interval: nan2,
                pawns_level: f64::NAN,
                unit_elo_per_pawn: test.unit().elo_per_pawn(),
                unit_std_error: test.unit().std_error(),
                elo_for_comparison: m.elo,
                elo_for_comparison_std_error: m.elo_std_error,
                games: m.games,
                pairs: m.pairs,
                kind,
                text: String::new(),
                tost_p: outcome.map_or(f64::NAN, |o| o.tost_p_value),
                difference_p: outcome.map_or(f64::NAN, |o| o.difference_p_value),
                more_pairs_needed: match plan {
                    Some(Plan::MorePairs(n)) => Some(n),
                    _ => None,
                },
                more_calibration_needed: plan == Some(Plan::MoreCalibration),
                stopped_early: m.stopped_early,
                sequential: None,
                look: None,
            };
            if let Some(o) = outcome {
                show_numbers(&mut verdict, &o.numbers);
            }
            if let Some(sequential) = sequential {
                apply_sequential(&mut verdict, sequential.get(&m.name));
            }
            verdict.text =
                wording::pair_text(exp, &verdict, test.margin_pawns(), outcome.is_some());
            verdict
        })
        .collect()
}

/// The figures beside `verdict` (its kind set): the Elo difference
/// interval, and in pawns the equivalence interval for a verdict of
/// equivalence, else the difference interval where the unit resolves it.
pub(super) fn show_numbers(verdict: &mut PairVerdict, numbers: &VerdictNumbers) {
    let n = verdict.pieces.map_or(1.0, f64::from);
    verdict.elo = numbers.elo;
    verdict.elo_interval = (numbers.elo_interval.lower, numbers.elo_interval.upper);
    verdict.elo_level = numbers.difference_level;
    let pawns = if verdict.kind.is_equivalent() {
        Some((numbers.equivalence_interval, numbers.equivalence_level))
    } else {
        numbers
            .difference_pawns_interval
            .map(|i| (i, numbers.difference_level))
    };
    match pawns {
        Some((interval, level)) => {
            verdict.pawns_per_piece = numbers.pawns_per_piece;
            verdict.pawns_per_piece_interval = (interval.lower, interval.upper);
            verdict.pawns = numbers.pawns_per_piece * n;
            verdict.pawns_interval = (interval.lower * n, interval.upper * n);
            verdict.pawns_level = level;
        }
        None => {
            let nan2 = (f64::NAN, f64::NAN);
            verdict.pawns_per_piece = f64::NAN;
            verdict.pawns_per_piece_interval = nan2;
            verdict.pawns = f64::NAN;
            verdict.pawns_interval = nan2;
            verdict.pawns_level = f64::NAN;
        }
    }
}

/// The design's verdict in place of the fixed-sample one (which would
/// ignore the looks taken). A matchup the design has not looked at yet is
/// undecided.
fn apply_sequential(verdict: &mut PairVerdict, sequential: Option<&SequentialVerdict>) {
    let Some(s) = sequential else {
        verdict.kind = VerdictKind::Inconclusive;
        verdict.more_pairs_needed = None;
        verdict.more_calibration_needed = false;
        verdict.sequential = Some("not looked at yet".into());
        return;
    };
    verdict.kind = s.kind;
    verdict.elo_std_error = s.elo_std_error;
    verdict.unit_elo_per_pawn = s.unit.elo_per_pawn();
    verdict.unit_std_error = s.unit.std_error();
    (
        verdict.elo_for_comparison,
        verdict.elo_for_comparison_std_error,
    ) = s
        .adjusted
        .map_or((f64::NAN, f64::NAN), |a| (a.elo, a.std_error));
    show_numbers(verdict, &s.numbers);
    verdict.more_pairs_needed = s.more_pairs_needed;
    verdict.more_calibration_needed = s.more_calibration_needed;
    verdict.sequential = Some(s.how.clone());
    verdict.look = Some(s.look);
}
