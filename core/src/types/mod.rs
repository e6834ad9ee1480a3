//! The small typed vocabulary everything else is written in.

mod bitboard;
mod color;
mod piece;
mod square;

pub use bitboard::Bitboard;
pub use color::{ByColor, Color};
pub use piece::{MAX_PIECE_TYPES, Piece, PieceType};
pub use square::{ParseSquareError, Square};
