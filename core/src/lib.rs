//! pocketlab-core: the rules of chess variants as data, and an engine to play them.
//!
//! * [`types`]: squares, bitboards, colours, piece types.
//! * [`betza`] and [`movement`]: piece moves from Betza notation to tables.
//! * [`variant`]: variant files (TOML) with inheritance and validation.
//! * [`Position`]: FEN, legal moves ([`movegen`]), copy-make play, hashing.
//! * [`notation`] and [`san`]: the project's move notation and SAN.
//! * [`perft`], [`game`]: move-tree counts, and game status with history.
//!
//! The core parses text it is handed and opens no files.

pub mod betza;
pub mod builtin;
pub mod engine;
pub mod game;
pub mod inherit;
pub mod kind;
pub mod movegen;
pub mod movement;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod potential;
pub mod san;
mod sliders;
pub mod types;
pub mod variant;

pub use game::{Game, GamePosition, GameStatus, IllegalMove, Outcome, Termination};
pub use moves::{Move, MoveList};
pub use position::{CastlingRights, FenError, Position};
pub use types::{Bitboard, ByColor, Color, Piece, PieceType, Square};
pub use variant::{Variant, VariantError};
