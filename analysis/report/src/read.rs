//! Reading the logs: the one module of the report that knows the log's
//! files and columns. Polars scans the Parquet chunks lazily (any number of
//! directories and shards) and aggregates; everything returned is plain
//! data, so the statistics never see a data frame and this module can be
//! swapped for the log's own reading API.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use pocketlab_selfplay::Experiment;
use pocketlab_selfplay::log::schema::col as column;
use pocketlab_selfplay::log::{self, GameId, Manifest};
use polars::prelude::*;
use thiserror::Error;

use super::model::{SearchDepth, SprtOutcome};

/// Why a report could not be built from its logs.
#[derive(Debug, Error)]
pub enum ReportError {
    /// A log directory that cannot be reported on (none given, another
    /// experiment's, no games yet, a game that does not replay…).
    #[error("{dir}: {reason}")]
    Log {
        /// The directory, as given.
        dir: String,
        /// What is wrong, in words.
        reason: String,
    },
    /// The experiment the log holds is not valid.
    #[error(transparent)]
    Experiment(#[from] pocketlab_selfplay::ExperimentError),
    /// The log's tables could not be read or aggregated.
    #[error("reading the logs: {0}")]
    Polars(#[from] PolarsError),
    /// The log's files could not be listed or opened.
    #[error(transparent)]
    LogFiles(#[from] log::LogError),
}

pub(super) fn log_error(dir: &Path, reason: impl Into<String>) -> ReportError {
    ReportError::Log {
        dir: dir.display().to_string(),
        reason: reason.into(),
    }
}

/// Read the experiment a log directory holds (its manifest and file copy,
/// checked against each other by the log). A log whose rules changed
/// since the run (a variant file of its chain edited or replaced) is
/// refused: its games would be read against other pieces, rules or
/// classes than they were played under.
pub fn experiment_of(dir: &Path) -> Result<(Experiment, Manifest), ReportError> {
    let log = log::open_log(dir).map_err(|e| log_error(dir, e.to_string()))?;
    let exp = log
        .experiment_as_played()
        .map_err(|e| log_error(dir, e.to_string()))?;
    Ok((exp, log.manifest))
}

/// The experiment of the first directory, after checking every other
/// directory holds the same one.
pub(super) fn common_experiment(dirs: &[PathBuf]) -> Result<(Experiment, Manifest), ReportError> {
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
    Ok((exp, manifest))
}

/// One matchup's counts, from army A's point of view.
#[derive(Clone, Debug, Default)]
pub(super) struct MatchupCounts {
    pub a_wins: u64,
    pub draws: u64,
    pub b_wins: u64,
    /// White's points over the matchup's games.
    pub white_points: f64,
    /// Complete colour-swapped pairs by A's half points (0..=4).
    pub pentanomial: [u64; 5],
    /// Some game without its colour-swapped twin.
    pub unpaired: bool,
    /// A's half points in each whole pair, by pair index (what the
    /// sequential design replays).
    pub pair_scores: BTreeMap<u64, u8>,
    pub sprt: Option<SprtOutcome>,
}

impl MatchupCounts {
    pub fn games(&self) -> u64 {
        self.a_wins + self.draws + self.b_wins
    }
}

/// Results between two armies by colour.
#[derive(Clone, Debug)]
pub(super) struct ColourRecord {
    pub white: String,
    pub black: String,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
}

/// What the games table holds, aggregated.
#[derive(Clone, Debug, Default)]
pub(super) struct GamesSummary {
    /// By matchup index.
    pub matchups: BTreeMap<u64, MatchupCounts>,
    pub colour_records: Vec<ColourRecord>,
    /// White's points and games per colour-swapped pair (the independent
    /// unit of White's score).
    pub white_by_pair: Vec<(f64, u64)>,
    pub games: u64,
    pub draws: u64,
    /// `(termination, games)`, most frequent first.
    pub terminations: Vec<(String, u64)>,
    /// Every game's length, sorted.
    pub plies: Vec<u64>,
    /// Engine settings seen, sorted.
    pub engines: Vec<String>,
    /// Each game's pocket events (non-empty ones).
    pub pocket_events: Vec<String>,
}

/// A logged game to replay: its start, result and moves in order.
#[derive(Clone, Debug)]
pub(super) struct LoggedGame {
    pub id: u64,
    pub start: String,
    pub white_score: f64,
    pub moves: Vec<String>,
}

/// Aggregate the games table of `dirs`. A damaged file is reported by name
/// (the log's listing reads every footer before polars does).
pub(super) fn read_games(dirs: &[PathBuf]) -> Result<GamesSummary, ReportError> {
    read_games_unchecked(dirs)
}

/// Games whose pair index is below `first_pairs` (every game when `None`),
/// with their moves, in game order; empty when the log has no moves table.
pub(super) fn read_logged_games(
    dirs: &[PathBuf],
    first_pairs: Option<u64>,
) -> Result<Vec<LoggedGame>, ReportError> {
    read_logged_games_unchecked(dirs, first_pairs)
}

/// A lazy scan of one table of the logs, through the log's validated
/// listing (regular, non-empty, readable chunks of this experiment, each
/// game once; paths taken literally).
fn scan(dirs: &[PathBuf], table: log::Table) -> Result<LazyFrame, ReportError> {
    let files = log::list_chunks(dirs)?;
    if table == log::Table::Games && files.games.is_empty() {
        return Err(log_error(&dirs[0], "no games logged yet"));
    }
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
    when(GameId::a_is_white_expr(col(column::GAME_ID)))
        .then(col(column::WHITE_SCORE))
        .otherwise(lit(1.0) - col(column::WHITE_SCORE))
        .alias("a_score")
}

fn u64s(df: &DataFrame, name: &str) -> Result<Vec<u64>, ReportError> {
    let c = df.column(name)?.cast(&DataType::UInt64)?;
    Ok(c.u64()?.iter().map(|v| v.unwrap_or(0)).collect())
}

fn f64s(df: &DataFrame, name: &str) -> Result<Vec<f64>, ReportError> {
    let c = df.column(name)?.cast(&DataType::Float64)?;
    Ok(c.f64()?.iter().map(|v| v.unwrap_or(f64::NAN)).collect())
}

fn strs(df: &DataFrame, name: &str) -> Result<Vec<String>, ReportError> {
    Ok(df
        .column(name)?
        .str()?
        .iter()
        .map(|v| v.unwrap_or_default().to_owned())
        .collect())
}

/// One game of an army in a log: its matchup, its pair, its opening (the
/// start position and the random opening moves played from it) and the
/// army's score.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ArmyGame {
    pub matchup: u64,
    pub pair: u64,
    pub opening: String,
    pub score: f64,
}

/// Every game of the army named `army` in the log `dir`, with White or
/// with Black.
pub(super) fn army_games(dir: &Path, army: &str) -> Result<Vec<ArmyGame>, ReportError> {
    let df = scan(&[dir.to_path_buf()], log::Table::Games)?
        .filter(
            col(column::WHITE)
                .eq(lit(army))
                .or(col(column::BLACK).eq(lit(army))),
        )
        .select([
            col(column::MATCHUP_INDEX),
            col(column::PAIR_INDEX),
            col(column::START_FEN),
            col(column::OPENING),
            col(column::WHITE),
            col(column::WHITE_SCORE),
        ])
        .collect()?;
    let openings = strs(&df, column::START_FEN)?
        .into_iter()
        .zip(strs(&df, column::OPENING)?)
        .map(|(start, moves)| format!("{start} moves {moves}"));
    let white = strs(&df, column::WHITE)?;
    let white_score = f64s(&df, column::WHITE_SCORE)?;
    Ok(u64s(&df, column::MATCHUP_INDEX)?
        .into_iter()
        .zip(u64s(&df, column::PAIR_INDEX)?)
        .zip(openings)
        .zip(white.iter().zip(white_score))
        .map(|(((matchup, pair), opening), (white, score))| ArmyGame {
            matchup,
            pair,
            opening,
            score: if white == army { score } else { 1.0 - score },
        })
        .collect())
}

/// How deep and how wide each engine setting searched: per setting (the
/// `white_engine` or `black_engine` text of the side that moved) the
/// median and mean depth and the mean nodes over every logged move it
/// searched, sorted by the armies that moved with it. Opening moves log
/// depth 0 and are left out, as are an external engine's moves when it
/// reported no depth; empty when no move was searched.
pub(super) fn search_depths(dirs: &[PathBuf]) -> Result<Vec<SearchDepth>, ReportError> {
    let moves = scan(dirs, log::Table::Moves)?;
    if moves.clone().collect_schema()?.is_empty() {
        return Ok(Vec::new());
    }
    let searched = moves
        .filter(col(column::DEPTH).gt(lit(0)))
        .select([
            col(column::GAME_ID),
            col(column::PLY),
            col(column::DEPTH),
            col(column::NODES),
        ])
        .collect()?;
    if searched.height() == 0 {
        return Ok(Vec::new());
    }
    let games = scan(dirs, log::Table::Games)?
        .select([
            col(column::GAME_ID),
            col(column::WHITE),
            col(column::BLACK),
            col(column::WHITE_ENGINE),
            col(column::BLACK_ENGINE),
            col(column::START_FEN),
        ])
        .collect()?;

    /// One engine setting's armies and searched moves.
    #[derive(Default)]
    struct Setting {
        armies: std::collections::BTreeSet<String>,
        depths: Vec<u64>,
        nodes: u128,
    }
    let mut settings: Vec<Setting> = Vec::new();
    let mut setting_of: HashMap<String, usize> = HashMap::new();
    // Per game: White's and Black's setting, and whether Black moved first.
    let mut sides: HashMap<u64, (usize, usize, bool)> = HashMap::new();
    let ids = u64s(&games, column::GAME_ID)?;
    let (white, black) = (strs(&games, column::WHITE)?, strs(&games, column::BLACK)?);
    let white_engine = strs(&games, column::WHITE_ENGINE)?;
    let black_engine = strs(&games, column::BLACK_ENGINE)?;
    let start_fen = strs(&games, column::START_FEN)?;
    for (i, &id) in ids.iter().enumerate() {
        let mut setting = |engine: &str, army: &str| {
            let index = *setting_of.entry(engine.to_owned()).or_insert_with(|| {
                settings.push(Setting::default());
                settings.len() - 1
            });
            settings[index].armies.insert(army.to_owned());
            index
        };
        let w = setting(&white_engine[i], &white[i]);
        let b = setting(&black_engine[i], &black[i]);
        let black_first = start_fen[i].split_whitespace().nth(1) == Some("b");
        sides.insert(id, (w, b, black_first));
    }
    let (plies, depths, nodes) = (
        u64s(&searched, column::PLY)?,
        u64s(&searched, column::DEPTH)?,
        u64s(&searched, column::NODES)?,
    );
    for (i, id) in u64s(&searched, column::GAME_ID)?.into_iter().enumerate() {
        // Moves chunks are listed only with their games, so every move has one.
        let Some(&(w, b, black_first)) = sides.get(&id) else {
            continue;
        };
        let white_moved = (plies[i] % 2 == 0) != black_first;
        let setting = &mut settings[if white_moved { w } else { b }];
        setting.depths.push(depths[i]);
        setting.nodes += u128::from(nodes[i]);
    }
    let mut out: Vec<SearchDepth> = settings
        .into_iter()
        .filter(|s| !s.depths.is_empty())
        .map(|mut s| {
            s.depths.sort_unstable();
            let n = s.depths.len();
            let median = (s.depths[(n - 1) / 2] + s.depths[n / 2]) as f64 / 2.0;
            let mean = s.depths.iter().sum::<u64>() as f64 / n as f64;
            SearchDepth {
                armies: s.armies.into_iter().collect(),
                median,
                mean,
                mean_nodes: s.nodes as f64 / n as f64,
                moves: n as u64,
            }
        })
        .collect();
    out.sort_by(|a, b| a.armies.cmp(&b.armies));
    Ok(out)
}

fn read_games_unchecked(dirs: &[PathBuf]) -> Result<GamesSummary, ReportError> {
    let games = scan(dirs, log::Table::Games)?;
    let mut out = GamesSummary {
        matchups: matchup_counts(&games)?,
        ..GamesSummary::default()
    };

    let by_colour = games
        .clone()
        .select([
            col(column::WHITE),
            col(column::BLACK),
            col(column::WHITE_SCORE),
        ])
        .group_by([col(column::WHITE), col(column::BLACK)])
        .agg([
            count_where(column::WHITE_SCORE, 1.0, "ww"),
            count_where(column::WHITE_SCORE, 0.5, "dd"),
            count_where(column::WHITE_SCORE, 0.0, "bw"),
        ])
        .collect()?;
    let (w, b) = (
        strs(&by_colour, column::WHITE)?,
        strs(&by_colour, column::BLACK)?,
    );
    let (ww, dd, bw) = (
        u64s(&by_colour, "ww")?,
        u64s(&by_colour, "dd")?,
        u64s(&by_colour, "bw")?,
    );
    out.colour_records = (0..w.len())
        .map(|i| ColourRecord {
            white: w[i].clone(),
            black: b[i].clone(),
            white_wins: ww[i],
            draws: dd[i],
            black_wins: bw[i],
        })
        .collect();

    let pairs = games
        .clone()
        .group_by([col(column::MATCHUP_INDEX), col(column::PAIR_INDEX)])
        .agg([
            col(column::WHITE_SCORE).sum().alias("points"),
            len().alias("n"),
            count_where(column::WHITE_SCORE, 0.5, "draws"),
        ])
        .collect()?;
    out.white_by_pair = f64s(&pairs, "points")?
        .into_iter()
        .zip(u64s(&pairs, "n")?)
        .collect();
    out.games = out.white_by_pair.iter().map(|p| p.1).sum();
    out.draws = u64s(&pairs, "draws")?.iter().sum();

    let terms = games
        .clone()
        .group_by([col(column::TERMINATION)])
        .agg([len().alias("n")])
        .sort(
            ["n", column::TERMINATION],
            SortMultipleOptions::default().with_order_descending_multi([true, false]),
        )
        .collect()?;
    out.terminations = strs(&terms, column::TERMINATION)?
        .into_iter()
        .zip(u64s(&terms, "n")?)
        .collect();

    let plies = games.clone().select([col(column::PLIES)]).collect()?;
    out.plies = u64s(&plies, column::PLIES)?;
    out.plies.sort_unstable();

    let engines = games
        .clone()
        .select([col(column::WHITE_ENGINE)])
        .unique(None, UniqueKeepStrategy::Any)
        .collect()?;
    out.engines = strs(&engines, column::WHITE_ENGINE)?;
    out.engines.sort();

    let events = games
        .select([col(column::POCKET_EVENTS)])
        .filter(col(column::POCKET_EVENTS).neq(lit("")))
        .collect()?;
    out.pocket_events = strs(&events, column::POCKET_EVENTS)?;
    Ok(out)
}

/// Wins, draws and losses from A's view, pentanomial pair counts and the
/// SPRT's last state, per matchup.
fn matchup_counts(games: &LazyFrame) -> Result<BTreeMap<u64, MatchupCounts>, ReportError> {
    let per_matchup = games
        .clone()
        .select([
            col(column::MATCHUP_INDEX),
            col(column::WHITE_SCORE),
            a_score(),
        ])
        .group_by([col(column::MATCHUP_INDEX)])
        .agg([
            count_where("a_score", 1.0, "a_wins"),
            count_where("a_score", 0.5, "draws"),
            count_where("a_score", 0.0, "b_wins"),
            col(column::WHITE_SCORE).sum().alias("white_points"),
        ])
        .collect()?;
    let white_points = f64s(&per_matchup, "white_points")?;
    let mut counts: BTreeMap<u64, MatchupCounts> = BTreeMap::new();
    let (idx, aw, dr, bw) = (
        u64s(&per_matchup, column::MATCHUP_INDEX)?,
        u64s(&per_matchup, "a_wins")?,
        u64s(&per_matchup, "draws")?,
        u64s(&per_matchup, "b_wins")?,
    );
    for i in 0..idx.len() {
        counts.insert(
            idx[i],
            MatchupCounts {
                a_wins: aw[i],
                draws: dr[i],
                b_wins: bw[i],
                white_points: white_points[i],
                ..MatchupCounts::default()
            },
        );
    }

    let pair_points = games
        .clone()
        .select([
            col(column::MATCHUP_INDEX),
            col(column::PAIR_INDEX),
            a_score(),
        ])
        .group_by([col(column::MATCHUP_INDEX), col(column::PAIR_INDEX)])
        .agg([col("a_score").sum().alias("points"), len().alias("n")])
        .collect()?;
    let (pm, pp, pts, n) = (
        u64s(&pair_points, column::MATCHUP_INDEX)?,
        u64s(&pair_points, column::PAIR_INDEX)?,
        f64s(&pair_points, "points")?,
        u64s(&pair_points, "n")?,
    );
    for i in 0..pm.len() {
        if let Some(c) = counts.get_mut(&pm[i]) {
            if n[i] == 2 {
                let half_points = (pts[i] * 2.0).round().clamp(0.0, 4.0) as u8;
                c.pentanomial[usize::from(half_points)] += 1;
                c.pair_scores.insert(pp[i], half_points);
            } else {
                c.unpaired = true;
            }
        }
    }

    let sprt = games
        .clone()
        .select([
            col(column::MATCHUP_INDEX),
            col(column::PAIR_INDEX),
            col(column::SPRT_LLR),
            col(column::SPRT_DECISION),
        ])
        .filter(col(column::SPRT_LLR).is_not_null())
        .sort(
            [column::MATCHUP_INDEX, column::PAIR_INDEX],
            SortMultipleOptions::default(),
        )
        .group_by([col(column::MATCHUP_INDEX)])
        .agg([
            col(column::SPRT_LLR).last().alias("llr"),
            col(column::SPRT_DECISION)
                .drop_nulls()
                .first()
                .alias("decision"),
        ])
        .collect()?;
    let (sm, llr) = (u64s(&sprt, column::MATCHUP_INDEX)?, f64s(&sprt, "llr")?);
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
    Ok(counts)
}

fn read_logged_games_unchecked(
    dirs: &[PathBuf],
    first_pairs: Option<u64>,
) -> Result<Vec<LoggedGame>, ReportError> {
    let moves = scan(dirs, log::Table::Moves)?;
    if moves.clone().collect_schema()?.is_empty() {
        return Ok(Vec::new());
    }
    let sample = match first_pairs {
        Some(pairs) => GameId::index_in_matchup_expr(col(column::GAME_ID)).lt(lit(2 * pairs)),
        None => lit(true),
    };
    let starts = scan(dirs, log::Table::Games)?
        .filter(sample.clone())
        .select([
            col(column::GAME_ID),
            col(column::START_FEN),
            col(column::WHITE_SCORE),
        ])
        .collect()?;
    let start_of: HashMap<u64, (String, f64)> = u64s(&starts, column::GAME_ID)?
        .into_iter()
        .zip(
            strs(&starts, column::START_FEN)?
                .into_iter()
                .zip(f64s(&starts, column::WHITE_SCORE)?),
        )
        .collect();
    let df = moves
        .filter(sample)
        .select([col(column::GAME_ID), col(column::PLY), col(column::MOVE)])
        .sort(
            [column::GAME_ID, column::PLY],
            SortMultipleOptions::default(),
        )
        .collect()?;
    let (ids, texts) = (u64s(&df, column::GAME_ID)?, strs(&df, column::MOVE)?);
    let mut out = Vec::new();
    let mut start = 0;
    for run in ids.chunk_by(|a, b| a == b) {
        let range = start..start + run.len();
        start = range.end;
        if let Some((fen, score)) = start_of.get(&run[0]) {
            out.push(LoggedGame {
                id: run[0],
                start: fen.clone(),
                white_score: *score,
                moves: texts[range].to_vec(),
            });
        }
    }
    Ok(out)
}
