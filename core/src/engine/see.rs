//! Static exchange evaluation for any piece set: the least valuable attacker
//! recaptures in turn, with attacks recomputed after each capture so that
//! x-rays through sliders and riders appear.

use super::eval::Evaluator;
use crate::movement::SliderLines;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Bitboard, Color, Square};

/// Where an exchange starts: the square, what the first move takes, what
/// then stands there, the occupancy after the move and who answers.
struct Exchange {
    to: Square,
    first_victim: i32,
    on_square: i32,
    occupied: Bitboard,
    answering: Color,
}

impl Exchange {
    /// `None` for castling and pocket-ins, which start no exchange.
    fn of(pos: &Position<'_>, eval: &Evaluator, mv: Move) -> Option<Exchange> {
        let (from, to, first_victim) = match mv {
            Move::Normal { from, to } | Move::Promotion { from, to, .. } => (
                Some(from),
                to,
                pos.piece_at(to).map_or(0, |p| eval.value(p.kind)),
            ),
            Move::EnPassant { from, to } => {
                let victim = to
                    .offset(0, -pos.side_to_move().forward())
                    .and_then(|s| pos.piece_at(s));
                (Some(from), to, victim.map_or(0, |p| eval.value(p.kind)))
            }
            Move::Drop { to, .. } => (None, to, 0),
            Move::Castle { .. } | Move::PocketIn { .. } => return None,
        };
        let on_square = match mv {
            Move::Promotion { into, .. } => eval.value(into),
            Move::Drop { kind, .. } => eval.value(kind),
            _ => eval.value(
                pos.piece_at(from.expect("a board move starts on a square"))
                    .expect("a board move starts on a piece")
                    .kind,
            ),
        };
        Some(Exchange {
            to,
            first_victim,
            on_square,
            occupied: from.map_or(pos.occupied(), |f| pos.occupied().without(f)),
            answering: !pos.side_to_move(),
        })
    }
}

/// The material balance of the exchange `mv` starts on its target square,
/// in centipawns. A quiet move or a drop starts it with nothing taken: its
/// balance is what the moved piece risks on its new square (0 or less).
/// Castling and pocket-ins start no exchange (0).
pub fn see(pos: &Position<'_>, eval: &Evaluator, mv: Move) -> i32 {
    let Some(Exchange {
        to,
        first_victim,
        mut on_square,
        mut occupied,
        answering,
    }) = Exchange::of(pos, eval, mv)
    else {
        return 0;
    };
    let mut gains = [0i32; 40];
    gains[0] = first_victim;
    let mut side = answering;
    let mut n = 1;
    while n < gains.len() {
        let Some((sq, value)) = least_valuable_attacker(pos, eval, to, side, occupied) else {
            break;
        };
        gains[n] = on_square - gains[n - 1];
        on_square = value;
        occupied = occupied.without(sq);
        side = !side;
        n += 1;
    }
    while n > 1 {
        n -= 1;
        gains[n - 1] = -(-gains[n - 1]).max(gains[n]);
    }
    gains[0]
}

/// Whether [`see`] of `mv` is at least `threshold`, stopping as soon as
/// the answer is known (most calls in the search need one or two
/// attacker lookups, not the whole exchange).
pub(crate) fn see_at_least(pos: &Position<'_>, eval: &Evaluator, mv: Move, threshold: i32) -> bool {
    let Some(Exchange {
        to,
        first_victim,
        on_square,
        mut occupied,
        answering,
    }) = Exchange::of(pos, eval, mv)
    else {
        return 0 >= threshold;
    };
    // What the mover is ahead of the threshold if the exchange stops now...
    let mut swap = first_victim - threshold;
    if swap < 0 {
        return false;
    }
    // ...and if the mover is taken and it stops then.
    swap = on_square - swap;
    if swap <= 0 {
        return true;
    }
    // `mover_wins`: the outcome if the exchange ends with the latest capture.
    let mut mover_wins = true;
    let mut side = answering;
    while let Some((sq, value)) = least_valuable_attacker(pos, eval, to, side, occupied) {
        occupied = occupied.without(sq);
        mover_wins = !mover_wins;
        // Settled when the side that just captured stays ahead even after
        // losing the capturing piece (`value`).
        swap = value - swap;
        if swap < i32::from(mover_wins) {
            break;
        }
        side = !side;
    }
    mover_wins
}

fn least_valuable_attacker(
    pos: &Position<'_>,
    eval: &Evaluator,
    sq: Square,
    side: Color,
    occ: Bitboard,
) -> Option<(Square, i32)> {
    let v = pos.variant();
    let lines = SliderLines::new(sq, occ);
    // Least valuable first: the first type with an attacker has it.
    for &(kind, value) in eval.exchange_order() {
        let candidates = pos.pieces(side, kind) & occ;
        if candidates.is_empty() {
            continue;
        }
        if let Some(attacker) = v.moves(side, kind).attackers_of(&lines, candidates).first() {
            return Some((attacker, value));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;
    use crate::engine::params::EvalParams;
    use crate::notation;

    #[test]
    fn exchanges_are_counted_with_xrays() {
        let v = builtin::load("chess").unwrap();
        let e = Evaluator::new(&v, &EvalParams::default());
        let value = |fen: &str, mv: &str| {
            let pos = Position::from_fen(&v, fen).unwrap();
            see(&pos, &e, notation::parse(&pos, mv).unwrap())
        };
        // Rook takes a defended pawn: loses the exchange.
        assert_eq!(
            value("4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1", "e1e5"),
            100 - 500
        );
        // Undefended pawn.
        assert_eq!(value("4k3/8/8/4p3/8/8/8/4RK2 w - - 0 1", "e1e5"), 100);
        // Doubled rooks: the second rook x-rays through the first.
        assert_eq!(value("4k3/4r3/8/4p3/8/8/4R3/4RK2 w - - 0 1", "e2e5"), 100);
        // A quiet move onto a square a pawn guards risks the piece.
        assert_eq!(value("k7/8/3p4/8/8/8/8/4RK2 w - - 0 1", "e1e5"), -500);
        assert_eq!(value("k7/8/8/8/8/8/8/4RK2 w - - 0 1", "e1e5"), 0);
    }

    #[test]
    fn the_threshold_test_agrees_with_the_full_exchange() {
        for (variant, fens) in [
            (
                "chess",
                &[
                    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                    "4k3/4r3/8/4p3/3P4/8/4R3/4RK2 w - - 0 1",
                    "2r3k1/1q3ppp/8/2b5/3Q4/2N5/5PPP/2R3K1 b - - 0 1",
                ][..],
            ),
            (
                "pocket-mutation",
                &["r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Nn] w - - 4 4"][..],
            ),
        ] {
            let v = builtin::load(variant).unwrap();
            let e = Evaluator::new(&v, &EvalParams::default());
            for fen in fens {
                let pos = Position::from_fen(&v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                for mv in pos.legal_moves() {
                    let full = see(&pos, &e, mv);
                    for threshold in [-1000, -500, -320, -100, -1, 0, 1, 100, 200, 330, 900] {
                        assert_eq!(
                            see_at_least(&pos, &e, mv, threshold),
                            full >= threshold,
                            "{fen} {mv:?} threshold {threshold}: see {full}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn drops_risk_the_dropped_piece() {
        let v = builtin::load("pocket-mutation").unwrap();
        let e = Evaluator::new(&v, &EvalParams::default());
        let pos = Position::from_fen(&v, "4k3/8/3p4/8/8/8/8/4K3[N] w - - 0 9").unwrap();
        let guarded = see(&pos, &e, notation::parse(&pos, "N@e5").unwrap());
        assert_eq!(guarded, -e.value(v.piece_by_letter('N').unwrap()));
        assert_eq!(see(&pos, &e, notation::parse(&pos, "N@a5").unwrap()), 0);
    }
}
