//! How a Potential Chess position ends a game, and the position as a
//! [`GamePosition`].

use super::{PotentialMove, PotentialNotationError, PotentialPosition};
use crate::game::{
    GamePosition, GameStatus, IllegalMove, MoveEvent, MoveFacts, Outcome, Termination,
};
use crate::types::Color;

impl PotentialPosition<'_> {
    /// Status from this position alone: no legal move (checkmate or
    /// stalemate by rule 6), the n-move rule, the dead position of one piece
    /// each. Repetition needs the history: see [`crate::Game`].
    pub fn status(&self) -> GameStatus {
        let over = |outcome, termination| GameStatus::Over {
            outcome,
            termination,
        };
        if !self.has_legal_move() {
            return if self.is_check() {
                over(Outcome::Win(!self.side), Termination::Checkmate)
            } else {
                over(Outcome::Draw, Termination::Stalemate)
            };
        }
        let n = self.army.variant.rules.n_move_rule;
        if n > 0 && self.halfmove_clock >= n {
            return over(Outcome::Draw, Termination::NMoveRule);
        }
        if self.colors.white.count() == 1 && self.colors.black.count() == 1 {
            return over(Outcome::Draw, Termination::DeadPosition);
        }
        GameStatus::Ongoing
    }
}

impl GamePosition for PotentialPosition<'_> {
    type Move = PotentialMove;
    type MoveTextError = PotentialNotationError;

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    fn is_check(&self) -> bool {
        PotentialPosition::is_check(self)
    }

    fn generate_moves(&self, moves: &mut Vec<PotentialMove>) {
        moves.extend(self.pseudo_legal_moves());
    }

    fn successor(&self, mv: PotentialMove) -> Option<Self> {
        self.apply(mv)
    }

    fn legal_moves(&self) -> Vec<PotentialMove> {
        PotentialPosition::legal_moves(self)
    }

    fn count_legal_moves(&self) -> u64 {
        PotentialPosition::count_legal_moves(self)
    }

    fn status(&self) -> GameStatus {
        PotentialPosition::status(self)
    }

    fn repetition_rule(&self) -> u8 {
        self.army.variant.rules.repetition
    }

    fn format_move(&self, mv: PotentialMove) -> String {
        PotentialPosition::format_move(self, mv)
    }

    fn parse_move(&self, text: &str) -> Result<PotentialMove, PotentialNotationError> {
        PotentialPosition::parse_move(self, text)
    }

    fn to_text(&self) -> String {
        PotentialPosition::to_text(self)
    }

    /// The mover's token before the move, the captured piece's name, and
    /// promotions (a promoting piece is a pawn).
    fn move_facts(&self, mv: PotentialMove) -> MoveFacts {
        let army = self.army;
        let piece = self
            .piece_at(mv.from)
            .map(|p| army.piece_token(p.potential, p.promoted, p.color))
            .unwrap_or_default();
        let event = mv.promotion.map(|into| MoveEvent::Promotion {
            piece: army
                .pawn
                .map_or_else(String::new, |p| army.letter(p).to_string()),
            into: army.letter(into),
        });
        MoveFacts {
            piece,
            capture: mv.captured.map(|t| army.letter(t).to_string()),
            event,
        }
    }

    /// The position after a legal move; the error says why it is not.
    fn play(&self, mv: PotentialMove) -> Result<Self, IllegalMove> {
        let illegal = |why: String| IllegalMove {
            text: why,
            position: self.to_text(),
        };
        if !self.pseudo_legal_moves().contains(&mv) {
            return Err(illegal(format!("{mv:?} (not a move here)")));
        }
        self.apply(mv).ok_or_else(|| {
            illegal(format!(
                "{} (leaves the mover with no consistent army)",
                self.format_move(mv)
            ))
        })
    }
}
