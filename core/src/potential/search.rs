//! What the one searcher ([`crate::engine::Searcher`]) needs to know of
//! Potential Chess: its evaluation ([`PotentialEvaluator`]) and its move
//! knowledge.
//!
//! What differs from pieces of fixed identity comes from the cost of a
//! legal move here and from capture naming:
//!
//! * Playing a move copies the position, builds an attack map and runs the
//!   consistency reduction (a bipartite matching) for both sides. So the
//!   searcher gets the cheap pseudo-legal moves and plays them one at a
//!   time in its own order ([`PotentialPosition::successor`] rejects the
//!   illegal ones): a cut node plays only the moves up to the cutoff, and
//!   moves pruned before playing cost nothing.
//! * The transposition table holds the move packed in 64 bits
//!   ([`PackedMove`]), matched against the generated moves on a probe.
//! * A capture comes once per name the capturer may give the victim.
//!   Ordering (MVV-LVA over expected values) tries the most valuable name
//!   first, and quiescence searches only that name: naming the victim
//!   removes that type from the enemy army (see [`super::eval`]), so the
//!   most valuable legal name is nearly always best. From the second
//!   capture on, quiescence searches only recaptures on the square of the
//!   last capture: with every piece able to capture as several types,
//!   exchanges on different squares otherwise multiply without end.
//! * There is no null move: the position has no pass, and positions where
//!   every move gives something away are common.
//! * Exchange evaluation is a cheap stand-in: a capture or move onto a
//!   square the enemy attacks risks the mover's expected value.

use std::cell::Cell;
use std::num::NonZeroU64;

use super::eval::PotentialEvaluator;
use super::{Army, PotentialMove, PotentialPosition};
use crate::engine::{EvalParams, MoveTraits, SearchRules};
use crate::types::{Bitboard, Color, splitmix};

/// A move packed for the transposition table: from and to squares (6 bits
/// each), promotion and captured name (army type + 1, 0 for none, 6 bits
/// each), the en passant flag, and the mover's potential in the high 32
/// bits. Never 0, as a potential is never empty.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PackedMove(NonZeroU64);

impl PackedMove {
    /// `mv` packed.
    pub fn new(mv: PotentialMove) -> PackedMove {
        let kind = |t: Option<u8>| t.map_or(0, |t| u64::from(t) + 1);
        let bits = mv.from.index() as u64
            | (mv.to.index() as u64) << 6
            | kind(mv.promotion) << 12
            | kind(mv.captured) << 18
            | u64::from(mv.en_passant) << 24
            | u64::from(mv.reduced.0) << 32;
        PackedMove(NonZeroU64::new(bits).expect("a potential is never empty"))
    }
}

/// The rules of Potential Chess for the searcher, for one army.
#[derive(Debug)]
pub struct PotentialRules<'a> {
    army: &'a Army<'a>,
    eval: PotentialEvaluator,
    /// The last enemy attack map computed: (position hash, map).
    attacks: Cell<(u64, Bitboard)>,
}

impl<'a> PotentialRules<'a> {
    /// The rules of `army`, evaluating with `params`.
    pub fn new(army: &'a Army<'a>, params: &EvalParams) -> PotentialRules<'a> {
        PotentialRules {
            army,
            eval: PotentialEvaluator::new(army, params),
            attacks: Cell::new((0, Bitboard::EMPTY)),
        }
    }

    /// The evaluation the search uses.
    pub fn evaluator(&self) -> &PotentialEvaluator {
        &self.eval
    }

    /// The squares the side not to move attacks, cached per position.
    fn enemy_attacks(&self, pos: &PotentialPosition<'_>) -> Bitboard {
        let key = pos.hash() ^ 0x5151_5151;
        let (cached, map) = self.attacks.get();
        if cached == key {
            return map;
        }
        let map = pos.attacked_by(!pos.side_to_move());
        self.attacks.set((key, map));
        map
    }

    /// What the mover risks: the expected value of the types that could make
    /// the move (a promoted piece as its promoted type).
    fn attacker_value(&self, pos: &PotentialPosition<'_>, mv: PotentialMove) -> i32 {
        match pos.piece_at(mv.from).and_then(|p| p.promoted) {
            Some(t) => self.eval.value(t),
            None => self
                .eval
                .expected_value(mv.reduced, &self.eval.weights(pos, pos.side_to_move())),
        }
    }

    /// What the capture takes from the enemy: the named type's value (a
    /// promoted piece, named a pawn, as its promoted type).
    fn victim_value(&self, pos: &PotentialPosition<'_>, mv: PotentialMove) -> i32 {
        let Some(name) = mv.captured else {
            return 0;
        };
        let promoted = (!mv.en_passant)
            .then(|| pos.piece_at(mv.to).and_then(|p| p.promoted))
            .flatten();
        self.eval.value(promoted.unwrap_or(name))
    }

    fn promotion_gain(&self, mv: PotentialMove) -> i32 {
        mv.promotion.map_or(0, |into| {
            let pawn = self.army.pawn().map_or(0, |p| self.eval.value(p));
            self.eval.value(into) - pawn
        })
    }
}

impl<'a> SearchRules for PotentialRules<'a> {
    type Position = PotentialPosition<'a>;
    type StoredMove = PackedMove;

    fn store(&self, mv: PotentialMove) -> PackedMove {
        PackedMove::new(mv)
    }

    fn noise_key(&self, _pos: &PotentialPosition<'a>, mv: PotentialMove) -> u64 {
        splitmix(PackedMove::new(mv).0.get())
    }

    fn evaluate(&mut self, pos: &PotentialPosition<'a>) -> i32 {
        self.eval.evaluate_with(pos, self.enemy_attacks(pos))
    }

    /// The n-move rule, or one piece per side (rule 6).
    fn is_rule_draw(&self, pos: &PotentialPosition<'a>) -> bool {
        let n = self.army.variant().rules.n_move_rule;
        (n > 0 && pos.halfmove_clock() >= n)
            || (pos.pieces_of(Color::White).count() == 1
                && pos.pieces_of(Color::Black).count() == 1)
    }

    fn repetition_rule(&self) -> u8 {
        self.army.variant().rules.repetition
    }

    fn null_move(&self, _pos: &PotentialPosition<'a>) -> Option<PotentialPosition<'a>> {
        None
    }

    /// Captures (the most valuable name of each) and promotions; after a
    /// capture within quiescence, only recaptures on its square.
    fn tactical_moves(
        &self,
        pos: &PotentialPosition<'a>,
        previous: Option<PotentialMove>,
        moves: &mut Vec<PotentialMove>,
    ) {
        let recapture_on = previous.map(|p| p.to);
        let mut best_name: Vec<(PotentialMove, i32)> = Vec::new();
        for mv in pos.pseudo_legal_moves() {
            if mv.captured.is_none() && mv.promotion.is_none() {
                continue;
            }
            if recapture_on.is_some_and(|sq| sq != mv.to) {
                continue;
            }
            let value = self.victim_value(pos, mv) + self.promotion_gain(mv);
            match best_name
                .iter_mut()
                .find(|(m, _)| m.from == mv.from && m.to == mv.to && m.promotion == mv.promotion)
            {
                Some(slot) if slot.1 < value => *slot = (mv, value),
                Some(_) => {}
                None => best_name.push((mv, value)),
            }
        }
        moves.extend(best_name.into_iter().map(|(mv, _)| mv));
    }

    fn traits(&self, pos: &PotentialPosition<'a>, mv: PotentialMove) -> MoveTraits {
        let side = pos.side_to_move().index();
        MoveTraits {
            victim: self.victim_value(pos, mv),
            is_capture: mv.captured.is_some(),
            attacker: self.attacker_value(pos, mv),
            promotion: self.promotion_gain(mv),
            pocket_in: false,
            history_key: (side * 64 + mv.from.index()) * 64 + mv.to.index(),
        }
    }

    fn see_at_least(&self, pos: &PotentialPosition<'a>, mv: PotentialMove, threshold: i32) -> bool {
        let mut gain = self.victim_value(pos, mv) + self.promotion_gain(mv);
        if gain >= threshold && !self.enemy_attacks(pos).contains(mv.to) {
            return true;
        }
        if self.enemy_attacks(pos).contains(mv.to) {
            gain -= self.attacker_value(pos, mv) + self.promotion_gain(mv);
        }
        gain >= threshold
    }

    fn history_size(&self) -> usize {
        2 * 64 * 64
    }
}
