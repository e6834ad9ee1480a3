//! Perft: count the leaf nodes of the legal move tree, with bulk counting at
//! the last ply (as the independent oracle counts), for any
//! [`GamePosition`]. No n-move, repetition or dead-position rule applies:
//! those end games, not move generation.
//!
//! ```
//! use pocketlab_core::{Position, builtin, perft::perft};
//!
//! let chess = builtin::load("chess").unwrap();
//! assert_eq!(perft(&Position::start(&chess), 3), 8_902);
//! ```

use crate::game::GamePosition;

/// The deepest perft the lab runs: chess perft 15 is already a record
/// count, so a deeper request is a mistake, not a wish (and each ply is a
/// stack frame with a move list).
pub const MAX_PERFT_DEPTH: u32 = 20;

/// Leaf count at `depth` plies (`depth` above [`MAX_PERFT_DEPTH`] is cut to it).
pub fn perft<P: GamePosition>(pos: &P, depth: u32) -> u64 {
    let depth = depth.min(MAX_PERFT_DEPTH);
    let mut buffers = vec![Vec::with_capacity(256); depth as usize];
    perft_with(pos, depth, &mut buffers)
}

fn perft_with<P: GamePosition>(pos: &P, depth: u32, buffers: &mut [Vec<P::Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let (list, rest) = buffers.split_first_mut().expect("one buffer per ply");
            list.clear();
            pos.generate_moves(list);
            list.iter()
                .filter_map(|&mv| pos.successor(mv))
                .map(|child| perft_with(&child, depth - 1, rest))
                .sum()
        }
    }
}

/// Leaf counts below each legal root move, in generation order.
pub fn perft_divide<P: GamePosition>(pos: &P, depth: u32) -> Vec<(P::Move, u64)> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .filter_map(|mv| {
            let child = pos.successor(mv)?;
            Some((
                mv,
                if depth <= 1 {
                    1
                } else {
                    perft(&child, depth - 1)
                },
            ))
        })
        .collect()
}
