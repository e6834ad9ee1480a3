//! The engine: evaluation from piece definitions and an alpha-beta searcher.
//!
//! [`Searcher`] runs iterative-deepening principal-variation search with a
//! transposition table, quiescence search, check extension, null-move
//! pruning, late-move reductions and pruning, killer and history ordering,
//! and SEE. With a node or depth limit its result depends only on the
//! position, the history, the settings and the seed.

mod budget;
mod eval;
mod ordering;
mod params;
mod search;
mod see;
pub(crate) mod tt;

pub use eval::Evaluator;
pub use params::{EvalParams, ParamsError, Phased};
pub use search::{SearchInfo, SearchLimits, SearchOptions, SearchResult, Searcher};
pub use see::see;

pub(crate) use budget::{SearchBudget, repeats_in_path};

/// Version of the engine's play: bump it whenever search or evaluation
/// changes what move is chosen in some position (so logged games could no
/// longer be replayed identically). Self-play logs record it and refuse to
/// resume with another, rather than mix games of two engines.
pub const ENGINE_VERSION: u32 = 1;

/// Scores at or beyond this are mates.
pub const MATE: i32 = 30_000;
/// Scores beyond this magnitude announce a mate within `MATE - score` plies.
pub const MATE_BOUND: i32 = MATE - 1_000;
pub(crate) const INFINITY: i32 = 32_000;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;

/// Plies to mate for a mate score (positive: the side to move mates).
pub fn mate_distance(score: i32) -> Option<i32> {
    (score.abs() >= MATE_BOUND).then(|| (MATE - score.abs()) * score.signum())
}
