//! Quiet positions: the positions whose material and placement a fit of
//! game results may read at face value (training samples, the value of
//! square colours).

use super::{Evaluator, see};
use crate::{Move, MoveList, Position};

/// A position is quiet when the side to move is not in check and has no
/// capture or promotion that wins material by static exchange.
pub fn is_quiet(pos: &Position<'_>, eval: &Evaluator, buffer: &mut MoveList) -> bool {
    if pos.is_check() {
        return false;
    }
    buffer.clear();
    pos.tactical_moves(buffer);
    !buffer.iter().any(|&m| match m {
        Move::PocketIn { .. } | Move::Promotion { .. } => true,
        _ => see(pos, eval, m) > 0,
    })
}
