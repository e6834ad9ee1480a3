//! What every kind of game offers, and a game in progress.
//!
//! [`GamePosition`] is the one interface the layers above use to play a
//! position of any game kind: generate moves, play them, hash, side to move,
//! status, move notation and position text. The orthodox
//! [`Position`](crate::Position) (chess, Pocket Mutation Chess, Chess
//! Mutation) and [`PotentialPosition`](crate::potential::PotentialPosition)
//! implement it. [`Game`] (a start, the moves and the status with
//! repetition) and [`perft`](crate::perft::perft) are generic over it, and
//! [`crate::kind`] chooses the kind from a variant.

use std::fmt;
use std::hash::Hash;

use crate::types::Color;

/// How a finished game came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side that won.
    Win(Color),
    /// Neither side won.
    Draw,
}

/// Why a game ended under the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// The variant's n-move rule: too many plies without a reset.
    NMoveRule,
    /// The same position occurred as often as the variant's rule says.
    Repetition,
    /// Neither side can mate (the variant's dead-position rule).
    DeadPosition,
}

impl Termination {
    /// The name logs and reports write.
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

/// Whether a game goes on, and if not, how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// The side to move has a legal move and no rule ends the game.
    Ongoing,
    /// The game is over.
    Over {
        /// Who won, if anyone.
        outcome: Outcome,
        /// The rule that ended the game.
        termination: Termination,
    },
}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move as the position's notation writes it (or its debug form
    /// when it is not even a move of the position).
    pub text: String,
    /// The position, as its own text (FEN or potential text).
    pub position: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "illegal move {} in position {}",
            self.text, self.position
        )
    }
}

impl std::error::Error for IllegalMove {}

/// What a move did to the pockets or the promotion rules, as the self-play
/// log counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveEvent {
    /// A piece went to its owner's pocket, keeping its type (`into` equals
    /// `piece`) or becoming `into`: a mutation within its class, or a
    /// promotion by pocketing from the last rank (`promotion`).
    PocketIn {
        /// The piece's letter before the move.
        piece: char,
        /// Its letter in the pocket.
        into: char,
        /// Whether it was a promotion by pocketing.
        promotion: bool,
    },
    /// A pocketed piece was dropped.
    Drop {
        /// The dropped piece's letter.
        piece: char,
    },
    /// A pawn promoted on the board (`piece` is the mover as the log writes it).
    Promotion {
        /// The pawn's text.
        piece: String,
        /// The letter of the piece it became.
        into: char,
    },
}

/// What the log records of a move besides its notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveFacts {
    /// The moving piece as the position's text writes it (a letter, or a
    /// potential token); empty when none.
    pub piece: String,
    /// The captured piece, likewise (for Potential Chess, the name given).
    pub capture: Option<String>,
    /// What the move did to pockets or promotion, if anything.
    pub event: Option<MoveEvent>,
}

/// A position of some game kind, as the layers above play it.
///
/// Moves come from [`GamePosition::generate_moves`]; a kind may generate
/// pseudo-legal moves, in which case [`GamePosition::successor`] returns
/// `None` for the illegal ones (Potential Chess decides legality by playing
/// the move). Positions are values: playing a move returns a new one.
pub trait GamePosition: Clone + fmt::Debug {
    /// A move of this kind's positions.
    type Move: Copy + Eq + Hash + fmt::Debug;
    /// Why a move text was rejected.
    type MoveTextError: std::error::Error + Send + Sync + 'static;

    /// The side whose turn it is.
    fn side_to_move(&self) -> Color;
    /// A hash of everything that decides a repetition (not the counters).
    fn hash(&self) -> u64;
    /// Plies since the last move that resets the n-move counter.
    fn halfmove_clock(&self) -> u16;
    /// The move number, from 1, counted up after Black's move.
    fn fullmove_number(&self) -> u16;
    /// Whether the side to move is in check (for Potential Chess: every
    /// piece that could be its king is attackable).
    fn is_check(&self) -> bool;

    /// Appends the candidate moves: every legal move, and for kinds that
    /// decide legality by playing, some illegal ones.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);
    /// The position after `mv`, a move from [`Self::generate_moves`], or
    /// `None` if it is illegal. Anything else is a logic error.
    fn successor(&self, mv: Self::Move) -> Option<Self>;
    /// The legal moves.
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// The number of legal moves (perft's last ply).
    fn count_legal_moves(&self) -> u64;

    /// Status from this position alone (repetition needs the history: see
    /// [`Game`]).
    fn status(&self) -> GameStatus;
    /// Occurrences of a position that draw (0: the rule is off).
    fn repetition_rule(&self) -> u8;

    /// The move in the kind's notation (round-trips with [`Self::parse_move`]).
    fn format_move(&self, mv: Self::Move) -> String;
    /// A legal move from its text.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveTextError>;
    /// The position as text (FEN, or Potential Chess position text).
    fn to_text(&self) -> String;
    /// What the log records of `mv` (a legal move here).
    fn move_facts(&self, mv: Self::Move) -> MoveFacts;

    /// The position after a legal move; an error naming both otherwise.
    fn play(&self, mv: Self::Move) -> Result<Self, IllegalMove> {
        let mut candidates = Vec::new();
        self.generate_moves(&mut candidates);
        let illegal = || IllegalMove {
            text: format!("{mv:?}"),
            position: self.to_text(),
        };
        if !candidates.contains(&mv) {
            return Err(illegal());
        }
        self.successor(mv).ok_or_else(illegal)
    }
}

/// A game in progress with its history, which decides repetitions.
///
/// ```rust
/// use pocketlab_core::{Game, GamePosition, GameStatus, Outcome, Position, Termination, builtin};
///
/// let chess = builtin::load("chess").unwrap();
/// let mut game = Game::new(Position::start(&chess));
/// for text in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     let mv = game.position().parse_move(text).unwrap();
///     game.play(mv).unwrap();
/// }
/// assert_eq!(game.moves().len(), 4);
/// assert_eq!(
///     game.status(),
///     GameStatus::Over {
///         outcome: Outcome::Win(pocketlab_core::Color::Black),
///         termination: Termination::Checkmate,
///     }
/// );
/// ```
#[derive(Clone, Debug)]
pub struct Game<P: GamePosition> {
    start: P,
    position: P,
    moves: Vec<P::Move>,
    /// Hashes of every position so far, the current one last.
    hashes: Vec<u64>,
}

impl<P: GamePosition> Game<P> {
    /// A game from `start` with no move yet.
    pub fn new(start: P) -> Game<P> {
        let hashes = vec![start.hash()];
        Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            hashes,
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &P {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &P {
        &self.position
    }

    /// The moves played so far, first first.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// Hashes of every position so far, oldest first, the current one last.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Hashes of the positions before the current one, oldest first: what
    /// a searcher needs to see repetitions.
    pub fn history(&self) -> &[u64] {
        &self.hashes[..self.hashes.len() - 1]
    }

    /// Play a legal move.
    pub fn play(&mut self, mv: P::Move) -> Result<(), IllegalMove> {
        let next = self.position.play(mv)?;
        self.push(mv, next);
        Ok(())
    }

    /// Play a move known to be legal (a searcher's answer, or one of
    /// [`GamePosition::legal_moves`]): skips the membership test.
    pub fn play_legal(&mut self, mv: P::Move) -> Result<(), IllegalMove> {
        let next = self.position.successor(mv).ok_or_else(|| IllegalMove {
            text: self.position.format_move(mv),
            position: self.position.to_text(),
        })?;
        self.push(mv, next);
        Ok(())
    }

    fn push(&mut self, mv: P::Move, next: P) {
        self.position = next;
        self.moves.push(mv);
        self.hashes.push(self.position.hash());
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn repetitions(&self) -> usize {
        repetitions(&self.hashes)
    }

    /// The game's status: the position's own, or a draw by repetition
    /// found in the history.
    pub fn status(&self) -> GameStatus {
        with_repetition(
            self.position.status(),
            self.position.repetition_rule(),
            &self.hashes,
        )
    }
}

/// How often the last of `hashes` (the current position) occurs with the
/// same side to move: every second position back from it.
fn repetitions(hashes: &[u64]) -> usize {
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
fn with_repetition(status: GameStatus, needed: u8, hashes: &[u64]) -> GameStatus {
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
