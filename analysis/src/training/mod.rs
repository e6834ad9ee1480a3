//! Self-play training: learn piece values (on the board and in the pocket)
//! from the engine's own games, feed them back, and tell the designer what
//! they imply for the class table.

pub mod config;
pub mod generations;
pub mod samples;
pub mod summary;
pub mod texel;

pub use config::TrainingFile;
pub use generations::{GenerationFit, TrainingOutcome, train};
