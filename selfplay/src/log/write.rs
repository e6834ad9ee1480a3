//! Writing chunks: atomically, without overwriting, durably, one writer per
//! shard.

use std::fs::{self, File};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::chunks::{Table, chunk_name, parse_chunk_name, shard_prefix};
use super::error::LogError;
use super::lock::{ShardLock, TEMP_PREFIX, temp_path};
use super::schema::{GameRecord, MoveRecord, SCHEMA_VERSION, col};
use super::sync_dir;

/// Gives the finished file `tmp` the name `path` unless `path` exists, then
/// syncs the directory. A hard link cannot replace a file, so even a
/// writer that should not be there cannot destroy a chunk.
pub(crate) fn publish(tmp: &Path, path: &Path) -> Result<(), LogError> {
    let linked = fs::hard_link(tmp, path);
    let result = match linked {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(LogError::Exists {
            file: path.display().to_string(),
        }),
        // File systems without hard links: check, then rename (the shard
        // lock keeps other writers of this name away).
        Err(_) if path.exists() => Err(LogError::Exists {
            file: path.display().to_string(),
        }),
        Err(_) => {
            return fs::rename(tmp, path)
                .map_err(|e| LogError::io(path, &e))
                .and_then(|()| sync_parent(path));
        }
    };
    let _ = fs::remove_file(tmp);
    result.and_then(|()| sync_parent(path))
}

fn sync_parent(path: &Path) -> Result<(), LogError> {
    sync_dir(path.parent().unwrap_or(Path::new(".")))
}

/// Write bytes to `path` through a synced temporary file, never replacing
/// an existing `path` ([`LogError::Exists`] then).
pub(crate) fn write_new(path: &Path, bytes: &[u8]) -> Result<(), LogError> {
    let tmp = temp_path(path);
    let written = File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .map_err(|e| LogError::io(&tmp, &e));
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    publish(&tmp, path)
}

/// Appends chunks of games and moves for one shard, holding its lock.
#[derive(Debug)]
pub struct ChunkWriter {
    games_dir: PathBuf,
    moves_dir: PathBuf,
    shard: u32,
    next_chunk: u32,
    _lock: ShardLock,
}

impl ChunkWriter {
    /// Open a log directory for shard `shard` of `shards`: take the shard's
    /// lock (refused, naming the holder, while another process writes
    /// it), then remove this shard's orphaned moves chunks and temporary
    /// files, which the lock proves were left by a dead writer. Other
    /// shards' files are never touched.
    pub fn open(dir: &Path, shard: u32, shards: u32) -> Result<ChunkWriter, LogError> {
        let games_dir = dir.join(Table::Games.dir_name());
        let moves_dir = dir.join(Table::Moves.dir_name());
        for d in [&games_dir, &moves_dir] {
            fs::create_dir_all(d).map_err(|e| LogError::io(d, &e))?;
        }
        sync_dir(dir)?;
        let lock = ShardLock::acquire(dir, shard, shards)?;
        let temp_prefix = &format!("{TEMP_PREFIX}{}", shard_prefix(shard));
        let own_chunks = |d: &Path| -> Result<Vec<u32>, LogError> {
            let mut out = Vec::new();
            for entry in fs::read_dir(d).map_err(|e| LogError::io(d, &e))? {
                let entry = entry.map_err(|e| LogError::io(d, &e))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with(temp_prefix) {
                    fs::remove_file(entry.path()).map_err(|e| LogError::io(&entry.path(), &e))?;
                    continue;
                }
                if let Some((s, n)) = parse_chunk_name(&name)
                    && s == shard
                {
                    out.push(n);
                }
            }
            Ok(out)
        };
        let games = own_chunks(&games_dir)?;
        for n in own_chunks(&moves_dir)? {
            if !games.contains(&n) {
                let orphan = moves_dir.join(chunk_name(shard, n));
                fs::remove_file(&orphan).map_err(|e| LogError::io(&orphan, &e))?;
            }
        }
        sync_dir(&moves_dir)?;
        let next_chunk = games.iter().max().map_or(0, |m| m + 1);
        Ok(ChunkWriter {
            games_dir,
            moves_dir,
            shard,
            next_chunk,
            _lock: lock,
        })
    }

    /// Write one chunk: moves first, then games (the commit).
    pub fn write(&mut self, games: &[GameRecord], moves: &[MoveRecord]) -> Result<(), LogError> {
        if games.is_empty() {
            return Ok(());
        }
        let name = chunk_name(self.shard, self.next_chunk);
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
    let written = File::create(&tmp)
        .map_err(|e| LogError::io(&tmp, &e))
        .and_then(|file| {
            ParquetWriter::new(&file)
                .finish(df)
                .map_err(|e| LogError::Damaged {
                    file: tmp.display().to_string(),
                    reason: e.to_string(),
                })?;
            file.sync_all().map_err(|e| LogError::io(&tmp, &e))
        });
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    publish(&tmp, path)
}

macro_rules! column {
    ($rows:expr, $name:expr, $f:expr) => {
        Column::new($name.into(), $rows.iter().map($f).collect::<Vec<_>>())
    };
}

fn games_frame(g: &[GameRecord]) -> DataFrame {
    let columns = vec![
        column!(g, col::EXPERIMENT, |r| r.experiment.as_str()),
        column!(g, col::MATCHUP, |r| r.matchup.as_str()),
        column!(g, col::MATCHUP_INDEX, |r| r.matchup_index),
        column!(g, col::PAIR_INDEX, |r| r.pair_index),
        column!(g, col::GAME_ID, |r| r.game_id),
        column!(g, col::WHITE, |r| r.white.as_str()),
        column!(g, col::BLACK, |r| r.black.as_str()),
        column!(g, col::WHITE_ARMY, |r| r.white_army.as_str()),
        column!(g, col::BLACK_ARMY, |r| r.black_army.as_str()),
        column!(g, col::WHITE_ENGINE, |r| r.white_engine.as_str()),
        column!(g, col::BLACK_ENGINE, |r| r.black_engine.as_str()),
        column!(g, col::VARIANT, |r| r.variant.as_str()),
        column!(g, col::SEED, |r| r.seed),
        column!(g, col::START_FEN, |r| r.start_fen.as_str()),
        column!(g, col::OPENING, |r| r.opening.as_str()),
        column!(g, col::RESULT, |r| r.result.as_str()),
        column!(g, col::WHITE_SCORE, |r| r.white_score),
        column!(g, col::TERMINATION, |r| r.termination.as_str()),
        column!(g, col::PLIES, |r| r.plies),
        column!(g, col::DURATION_MS, |r| r.duration_ms),
        column!(g, col::WHITE_NODES, |r| r.white_nodes),
        column!(g, col::BLACK_NODES, |r| r.black_nodes),
        column!(g, col::WHITE_POCKET_INS, |r| r.white_pocket_ins),
        column!(g, col::BLACK_POCKET_INS, |r| r.black_pocket_ins),
        column!(g, col::WHITE_MUTATIONS, |r| r.white_mutations),
        column!(g, col::BLACK_MUTATIONS, |r| r.black_mutations),
        column!(g, col::WHITE_PROMOTIONS, |r| r.white_promotions),
        column!(g, col::BLACK_PROMOTIONS, |r| r.black_promotions),
        column!(g, col::WHITE_DROPS, |r| r.white_drops),
        column!(g, col::BLACK_DROPS, |r| r.black_drops),
        column!(g, col::POCKET_EVENTS, |r| r.pocket_events.as_str()),
        column!(g, col::WHITE_MATERIAL, |r| r.white_material),
        column!(g, col::BLACK_MATERIAL, |r| r.black_material),
        column!(g, col::SPRT_LLR, |r| r.sprt_llr),
        column!(g, col::SPRT_DECISION, |r| r
            .sprt_decision
            .map(|d| d.as_str())),
        Column::new(col::SCHEMA_VERSION.into(), vec![SCHEMA_VERSION; g.len()]),
    ];
    DataFrame::new(g.len(), columns).expect("games columns have equal length")
}

fn moves_frame(m: &[MoveRecord]) -> DataFrame {
    let columns = vec![
        column!(m, col::GAME_ID, |r| r.game_id),
        column!(m, col::PLY, |r| r.ply),
        column!(m, col::MOVE, |r| r.mv.as_str()),
        column!(m, col::PIECE, |r| r.piece.as_str()),
        column!(m, col::CAPTURE, |r| r.capture.as_deref()),
        column!(m, col::SCORE_CP, |r| r.score_cp),
        column!(m, col::DEPTH, |r| r.depth),
        column!(m, col::NODES, |r| r.nodes),
        column!(m, col::FEN, |r| r.fen.as_deref()),
    ];
    DataFrame::new(m.len(), columns).expect("moves columns have equal length")
}
