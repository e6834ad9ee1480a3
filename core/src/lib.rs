//! pocketlab-core: the rules of chess variants as data, and an engine to play them.
//!
//! Rules and pieces:
//!
//! * `types`: squares ([`Square`]), bitboards ([`Bitboard`]), colours
//!   ([`Color`]), piece types ([`PieceType`]).
//! * [`betza`] and `movement`: piece moves from Betza notation to tables
//!   (`sliders`: the magic-bitboard rook and bishop lines they use).
//! * [`variant`]: variant files (TOML) with inheritance and validation;
//!   [`inherit`] follows `inherits` links for every kind of file, and
//!   [`builtin`] embeds the shipped variants.
//!
//! Positions and games:
//!
//! * [`Position`] (`position`): FEN, copy-make play, hashing; legal moves
//!   from `movegen`, as [`Move`]s (`moves`).
//! * [`potential`]: Potential Chess, whose pieces are narrowed by the moves
//!   they make.
//! * `game`: what every game kind offers ([`GamePosition`]), game status,
//!   and a [`Game`] with its history; [`kind`] chooses the kind a variant is
//!   played as, the one path the layers above use.
//! * [`notation`] and [`san`]: the project's move notation and SAN.
//! * [`perft`]: move-tree counts, to check move generation.
//!
//! The engine:
//!
//! * [`engine`]: evaluation and one alpha-beta searcher for every game kind.
//!
//! The core parses text it is handed and opens no files. A variant from its
//! TOML text, with `inherits` resolved by the caller (here among the
//! shipped variants):
//!
//! ```rust
//! use pocketlab_core::{GamePosition, Position, builtin, kind};
//!
//! let text = r#"
//! name = "chess-without-en-passant"
//! inherits = "chess"
//! en_passant = false
//! "#;
//! let variant = kind::parse_variant("mine.toml", text, &|name| builtin::resolve(name)).unwrap();
//! assert!(!variant.rules.en_passant);
//! assert_eq!(Position::start(&variant).legal_moves().len(), 20);
//! ```

#![warn(missing_docs)]

pub mod betza;
pub mod builtin;
pub mod engine;
mod game;
pub mod inherit;
pub mod kind;
mod movegen;
mod movement;
mod moves;
pub mod notation;
pub mod perft;
mod position;
pub mod potential;
pub mod san;
mod sliders;
mod types;
pub mod variant;

pub use game::{
    Game, GamePosition, GameStatus, IllegalMove, MoveEvent, MoveFacts, Outcome, Termination,
};
pub use moves::{Move, MoveList};
pub use position::{CastlingRights, FenError, Position};
pub use types::{
    Bitboard, ByColor, Color, MAX_PIECE_TYPES, ParseSquareError, Piece, PieceType, Square, splitmix,
};
pub use variant::{Variant, VariantError};
