//! Property tests over random playouts in every shipped variant: the fast
//! generator equals the naive reference (its quiet checks too), moves keep
//! the royal piece safe,
//! the incremental hash and check status equal recomputed ones, FEN and move notation
//! round-trip, and copy-make leaves the original position untouched.

mod common;

use pocketlab_core::GamePosition;
use pocketlab_core::builtin;
use pocketlab_core::{Move, Position, Variant, notation, san};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn check_position(pos: &Position<'_>) {
    let fen = pos.to_fen();
    assert_eq!(
        pos.hash(),
        pos.compute_hash(),
        "incremental hash differs from recomputed at {fen}"
    );
    let reparsed = Position::from_fen(pos.variant(), &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(&reparsed, pos, "FEN round trip changed the position");
    assert_eq!(reparsed.to_fen(), fen);

    let mut fast = pos.legal_moves();
    assert_eq!(
        fast.len() as u64,
        pos.count_legal_moves(),
        "count differs from list at {fen}"
    );
    let mut reference = common::reference_moves(pos);
    fast.sort_by_key(|m| format!("{m:?}"));
    reference.sort_by_key(|m| format!("{m:?}"));
    let before = fast.len();
    fast.dedup();
    assert_eq!(before, fast.len(), "duplicate moves at {fen}");
    assert_eq!(fast, reference, "move sets differ at {fen}");
    check_quiet_checks(pos, &fast);

    let mut sans = std::collections::HashSet::new();
    for &mv in &fast {
        let text = notation::format(pos, mv);
        assert_eq!(
            notation::parse(pos, &text),
            Ok(mv),
            "notation round trip of {text} at {fen}"
        );
        assert!(
            sans.insert(san::format(pos, mv)),
            "two moves share the SAN {} at {fen}",
            san::format(pos, mv)
        );
        let snapshot = pos.clone();
        let next = pos.after(mv);
        assert_eq!(
            &snapshot, pos,
            "playing a move changed the original position"
        );
        let us = pos.side_to_move();
        assert!(
            !common::attacked_naive(&next, next.royal_square(us), !us),
            "{text} leaves the royal piece attacked at {fen}"
        );
        let them = !us;
        assert_eq!(
            next.is_check(),
            common::attacked_naive(&next, next.royal_square(them), us),
            "the check status kept after {text} is wrong at {fen}"
        );
    }
    let null = pos.null_move();
    assert_eq!(
        null.is_check(),
        common::attacked_naive(
            &null,
            null.royal_square(!pos.side_to_move()),
            pos.side_to_move()
        ),
        "the check status kept after a null move is wrong at {fen}"
    );
}

/// Quiescence's quiet checks are the legal quiet moves and drops after
/// which the piece moved attacks the enemy royal piece along lines the
/// move does not open (its from-square counted as still occupied), less
/// pawn moves into a promotion zone; none in check.
fn check_quiet_checks(pos: &Position<'_>, legal: &[Move]) {
    let fen = pos.to_fen();
    let v = pos.variant();
    let us = pos.side_to_move();
    let promotion_ranks = v.rules.promotion.as_ref().map_or(0, |p| p.ranks);
    let mut expected: Vec<Move> = if pos.is_check() {
        Vec::new()
    } else {
        legal
            .iter()
            .copied()
            .filter(|&mv| match mv {
                Move::Normal { from, to } => {
                    let kind = pos.piece_at(from).unwrap().kind;
                    let promotes = v.is_pawn(kind)
                        && promotion_ranks & (1 << us.relative_rank(to.rank())) != 0;
                    pos.piece_at(to).is_none()
                        && !promotes
                        && common::attacks_royal_naive(&pos.after(mv), to, Some(from))
                }
                Move::Drop { to, .. } => common::attacks_royal_naive(&pos.after(mv), to, None),
                _ => false,
            })
            .collect()
    };
    let mut listed = Vec::new();
    pos.quiet_checks(&mut listed);
    for &mv in &listed {
        assert!(pos.after(mv).is_check(), "{mv:?} gives no check at {fen}");
    }
    listed.sort_by_key(|m| format!("{m:?}"));
    expected.sort_by_key(|m| format!("{m:?}"));
    assert_eq!(listed, expected, "quiet checks differ at {fen}");
}

fn playout(variant: &Variant, seed: u64, plies: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::start(variant);
    for _ in 0..plies {
        check_position(&pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Favour pocket and special moves a little so playouts reach them often.
        let mv: Move = moves[rng.random_range(0..moves.len())];
        pos = pos.play(mv).expect("generated moves are legal");
    }
}

fn shipped() -> Vec<Variant> {
    builtin::names()
        .map(|n| builtin::load(n).unwrap())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_agree_with_the_reference(seed in any::<u64>()) {
        for variant in shipped() {
            playout(&variant, seed, 80);
        }
    }
}

/// Positions rich in special moves, played out from, so castling, en
/// passant, promotion and drops are exercised on every run.
#[test]
fn special_positions_agree_with_the_reference() {
    let cases = [
        (
            "chess",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        (
            "chess",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ),
        (
            "fairy-oracle-allpromo",
            "1r2k3/P1P5/8/8/8/8/5p1p/3K2R1 w - - 0 1",
        ),
        (
            "fairy-oracle",
            "4l1k1/5ppp/8/2i5/4X3/8/5PPP/1HC1K2U w - - 0 1",
        ),
        (
            "pmc-drops",
            "2h1k3/p5pp/8/1n6/5f1B/8/1M3PPP/6K1[i] b - - 0 1",
        ),
        ("pocket-mutation", "4k3/1P6/8/8/8/8/8/4K3[] w - - 0 30"),
        ("pocket-mutation", "P3k3/8/8/8/8/8/8/M3K3[] w - - 0 30"),
        ("pocket-mutation", "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 30"),
        ("chess-mutation", "o3k2o/8/8/8/8/8/8/O3K2O w KQkq - 0 1"),
        (
            "chess-mutation",
            "o3k2o/1oo1ooo1/2o2o2/3oO3/1O3o2/2O2O2/OO3OOO/O3K2O w KQkq - 0 1",
        ),
        (
            "chess-mutation-alt",
            "o3k2o/1oo1ooo1/2o2o2/3oO3/1O3o2/2O2O2/OO3OOO/O3K2O w KQkq - 0 1",
        ),
    ];
    for (name, fen) in cases {
        let variant = builtin::load(name).unwrap();
        let start = Position::from_fen(&variant, fen).unwrap();
        for seed in 0..6 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut pos = start.clone();
            for _ in 0..20 {
                check_position(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.after(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
}
