//! Writing chunks atomically, and the run manifest.

use std::fs::{self, File};
use std::io::Write as _;
use std::path::{Path, PathBuf};

use polars::prelude::*;
use serde::{Deserialize, Serialize};

use super::read::LogError;
use super::schema::{GameRecord, MoveRecord, SCHEMA_VERSION};

/// What a log directory holds; a resumed run must match it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub experiment: String,
    /// FNV-1a of the experiment file text, as hex.
    pub experiment_hash: String,
    pub schema_version: u32,
    pub code_version: String,
    pub seed: u64,
    pub variant: String,
    pub rule_overrides: String,
    /// Where the experiment file's relative paths (variant, eval, book)
    /// resolve: needed to read the log's `experiment.toml` copy again.
    #[serde(default)]
    pub experiment_dir: String,
}

impl Manifest {
    /// Write the manifest, or check that the one present matches.
    pub fn write_or_check(&self, dir: &Path) -> Result<(), LogError> {
        let path = dir.join("manifest.toml");
        if path.exists() {
            let text = fs::read_to_string(&path).map_err(|e| LogError::io(&path, &e))?;
            let existing: Manifest = toml::from_str(&text).map_err(|e| LogError::Damaged {
                file: path.display().to_string(),
                reason: e.to_string(),
            })?;
            if existing.experiment_hash != self.experiment_hash
                || existing.experiment != self.experiment
            {
                return Err(LogError::Mismatch {
                    dir: dir.display().to_string(),
                    reason: format!(
                        "it holds experiment '{}' (hash {}), not '{}' (hash {}); use another --out directory",
                        existing.experiment,
                        existing.experiment_hash,
                        self.experiment,
                        self.experiment_hash
                    ),
                });
            }
            if existing.schema_version != self.schema_version {
                return Err(LogError::Mismatch {
                    dir: dir.display().to_string(),
                    reason: format!(
                        "log schema {} differs from this build's {}",
                        existing.schema_version, self.schema_version
                    ),
                });
            }
            return Ok(());
        }
        let text = toml::to_string(self).expect("the manifest serialises");
        write_atomically(&path, text.as_bytes())?;
        // Another shard may have raced us to it: what is there now must match.
        if fs::read_to_string(&path).map_err(|e| LogError::io(&path, &e))? != text {
            return self.write_or_check(dir);
        }
        Ok(())
    }
}

/// Write bytes to `path` through a synced temporary file and a rename.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), LogError> {
    let tmp = temp_path(path);
    let mut f = File::create(&tmp).map_err(|e| LogError::io(&tmp, &e))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| LogError::io(&tmp, &e))?;
    fs::rename(&tmp, path).map_err(|e| LogError::io(path, &e))
}

/// A temporary name beside `path`, unique to this process: shard processes
/// share a directory and must never touch each other's files.
fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".tmp-{name}.{}", std::process::id()))
}

/// Appends chunks of games and moves for one shard.
#[derive(Debug)]
pub struct ChunkWriter {
    games_dir: PathBuf,
    moves_dir: PathBuf,
    shard: u32,
    next_chunk: u32,
}

impl ChunkWriter {
    /// Open a log directory for shard `shard`, removing this shard's orphaned
    /// moves chunks and temporary files left by an interrupted run. One
    /// process per shard at a time; different shards may share the directory.
    pub fn open(dir: &Path, shard: u32) -> Result<ChunkWriter, LogError> {
        let games_dir = dir.join("games");
        let moves_dir = dir.join("moves");
        for d in [&games_dir, &moves_dir] {
            fs::create_dir_all(d).map_err(|e| LogError::io(d, &e))?;
        }
        let prefix = format!("part-s{shard}-");
        let chunk_numbers = |d: &Path| -> Result<Vec<u32>, LogError> {
            let mut out = Vec::new();
            for entry in fs::read_dir(d).map_err(|e| LogError::io(d, &e))? {
                let entry = entry.map_err(|e| LogError::io(d, &e))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                // Only this shard's leftovers: other shards may be writing now.
                if name.starts_with(&format!(".tmp-{prefix}")) {
                    fs::remove_file(entry.path()).map_err(|e| LogError::io(&entry.path(), &e))?;
                    continue;
                }
                let number = name
                    .strip_prefix(&prefix)
                    .and_then(|r| r.strip_suffix(".parquet"));
                if let Some(n) = number.and_then(|n| n.parse().ok()) {
                    out.push(n);
                }
            }
            Ok(out)
        };
        let games = chunk_numbers(&games_dir)?;
        for n in chunk_numbers(&moves_dir)? {
            if !games.contains(&n) {
                let orphan = moves_dir.join(format!("{prefix}{n:06}.parquet"));
                fs::remove_file(&orphan).map_err(|e| LogError::io(&orphan, &e))?;
            }
        }
        let next_chunk = games.iter().max().map_or(0, |m| m + 1);
        Ok(ChunkWriter {
            games_dir,
            moves_dir,
            shard,
            next_chunk,
        })
    }

    /// Write one chunk: moves first, then games (the commit).
    pub fn write(&mut self, games: &[GameRecord], moves: &[MoveRecord]) -> Result<(), LogError> {
        if games.is_empty() {
            return Ok(());
        }
        let name = format!("part-s{}-{:06}.parquet", self.shard, self.next_chunk);
        if !moves.is_empty() {
            write_frame(&self.moves_dir.join(&name), &mut moves_frame(moves))?;
        }
        write_frame(&self.games_dir.join(&name), &mut games_frame(games))?;
        self.next_chunk += 1;
        Ok(())
    }
}

fn write_frame(path: &Path, df: &mut DataFrame) -> Result<(), LogError> {
    let tmp = temp_path(path);
    let file = File::create(&tmp).map_err(|e| LogError::io(&tmp, &e))?;
    ParquetWriter::new(&file)
        .finish(df)
        .map_err(|e| LogError::Damaged {
            file: tmp.display().to_string(),
            reason: e.to_string(),
        })?;
    file.sync_all().map_err(|e| LogError::io(&tmp, &e))?;
    fs::rename(&tmp, path).map_err(|e| LogError::io(path, &e))
}

macro_rules! col {
    ($rows:expr, $name:literal, $f:expr) => {
        Column::new($name.into(), $rows.iter().map($f).collect::<Vec<_>>())
    };
}

fn games_frame(g: &[GameRecord]) -> DataFrame {
    let columns = vec![
        col!(g, "experiment", |r| r.experiment.as_str()),
        col!(g, "matchup", |r| r.matchup.as_str()),
        col!(g, "matchup_index", |r| r.matchup_index),
        col!(g, "pair_index", |r| r.pair_index),
        col!(g, "game_id", |r| r.game_id),
        col!(g, "white", |r| r.white.as_str()),
        col!(g, "black", |r| r.black.as_str()),
        col!(g, "white_army", |r| r.white_army.as_str()),
        col!(g, "black_army", |r| r.black_army.as_str()),
        col!(g, "white_engine", |r| r.white_engine.as_str()),
        col!(g, "black_engine", |r| r.black_engine.as_str()),
        col!(g, "variant", |r| r.variant.as_str()),
        col!(g, "seed", |r| r.seed),
        col!(g, "start_fen", |r| r.start_fen.as_str()),
        col!(g, "opening", |r| r.opening.as_str()),
        col!(g, "result", |r| r.result.as_str()),
        col!(g, "white_score", |r| r.white_score),
        col!(g, "termination", |r| r.termination.as_str()),
        col!(g, "plies", |r| r.plies),
        col!(g, "duration_ms", |r| r.duration_ms),
        col!(g, "white_nodes", |r| r.white_nodes),
        col!(g, "black_nodes", |r| r.black_nodes),
        col!(g, "white_pocket_ins", |r| r.white_pocket_ins),
        col!(g, "black_pocket_ins", |r| r.black_pocket_ins),
        col!(g, "white_mutations", |r| r.white_mutations),
        col!(g, "black_mutations", |r| r.black_mutations),
        col!(g, "white_promotions", |r| r.white_promotions),
        col!(g, "black_promotions", |r| r.black_promotions),
        col!(g, "white_drops", |r| r.white_drops),
        col!(g, "black_drops", |r| r.black_drops),
        col!(g, "pocket_events", |r| r.pocket_events.as_str()),
        col!(g, "white_material", |r| r.white_material),
        col!(g, "black_material", |r| r.black_material),
        col!(g, "sprt_llr", |r| r.sprt_llr),
        col!(g, "sprt_decision", |r| r.sprt_decision.as_deref()),
        Column::new("schema_version".into(), vec![SCHEMA_VERSION; g.len()]),
    ];
    DataFrame::new(g.len(), columns).expect("games columns have equal length")
}

fn moves_frame(m: &[MoveRecord]) -> DataFrame {
    let columns = vec![
        col!(m, "game_id", |r| r.game_id),
        col!(m, "ply", |r| r.ply),
        col!(m, "move", |r| r.mv.as_str()),
        col!(m, "piece", |r| r.piece.as_str()),
        col!(m, "capture", |r| r.capture.as_deref()),
        col!(m, "score_cp", |r| r.score_cp),
        col!(m, "depth", |r| r.depth),
        col!(m, "nodes", |r| r.nodes),
        col!(m, "fen", |r| r.fen.as_deref()),
    ];
    DataFrame::new(m.len(), columns).expect("moves columns have equal length")
}
