//! Squares of the 8x8 board.

use std::fmt;
use std::str::FromStr;

/// A square, a1 = 0 ... h8 = 63 (file-major within a rank).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The first square (index 0).
    pub const A1: Square = Square(0);
    /// The last square (index 63).
    pub const H8: Square = Square(63);

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The square of `index` (a1 = 0), if below 64.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// `index` must be below 64; callers derive it from bit positions.
    #[inline]
    pub const fn new_unchecked(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// File and rank are 0-based and must be below 8.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    /// The square at `(file + dx, rank + dy)` if it is on the board.
    #[inline]
    pub const fn offset(self, dx: i8, dy: i8) -> Option<Square> {
        let file = self.file() as i8 + dx;
        let rank = self.rank() as i8 + dy;
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square::from_coords(file as u8, rank as u8))
        } else {
            None
        }
    }

    /// 0 for a1 up to 63 for h8.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file (0 is the a-file).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0-based rank (0 is the first rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The same square seen from the other side of the board.
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square with its file mirrored (a becomes h), rank kept.
    #[inline]
    pub const fn flip_horizontal(self) -> Square {
        Square(self.0 ^ 7)
    }

    /// Chebyshev (king-move) distance.
    #[inline]
    pub const fn distance(self, other: Square) -> u8 {
        let df = self.file().abs_diff(other.file());
        let dr = self.rank().abs_diff(other.rank());
        if df > dr { df } else { dr }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The text was not a square name such as `e4`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a square (expected a file a-h and a rank 1-8, e.g. e4)",
            self.0
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square::from_coords(f - b'a', r - b'1')),
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
    }

    #[test]
    fn offsets_stay_on_the_board() {
        assert_eq!(Square::A1.offset(-1, 0), None);
        assert_eq!(
            Square::A1.offset(1, 2).map(|s| s.to_string()),
            Some("b3".into())
        );
        assert_eq!(Square::H8.offset(0, 1), None);
    }
}
