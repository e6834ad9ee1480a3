//! Moves and move lists.

use crate::types::{PieceType, Square};

/// A move. Kept to four bytes (a test pins the size) so move lists and
/// transposition-table entries stay small.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A board move, capturing whatever stands on `to`.
    Normal {
        /// Where the piece stands.
        from: Square,
        /// Where it goes.
        to: Square,
    },
    /// A pawn reaching the promotion zone becomes `into` (FIDE promotion).
    Promotion {
        /// Where the pawn stands.
        from: Square,
        /// Where it goes.
        to: Square,
        /// The piece it becomes.
        into: PieceType,
    },
    /// A pawn capture onto the en passant square.
    EnPassant {
        /// Where the pawn stands.
        from: Square,
        /// The en passant square.
        to: Square,
    },
    /// The royal piece castles with the partner piece on `partner`.
    Castle {
        /// Where the royal piece stands.
        king: Square,
        /// Where the partner (the rook in chess) stands.
        partner: Square,
    },
    /// The piece on `from` goes to the mover's pocket as `into` (its own
    /// type, a mutation within its class, or a promotion from the last rank).
    PocketIn {
        /// Where the piece stands.
        from: Square,
        /// The type it has in the pocket.
        into: PieceType,
    },
    /// A pocketed piece is dropped on `to`.
    Drop {
        /// The type dropped.
        kind: PieceType,
        /// Where it lands.
        to: Square,
    },
}

impl Move {
    /// The square a piece leaves, if any (drops leave none).
    pub fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. }
            | Move::Promotion { from, .. }
            | Move::EnPassant { from, .. }
            | Move::PocketIn { from, .. } => Some(from),
            Move::Castle { king, .. } => Some(king),
            Move::Drop { .. } => None,
        }
    }

    /// The square a piece arrives on, if any (pocket-ins arrive on none;
    /// castling reports the king's destination file on the back rank).
    pub fn to(self) -> Option<Square> {
        match self {
            Move::Normal { to, .. }
            | Move::Promotion { to, .. }
            | Move::EnPassant { to, .. }
            | Move::Drop { to, .. } => Some(to),
            Move::Castle { king, partner } => Some(castle_king_destination(king, partner)),
            Move::PocketIn { .. } => None,
        }
    }
}

/// Where the king lands when castling with the partner on `partner`:
/// the g file towards a partner on its right, the c file otherwise.
pub(crate) fn castle_king_destination(king: Square, partner: Square) -> Square {
    let file = if partner.file() > king.file() { 6 } else { 2 };
    Square::from_coords(file, king.rank())
}

/// Where the partner lands: next to the king, on the side it came from.
pub(crate) fn castle_partner_destination(king: Square, partner: Square) -> Square {
    let file = if partner.file() > king.file() { 5 } else { 3 };
    Square::from_coords(file, king.rank())
}

/// A growable list of moves; positions in the lab's variants can have
/// several hundred legal moves (pocket choices and drops).
pub type MoveList = Vec<Move>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_stays_four_bytes() {
        assert_eq!(size_of::<Move>(), 4);
        assert_eq!(size_of::<Option<Move>>(), 4);
    }
}
