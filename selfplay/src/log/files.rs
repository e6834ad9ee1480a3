//! The one listing of a log's chunk files, validated: every reader (resume,
//! PGN export, the report's polars scans, `pocketlab check`) goes through
//! [`list_chunks`].

use std::collections::HashMap;
use std::fs::{self, File};
use std::path::Path;

use polars::prelude::*;

use super::chunks::{Chunk, Table, parse_chunk_name};
use super::error::{LogError, damaged};
use super::id::{GameId, game_seed};
use super::manifest::{LogDir, open_log};
use super::schema::col;

/// A log's chunks, listed and checked (see [`list_chunks`]).
#[derive(Debug)]
pub struct LogFiles {
    /// The log directories, opened (manifest and experiment checked).
    pub logs: Vec<LogDir>,
    /// Games chunks, by directory, then shard and number.
    pub games: Vec<Chunk>,
    /// Moves chunks whose games chunk exists.
    pub moves: Vec<Chunk>,
    /// Moves chunks without a games chunk: the process died between the two
    /// renames (its games are played again on resume), or a games chunk was
    /// deleted. Not read.
    pub orphaned_moves: Vec<Chunk>,
    /// Games chunks without a moves chunk: normal with `log.moves = false`
    /// (or games of zero plies), else a lost moves chunk.
    pub games_without_moves: Vec<Chunk>,
    /// Rows in the games chunks (one per game id).
    pub games_count: u64,
}

/// Lists and validates the chunks of one or more log directories of one
/// experiment (shards kept in separate directories). Refused, naming the
/// file: a directory without a valid manifest and `experiment.toml` (or
/// whose `experiment.toml` does not match the manifest's hash), logs of
/// different experiments, a chunk that is not a regular file, is empty,
/// has a foreign name or an unreadable footer, a row whose game id,
/// matchup, pair, experiment or seed do not belong to this experiment, and
/// a game id that appears twice (both files named).
pub fn list_chunks<P: AsRef<Path>>(dirs: &[P]) -> Result<LogFiles, LogError> {
    let Some(first) = dirs.first() else {
        return Err(LogError::Mismatch {
            dir: ".".into(),
            reason: "no log directory given".into(),
        });
    };
    let mut logs = Vec::new();
    for d in dirs {
        let log = open_log(d.as_ref())?;
        if let Some(first_log) = logs.first() {
            let first_log: &LogDir = first_log;
            if first_log.manifest.experiment_hash != log.manifest.experiment_hash {
                return Err(LogError::Mismatch {
                    dir: d.as_ref().display().to_string(),
                    reason: format!(
                        "holds another experiment ('{}') than {} ('{}')",
                        log.manifest.experiment,
                        first.as_ref().display(),
                        first_log.manifest.experiment
                    ),
                });
            }
        }
        logs.push(log);
    }
    let mut games = Vec::new();
    let mut moves = Vec::new();
    for (i, log) in logs.iter().enumerate() {
        // Games first: a chunk committed meanwhile then looks at worst like
        // an orphaned moves chunk, never like games without moves.
        games.extend(list_table(&log.dir, i, Table::Games)?);
        moves.extend(list_table(&log.dir, i, Table::Moves)?);
    }
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let mut games_count = 0;
    for (c, chunk) in games.iter().enumerate() {
        let manifest = &logs[chunk.dir].manifest;
        for id in checked_game_ids(chunk, manifest)? {
            if let Some(&other) = seen.get(&id) {
                let g = GameId::decode(id);
                return Err(LogError::Duplicate {
                    game: format!("{id} (matchup {}, pair {})", g.matchup, g.pair),
                    first: games[other].path.display().to_string(),
                    second: chunk.path.display().to_string(),
                });
            }
            seen.insert(id, c);
            games_count += 1;
        }
    }
    let key = |c: &Chunk| (c.dir, c.shard, c.number);
    let committed: std::collections::HashSet<_> = games.iter().map(key).collect();
    let (moves, orphaned_moves): (Vec<Chunk>, Vec<Chunk>) =
        moves.into_iter().partition(|c| committed.contains(&key(c)));
    for chunk in &moves {
        let file = File::open(&chunk.path).map_err(|e| LogError::io(&chunk.path, &e))?;
        ParquetReader::new(file)
            .schema()
            .map_err(|e| damaged(&chunk.path, e))?;
    }
    let with_moves: std::collections::HashSet<_> = moves.iter().map(key).collect();
    let games_without_moves = games
        .iter()
        .filter(|c| !with_moves.contains(&key(c)))
        .cloned()
        .collect();
    Ok(LogFiles {
        logs,
        games,
        moves,
        orphaned_moves,
        games_without_moves,
        games_count,
    })
}

/// The chunk files of one table of one directory, sorted by shard and number.
fn list_table(dir: &Path, index: usize, table: Table) -> Result<Vec<Chunk>, LogError> {
    let d = dir.join(table.dir_name());
    let entries = match fs::read_dir(&d) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(LogError::io(&d, &e)),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| LogError::io(&d, &e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !name.ends_with(".parquet") {
            continue; // temporary files of writers, and anything not Parquet
        }
        let path = entry.path();
        let Some((shard, number)) = parse_chunk_name(&name) else {
            return Err(damaged(
                &path,
                "not a chunk of a pocketlab log (chunks are named part-sI-NNNNNN.parquet); \
                 move it out of the log directory",
            ));
        };
        // Never open a FIFO or device: it would block or never end.
        let meta = fs::metadata(&path).map_err(|e| LogError::io(&path, &e))?;
        if !meta.is_file() {
            return Err(damaged(&path, "not a regular file"));
        }
        if meta.len() == 0 {
            return Err(damaged(
                &path,
                "empty (0 bytes): chunks are never written empty, so the file was truncated; \
                 delete it and resume the run to play its games again",
            ));
        }
        out.push(Chunk {
            path,
            dir: index,
            shard,
            number,
        });
    }
    out.sort_by_key(|c| (c.shard, c.number));
    Ok(out)
}

/// The game ids of a games chunk, each checked against the experiment the
/// log's manifest names.
fn checked_game_ids(chunk: &Chunk, manifest: &super::Manifest) -> Result<Vec<u64>, LogError> {
    let path = &chunk.path;
    let file = File::open(path).map_err(|e| LogError::io(path, &e))?;
    let columns = [
        col::GAME_ID,
        col::MATCHUP_INDEX,
        col::PAIR_INDEX,
        col::EXPERIMENT,
        col::SEED,
    ];
    let df = ParquetReader::new(file)
        .with_columns(Some(columns.iter().map(|c| (*c).to_owned()).collect()))
        .finish()
        .map_err(|e| damaged(path, e))?;
    let get = |name: &str| df.column(name).map_err(|e| damaged(path, e));
    let ids = get(col::GAME_ID)?.u64().map_err(|e| damaged(path, e))?;
    let matchups = get(col::MATCHUP_INDEX)?
        .u32()
        .map_err(|e| damaged(path, e))?;
    let pairs = get(col::PAIR_INDEX)?.u64().map_err(|e| damaged(path, e))?;
    let experiments = get(col::EXPERIMENT)?.str().map_err(|e| damaged(path, e))?;
    let seeds = get(col::SEED)?.u64().map_err(|e| damaged(path, e))?;
    let mut out = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        let (Some(id), Some(m), Some(p), Some(e), Some(s)) = (
            ids.get(i),
            matchups.get(i),
            pairs.get(i),
            experiments.get(i),
            seeds.get(i),
        ) else {
            return Err(damaged(
                path,
                format!("row {i}: a null where a value belongs"),
            ));
        };
        let g = GameId::decode(id);
        if (g.matchup, g.pair) != (m, p) {
            return Err(damaged(
                path,
                format!("row {i}: game id {id} is not matchup {m}, pair {p}"),
            ));
        }
        if e != manifest.experiment || s != game_seed(manifest.seed, id) {
            return Err(damaged(
                path,
                format!(
                    "row {i}: game {id} is not a game of this log's experiment ('{e}' where the \
                     manifest says '{}', or another seed): a chunk of another log was copied \
                     here; move it out",
                    manifest.experiment
                ),
            ));
        }
        out.push(id);
    }
    Ok(out)
}

impl LogFiles {
    /// A lazy polars scan of one table's chunks (exactly the listed files:
    /// absolute paths, no glob or hive interpretation, so a directory named
    /// `lg[ab]` is read as itself). Orphaned moves chunks are left out.
    pub fn scan(&self, table: Table) -> PolarsResult<LazyFrame> {
        let chunks = match table {
            Table::Games => &self.games,
            Table::Moves => &self.moves,
        };
        if chunks.is_empty() {
            return Ok(DataFrame::empty().lazy());
        }
        let paths = chunks
            .iter()
            .map(|c| {
                let abs = std::path::absolute(&c.path)?;
                PlRefPath::try_from_path(&abs)
            })
            .collect::<PolarsResult<Vec<_>>>()?;
        let args = ScanArgsParquet {
            glob: false,
            hive_options: HiveOptions {
                enabled: Some(false),
                ..HiveOptions::default()
            },
            ..ScanArgsParquet::default()
        };
        LazyFrame::scan_parquet_files(paths.into_iter().collect(), args)
    }

    /// The directory a chunk is in.
    pub fn dir_of(&self, chunk: &Chunk) -> &Path {
        &self.logs[chunk.dir].dir
    }
}
