//! What can be wrong with a log, for every reader and writer of it.

use std::path::Path;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum LogError {
    #[error("{file}: {reason}")]
    Io { file: String, reason: String },
    #[error("{file}: damaged or not a pocketlab log file: {reason}")]
    Damaged { file: String, reason: String },
    #[error("log directory {dir}: {reason}")]
    Mismatch { dir: String, reason: String },
    #[error(
        "{file}: this shard of the log is being written by {holder}; two writers would lose \
         and duplicate games. Wait for it to finish, or use another --out directory (a holder \
         that died releases the lock by itself)"
    )]
    Busy { file: String, holder: String },
    #[error(
        "game {game} is logged twice, in {first} and in {second}: the log was copied into \
         itself or written by two processes; move one of the two files out of the log \
         (`pocketlab check` lists every problem)"
    )]
    Duplicate {
        game: String,
        first: String,
        second: String,
    },
    #[error("{file} exists already: another process wrote it; refusing to overwrite it")]
    Exists { file: String },
}

impl LogError {
    pub(crate) fn io(path: &Path, e: &std::io::Error) -> LogError {
        LogError::Io {
            file: path.display().to_string(),
            reason: e.to_string(),
        }
    }
}

pub(crate) fn damaged(path: &Path, e: impl std::fmt::Display) -> LogError {
    LogError::Damaged {
        file: path.display().to_string(),
        reason: e.to_string(),
    }
}
