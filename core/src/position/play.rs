//! Playing moves (copy-make).

use super::Position;
use crate::moves::{Move, castle_king_destination, castle_partner_destination};
use crate::types::{Color, Piece, Square};

impl<'v> Position<'v> {
    /// The position after `mv`, which must be legal (not checked).
    pub fn after(&self, mv: Move) -> Position<'v> {
        let mut next = self.clone();
        next.play_unchecked(mv);
        next
    }

    /// Play `mv` in place. It must be legal here (or at least pseudo-legal,
    /// for the legality test itself); anything else corrupts the position.
    pub fn play_unchecked(&mut self, mv: Move) {
        self.move_pieces(mv);
        self.update_checkers();
    }

    /// [`Self::play_unchecked`] but for the check status, which is left
    /// stale: for the legality test, which asks only whether the mover's
    /// own royal piece is attacked afterwards.
    pub(crate) fn move_pieces(&mut self, mv: Move) {
        let v = self.variant;
        let us = self.side_to_move;
        let them = !us;
        let resets = v.rules.n_move_reset;
        let mut reset = false;
        let mut rights = self.castling.0;
        self.set_en_passant(None);

        match mv {
            Move::Normal { from, to } => {
                reset |= self.capture_on(to);
                let piece = self.remove_piece(from);
                self.put_piece(to, piece);
                if v.is_pawn(piece.kind) {
                    reset |= resets.pawn_move;
                    self.note_double_step(from, to);
                }
                rights &= v.castling_keep[from.index()] & v.castling_keep[to.index()];
            }
            Move::Promotion { from, to, into } => {
                reset |= self.capture_on(to);
                self.remove_piece(from);
                self.put_piece(
                    to,
                    Piece {
                        color: us,
                        kind: into,
                    },
                );
                reset |= resets.promotion || resets.pawn_move;
                rights &= v.castling_keep[from.index()] & v.castling_keep[to.index()];
            }
            Move::EnPassant { from, to } => {
                let victim = to
                    .offset(0, -us.forward())
                    .expect("an en passant victim stands behind the square");
                self.remove_piece(victim);
                let piece = self.remove_piece(from);
                self.put_piece(to, piece);
                reset |= resets.capture || resets.pawn_move;
            }
            Move::Castle { king, partner } => {
                let k = self.remove_piece(king);
                let p = self.remove_piece(partner);
                self.put_piece(castle_king_destination(king, partner), k);
                self.put_piece(castle_partner_destination(king, partner), p);
                rights &= !(CastlingMask::of(us));
            }
            Move::PocketIn { from, into } => {
                self.remove_piece(from);
                self.add_to_pocket(us, into);
                let promotes = us.relative_rank(from.rank()) == 7
                    && v.rules
                        .pocket
                        .as_ref()
                        .is_some_and(|p| p.promote_from_last_rank);
                reset |= resets.pocket_in || (promotes && resets.promotion);
                rights &= v.castling_keep[from.index()];
            }
            Move::Drop { kind, to } => {
                self.take_from_pocket(us, kind);
                self.put_piece(to, Piece { color: us, kind });
                reset |= resets.drop;
            }
        }

        if rights != self.castling.0 {
            self.set_castling(rights);
        }
        self.halfmove_clock = if reset {
            0
        } else {
            self.halfmove_clock.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side_to_move = them;
        self.hash ^= super::zobrist::black_to_move();
    }

    /// The position with the move passed to the other side (for null-move
    /// pruning; never legal in a game).
    pub fn null_move(&self) -> Position<'v> {
        let mut next = self.clone();
        next.set_en_passant(None);
        next.halfmove_clock = next.halfmove_clock.saturating_add(1);
        if next.side_to_move == Color::Black {
            next.fullmove_number = next.fullmove_number.saturating_add(1);
        }
        next.side_to_move = !next.side_to_move;
        next.hash ^= super::zobrist::black_to_move();
        next.update_checkers();
        next
    }

    /// Remove a piece captured on `to`; whether that resets the counter.
    fn capture_on(&mut self, to: Square) -> bool {
        if self.board[to.index()].is_some() {
            self.remove_piece(to);
            self.variant.rules.n_move_reset.capture
        } else {
            false
        }
    }

    /// After a pawn's two-square step, record the skipped square if an
    /// enemy piece could capture there en passant (so equal positions hash equal).
    fn note_double_step(&mut self, from: Square, to: Square) {
        let v = self.variant;
        if !v.rules.en_passant || from.file() != to.file() || from.rank().abs_diff(to.rank()) != 2 {
            return;
        }
        let skipped = Square::from_coords(from.file(), (from.rank() + to.rank()) / 2);
        let them = !self.side_to_move;
        let capturable = v.piece_types().any(|kind| {
            let m = v.moves(them, kind);
            m.has_en_passant
                && (m.rev_leap_en_passant[skipped.index()] & self.pieces(them, kind)).any()
        });
        if capturable {
            self.set_en_passant(Some(skipped));
        }
    }
}

struct CastlingMask;

impl CastlingMask {
    const fn of(color: Color) -> u8 {
        match color {
            Color::White => 0b0011,
            Color::Black => 0b1100,
        }
    }
}
