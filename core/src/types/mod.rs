//! The small typed vocabulary everything else is written in.

mod bitboard;
mod color;
mod piece;
mod square;

pub use bitboard::Bitboard;
pub use color::{ByColor, Color};
pub use piece::{MAX_PIECE_TYPES, Piece, PieceType};
pub use square::{ParseSquareError, Square};

/// The SplitMix64 mixing function: a well-spread 64-bit hash of `x`, for
/// seeds, keys and reproducible noise (the one copy in the lab).
pub const fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
