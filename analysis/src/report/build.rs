//! From log directories to a [`Report`]: polars scans the Parquet files
//! lazily (any number of directories and shards) and aggregates; the
//! statistics module turns counts into estimates and verdicts.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use pocketlab_core::kind::GameKind;
use pocketlab_core::{GamePosition, Position};
use pocketlab_selfplay::Experiment;
use pocketlab_selfplay::log::{self, Manifest};
use polars::prelude::*;
use thiserror::Error;

use super::model::*;
use crate::stats::bradley_terry::{self, FitOptions, PairRecord};
use crate::stats::elo::{PawnCalibration, calibrate_from_pawn_odds};
use crate::stats::equivalence::{DifferenceEstimate, EquivalenceTest, Margin, Side, Verdict};
use crate::stats::{ConfidenceLevel, Pentanomial, ScoreSummary, Trinomial};

/// Games sampled per matchup to measure the branching factor.
const BRANCHING_PAIRS: u64 = 20;

#[derive(Debug, Error)]
pub enum ReportError {
    #[error("{dir}: {reason}")]
    Log { dir: String, reason: String },
    #[error("{0}")]
    Experiment(#[from] pocketlab_selfplay::ExperimentError),
    #[error("reading the logs: {0}")]
    Polars(#[from] PolarsError),
    #[error("{file}: damaged or not a pocketlab log file: {reason}")]
    Damaged { file: String, reason: String },
    #[error(transparent)]
    LogFiles(#[from] log::LogError),
}

pub(super) fn log_error(dir: &Path, reason: impl Into<String>) -> ReportError {
    ReportError::Log {
        dir: dir.display().to_string(),
        reason: reason.into(),
    }
}

/// Settings of the analysis.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// The equivalence margin in pawns (a quarter of a pawn by default).
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

/// Read the experiment a log directory holds (its manifest and file copy,
/// checked against each other by the log).
pub fn experiment_of(dir: &Path) -> Result<(Experiment, Manifest), ReportError> {
    let log = log::open_log(dir).map_err(|e| log_error(dir, e.to_string()))?;
    Ok((log.experiment()?, log.manifest))
}

/// A lazy scan of one table of the logs, through the log's validated
/// listing (regular, non-empty, readable chunks of this experiment, each
/// game once; paths taken literally).
pub(super) fn scan(dirs: &[PathBuf], table: &str) -> Result<LazyFrame, ReportError> {
    let files = log::list_chunks(dirs)?;
    let table = if table == log::GAMES_DIR {
        if files.games.is_empty() {
            return Err(log_error(&dirs[0], "no games logged yet"));
        }
        log::Table::Games
    } else {
        log::Table::Moves
    };
    Ok(files.scan(table)?)
}

/// How many games have `column == value`, as `alias`.
fn count_where(column: &str, value: f64, alias: &str) -> Expr {
    col(column)
        .eq(lit(value))
        .cast(DataType::UInt64)
        .sum()
        .alias(alias)
}

/// A's score per game: army A has White in even game ids.
fn a_score() -> Expr {
    when((col("game_id") % lit(2u64)).eq(lit(0u64)))
        .then(col("white_score"))
        .otherwise(lit(1.0) - col("white_score"))
        .alias("a_score")
}

pub(super) fn u64s(df: &DataFrame, name: &str) -> Result<Vec<u64>, ReportError> {
    let c = df.column(name)?.cast(&DataType::UInt64)?;
    Ok(c.u64()?.iter().map(|v| v.unwrap_or(0)).collect())
}

pub(super) fn f64s(df: &DataFrame, name: &str) -> Result<Vec<f64>, ReportError> {
    let c = df.column(name)?.cast(&DataType::Float64)?;
    Ok(c.f64()?.iter().map(|v| v.unwrap_or(f64::NAN)).collect())
}

pub(super) fn strs(df: &DataFrame, name: &str) -> Result<Vec<String>, ReportError> {
    Ok(df
        .column(name)?
        .str()?
        .iter()
        .map(|v| v.unwrap_or_default().to_owned())
        .collect())
}

/// Per-matchup counts from the games table.
struct MatchupCounts {
    a_wins: u64,
    draws: u64,
    b_wins: u64,
    white_points: f64,
    pairs: [u64; 5],
    unpaired: bool,
    sprt: Option<SprtOutcome>,
}

/// Build the report for the logs in `dirs` (all of one experiment). A
/// damaged file is reported by name (the log's listing reads every footer
/// before polars does).
pub fn build_report(dirs: &[PathBuf], options: &ReportOptions) -> Result<Report, ReportError> {
    build_report_unchecked(dirs, options)
}

fn build_report_unchecked(
    dirs: &[PathBuf],
    options: &ReportOptions,
) -> Result<Report, ReportError> {
    let first = dirs
        .first()
        .ok_or_else(|| log_error(Path::new("."), "no log directory given"))?;
    let (exp, manifest) = experiment_of(first)?;
    for d in &dirs[1..] {
        let (_, other) = experiment_of(d)?;
        if other.experiment_hash != manifest.experiment_hash {
            return Err(log_error(
                d,
                format!("holds another experiment than {}", first.display()),
            ));
        }
    }
    let level = ConfidenceLevel::NINETY_FIVE;
    let games = scan(dirs, "games")?;

    // Matchup counts: wins, draws and losses from A's view; White's points.
    let per_matchup = games
        .clone()
        .select([col("matchup_index"), col("white_score"), a_score()])
        .group_by([col("matchup_index")])
        .agg([
            count_where("a_score", 1.0, "a_wins"),
            count_where("a_score", 0.5, "draws"),
            count_where("a_score", 0.0, "b_wins"),
            col("white_score").sum().alias("white_points"),
        ])
        .sort(["matchup_index"], SortMultipleOptions::default())
        .collect()?;
    let pair_points = games
        .clone()
        .select([col("matchup_index"), col("pair_index"), a_score()])
        .group_by([col("matchup_index"), col("pair_index")])
        .agg([col("a_score").sum().alias("points"), len().alias("n")])
        .collect()?;
    let sprt = games
        .clone()
        .select([
            col("matchup_index"),
            col("pair_index"),
            col("sprt_llr"),
            col("sprt_decision"),
        ])
        .filter(col("sprt_llr").is_not_null())
        .sort(
            ["matchup_index", "pair_index"],
            SortMultipleOptions::default(),
        )
        .group_by([col("matchup_index")])
        .agg([
            col("sprt_llr").last().alias("llr"),
            col("sprt_decision").drop_nulls().first().alias("decision"),
        ])
        .collect()?;

    let mut counts: BTreeMap<u64, MatchupCounts> = BTreeMap::new();
    let (idx, aw, dr, bw, wp) = (
        u64s(&per_matchup, "matchup_index")?,
        u64s(&per_matchup, "a_wins")?,
        u64s(&per_matchup, "draws")?,
        u64s(&per_matchup, "b_wins")?,
        f64s(&per_matchup, "white_points")?,
    );
    for i in 0..idx.len() {
        counts.insert(
            idx[i],
            MatchupCounts {
                a_wins: aw[i],
                draws: dr[i],
                b_wins: bw[i],
                white_points: wp[i],
                pairs: [0; 5],
                unpaired: false,
                sprt: None,
            },
        );
    }
    let (pm, pts, n) = (
        u64s(&pair_points, "matchup_index")?,
        f64s(&pair_points, "points")?,
        u64s(&pair_points, "n")?,
    );
    for i in 0..pm.len() {
        if let Some(c) = counts.get_mut(&pm[i]) {
            if n[i] == 2 {
                c.pairs[(pts[i] * 2.0).round().clamp(0.0, 4.0) as usize] += 1;
            } else {
                c.unpaired = true;
            }
        }
    }
    let (sm, llr) = (u64s(&sprt, "matchup_index")?, f64s(&sprt, "llr")?);
    let decisions: Vec<Option<String>> = sprt
        .column("decision")?
        .str()?
        .iter()
        .map(|v| v.map(str::to_owned))
        .collect();
    for i in 0..sm.len() {
        if let Some(c) = counts.get_mut(&sm[i]) {
            c.sprt = Some(SprtOutcome {
                llr: llr[i],
                decision: decisions[i].clone().unwrap_or_else(|| "continue".into()),
            });
        }
    }

    let calibration = calibrate(&exp, &counts, level);
    let pawn = PawnCalibration::from_elo_per_pawn(calibration.elo_per_pawn)
        .unwrap_or_else(|_| PawnCalibration::muller_default());
    let margin_elo = options.margin_pawns * pawn.elo_per_pawn();
    let to_pawns = |elo: f64| pawn.elo_to_pawns(elo);

    let mut matchups = Vec::new();
    for (m_index, m) in exp.matchups.iter().enumerate() {
        let Some(c) = counts.get(&(m_index as u64)) else {
            continue;
        };
        let (summary, model) = summarize(c, level);
        let games_n = c.a_wins + c.draws + c.b_wins;
        let (score, score_interval, elo, elo_interval, los) = match &summary {
            Some(s) => (
                s.score,
                (s.score_interval.lower, s.score_interval.upper),
                s.elo,
                (s.elo_interval.lower, s.elo_interval.upper),
                s.los,
            ),
            None => (
                f64::NAN,
                (f64::NAN, f64::NAN),
                f64::NAN,
                (f64::NAN, f64::NAN),
                f64::NAN,
            ),
        };
        matchups.push(MatchupStats {
            name: m.name.clone(),
            a: exp.armies[m.a].name.clone(),
            b: exp.armies[m.b].name.clone(),
            games: games_n,
            a_wins: c.a_wins,
            draws: c.draws,
            b_wins: c.b_wins,
            pairs: c.pairs.iter().sum(),
            pentanomial: c.pairs,
            model: model.to_owned(),
            score,
            score_interval,
            elo,
            elo_interval,
            pawns: to_pawns(elo),
            pawns_interval: (to_pawns(elo_interval.0), to_pawns(elo_interval.1)),
            los,
            white_score: if games_n > 0 {
                c.white_points / games_n as f64
            } else {
                f64::NAN
            },
            sprt: c.sprt.clone(),
        });
    }

    let white_black = games
        .clone()
        .select([col("white"), col("black"), col("white_score")])
        .group_by([col("white"), col("black")])
        .agg([
            count_where("white_score", 1.0, "ww"),
            count_where("white_score", 0.5, "dd"),
            count_where("white_score", 0.0, "bw"),
        ])
        .collect()?;
    let colour_records: Vec<(String, String, u64, u64, u64)> = {
        let (w, b) = (strs(&white_black, "white")?, strs(&white_black, "black")?);
        let (ww, dd, bw) = (
            u64s(&white_black, "ww")?,
            u64s(&white_black, "dd")?,
            u64s(&white_black, "bw")?,
        );
        (0..w.len())
            .map(|i| (w[i].clone(), b[i].clone(), ww[i], dd[i], bw[i]))
            .collect()
    };

    let test = EquivalenceTest::new(Margin::Elo(margin_elo), options.alpha)
        .map_err(|e| log_error(first, format!("equivalence test: {e}")))?;
    let groups = rating_groups(&exp, &matchups, &colour_records, &test, &pawn, level);

    let balance = game_balance(&games, dirs, &exp)?;
    let pocket_use = pocket_use(&games, &exp)?;
    let colour_values = super::colours::colour_values(dirs, &exp)?;
    let engines = {
        let df = games
            .select([col("white_engine")])
            .unique(None, UniqueKeepStrategy::Any)
            .collect()?;
        let mut e = strs(&df, "white_engine")?;
        e.sort();
        e
    };

    let mut notes = Vec::new();
    if calibration.source == "assumed" {
        notes.push(calibration.note.clone());
    }
    if matchups.iter().any(|m| m.model == "trinomial") {
        notes.push("Some matchups have games without their colour-swapped twin; their intervals use the trinomial model over games.".into());
    }
    let mut headlines: Vec<String> = groups.iter().map(|g| g.summary.clone()).collect();
    if headlines.is_empty() {
        headlines.push("No group of armies to rate: see the matchups below.".into());
    }
    headlines.push(format!(
        "Game balance: White scores {:.1}% over {} games; {:.1}% draws.",
        100.0 * balance.white_score,
        balance.games,
        100.0 * balance.draw_rate
    ));

    if let Some(line) = colour_values.as_ref().and_then(colour_headline) {
        headlines.push(line);
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
            engines,
        },
        headlines,
        calibration,
        margin_pawns: options.margin_pawns,
        margin_elo,
        matchups,
        groups,
        balance,
        pocket_use,
        colour_values,
        notes,
        training: None,
    })
}

fn summarize(c: &MatchupCounts, level: ConfidenceLevel) -> (Option<ScoreSummary>, &'static str) {
    let pairs: u64 = c.pairs.iter().sum();
    let paired = (!c.unpaired && pairs >= 2)
        .then(|| Pentanomial::new(c.pairs).summary(level).ok())
        .flatten();
    if let Some(s) = paired {
        return (Some(s), "pentanomial");
    }
    (
        Trinomial::new(c.a_wins, c.draws, c.b_wins)
            .summary(level)
            .ok(),
        "trinomial",
    )
}

/// Elo per pawn from a pawn-odds matchup (armies equal but for removed pawns), else assumed.
fn calibrate(
    exp: &Experiment,
    counts: &BTreeMap<u64, MatchupCounts>,
    level: ConfidenceLevel,
) -> Calibration {
    let assumed = |why: &str| Calibration {
        elo_per_pawn: PawnCalibration::muller_default().elo_per_pawn(),
        interval: None,
        source: "assumed".into(),
        note: format!(
            "Pawn units assume H. G. Muller's calibration (a pawn is worth about 15% of score, {:.0} Elo): {why}",
            PawnCalibration::muller_default().elo_per_pawn()
        ),
    };
    for (i, m) in exp.matchups.iter().enumerate() {
        let (a, b) = (&exp.armies[m.a], &exp.armies[m.b]);
        if a.replace != b.replace || a.pocket != b.pocket || a.remove.len() == b.remove.len() {
            continue;
        }
        let pawns = a.remove.len().abs_diff(b.remove.len()) as f64;
        let removed_are_pawns = a.remove.iter().chain(&b.remove).all(|sq| {
            Position::start(&exp.variant)
                .piece_at(*sq)
                .is_some_and(|p| exp.variant.is_pawn(p.kind))
        });
        let Some(c) = counts.get(&(i as u64)) else {
            continue;
        };
        if !removed_are_pawns {
            continue;
        }
        let Some(summary) = summarize(c, level).0 else {
            continue;
        };
        // The score of the side with more pawns.
        let (score, se) = if a.remove.len() < b.remove.len() {
            (summary.score, summary.score_std_error)
        } else {
            (1.0 - summary.score, summary.score_std_error)
        };
        return match calibrate_from_pawn_odds(score, se, pawns, level) {
            Ok(est) => Calibration {
                elo_per_pawn: est.calibration.elo_per_pawn(),
                interval: Some((est.interval.lower, est.interval.upper)),
                source: "measured".into(),
                note: format!(
                    "Measured by matchup {} ({} games): the side a pawn up scored {:.1}%, so one pawn = {:.0} Elo ({:.0} to {:.0}).",
                    m.name,
                    c.a_wins + c.draws + c.b_wins,
                    100.0 * score,
                    est.calibration.elo_per_pawn(),
                    est.interval.lower,
                    est.interval.upper
                ),
            },
            Err(e) => assumed(&format!(
                "the pawn-odds matchup {} gave no usable calibration ({e}).",
                m.name
            )),
        };
    }
    assumed("this log has no pawn-odds matchup.")
}

/// Connected groups of armies (pawn-odds calibration matchups excluded), each rated together.
fn rating_groups(
    exp: &Experiment,
    matchups: &[MatchupStats],
    colour_records: &[(String, String, u64, u64, u64)],
    test: &EquivalenceTest,
    pawn: &PawnCalibration,
    level: ConfidenceLevel,
) -> Vec<RatingGroup> {
    let calibration_matchup = |m: &MatchupStats| {
        let a = exp.armies.iter().find(|x| x.name == m.a);
        let b = exp.armies.iter().find(|x| x.name == m.b);
        matches!((a, b), (Some(a), Some(b)) if a.replace == b.replace && a.pocket == b.pocket && a.remove.len() != b.remove.len())
    };
    let rated: Vec<&MatchupStats> = matchups
        .iter()
        .filter(|m| !calibration_matchup(m) && m.games > 0)
        .collect();
    // Union-find over army names.
    let mut component: HashMap<String, usize> = HashMap::new();
    let mut next = 0;
    for m in &rated {
        let (ca, cb) = (component.get(&m.a).copied(), component.get(&m.b).copied());
        match (ca, cb) {
            (None, None) => {
                component.insert(m.a.clone(), next);
                component.insert(m.b.clone(), next);
                next += 1;
            }
            (Some(c), None) => {
                component.insert(m.b.clone(), c);
            }
            (None, Some(c)) => {
                component.insert(m.a.clone(), c);
            }
            (Some(x), Some(y)) if x != y => {
                for v in component.values_mut() {
                    if *v == y {
                        *v = x;
                    }
                }
            }
            _ => {}
        }
    }
    let ids: BTreeSet<usize> = component.values().copied().collect();
    let mut groups = Vec::new();
    for id in ids {
        // Players in the experiment's army order.
        let players: Vec<String> = exp
            .armies
            .iter()
            .map(|a| a.name.clone())
            .filter(|n| component.get(n) == Some(&id))
            .collect();
        groups.push(rate_group(
            exp,
            &players,
            &rated,
            colour_records,
            test,
            pawn,
            level,
        ));
    }
    groups.sort_by_key(|g| (g.class.unwrap_or(u8::MAX), g.title.clone()));
    groups
}

fn player_label(exp: &Experiment, name: &str) -> String {
    let v = &exp.variant;
    match name
        .chars()
        .next()
        .filter(|_| name.len() == 1)
        .and_then(|c| v.piece_by_letter(c))
    {
        Some(t) => format!("{name} ({})", v.piece(t).name),
        None => name.to_owned(),
    }
}

fn rate_group(
    exp: &Experiment,
    players: &[String],
    rated: &[&MatchupStats],
    colour_records: &[(String, String, u64, u64, u64)],
    test: &EquivalenceTest,
    pawn: &PawnCalibration,
    level: ConfidenceLevel,
) -> RatingGroup {
    let v = &exp.variant;
    let index = |n: &str| players.iter().position(|p| p == n);
    // The piece a player stands for, when its name is a piece letter.
    let piece_of = |p: &str| {
        p.chars()
            .next()
            .filter(|_| p.len() == 1)
            .and_then(|c| v.piece_by_letter(c))
    };
    // A class group: every player is a piece letter of one class.
    let classes: BTreeSet<Option<u8>> = players
        .iter()
        .map(|p| piece_of(p).and_then(|t| v.piece(t).class))
        .collect();
    let class = match classes.iter().collect::<Vec<_>>().as_slice() {
        [Some(c)] => Some(*c),
        _ => None,
    };
    let names: Vec<String> = players
        .iter()
        .map(|p| piece_of(p).map_or(p.clone(), |t| v.piece(t).name.clone()))
        .collect();
    let title = match class {
        Some(c) => format!("Class {c}: {}", names.join(", ")),
        None => format!("Armies: {}", names.join(", ")),
    };

    // Ratings: Bradley-Terry with draws and White's advantage over all games.
    let records: Vec<PairRecord> = colour_records
        .iter()
        .filter_map(|(w, b, ww, dd, bw)| {
            Some(PairRecord {
                white: index(w)?,
                black: index(b)?,
                white_wins: *ww,
                draws: *dd,
                black_wins: *bw,
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
    let fit = bradley_terry::fit(
        players.len(),
        &records,
        &FitOptions {
            level,
            ..FitOptions::default()
        },
    )
    .ok();
    let mut player_ratings = Vec::new();
    let (mut white_advantage_elo, mut draw_parameter) = (f64::NAN, f64::NAN);
    if let Some(fit) = &fit {
        white_advantage_elo = fit.white_advantage;
        draw_parameter = fit.draw_nu;
        // Convert the fit's scale to logistic Elo (the scale of the pair verdicts and the pawn calibration):
        // a player's logistic rating is its mean head-to-head Elo against the group.
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
        for i in 0..n {
            let half = level.z() * fit.std_errors[i] * scale;
            let (lo, hi) = (logistic[i] - half, logistic[i] + half);
            player_ratings.push(PlayerRating {
                name: players[i].clone(),
                label: player_label(exp, &players[i]),
                elo: logistic[i],
                elo_interval: (lo, hi),
                pawns: pawn.elo_to_pawns(logistic[i]),
                pawns_interval: (pawn.elo_to_pawns(lo), pawn.elo_to_pawns(hi)),
                games: games_of(i),
            });
        }
    }

    // Pair verdicts from the direct, paired matchups, Holm-corrected within the group.
    let direct: Vec<&&MatchupStats> = rated
        .iter()
        .filter(|m| index(&m.a).is_some() && index(&m.b).is_some())
        .collect();
    let estimates: Vec<DifferenceEstimate> = direct
        .iter()
        .map(|m| {
            let se = (m.elo_interval.1 - m.elo_interval.0) / (2.0 * level.z());
            DifferenceEstimate {
                elo: m.elo,
                std_error: se,
                pairs: m.pairs.max(m.games / 2),
            }
        })
        .collect();
    let usable: Vec<usize> = (0..estimates.len())
        // One unusable estimate (an infinite Elo from a one-sided score) must not void the family.
        .filter(|&i| estimates[i].std_error > 0.0 && test.evaluate(&estimates[i]).is_ok())
        .collect();
    let outcomes = test
        .evaluate_family(&usable.iter().map(|&i| estimates[i]).collect::<Vec<_>>())
        .unwrap_or_default();
    let margin_pawns = pawn.elo_to_pawns(test.margin_elo());
    let mut pairs = Vec::new();
    for (k, m) in direct.iter().enumerate() {
        let outcome = usable
            .iter()
            .position(|&i| i == k)
            .and_then(|j| outcomes.get(j));
        let la = player_label(exp, &m.a);
        let lb = player_label(exp, &m.b);
        let (kind, text, tost_p, difference_p, more) = match outcome {
            Some(o) => match o.verdict {
                Verdict::Equivalent => (
                    VerdictKind::Equivalent,
                    format!(
                        "{la} and {lb} are equivalent within ±{margin_pawns:.2} pawns (difference {:+.2} pawns)",
                        m.pawns
                    ),
                    o.tost_p_value,
                    o.difference_p_value,
                    None,
                ),
                Verdict::Different { stronger, by } => {
                    let (strong, weak) = if stronger == Side::First {
                        (&la, &lb)
                    } else {
                        (&lb, &la)
                    };
                    (
                        VerdictKind::Different,
                        format!(
                            "{strong} is stronger than {weak} by {:.2} pawns ({:.2} to {:.2})",
                            pawn.elo_to_pawns(by.elo),
                            pawn.elo_to_pawns(by.interval.lower),
                            pawn.elo_to_pawns(by.interval.upper)
                        ),
                        o.tost_p_value,
                        o.difference_p_value,
                        None,
                    )
                }
                Verdict::Inconclusive { more_pairs_needed } => (
                    VerdictKind::Inconclusive,
                    format!(
                        "{la} vs {lb}: not enough games ({:+.2} pawns so far): about {more_pairs_needed} more pairs needed",
                        m.pawns
                    ),
                    o.tost_p_value,
                    o.difference_p_value,
                    Some(more_pairs_needed),
                ),
            },
            None => (
                VerdictKind::Inconclusive,
                format!("{la} vs {lb}: too few games to estimate"),
                f64::NAN,
                f64::NAN,
                None,
            ),
        };
        pairs.push(PairVerdict {
            a: m.a.clone(),
            b: m.b.clone(),
            elo: m.elo,
            elo_interval: m.elo_interval,
            pawns: m.pawns,
            pawns_interval: m.pawns_interval,
            games: m.games,
            pairs: m.pairs,
            kind,
            text,
            tost_p,
            difference_p,
            more_pairs_needed: more,
        });
    }
    let count = |k: VerdictKind| pairs.iter().filter(|p| p.kind == k).count();
    let (eq, diff, inc) = (
        count(VerdictKind::Equivalent),
        count(VerdictKind::Different),
        count(VerdictKind::Inconclusive),
    );
    let summary = if pairs.is_empty() {
        format!("{title}: no pair measured yet.")
    } else if diff == 0 && inc == 0 {
        let all = if eq == 1 {
            "the one pair is".to_owned()
        } else {
            format!("all {eq} pairs are")
        };
        format!("{title}: {all} equivalent within ±{margin_pawns:.2} pawns: the class holds.")
    } else {
        let mut parts = Vec::new();
        if eq > 0 {
            parts.push(format!("{eq} equivalent"));
        }
        if diff > 0 {
            let which: Vec<&str> = pairs
                .iter()
                .filter(|p| p.kind == VerdictKind::Different)
                .map(|p| p.text.as_str())
                .collect();
            parts.push(format!("{diff} different ({})", which.join("; ")));
        }
        if inc > 0 {
            parts.push(format!("{inc} undecided"));
        }
        let verdict = if diff > 0 {
            "the class does not hold"
        } else {
            "no verdict yet"
        };
        format!(
            "{title}: of {} pairs, {}: {verdict}.",
            pairs.len(),
            parts.join(", ")
        )
    };

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
    RatingGroup {
        title,
        class,
        players: player_ratings,
        white_advantage_elo,
        draw_parameter,
        pairs,
        summary,
        matrix,
        matrix_games,
    }
}

fn game_balance(
    games: &LazyFrame,
    dirs: &[PathBuf],
    exp: &Experiment,
) -> Result<GameBalance, ReportError> {
    let overall = games
        .clone()
        .select([
            len().alias("n"),
            col("white_score").mean().alias("white"),
            col("white_score").std(1).alias("white_sd"),
            col("white_score")
                .eq(lit(0.5))
                .cast(DataType::Float64)
                .mean()
                .alias("draws"),
        ])
        .collect()?;
    let n = u64s(&overall, "n")?.first().copied().unwrap_or(0);
    let white = f64s(&overall, "white")?
        .first()
        .copied()
        .unwrap_or(f64::NAN);
    let sd = f64s(&overall, "white_sd")?
        .first()
        .copied()
        .unwrap_or(f64::NAN);
    let draws = f64s(&overall, "draws")?
        .first()
        .copied()
        .unwrap_or(f64::NAN);
    let half = 1.96 * sd / (n.max(1) as f64).sqrt();
    let terms = games
        .clone()
        .group_by([col("termination")])
        .agg([len().alias("n")])
        .sort(
            ["n"],
            SortMultipleOptions::default().with_order_descending(true),
        )
        .collect()?;
    let terminations: Vec<(String, u64)> = strs(&terms, "termination")?
        .into_iter()
        .zip(u64s(&terms, "n")?)
        .collect();
    let plies_df = games.clone().select([col("plies")]).collect()?;
    let mut plies: Vec<u64> = u64s(&plies_df, "plies")?;
    plies.sort_unstable();
    let quantile = |q: f64| {
        if plies.is_empty() {
            f64::NAN
        } else {
            plies[((plies.len() - 1) as f64 * q).round() as usize] as f64
        }
    };
    let mean = if plies.is_empty() {
        f64::NAN
    } else {
        plies.iter().sum::<u64>() as f64 / plies.len() as f64
    };
    let max = plies.last().copied().unwrap_or(0);
    let width = ((max / 20).max(1) as f64 / 10.0).ceil() as u64 * 10;
    let mut histogram = Vec::new();
    let mut lo = 0;
    while lo <= max && !plies.is_empty() {
        let hi = lo + width;
        let count = plies.partition_point(|&p| p < hi) - plies.partition_point(|&p| p < lo);
        histogram.push((lo as u32, hi as u32, count as u64));
        lo = hi;
    }
    let (branching_factor, branching_sample) = branching(games, dirs, exp)?;
    Ok(GameBalance {
        games: n,
        white_score: white,
        white_score_interval: (white - half, white + half),
        draw_rate: draws,
        decisive_rate: 1.0 - draws,
        terminations,
        length: LengthStats {
            mean,
            median: quantile(0.5),
            p10: quantile(0.1),
            p90: quantile(0.9),
            histogram,
        },
        branching_factor,
        branching_sample,
    })
}

/// Mean legal moves per position, replaying the first pairs of every matchup.
fn branching(
    games: &LazyFrame,
    dirs: &[PathBuf],
    exp: &Experiment,
) -> Result<(Option<f64>, u64), ReportError> {
    let sample = (col("game_id") % lit(1u64 << 40)).lt(lit(2 * BRANCHING_PAIRS));
    let moves = scan(dirs, "moves")?;
    if moves.clone().collect_schema()?.is_empty() {
        return Ok((None, 0));
    }
    let starts = games
        .clone()
        .filter(sample.clone())
        .select([col("game_id"), col("start_fen")])
        .collect()?;
    let start_of: HashMap<u64, String> = u64s(&starts, "game_id")?
        .into_iter()
        .zip(strs(&starts, "start_fen")?)
        .collect();
    let (ids, texts) = game_moves(moves.filter(sample))?;
    let kind = GameKind::of(&exp.variant);
    let (mut positions, mut total) = (0u64, 0u64);
    for (id, plies) in games_of(&ids) {
        if let Some(start) = start_of.get(&id) {
            let game = &texts[plies];
            let counts = move_counts(&kind, start, game)
                .map_err(|e| log_error(&dirs[0], format!("game {id}: {e}")))?;
            positions += counts.len() as u64;
            total += counts.iter().sum::<u64>();
        }
    }
    Ok((
        (positions > 0).then(|| total as f64 / positions as f64),
        positions,
    ))
}

/// The most and least valuable colour of a colour map, in one sentence.
fn colour_headline(values: &ColourValues) -> Option<String> {
    let valued: Vec<&ColourValue> = values
        .colours
        .iter()
        .filter(|c| c.value.is_finite())
        .collect();
    let best = valued.iter().max_by(|a, b| a.value.total_cmp(&b.value))?;
    let worst = valued.iter().min_by(|a, b| a.value.total_cmp(&b.value))?;
    Some(format!(
        "Square colours: a piece on {} ({}) is worth {:.2} average pieces, on {} ({}) {:.2}.",
        best.name, best.betza, best.value, worst.name, worst.betza, worst.value
    ))
}

/// Every logged move as (game id, move text), in game and ply order.
pub(super) fn game_moves(moves: LazyFrame) -> Result<(Vec<u64>, Vec<String>), ReportError> {
    let df = moves
        .select([col("game_id"), col("ply"), col("move")])
        .sort(["game_id", "ply"], SortMultipleOptions::default())
        .collect()?;
    Ok((u64s(&df, "game_id")?, strs(&df, "move")?))
}

/// Each game's id and the range of its rows in ids sorted by game.
pub(super) fn games_of(ids: &[u64]) -> impl Iterator<Item = (u64, std::ops::Range<usize>)> + '_ {
    ids.chunk_by(|a, b| a == b).scan(0, |start, run| {
        let range = *start..*start + run.len();
        *start = range.end;
        Some((run[0], range))
    })
}

/// Legal moves in each position of a logged game, up to the first move
/// that does not replay.
fn move_counts(kind: &GameKind<'_>, start: &str, moves: &[String]) -> Result<Vec<u64>, String> {
    let mut pos = kind.parse_position(start).map_err(|e| e.to_string())?;
    let mut counts = Vec::with_capacity(moves.len());
    for text in moves {
        counts.push(pos.count_legal_moves());
        let Some(next) = pos.parse_move(text).ok().and_then(|m| pos.play(m).ok()) else {
            break;
        };
        pos = next;
    }
    Ok(counts)
}

fn pocket_use(games: &LazyFrame, exp: &Experiment) -> Result<Vec<PieceUse>, ReportError> {
    let df = games
        .clone()
        .select([col("pocket_events")])
        .filter(col("pocket_events").neq(lit("")))
        .collect()?;
    let v = &exp.variant;
    let mut uses: BTreeMap<char, PieceUse> = BTreeMap::new();
    for events in df.column("pocket_events")?.str()?.iter().flatten() {
        for e in events.split_whitespace() {
            let Some((_, what)) = e.split_once(':') else {
                continue;
            };
            let chars: Vec<char> = what.chars().collect();
            match chars.as_slice() {
                ['@', p] => {
                    if let Some(u) = use_entry(&mut uses, v, *p) {
                        u.drops += 1;
                    }
                }
                [from, '>', into] => {
                    // A pocket-in that changed the type: a promotion from the last rank
                    // lands in a higher class, a mutation in the same one.
                    let class = |c: char| v.piece_by_letter(c).and_then(|t| v.piece(t).class);
                    let promotion = class(*into) > class(*from);
                    if let Some(u) = use_entry(&mut uses, v, *from) {
                        u.pocket_ins += 1;
                        if !promotion {
                            u.mutated_from += 1;
                        }
                    }
                    if let Some(u) = use_entry(&mut uses, v, *into) {
                        if promotion {
                            u.promoted_into += 1;
                        } else {
                            u.mutated_into += 1;
                        }
                    }
                }
                [_, '=', into] => {
                    if let Some(u) = use_entry(&mut uses, v, *into) {
                        u.promoted_into += 1;
                    }
                }
                _ => {}
            }
        }
    }
    Ok(uses.into_values().collect())
}

fn use_entry<'a>(
    uses: &'a mut BTreeMap<char, PieceUse>,
    v: &pocketlab_core::Variant,
    c: char,
) -> Option<&'a mut PieceUse> {
    let t = v.piece_by_letter(c)?;
    Some(uses.entry(c).or_insert_with(|| PieceUse {
        letter: c.to_string(),
        name: v.piece(t).name.clone(),
        pocket_ins: 0,
        mutated_from: 0,
        mutated_into: 0,
        promoted_into: 0,
        drops: 0,
    }))
}
