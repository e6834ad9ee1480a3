//! What the one searcher needs to know of a game kind beyond its positions
//! ([`GamePosition`]): the evaluation, and the knowledge that orders and
//! prunes moves. Each kind supplies it: [`StandardRules`] for pieces of
//! fixed identity (chess, Pocket Mutation Chess, Chess Mutation), and the
//! Potential Chess rules in [`crate::potential`].

use std::fmt;

use super::eval::{EvalCaches, Evaluator};
use super::params::EvalParams;
use super::see::see_at_least;
use crate::game::GamePosition;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{MAX_PIECE_TYPES, Square};
use crate::variant::{DeadPosition, Variant};

/// The move type of a kind's positions.
pub type MoveOf<R> = <<R as SearchRules>::Position as GamePosition>::Move;

/// What the searcher knows of a move before playing it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTraits {
    /// The captured piece's value (0 for none, or a capture of nothing
    /// the evaluation counts).
    pub victim: i32,
    /// Whether the move captures.
    pub is_capture: bool,
    /// The moving piece's value (a drop: the dropped piece's).
    pub attacker: i32,
    /// Material a promotion gains (0 for none).
    pub promotion: i32,
    /// A move to the mover's pocket that does not promote: it spends a
    /// tempo and rarely refutes anything.
    pub pocket_in: bool,
    /// Index into the quiet-history tables, below [`SearchRules::history_size`].
    pub history_key: usize,
}

impl MoveTraits {
    /// Captures and promotions: moves that change material at once.
    pub(crate) fn is_tactical(&self) -> bool {
        self.is_capture || self.promotion != 0
    }
}

/// The parts of a search that differ between game kinds.
///
/// Every method is deterministic: with node or depth limits the search
/// depends only on the position, the history, the settings and the seed.
pub trait SearchRules: fmt::Debug {
    /// The kind's positions.
    type Position: GamePosition;
    /// A move as the transposition table keeps it: it must tell the moves
    /// of one position apart (a table hit is matched against the
    /// generated moves, so a collision can never bring in a foreign move).
    type StoredMove: Copy + Eq + fmt::Debug;

    /// `mv` as the transposition table keeps it.
    fn store(&self, mv: MoveOf<Self>) -> Self::StoredMove;
    /// A stable 64-bit identity of a move in a position, for seeded root noise.
    fn noise_key(&self, pos: &Self::Position, mv: MoveOf<Self>) -> u64;

    /// Score in centipawns from the side to move's view, strictly inside
    /// the mate bounds (`&mut`: a kind may keep caches of its own).
    fn evaluate(&mut self, pos: &Self::Position) -> i32;
    /// Whether a rule other than repetition ends the game here in a draw
    /// (the n-move rule, a dead position). Mate and stalemate are found
    /// by the search itself.
    fn is_rule_draw(&self, pos: &Self::Position) -> bool;
    /// Occurrences of a position that draw (0: off).
    fn repetition_rule(&self) -> u8;
    /// The position with the other side to move, where passing is a
    /// sound guess (the side to move has pieces beyond pawns and king, so
    /// zugzwang is unlikely); `None` where the kind has no pass.
    fn null_move(&self, pos: &Self::Position) -> Option<Self::Position>;

    /// Moves that change material at once (captures, promotions), for
    /// quiescence, and at its first ply any quiet move the kind finds
    /// worth a look (direct checks). `previous` is the move that led here
    /// within quiescence (`None` at its first ply).
    fn tactical_moves(
        &self,
        pos: &Self::Position,
        previous: Option<MoveOf<Self>>,
        moves: &mut Vec<MoveOf<Self>>,
    );
    /// Quiet moves that give check, as far as the kind can tell cheaply
    /// (none by default): shallow pruning spares them.
    fn quiet_checks(&self, _pos: &Self::Position, _moves: &mut Vec<MoveOf<Self>>) {}
    /// What ordering and pruning need to know of `mv` in `pos`.
    fn traits(&self, pos: &Self::Position, mv: MoveOf<Self>) -> MoveTraits;
    /// Whether the exchange `mv` starts gains at least `threshold`
    /// centipawns for the mover (static exchange evaluation; quiet moves
    /// and drops count the risk of the piece on its new square).
    fn see_at_least(&self, pos: &Self::Position, mv: MoveOf<Self>, threshold: i32) -> bool;
    /// Entries per side of the quiet-history tables.
    fn history_size(&self) -> usize;
    /// Whether the search may cut a node by ProbCut: a capture that holds
    /// a raised beta in a search four plies shallower. Off unless a kind
    /// has measured it.
    fn cuts_by_probcut(&self) -> bool {
        false
    }
}

/// The rules of pieces of fixed identity: the evaluation from the piece
/// definitions, SEE, null moves.
#[derive(Clone, Debug)]
pub struct StandardRules<'v> {
    variant: &'v Variant,
    eval: Evaluator,
    caches: EvalCaches,
}

impl<'v> StandardRules<'v> {
    /// The rules of `variant`, evaluating with `params`.
    pub fn new(variant: &'v Variant, params: &EvalParams) -> StandardRules<'v> {
        StandardRules {
            variant,
            eval: Evaluator::new(variant, params),
            caches: EvalCaches::new(),
        }
    }

    /// The variant played.
    pub fn variant(&self) -> &'v Variant {
        self.variant
    }

    /// The evaluation the search uses.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Material a promotion gains (FIDE or by pocketing from the last rank), if it is one.
    fn promotion_gain(&self, pos: &Position<'_>, mv: Move) -> Option<i32> {
        match mv {
            Move::Promotion { from, into, .. } => {
                Some(self.eval.value(into) - self.eval.value(pos.piece_at(from)?.kind))
            }
            Move::PocketIn { from, into } => {
                let piece = pos.piece_at(from)?;
                pos.pocket_in_promotes(from)
                    .then(|| self.eval.value(into) - self.eval.value(piece.kind))
            }
            _ => None,
        }
    }

    fn has_non_pawn_material(&self, pos: &Position<'_>) -> bool {
        let us = pos.side_to_move();
        let v = self.variant;
        pos.pocket_size(us) > 0
            || v.piece_types()
                .any(|t| t != v.royal && !v.is_pawn(t) && pos.pieces(us, t).any())
    }
}

fn history_key(color: usize, kind: usize, sq: Square) -> usize {
    (color * MAX_PIECE_TYPES + kind) * 64 + sq.index()
}

impl<'v> SearchRules for StandardRules<'v> {
    type Position = Position<'v>;
    type StoredMove = Move;

    fn store(&self, mv: Move) -> Move {
        mv
    }

    fn noise_key(&self, _pos: &Position<'v>, mv: Move) -> u64 {
        // The move's own bits: 4 bytes, unique within a position.
        let (kind, a, b, c) = match mv {
            Move::Normal { from, to } => (1, from.index(), to.index(), 0),
            Move::Promotion { from, to, into } => (2, from.index(), to.index(), into.index()),
            Move::EnPassant { from, to } => (3, from.index(), to.index(), 0),
            Move::Castle { king, partner } => (4, king.index(), partner.index(), 0),
            Move::PocketIn { from, into } => (5, from.index(), 0, into.index()),
            Move::Drop { kind, to } => (6, 0, to.index(), kind.index()),
        };
        (kind as u64) << 24 | (a as u64) << 16 | (b as u64) << 8 | c as u64
    }

    fn evaluate(&mut self, pos: &Position<'v>) -> i32 {
        self.eval.evaluate_cached(pos, &mut self.caches)
    }

    fn is_rule_draw(&self, pos: &Position<'v>) -> bool {
        let rules = &self.variant.rules;
        (rules.n_move_rule > 0 && pos.halfmove_clock() >= rules.n_move_rule)
            || (rules.dead_position == DeadPosition::KingsOnly && pos.is_bare_kings())
    }

    fn repetition_rule(&self) -> u8 {
        self.variant.rules.repetition
    }

    fn null_move(&self, pos: &Position<'v>) -> Option<Position<'v>> {
        self.has_non_pawn_material(pos).then(|| pos.null_move())
    }

    fn tactical_moves(&self, pos: &Position<'v>, previous: Option<Move>, moves: &mut Vec<Move>) {
        pos.tactical_moves(moves);
        // At quiescence's first ply, direct checks too: with drops a
        // quiet check is often the only threat that matters.
        if previous.is_none() {
            pos.quiet_checks(moves);
        }
    }

    fn quiet_checks(&self, pos: &Position<'v>, moves: &mut Vec<Move>) {
        pos.quiet_checks(moves);
    }

    fn traits(&self, pos: &Position<'v>, mv: Move) -> MoveTraits {
        let side = pos.side_to_move().index();
        let captured = pos.captured_by(mv);
        let (attacker, history_key) = match mv {
            Move::Normal { from, to } | Move::EnPassant { from, to } => {
                let kind = pos.piece_at(from).map_or(0, |p| p.kind.index());
                (
                    self.eval.value(crate::PieceType::from_index(kind)),
                    history_key(side, kind, to),
                )
            }
            Move::Promotion { from, to, into } => (
                pos.piece_at(from).map_or(0, |p| self.eval.value(p.kind)),
                history_key(side, into.index(), to),
            ),
            Move::Drop { kind, to } => (self.eval.value(kind), history_key(side, kind.index(), to)),
            Move::PocketIn { from, into } => (
                pos.piece_at(from).map_or(0, |p| self.eval.value(p.kind)),
                history_key(side, into.index(), from),
            ),
            Move::Castle { king, .. } => (0, history_key(side, self.variant.royal.index(), king)),
        };
        let promotion = self.promotion_gain(pos, mv);
        MoveTraits {
            victim: captured.map_or(0, |p| self.eval.value(p.kind)),
            is_capture: captured.is_some(),
            attacker,
            promotion: promotion.unwrap_or(0),
            pocket_in: matches!(mv, Move::PocketIn { .. }) && promotion.is_none(),
            history_key,
        }
    }

    fn see_at_least(&self, pos: &Position<'v>, mv: Move, threshold: i32) -> bool {
        see_at_least(pos, &self.eval, mv, threshold)
    }

    fn history_size(&self) -> usize {
        2 * MAX_PIECE_TYPES * 64
    }

    /// Without pockets: chess without castling gained against
    /// Fairy-Stockfish at 30 ms a move. With pockets it plays no better
    /// (Pocket Mutation Chess, 8,000 nodes: -1 Elo, -10 to +8, SPRT [0, 10]
    /// H0; `reports/engine-strength/probcut-pockets-sprt/`).
    fn cuts_by_probcut(&self) -> bool {
        !self.variant.has_pocket()
    }
}
