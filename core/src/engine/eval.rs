//! Static evaluation, computed from the piece definitions.
//!
//! Terms (all generic): material (board and pocket), a piece-square bonus
//! derived from how many squares each piece reaches from each square on an
//! empty board, mobility, pawn structure and advancement for pawn-like
//! pieces, royal-piece placement, attacks on the royal piece's zone and its
//! pawn shield; off by default (zero weights, for per-variant files): a
//! pair of colour-bound pieces, file riders on open files, the royal
//! pieces' distances to passed pawns, and per-square tables by letter.
//! Middlegame and endgame weights are blended by the share of non-pawn
//! material left (pockets included).

use super::network::{Accumulator, NetworkInputs};
use super::params::{EvalParams, PawnlessDraw, Phased};
use crate::movement::SliderLines;
use crate::position::Position;
use crate::types::{Bitboard, ByColor, Color, MAX_PIECE_TYPES, PieceType, Square};
use crate::variant::Variant;

/// The evaluation's bound: far from any mate score, so the search's
/// windows and mate arithmetic never meet an evaluation.
pub(crate) const MAX_EVAL: i32 = 20_000;

/// What the royal piece is worth in an exchange: it may only capture last.
pub(crate) const ROYAL_EXCHANGE_VALUE: i32 = 100_000;

/// Tables derived once per (variant, parameters).
#[derive(Clone, Debug)]
pub struct Evaluator {
    params: EvalParams,
    values: [i32; MAX_PIECE_TYPES],
    pocket_values: [i32; MAX_PIECE_TYPES],
    psq: SquareTables,
    /// Half the average empty-board reach, per type (the mobility baseline).
    mobility_baseline: [i32; MAX_PIECE_TYPES],
    /// The mobility weight per type (`mobility`, or the type's own).
    mobility: [Phased; MAX_PIECE_TYPES],
    /// King-danger units each piece of a type adds when it attacks the
    /// enemy royal zone (the attacker weight times its value in pawns, 1-10).
    attacker_units: [i64; MAX_PIECE_TYPES],
    /// Non-pawn material of the start position (both sides), for the phase.
    full_phase: i32,
    pawn_types: Vec<PieceType>,
    piece_types: Vec<PieceType>,
    /// Per piece type, the types of strictly lower value (bit i: type i),
    /// for threats by lesser pieces.
    cheaper_types: [u32; MAX_PIECE_TYPES],
    /// The piece types from the least valuable up (ties in the variant's
    /// order, the royal piece as priceless), each with that value: the
    /// order in which an exchange brings in attackers.
    exchange_order: Vec<(PieceType, i32)>,
    royal: PieceType,
    /// Non-royal, non-pawn types whose moves keep them on one square
    /// colour (bit i: type i), for the pair bonus.
    colour_bound_types: u32,
    /// Non-royal, non-pawn types that slide a whole file on an empty board
    /// (bit i: type i), for the open-file bonus.
    file_rider_types: u32,
    /// Non-royal, non-pawn types that are not file riders (bit i: type
    /// i), for the outpost bonus.
    outpost_types: u32,
    /// The royal piece's zone (its square and where it moves) per side and square.
    royal_zones: ByColor<Box<[Bitboard; 64]>>,
    /// The three squares in front of the royal piece, per side and square.
    shield_fronts: ByColor<Box<[Bitboard; 64]>>,
    /// Whether the pawn-like pieces capture on the same squares whatever
    /// the occupancy (leapers), so their structure terms depend on where
    /// they stand alone and a [`PawnCache`] may keep them.
    pawn_structure_cacheable: bool,
    /// The inputs of `params.network`, bound to the variant's piece types
    /// (set exactly when the parameters hold a network).
    network_inputs: Option<NetworkInputs>,
    /// Whether any term with a weight reads what the pieces attack
    /// (mobility, royal danger, threats, a free stop square, backward
    /// pawns, outposts). Without one the scan skips move generation: the
    /// same score, sooner, for files that leave those terms to a network.
    reads_attacks: bool,
}

/// Piece-square bonus (mg, eg) per side, type and square, in centipawns.
type SquareTables = ByColor<Vec<[(i32, i32); 64]>>;

// Type masks in `evaluate` hold one bit per piece type.
const _: () = assert!(MAX_PIECE_TYPES <= 32);

fn empty_board_reach(variant: &Variant, color: Color, kind: PieceType, sq: Square) -> i32 {
    variant
        .moves(color, kind)
        .targets(sq, Bitboard::EMPTY, Bitboard::EMPTY)
        .count() as i32
}

fn blend(p: Phased, weight: i32) -> (i32, i32) {
    (p.mg * weight, p.eg * weight)
}

/// Per piece type: its value on the board, and in the pocket (the file's
/// own pocket value, else a share of the board value).
fn piece_values(
    variant: &Variant,
    params: &EvalParams,
) -> ([i32; MAX_PIECE_TYPES], [i32; MAX_PIECE_TYPES]) {
    let mut values = [0; MAX_PIECE_TYPES];
    let mut pocket_values = [0; MAX_PIECE_TYPES];
    for kind in variant.piece_types() {
        let letter = variant.letter(kind).to_string();
        let value = params.piece_value(variant, kind);
        values[kind.index()] = value;
        pocket_values[kind.index()] = params
            .pocket_values
            .get(&letter)
            .copied()
            .unwrap_or(value * params.pocket_value_percent / 100);
    }
    (values, pocket_values)
}

/// Piece-square tables per side and type, from each piece's empty-board
/// reach (pawns by rank, the royal piece by centralisation), plus the
/// file's per-square adjustments; and the mobility baseline per type.
fn square_tables(variant: &Variant, params: &EvalParams) -> (SquareTables, [i32; MAX_PIECE_TYPES]) {
    let royal = variant.royal;
    let mut mobility_baseline = [0; MAX_PIECE_TYPES];
    let psq = ByColor::new_with(|color| {
        variant
            .piece_types()
            .map(|kind| {
                let squares = params.piece_squares.get(&variant.letter(kind).to_string());
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
                    let adjust = squares.map_or(Phased::new(0, 0), |t| t.at(color, sq));
                    table[sq.index()] = (mg + adjust.mg, eg + adjust.eg);
                }
                table
            })
            .collect()
    });
    (psq, mobility_baseline)
}

/// Non-pawn, non-royal material of the start position (both sides), at
/// least 1.
fn full_phase(variant: &Variant, values: &[i32; MAX_PIECE_TYPES]) -> i32 {
    let start = Position::start(variant);
    Color::ALL
        .iter()
        .flat_map(|&c| variant.piece_types().map(move |t| (c, t)))
        .filter(|&(_, t)| t != variant.royal && !variant.is_pawn(t))
        .map(|(c, t)| start.pieces(c, t).count() as i32 * values[t.index()].max(0))
        .sum::<i32>()
        .max(1)
}

/// Per piece type: its mobility weight, and the king-danger units it adds
/// when it attacks the enemy royal zone.
fn mobility_and_attackers(
    variant: &Variant,
    params: &EvalParams,
    values: &[i32; MAX_PIECE_TYPES],
) -> ([Phased; MAX_PIECE_TYPES], [i64; MAX_PIECE_TYPES]) {
    let mut attacker_units = [0i64; MAX_PIECE_TYPES];
    let mut mobility = [params.mobility; MAX_PIECE_TYPES];
    for kind in variant.piece_types() {
        attacker_units[kind.index()] = i64::from(params.king_danger.attacker)
            * i64::from((values[kind.index()] / 100).clamp(1, 10));
        if let Some(&own) = params
            .mobility_by_piece
            .get(&variant.letter(kind).to_string())
        {
            mobility[kind.index()] = own;
        }
    }
    (mobility, attacker_units)
}

/// Whether any term with a weight in `params` reads the pieces' attacks,
/// given the per-type mobility weights and king-danger units.
fn reads_attacks(
    params: &EvalParams,
    mobility: &[Phased; MAX_PIECE_TYPES],
    attacker_units: &[i64; MAX_PIECE_TYPES],
) -> bool {
    let k = &params.king_danger;
    mobility.iter().any(|m| !m.is_zero())
        || attacker_units.iter().any(|&u| u != 0)
        || [k.zone_attack, k.safe_check, k.drop_check]
            .iter()
            .any(|&w| w != 0)
        || [
            params.hanging,
            params.threat_by_lesser,
            params.passed_free,
            params.backward_pawn,
            params.outpost,
        ]
        .iter()
        .any(|w| !w.is_zero())
}

/// Per piece type, the types of strictly lower value (bit i: type i).
fn cheaper_types(variant: &Variant, values: &[i32; MAX_PIECE_TYPES]) -> [u32; MAX_PIECE_TYPES] {
    let mut cheaper = [0u32; MAX_PIECE_TYPES];
    for kind in variant.piece_types() {
        cheaper[kind.index()] = variant
            .piece_types()
            .filter(|t| values[t.index()] < values[kind.index()])
            .fold(0, |mask, t| mask | 1 << t.index());
    }
    cheaper
}

/// The piece types from the least valuable up, the royal piece as
/// priceless; equal values keep the variant's order.
fn exchange_order(variant: &Variant, values: &[i32; MAX_PIECE_TYPES]) -> Vec<(PieceType, i32)> {
    let mut order: Vec<(PieceType, i32)> = variant
        .piece_types()
        .map(|t| {
            (
                t,
                if t == variant.royal {
                    ROYAL_EXCHANGE_VALUE
                } else {
                    values[t.index()]
                },
            )
        })
        .collect();
    // Stable: equal values keep the variant's order.
    order.sort_by_key(|&(_, value)| value);
    order
}

/// Non-royal, non-pawn piece types by how they move on an empty board
/// (bit i: type i).
#[derive(Clone, Copy, Debug, Default)]
struct MovementClasses {
    /// Kept on one square colour.
    colour_bound: u32,
    /// Sliding a whole file (from d4 to both ends of the d-file).
    file_riders: u32,
    /// The others, which an outpost suits.
    outpost: u32,
}

impl MovementClasses {
    fn of(variant: &Variant) -> MovementClasses {
        let mut classes = MovementClasses::default();
        let d4 = Square::from_coords(3, 3);
        let d_file_ends = Bitboard::EMPTY
            .with(Square::from_coords(3, 0))
            .with(Square::from_coords(3, 7));
        for kind in variant.piece_types() {
            if kind == variant.royal || variant.is_pawn(kind) {
                continue;
            }
            let moves = variant.moves(Color::White, kind);
            let reach = |sq: Square| moves.targets(sq, Bitboard::EMPTY, Bitboard::EMPTY);
            let bound = Square::all().all(|sq| {
                let own = if DARK_SQUARES.contains(sq) {
                    DARK_SQUARES
                } else {
                    !DARK_SQUARES
                };
                let targets = reach(sq);
                targets.any() && (targets & !own).is_empty()
            });
            if bound {
                classes.colour_bound |= 1 << kind.index();
            }
            if (reach(d4) & d_file_ends) == d_file_ends {
                classes.file_riders |= 1 << kind.index();
            } else {
                classes.outpost |= 1 << kind.index();
            }
        }
        classes
    }
}

/// The royal piece's zone per side and square: the square and where the
/// royal piece moves from it.
fn royal_zones(variant: &Variant) -> ByColor<Box<[Bitboard; 64]>> {
    ByColor::new_with(|color| {
        let mut zones = Box::new([Bitboard::EMPTY; 64]);
        for sq in Square::all() {
            zones[sq.index()] = variant
                .moves(color, variant.royal)
                .targets(sq, Bitboard::EMPTY, Bitboard::EMPTY)
                .with(sq);
        }
        zones
    })
}

/// The three squares in front of each square, per side (the pawn shield).
fn shield_fronts() -> ByColor<Box<[Bitboard; 64]>> {
    ByColor::new_with(|color| {
        let mut fronts = Box::new([Bitboard::EMPTY; 64]);
        for sq in Square::all() {
            fronts[sq.index()] = [-1i8, 0, 1]
                .iter()
                .filter_map(|&dx| sq.offset(dx, color.forward()))
                .collect();
        }
        fronts
    })
}

/// Whether every pawn-like type captures on the same squares whatever the
/// occupancy (so its structure terms can be cached).
fn pawn_structure_cacheable(variant: &Variant) -> bool {
    variant
        .piece_types()
        .filter(|&t| variant.is_pawn(t))
        .all(|t| {
            Color::ALL.iter().all(|&c| {
                let moves = variant.moves(c, t);
                Square::all().all(|sq| {
                    moves.capture_reach(sq, Bitboard::EMPTY)
                        == moves.capture_reach(sq, Bitboard::FULL)
                })
            })
        })
}

impl Evaluator {
    /// The evaluation of `variant` under `params`, its tables computed once.
    pub fn new(variant: &Variant, params: &EvalParams) -> Evaluator {
        let (values, pocket_values) = piece_values(variant, params);
        let royal = variant.royal;
        let (psq, mobility_baseline) = square_tables(variant, params);
        let (mobility, attacker_units) = mobility_and_attackers(variant, params, &values);
        let movement = MovementClasses::of(variant);
        Evaluator {
            params: params.clone(),
            values,
            pocket_values,
            psq,
            mobility_baseline,
            mobility,
            attacker_units,
            full_phase: full_phase(variant, &values),
            pawn_types: variant
                .piece_types()
                .filter(|&t| variant.is_pawn(t))
                .collect(),
            piece_types: variant.piece_types().collect(),
            cheaper_types: cheaper_types(variant, &values),
            exchange_order: exchange_order(variant, &values),
            royal,
            colour_bound_types: movement.colour_bound,
            file_rider_types: movement.file_riders,
            outpost_types: movement.outpost,
            royal_zones: royal_zones(variant),
            shield_fronts: shield_fronts(),
            pawn_structure_cacheable: pawn_structure_cacheable(variant),
            network_inputs: params
                .network
                .as_ref()
                .map(|net| NetworkInputs::new(variant, &net.pieces, net.king_buckets)),
            reads_attacks: reads_attacks(params, &mobility, &attacker_units),
        }
    }

    /// The parameters it evaluates with.
    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// The value of a piece type in centipawns.
    #[inline]
    pub fn value(&self, kind: PieceType) -> i32 {
        self.values[kind.index()]
    }

    /// The piece types with the value an exchange gives them, least
    /// valuable first (equal values in the variant's order; the royal
    /// piece at [`ROYAL_EXCHANGE_VALUE`]).
    #[inline]
    pub(crate) fn exchange_order(&self) -> &[(PieceType, i32)] {
        &self.exchange_order
    }

    /// The value of a pocketed piece of this type in centipawns.
    #[inline]
    pub fn pocket_value(&self, kind: PieceType) -> i32 {
        self.pocket_values[kind.index()]
    }

    /// The middlegame's share of the blend in `pos`, 0 to 1: the non-pawn,
    /// non-royal material on the board and in the pockets over the start
    /// position's (the weight [`Self::evaluate`] gives middlegame terms).
    pub fn middlegame_share(&self, pos: &Position<'_>) -> f64 {
        // Only the scans' phase is wanted: no royal zone to look at.
        let scans = ByColor::new_with(|c| self.scan_side(pos, c, Bitboard::EMPTY));
        self.phase(&scans) as f64 / f64::from(self.full_phase)
    }

    /// The blend's middlegame weight, 0 to `full_phase`: the two sides'
    /// non-pawn material, at most the start position's.
    #[inline]
    fn phase(&self, scans: &ByColor<SideScan>) -> i64 {
        (scans.white.phase + scans.black.phase).min(i64::from(self.full_phase))
    }

    /// Score in centipawns from the side to move's point of view, within
    /// ±`MAX_EVAL` (far from any mate score) whatever the parameters (sums run in 64 bits).
    pub fn evaluate(&self, pos: &Position<'_>) -> i32 {
        self.evaluate_with(pos, None)
    }

    /// [`Self::evaluate`], taking the pawn structure's terms from `caches`
    /// where it has them (a search meets few pawn structures) and carrying
    /// the network's sums from the position evaluated before: the same
    /// score, sooner.
    pub(crate) fn evaluate_cached(&self, pos: &Position<'_>, caches: &mut EvalCaches) -> i32 {
        self.evaluate_with(pos, Some(caches))
    }

    fn evaluate_with(&self, pos: &Position<'_>, caches: Option<&mut EvalCaches>) -> i32 {
        let (cache, accumulator) = match caches {
            Some(c) => (Some(&mut c.pawns), Some(&mut c.network)),
            None => (None, None),
        };
        let pawns = ByColor::new_with(|c| {
            self.pawn_types
                .iter()
                .fold(Bitboard::EMPTY, |acc, &t| acc | pos.pieces(c, t))
        });
        // Own pawn-like pieces on the three squares in front of each royal piece.
        let shields = ByColor::new_with(|c| {
            i64::from((pawns[c] & self.shield_fronts[c][pos.royal_square(c).index()]).count())
        });
        let zones = ByColor::new_with(|c| self.royal_zones[c][pos.royal_square(c).index()]);
        let scans = ByColor::new_with(|c| self.scan_side(pos, c, zones[!c]));
        let mut mg = ByColor::new_with(|c| scans[c].mg);
        let mut eg = ByColor::new_with(|c| scans[c].eg);
        // Only the terms that are off by default read them: skip the work.
        let pawn_attacks = if self.params.backward_pawn.is_zero() && self.params.outpost.is_zero() {
            ByColor::new_with(|_| Bitboard::EMPTY)
        } else {
            ByColor::new_with(|c| {
                self.pawn_types.iter().fold(Bitboard::EMPTY, |acc, &t| {
                    acc | scans[c].reach_by_type[t.index()]
                })
            })
        };
        let structure = match cache {
            Some(cache) if self.pawn_structure_cacheable => {
                cache.get_or_insert(pawns, || self.pawn_structure(&pawns, &pawn_attacks))
            }
            _ => self.pawn_structure(&pawns, &pawn_attacks),
        };
        for color in Color::ALL {
            let them = !color;
            let (placement_mg, placement_eg) = self.placement(pos, color, &pawns, &pawn_attacks);
            mg[color] += placement_mg;
            eg[color] += placement_eg;
            if !self.pawn_types.is_empty() {
                let (passed_mg, passed_eg) =
                    self.passed_pawn_race(pos, color, structure.passed[color], &scans);
                let (pawn_mg, pawn_eg) = structure.terms[color];
                mg[color] +=
                    pawn_mg + passed_mg + shields[color] * i64::from(self.params.king_shield);
                eg[color] += pawn_eg + passed_eg;
            }
            if self.reads_attacks {
                mg[color] -=
                    self.royal_danger(pos, color, &scans[color], &scans[them], shields[color]);
                let (threat_mg, threat_eg) = self.threats(pos, color, &scans[color], &scans[them]);
                mg[color] += threat_mg;
                eg[color] += threat_eg;
            } else {
                // Only the shield's part of the danger is left.
                mg[color] -=
                    self.danger_cost(-shields[color] * i64::from(self.params.king_danger.shield));
            }
        }
        let full = i64::from(self.full_phase);
        let phase = self.phase(&scans);
        let us = pos.side_to_move();
        let scale = if self.params.endgame_scale.is_off() {
            64
        } else {
            let strong = if eg[us] >= eg[!us] { us } else { !us };
            let pocketed: u32 = self
                .pawn_types
                .iter()
                .map(|&t| u32::from(pos.pocket_count(strong, t)))
                .sum();
            self.params
                .endgame_scale
                .sixty_fourths(pawns[strong].count() + pocketed)
        };
        let blended =
            |side: Color| (mg[side] * phase + eg[side] * scale / 64 * (full - phase)) / full;
        let mut score = blended(us) - blended(!us) + i64::from(self.params.tempo);
        if let (Some(net), Some(inputs)) = (&self.params.network, &self.network_inputs) {
            score += i64::from(match accumulator {
                Some(acc) => acc.evaluate(net, inputs, pos),
                None => net.evaluate(inputs, pos),
            });
        }
        if let Some(rule) = &self.params.pawnless_draw {
            score = self.pawnless_scaled(pos, &scans, score, rule);
        }
        score.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
    }

    /// `score` (for the side to move of `pos`) under [`PawnlessDraw`],
    /// from the sides' `scans`: scaled when the side it favours has no
    /// pawn-like piece and too small a lead in the others to win.
    fn pawnless_scaled(
        &self,
        pos: &Position<'_>,
        scans: &ByColor<SideScan>,
        score: i64,
        rule: &PawnlessDraw,
    ) -> i64 {
        let us = pos.side_to_move();
        let ahead = if score >= 0 { us } else { !us };
        let present = scans[ahead].present_types;
        if self
            .pawn_types
            .iter()
            .any(|&kind| present & (1 << kind.index()) != 0)
        {
            return score;
        }
        // The scans' phase is exactly this: non-pawn, non-royal material,
        // board and pocket, by piece value.
        let (ours, theirs) = (scans[ahead].phase, scans[!ahead].phase);
        if ours - theirs > i64::from(rule.lead) {
            return score;
        }
        let scale = if ours < i64::from(rule.mating) {
            0
        } else {
            i64::from(rule.scale)
        };
        score * scale / 64
    }

    /// One side's pieces, board and pocket: material, piece-square terms,
    /// mobility, what they attack and reach, the danger they cause to the
    /// enemy royal piece's zone `enemy_zone`.
    // Out of line on purpose: inlined once per side into `evaluate` it took
    // 5% more instructions (callgrind, the class study's positions).
    #[inline(never)]
    fn scan_side(&self, pos: &Position<'_>, color: Color, enemy_zone: Bitboard) -> SideScan {
        let v = pos.variant();
        let p = &self.params;
        let occ = pos.occupied();
        let theirs = pos.pieces_of(!color);
        let mut scan = SideScan::default();
        // This side's sums, kept in locals in the hot loop.
        let mut material = 0i64;
        let (mut side_mg, mut side_eg, mut side_attacks) = (0i64, 0i64, Bitboard::EMPTY);
        let mut danger_caused = 0i64;
        for &kind in &self.piece_types {
            let bb = pos.pieces(color, kind);
            let pocketed = i64::from(pos.pocket_count(color, kind));
            if bb.is_empty() && pocketed == 0 {
                continue;
            }
            if kind != self.royal {
                scan.present_types |= 1 << kind.index();
            }
            let value = self.values[kind.index()];
            let on_board = i64::from(bb.count());
            material += pocketed * i64::from(self.pocket_values[kind.index()]);
            if kind != self.royal && !v.is_pawn(kind) {
                scan.phase += (on_board + pocketed) * i64::from(value.max(0));
            }
            if bb.is_empty() {
                continue;
            }
            material += on_board * i64::from(value);
            let table = &self.psq[color][kind.index()];
            let m = v.moves(color, kind);
            if kind != self.royal {
                scan.board_types |= 1 << kind.index();
            }
            if kind == self.royal || !self.reads_attacks {
                for sq in bb {
                    let (a, b) = table[sq.index()];
                    side_mg += i64::from(a);
                    side_eg += i64::from(b);
                    if self.reads_attacks {
                        side_attacks |= m.capture_reach(sq, occ);
                    }
                }
                continue;
            }
            let track_mobility = !v.is_pawn(kind);
            let baseline = i64::from(self.mobility_baseline[kind.index()]);
            let mobility = self.mobility[kind.index()];
            let attacker_units = self.attacker_units[kind.index()];
            let (mut kind_reach, mut kind_moves) = (Bitboard::EMPTY, Bitboard::EMPTY);
            for sq in bb {
                let (a, b) = table[sq.index()];
                side_mg += i64::from(a);
                side_eg += i64::from(b);
                let (targets, reach) = m.targets_and_capture_reach(sq, occ, theirs);
                kind_reach |= reach;
                kind_moves |= targets;
                if track_mobility {
                    let extra = i64::from(targets.count()) - baseline;
                    side_mg += extra * i64::from(mobility.mg) / 16;
                    side_eg += extra * i64::from(mobility.eg) / 16;
                }
                let on_zone = reach & enemy_zone;
                if on_zone.any() {
                    danger_caused += attacker_units
                        + i64::from(on_zone.count()) * i64::from(p.king_danger.zone_attack);
                }
            }
            side_attacks |= kind_reach;
            scan.reach_by_type[kind.index()] = kind_reach;
            scan.move_reach[kind.index()] = kind_moves & !occ;
        }
        scan.mg = side_mg + material;
        scan.eg = side_eg + material;
        scan.attacks = side_attacks;
        scan.danger_caused = danger_caused;
        scan
    }

    /// The middlegame cost of danger to `color`'s royal piece (`own` and
    /// `enemy` the two sides' scans): the enemy's attacks on its zone, the
    /// checks the enemy has at hand (board pieces moving to a square `color`
    /// does not defend, pocketed pieces dropped anywhere empty), less its
    /// pawn shield.
    #[inline]
    fn royal_danger(
        &self,
        pos: &Position<'_>,
        color: Color,
        own: &SideScan,
        enemy: &SideScan,
        shield: i64,
    ) -> i64 {
        let v = pos.variant();
        let them = !color;
        let occ = pos.occupied();
        let lines = SliderLines::new(pos.royal_square(color), occ);
        let mut check_squares = 0i64;
        let mut drop_squares = 0i64;
        for kind in types_in(enemy.present_types) {
            // Where this type's pieces move unopposed (only those squares can count).
            let safe_reach = enemy.move_reach[kind.index()] & !own.attacks;
            let in_pocket = pos.pocket_count(them, kind) > 0;
            if safe_reach.is_empty() && !in_pocket {
                continue;
            }
            let origins = v.moves(them, kind).attack_origins(&lines) & !occ;
            // A few checking squares make the threat; more add little.
            check_squares += i64::from((origins & safe_reach).count().min(3));
            if in_pocket {
                let ranks = v.drop_squares(them, kind);
                drop_squares += i64::from((origins & ranks).count().min(4));
            }
        }
        let k = &self.params.king_danger;
        self.danger_cost(
            enemy.danger_caused
                + check_squares * i64::from(k.safe_check)
                + drop_squares * i64::from(k.drop_check)
                - shield * i64::from(k.shield),
        )
    }

    /// The middlegame cost of `units` of royal danger: quadratic, capped.
    #[inline]
    fn danger_cost(&self, units: i64) -> i64 {
        if units > 0 {
            (units * units / 4096).min(i64::from(self.params.king_danger.cap))
        } else {
            0
        }
    }

    /// Threats against `color`'s pieces (middlegame, endgame): attacked and
    /// undefended, and attacked by an enemy piece of lower value.
    #[inline]
    fn threats(
        &self,
        pos: &Position<'_>,
        color: Color,
        own: &SideScan,
        enemy: &SideScan,
    ) -> (i64, i64) {
        let p = &self.params;
        let (mut mg, mut eg) = (0i64, 0i64);
        for kind in types_in(own.board_types) {
            let attacked = pos.pieces(color, kind) & enemy.attacks;
            if attacked.is_empty() {
                continue;
            }
            let hanging = i64::from((attacked & !own.attacks).count());
            mg += hanging * i64::from(p.hanging.mg);
            eg += hanging * i64::from(p.hanging.eg);
            let value = self.values[kind.index()];
            let lesser = self.reach_of_cheaper_types(kind, enemy.board_types, &enemy.reach_by_type);
            let threatened = i64::from((attacked & lesser).count());
            let hundreds = i64::from(value.clamp(0, 2_000) / 100);
            mg += threatened * i64::from(p.threat_by_lesser.mg) * hundreds;
            eg += threatened * i64::from(p.threat_by_lesser.eg) * hundreds;
        }
        (mg, eg)
    }

    /// The squares reached by the types in `types` (bit i: type i; their
    /// reach per type in `reach`) of strictly lower value than `kind`.
    #[inline]
    fn reach_of_cheaper_types(
        &self,
        kind: PieceType,
        types: u32,
        reach: &[Bitboard; MAX_PIECE_TYPES],
    ) -> Bitboard {
        types_in(types & self.cheaper_types[kind.index()])
            .fold(Bitboard::EMPTY, |acc, t| acc | reach[t.index()])
    }

    /// A pair of colour-bound pieces on both colours, file-riding pieces
    /// on open and half-open files, outposts, open files at the royal
    /// piece (middlegame, endgame; `pawns` the pawn-like pieces,
    /// `pawn_attacks` what they attack where a term needs it).
    #[inline]
    fn placement(
        &self,
        pos: &Position<'_>,
        color: Color,
        pawns: &ByColor<Bitboard>,
        pawn_attacks: &ByColor<Bitboard>,
    ) -> (i64, i64) {
        let p = &self.params;
        let (ours, theirs) = (pawns[color], pawns[!color]);
        let (mut mg, mut eg) = (0i64, 0i64);
        if !p.pair.is_zero() {
            for kind in types_in(self.colour_bound_types) {
                let bb = pos.pieces(color, kind);
                if (bb & DARK_SQUARES).any() && (bb & !DARK_SQUARES).any() {
                    mg += i64::from(p.pair.mg);
                    eg += i64::from(p.pair.eg);
                }
            }
        }
        if !(p.open_file.is_zero() && p.half_open_file.is_zero()) {
            for kind in types_in(self.file_rider_types) {
                for sq in pos.pieces(color, kind) {
                    let file = Bitboard::file(sq.file());
                    if (file & ours).any() {
                        continue;
                    }
                    let bonus = if (file & theirs).any() {
                        p.half_open_file
                    } else {
                        p.open_file
                    };
                    mg += i64::from(bonus.mg);
                    eg += i64::from(bonus.eg);
                }
            }
        }
        if !p.outpost.is_zero() {
            for kind in types_in(self.outpost_types) {
                for sq in pos.pieces(color, kind) & pawn_attacks[color] {
                    let rank = color.relative_rank(sq.rank());
                    let chasers =
                        theirs & ADJACENT_FILES[usize::from(sq.file())] & squares_ahead(color, sq);
                    if (3..=5).contains(&rank) && chasers.is_empty() {
                        mg += i64::from(p.outpost.mg);
                        eg += i64::from(p.outpost.eg);
                    }
                }
            }
        }
        if !p.king_open_file.is_zero() && !self.pawn_types.is_empty() {
            let file = pos.royal_square(color).file();
            let open = (file.saturating_sub(1)..=(file + 1).min(7))
                .filter(|&f| (ours & Bitboard::file(f)).is_empty())
                .count() as i64;
            mg += open * i64::from(p.king_open_file.mg);
            eg += open * i64::from(p.king_open_file.eg);
        }
        (mg, eg)
    }

    /// Doubled, isolated, connected, backward and passed pawn-like pieces
    /// of both sides (middlegame, endgame), and the passed ones: the terms
    /// that depend on the pawn-like pieces alone (`pawn_attacks` as for
    /// placement).
    fn pawn_structure(
        &self,
        pawns: &ByColor<Bitboard>,
        pawn_attacks: &ByColor<Bitboard>,
    ) -> PawnStructure {
        let p = &self.params;
        let mut structure = PawnStructure::default();
        for color in Color::ALL {
            let (ours, theirs) = (pawns[color], pawns[!color]);
            let (mut mg, mut eg) = (0i64, 0i64);
            for sq in ours {
                let file = sq.file();
                let file_bb = Bitboard::file(file);
                let adjacent = ADJACENT_FILES[usize::from(file)];
                if (ours & file_bb).has_more_than_one() {
                    mg += i64::from(p.doubled_pawn.mg / 2);
                    eg += i64::from(p.doubled_pawn.eg / 2);
                }
                let stop = sq.offset(0, color.forward());
                let ahead = squares_ahead(color, sq);
                if (ours & adjacent).is_empty() {
                    mg += i64::from(p.isolated_pawn.mg);
                    eg += i64::from(p.isolated_pawn.eg);
                } else if (ours & adjacent & !ahead).is_empty()
                    && stop.is_some_and(|stop| pawn_attacks[!color].contains(stop))
                {
                    mg += i64::from(p.backward_pawn.mg);
                    eg += i64::from(p.backward_pawn.eg);
                }
                // Beside an own pawn-like piece, or one rank behind it.
                let rank = Bitboard::rank(sq.rank());
                let behind = sq
                    .offset(0, -color.forward())
                    .map_or(Bitboard::EMPTY, |b| Bitboard::rank(b.rank()));
                if (ours & adjacent & (rank | behind)).any() {
                    mg += i64::from(p.connected_pawn.mg);
                    eg += i64::from(p.connected_pawn.eg);
                }
                if (theirs & (file_bb | adjacent) & ahead).is_empty() {
                    let bonus = p.passed_pawn[usize::from(color.relative_rank(sq.rank()))];
                    mg += i64::from(bonus.mg);
                    eg += i64::from(bonus.eg);
                    structure.passed[color] |= Bitboard::from_square(sq);
                }
            }
            structure.terms[color] = (mg, eg);
        }
        structure
    }

    /// What `color`'s passed pawn-like pieces on `passed` gain from the
    /// rest of the position (middlegame, endgame): the royal pieces'
    /// distances to each one's stop square, and a stop square that is
    /// empty and not attacked.
    fn passed_pawn_race(
        &self,
        pos: &Position<'_>,
        color: Color,
        passed: Bitboard,
        scans: &ByColor<SideScan>,
    ) -> (i64, i64) {
        let p = &self.params;
        let (mut mg, mut eg) = (0i64, 0i64);
        for sq in passed {
            let rank = color.relative_rank(sq.rank());
            if let Some(stop) = sq.offset(0, color.forward())
                && rank > 2
            {
                let distance = |c: Color| i64::from(pos.royal_square(c).distance(stop));
                let lead = (distance(!color) - distance(color)) * i64::from(rank - 2);
                mg += lead * i64::from(p.passed_king_distance.mg);
                eg += lead * i64::from(p.passed_king_distance.eg);
                if !pos.occupied().contains(stop) && !scans[!color].attacks.contains(stop) {
                    let scale = i64::from(rank - 2);
                    mg += scale * i64::from(p.passed_free.mg);
                    eg += scale * i64::from(p.passed_free.eg);
                }
            }
        }
        (mg, eg)
    }
}

/// The pawn-structure terms of one placement of the pawn-like pieces.
#[derive(Clone, Copy, Debug, Default)]
struct PawnStructure {
    /// Per side: doubled, isolated, backward, connected and passed pawns
    /// (middlegame, endgame).
    terms: ByColor<(i64, i64)>,
    /// Per side: the passed pawn-like pieces.
    passed: ByColor<Bitboard>,
}

/// What one searcher's evaluations keep from one position to the next:
/// scores come out the same, sooner.
#[derive(Clone, Debug)]
pub(crate) struct EvalCaches {
    pawns: PawnCache,
    network: Accumulator,
}

impl EvalCaches {
    pub(crate) fn new() -> EvalCaches {
        EvalCaches {
            pawns: PawnCache::new(),
            network: Accumulator::default(),
        }
    }
}

/// Pawn-structure terms by the placement of the pawn-like pieces, for
/// [`Evaluator::evaluate_cached`]. Entries are matched on the whole
/// placement, so a hit is always the structure itself. One belongs to one
/// evaluator (one variant and parameter set).
#[derive(Clone, Debug)]
pub(crate) struct PawnCache {
    entries: Vec<(ByColor<Bitboard>, PawnStructure)>,
}

impl PawnCache {
    const ENTRIES: usize = 1 << 12;

    pub(crate) fn new() -> PawnCache {
        // An empty entry is the structure of no pawns: correct as it stands.
        PawnCache {
            entries: vec![Default::default(); Self::ENTRIES],
        }
    }

    fn get_or_insert(
        &mut self,
        pawns: ByColor<Bitboard>,
        compute: impl FnOnce() -> PawnStructure,
    ) -> PawnStructure {
        let mixed = pawns.white.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ pawns.black.0.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let slot = &mut self.entries[(mixed >> (64 - Self::ENTRIES.trailing_zeros())) as usize];
        if slot.0 != pawns {
            *slot = (pawns, compute());
        }
        slot.1
    }
}

/// What the piece scan of one side finds, for the terms that follow it.
#[derive(Clone, Debug, Default)]
struct SideScan {
    /// Material (board and pocket), piece-square terms and mobility.
    mg: i64,
    eg: i64,
    /// Non-pawn material, board and pocket, for the phase.
    phase: i64,
    /// Squares the side's pieces attack.
    attacks: Bitboard,
    /// Per non-royal type: the squares its pieces attack, for threats by
    /// lesser pieces.
    reach_by_type: [Bitboard; MAX_PIECE_TYPES],
    /// Per non-royal type: the empty squares its pieces move to.
    move_reach: [Bitboard; MAX_PIECE_TYPES],
    /// Attack units on the enemy royal piece's zone.
    danger_caused: i64,
    /// The non-royal types on the board, and those on the board or in the
    /// pocket (bit i: type i), so the later terms skip absent ones.
    board_types: u32,
    present_types: u32,
}

/// The files beside each file.
const ADJACENT_FILES: [Bitboard; 8] = {
    let mut out = [Bitboard::EMPTY; 8];
    let mut file = 0;
    while file < 8 {
        let left = if file > 0 {
            Bitboard::file(file - 1).0
        } else {
            0
        };
        let right = if file < 7 {
            Bitboard::file(file + 1).0
        } else {
            0
        };
        out[file as usize] = Bitboard(left | right);
        file += 1;
    }
    out
};

/// The dark squares (a1's colour).
const DARK_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);

/// The piece types whose bits are set in `mask` (bit i: type i).
fn types_in(mut mask: u32) -> impl Iterator<Item = PieceType> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let index = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            PieceType::from_index(index)
        })
    })
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
    fn square_tables_add_to_the_derived_bonus_for_both_sides() {
        let v = builtin::load("chess").unwrap();
        let plain = Evaluator::new(&v, &EvalParams::default());
        let mut params = EvalParams::default();
        let mut table = crate::engine::SquareTable::zero();
        table.mg[Square::from_coords(3, 3).index()] = 50;
        table.eg[Square::from_coords(3, 3).index()] = 50;
        params.piece_squares.insert("N".into(), table);
        let tuned = Evaluator::new(&v, &params);
        let white = Position::from_fen(&v, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1").unwrap();
        let black = Position::from_fen(&v, "4k3/8/8/3n4/8/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(tuned.evaluate(&white), plain.evaluate(&white) + 50);
        assert_eq!(tuned.evaluate(&black), tuned.evaluate(&white));
        let elsewhere = Position::from_fen(&v, "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(tuned.evaluate(&elsewhere), plain.evaluate(&elsewhere));
    }

    #[test]
    fn pair_file_and_passer_terms_find_their_pieces() {
        let v = builtin::load("chess").unwrap();
        let plain = Evaluator::new(&v, &EvalParams::default());
        let letter = |mask: u32| -> String { types_in(mask).map(|t| v.letter(t)).collect() };
        assert_eq!(letter(plain.colour_bound_types), "B");
        assert_eq!(letter(plain.file_rider_types), "QR");
        let params = EvalParams {
            pair: Phased::new(40, 40),
            open_file: Phased::new(30, 30),
            half_open_file: Phased::new(10, 10),
            passed_king_distance: Phased::new(5, 5),
            ..EvalParams::default()
        };
        let with = Evaluator::new(&v, &params);
        let gain = |fen: &str| {
            let pos = Position::from_fen(&v, fen).unwrap();
            with.evaluate(&pos) - plain.evaluate(&pos)
        };
        assert_eq!(
            gain("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"),
            40,
            "bishops on both colours"
        );
        assert_eq!(
            gain("4k3/8/8/8/8/8/8/1B2KB2 w - - 0 1"),
            0,
            "both on light squares"
        );
        assert_eq!(
            gain("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1"),
            0,
            "own pawn on the file"
        );
        assert_eq!(gain("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1"), 10, "half-open");
        assert_eq!(gain("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), 30, "open");
        // White's passer on e5 (stop e6): Black's king on a8 is 4 away, White's on e1 5 away; rank 4 (from 0) less 2.
        assert_eq!(gain("k7/8/8/4P3/8/8/8/4K3 w - - 0 1"), 5 * (4 - 5) * 2);
        // Mirrored for Black to move, the same.
        assert_eq!(gain("4k3/8/8/8/4p3/8/8/K7 b - - 0 1"), 5 * (4 - 5) * 2);
    }

    #[test]
    fn outposts_backward_pawns_free_passers_and_open_royal_files() {
        let v = builtin::load("chess").unwrap();
        let plain = Evaluator::new(&v, &EvalParams::default());
        let letter = |mask: u32| -> String { types_in(mask).map(|t| v.letter(t)).collect() };
        assert_eq!(letter(plain.outpost_types), "BN");
        let (v, plain) = (&v, &plain);
        let gain_with = |params: EvalParams| {
            let with = Evaluator::new(v, &params);
            move |fen: &str| {
                let pos = Position::from_fen(v, fen).unwrap();
                with.evaluate(&pos) - plain.evaluate(&pos)
            }
        };
        let outpost = gain_with(EvalParams {
            outpost: Phased::new(30, 30),
            ..EvalParams::default()
        });
        assert_eq!(outpost("4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1"), 30);
        assert_eq!(
            outpost("4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1"),
            0,
            "a pawn on c7 can chase it"
        );
        assert_eq!(outpost("4k3/8/8/3N4/8/8/8/4K3 w - - 0 1"), 0, "undefended");
        assert_eq!(
            outpost("4k3/8/8/3R4/4P3/8/8/4K3 w - - 0 1"),
            0,
            "a file rider"
        );
        assert_eq!(outpost("4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1"), 0, "own half");
        assert_eq!(outpost("4k3/8/8/4p3/3n4/8/8/4K3 b - - 0 1"), 30, "Black's");

        let backward = gain_with(EvalParams {
            backward_pawn: Phased::new(-20, -20),
            ..EvalParams::default()
        });
        // d3 has its neighbour ahead on c4, and e5 attacks d4.
        assert_eq!(backward("4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1"), -20);
        assert_eq!(
            backward("4k3/8/8/8/2P5/3P4/8/4K3 w - - 0 1"),
            0,
            "stop safe"
        );
        assert_eq!(
            backward("4k3/8/8/4p3/2P5/2PP4/8/4K3 w - - 0 1"),
            0,
            "c3 beside it"
        );

        let free = gain_with(EvalParams {
            passed_free: Phased::new(10, 10),
            ..EvalParams::default()
        });
        // The passer on e5 is on rank 4 from 0: twice the weight.
        assert_eq!(free("k7/8/8/4P3/8/8/8/4K3 w - - 0 1"), 20);
        assert_eq!(free("8/4k3/8/4P3/8/8/8/4K3 w - - 0 1"), 0, "e6 attacked");
        assert_eq!(free("k7/8/4n3/4P3/8/8/8/4K3 w - - 0 1"), 0, "blocked");
        assert_eq!(
            free("k7/8/8/8/4P3/8/8/4K3 w - - 0 1"),
            10,
            "rank 3 from 0: once"
        );

        let open = gain_with(EvalParams {
            king_open_file: Phased::new(-15, -15),
            ..EvalParams::default()
        });
        // Black's king on h8 has pawns on g7 and h7 throughout.
        assert_eq!(open("7k/6pp/8/8/8/8/3PPP2/4K3 w - - 0 1"), 0);
        assert_eq!(open("7k/6pp/8/8/8/8/3P1P2/4K3 w - - 0 1"), -15);
        assert_eq!(
            open("7k/6pp/8/8/8/8/1P6/K7 w - - 0 1"),
            -15,
            "a and b files only"
        );
        assert_eq!(open("7k/6pp/8/8/8/8/8/4K3 w - - 0 1"), -45);
    }

    #[test]
    fn connected_pawns_and_mobility_by_piece() {
        let v = builtin::load("chess").unwrap();
        let plain = Evaluator::new(&v, &EvalParams::default());
        let connected = Evaluator::new(
            &v,
            &EvalParams {
                connected_pawn: Phased::new(7, 7),
                ..EvalParams::default()
            },
        );
        let gain = |with: &Evaluator, fen: &str| {
            let pos = Position::from_fen(&v, fen).unwrap();
            with.evaluate(&pos) - plain.evaluate(&pos)
        };
        assert_eq!(
            gain(&connected, "4k3/8/8/8/8/8/PP6/4K3 w - - 0 1"),
            14,
            "a phalanx: both"
        );
        assert_eq!(
            gain(&connected, "4k3/8/8/8/8/1P6/P7/4K3 w - - 0 1"),
            7,
            "a chain: the front one"
        );
        assert_eq!(
            gain(&connected, "4k3/8/8/8/1P6/8/P7/4K3 w - - 0 1"),
            0,
            "two ranks apart"
        );
        let mut same = EvalParams::default();
        same.mobility_by_piece.insert("N".into(), same.mobility);
        let same = Evaluator::new(&v, &same);
        let mut still = EvalParams::default();
        still
            .mobility_by_piece
            .insert("N".into(), Phased::new(0, 0));
        let still = Evaluator::new(&v, &still);
        let knight = "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1";
        assert_eq!(gain(&same, knight), 0);
        assert!(
            gain(&still, knight) < 0,
            "a central knight's mobility no longer counts"
        );
        let rook = "4k3/8/8/8/3R4/8/8/4K3 w - - 0 1";
        assert_eq!(gain(&still, rook), 0, "other pieces keep the shared weight");
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
    fn an_endgame_edge_without_pawns_counts_less_when_scaled() {
        let v = builtin::load("chess").unwrap();
        let whole = Evaluator::new(&v, &EvalParams::default());
        let params = EvalParams {
            endgame_scale: crate::engine::EndgameScale {
                no_pawns: 16,
                per_pawn: 16,
            },
            ..EvalParams::default()
        };
        let scaled = Evaluator::new(&v, &params);
        let both = |fen: &str| {
            let pos = Position::from_fen(&v, fen).unwrap();
            (whole.evaluate(&pos), scaled.evaluate(&pos))
        };
        // A knight up, no pawns: a quarter of the endgame score counts
        // (the knight's middlegame share stays whole).
        let (full, quarter) = both("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
        assert!(quarter > 0 && quarter < full / 2, "{quarter} vs {full}");
        // The pawns that count are the stronger side's: Black's pawn does
        // not spare White's edge the scaling, from either side's view.
        let (full, less) = both("4k3/p7/8/8/3N4/8/8/4K3 w - - 0 1");
        assert!(less < full - 100, "{less} vs {full}");
        let (black_full, black_less) = both("4k3/p7/8/8/3N4/8/8/4K3 b - - 0 1");
        assert!(
            black_less > black_full + 100,
            "{black_less} vs {black_full}"
        );
        // Four pawns for the stronger side: the whole score.
        let (full, same) = both("4k3/8/8/8/3N4/8/PPPP4/4K3 w - - 0 1");
        assert_eq!(full, same);
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

    #[test]
    fn an_exposed_king_and_a_hanging_piece_cost() {
        let v = builtin::load("chess").unwrap();
        let e = Evaluator::new(&v, &EvalParams::default());
        let eval = |fen: &str| e.evaluate(&Position::from_fen(&v, fen).unwrap());
        // The same material; in the second the black queen and rook bear
        // down on a shelterless white king.
        let safe = eval("3qk3/7r/8/8/8/8/PPP5/1K4QR w - - 0 1");
        let attacked = eval("4k3/8/8/8/8/1q6/r7/1K4QR w - - 0 1");
        assert!(attacked < safe - 100, "{attacked} vs {safe}");
        // A knight en prise to a pawn, and undefended, against a safe one.
        let hanging = eval("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1");
        let safe_knight = eval("4k3/8/8/8/8/8/3N4/4K3 w - - 0 1");
        assert!(hanging < safe_knight - 30, "{hanging} vs {safe_knight}");
    }

    #[test]
    fn pieces_that_can_be_dropped_next_to_the_king_are_danger() {
        let v = builtin::load("pocket-mutation").unwrap();
        let e = Evaluator::new(&v, &EvalParams::default());
        let eval = |fen: &str| e.evaluate(&Position::from_fen(&v, fen).unwrap());
        // Black holds a queen in the pocket either way; White's king is
        // open in the first and walled in by its own pawns in the second.
        let open = eval("4k3/pppppppp/8/8/8/8/8/4K3[q] w - - 0 20");
        let closed = eval("4k3/pppppppp/8/8/8/8/3PPP2/4K3[q] w - - 0 20");
        // Beyond the three pawns' material, the open king costs.
        let pawns = 3 * 100;
        assert!(open < closed - pawns, "{open} vs {closed}");
    }

    #[test]
    fn cheaper_reach_is_the_reach_of_strictly_cheaper_types() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        for name in builtin::names() {
            let v = builtin::load(name).unwrap();
            // Ties on purpose: several types share a value, as classes do.
            let mut params = EvalParams::default();
            for (i, kind) in v.piece_types().enumerate() {
                let value = [100, 300, 300, 500, 900][i % 5];
                params
                    .piece_values
                    .insert(v.letter(kind).to_string(), value);
            }
            for params in [EvalParams::default(), params] {
                let e = Evaluator::new(&v, &params);
                for _ in 0..20 {
                    let mut reach = [Bitboard::EMPTY; MAX_PIECE_TYPES];
                    for kind in v.piece_types() {
                        reach[kind.index()] = Bitboard(rng.random());
                    }
                    let present: u32 = rng.random();
                    for kind in v.piece_types() {
                        let naive = v
                            .piece_types()
                            .filter(|t| present & 1 << t.index() != 0)
                            .filter(|t| e.value(*t) < e.value(kind))
                            .fold(Bitboard::EMPTY, |acc, t| acc | reach[t.index()]);
                        let cheaper = e.reach_of_cheaper_types(kind, present, &reach);
                        assert_eq!(cheaper, naive, "{name}: {}", v.letter(kind));
                    }
                }
            }
        }
    }

    #[test]
    fn the_exchange_order_runs_from_the_least_valuable_to_the_royal_piece() {
        for name in builtin::names() {
            let v = builtin::load(name).unwrap();
            let e = Evaluator::new(&v, &EvalParams::default());
            let order = e.exchange_order();
            assert_eq!(order.len(), v.piece_types().count(), "{name}");
            for pair in order.windows(2) {
                let ((a, va), (b, vb)) = (pair[0], pair[1]);
                assert!(va < vb || (va == vb && a.index() < b.index()), "{name}");
            }
            for &(kind, value) in order {
                let expected = if kind == v.royal {
                    ROYAL_EXCHANGE_VALUE
                } else {
                    e.value(kind)
                };
                assert_eq!(value, expected, "{name}: {}", v.letter(kind));
            }
        }
    }

    #[test]
    fn extreme_values_stay_within_the_evaluation_bound() {
        let v = builtin::load("chess").unwrap();
        let mut params = EvalParams::default();
        for letter in ["P", "N", "B", "R", "Q"] {
            params.piece_values.insert(letter.into(), 100_000);
        }
        for (_, w) in params.weights_mut() {
            *w = 10_000;
        }
        params.validate().unwrap();
        let e = Evaluator::new(&v, &params);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/QQQQKQQQ w - - 0 1",
            "qqqqkqqq/8/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            let score = e.evaluate(&Position::from_fen(&v, fen).unwrap());
            assert!(score.abs() <= MAX_EVAL, "{fen}: {score}");
        }
        // A queen up is good for the side that has it, with values x10.
        params = EvalParams::default();
        for (letter, value) in [
            ("P", 1000),
            ("N", 3200),
            ("B", 3300),
            ("R", 5000),
            ("Q", 9500),
        ] {
            params.piece_values.insert(letter.into(), value);
        }
        let e = Evaluator::new(&v, &params);
        let queen_up = Position::from_fen(&v, "3qk3/8/8/8/8/8/8/3QK2Q w - - 0 1").unwrap();
        assert!(e.evaluate(&queen_up) > 5_000);
    }

    /// The position after a move of `moves` (those of `pos`) drawn by
    /// `rng`; `None` when there is none or it is illegal: a random game's
    /// next step.
    fn random_successor<'v>(
        pos: &Position<'v>,
        moves: &[crate::Move],
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Option<Position<'v>> {
        use crate::game::GamePosition;
        use rand::RngExt;
        (!moves.is_empty())
            .then(|| moves[rng.random_range(0..moves.len())])
            .and_then(|mv| pos.successor(mv))
    }

    /// Without any weight that reads attacks, the evaluation skips them
    /// and scores every position as the full scan does.
    #[test]
    fn without_attack_terms_the_scan_skips_attacks_and_scores_the_same() {
        use crate::game::GamePosition;
        use rand::SeedableRng;
        for name in ["chess", "pocket-mutation"] {
            let v = builtin::load(name).unwrap();
            let mut params = EvalParams::default();
            for (i, (_, w)) in params.weights_mut().into_iter().enumerate() {
                *w = (i as i32 * 37) % 61 - 30;
            }
            // Every weight that reads attacks, off; the rest as they were.
            params.mobility = Phased::new(0, 0);
            params.mobility_by_piece.clear();
            params.king_danger.attacker = 0;
            params.king_danger.zone_attack = 0;
            params.king_danger.safe_check = 0;
            params.king_danger.drop_check = 0;
            for w in [
                &mut params.hanging,
                &mut params.threat_by_lesser,
                &mut params.passed_free,
                &mut params.backward_pawn,
                &mut params.outpost,
            ] {
                *w = Phased::new(0, 0);
            }
            let light = Evaluator::new(&v, &params);
            assert!(!light.reads_attacks, "{name}");
            let mut full = light.clone();
            full.reads_attacks = true;
            // One attack weight on: the scan reads attacks again.
            let mut mobile = params.clone();
            mobile.mobility = Phased::new(1, 0);
            assert!(Evaluator::new(&v, &mobile).reads_attacks, "{name}");
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
            let mut positions = 0;
            for _ in 0..10 {
                let mut pos = Position::start(&v);
                for _ in 0..150 {
                    assert_eq!(
                        light.evaluate(&pos),
                        full.evaluate(&pos),
                        "{}",
                        pos.to_fen()
                    );
                    positions += 1;
                    let mut moves = Vec::new();
                    pos.generate_moves(&mut moves);
                    let Some(next) = random_successor(&pos, &moves, &mut rng) else {
                        break;
                    };
                    pos = next;
                }
            }
            assert!(positions > 500, "{name}: {positions}");
        }
    }

    /// A lead without pawns that cannot win is scaled toward a draw; leads
    /// that win, and a side with a pawn, are left alone; both colours and
    /// both sides to move alike.
    #[test]
    fn pawnless_leads_that_cannot_win_are_scaled_toward_a_draw() {
        let chess = builtin::load("chess").unwrap();
        let ruled = EvalParams {
            pawnless_draw: Some(PawnlessDraw {
                lead: 350,
                mating: 500,
                scale: 8,
            }),
            ..EvalParams::default()
        };
        let plain = Evaluator::new(&chess, &EvalParams::default());
        let ruled = Evaluator::new(&chess, &ruled);
        let eval = |e: &Evaluator, fen: &str| e.evaluate(&Position::from_fen(&chess, fen).unwrap());
        // A lone minor piece cannot mate: a draw.
        for fen in [
            "8/8/4k3/8/8/3BK3/8/8 w - - 0 1",
            "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",
            "8/8/3bk3/8/8/4K3/8/8 w - - 0 1",
            "8/8/4k3/8/8/2N1K3/8/8 b - - 0 1",
            "8/8/4k3/4p3/8/3BK3/8/8 w - - 0 1",
        ] {
            assert!(
                eval(&plain, fen).abs() > 100,
                "{fen}: {}",
                eval(&plain, fen)
            );
            assert_eq!(eval(&ruled, fen), 0, "{fen}");
        }
        // A rook against a bishop: 8 64ths of the score, for either side.
        for fen in [
            "8/8/3bk3/8/8/4K3/8/R7 w - - 0 1",
            "8/8/3bk3/8/8/4K3/8/R7 b - - 0 1",
        ] {
            let score = eval(&plain, fen);
            assert!(score.abs() > 100, "{fen}: {score}");
            assert_eq!(eval(&ruled, fen), score * 8 / 64, "{fen}");
        }
        // A rook, or bishop and knight, win; a pawn can queen.
        for fen in [
            "8/8/4k3/8/8/4K3/8/R7 w - - 0 1",
            "8/8/4k3/8/8/3BK3/8/N7 b - - 0 1",
            "8/8/4k3/8/8/3BK3/4P3/8 w - - 0 1",
        ] {
            assert_eq!(eval(&ruled, fen), eval(&plain, fen), "{fen}");
        }
    }

    /// Every position of seeded random games, in variants with and without
    /// pockets and with pawns that capture as leapers or as riders: the
    /// cached evaluation is the evaluation, with every weight switched on
    /// and a network two unit blocks wide over every piece letter. Each
    /// move's siblings are evaluated too, and now and then a position of
    /// another game, so the network's sums are carried both ways and
    /// started afresh.
    #[test]
    fn the_caches_change_no_score() {
        use crate::engine::{Activation, Network, Views};
        use crate::game::GamePosition;
        use rand::{RngExt, SeedableRng};
        let rider_pawns = crate::kind::parse_variant(
            "rider-pawns.toml",
            "name = \"rider-pawns\"\ninherits = \"chess\"\n\n[pieces.P]\nbetza = \"fmWfcB\"\n",
            &builtin::resolve,
        )
        .unwrap();
        let variants = [
            builtin::load("chess").unwrap(),
            builtin::load("pocket-mutation").unwrap(),
            rider_pawns,
        ];
        let mut params = EvalParams::default();
        for (i, (_, w)) in params.weights_mut().into_iter().enumerate() {
            *w = (i as i32 * 37) % 61 - 30;
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let pieces = "PNBRQKIXUCHDFEGJALM";
        let hidden = 70;
        let mut weights = |n: usize, bound: i32| -> Vec<i32> {
            (0..n).map(|_| rng.random_range(-bound..=bound)).collect()
        };
        // Three shapes of network: the mover's view with clipped units;
        // both views with squared ones and output buckets; and with king
        // buckets, whose sums are read afresh when a royal piece changes
        // bucket.
        for (views, activation, buckets, king_buckets) in [
            (Views::Mover, Activation::Clipped, 1, 1),
            (Views::Both, Activation::Squared, 5, 1),
            (Views::Both, Activation::Squared, 3, 4),
        ] {
            params.network = Some(Network {
                pieces: pieces.into(),
                hidden,
                views,
                activation,
                buckets,
                king_buckets,
                input: weights(
                    Network::inputs_for(pieces.len(), king_buckets) * hidden,
                    300,
                ),
                bias: weights(hidden, 300),
                output: weights(buckets * views.count() * hidden, 2000),
                output_bias: weights(buckets, 50),
            });
            params.validate().unwrap();
            for (v, cacheable) in variants.iter().zip([true, true, false]) {
                let e = Evaluator::new(v, &params);
                assert_eq!(e.pawn_structure_cacheable, cacheable, "{}", v.name);
                let mut caches = EvalCaches::new();
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
                let mut positions = 0;
                let mut other_game = Position::start(v);
                for _ in 0..20 {
                    let mut pos = Position::start(v);
                    for ply in 0..120 {
                        let mut check = |pos: &Position<'_>| {
                            assert_eq!(
                                e.evaluate_cached(pos, &mut caches),
                                e.evaluate(pos),
                                "{} {}",
                                v.name,
                                pos.to_fen()
                            );
                            positions += 1;
                        };
                        check(&pos);
                        let mut moves = Vec::new();
                        pos.generate_moves(&mut moves);
                        for &mv in moves.iter().step_by(7) {
                            if let Some(child) = pos.successor(mv) {
                                check(&child);
                            }
                        }
                        if ply % 17 == 0 {
                            check(&other_game);
                            other_game = pos.clone();
                        }
                        let Some(next) = random_successor(&pos, &moves, &mut rng) else {
                            break;
                        };
                        pos = next;
                    }
                }
                assert!(positions > 1_000, "{}: {positions}", v.name);
            }
        }
    }
}
