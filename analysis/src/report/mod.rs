//! Balance reports: from Parquet logs to verdicts, tables and plots.

pub mod build;
mod colours;
pub mod model;
pub mod render;

pub use model::Report;
