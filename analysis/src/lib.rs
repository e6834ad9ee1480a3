//! pocketlab-analysis: balance statistics and reports, and the `pocketlab` CLI.

pub mod cli;
pub mod cpu;
pub mod files;
pub mod quiet;
pub mod report;
pub mod stats;
pub mod synthetic;
pub mod training;
