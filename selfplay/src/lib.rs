//! pocketlab-selfplay: experiments as files, played in parallel, logged to Parquet.

pub mod sprt;
pub mod variant_files;

pub use variant_files::load_variant;
