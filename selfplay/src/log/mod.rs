//! The self-play log: Parquet files of games and moves, written in chunks.
//!
//! # Layout of a log directory
//! ```text
//! manifest.toml            run identity: experiment, its hash, code version, schema version
//! experiment.toml          the experiment file as run
//! games/part-sI-NNNNNN.parquet   one row per game (shard I, chunk N)
//! moves/part-sI-NNNNNN.parquet   one row per ply, same chunk number as its games
//! ```
//! A chunk is written to a temporary name, synced, then renamed, so a file
//! either exists whole or not at all. The games chunk is renamed last: a
//! game counts as played exactly when its row is in a games chunk, and a
//! moves chunk without its games chunk is an orphan that resuming deletes.
//!
//! The columns are documented in [`schema`].

mod read;
pub mod schema;
pub(crate) mod write;

pub use read::{LogError, read_games, read_moves};
pub use schema::{GameRecord, MoveRecord, SCHEMA_VERSION};
pub use write::{ChunkWriter, Manifest};
