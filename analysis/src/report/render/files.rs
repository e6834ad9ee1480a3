//! File writing: create directories, and replace files by write-then-rename
//! so that an interrupted run leaves the previous file or the new one,
//! never a truncated mix.

use std::fs;
use std::path::{Path, PathBuf};

use super::error::RenderError;

pub(super) fn create_dir(path: &Path) -> Result<(), RenderError> {
    fs::create_dir_all(path).map_err(|source| RenderError::CreateDir {
        path: path.to_path_buf(),
        source,
    })
}

/// A hidden sibling of `path` that keeps its extension (the PNG encoder
/// chooses its format by extension): `plots/.ladder.tmp.png`.
pub(super) fn temp_path(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!(".{stem}.tmp.{}", ext.to_string_lossy()),
        None => format!(".{stem}.tmp"),
    };
    path.with_file_name(name)
}

/// Moves a finished temporary file into place.
pub(super) fn commit(temp: &Path, path: &Path) -> Result<(), RenderError> {
    fs::rename(temp, path).map_err(|source| {
        let _ = fs::remove_file(temp);
        RenderError::Write {
            path: path.to_path_buf(),
            source,
        }
    })
}

pub(super) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RenderError> {
    let temp = temp_path(path);
    fs::write(&temp, bytes).map_err(|source| {
        let _ = fs::remove_file(&temp);
        RenderError::Write {
            path: path.to_path_buf(),
            source,
        }
    })?;
    commit(&temp, path)
}

/// Removes a file left by an earlier run that this run has nothing to put
/// in (a plot whose data is now empty), so the directory never shows stale
/// results. A file that is already absent is fine.
pub(super) fn remove_stale(path: &Path) -> Result<(), RenderError> {
    match fs::remove_file(path) {
        Err(source) if source.kind() != std::io::ErrorKind::NotFound => Err(RenderError::Write {
            path: path.to_path_buf(),
            source,
        }),
        _ => Ok(()),
    }
}
