//! What can be wrong with a log, for every reader and writer of it.

use std::path::Path;

use thiserror::Error;

/// Why a log could not be read or written.
#[derive(Debug, Error)]
pub enum LogError {
    /// A file or directory could not be read, written, synced or locked.
    #[error("{file}: {reason}")]
    Io {
        /// The file or directory.
        file: String,
        /// The system's error, sometimes with a hint.
        reason: String,
    },
    /// A file is not what the log expects there: a chunk with a foreign
    /// name, not a regular file, empty, unreadable, lacking a column, with a
    /// null where none may be, of another schema version or holding another
    /// experiment's games; a manifest that does not parse; or a chunk that
    /// could not be encoded.
    #[error("{file}: damaged or not a pocketlab log file: {reason}")]
    Damaged {
        /// The file.
        file: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A log directory does not fit the request: none given, not a
    /// directory, chunks without a manifest, an `experiment.toml` changed
    /// since the run, a run whose inputs differ from the logged ones, or
    /// logs of two experiments read as one.
    #[error("log directory {dir}: {reason}")]
    Mismatch {
        /// The log directory.
        dir: String,
        /// What does not fit, and how to go on.
        reason: String,
    },
    /// Another live process holds this shard's lock, or writes the log
    /// split into another number of shards.
    #[error(
        "{file}: this shard of the log is being written by {holder}; two writers would lose \
         and duplicate games. Wait for it to finish, or use another --out directory (a holder \
         that died releases the lock by itself)"
    )]
    Busy {
        /// The lock file held.
        file: String,
        /// Who holds the lock, as its lock file says (`host H pid P shard
        /// I/N since T`).
        holder: String,
    },
    /// A game id appears in two rows of the log.
    #[error(
        "game {game} is logged twice, in {first} and in {second}: the log was copied into \
         itself or written by two processes; move one of the two files out of the log \
         (`pocketlab check` lists every problem)"
    )]
    Duplicate {
        /// The game id, with its matchup and pair.
        game: String,
        /// The chunk file it was found in first.
        first: String,
        /// The chunk file it was found in again (maybe `first` itself).
        second: String,
    },
    /// A file about to be published exists already: the log never
    /// overwrites one.
    #[error("{file} exists already: another process wrote it; refusing to overwrite it")]
    Exists {
        /// The file.
        file: String,
    },
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
