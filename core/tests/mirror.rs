//! Positions seen in a mirror (files a to h reversed): which variants keep
//! their rules in a mirror, and that a mirrored position of one that does
//! has the mirrored moves, the same check status, a consistent hash and
//! the same move tree.

use pocketlab_core::GamePosition;
use pocketlab_core::kind::parse_variant;
use pocketlab_core::perft::perft;
use pocketlab_core::{Move, Position, builtin, notation};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn shipped_variants_say_whether_a_mirror_keeps_their_rules() {
    for name in [
        "chess-nocastle",
        "pocket-mutation",
        "fairy-oracle",
        "pmc-drops",
    ] {
        let v = builtin::load(name).unwrap();
        assert!(v.is_file_symmetric(), "{name} should be file-symmetric");
    }
    // Castling; square colours deciding moves; Potential Chess.
    for name in ["chess", "chess-mutation", "potential-chess"] {
        let v = builtin::load(name).unwrap();
        assert!(
            !v.is_file_symmetric(),
            "{name} should not be file-symmetric"
        );
        assert!(Position::start(&v).mirror_files().is_none());
    }
}

#[test]
fn a_piece_that_moves_to_one_side_breaks_the_symmetry() {
    let one_sided = r#"
name = "left-knights"
inherits = "chess-nocastle"

[pieces.N]
name = "left knight"
betza = "lN"
value = 200
"#;
    let v = parse_variant("left-knights.toml", one_sided, &builtin::resolve).unwrap();
    assert!(!v.is_file_symmetric());
    let both_sides = one_sided.replace("\"lN\"", "\"lNrN\"");
    let v = parse_variant("knights.toml", &both_sides, &builtin::resolve).unwrap();
    assert!(v.is_file_symmetric());
}

/// `mv` in the project's notation with its squares mirrored (a file
/// letter is one followed by a rank digit; piece letters stay).
fn mirrored_notation(pos: &Position<'_>, mv: Move) -> String {
    let text: Vec<char> = notation::format(pos, mv).chars().collect();
    text.iter()
        .enumerate()
        .map(|(i, &c)| {
            let square =
                matches!(c, 'a'..='h') && text.get(i + 1).is_some_and(char::is_ascii_digit);
            if square {
                (b'h' - (c as u8 - b'a')) as char
            } else {
                c
            }
        })
        .collect()
}

#[test]
fn a_mirrored_position_has_the_mirrored_moves() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for name in ["chess-nocastle", "pocket-mutation", "pmc-drops"] {
        let v = builtin::load(name).unwrap();
        for _ in 0..12 {
            let mut pos = Position::start(&v);
            for ply in 0..60 {
                let mirror = pos.mirror_files().unwrap();
                let fen = pos.to_fen();
                assert_eq!(mirror.hash(), mirror.compute_hash(), "{fen}");
                assert_eq!(mirror.mirror_files().unwrap(), pos, "{fen}");
                assert_eq!(mirror.is_check(), pos.is_check(), "{fen}");
                let reparsed = Position::from_fen(&v, &mirror.to_fen()).unwrap();
                assert_eq!(reparsed, mirror, "{fen}");
                let moves = pos.legal_moves();
                let mut expected: Vec<String> =
                    moves.iter().map(|&m| mirrored_notation(&pos, m)).collect();
                let mut found: Vec<String> = mirror
                    .legal_moves()
                    .iter()
                    .map(|&m| notation::format(&mirror, m))
                    .collect();
                expected.sort();
                found.sort();
                assert_eq!(found, expected, "{fen}");
                if ply % 20 == 0 {
                    assert_eq!(perft(&mirror, 2), perft(&pos, 2), "{fen}");
                }
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                pos = pos
                    .successor(mv)
                    .unwrap_or_else(|| panic!("{fen}: legal move refused"));
            }
        }
    }
}
