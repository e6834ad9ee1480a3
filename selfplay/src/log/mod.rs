//! The self-play log: Parquet files of games and moves, written in chunks.
//! This module owns the format: file and folder names, columns
//! ([`schema::col`]), the game-id codec ([`GameId`]), and the one listing of
//! a log's chunks ([`list_chunks`]) that every reader goes through.
//!
//! # Layout of a log directory
//! ```text
//! manifest.toml            run identity: experiment, hashes of every input, versions
//! experiment.toml          the experiment file as run (its hash is in the manifest)
//! games/part-sI-NNNNNN.parquet   one row per game (shard I, chunk N)
//! moves/part-sI-NNNNNN.parquet   one row per ply, same chunk number as its games
//! locks/shard-I.lock       held by the process writing shard I
//! ```
//! A chunk is written to a temporary name unique to its process, synced,
//! then linked to its name without overwriting anything, and the directory
//! synced: a file either exists whole or not at all, and survives a power
//! loss once its rename returned. The moves chunk goes first, the games
//! chunk last: a game counts as played exactly when its row is in a games
//! chunk, and a moves chunk without its games chunk is an orphan that
//! resuming deletes. One process per shard, enforced by `locks/`.
//!
//! Readers ([`read_games`], [`read_moves`], the report's polars scans via
//! [`LogFiles::scan`], [`crate::check`]) validate what they read: the
//! manifest against `experiment.toml`, every chunk a regular non-empty
//! Parquet file of this experiment's games, each game id once.

mod chunks;
mod error;
mod files;
mod id;
mod lock;
mod manifest;
mod read;
pub mod schema;
pub(crate) mod write;

use std::fs::File;
use std::path::Path;

pub use chunks::{Chunk, Table, chunk_name, parse_chunk_name};
pub use error::LogError;
pub use files::{LogFiles, list_chunks};
pub use id::{GameId, game_id, game_seed};
pub use lock::{ShardLock, TEMP_PREFIX};
pub(crate) use manifest::hex;
pub use manifest::{LogDir, Manifest, VARIANT_INPUT, open_log};
pub use read::{read_game_chunks, read_games, read_move_chunks, read_moves};
pub use schema::{GameRecord, MoveRecord, SCHEMA_VERSION, SprtAccepted, Termination};
pub use write::ChunkWriter;

/// The run's identity and input hashes.
pub const MANIFEST_FILE: &str = "manifest.toml";
/// The experiment file's text as run.
pub const EXPERIMENT_FILE: &str = "experiment.toml";
/// Folder of the games chunks.
pub const GAMES_DIR: &str = "games";
/// Folder of the moves chunks.
pub const MOVES_DIR: &str = "moves";
/// Folder of the shard writers' lock files.
pub const LOCKS_DIR: &str = "locks";

/// Makes a directory's entries (a rename, a new file) durable: without it
/// a power loss may keep a later rename and lose an earlier one.
pub(crate) fn sync_dir(dir: &Path) -> Result<(), LogError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| LogError::io(dir, &e))
}
