//! File writing: create directories and remove stale files; files are
//! replaced whole by [`pocketlab_selfplay::files`], so an interrupted run leaves the
//! previous file or the new one, never a truncated mix.

use std::fs;
use std::path::Path;

use pocketlab_selfplay::files::create_output_dir;

use super::error::RenderError;

pub(super) fn create_dir(path: &Path) -> Result<(), RenderError> {
    create_output_dir(path).map_err(|source| RenderError::CreateDir {
        path: path.to_path_buf(),
        source,
    })
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
