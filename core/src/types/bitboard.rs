//! A set of squares as a 64-bit mask (bit `i` is square `i`, a1 = 0).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::Square;

/// A set of squares. Bit `i` stands for [`Square`] index `i` (a1 = 0, h8 = 63).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);

    /// The set of `sq` alone.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// All squares of one rank (0-based).
    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xff << (8 * rank as u32))
    }

    /// All squares of one file (0-based).
    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u32)
    }

    /// Whether the set has no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has a square.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// How many squares the set has.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` taken out.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// Whether the set has two squares or more (cheaper than counting).
    #[inline]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square of the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The set flipped top to bottom (rank 1 becomes rank 8).
    #[inline]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// The set with files mirrored (the a-file becomes the h-file): each
    /// rank's byte reversed bit for bit.
    #[inline]
    pub const fn flip_horizontal(self) -> Bitboard {
        const K1: u64 = 0x5555_5555_5555_5555;
        const K2: u64 = 0x3333_3333_3333_3333;
        const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
        let mut x = self.0;
        x = ((x >> 1) & K1) | ((x & K1) << 1);
        x = ((x >> 2) & K2) | ((x & K2) << 2);
        x = ((x >> 4) & K4) | ((x & K4) << 4);
        Bitboard(x)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// An 8x8 picture, rank 8 at the top, `X` for members.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::from_coords(file, rank);
                f.write_str(if self.contains(sq) { "X" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_squares_in_ascending_order() {
        let bb = Bitboard::from_square(Square::H8) | Bitboard::from_square(Square::A1);
        let squares: Vec<Square> = bb.collect();
        assert_eq!(squares, vec![Square::A1, Square::H8]);
    }

    #[test]
    fn flip_horizontal_mirrors_every_square_by_file() {
        for sq in Square::all() {
            let mirrored = Bitboard::from_square(sq).flip_horizontal();
            assert_eq!(mirrored, Bitboard::from_square(sq.flip_horizontal()));
            assert_eq!(sq.flip_horizontal().rank(), sq.rank());
            assert_eq!(sq.flip_horizontal().file(), 7 - sq.file());
        }
        let some = Bitboard(0x0123_4567_89ab_cdef);
        assert_eq!(some.flip_horizontal().flip_horizontal(), some);
        assert_eq!(some.flip_horizontal().count(), some.count());
    }

    #[test]
    fn flip_vertical_maps_rank_one_to_rank_eight() {
        assert_eq!(Bitboard::rank(0).flip_vertical(), Bitboard::rank(7));
        assert_eq!(Bitboard::file(3).flip_vertical(), Bitboard::file(3));
    }
}
