//! Bad input gets an error, never a panic: random and mutated FEN, Betza,
//! variant files and move text, plus one test per variant-file error class.

use pocketlab_core::builtin;
use pocketlab_core::kind::parse_variant;
use pocketlab_core::{Position, VariantError, betza, notation};
use proptest::prelude::*;

const PMC_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1";

fn no_parent(_: &str) -> Option<(String, String)> {
    None
}

/// Apply byte edits (replace, delete, insert) to a text, keeping it UTF-8.
fn mutate(text: &str, edits: &[(usize, u8, u8)]) -> String {
    let mut bytes: Vec<u8> = text.bytes().collect();
    for &(pos, op, byte) in edits {
        if bytes.is_empty() {
            break;
        }
        let i = pos % bytes.len();
        let c = b" \n=[]\"#/.-0123456789abcdefgkKnNpPqQrRwWbBmMiIx@^{}"[usize::from(byte) % 49];
        match op % 3 {
            0 => bytes[i] = c,
            1 => {
                bytes.remove(i);
            }
            _ => bytes.insert(i, c),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_text_is_never_a_panic_as_fen(text in "\\PC{0,90}") {
        let v = builtin::load("pocket-mutation").unwrap();
        let _ = Position::from_fen(&v, &text);
    }

    #[test]
    fn mutated_fens_are_errors_or_valid_positions(edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6)) {
        let v = builtin::load("pocket-mutation").unwrap();
        let chess = builtin::load("chess").unwrap();
        let text = mutate(PMC_START, &edits);
        if let Ok(pos) = Position::from_fen(&v, &text) {
            // A position that parses is sound: it round-trips and moves can be generated.
            prop_assert_eq!(Position::from_fen(&v, &pos.to_fen()).unwrap(), pos.clone());
            let _ = pos.legal_moves();
        }
        let text = mutate("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &edits);
        if let Ok(pos) = Position::from_fen(&chess, &text) {
            let _ = pos.legal_moves();
        }
    }

    #[test]
    fn random_betza_is_never_a_panic(text in "[mcfblrvshineWFDNAHCZGKBRQ0-9pjoa@]{0,14}") {
        let _ = betza::parse(&text);
    }

    #[test]
    fn variant_files_with_random_betza_parse_or_fail_cleanly(text in "[mcfblrvshineWFDNAHCZGKBRQ0-9]{1,10}") {
        let file = format!(
            "name = \"t\"\nroyal = \"K\"\nstart = \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n[pieces.K]\nbetza = \"K\"\nvalue = 0\n[pieces.Z]\nbetza = \"{text}\"\nvalue = 300\n"
        );
        if let Ok(v) = parse_variant("random.toml", &file, &no_parent) {
            let pos = Position::from_fen(&v, "4k3/8/8/3Z4/8/8/8/4K3 w - - 0 1");
            if let Ok(pos) = pos {
                let _ = pos.legal_moves();
            }
        }
    }

    #[test]
    fn mutated_variant_files_are_errors_or_variants(edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..4)) {
        let text = mutate(builtin::text("chess").unwrap(), &edits);
        match parse_variant("chess-mutated.toml", &text, &builtin::resolve) {
            Ok(v) => {
                let _ = Position::start(&v).legal_moves();
            }
            Err(e) => prop_assert_eq!(e.file, "chess-mutated.toml"),
        }
    }

    #[test]
    fn random_move_text_is_never_a_panic(text in "\\PC{0,12}") {
        let v = builtin::load("pocket-mutation").unwrap();
        let pos = Position::start(&v);
        let _ = notation::parse(&pos, &text);
    }
}

fn variant_error(text: &str) -> VariantError {
    parse_variant("bad.toml", text, &builtin::resolve).expect_err("the file should be rejected")
}

const MINIMAL: &str = r#"
name = "minimal"
royal = "K"
start = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
[pieces.K]
betza = "K"
value = 0
"#;

#[test]
fn a_minimal_variant_is_accepted() {
    parse_variant("minimal.toml", MINIMAL, &builtin::resolve).unwrap();
}

#[test]
fn unknown_keys_are_rejected_with_their_name() {
    let e = variant_error(&format!("{MINIMAL}colour = \"red\"\n"));
    assert!(e.to_string().contains("colour"), "{e}");
    let e = variant_error(&MINIMAL.replace("value = 0", "value = 0\nvalu = 3"));
    assert!(e.to_string().contains("valu"), "{e}");
    let e = variant_error(&format!("{MINIMAL}[pocket]\nenabled = true\nsizes = 2\n"));
    assert!(e.to_string().contains("sizes"), "{e}");
}

#[test]
fn duplicate_letters_are_rejected() {
    let e = variant_error(&format!("{MINIMAL}[pieces.K]\nbetza = \"W\"\nvalue = 1\n"));
    assert!(e.to_string().to_lowercase().contains("duplicate"), "{e}");
}

#[test]
fn classes_must_name_known_pieces_once() {
    let e = variant_error(&MINIMAL.replace("royal = \"K\"", "royal = \"K\"\nclasses = [\"Q\"]"));
    assert_eq!(e.key, "classes[1]");
    assert!(e.reason.contains("'Q'"), "{e}");
    let e = variant_error(&MINIMAL.replace("royal = \"K\"", "royal = \"K\"\nclasses = [\"K\"]"));
    assert!(e.reason.contains("royal"), "{e}");
}

#[test]
fn the_start_needs_exactly_one_royal_piece_per_side() {
    let e = variant_error(&MINIMAL.replace("4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/3KK3"));
    assert_eq!(e.key, "start");
    assert!(e.reason.contains("royal"), "{e}");
    let e = variant_error(&MINIMAL.replace("4k3/8/8/8/8/8/8/4K3", "8/8/8/8/8/8/8/4K3"));
    assert_eq!(e.key, "start");
}

#[test]
fn bad_betza_names_the_piece_and_character() {
    let e = variant_error(&MINIMAL.replace("betza = \"K\"", "betza = \"Kp\""));
    assert_eq!(e.key, "pieces.K.betza");
    assert!(e.reason.contains("'p'"), "{e}");
}

#[test]
fn contradictory_settings_are_rejected() {
    let e = variant_error(&format!(
        "{MINIMAL}[pocket]\nenabled = true\nmutation = true\n"
    ));
    assert_eq!(e.key, "pocket.mutation");
    let e = variant_error(&format!(
        "{MINIMAL}[promotion]\nenabled = true\nchoices = \"K\"\n"
    ));
    assert_eq!(e.key, "promotion.choices");
    let e = variant_error(&format!(
        "{MINIMAL}[castling]\nenabled = true\nking_file = \"a\"\n"
    ));
    assert_eq!(e.key, "castling");
    let e = variant_error(&format!("{MINIMAL}[draw]\nrepetition = 1\n"));
    assert_eq!(e.key, "draw.repetition");
    let e = variant_error(&format!("{MINIMAL}[draw]\nn_move_reset = [\"sneeze\"]\n"));
    assert!(e.reason.contains("sneeze"), "{e}");
}

#[test]
fn inheritance_errors_name_the_link() {
    let e = variant_error(&MINIMAL.replace(
        "name = \"minimal\"",
        "name = \"child\"\ninherits = \"no-such-variant\"",
    ));
    assert_eq!(e.key, "inherits");
    let looped = |name: &str| {
        Some((
            format!("{name}.toml"),
            format!("name = \"{name}\"\ninherits = \"{name}\"\n"),
        ))
    };
    let e = parse_variant("a.toml", "name = \"a\"\ninherits = \"a\"\n", &looped).unwrap_err();
    assert!(
        e.reason.contains("cycle") || e.reason.contains("deeper"),
        "{e}"
    );
}

#[test]
fn inheritance_overrides_single_fields() {
    let child = r#"
name = "cheap-queens"
inherits = "chess"
[pieces.Q]
value = 500
"#;
    let v = parse_variant("child.toml", child, &builtin::resolve).unwrap();
    let q = v.piece(v.piece_by_letter('Q').unwrap());
    assert_eq!(q.value, 500);
    assert_eq!(
        q.betza, "Q",
        "fields the child does not set come from the parent"
    );
    assert!(v.rules.castling.is_some());
    assert_eq!(v.name, "cheap-queens");
}

#[test]
fn potential_chess_armies_are_validated() {
    let potential = |army: &str| {
        format!("name = \"p\"\ninherits = \"potential-chess\"\n[potential]\narmy = \"{army}\"\n")
    };
    let v = parse_variant("p.toml", &potential("KQQRRNNPPPPPPPP"), &builtin::resolve).unwrap();
    let army = pocketlab_core::potential::Army::of(&v).expect("a potential variant has an army");
    assert_eq!(army.size(), 15);
    assert_eq!(army.letter(1), 'Q');
    assert_eq!(army.count(1), 2);

    let e = variant_error(&potential("KQZ"));
    assert_eq!(e.key, "potential.army");
    assert!(e.reason.contains("'Z'"), "{e}");
    let e = variant_error(&potential("KKQ"));
    assert_eq!(e.key, "potential.army");
    assert!(e.reason.contains("royal"), "{e}");
    let e = variant_error(&potential("QRN"));
    assert!(e.reason.contains("royal"), "{e}");
    let e = variant_error(&potential(&"KQ".repeat(17)));
    assert!(e.reason.contains("pieces per side"), "{e}");
    let e = variant_error(&format!("{MINIMAL}[potential]\n"));
    assert_eq!(e.key, "potential.army");

    let e =
        variant_error("name = \"p\"\ninherits = \"potential-chess\"\n[castling]\nenabled = true\n");
    assert_eq!(e.key, "potential");
    assert!(e.reason.contains("castling"), "{e}");
    let e =
        variant_error("name = \"p\"\ninherits = \"potential-chess\"\n[pocket]\nenabled = true\n");
    assert!(e.reason.contains("pockets"), "{e}");
    assert!(pocketlab_core::potential::Army::of(&builtin::load("chess").unwrap()).is_none());
}
