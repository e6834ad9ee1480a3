//! Self-play training: learn piece values (on the board and in the pocket)
//! from the engine's own games, feed them back, and tell the designer what
//! they imply for the class table.

pub mod config;
pub mod generations;
pub mod labels;
pub mod network;
pub mod proposal;
pub mod samples;
pub mod summary;
pub mod texel;

use std::fs::{self, File};
use std::io::Write as _;
use std::path::Path;

use anyhow::Context;
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

/// Writes `bytes` to `path` whole or not at all: through a synced
/// temporary sibling (named by process, so two writers never share one)
/// renamed over it, then the directory synced. A kill or crash leaves the
/// old file or the new one, never a truncated mix for a resumed run or a
/// later fit to trip on.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".partial-{}", std::process::id()));
    let tmp = path.with_file_name(name);
    let written = File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .with_context(|| format!("{}: cannot write", tmp.display()))
        .and_then(|()| {
            fs::rename(&tmp, path).with_context(|| format!("{}: cannot replace", path.display()))
        });
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    File::open(dir)
        .and_then(|d| d.sync_all())
        .with_context(|| format!("{}: cannot sync the directory", dir.display()))
}
