//! What the report's integration tests share: experiments played in a
//! fresh folder.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pocketlab_selfplay::{Experiment, RunOptions, Shard, run};

/// `experiment` played in a fresh folder beside `files` (name, text): the
/// folder and the log's directory in it.
pub fn played(experiment: &str, files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let work = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(work.path().join(name), text).unwrap();
    }
    let path = work.path().join("experiment.toml");
    std::fs::write(&path, experiment).unwrap();
    let exp = Experiment::load(&path).unwrap();
    let log = work.path().join("log");
    let options = RunOptions {
        out_dir: log.clone(),
        threads: 2,
        shard: Shard::WHOLE,
        quiet: true,
    };
    run(&exp, &options, &Arc::new(AtomicBool::new(false))).unwrap();
    (work, log)
}
