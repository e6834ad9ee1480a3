//! Zobrist keys, generated at compile time from a fixed seed.

use crate::types::{Color, MAX_PIECE_TYPES, PieceType, Square, splitmix};

/// Most pieces of one type a pocket can hold that the hash distinguishes.
pub(crate) const MAX_POCKET_COUNT: usize = 16;

const PIECE_KEYS: usize = 2 * MAX_PIECE_TYPES * 64;
const POCKET_KEYS: usize = 2 * MAX_PIECE_TYPES * (MAX_POCKET_COUNT + 1);
const TOTAL: usize = PIECE_KEYS + POCKET_KEYS + 16 + 8 + 1;

static KEYS: [u64; TOTAL] = {
    let mut keys = [0u64; TOTAL];
    let mut state = 0x05ee_d0fb_0a4d_u64;
    let mut i = 0;
    while i < TOTAL {
        keys[i] = splitmix(state);
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        i += 1;
    }
    keys
};

#[inline]
pub fn piece(color: Color, kind: PieceType, sq: Square) -> u64 {
    KEYS[(color.index() * MAX_PIECE_TYPES + kind.index()) * 64 + sq.index()]
}

/// Key of holding `count` pieces of `kind` in the pocket; zero for none,
/// so a change of count XORs out the old key and XORs in the new one.
#[inline]
pub fn pocket(color: Color, kind: PieceType, count: u8) -> u64 {
    if count == 0 {
        return 0;
    }
    let count = usize::from(count).min(MAX_POCKET_COUNT);
    KEYS[PIECE_KEYS
        + (color.index() * MAX_PIECE_TYPES + kind.index()) * (MAX_POCKET_COUNT + 1)
        + count]
}

#[inline]
pub fn castling(rights: u8) -> u64 {
    KEYS[PIECE_KEYS + POCKET_KEYS + usize::from(rights & 15)]
}

#[inline]
pub fn en_passant(sq: Square) -> u64 {
    KEYS[PIECE_KEYS + POCKET_KEYS + 16 + usize::from(sq.file())]
}

#[inline]
pub(crate) fn black_to_move() -> u64 {
    KEYS[TOTAL - 1]
}
