//! Static evaluation of Potential Chess positions, over potentials.
//!
//! A piece's identity stays open until its moves (and the consistency
//! reduction) pin it down, so the evaluation treats each piece as a mixture
//! of the types in its potential and scores expectations.
//!
//! # How likely is each type?
//!
//! A piece whose potential holds one type is that type (a promoted pawn
//! counts as its promoted type). For the other pieces of a side, type `t`
//! gets the weight "pieces of type `t` not yet accounted for": the army's
//! count, minus those captured under that name, minus the side's pieces
//! already known to be `t`. This is what a uniformly random consistent
//! assignment would give if the open potentials were independent; it is
//! cheap (one pass over the side's pieces) and has the property that matters
//! most: when every open piece has the same potential, the expected values
//! add up to exactly the material the side has left. Naming a captured piece
//! therefore moves the material balance by the named type's value, whatever
//! the captured piece's own potential, as it should: the name is removed
//! from the army for good.
//!
//! # Terms
//!
//! Each side is scored from its own pieces, then the side to move's score
//! minus the other's, plus `tempo`. Middlegame and endgame weights are
//! blended by the non-pawn material left in both armies (it follows from
//! the captured names alone, not from the potentials).
//!
//! * **Material**: each piece's expected value. The royal type is worth 0,
//!   so a piece that may still be the king is valued lower, in proportion:
//!   it could turn out to be a king, which adds nothing to the attack.
//! * **Mobility** (`params.mobility`, as the orthodox evaluator): expected,
//!   over the piece's types, count of squares the type could move to now,
//!   beyond half its average empty-board reach. The royal and pawn types
//!   take no part, as in the orthodox evaluator. The expectation (rather than
//!   the union of the types' targets) keeps an undecided piece from looking
//!   as mobile as a queen.
//! * **Pawn advance** (`params.pawn_advance`): the bonus of the piece's
//!   relative rank, weighted by how likely it is to be a pawn; it pushes
//!   pawn-capable pieces towards promotion.
//! * **King ambiguity and exposure**: a side is checkmated only when every
//!   piece that could be its king is attackable (rule 6), and a piece that
//!   is attackable at the end of its side's move stops being a king
//!   candidate (rule 4). The "safe" candidates (those not attackable by the
//!   enemy's potentials now) are what stands between a side and mate, so
//!   the side loses [`FEW_KING_CANDIDATES`] when it has four or fewer of
//!   them, and `params.king_zone_attack` per attacked square around the
//!   safe candidates, averaged over them (each is the king with about the
//!   same chance).
//! * **Flexibility** ([`FLEXIBILITY`] per non-royal type beyond the first in
//!   a potential): an undecided piece lets its owner choose later which
//!   identity to commit to, and the opponent must respect all of them. The
//!   weight is small: it breaks ties in favour of moves that reveal less.
//!
//! There is no term for hidden information: potentials are public, both
//! players know exactly what the other's pieces could be. What one side
//! "knows" better than the other is only which identities it intends to
//! commit to, which a static evaluation cannot see; flexibility is the
//! measurable part of it.
//!
//! Cost: one pass over each side's pieces (one move-table lookup per type in
//! each potential) and two [`PotentialPosition::attacked_by`] (one when the
//! search passes the enemy's attack map in). Profiled from the start
//! position it takes about a quarter of the search time, less than playing
//! moves (consistency reduction), so nothing is cached.

use super::{Army, Potential, PotentialPiece, PotentialPosition};
use crate::engine::{EvalParams, Phased};
use crate::types::{Bitboard, ByColor, Color, MAX_PIECE_TYPES, Square};

/// Penalty in centipawns by the number of a side's safe king candidates
/// (index 0: none is safe, the side to move is in check); none from five on.
const FEW_KING_CANDIDATES: [i32; 5] = [80, 60, 30, 12, 4];

/// Centipawns per non-royal type beyond the first in a piece's potential.
const FLEXIBILITY: i32 = 2;

/// How likely each type is for a piece of one side whose potential holds
/// several: proportional to these weights (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub(super) struct TypeWeights([i32; MAX_PIECE_TYPES]);

impl TypeWeights {
    /// The weight of type `t` within `pot`: 1 for a decided piece. In a
    /// reduced position every type of an open potential has weight 1 or
    /// more (some consistent assignment gives the piece that type, beside
    /// every decided piece); the floor of 1 only guards other input.
    #[inline]
    fn of(&self, pot: Potential, t: u8) -> i32 {
        if pot.count() == 1 {
            1
        } else {
            self.0[usize::from(t)].max(1)
        }
    }
}

/// One piece's terms as weighted sums over its types, with the total weight.
#[derive(Clone, Copy, Debug, Default)]
struct Mixture {
    weight: i32,
    material: i32,
    /// Squares beyond the baseline.
    mobility: i32,
    /// Pawn advance, middlegame and endgame.
    advance_mg: i32,
    advance_eg: i32,
}

/// A side's score before the phase blend.
#[derive(Clone, Copy, Debug, Default)]
struct SideScore {
    mg: i32,
    eg: i32,
}

/// Evaluates positions of one army (the one it was built from).
#[derive(Clone, Debug)]
pub struct PotentialEvaluator {
    types: usize,
    counts: [u8; MAX_PIECE_TYPES],
    pawn: Option<u8>,
    /// Centipawns per army type; the royal type is 0.
    values: [i32; MAX_PIECE_TYPES],
    /// Half the average empty-board reach, per side and army type; `None`
    /// for the types without a mobility term (royal, pawn).
    mobility_baseline: ByColor<[Option<i32>; MAX_PIECE_TYPES]>,
    /// The squares around a king on each square (the royal type's
    /// empty-board reach), and the square itself.
    king_zone: ByColor<[Bitboard; 64]>,
    /// Non-pawn, non-royal material of both full armies.
    full_phase: i32,
    mobility: Phased,
    pawn_advance: [Phased; 8],
    king_zone_attack: i32,
    tempo: i32,
}

impl PotentialEvaluator {
    /// Tables for `army`, with piece values from `params.piece_values` (by
    /// letter) or else the variant's, and the orthodox evaluator's weights
    /// for mobility, pawn advance, king-zone attacks and tempo.
    pub fn new(army: &Army<'_>, params: &EvalParams) -> PotentialEvaluator {
        let variant = army.variant();
        let types = army.len();
        let mut counts = [0; MAX_PIECE_TYPES];
        let mut values = [0; MAX_PIECE_TYPES];
        let mut mobility_baseline = ByColor::new_with(|_| [None; MAX_PIECE_TYPES]);
        for t in 0..types as u8 {
            let i = usize::from(t);
            counts[i] = army.count(t);
            let value = params.piece_value(variant, army.kind(t));
            values[i] = if t == army.royal() { 0 } else { value };
            if t != army.royal() && Some(t) != army.pawn() {
                for color in Color::ALL {
                    let moves = variant.moves(color, army.kind(t));
                    let reach: u32 = Square::all()
                        .map(|sq| moves.targets(sq, Bitboard::EMPTY, Bitboard::EMPTY).count())
                        .sum();
                    mobility_baseline[color][i] = Some(reach as i32 / 128);
                }
            }
        }
        let king_zone = ByColor::new_with(|color| {
            let moves = variant.moves(color, army.kind(army.royal()));
            let mut zone = [Bitboard::EMPTY; 64];
            for sq in Square::all() {
                zone[sq.index()] = moves.targets(sq, Bitboard::EMPTY, Bitboard::EMPTY).with(sq);
            }
            zone
        });
        let mut evaluator = PotentialEvaluator {
            types,
            counts,
            pawn: army.pawn(),
            values,
            mobility_baseline,
            king_zone,
            full_phase: 0,
            mobility: params.mobility,
            pawn_advance: params.pawn_advance,
            king_zone_attack: params.king_zone_attack,
            tempo: params.tempo,
        };
        evaluator.full_phase = evaluator.phase_material(|_| 0).max(1);
        evaluator
    }

    /// The value of army type `t` in centipawns (0 for the royal type).
    #[inline]
    pub fn value(&self, t: u8) -> i32 {
        self.values[usize::from(t)]
    }

    /// Score in centipawns from the side to move's point of view.
    pub fn evaluate(&self, pos: &PotentialPosition<'_>) -> i32 {
        self.evaluate_with(pos, pos.attacked_by(!pos.side_to_move()))
    }

    /// [`Self::evaluate`] with the squares the side not to move attacks
    /// (`pos.attacked_by`), which the search has at hand.
    pub(super) fn evaluate_with(
        &self,
        pos: &PotentialPosition<'_>,
        enemy_attacks: Bitboard,
    ) -> i32 {
        let us = pos.side_to_move();
        let mut attacks = ByColor::new_with(|_| enemy_attacks);
        attacks[us] = pos.attacked_by(us);
        let score = ByColor::new_with(|c| self.side_score(pos, c, attacks[!c]));
        let phase = self
            .phase_material(|t| Color::ALL.iter().map(|&c| pos.captured_count(c, t)).sum())
            .min(self.full_phase);
        let blend =
            |s: SideScore| (s.mg * phase + s.eg * (self.full_phase - phase)) / self.full_phase;
        blend(score[us]) - blend(score[!us]) + self.tempo
    }

    /// The expected value of the piece on `sq` (see the module
    /// documentation), or `None` for an empty square.
    pub fn piece_value(&self, pos: &PotentialPosition<'_>, sq: Square) -> Option<i32> {
        let piece = pos.piece_at(sq)?;
        Some(self.piece_value_with(piece, &self.weights(pos, piece.color)))
    }

    /// `color`'s expected material on the board, the sum of
    /// [`Self::piece_value`] over its pieces.
    pub fn material(&self, pos: &PotentialPosition<'_>, color: Color) -> i32 {
        let weights = self.weights(pos, color);
        pos.pieces_of(color)
            .into_iter()
            .filter_map(|sq| pos.piece_at(sq))
            .map(|piece| self.piece_value_with(piece, &weights))
            .sum()
    }

    fn piece_value_with(&self, piece: PotentialPiece, weights: &TypeWeights) -> i32 {
        match piece.promoted {
            Some(t) => self.value(t),
            None => self.expected_value(piece.potential, weights),
        }
    }

    /// The type weights of `color`'s open pieces: per type, the army count
    /// minus the captured pieces of that name minus the decided pieces
    /// (a promoted pawn is a decided pawn).
    pub(super) fn weights(&self, pos: &PotentialPosition<'_>, color: Color) -> TypeWeights {
        let mut w = [0; MAX_PIECE_TYPES];
        for (t, slot) in w.iter_mut().enumerate().take(self.types) {
            *slot = i32::from(self.counts[t]) - i32::from(pos.captured_count(color, t as u8));
        }
        for sq in pos.pieces_of(color) {
            if let Some(piece) = pos.piece_at(sq)
                && piece.potential.count() == 1
            {
                w[piece.potential.0.trailing_zeros() as usize] -= 1;
            }
        }
        TypeWeights(w.map(|x| x.max(0)))
    }

    /// The weighted mean value of the types in `pot`.
    pub(super) fn expected_value(&self, pot: Potential, weights: &TypeWeights) -> i32 {
        let (mut total, mut value) = (0, 0);
        for t in pot.iter() {
            let w = weights.of(pot, t);
            total += w;
            value += w * self.value(t);
        }
        value / total.max(1)
    }

    /// Non-pawn, non-royal material of both armies with `gone(t)` pieces of
    /// type `t` removed.
    fn phase_material(&self, gone: impl Fn(u8) -> u8) -> i32 {
        (0..self.types as u8)
            .filter(|&t| self.value(t) > 0 && Some(t) != self.pawn)
            .map(|t| {
                let left = (2 * i32::from(self.counts[usize::from(t)]) - i32::from(gone(t))).max(0);
                left * self.value(t)
            })
            .sum()
    }

    /// `color`'s terms; `enemy_attacks` are the squares the enemy's
    /// potentials could capture onto.
    fn side_score(
        &self,
        pos: &PotentialPosition<'_>,
        color: Color,
        enemy_attacks: Bitboard,
    ) -> SideScore {
        let weights = self.weights(pos, color);
        let occupied = pos.occupied();
        let enemies = pos.pieces_of(!color);
        let army = pos.army();
        let (mut material, mut mg, mut eg) = (0, 0, 0);
        for sq in pos.pieces_of(color) {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            let mix = self.mixture(army, sq, piece, occupied, enemies, &weights);
            let w = mix.weight.max(1);
            material += mix.material / w;
            mg += (mix.mobility * self.mobility.mg / 16 + mix.advance_mg) / w;
            eg += (mix.mobility * self.mobility.eg / 16 + mix.advance_eg) / w;
            if piece.promoted.is_none() {
                let open = piece.potential.without(army.royal()).count() as i32;
                material += FLEXIBILITY * (open - 1).max(0);
            }
        }
        let king = self.king_safety(pos, color, enemy_attacks);
        SideScore {
            mg: material + mg + king,
            eg: material + eg + king,
        }
    }

    /// A piece's weighted sums over its types (a promoted pawn as its
    /// promoted type).
    fn mixture(
        &self,
        army: &Army<'_>,
        sq: Square,
        piece: PotentialPiece,
        occupied: Bitboard,
        enemies: Bitboard,
        weights: &TypeWeights,
    ) -> Mixture {
        let pot = piece.promoted.map_or(piece.potential, Potential::single);
        let rank = usize::from(piece.color.relative_rank(sq.rank()));
        let mut mix = Mixture::default();
        for t in pot.iter() {
            let w = weights.of(pot, t);
            mix.weight += w;
            mix.material += w * self.value(t);
            if let Some(base) = self.mobility_baseline[piece.color][usize::from(t)] {
                let reach = army
                    .variant()
                    .moves(piece.color, army.kind(t))
                    .targets(sq, occupied, enemies)
                    .count() as i32;
                mix.mobility += w * (reach - base);
            }
            if Some(t) == self.pawn && piece.promoted.is_none() {
                mix.advance_mg += w * self.pawn_advance[rank].mg;
                mix.advance_eg += w * self.pawn_advance[rank].eg;
            }
        }
        mix
    }

    /// King ambiguity and exposure (see the module documentation), as a
    /// score (zero or negative).
    fn king_safety(
        &self,
        pos: &PotentialPosition<'_>,
        color: Color,
        enemy_attacks: Bitboard,
    ) -> i32 {
        let safe = pos.king_candidates(color) & !enemy_attacks;
        let n = safe.count() as usize;
        let few = FEW_KING_CANDIDATES.get(n).copied().unwrap_or(0);
        if n == 0 {
            return -few;
        }
        let exposure: i32 = safe
            .into_iter()
            .map(|sq| (self.king_zone[color][sq.index()] & enemy_attacks).count() as i32)
            .sum();
        -few - exposure * self.king_zone_attack / n as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    #[test]
    fn symmetric_start_scores_the_tempo_and_material_adds_up() {
        let variant = builtin::load("potential-chess").unwrap();
        let army = Army::of(&variant).unwrap();
        let params = EvalParams::default();
        let e = PotentialEvaluator::new(&army, &params);
        let start = army.start_position();
        assert_eq!(e.evaluate(&start), params.tempo);
        // Every open piece has the same potential: the expectations add up
        // to the army's material, up to rounding (16 pieces).
        let army_material = 950 + 2 * 330 + 2 * 500 + 2 * 310 + 8 * 100;
        let m = e.material(&start, Color::White);
        assert!((army_material - 16..=army_material).contains(&m), "{m}");
    }

    #[test]
    fn naming_a_queen_costs_the_queen() {
        let variant = builtin::load("potential-chess").unwrap();
        let army = Army::of(&variant).unwrap();
        let e = PotentialEvaluator::new(&army, &EvalParams::default());
        let text = |captured: &str| {
            format!("xxxxxxxx/xxxxxxx1/8/8/8/8/XXXXXXXX/XXXXXXXX[{captured}] w - 0 1")
        };
        let queen = PotentialPosition::from_text(&army, &text("q")).unwrap();
        let pawn = PotentialPosition::from_text(&army, &text("p")).unwrap();
        // The queen's 950 less the pawn's 100, up to rounding over 15 pieces.
        let diff = e.material(&pawn, Color::Black) - e.material(&queen, Color::Black);
        assert!((835..=865).contains(&diff), "{diff}");
        assert!(e.evaluate(&queen) > e.evaluate(&pawn) + 800);
    }
}
