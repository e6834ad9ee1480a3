//! Static evaluation, computed from the piece definitions.
//!
//! Terms (all generic): material (board and pocket), a piece-square bonus
//! derived from how many squares each piece reaches from each square on an
//! empty board, mobility, pawn structure and advancement for pawn-like
//! pieces, royal-piece placement, attacks on the royal piece's zone and its
//! pawn shield. Middlegame and endgame weights are blended by the share of
//! non-pawn material left (pockets included).

use super::params::{EvalParams, Phased};
use crate::position::Position;
use crate::types::{Bitboard, ByColor, Color, MAX_PIECE_TYPES, PieceType, Square};
use crate::variant::Variant;

/// Tables derived once per (variant, parameters).
#[derive(Clone, Debug)]
pub struct Evaluator {
    params: EvalParams,
    values: [i32; MAX_PIECE_TYPES],
    pocket_values: [i32; MAX_PIECE_TYPES],
    /// Piece-square bonus (mg, eg) per side, type and square, in centipawns.
    psq: ByColor<Vec<[(i32, i32); 64]>>,
    /// Half the average empty-board reach, per type (the mobility baseline).
    mobility_baseline: [i32; MAX_PIECE_TYPES],
    /// Non-pawn material of the start position (both sides), for the phase.
    full_phase: i32,
    pawn_types: Vec<PieceType>,
    piece_types: Vec<PieceType>,
    royal: PieceType,
}

fn empty_board_reach(variant: &Variant, color: Color, kind: PieceType, sq: Square) -> i32 {
    variant
        .moves(color, kind)
        .targets(sq, Bitboard::EMPTY, Bitboard::EMPTY)
        .count() as i32
}

fn blend(p: Phased, weight: i32) -> (i32, i32) {
    (p.mg * weight, p.eg * weight)
}

impl Evaluator {
    pub fn new(variant: &Variant, params: &EvalParams) -> Evaluator {
        let mut values = [0; MAX_PIECE_TYPES];
        let mut pocket_values = [0; MAX_PIECE_TYPES];
        for kind in variant.piece_types() {
            let letter = variant.letter(kind).to_string();
            let value = params
                .piece_values
                .get(&letter)
                .copied()
                .unwrap_or(variant.piece(kind).value);
            values[kind.index()] = value;
            pocket_values[kind.index()] = params
                .pocket_values
                .get(&letter)
                .copied()
                .unwrap_or(value * params.pocket_value_percent / 100);
        }
        let royal = variant.royal;
        let mut mobility_baseline = [0; MAX_PIECE_TYPES];
        let psq = ByColor::new_with(|color| {
            variant
                .piece_types()
                .map(|kind| {
                    let reach: Vec<i32> = Square::all()
                        .map(|sq| empty_board_reach(variant, color, kind, sq))
                        .collect();
                    let mean16 = reach.iter().sum::<i32>() * 16 / 64;
                    mobility_baseline[kind.index()] = mean16 / 32;
                    let mut table = [(0, 0); 64];
                    for sq in Square::all() {
                        let centrality16 = reach[sq.index()] * 16 - mean16;
                        let (mg, eg) = if kind == royal {
                            // Royal reach measures centralisation: home in the middlegame, out in the endgame.
                            let c = (reach[sq.index()] * 16 - mean16) / 16;
                            blend(params.king_centralisation, c)
                        } else if variant.is_pawn(kind) {
                            let rank = usize::from(color.relative_rank(sq.rank()));
                            let p = params.pawn_advance[rank];
                            (p.mg, p.eg)
                        } else {
                            let (mg, eg) = blend(params.reach_square, centrality16);
                            (mg / 256, eg / 256)
                        };
                        table[sq.index()] = (mg, eg);
                    }
                    table
                })
                .collect()
        });
        let start = Position::start(variant);
        let full_phase = Color::ALL
            .iter()
            .flat_map(|&c| variant.piece_types().map(move |t| (c, t)))
            .filter(|&(_, t)| t != royal && !variant.is_pawn(t))
            .map(|(c, t)| start.pieces(c, t).count() as i32 * values[t.index()].max(0))
            .sum::<i32>()
            .max(1);
        Evaluator {
            params: params.clone(),
            values,
            pocket_values,
            psq,
            mobility_baseline,
            full_phase,
            pawn_types: variant
                .piece_types()
                .filter(|&t| variant.is_pawn(t))
                .collect(),
            piece_types: variant.piece_types().collect(),
            royal,
        }
    }

    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// The value of a piece type in centipawns.
    #[inline]
    pub fn value(&self, kind: PieceType) -> i32 {
        self.values[kind.index()]
    }

    /// The value of a pocketed piece of this type in centipawns.
    #[inline]
    pub fn pocket_value(&self, kind: PieceType) -> i32 {
        self.pocket_values[kind.index()]
    }

    /// Score in centipawns from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position<'_>) -> i32 {
        let v = pos.variant();
        let occ = pos.occupied();
        let mut mg = ByColor { white: 0, black: 0 };
        let mut eg = ByColor { white: 0, black: 0 };
        let mut phase = 0;
        let p = &self.params;
        let zones = ByColor::new_with(|c| {
            let k = pos.royal_square(c);
            v.moves(c, self.royal)
                .targets(k, Bitboard::EMPTY, Bitboard::EMPTY)
                .with(k)
        });
        for color in Color::ALL {
            let them = !color;
            let theirs = pos.pieces_of(them);
            let mut material = 0;
            let mut zone_attacks = 0;
            for &kind in &self.piece_types {
                let bb = pos.pieces(color, kind);
                let value = self.values[kind.index()];
                let pocketed = i32::from(pos.pocket_count(color, kind));
                material += pocketed * self.pocket_values[kind.index()];
                if kind != self.royal && !v.is_pawn(kind) {
                    phase += (bb.count() as i32 + pocketed) * value.max(0);
                }
                if bb.is_empty() {
                    continue;
                }
                material += bb.count() as i32 * value;
                let table = &self.psq[color][kind.index()];
                let m = v.moves(color, kind);
                let track_mobility = kind != self.royal && !v.is_pawn(kind);
                for sq in bb {
                    let (a, b) = table[sq.index()];
                    mg[color] += a;
                    eg[color] += b;
                    if track_mobility {
                        let targets = m.targets(sq, occ, theirs);
                        let extra = targets.count() as i32 - self.mobility_baseline[kind.index()];
                        mg[color] += extra * p.mobility.mg / 16;
                        eg[color] += extra * p.mobility.eg / 16;
                        zone_attacks += (targets & zones[them]).count() as i32;
                    }
                }
            }
            mg[color] += material;
            eg[color] += material;
            // Attacks into the enemy royal zone grow quadratically, as attackers combine.
            mg[color] += zone_attacks * zone_attacks * p.king_zone_attack / 4;
            self.pawn_terms(pos, color, &mut mg, &mut eg);
        }
        let phase = phase.min(self.full_phase);
        let blended = |side: Color| {
            (mg[side] * phase + eg[side] * (self.full_phase - phase)) / self.full_phase
        };
        let us = pos.side_to_move();
        blended(us) - blended(!us) + p.tempo
    }

    fn pawn_terms(
        &self,
        pos: &Position<'_>,
        color: Color,
        mg: &mut ByColor<i32>,
        eg: &mut ByColor<i32>,
    ) {
        if self.pawn_types.is_empty() {
            return;
        }
        let p = &self.params;
        let ours: Bitboard = self
            .pawn_types
            .iter()
            .fold(Bitboard::EMPTY, |acc, &t| acc | pos.pieces(color, t));
        let theirs: Bitboard = self
            .pawn_types
            .iter()
            .fold(Bitboard::EMPTY, |acc, &t| acc | pos.pieces(!color, t));
        for sq in ours {
            let file = sq.file();
            let file_bb = Bitboard::file(file);
            let adjacent = (if file > 0 {
                Bitboard::file(file - 1)
            } else {
                Bitboard::EMPTY
            }) | (if file < 7 {
                Bitboard::file(file + 1)
            } else {
                Bitboard::EMPTY
            });
            if (ours & file_bb).has_more_than_one() {
                mg[color] += p.doubled_pawn.mg / 2;
                eg[color] += p.doubled_pawn.eg / 2;
            }
            if (ours & adjacent).is_empty() {
                mg[color] += p.isolated_pawn.mg;
                eg[color] += p.isolated_pawn.eg;
            }
            let ahead = squares_ahead(color, sq);
            if (theirs & (file_bb | adjacent) & ahead).is_empty() {
                let bonus = p.passed_pawn[usize::from(color.relative_rank(sq.rank()))];
                mg[color] += bonus.mg;
                eg[color] += bonus.eg;
            }
        }
        // Pawn shield: own pawns on the three squares in front of the royal piece.
        let king = pos.royal_square(color);
        let front: Bitboard = [-1i8, 0, 1]
            .iter()
            .filter_map(|&dx| king.offset(dx, color.forward()))
            .collect();
        mg[color] += (ours & front).count() as i32 * p.king_shield;
    }
}

/// Squares on ranks strictly ahead of `sq` from `color`'s side.
fn squares_ahead(color: Color, sq: Square) -> Bitboard {
    let rank = sq.rank();
    match color {
        Color::White if rank < 7 => Bitboard(!0u64 << (8 * (rank + 1))),
        Color::Black if rank > 0 => Bitboard(!0u64 >> (8 * (8 - rank))),
        _ => Bitboard::EMPTY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    #[test]
    fn start_positions_are_balanced_and_mirrors_agree() {
        for name in builtin::names() {
            let v = builtin::load(name).unwrap();
            let e = Evaluator::new(&v, &EvalParams::default());
            let pos = Position::start(&v);
            assert_eq!(
                e.evaluate(&pos),
                e.params().tempo,
                "{name}: a symmetric start scores the tempo only"
            );
        }
        let v = builtin::load("chess").unwrap();
        let e = Evaluator::new(&v, &EvalParams::default());
        let white = Position::from_fen(&v, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1").unwrap();
        let black = Position::from_fen(&v, "4k3/8/8/3n4/8/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(e.evaluate(&white), e.evaluate(&black));
        assert!(e.evaluate(&white) > 200);
    }

    #[test]
    fn central_pieces_score_higher_than_cornered_ones() {
        let v = builtin::load("chess").unwrap();
        let e = Evaluator::new(&v, &EvalParams::default());
        let center = Position::from_fen(&v, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1").unwrap();
        let corner = Position::from_fen(&v, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1").unwrap();
        assert!(e.evaluate(&center) > e.evaluate(&corner) + 20);
    }

    #[test]
    fn pocketed_pieces_count_and_learned_values_override() {
        let v = builtin::load("pocket-mutation").unwrap();
        let mut params = EvalParams::default();
        let e = Evaluator::new(&v, &params);
        let pocket = Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 9").unwrap();
        assert!(e.evaluate(&pocket) > 300);
        params.piece_values.insert("N".into(), 100);
        let cheap = Evaluator::new(&v, &params);
        assert!(cheap.evaluate(&pocket) < e.evaluate(&pocket) - 150);
    }
}
