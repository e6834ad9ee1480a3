//! Pocket Mutation Chess rules, one test per ruling in RULES.md.

use pocketlab_core::builtin;
use pocketlab_core::{
    Color, Game, GameStatus, Move, Outcome, Position, Square, Termination, Variant, notation,
};

fn pmc() -> Variant {
    builtin::load("pocket-mutation").unwrap()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn moves_text(pos: &Position<'_>) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| notation::format(pos, m))
        .collect();
    v.sort();
    v
}

fn pocket_ins_from(pos: &Position<'_>, from: &str) -> Vec<String> {
    moves_text(pos)
        .into_iter()
        .filter(|m| m.starts_with(&format!("^{from}")))
        .collect()
}

fn letters(v: &Variant, class: u8) -> Vec<char> {
    v.class(class)
        .unwrap()
        .iter()
        .map(|&t| v.letter(t))
        .collect()
}

#[test]
fn pocketing_offers_every_piece_of_the_class() {
    let v = pmc();
    // After 1. e4 (so White is past its first move), Black to move may pocket.
    let pos = Position::from_fen(
        &v,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b - - 0 1",
    )
    .unwrap();
    // Knight on b8 is on Black's first rank (ranks 1-7): class 2 = B, N.
    let mut expected: Vec<String> = letters(&v, 2)
        .iter()
        .map(|&c| {
            if c == 'N' {
                "^b8".to_owned()
            } else {
                format!("^b8={c}")
            }
        })
        .collect();
    expected.sort();
    assert_eq!(pocket_ins_from(&pos, "b8"), expected);
    // The queen: class 5 has four pieces, keeping the queen is one of them.
    assert_eq!(pocket_ins_from(&pos, "d8").len(), letters(&v, 5).len());
    assert!(pocket_ins_from(&pos, "d8").contains(&"^d8".to_owned()));
    // Pawns are alone in class 1.
    assert_eq!(pocket_ins_from(&pos, "e7"), vec!["^e7"]);
    // The king is never pocketed.
    assert!(pocket_ins_from(&pos, "e8").is_empty());
}

#[test]
fn pocketing_from_the_last_rank_promotes_to_the_next_class() {
    let v = pmc();
    let pos = Position::from_fen(&v, "1P2k3/8/8/8/8/8/8/4K2R[] w - - 0 9").unwrap();
    let mut expected: Vec<String> = letters(&v, 2).iter().map(|c| format!("^b8={c}")).collect();
    expected.sort();
    assert_eq!(
        pocket_ins_from(&pos, "b8"),
        expected,
        "a pawn on the 8th rank becomes B or N"
    );
    // A rook on the 1st rank stays in class 3.
    assert_eq!(pocket_ins_from(&pos, "h1").len(), letters(&v, 3).len());
    // A rook on the 8th rank would become class 4.
    let pos = Position::from_fen(&v, "k5nR/8/8/8/8/8/8/4K3[] w - - 0 9").unwrap();
    assert_eq!(pocket_ins_from(&pos, "h8").len(), letters(&v, 4).len());
    assert!(!pocket_ins_from(&pos, "h8").contains(&"^h8".to_owned()));
    // The amazon rider is the top class: from the 8th rank it stays an amazon rider.
    let pos = Position::from_fen(&v, "M2nk3/8/8/8/8/8/8/4K3[] w - - 0 9").unwrap();
    assert_eq!(pocket_ins_from(&pos, "a8"), vec!["^a8"]);
}

#[test]
fn a_promotion_resets_the_counter_but_a_plain_pocket_in_does_not() {
    let v = pmc();
    let pos = Position::from_fen(&v, "1P2k3/8/8/8/8/8/8/R3K3[] w - - 57 30").unwrap();
    let promoted = pos.after(notation::parse(&pos, "^b8=N").unwrap());
    assert_eq!(promoted.halfmove_clock(), 0);
    assert_eq!(
        promoted.pocket_count(Color::White, v.piece_by_letter('N').unwrap()),
        1
    );
    let pocketed = pos.after(notation::parse(&pos, "^a1=X").unwrap());
    assert_eq!(pocketed.halfmove_clock(), 58);
}

#[test]
fn a_pawn_on_the_last_rank_has_no_move_but_pocketing() {
    let v = pmc();
    let pos = Position::from_fen(&v, "P3k3/8/8/8/8/8/8/4K3[] w - - 0 9").unwrap();
    let from_a8: Vec<String> = moves_text(&pos)
        .into_iter()
        .filter(|m| m.starts_with("a8") || m.contains("a8"))
        .collect();
    assert_eq!(from_a8, vec!["^a8=B", "^a8=N"]);
}

#[test]
fn a_dropped_pawn_double_steps_from_rank_two_but_not_from_rank_one() {
    let v = pmc();
    let pos = Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 9").unwrap();
    let on_c2 = pos.after(notation::parse(&pos, "P@c2").unwrap());
    let black_waits = on_c2.after(notation::parse(&on_c2, "e8d8").unwrap());
    let ms = moves_text(&black_waits);
    assert!(ms.contains(&"c2c4".to_owned()) && ms.contains(&"c2c3".to_owned()));

    let on_c1 = pos.after(notation::parse(&pos, "P@c1").unwrap());
    let black_waits = on_c1.after(notation::parse(&on_c1, "e8d8").unwrap());
    let ms = moves_text(&black_waits);
    assert!(ms.contains(&"c1c2".to_owned()));
    assert!(
        !ms.contains(&"c1c3".to_owned()),
        "no double step from the first rank"
    );
    // A pawn that stepped from rank 1 to rank 2 may double step next.
    let stepped = black_waits.after(notation::parse(&black_waits, "c1c2").unwrap());
    let stepped = stepped.after(notation::parse(&stepped, "d8e8").unwrap());
    assert!(moves_text(&stepped).contains(&"c2c4".to_owned()));
}

#[test]
fn en_passant_follows_a_double_step_of_a_dropped_pawn() {
    let v = pmc();
    let pos = Position::from_fen(&v, "4k3/8/8/8/3p4/8/8/4K3[P] w - - 0 9").unwrap();
    let dropped = pos.after(notation::parse(&pos, "P@c2").unwrap());
    let black = dropped.after(notation::parse(&dropped, "e8d8").unwrap());
    let double = black.after(notation::parse(&black, "c2c4").unwrap());
    assert_eq!(double.en_passant(), Some(sq("c3")));
    let mv = notation::parse(&double, "d4c3").unwrap();
    assert_eq!(
        mv,
        Move::EnPassant {
            from: sq("d4"),
            to: sq("c3")
        }
    );
    let taken = double.after(mv);
    assert!(
        taken.piece_at(sq("c4")).is_none(),
        "the double-stepped pawn is captured"
    );
    assert_eq!(taken.halfmove_clock(), 0, "a capture resets the counter");
}

#[test]
fn white_may_not_pocket_on_its_first_move_but_black_may() {
    let v = pmc();
    let start = Position::start(&v);
    assert!(
        start
            .legal_moves()
            .iter()
            .all(|m| !matches!(m, Move::PocketIn { .. }))
    );
    assert_eq!(start.count_legal_moves(), 20);
    let after_e4 = start.after(notation::parse(&start, "e2e4").unwrap());
    assert!(
        after_e4
            .legal_moves()
            .iter()
            .any(|m| matches!(m, Move::PocketIn { .. }))
    );
    let after_e5 = after_e4.after(notation::parse(&after_e4, "e7e5").unwrap());
    assert_eq!(after_e5.fullmove_number(), 2);
    assert!(
        after_e5
            .legal_moves()
            .iter()
            .any(|m| matches!(m, Move::PocketIn { .. }))
    );
    // The ban is a property of the position: any FEN with White to move at move 1.
    let fen_ban = Position::from_fen(&v, "4k3/8/8/8/8/8/8/R3K3[] w - - 0 1").unwrap();
    assert!(
        fen_ban
            .legal_moves()
            .iter()
            .all(|m| !matches!(m, Move::PocketIn { .. }))
    );
}

#[test]
fn drops_land_on_empty_squares_of_ranks_one_to_seven() {
    let v = pmc();
    let pos = Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 9").unwrap();
    let drops: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| matches!(m, Move::Drop { .. }))
        .collect();
    assert_eq!(drops.len(), 7 * 8 - 1, "ranks 1-7 minus the king's square");
    assert!(drops.iter().all(|m| m.to().unwrap().rank() < 7));
    // Black drops on its own ranks 1-7: ranks 8 down to 2.
    let black = Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[Nn] b - - 0 9").unwrap();
    let drops: Vec<Move> = black
        .legal_moves()
        .into_iter()
        .filter(|m| matches!(m, Move::Drop { .. }))
        .collect();
    assert_eq!(drops.len(), 7 * 8 - 1);
    assert!(drops.iter().all(|m| m.to().unwrap().rank() > 0));
    // Pawns may drop on the first rank.
    let pawn = Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 9").unwrap();
    assert!(notation::parse(&pawn, "P@a1").is_ok());
    assert!(notation::parse(&pawn, "P@a8").is_err());
}

#[test]
fn the_hundred_ply_rule_resets_only_on_capture_or_promotion() {
    let v = pmc();
    let pos = Position::from_fen(&v, "4k3/4p3/8/8/8/8/4P3/R3K3[] w - - 98 60").unwrap();
    let pawn_move = pos.after(notation::parse(&pos, "e2e4").unwrap());
    assert_eq!(
        pawn_move.halfmove_clock(),
        99,
        "pawn moves do not reset the count"
    );
    let drawn = pawn_move.after(notation::parse(&pawn_move, "e7e5").unwrap());
    assert_eq!(drawn.halfmove_clock(), 100);
    assert_eq!(
        drawn.status(),
        GameStatus::Over {
            outcome: Outcome::Draw,
            termination: Termination::NMoveRule
        }
    );
    let capture_pos = Position::from_fen(&v, "4k3/8/8/8/8/8/4p3/R3K3[] w - - 98 60").unwrap();
    let capture = capture_pos.after(notation::parse(&capture_pos, "e1e2").unwrap());
    assert_eq!(capture.halfmove_clock(), 0);
    // Chess, for contrast, resets on pawn moves.
    let chess = builtin::load("chess").unwrap();
    let c = Position::from_fen(&chess, "4k3/4p3/8/8/8/8/4P3/R3K3 w - - 98 60").unwrap();
    assert_eq!(
        c.after(notation::parse(&c, "e2e4").unwrap())
            .halfmove_clock(),
        0
    );
}

#[test]
fn a_pinned_piece_cannot_be_pocketed() {
    let v = pmc();
    // The knight on e2 is pinned by the rook on e8; the one on b1 is free.
    let pos = Position::from_fen(&v, "4r1k1/8/8/8/8/8/4N3/1N2K3[] w - - 0 9").unwrap();
    assert!(pocket_ins_from(&pos, "e2").is_empty());
    assert!(!pocket_ins_from(&pos, "b1").is_empty());
    // A knight pinned by a nightrider: e1 - d3 (knight) - c5 (nightrider).
    let pos = Position::from_fen(&v, "6k1/8/8/2i5/8/3N4/8/4K3[] w - - 0 9").unwrap();
    assert!(pocket_ins_from(&pos, "d3").is_empty());
    let knight_moves: Vec<String> = moves_text(&pos)
        .into_iter()
        .filter(|m| m.starts_with("d3"))
        .collect();
    assert_eq!(
        knight_moves,
        vec!["d3c5"],
        "the pinned knight may only take its pinner"
    );
}

#[test]
fn a_drop_can_give_mate() {
    let v = pmc();
    let pos = Position::from_fen(&v, "5rk1/5ppp/8/8/8/8/8/4K3[Q] w - - 0 9").unwrap();
    assert!(
        notation::parse(&pos, "Q@e8").is_err(),
        "no drop on the 8th rank"
    );
    // Smothered mate by a dropped knight: king h8, rook g8, pawns g7 h7.
    let pos = Position::from_fen(&v, "6rk/6pp/8/8/8/8/8/4K3[N] w - - 0 9").unwrap();
    let next = pos.after(notation::parse(&pos, "N@f7").unwrap());
    let mut game = Game::new(next);
    assert_eq!(
        game.status(),
        GameStatus::Over {
            outcome: Outcome::Win(Color::White),
            termination: Termination::Checkmate
        }
    );
    game = Game::new(pos.clone());
    assert_eq!(game.status(), GameStatus::Ongoing);
    assert_eq!(
        pocketlab_core::san::format(&pos, notation::parse(&pos, "N@f7").unwrap()),
        "N@f7#"
    );
}

#[test]
fn threefold_repetition_draws_and_counts_pockets() {
    let v = pmc();
    let start = Position::from_fen(&v, "4k3/8/8/8/8/8/8/R3K3[] w - - 0 9").unwrap();
    let mut game = Game::new(start);
    for mv in [
        "a1a2", "e8d8", "a2a1", "d8e8", "a1a2", "e8d8", "a2a1", "d8e8",
    ] {
        assert_eq!(game.status(), GameStatus::Ongoing, "before {mv}");
        let m = notation::parse(game.position(), mv).unwrap();
        game.play(m).unwrap();
    }
    assert_eq!(
        game.status(),
        GameStatus::Over {
            outcome: Outcome::Draw,
            termination: Termination::Repetition
        }
    );
    // Bare kings with empty pockets are dead; a pocketed piece keeps the game alive.
    let bare = Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[] w - - 0 9").unwrap();
    assert_eq!(
        bare.status(),
        GameStatus::Over {
            outcome: Outcome::Draw,
            termination: Termination::DeadPosition
        }
    );
    let pocketed = Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 9").unwrap();
    assert_eq!(pocketed.status(), GameStatus::Ongoing);
    assert_ne!(bare.hash(), pocketed.hash(), "the hash covers pockets");
}
