//! Replacing a file whole: the new bytes go to a hidden temporary sibling,
//! which is synced and renamed over the file, and then the directory is
//! synced. A kill, crash or power loss leaves the old file or the new
//! one, never a truncated mix for a reader, a resumed run or a later fit
//! to trip on. Reports, training outputs and label files are all written
//! this way (the self-play log has its own writer, which never replaces).

use std::fs::{self, File};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// A file that could not be written, and why.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {source}", path.display())]
pub struct WriteError {
    /// The file asked for (not its temporary sibling).
    pub path: PathBuf,
    /// The error that stopped the write (creating, writing, syncing or
    /// renaming the temporary file, or syncing the directory).
    pub source: io::Error,
}

/// A hidden sibling of `path` for writing it, named by process (two
/// writers never share one) and keeping its extension (the PNG encoder
/// chooses its format by it): `plots/.ladder.4242.tmp.png`.
pub fn temp_sibling(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let pid = std::process::id();
    let name = match path.extension() {
        Some(ext) => format!(".{stem}.{pid}.tmp.{}", ext.to_string_lossy()),
        None => format!(".{stem}.{pid}.tmp"),
    };
    path.with_file_name(name)
}

/// Writes `bytes` to `path` whole or not at all.
pub fn replace_whole(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let temp = temp_sibling(path);
    let written = File::create(&temp).and_then(|mut f| f.write_all(bytes));
    if let Err(source) = written {
        let _ = fs::remove_file(&temp);
        return Err(WriteError {
            path: path.to_path_buf(),
            source,
        });
    }
    commit(&temp, path)
}

/// Moves the finished temporary file `temp` (from [`temp_sibling`]) over
/// `path`: synced first, the directory after. On failure `temp` is removed.
pub fn commit(temp: &Path, path: &Path) -> Result<(), WriteError> {
    let moved = File::open(temp)
        .and_then(|f| f.sync_all())
        .and_then(|()| fs::rename(temp, path));
    if let Err(source) = moved {
        let _ = fs::remove_file(temp);
        return Err(WriteError {
            path: path.to_path_buf(),
            source,
        });
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|source| WriteError {
            path: dir.to_path_buf(),
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of the files in `dir`.
    fn file_names(dir: &Path) -> Vec<std::ffi::OsString> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect()
    }

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.csv");
        replace_whole(&path, b"old").unwrap();
        replace_whole(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let names = file_names(dir.path());
        assert_eq!(names, ["table.csv"]);
    }

    #[test]
    fn a_failed_write_names_the_file_and_keeps_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        // A directory where the file should be: the rename fails.
        let path = dir.path().join("report.html");
        fs::create_dir(&path).unwrap();
        fs::write(path.join("inside"), b"x").unwrap();
        let err = replace_whole(&path, b"new").unwrap_err();
        assert_eq!(err.path, path);
        assert!(err.to_string().contains("report.html"), "{err}");
        assert!(path.join("inside").exists());
        let names = file_names(dir.path());
        assert_eq!(names, ["report.html"]);
    }

    #[test]
    fn the_temporary_sibling_is_hidden_and_keeps_the_extension() {
        let temp = temp_sibling(Path::new("plots/ladder.png"));
        let name = temp.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with(".ladder.") && name.ends_with(".tmp.png"),
            "{name}"
        );
        assert_eq!(temp.parent(), Some(Path::new("plots")));
    }
}
