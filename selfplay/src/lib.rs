//! pocketlab-selfplay: experiments as files, played in parallel, logged to Parquet.
//!
//! * [`experiment`]: experiment files, armies, generators, validation.
//! * [`game`]: one colour-swapped pair of any game kind, reproducible from
//!   its seed.
//! * [`runner`]: the parallel, resumable, shardable runner.
//! * [`log`]: the Parquet schema, atomic chunk writing, reading back.
//! * [`pgn`]: PGN export of logged games.

#![warn(missing_docs)]

pub mod check;
pub mod experiment;
pub mod files;
pub mod game;
pub mod hash;
pub mod log;
pub mod pgn;
mod progress;
pub mod runner;
mod summary;
pub mod uci_player;
pub mod variant_files;

pub use experiment::{AbsentEval, Experiment, ExperimentError, LoggedRulesError};
pub use runner::{
    DEFAULT_MEMORY_BUDGET_MB, PairScores, RunOptions, RunSummary, Shard, StagePairs, StagePlanner,
    StageRange, StageReport, check_memory, pair_scores, run, run_stages,
};
pub use variant_files::load_variant;

/// The code version recorded in run manifests.
pub fn code_version() -> String {
    format!("pocketlab {}", env!("CARGO_PKG_VERSION"))
}
