//! Who writes a log: one process per shard, enforced by an advisory lock,
//! and temporary file names that no other writer can share.
//!
//! A shard's writer holds `locks/shard-I.lock` (an exclusive `flock`, which
//! Linux NFS and CephFS carry across hosts) for its whole run; a second
//! writer of the same shard is refused with the first one's host and pid,
//! read from the lock file. The lock dies with its process (SIGKILL and
//! power loss included; on NFS when the client's lease expires), so a
//! crashed run never blocks a restart.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use super::error::LogError;
use super::{LOCKS_DIR, sync_dir};

/// This process, as other writers are told about it: `host pid`.
pub(crate) fn writer_identity() -> &'static str {
    static IDENTITY: OnceLock<String> = OnceLock::new();
    IDENTITY.get_or_init(|| format!("host {} pid {}", host_name(), std::process::id()))
}

fn host_name() -> String {
    let from_kernel = fs::read_to_string("/proc/sys/kernel/hostname").ok();
    from_kernel
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown-host".to_owned())
}

/// A token unique to this process among all writers of a shared directory:
/// host name, pid and a random number. The pid alone is not enough: every
/// pod of a Kubernetes job is pid 1, and containers share host names less
/// often than one would hope.
fn process_token() -> &'static str {
    static TOKEN: OnceLock<String> = OnceLock::new();
    TOKEN.get_or_init(|| {
        use std::hash::{BuildHasher as _, RandomState};
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        // RandomState is seeded from the operating system's randomness.
        let nonce = RandomState::new().hash_one((now, std::process::id()));
        let host: String = host_name()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .take(40)
            .collect();
        format!("{host}-{}-{nonce:016x}", std::process::id())
    })
}

/// A temporary name beside `path` that only this process uses (and, with
/// a counter, only this call): `.tmp-NAME.TOKEN.N`.
pub(crate) fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!("{TEMP_PREFIX}{name}.{}.{n}", process_token()))
}

/// Temporary files start with this; readers skip them.
pub const TEMP_PREFIX: &str = ".tmp-";

/// The exclusive right to write one shard's chunks, held until dropped.
#[derive(Debug)]
pub struct ShardLock {
    file: File,
    /// The lock file, `locks/shard-I.lock`.
    pub path: PathBuf,
}

fn lock_path(dir: &Path, index: u32) -> PathBuf {
    dir.join(LOCKS_DIR).join(format!("shard-{index}.lock"))
}

/// What a lock file says about its holder: `host H pid P shard I/N since T`.
fn holder_text(index: u32, count: u32) -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!(
        "{} shard {index}/{count} since unix time {since}\n",
        writer_identity()
    )
}

fn read_holder(file: &mut File) -> String {
    let mut text = String::new();
    let _ = file.seek(SeekFrom::Start(0));
    let _ = file.take(1024).read_to_string(&mut text);
    let text = text.trim();
    if text.is_empty() {
        "another process (it has not said which yet)".to_owned()
    } else {
        text.to_owned()
    }
}

fn shard_count_of(holder: &str) -> Option<u32> {
    let spec = holder
        .split_whitespace()
        .skip_while(|w| *w != "shard")
        .nth(1)?;
    spec.split_once('/')?.1.parse().ok()
}

impl ShardLock {
    /// Take shard `index`'s lock in `dir` for a run of `count` shards, or
    /// say who holds it. Also refuses to run beside a live writer that
    /// splits the schedule into another number of shards (the two would
    /// play the same pairs).
    pub fn acquire(dir: &Path, index: u32, count: u32) -> Result<ShardLock, LogError> {
        let locks = dir.join(LOCKS_DIR);
        fs::create_dir_all(&locks).map_err(|e| LogError::io(&locks, &e))?;
        let path = lock_path(dir, index);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| LogError::io(&path, &e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(LogError::Busy {
                    file: path.display().to_string(),
                    holder: read_holder(&mut file),
                });
            }
            Err(TryLockError::Error(e)) => {
                return Err(LogError::Io {
                    file: path.display().to_string(),
                    reason: format!(
                        "cannot lock it: {e} (the log directory must be on a file system with \
                         file locks, e.g. local disk, NFSv4, CephFS)"
                    ),
                });
            }
        }
        let text = holder_text(index, count);
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)).map(drop))
            .and_then(|()| file.write_all(text.as_bytes()))
            .and_then(|()| file.sync_all())
            .map_err(|e| LogError::io(&path, &e))?;
        sync_dir(&locks)?;
        let lock = ShardLock { file, path };
        lock.refuse_other_counts(dir, index, count)?;
        Ok(lock)
    }

    /// Another shard's lock that is held and names another shard count.
    fn refuse_other_counts(&self, dir: &Path, index: u32, count: u32) -> Result<(), LogError> {
        let locks = dir.join(LOCKS_DIR);
        let entries = fs::read_dir(&locks).map_err(|e| LogError::io(&locks, &e))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path == lock_path(dir, index) || path.extension().is_none_or(|e| e != "lock") {
                continue;
            }
            let Ok(mut other) = File::open(&path) else {
                continue;
            };
            let holder = read_holder(&mut other);
            if shard_count_of(&holder).is_none_or(|c| c == count) {
                continue;
            }
            // Stale text from a finished or crashed run is harmless: only a
            // held lock means a live writer. (Probing takes a shared lock
            // for an instant, which cannot disturb a holder.)
            if let Err(TryLockError::WouldBlock) = other.try_lock_shared() {
                return Err(LogError::Busy {
                    file: path.display().to_string(),
                    holder: format!(
                        "{holder}: a run split into {} shards is writing this log, and this one is \
                         split into {count}; the two would play the same pairs (use one shard \
                         count at a time)",
                        shard_count_of(&holder).unwrap_or(0)
                    ),
                });
            }
        }
        Ok(())
    }
}

impl Drop for ShardLock {
    fn drop(&mut self) {
        // Say the shard is free (the lock itself goes with the file).
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_of_a_shard_is_told_who_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        let first = ShardLock::acquire(dir.path(), 0, 2).unwrap();
        let err = ShardLock::acquire(dir.path(), 0, 2)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(writer_identity()) && err.contains("shard 0/2"),
            "{err}"
        );
        // Another shard of the same split is welcome; another split is not.
        let other = ShardLock::acquire(dir.path(), 1, 2).unwrap();
        let err = ShardLock::acquire(dir.path(), 2, 3)
            .unwrap_err()
            .to_string();
        assert!(err.contains("split into 2 shards"), "{err}");
        drop((first, other));
        ShardLock::acquire(dir.path(), 0, 1).unwrap();
    }

    #[test]
    fn temp_names_differ_per_call() {
        let p = Path::new("/x/part-s0-000001.parquet");
        let (a, b) = (temp_path(p), temp_path(p));
        assert_ne!(a, b);
        assert!(
            a.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".tmp-part-s0-000001.parquet.")
        );
    }
}
