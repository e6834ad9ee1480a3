//! Piece types are indices into a variant's piece table; a piece is a type and a side.

use super::Color;

/// Most piece types a variant may define (the Pocket Mutation set uses 19).
pub const MAX_PIECE_TYPES: usize = 32;

/// A piece type: an index into [`crate::Variant::pieces`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PieceType(pub(crate) u8);

impl PieceType {
    /// Its index into the variant's piece table.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// `index` must be below the variant's piece count.
    #[inline]
    pub const fn from_index(index: usize) -> PieceType {
        debug_assert!(index < MAX_PIECE_TYPES);
        PieceType(index as u8)
    }
}

/// A piece on the board or in a pocket: its side and type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its type.
    pub kind: PieceType,
}
