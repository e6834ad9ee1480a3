//! Perft: count the leaf nodes of the legal move tree, with bulk counting at
//! the last ply (as the independent oracle counts). No n-move, repetition or
//! dead-position rule applies: those end games, not move generation.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Leaf count at `depth` plies.
pub fn perft(pos: &Position<'_>, depth: u32) -> u64 {
    let mut buffers = vec![MoveList::with_capacity(256); depth as usize];
    perft_with(pos, depth, &mut buffers)
}

fn perft_with(pos: &Position<'_>, depth: u32, buffers: &mut [MoveList]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let (list, rest) = buffers.split_first_mut().expect("one buffer per ply");
            list.clear();
            pos.append_legal_moves(list);
            let mut child = pos.clone();
            list.iter()
                .map(|&mv| {
                    child.clone_from(pos);
                    child.play_unchecked(mv);
                    perft_with(&child, depth - 1, rest)
                })
                .sum()
        }
    }
}

/// Leaf counts below each legal root move, in generation order.
pub fn perft_divide(pos: &Position<'_>, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            (
                mv,
                if depth <= 1 {
                    1
                } else {
                    perft(&pos.after(mv), depth - 1)
                },
            )
        })
        .collect()
}
