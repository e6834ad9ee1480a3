//! The engine: evaluation from piece definitions and one alpha-beta
//! searcher for every game kind.
//!
//! [`Searcher`] runs iterative-deepening principal-variation search (see
//! its module for every feature), generic over a kind's [`SearchRules`]:
//! [`StandardRules`] for pieces of fixed identity, and
//! [`crate::potential::PotentialRules`] for Potential Chess. With a node or
//! depth limit its result depends only on the position, the history, the
//! settings and the seed.
//!
//! ```
//! use pocketlab_core::engine::{EvalParams, SearchLimits, SearchOptions, Searcher, StandardRules};
//! use pocketlab_core::{Position, builtin};
//!
//! let chess = builtin::load("chess").unwrap();
//! let rules = StandardRules::new(&chess, &EvalParams::default());
//! let mut searcher = Searcher::new(rules, SearchOptions::default());
//! let result = searcher.search(&Position::start(&chess), &[], &SearchLimits::depth(4));
//! assert!(result.best_move.is_some());
//! assert_eq!(result.depth, 4);
//! ```

mod budget;
mod eval;
mod network;
mod params;
mod quiet;
mod rules;
mod search;
mod see;
mod tt;

pub use budget::SearchLimits;
pub use eval::Evaluator;
pub use network::{
    ACTIVATION_ONE, Activation, KING_BUCKET_COUNTS, MAX_BUCKETS, MAX_HIDDEN, MAX_INPUT_WEIGHT,
    MAX_OUTPUT_WEIGHT, Network, NetworkInputs, OUTPUT_UNIT, Views,
};
pub use params::{
    EndgameScale, EvalParams, MAX_WEIGHT, ParamsError, ParamsResolver, PawnlessDraw, Phased,
    SquareTable,
};
pub use quiet::is_quiet;
pub use rules::{MoveOf, MoveTraits, SearchRules, StandardRules};
pub use search::{SearchInfo, SearchOptions, SearchResult, Searcher, StandardSearcher};
pub use see::see;

/// Version of the engine's play: bump it whenever search or evaluation
/// changes what move is chosen in some position (so logged games could no
/// longer be replayed identically). Self-play logs record it and refuse to
/// resume with another, rather than mix games of two engines.
pub const ENGINE_VERSION: u32 = 6;

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
