//! Standard algebraic notation for PGN export. Drops are written `N@e4` and
//! pocket-ins in the project's notation (`^e2`, `^e8=C`), each with `+` or
//! `#` when they give check or mate.

use crate::moves::Move;
use crate::notation;
use crate::position::Position;

/// The SAN of a legal move.
pub fn format(pos: &Position<'_>, mv: Move) -> String {
    let v = pos.variant();
    let mut out = match mv {
        Move::Castle { king, partner } => {
            if partner.file() > king.file() {
                "O-O".to_owned()
            } else {
                "O-O-O".to_owned()
            }
        }
        Move::Drop { .. } | Move::PocketIn { .. } => notation::format(pos, mv),
        Move::Normal { from, to }
        | Move::Promotion { from, to, .. }
        | Move::EnPassant { from, to } => {
            let piece = pos.piece_at(from).expect("a board move starts on a piece");
            let capture = pos.piece_at(to).is_some() || matches!(mv, Move::EnPassant { .. });
            let mut s = String::new();
            if v.is_pawn(piece.kind) {
                if capture {
                    s.push((b'a' + from.file()) as char);
                }
            } else {
                s.push(v.letter(piece.kind));
                s.push_str(&disambiguation(pos, mv));
            }
            if capture {
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Move::Promotion { into, .. } = mv {
                s.push('=');
                s.push(v.letter(into));
            }
            s
        }
    };
    let next = pos.after(mv);
    if next.is_check() {
        out.push(if next.count_legal_moves() == 0 {
            '#'
        } else {
            '+'
        });
    }
    out
}

/// File, rank or both, as needed to tell this move from another piece of
/// the same type going to the same square.
fn disambiguation(pos: &Position<'_>, mv: Move) -> String {
    let (Some(from), Some(to)) = (mv.from(), mv.to()) else {
        return String::new();
    };
    let kind = pos.piece_at(from).map(|p| p.kind);
    let rivals: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| matches!(m, Move::Normal { .. } | Move::Promotion { .. }))
        .filter_map(|m| Some((m.from()?, m.to()?)))
        .filter(|&(f, t)| t == to && f != from && pos.piece_at(f).map(|p| p.kind) == kind)
        .map(|(f, _)| f)
        .collect();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|r| r.file() != from.file()) {
        ((b'a' + from.file()) as char).to_string()
    } else if rivals.iter().all(|r| r.rank() != from.rank()) {
        (from.rank() + 1).to_string()
    } else {
        from.to_string()
    }
}
