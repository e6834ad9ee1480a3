//! The one error type of rendering: every variant names the file it was
//! about, so a failed report run says which file and why.

use std::io;
use std::path::PathBuf;

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// An output directory could not be created.
    #[error("cannot create directory {}: {source}", path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// A file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// A plot could not be drawn.
    #[error("cannot draw {}: {reason}", path.display())]
    Draw {
        /// The plot's file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// A CSV table could not be written.
    #[error("cannot write table {}: {reason}", path.display())]
    Table {
        /// The table's file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// The font the plots are drawn with could not be loaded.
    #[error("cannot load the plot font (assets/DejaVuSans.ttf): {reason}")]
    Font {
        /// Why, in words.
        reason: String,
    },
}

impl From<pocketlab_selfplay::files::WriteError> for RenderError {
    fn from(e: pocketlab_selfplay::files::WriteError) -> RenderError {
        RenderError::Write {
            path: e.path,
            source: e.source,
        }
    }
}
