//! Self-play training: learn piece values (on the board and in the pocket)
//! from the engine's own games, feed them back, and tell the designer what
//! they imply for the class table.

#![warn(missing_docs)]

pub mod config;
pub mod generations;
pub mod labels;
pub mod network;
pub mod network_loop;
pub mod samples;
pub mod summary;
pub mod texel;

use std::path::Path;

use pocketlab_core::engine::EvalParams;

pub use config::TrainingFile;
pub use generations::{GenerationFit, TrainingOutcome, train};

/// Evaluation parameters from an `eval` file (a regular file of TOML); the
/// error names the file.
pub fn load_params(path: &Path) -> anyhow::Result<EvalParams> {
    Ok(pocketlab_selfplay::files::read_eval_params(
        Path::new(""),
        path,
        &|_, _| {},
    )?)
}
