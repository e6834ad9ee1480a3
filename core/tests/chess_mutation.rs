//! Chess Mutation: pieces that move by the colour of their square.
//!
//! One test per rule (each colour's moves, a pion changing as it changes
//! colour, the white squares' pawn-like move, castling and its conditions,
//! the draw counter), the region-map validation errors, and perft from
//! stored data (`data/chess_mutation_perft.tsv`) cross-checked against the
//! deliberately simple generator in [`simple`] below, which knows the five
//! colours by name and shares no code with the engine (no Betza, no tables).
//!
//! The stored counts were computed with the engine and, at every depth,
//! confirmed by the simple generator (`cargo test -p pocketlab-core --test
//! chess_mutation -- --ignored` repeats the slow depth-4 check and prints
//! the rows).

mod common;
mod perft_table;

use pocketlab_core::GamePosition;
use pocketlab_core::builtin;
use pocketlab_core::kind::parse_variant;
use pocketlab_core::perft::perft;
use pocketlab_core::{Color, Move, Position, Square, Variant, VariantError, notation};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const START: &str = "ooookooo/oooooooo/8/8/8/8/OOOOOOOO/OOOOKOOO w KQkq - 0 1";
/// A middlegame with pions on every colour, castling rights on both sides,
/// White's queenside castling barred by the black-square pion on d5
/// attacking d1, and captures for both sides.
const MIDDLEGAME: &str = "o3k2o/1oo1ooo1/2o2o2/3oO3/1O3o2/2O2O2/OO3OOO/O3K2O w KQkq - 0 1";

fn load(name: &str) -> Variant {
    builtin::load(name).unwrap()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn pos<'v>(v: &'v Variant, fen: &str) -> Position<'v> {
    Position::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Where the piece on `from` may go (normal moves), sorted square names.
fn targets(p: &Position<'_>, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut out: Vec<String> = p
        .legal_moves()
        .into_iter()
        .filter(|m| matches!(m, Move::Normal { from: f, .. } if *f == from))
        .map(|m| m.to().unwrap().to_string())
        .collect();
    out.sort();
    out
}

fn squares(list: &str) -> Vec<String> {
    let mut out: Vec<String> = list.split_whitespace().map(str::to_owned).collect();
    out.sort();
    out
}

fn castles(p: &Position<'_>) -> Vec<String> {
    let mut out: Vec<String> = p
        .legal_moves()
        .into_iter()
        .filter(|m| matches!(m, Move::Castle { .. }))
        .map(|m| notation::format(p, m))
        .collect();
    out.sort();
    out
}

fn play<'v>(p: &Position<'v>, moves: &[&str]) -> Position<'v> {
    moves.iter().fold(p.clone(), |p, text| {
        let mv = notation::parse(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        p.play(mv).unwrap()
    })
}

/// A second move generator for Chess Mutation, as plain as possible: the
/// colour of a square is read from the map's text and its name decides the
/// move (yellow knight, blue bishop, red rook, black queen, white
/// pawn-like), king and castling are written out, and legality is tested
/// by playing the move and looking for any enemy piece that reaches the king.
mod simple {
    use pocketlab_core::{Color, Move, Piece, Position, Square};

    const KNIGHT: [(i8, i8); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    const KING: [(i8, i8); 8] = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    const DIAGONAL: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

    /// The colour name of a square, read from the map as written.
    pub fn colour(pos: &Position<'_>, sq: Square) -> String {
        let map = pos.variant().region_map().expect("a colour map");
        let row: Vec<char> = map.rows[7 - sq.rank() as usize].chars().collect();
        map.region(row[sq.file() as usize]).unwrap().name.clone()
    }

    /// `(square, may go there when empty, may capture there)`.
    fn reach(pos: &Position<'_>, from: Square, piece: Piece) -> Vec<(Square, bool, bool)> {
        let mut out = Vec::new();
        let leap = |out: &mut Vec<_>, steps: &[(i8, i8)]| {
            for &(dx, dy) in steps {
                if let Some(to) = from.offset(dx, dy) {
                    out.push((to, true, true));
                }
            }
        };
        let slide = |out: &mut Vec<_>, dirs: &[(i8, i8)]| {
            for &(dx, dy) in dirs {
                let mut cur = from;
                while let Some(to) = cur.offset(dx, dy) {
                    out.push((to, true, true));
                    if pos.piece_at(to).is_some() {
                        break;
                    }
                    cur = to;
                }
            }
        };
        if piece.kind == pos.variant().royal {
            leap(&mut out, &KING);
            return out;
        }
        match colour(pos, from).as_str() {
            "yellow" => leap(&mut out, &KNIGHT),
            "blue" => slide(&mut out, &DIAGONAL),
            "red" => slide(&mut out, &ORTHOGONAL),
            "black" => {
                slide(&mut out, &ORTHOGONAL);
                slide(&mut out, &DIAGONAL);
            }
            "white" => {
                let f = if piece.color == Color::White { 1 } else { -1 };
                if let Some(one) = from.offset(0, f) {
                    out.push((one, true, false));
                    if pos.piece_at(one).is_none()
                        && let Some(two) = from.offset(0, 2 * f)
                    {
                        out.push((two, true, false));
                    }
                }
                for dx in [-1, 1] {
                    if let Some(to) = from.offset(dx, f) {
                        out.push((to, false, true));
                    }
                }
            }
            other => panic!("the simple generator knows no colour '{other}'"),
        }
        out
    }

    pub fn attacked(pos: &Position<'_>, sq: Square, by: Color) -> bool {
        Square::all().any(|from| match pos.piece_at(from) {
            Some(p) if p.color == by => reach(pos, from, p)
                .iter()
                .any(|&(to, _, capture)| capture && to == sq),
            _ => false,
        })
    }

    fn king_of(pos: &Position<'_>, color: Color) -> Square {
        let royal = pos.variant().royal;
        Square::all()
            .find(|&s| pos.piece_at(s) == Some(Piece { color, kind: royal }))
            .expect("a king")
    }

    pub fn legal_moves(pos: &Position<'_>) -> Vec<Move> {
        let us = pos.side_to_move();
        let mut pseudo = Vec::new();
        for from in Square::all() {
            let Some(piece) = pos.piece_at(from) else {
                continue;
            };
            if piece.color != us {
                continue;
            }
            for (to, quiet, capture) in reach(pos, from, piece) {
                let ok = match pos.piece_at(to) {
                    None => quiet,
                    Some(p) => capture && p.color != us,
                };
                if ok {
                    pseudo.push(Move::Normal { from, to });
                }
            }
        }
        // Castling: e1-g1 with h1 (f1 and g1 empty), e1-c1 with a1 (b1, c1,
        // d1 empty); the king not in check and not crossing an attacked
        // square; the landing square is checked with every other move.
        let rank = if us == Color::White { 0 } else { 7 };
        let at = |file: u8| Square::from_coords(file, rank);
        let free = |files: &[u8]| files.iter().all(|&f| pos.piece_at(at(f)).is_none());
        let safe = |files: &[u8]| files.iter().all(|&f| !attacked(pos, at(f), !us));
        let rights = pos.castling_rights();
        if rights.has(us, true) && free(&[5, 6]) && safe(&[4, 5]) {
            pseudo.push(Move::Castle {
                king: at(4),
                partner: at(7),
            });
        }
        if rights.has(us, false) && free(&[1, 2, 3]) && safe(&[4, 3]) {
            pseudo.push(Move::Castle {
                king: at(4),
                partner: at(0),
            });
        }
        let mut legal: Vec<Move> = pseudo
            .into_iter()
            .filter(|&mv| {
                let next = pos.after(mv);
                !attacked(&next, king_of(&next, us), !us)
            })
            .collect();
        legal.sort_by_key(|m| format!("{m:?}"));
        legal
    }

    pub fn perft(pos: &Position<'_>, depth: u32) -> u64 {
        let moves = legal_moves(pos);
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves
            .into_iter()
            .map(|mv| perft(&pos.after(mv), depth - 1))
            .sum()
    }
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| format!("{m:?}"));
    moves
}

/// The engine, the simple generator and the shared naive reference agree
/// on the move list here.
fn assert_generators_agree(p: &Position<'_>) {
    let fast = sorted(p.legal_moves());
    let fen = p.to_fen();
    assert_eq!(
        fast,
        simple::legal_moves(p),
        "simple generator differs at {fen}"
    );
    assert_eq!(
        fast,
        sorted(common::reference_moves(p)),
        "reference generator differs at {fen}"
    );
}

/// Compare move lists at every node of the tree to `depth`.
fn compare_tree(p: &Position<'_>, depth: u32) {
    assert_generators_agree(p);
    if depth > 1 {
        for mv in p.legal_moves() {
            compare_tree(&p.after(mv), depth - 1);
        }
    }
}

// ---------------------------------------------------------------------------
// The shipped files

#[test]
fn the_default_map_keeps_every_stated_fact() {
    for name in ["chess-mutation", "chess-mutation-alt"] {
        let v = load(name);
        let map = v.region_map().expect("a colour map");
        let count = |colour: &str| {
            map.regions
                .iter()
                .find(|r| r.name == colour)
                .map_or(0, |r| r.squares.count())
        };
        assert_eq!(
            [
                count("yellow"),
                count("blue"),
                count("red"),
                count("black"),
                count("white")
            ],
            [20, 12, 8, 8, 16],
            "{name}: colour counts"
        );
        let colour = |s: &str| map.region_at(sq(s)).name.clone();
        for s in ["e1", "e8"] {
            assert_eq!(colour(s), "black", "{name}: {s}");
        }
        for s in ["a1", "h1", "a8", "h8"] {
            assert_eq!(colour(s), "red", "{name}: {s}");
        }
        let back = [
            "red", "yellow", "blue", "black", "black", "blue", "yellow", "red",
        ];
        for (file, want) in back.iter().enumerate() {
            for rank in [0, 7] {
                let s = Square::from_coords(file as u8, rank);
                assert_eq!(map.region_at(s).name, *want, "{name}: {s}");
            }
            for rank in [1, 6] {
                let s = Square::from_coords(file as u8, rank);
                assert_eq!(map.region_at(s).name, "white", "{name}: {s}");
            }
        }
        for s in Square::all() {
            assert_eq!(
                map.region_at(s).letter,
                map.region_at(s.flip_vertical()).letter,
                "{name}: {s} and its mirror"
            );
        }
        // The map text and the squares of each region say the same thing.
        for s in Square::all() {
            let letter = map.rows[7 - s.rank() as usize]
                .chars()
                .nth(s.file() as usize)
                .unwrap();
            assert_eq!(map.region_at(s).letter, letter);
            assert!(map.region(letter).unwrap().squares.contains(s));
        }
        assert_eq!(v.start_fen, START);
        let o = v.piece(v.piece_by_letter('O').unwrap());
        assert!(o.by_region && !o.pawn, "{name}: the pion");
        assert!(o.betza.starts_with("by-region("), "{}", o.betza);
        assert!(o.betza.contains("white fmW2fcF"), "{}", o.betza);
        assert!(!v.piece(v.royal).by_region);
        assert!(v.rules.promotion.is_none() && !v.rules.en_passant && v.rules.pocket.is_none());
    }
}

#[test]
fn the_alternative_map_inherits_everything_but_the_map() {
    let base = load("chess-mutation");
    let alt = load("chess-mutation-alt");
    assert_eq!(alt.rules, base.rules);
    assert_eq!(alt.start_fen, base.start_fen);
    let (a, b) = (alt.region_map().unwrap(), base.region_map().unwrap());
    assert_ne!(a.rows, b.rows);
    for (ra, rb) in a.regions.iter().zip(&b.regions) {
        assert_eq!(
            (ra.letter, &ra.name, &ra.betza),
            (rb.letter, &rb.name, &rb.betza)
        );
    }
    // d4 is black (a queen) in the default, yellow (a knight) in the alt.
    let fen = "4k3/8/8/8/3O4/8/8/4K3 w - - 0 1";
    assert_eq!(targets(&pos(&base, fen), "d4").len(), 27);
    assert_eq!(
        targets(&pos(&alt, fen), "d4"),
        squares("b3 b5 c2 c6 e2 e6 f3 f5")
    );
}

// ---------------------------------------------------------------------------
// Each colour's moves (default map)

#[test]
fn a_pion_on_yellow_moves_as_a_knight() {
    let v = load("chess-mutation");
    let p = pos(&v, "1k6/8/8/8/8/2O5/8/6K1 w - - 0 1");
    assert_eq!(targets(&p, "c3"), squares("a2 a4 b1 b5 d1 d5 e2 e4"));
    // It jumps: surrounded, it still reaches every knight square.
    let p = pos(&v, "1k6/8/8/8/1ooo4/1oOo4/1ooo4/7K w - - 0 1");
    assert_eq!(targets(&p, "c3"), squares("a2 a4 b1 b5 d1 d5 e2 e4"));
}

#[test]
fn a_pion_on_blue_moves_as_a_bishop() {
    let v = load("chess-mutation");
    let p = pos(&v, "1k6/8/8/8/2O5/8/8/6K1 w - - 0 1");
    assert_eq!(
        targets(&p, "c4"),
        squares("a2 b3 d5 e6 f7 g8 a6 b5 d3 e2 f1")
    );
    // Blocked by a friend, captures an enemy.
    let p = pos(&v, "1k6/8/8/3o4/2O5/1O6/8/6K1 w - - 0 1");
    assert_eq!(targets(&p, "c4"), squares("d5 a6 b5 d3 e2 f1"));
}

#[test]
fn a_pion_on_red_moves_as_a_rook() {
    let v = load("chess-mutation");
    let p = pos(&v, "1k6/8/8/8/O7/8/8/6K1 w - - 0 1");
    assert_eq!(
        targets(&p, "a4"),
        squares("a1 a2 a3 a5 a6 a7 a8 b4 c4 d4 e4 f4 g4 h4")
    );
    let p = pos(&v, "1k6/8/o7/8/O3O3/8/8/6K1 w - - 0 1");
    assert_eq!(targets(&p, "a4"), squares("a1 a2 a3 a5 a6 b4 c4 d4"));
}

#[test]
fn a_pion_on_black_moves_as_a_queen() {
    let v = load("chess-mutation");
    let p = pos(&v, "1k6/8/8/8/3O4/8/8/6K1 w - - 0 1");
    let want = "d1 d2 d3 d5 d6 d7 d8 a4 b4 c4 e4 f4 g4 h4 \
                a1 b2 c3 e5 f6 g7 h8 a7 b6 c5 e3 f2";
    assert_eq!(targets(&p, "d4"), squares(want));
}

#[test]
fn a_pion_on_white_steps_forward_and_captures_diagonally_forward() {
    let v = load("chess-mutation");
    // One or two squares forward onto empty squares.
    let p = pos(&v, "1k6/8/8/8/8/8/4O3/6K1 w - - 0 1");
    assert_eq!(targets(&p, "e2"), squares("e3 e4"));
    // Black's forward is down the board.
    let p = pos(&v, "1k6/4o3/8/8/8/8/8/6K1 b - - 0 1");
    assert_eq!(targets(&p, "e7"), squares("e6 e5"));
    // It captures one square diagonally forward, not straight ahead, and a
    // piece in front blocks both steps.
    let p = pos(&v, "1k6/8/8/8/8/3oo3/4O3/6K1 w - - 0 1");
    assert_eq!(targets(&p, "e2"), squares("d3"));
    // The two-step needs the square between empty; a piece on the second
    // square leaves the first.
    let p = pos(&v, "1k6/8/8/8/4o3/8/4O3/6K1 w - - 0 1");
    assert_eq!(targets(&p, "e2"), squares("e3"));
    // Never backward, never sideways, no capture backward.
    let p = pos(&v, "1k6/8/8/8/8/7K/2oOo3/2ooo3 w - - 0 1");
    assert_eq!(targets(&p, "d2"), squares("d3 d4"));
    // On its last rank a white-square pion has no move (no promotion).
    let p = pos(&v, "1k6/4O3/8/8/8/8/8/6K1 w - - 0 1");
    assert_eq!(targets(&p, "e7"), squares("e8"));
    let p = pos(&v, "1k2o3/4O3/8/8/8/8/8/6K1 w - - 0 1");
    assert!(targets(&p, "e7").is_empty());
    assert!(
        p.legal_moves()
            .iter()
            .all(|m| matches!(m, Move::Normal { .. }))
    );
}

/// A child that redraws only the map, with white squares in the middle of
/// the board, shows that the white-square move (two-step included) works
/// from any white square, for both sides.
#[test]
fn the_white_square_move_works_from_any_white_square() {
    let child = r#"
name = "white-centre"
inherits = "chess-mutation"
map = """
R Y B K K B Y R
W W W W W W W W
Y Y Y Y Y Y Y Y
R B B W W B B R
R B B W W B B R
Y Y Y Y Y Y Y Y
W W W W W W W W
R Y B K K B Y R
"""
"#;
    let v = parse_variant("white-centre.toml", child, &builtin::resolve).unwrap();
    assert_eq!(v.region_map().unwrap().rows[3], "RBBWWBBR");
    let p = pos(&v, "1k6/8/8/8/3O4/8/8/6K1 w - - 0 1");
    assert_eq!(targets(&p, "d4"), squares("d5 d6"));
    let p = pos(&v, "1k6/8/8/4o3/8/8/8/6K1 b - - 0 1");
    assert_eq!(targets(&p, "e5"), squares("e4 e3"));
    let p = pos(&v, "1k6/8/8/2o1o3/3O4/8/8/7K w - - 0 1");
    assert_eq!(targets(&p, "d4"), squares("c5 e5 d5 d6"));
    let p = pos(&v, "1k6/8/8/3o4/3O4/8/8/6K1 w - - 0 1");
    assert!(targets(&p, "d4").is_empty(), "blocked straight ahead");
    compare_tree(&pos(&v, START), 3);
}

#[test]
fn a_pion_changes_its_move_as_it_changes_colour() {
    let v = load("chess-mutation");
    // c3 (yellow, a knight) to b5 (blue): now a bishop.
    let p = pos(&v, "1k6/8/8/8/8/2O5/8/6K1 w - - 0 1");
    let p = play(&p, &["c3b5", "b8c8"]);
    assert_eq!(targets(&p, "b5"), squares("a6 c6 d7 e8 a4 c4 d3 e2 f1"));
    // On to e2 (white): a pawn-like pion, one or two squares forward.
    let p = play(&p, &["b5e2", "c8b8"]);
    assert_eq!(targets(&p, "e2"), squares("e3 e4"));
    // Double step to e4 (black): a queen.
    let p = play(&p, &["e2e4", "b8c8"]);
    assert_eq!(targets(&p, "e4").len(), 27);
    // To h4 (red): a rook; to h6 (yellow): a knight.
    let p = play(&p, &["e4h4", "c8b8"]);
    assert_eq!(
        targets(&p, "h4"),
        squares("h1 h2 h3 h5 h6 h7 h8 a4 b4 c4 d4 e4 f4 g4")
    );
    let p = play(&p, &["h4h6", "b8c8"]);
    assert_eq!(targets(&p, "h6"), squares("g8 f7 f5 g4"));
    // The opening array moves like chess: rank-2 pions step, b1/g1 jump.
    let start = Position::start(&v);
    assert_eq!(start.count_legal_moves(), 20);
    assert_eq!(targets(&start, "g1"), squares("f3 h3"));
}

#[test]
fn the_king_moves_as_a_king_on_every_colour() {
    let v = load("chess-mutation");
    for (fen, from, want) in [
        (
            "1k6/8/8/8/3K4/8/8/8 w - - 0 1",
            "d4",
            "c3 c4 c5 d3 d5 e3 e4 e5",
        ),
        (
            "1k6/8/8/8/8/2K5/8/8 w - - 0 1",
            "c3",
            "b2 b3 b4 c2 c4 d2 d3 d4",
        ),
        (
            "1k6/8/8/8/8/8/4K3/8 w - - 0 1",
            "e2",
            "d1 d2 d3 e1 e3 f1 f2 f3",
        ),
    ] {
        assert_eq!(targets(&pos(&v, fen), from), squares(want), "{fen}");
    }
}

// ---------------------------------------------------------------------------
// Castling

const CASTLE: &str = "o3k2o/8/8/8/8/8/8/O3K2O w KQkq - 0 1";

#[test]
fn castling_on_both_sides_moves_the_corner_pion() {
    let v = load("chess-mutation");
    let p = pos(&v, CASTLE);
    assert_eq!(castles(&p), ["e1c1", "e1g1"]);
    // Kingside: the h1 pion lands on f1 (blue) and moves as a bishop.
    let k = play(&p, &["e1g1"]);
    assert_eq!(k.to_fen(), "o3k2o/8/8/8/8/8/8/O4OK1 b kq - 1 1");
    let k = play(&k, &["e8g8"]);
    assert_eq!(k.to_fen(), "o4ok1/8/8/8/8/8/8/O4OK1 w - - 2 2");
    assert_eq!(targets(&k, "f1"), squares("e2 d3 c4 b5 a6 g2 h3"));
    // Queenside: the a1 pion lands on d1 (black) and moves as a queen; it
    // now attacks d8, so Black may castle only on the kingside.
    let q = play(&p, &["e1c1"]);
    assert_eq!(q.to_fen(), "o3k2o/8/8/8/8/8/8/2KO3O b kq - 1 1");
    assert_eq!(castles(&q), ["e8g8"]);
    let q = play(&q, &["h8h7"]);
    assert_eq!(targets(&q, "d1").len(), 7 + 3 + 4 + 3);
    // Black's too, mirrored.
    let b = play(&p, &["e1e2"]);
    assert_eq!(castles(&b), ["e8c8", "e8g8"]);
}

#[test]
fn castling_is_refused_through_attacked_squares_by_the_attackers_colour() {
    let v = load("chess-mutation");
    // The same diagonal a6-f1: a pion on a6 is yellow (a knight) and does
    // not attack f1; on b5 (blue, a bishop) or c4 (blue) it does.
    let p = pos(&v, "o3k2o/8/o7/8/8/8/8/O3K2O w KQkq - 0 1");
    assert_eq!(castles(&p), ["e1c1", "e1g1"]);
    for fen in [
        "o3k2o/8/8/1o6/8/8/8/O3K2O w KQkq - 0 1",
        "o3k2o/8/8/8/2o5/8/8/O3K2O w KQkq - 0 1",
    ] {
        assert_eq!(castles(&pos(&v, fen)), ["e1c1"], "{fen}");
    }
    // A knight-square pion on c3 attacks d1 (the queenside crossing square)
    // and b1, but nothing on the kingside.
    let p = pos(&v, "o3k2o/8/8/8/8/2o5/8/O3K2O w KQkq - 0 1");
    assert_eq!(castles(&p), ["e1g1"]);
    // On h3 (yellow) it attacks g1, the king's landing square.
    let p = pos(&v, "o3k2o/8/8/8/8/7o/8/O3K2O w KQkq - 0 1");
    assert_eq!(castles(&p), ["e1c1"]);
    // The same pion one square further, h4 (red, a rook), attacks only rank
    // 4 and the h-file down to h1's pion: both castlings stand.
    let p = pos(&v, "o3k2o/8/8/8/7o/8/8/O3K2O w KQkq - 0 1");
    assert_eq!(castles(&p), ["e1c1", "e1g1"]);
    // The crossing square b1 of the queenside may be attacked (only the
    // king's path counts): a pion on a3 (yellow) hits b1.
    let p = pos(&v, "o3k2o/8/8/8/8/o7/8/O3K2O w KQkq - 0 1");
    assert_eq!(castles(&p), ["e1c1", "e1g1"]);
}

#[test]
fn castling_is_refused_in_check_and_with_pieces_between() {
    let v = load("chess-mutation");
    // e5 is black (a queen): it checks e1 down the open file.
    let p = pos(&v, "o3k2o/8/8/4o3/8/8/8/O3K2O w KQkq - 0 1");
    assert!(p.is_check());
    assert!(castles(&p).is_empty());
    // e6 is yellow (a knight): no check, both castlings.
    let p = pos(&v, "o3k2o/8/4o3/8/8/8/8/O3K2O w KQkq - 0 1");
    assert!(!p.is_check());
    assert_eq!(castles(&p), ["e1c1", "e1g1"]);
    // Any piece between king and partner blocks, b1 included.
    let p = pos(&v, "o3k2o/8/8/8/8/8/8/OO2K1OO w KQkq - 0 1");
    assert!(castles(&p).is_empty());
    // The start position: nothing can castle yet.
    assert!(castles(&Position::start(&v)).is_empty());
}

#[test]
fn castling_rights_are_lost_when_king_or_partner_moves_or_is_taken() {
    let v = load("chess-mutation");
    let p = pos(&v, CASTLE);
    // The king goes and comes back: no castling.
    let k = play(&p, &["e1e2", "e8e7", "e2e1", "e7e8"]);
    assert_eq!(k.castling_rights().0, 0);
    assert!(castles(&k).is_empty());
    // The h1 pion (red, a rook) goes to h4 (red) and comes back: queenside
    // only. (Via h2, a white square, it could not come back at all.)
    let h = play(&p, &["h1h4", "e8e7", "h4h1", "e7e8"]);
    assert_eq!(castles(&h), ["e1c1"]);
    // The a8 pion (red) takes the a1 pion: White keeps only the kingside,
    // Black loses its queenside.
    let t = play(&p, &["e1f1", "a8a1"]);
    assert_eq!(t.to_fen(), "4k2o/8/8/8/8/8/8/o4K1O w k - 0 2");
    let t = play(&p, &["h1h2", "a8a1"]);
    assert!(!t.castling_rights().has(Color::White, false));
    assert!(!t.castling_rights().has(Color::Black, false));
    assert!(t.castling_rights().has(Color::Black, true));
    assert!(castles(&t).is_empty(), "kingside right was spent by h1h2");
}

// ---------------------------------------------------------------------------
// Game rules

#[test]
fn the_draw_counter_counts_200_plies_reset_by_captures_only() {
    let v = load("chess-mutation");
    assert_eq!(v.rules.n_move_rule, 200);
    let r = v.rules.n_move_reset;
    assert!(r.capture && !r.pawn_move && !r.promotion && !r.drop && !r.pocket_in);
    assert_eq!(v.rules.repetition, 3);
    // A white-square step does not reset the counter; a capture does.
    let p = pos(&v, "1k6/8/8/8/8/3o4/4O3/6K1 w - - 7 20");
    assert_eq!(play(&p, &["e2e4"]).halfmove_clock(), 8);
    assert_eq!(play(&p, &["e2d3"]).halfmove_clock(), 0);
    // 199 plies is not yet a draw; 200 is.
    let ongoing = pos(&v, "1k6/8/8/8/8/8/4O3/6K1 w - - 199 120");
    assert_eq!(ongoing.status(), pocketlab_core::GameStatus::Ongoing);
    let drawn = pos(&v, "1k6/8/8/8/8/8/4O3/6K1 w - - 200 120");
    assert!(matches!(
        drawn.status(),
        pocketlab_core::GameStatus::Over {
            termination: pocketlab_core::Termination::NMoveRule,
            ..
        }
    ));
}

#[test]
fn checkmate_by_a_pion_whose_power_comes_from_its_square() {
    let v = load("chess-mutation");
    // Black king h8 boxed in by its own pions; a White pion on e8 (black,
    // a queen) mates along the back rank. The same pion on f8 (blue, a
    // bishop) gives no check.
    let p = pos(&v, "4O2k/6oo/8/8/8/8/8/4K3 b - - 0 1");
    assert!(p.is_check());
    assert_eq!(p.count_legal_moves(), 0);
    let p = pos(&v, "5O1k/6oo/8/8/8/8/8/4K3 b - - 0 1");
    assert!(!p.is_check());
}

#[test]
fn the_engine_reads_the_map_through_the_compiled_tables() {
    use pocketlab_core::engine::{EvalParams, Evaluator, SearchLimits, SearchOptions, Searcher};
    let v = load("chess-mutation");
    let e = Evaluator::new(&v, &EvalParams::default());
    // Same material; a pion on d4 (black, a queen) beats one on d3 (yellow).
    let queen = pos(&v, "1k6/8/8/8/3O4/8/8/6K1 w - - 0 1");
    let knight = pos(&v, "1k6/8/8/8/8/3O4/8/6K1 w - - 0 1");
    assert!(e.evaluate(&queen) > e.evaluate(&knight));
    // Mate in one: the e4 pion (a queen there) mates from e8 (black, a
    // queen) or a8 (red, a rook); on c6 (yellow, a knight) it gives no check.
    let p = pos(&v, "7k/6oo/8/8/4O3/8/8/4K3 w - - 0 1");
    let mut searcher = Searcher::standard(&v, &EvalParams::default(), SearchOptions::default());
    let best = searcher
        .search(&p, &[], &SearchLimits::depth(3))
        .best_move
        .unwrap();
    assert!(["e4e8", "e4a8"].contains(&notation::format(&p, best).as_str()));
    let after = p.after(best);
    assert!(after.is_check() && after.count_legal_moves() == 0);
    assert!(!p.after(notation::parse(&p, "e4c6").unwrap()).is_check());
}

// ---------------------------------------------------------------------------
// The variant file: region maps and their validation

fn variant_error(text: &str) -> VariantError {
    parse_variant("bad.toml", text, &builtin::resolve).expect_err("the file should be rejected")
}

/// A small by-region variant: two colours in stripes.
const TWO_COLOURS: &str = r#"
name = "stripes"
royal = "K"
start = "4k3/8/8/8/8/8/8/O3K3 w - - 0 1"
map = [
    "ABABABAB",
    "ABABABAB",
    "ABABABAB",
    "ABABABAB",
    "ABABABAB",
    "ABABABAB",
    "ABABABAB",
    "ABABABAB",
]
[regions.A]
name = "orthogonal"
betza = "W"
[regions.B]
name = "diagonal"
betza = "F"
[pieces.K]
betza = "K"
value = 0
[pieces.O]
moves = "by-region"
value = 300
"#;

#[test]
fn a_designer_can_write_a_map_of_their_own() {
    let v = parse_variant("stripes.toml", TWO_COLOURS, &builtin::resolve).unwrap();
    let p = pos(&v, "4k3/8/8/8/3O4/8/8/4K3 w - - 0 1");
    // d4 is file d = column 4 = 'B' (diagonal).
    assert_eq!(targets(&p, "d4"), squares("c3 c5 e3 e5"));
    let p = pos(&v, "4k3/8/8/8/O7/8/8/4K3 w - - 0 1");
    assert_eq!(targets(&p, "a4"), squares("a3 a5 b4"));
    let o = v.piece(v.piece_by_letter('O').unwrap());
    assert_eq!(o.betza, "by-region(orthogonal W, diagonal F)");
    // The per-region rules, as the compiler gets them.
    let rules = v.move_rules(Color::White, v.piece_by_letter('O').unwrap());
    assert_eq!(rules.len(), 2);
    assert_eq!(rules[0].1.count() + rules[1].1.count(), 64);
}

#[test]
fn a_child_can_change_what_a_colour_means_or_add_a_colour() {
    // Yellow becomes a camel-ish leaper ("C" atom); the rest is inherited.
    let child = r#"
name = "yellow-camels"
inherits = "chess-mutation"
[regions.Y]
betza = "C"
"#;
    let v = parse_variant("child.toml", child, &builtin::resolve).unwrap();
    let map = v.region_map().unwrap();
    assert_eq!(map.region('Y').unwrap().name, "yellow");
    let p = pos(&v, "1k6/8/8/8/8/2O5/8/6K1 w - - 0 1");
    assert_eq!(targets(&p, "c3"), squares("b6 d6 f2 f4"));
    // A new colour: green (a king's move) on the four centre squares.
    let child = r#"
name = "green-centre"
inherits = "chess-mutation"
map = [
    "RYBKKBYR",
    "WWWWWWWW",
    "YYYYYYYY",
    "RBBGGBBR",
    "RBBGGBBR",
    "YYYYYYYY",
    "WWWWWWWW",
    "RYBKKBYR",
]
[regions.G]
name = "green"
betza = "K"
"#;
    let v = parse_variant("child.toml", child, &builtin::resolve).unwrap();
    let p = pos(&v, "1k6/8/8/8/3O4/8/8/6K1 w - - 0 1");
    assert_eq!(targets(&p, "d4"), squares("c3 c4 c5 d3 d5 e3 e4 e5"));
    assert!(
        v.piece(v.piece_by_letter('O').unwrap())
            .betza
            .contains("green K")
    );
}

#[test]
fn a_child_may_turn_a_betza_piece_into_a_by_region_piece() {
    // The child's `moves` replaces the parent's `betza` (they travel together).
    let child = r#"
name = "mutating-knights"
inherits = "chess"
map = [
    "RRRRRRRR", "RRRRRRRR", "RRRRRRRR", "RRRRRRRR",
    "NNNNNNNN", "NNNNNNNN", "NNNNNNNN", "NNNNNNNN",
]
[regions.R]
betza = "R"
[regions.N]
betza = "N"
[pieces.N]
moves = "by-region"
"#;
    let v = parse_variant("child.toml", child, &builtin::resolve).unwrap();
    let n = v.piece_by_letter('N').unwrap();
    assert!(v.piece(n).by_region);
    assert_eq!(v.piece(n).value, 310, "other fields still inherited");
    let p = pos(&v, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    assert_eq!(targets(&p, "b1"), squares("a3 c3 d2"));
    let p = pos(&v, "4k3/8/8/1N6/8/8/8/4K3 w - - 0 1");
    assert_eq!(targets(&p, "b5").len(), 14);
}

#[test]
fn map_errors_name_the_key_and_the_reason() {
    let base = builtin::text("chess-mutation").unwrap();
    let with_map = |rows: &str| {
        let start = base.find("map = [").unwrap();
        let end = start + base[start..].find(']').unwrap() + 1;
        format!("{}map = {rows}{}", &base[..start], &base[end..])
    };

    let e = variant_error(&with_map(r#"["RYBKKBYR", "WWWWWWWW"]"#));
    assert_eq!(e.key, "map");
    assert!(e.reason.contains("has 2 rows"), "{e}");

    let e = variant_error(&with_map(
        r#"["RYBKKBYR","WWWWWWWW","YYYYYYYYY","RBBKKBBR","RBBKKBBR","YYYYYYYY","WWWWWWWW","RYBKKBYR"]"#,
    ));
    assert_eq!(e.key, "map");
    assert!(e.reason.contains("row 3 (rank 6)"), "{e}");
    assert!(e.reason.contains("9 squares"), "{e}");

    let e = variant_error(&with_map(
        r#"["RYBKKBYR","WWWWWWWW","YYYYYYYY","RBBKKBBR","RBBKZBBR","YYYYYYYY","WWWWWWWW","RYBKKBYR"]"#,
    ));
    assert_eq!(e.key, "map");
    assert!(e.reason.contains("square e4"), "{e}");
    assert!(e.reason.contains("'Z' is not a region letter"), "{e}");
    assert!(e.reason.contains("defined: B, K, R, W, Y"), "{e}");
    assert_eq!(e.file, "bad.toml");

    let e = variant_error(&with_map("42"));
    assert_eq!(e.key, "map");
    let e = variant_error(&with_map(r#"["RYBKKBYR", 7]"#));
    assert_eq!(e.key, "map");

    // Regions: named by one character, with a Betza move, no unknown keys.
    let e = variant_error(&base.replace("[regions.Y]", "[regions.YY]"));
    assert_eq!(e.key, "regions.YY");
    let e = variant_error(&base.replace("betza = \"N\"", "betza = \"Nx\""));
    assert_eq!(e.key, "regions.Y.betza");
    assert!(e.reason.contains("'x'"), "{e}");
    let e = variant_error(&base.replace("betza = \"N\"", "colour = \"yellow\""));
    assert!(e.to_string().contains("colour"), "{e}");
    let e = variant_error(&base.replace("betza = \"N\"", ""));
    assert_eq!(e.key, "regions.Y.betza");
    let e = variant_error(&base.replace("map = [", "colour_map = ["));
    assert!(e.to_string().contains("colour_map"), "{e}");

    // Pieces: not both `betza` and by-region, a known `moves`, a map needed.
    let e = variant_error(&base.replace(
        "moves = \"by-region\"",
        "moves = \"by-region\"\nbetza = \"N\"",
    ));
    assert_eq!(e.key, "pieces.O");
    assert!(e.reason.contains("both"), "{e}");
    let e = variant_error(&base.replace("moves = \"by-region\"", "moves = \"by-colour\""));
    assert_eq!(e.key, "pieces.O.moves");
    let no_map = TWO_COLOURS
        .split("[regions.A]")
        .next()
        .unwrap()
        .split("map = [")
        .next()
        .unwrap()
        .to_owned()
        + "[pieces.K]\nbetza = \"K\"\nvalue = 0\n[pieces.O]\nmoves = \"by-region\"\nvalue = 1\n";
    let e = variant_error(&no_map);
    assert_eq!(e.key, "pieces.O.moves");
    // Regions without a map are a mistake, not silently ignored.
    let e = variant_error(&format!(
        "{}[regions.A]\nbetza = \"W\"\n",
        no_map.replace("moves = \"by-region\"", "betza = \"W\"")
    ));
    assert_eq!(e.key, "map");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Mutated Chess Mutation files are errors naming the file, or variants
    /// whose start position generates moves; never a panic.
    #[test]
    fn mutated_files_are_errors_or_variants(edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..4)) {
        let text = builtin::text("chess-mutation").unwrap();
        let mut bytes: Vec<u8> = text.bytes().collect();
        for &(at, op, byte) in &edits {
            let i = at % bytes.len();
            let c = b" \n=[]\"#,-0123456789RYBKWGOokNQfmc"[usize::from(byte) % 32];
            match op % 3 {
                0 => bytes[i] = c,
                1 => { bytes.remove(i); }
                _ => bytes.insert(i, c),
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        match parse_variant("mutated.toml", &text, &builtin::resolve) {
            Ok(v) => { let _ = Position::start(&v).legal_moves(); }
            Err(e) => prop_assert_eq!(e.file, "mutated.toml"),
        }
    }
}

// ---------------------------------------------------------------------------
// Perft: stored counts, cross-checked by the simple generator

fn rows() -> Vec<perft_table::Row> {
    perft_table::rows(include_str!("data/chess_mutation_perft.tsv"))
}

#[test]
fn perft_matches_the_stored_counts() {
    let rows = rows();
    assert!(rows.len() >= 16);
    let mut failures = Vec::new();
    for row in &rows {
        let v = load(&row.variant);
        let p = pos(&v, &row.fen);
        let got = perft(&p, row.depth);
        if got != row.nodes {
            failures.push(format!(
                "{} {} depth {}: stored {}, got {got}",
                row.id, row.variant, row.depth, row.nodes
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_simple_generator_confirms_the_stored_counts_to_depth_3() {
    for row in rows().iter().filter(|r| r.depth <= 3) {
        let v = load(&row.variant);
        let p = pos(&v, &row.fen);
        assert_eq!(
            simple::perft(&p, row.depth),
            row.nodes,
            "{} {}",
            row.id,
            row.variant
        );
    }
}

#[test]
fn every_move_list_agrees_in_the_first_plies() {
    for name in ["chess-mutation", "chess-mutation-alt"] {
        let v = load(name);
        compare_tree(&pos(&v, START), 3);
        compare_tree(&pos(&v, MIDDLEGAME), 2);
        compare_tree(&pos(&v, CASTLE), 2);
    }
}

#[test]
fn every_move_list_agrees_on_random_playouts() {
    for name in ["chess-mutation", "chess-mutation-alt"] {
        let v = load(name);
        for (seed, fen) in (0..12).zip([START, MIDDLEGAME, CASTLE].iter().cycle()) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut p = pos(&v, fen);
            for _ in 0..120 {
                assert_generators_agree(&p);
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p = p.after(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
}

/// The slow check behind the stored depth-4 rows. It prints the rows as
/// the engine counts them (`--nocapture`), to regenerate the file after a
/// deliberate rule change.
#[test]
#[ignore = "slow; run with --ignored after changing the rules"]
fn the_simple_generator_confirms_every_stored_count() {
    let mut failures = Vec::new();
    for row in rows() {
        let v = load(&row.variant);
        let p = pos(&v, &row.fen);
        let engine = perft(&p, row.depth);
        let simple = simple::perft(&p, row.depth);
        println!(
            "{}\t{}\t{}\t{}\t{engine}",
            row.id, row.variant, row.fen, row.depth
        );
        if engine != simple || engine != row.nodes {
            failures.push(format!(
                "{} {} depth {}: stored {}, engine {engine}, simple {simple}",
                row.id, row.variant, row.depth, row.nodes
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
