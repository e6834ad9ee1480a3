//! Static exchange evaluation for any piece set: the least valuable attacker
//! recaptures in turn, with attacks recomputed after each capture so that
//! x-rays through sliders and riders appear.

use super::eval::Evaluator;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Bitboard, Color, Square};

/// The material balance of the exchange `mv` starts on its target square,
/// in centipawns. A quiet move or a drop starts it with nothing taken: its
/// balance is what the moved piece risks on its new square (0 or less).
/// Castling and pocket-ins start no exchange (0).
pub fn see(pos: &Position<'_>, eval: &Evaluator, mv: Move) -> i32 {
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
        Move::Castle { .. } | Move::PocketIn { .. } => return 0,
    };
    let mover_kind = match (mv, from) {
        (Move::Drop { kind, .. }, _) => kind,
        (_, Some(from)) => {
            pos.piece_at(from)
                .expect("a board move starts on a piece")
                .kind
        }
        (_, None) => unreachable!("only drops start nowhere"),
    };
    let mover = crate::Piece {
        color: pos.side_to_move(),
        kind: mover_kind,
    };
    let mut on_square = match mv {
        Move::Promotion { into, .. } => eval.value(into),
        _ => eval.value(mover.kind),
    };
    let mut gains = [0i32; 40];
    gains[0] = first_victim;
    let mut occ = from.map_or(pos.occupied(), |f| pos.occupied().without(f));
    let mut side = !mover.color;
    let mut n = 1;
    while n < gains.len() {
        let Some((sq, value)) = least_valuable_attacker(pos, eval, to, side, occ) else {
            break;
        };
        gains[n] = on_square - gains[n - 1];
        on_square = value;
        occ = occ.without(sq);
        side = !side;
        n += 1;
    }
    while n > 1 {
        n -= 1;
        gains[n - 1] = -(-gains[n - 1]).max(gains[n]);
    }
    gains[0]
}

fn least_valuable_attacker(
    pos: &Position<'_>,
    eval: &Evaluator,
    sq: Square,
    side: Color,
    occ: Bitboard,
) -> Option<(Square, i32)> {
    let v = pos.variant();
    let mut best: Option<(Square, i32)> = None;
    for kind in v.piece_types() {
        let candidates = pos.pieces(side, kind) & occ;
        if candidates.is_empty() {
            continue;
        }
        let value = if kind == v.royal {
            100_000
        } else {
            eval.value(kind)
        };
        if best.is_some_and(|(_, b)| b <= value) {
            continue;
        }
        if let Some(attacker) = v
            .moves(side, kind)
            .attackers_of(sq, occ, candidates)
            .first()
        {
            best = Some((attacker, value));
        }
    }
    best
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
        // A quiet move onto a square a pawn guards risks the piece. (The
        // black king stands on a8: on e8, with the e-file open, Black would
        // be in check with White to move, a position FEN parsing refuses.)
        assert_eq!(value("k7/8/3p4/8/8/8/8/4RK2 w - - 0 1", "e1e5"), -500);
        assert_eq!(value("k7/8/8/8/8/8/8/4RK2 w - - 0 1", "e1e5"), 0);
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
