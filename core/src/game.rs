//! A game: a start position, the moves played, and its status under the
//! variant's ending rules (mate, stalemate, n-move rule, repetition, dead
//! position).

use std::fmt;

use crate::moves::Move;
use crate::position::{IllegalMove, Position};
use crate::types::Color;
use crate::variant::DeadPosition;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Color),
    Draw,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    Checkmate,
    Stalemate,
    NMoveRule,
    Repetition,
    DeadPosition,
}

impl Termination {
    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::NMoveRule => "n-move",
            Termination::Repetition => "repetition",
            Termination::DeadPosition => "dead-position",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    Ongoing,
    Over {
        outcome: Outcome,
        termination: Termination,
    },
}

impl<'v> Position<'v> {
    /// Status from this position alone: mate, stalemate, the n-move rule and
    /// dead positions (repetition needs the history: see [`Game`]).
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
    pub fn is_bare_kings(&self) -> bool {
        self.occupied().count() == 2
            && self.pocket_size(Color::White) == 0
            && self.pocket_size(Color::Black) == 0
    }
}

/// A game in progress with its history.
#[derive(Clone, Debug)]
pub struct Game<'v> {
    start: Position<'v>,
    position: Position<'v>,
    moves: Vec<Move>,
    /// Hashes of every position so far, the current one last.
    hashes: Vec<u64>,
}

impl<'v> Game<'v> {
    pub fn new(start: Position<'v>) -> Game<'v> {
        let hashes = vec![start.hash()];
        Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            hashes,
        }
    }

    pub fn start(&self) -> &Position<'v> {
        &self.start
    }

    pub fn position(&self) -> &Position<'v> {
        &self.position
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Hashes of every position so far, oldest first, the current one last.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Play a legal move.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.position = self.position.play(mv)?;
        self.moves.push(mv);
        self.hashes.push(self.position.hash());
        Ok(())
    }

    /// Play a move known to be legal (from the position's own move list).
    pub fn play_unchecked(&mut self, mv: Move) {
        self.position.play_unchecked(mv);
        self.moves.push(mv);
        self.hashes.push(self.position.hash());
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn repetitions(&self) -> usize {
        repetitions(&self.hashes)
    }

    pub fn status(&self) -> GameStatus {
        with_repetition(
            self.position.status(),
            self.position.variant().rules.repetition,
            &self.hashes,
        )
    }
}

/// How often the last of `hashes` (the current position) occurs with the
/// same side to move: every second position back from it.
pub(crate) fn repetitions(hashes: &[u64]) -> usize {
    let Some(&current) = hashes.last() else {
        return 0;
    };
    hashes
        .iter()
        .rev()
        .step_by(2)
        .filter(|&&h| h == current)
        .count()
}

/// A position's own status, overridden by a repetition draw (never mate or
/// stalemate, which end the game first) once the position has occurred
/// `needed` times (0: the rule is off).
pub(crate) fn with_repetition(status: GameStatus, needed: u8, hashes: &[u64]) -> GameStatus {
    if let GameStatus::Over {
        termination: Termination::Checkmate | Termination::Stalemate,
        ..
    } = status
    {
        return status;
    }
    if needed > 0 && repetitions(hashes) >= usize::from(needed) {
        return GameStatus::Over {
            outcome: Outcome::Draw,
            termination: Termination::Repetition,
        };
    }
    status
}
