//! pocketlab-analysis: balance statistics and reports, and the `pocketlab` CLI.

pub mod cli;
pub mod stats;
