//! A deliberately naive move generator for tests: it re-parses each piece's
//! Betza text (for a by-region piece, the Betza of the region whose letter
//! the map's text shows on its square) and walks every ray square by
//! square, tests legality by playing the move and scanning every enemy
//! piece's rays for the royal square, and so shares no tables or shortcuts
//! with the real generator.

#![allow(dead_code)]

use pocketlab_core::betza::{self, MoveRule};
use pocketlab_core::{Color, Move, Piece, PieceType, Position, Square, Variant};

/// The rules of a piece of `kind` standing on `from`.
fn rules_of(v: &Variant, kind: PieceType, from: Square) -> Vec<MoveRule> {
    let piece = v.piece(kind);
    let text = if piece.by_region {
        let map = v.region_map().expect("a by-region piece has a map");
        // The map as written: row 0 is rank 8, column 0 is file a.
        let letter = map.rows[usize::from(7 - from.rank())]
            .chars()
            .nth(usize::from(from.file()))
            .expect("8 letters a row");
        &map.region(letter).expect("map letters are regions").betza
    } else {
        &piece.betza
    };
    parse_cached(text)
}

/// `betza::parse`, remembered per text (the reference asks for the same few
/// pieces thousands of times per position; parsing is its main cost).
fn parse_cached(text: &str) -> Vec<MoveRule> {
    thread_local! {
        static CACHE: std::cell::RefCell<std::collections::HashMap<String, Vec<MoveRule>>> =
            Default::default();
    }
    CACHE.with(|cache| {
        cache
            .borrow_mut()
            .entry(text.to_owned())
            .or_insert_with(|| betza::parse(text).expect("shipped Betza parses"))
            .clone()
    })
}

fn rank_in(mask: u8, color: Color, sq: Square) -> bool {
    mask & (1 << color.relative_rank(sq.rank())) != 0
}

/// `(target, may move there quietly, may capture there, en passant capable)`.
fn reach(
    pos: &Position<'_>,
    color: Color,
    kind: PieceType,
    from: Square,
) -> Vec<(Square, bool, bool, bool)> {
    reach_with_blocker(pos, color, kind, from, None)
}

/// [`reach`], with `blocker` (if any) counted as occupied.
fn reach_with_blocker(
    pos: &Position<'_>,
    color: Color,
    kind: PieceType,
    from: Square,
    blocker: Option<Square>,
) -> Vec<(Square, bool, bool, bool)> {
    let v = pos.variant();
    let mut out = Vec::new();
    for rule in rules_of(v, kind, from) {
        if rule.initial && !rank_in(v.rules.initial_ranks, color, from) {
            continue;
        }
        for ray in &rule.rays {
            let (dx, dy) = (ray.dx, ray.dy * color.forward());
            let mut cur = from;
            for step in 1..=ray.max_steps {
                let Some(next) = cur.offset(dx, dy) else {
                    break;
                };
                if step >= ray.min_steps {
                    out.push((next, rule.mode.quiet, rule.mode.capture, rule.en_passant));
                }
                if pos.piece_at(next).is_some() || blocker == Some(next) {
                    break;
                }
                cur = next;
            }
        }
    }
    out
}

/// Whether the piece on `sq` attacks the enemy royal piece, with
/// `blocker` (if any) counted as occupied.
pub fn attacks_royal_naive(pos: &Position<'_>, sq: Square, blocker: Option<Square>) -> bool {
    let piece = pos.piece_at(sq).expect("a piece stands on sq");
    let royal = Piece {
        color: !piece.color,
        kind: pos.variant().royal,
    };
    reach_with_blocker(pos, piece.color, piece.kind, sq, blocker)
        .iter()
        .any(|&(t, _, cap, _)| cap && pos.piece_at(t) == Some(royal))
}

pub fn attacked_naive(pos: &Position<'_>, sq: Square, by: Color) -> bool {
    Square::all().any(|from| match pos.piece_at(from) {
        Some(p) if p.color == by => reach(pos, by, p.kind, from)
            .iter()
            .any(|&(t, _, cap, _)| cap && t == sq),
        _ => false,
    })
}

fn royal_safe_after(pos: &Position<'_>, mv: Move) -> bool {
    let us = pos.side_to_move();
    let next = pos.after(mv);
    let royal = Square::all()
        .find(|&s| {
            next.piece_at(s)
                == Some(Piece {
                    color: us,
                    kind: pos.variant().royal,
                })
        })
        .expect("the royal piece stays on the board");
    !attacked_naive(&next, royal, !us)
}

fn pocket_choices(v: &Variant, color: Color, kind: PieceType, from: Square) -> Vec<PieceType> {
    let rules = v.rules.pocket.as_ref().expect("pocket rules");
    let class = v.piece(kind).class;
    match class {
        Some(c) if color.relative_rank(from.rank()) == 7 && rules.promote_from_last_rank => {
            let next = (c + 1).min(v.classes.len() as u8);
            v.class(next).unwrap().to_vec()
        }
        Some(c) if rules.mutation => v.class(c).unwrap().to_vec(),
        _ => vec![kind],
    }
}

/// Every legal move, found the slow way.
pub fn reference_moves(pos: &Position<'_>) -> Vec<Move> {
    let v = pos.variant();
    let us = pos.side_to_move();
    let mut pseudo = Vec::new();
    for from in Square::all() {
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        if piece.color != us {
            continue;
        }
        for (to, quiet, capture, ep) in reach(pos, us, piece.kind, from) {
            let target = pos.piece_at(to);
            let ok = match target {
                None => quiet,
                Some(t) => capture && t.color != us,
            };
            if ok {
                let promotes = v.is_pawn(piece.kind)
                    && v.rules
                        .promotion
                        .as_ref()
                        .is_some_and(|p| rank_in(p.ranks, us, to));
                if promotes {
                    let p = v.rules.promotion.as_ref().unwrap();
                    for &into in &p.choices {
                        pseudo.push(Move::Promotion { from, to, into });
                    }
                    if !p.mandatory {
                        pseudo.push(Move::Normal { from, to });
                    }
                } else {
                    pseudo.push(Move::Normal { from, to });
                }
            }
            if ep && capture && target.is_none() && pos.en_passant() == Some(to) {
                pseudo.push(Move::EnPassant { from, to });
            }
        }
    }
    if let Some(c) = v.rules.castling {
        let back = us.relative_rank(0);
        let king = Square::from_coords(c.king_file, back);
        for (kingside, partner_file, king_file_to, partner_file_to) in [
            (true, c.kingside_file, 6, 5),
            (false, c.queenside_file, 2, 3),
        ] {
            if !pos.castling_rights().has(us, kingside) {
                continue;
            }
            let partner = Square::from_coords(partner_file, back);
            let span =
                |a: u8, b: u8| (a.min(b)..=a.max(b)).map(move |f| Square::from_coords(f, back));
            let clear = span(c.king_file, king_file_to)
                .chain(span(partner_file, partner_file_to))
                .chain(span(c.king_file, partner_file))
                .all(|s| s == king || s == partner || pos.piece_at(s).is_none());
            let unattacked = span(c.king_file, king_file_to)
                .filter(|&s| s != Square::from_coords(king_file_to, back))
                .all(|s| !attacked_naive(pos, s, !us));
            if clear && unattacked {
                pseudo.push(Move::Castle { king, partner });
            }
        }
    }
    if let Some(rules) = &v.rules.pocket {
        for kind in v.piece_types() {
            if pos.pocket_count(us, kind) == 0 {
                continue;
            }
            let ranks = if v.is_pawn(kind) {
                rules.pawn_drop_ranks
            } else {
                rules.drop_ranks
            };
            for to in Square::all() {
                if pos.piece_at(to).is_none() && rank_in(ranks, us, to) {
                    pseudo.push(Move::Drop { kind, to });
                }
            }
        }
        let banned = rules.white_first_move_ban && us == Color::White && pos.fullmove_number() == 1;
        if rules.pocket_in && pos.pocket_size(us) < rules.size && !banned {
            for from in Square::all() {
                match pos.piece_at(from) {
                    Some(p) if p.color == us && p.kind != v.royal => {
                        for into in pocket_choices(v, us, p.kind, from) {
                            pseudo.push(Move::PocketIn { from, into });
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let mut legal: Vec<Move> = pseudo
        .into_iter()
        .filter(|&mv| royal_safe_after(pos, mv))
        .collect();
    // Two components of one piece may reach the same square: one move.
    legal.sort_by_key(|m| format!("{m:?}"));
    legal.dedup();
    legal
}
