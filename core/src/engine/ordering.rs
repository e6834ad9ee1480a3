//! Move ordering: hash move, winning captures and promotions (MVV-LVA
//! checked by SEE), killers, history; losing captures and pocket-ins last.

use super::eval::Evaluator;
use super::see::see;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, MAX_PIECE_TYPES, Square};

pub(crate) const HASH_MOVE: i32 = 2_000_000;
const GOOD_CAPTURE: i32 = 1_000_000;
const PROMOTION: i32 = 900_000;
const KILLER: i32 = 800_000;
const BAD_CAPTURE: i32 = -1_000_000;
/// Pocket-ins that are not promotions cost a tempo and rarely refute: try them late.
const POCKET_IN: i32 = -400_000;
pub(crate) const HISTORY_MAX: i32 = 16_384;

/// Quiet-move history, by side, moved (or dropped, or resulting) piece type and square.
#[derive(Clone, Debug)]
pub(crate) struct History(Vec<i32>);

impl History {
    pub(crate) fn new() -> History {
        History(vec![0; 2 * MAX_PIECE_TYPES * 64])
    }

    fn index(color: Color, kind: usize, sq: Square) -> usize {
        (color.index() * MAX_PIECE_TYPES + kind) * 64 + sq.index()
    }

    pub(crate) fn get(&self, pos: &Position<'_>, mv: Move) -> i32 {
        history_key(pos, mv).map_or(0, |(k, sq)| self.0[Self::index(pos.side_to_move(), k, sq)])
    }

    /// Gravity update: the bonus shrinks as the entry nears its bound.
    pub(crate) fn update(&mut self, pos: &Position<'_>, mv: Move, bonus: i32) {
        if let Some((k, sq)) = history_key(pos, mv) {
            let e = &mut self.0[Self::index(pos.side_to_move(), k, sq)];
            *e += bonus - *e * bonus.abs() / HISTORY_MAX;
        }
    }

    pub(crate) fn clear(&mut self) {
        self.0.iter_mut().for_each(|e| *e = 0);
    }
}

fn history_key(pos: &Position<'_>, mv: Move) -> Option<(usize, Square)> {
    match mv {
        Move::Normal { from, to } | Move::EnPassant { from, to } => {
            Some((pos.piece_at(from)?.kind.index(), to))
        }
        Move::Promotion { to, into, .. } => Some((into.index(), to)),
        Move::Drop { kind, to } => Some((kind.index(), to)),
        Move::PocketIn { from, into } => Some((into.index(), from)),
        Move::Castle { king, .. } => Some((pos.piece_at(king)?.kind.index(), king)),
    }
}

/// Whether a move captures.
pub(crate) fn is_capture(pos: &Position<'_>, mv: Move) -> bool {
    match mv {
        Move::Normal { to, .. } | Move::Promotion { to, .. } => pos.piece_at(to).is_some(),
        Move::EnPassant { .. } => true,
        _ => false,
    }
}

/// Material a promotion gains (FIDE or by pocketing from the last rank), if it is one.
pub(crate) fn promotion_gain(pos: &Position<'_>, eval: &Evaluator, mv: Move) -> Option<i32> {
    let v = pos.variant();
    match mv {
        Move::Promotion { from, into, .. } => {
            Some(eval.value(into) - eval.value(pos.piece_at(from)?.kind))
        }
        Move::PocketIn { from, into } => {
            let piece = pos.piece_at(from)?;
            let promotes = pos.side_to_move().relative_rank(from.rank()) == 7
                && v.rules
                    .pocket
                    .as_ref()
                    .is_some_and(|p| p.promote_from_last_rank);
            promotes.then(|| eval.value(into) - eval.value(piece.kind))
        }
        _ => None,
    }
}

/// Whether a move changes material (captures and promotions): never reduced or pruned as quiet.
pub(crate) fn is_tactical(pos: &Position<'_>, eval: &Evaluator, mv: Move) -> bool {
    is_capture(pos, mv) || promotion_gain(pos, eval, mv).is_some()
}

pub(crate) fn score_move(
    pos: &Position<'_>,
    eval: &Evaluator,
    history: &History,
    killers: &[Option<Move>; 2],
    hash_move: Option<Move>,
    mv: Move,
) -> i32 {
    if Some(mv) == hash_move {
        return HASH_MOVE;
    }
    if is_capture(pos, mv) {
        let victim_square = match mv {
            Move::EnPassant { to, .. } => to.offset(0, -pos.side_to_move().forward()),
            _ => mv.to(),
        };
        let victim = victim_square
            .and_then(|s| pos.piece_at(s))
            .map_or(0, |p| eval.value(p.kind));
        let attacker = mv
            .from()
            .and_then(|f| pos.piece_at(f))
            .map_or(0, |p| eval.value(p.kind));
        let mvv_lva = victim * 8 - attacker / 8 + promotion_gain(pos, eval, mv).unwrap_or(0);
        let winning = attacker <= victim || see(pos, eval, mv) >= 0;
        return if winning {
            GOOD_CAPTURE + mvv_lva
        } else {
            BAD_CAPTURE + mvv_lva
        };
    }
    if let Some(gain) = promotion_gain(pos, eval, mv) {
        return PROMOTION + gain;
    }
    if killers[0] == Some(mv) {
        return KILLER + 1;
    }
    if killers[1] == Some(mv) {
        return KILLER;
    }
    let h = history.get(pos, mv);
    match mv {
        Move::PocketIn { .. } => POCKET_IN + h,
        _ => h,
    }
}

/// Swap the best remaining move to position `i` and return it.
pub(crate) fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
    let best = (i..moves.len())
        .max_by_key(|&j| (scores[j], std::cmp::Reverse(j)))
        .expect("a move remains");
    moves.swap(i, best);
    scores.swap(i, best);
    moves[i]
}
