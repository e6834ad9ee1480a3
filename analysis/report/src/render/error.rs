//! The one error type of rendering: every variant names the file it was
//! about, so a failed report run says which file and why.

use std::io;
use std::path::PathBuf;

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("cannot create directory {}: {source}", path.display())]
    CreateDir { path: PathBuf, source: io::Error },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    #[error("cannot draw {}: {reason}", path.display())]
    Draw { path: PathBuf, reason: String },
    #[error("cannot write table {}: {reason}", path.display())]
    Table { path: PathBuf, reason: String },
    #[error("cannot load the plot font (assets/DejaVuSans.ttf): {reason}")]
    Font { reason: String },
}

impl From<pocketlab_selfplay::files::WriteError> for RenderError {
    fn from(e: pocketlab_selfplay::files::WriteError) -> RenderError {
        RenderError::Write {
            path: e.path,
            source: e.source,
        }
    }
}
