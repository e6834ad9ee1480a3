//! How a position ends a game, and the position as a [`GamePosition`].

use super::Position;
use crate::game::{GamePosition, GameStatus, MoveEvent, MoveFacts, Outcome, Termination};
use crate::moves::Move;
use crate::notation::{self, NotationError};
use crate::types::Color;
use crate::variant::DeadPosition;

impl Position<'_> {
    /// Status from this position alone: mate, stalemate, the n-move rule and
    /// dead positions (repetition needs the history: see [`crate::Game`]).
    pub fn status(&self) -> GameStatus {
        let over = |outcome, termination| GameStatus::Over {
            outcome,
            termination,
        };
        if self.count_legal_moves() == 0 {
            return if self.is_check() {
                over(Outcome::Win(!self.side_to_move()), Termination::Checkmate)
            } else {
                over(Outcome::Draw, Termination::Stalemate)
            };
        }
        let rules = &self.variant().rules;
        if rules.n_move_rule > 0 && self.halfmove_clock() >= rules.n_move_rule {
            return over(Outcome::Draw, Termination::NMoveRule);
        }
        if rules.dead_position == DeadPosition::KingsOnly && self.is_bare_kings() {
            return over(Outcome::Draw, Termination::DeadPosition);
        }
        GameStatus::Ongoing
    }

    /// Only the two royal pieces on the board and both pockets empty.
    pub(crate) fn is_bare_kings(&self) -> bool {
        self.occupied().count() == 2
            && self.pocket_size(Color::White) == 0
            && self.pocket_size(Color::Black) == 0
    }

    /// The piece `mv` captures, if any (en passant: the pawn passed by).
    pub(crate) fn captured_by(&self, mv: Move) -> Option<crate::Piece> {
        match mv {
            Move::EnPassant { to, .. } => to
                .offset(0, -self.side_to_move().forward())
                .and_then(|s| self.piece_at(s)),
            Move::Normal { to, .. } | Move::Promotion { to, .. } => self.piece_at(to),
            _ => None,
        }
    }

    /// Whether pocketing from `from` promotes (the owner's last rank, with
    /// promotion by pocketing on).
    pub(crate) fn pocket_in_promotes(&self, from: crate::Square) -> bool {
        self.side_to_move().relative_rank(from.rank()) == 7
            && self
                .variant()
                .rules
                .pocket
                .as_ref()
                .is_some_and(|r| r.promote_from_last_rank)
    }
}

impl GamePosition for Position<'_> {
    type Move = Move;
    type MoveTextError = NotationError;

    fn side_to_move(&self) -> Color {
        Position::side_to_move(self)
    }

    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    fn halfmove_clock(&self) -> u16 {
        Position::halfmove_clock(self)
    }

    fn fullmove_number(&self) -> u16 {
        Position::fullmove_number(self)
    }

    fn is_check(&self) -> bool {
        Position::is_check(self)
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.append_legal_moves(moves);
    }

    fn successor(&self, mv: Move) -> Option<Self> {
        Some(self.after(mv))
    }

    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self)
    }

    fn count_legal_moves(&self) -> u64 {
        Position::count_legal_moves(self)
    }

    fn status(&self) -> GameStatus {
        Position::status(self)
    }

    fn repetition_rule(&self) -> u8 {
        self.variant().rules.repetition
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format(self, mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        notation::parse(self, text)
    }

    fn to_text(&self) -> String {
        self.to_fen()
    }

    fn move_facts(&self, mv: Move) -> MoveFacts {
        let v = self.variant();
        let letter = |k| v.letter(k).to_string();
        let piece = match mv {
            Move::Drop { kind, .. } => letter(kind),
            _ => mv
                .from()
                .and_then(|from| self.piece_at(from))
                .map(|p| letter(p.kind))
                .unwrap_or_default(),
        };
        let capture = self.captured_by(mv).map(|p| letter(p.kind));
        let event = match mv {
            Move::PocketIn { from, into } => {
                let own = self.piece_at(from).map(|p| p.kind);
                Some(MoveEvent::PocketIn {
                    piece: own.map_or('?', |k| v.letter(k)),
                    into: v.letter(into),
                    promotion: own != Some(into) && self.pocket_in_promotes(from),
                })
            }
            Move::Drop { kind, .. } => Some(MoveEvent::Drop {
                piece: v.letter(kind),
            }),
            Move::Promotion { into, .. } => Some(MoveEvent::Promotion {
                piece: piece.clone(),
                into: v.letter(into),
            }),
            _ => None,
        };
        MoveFacts {
            piece,
            capture,
            event,
        }
    }

    fn play(&self, mv: Move) -> Result<Self, crate::game::IllegalMove> {
        if self.is_legal(mv) {
            Ok(self.after(mv))
        } else {
            Err(crate::game::IllegalMove {
                text: format!("{mv:?}"),
                position: self.to_fen(),
            })
        }
    }
}
