//! Balance reports: from Parquet logs to verdicts, tables and plots.
//!
//! Reading the log (`read`) is kept apart from the statistics (the pawn
//! unit, matchups, groups, balance, colours) and from their wording, and
//! [`build`] puts the three together into the one [`Report`] every
//! renderer reads.

#![warn(missing_docs)]

pub mod adaptive;
mod advice;
mod balance;
pub mod build;
mod calibration;
mod colours;
pub mod compare;
mod components;
pub mod games;
mod groups;
mod matchups;
pub mod model;
pub mod paired;
pub mod proposal;
pub mod published_values;
pub(crate) mod read;
pub mod render;
pub mod scale_study;
pub mod synthetic;
mod value_scale;
mod wording;

pub use model::Report;
