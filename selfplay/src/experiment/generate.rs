//! Generators: the armies and matchups of the lab's standard questions.

use pocketlab_core::{Color, PieceType, Position, Square, Variant};

use super::file::GeneratorFile;
use super::{Army, Ctx, EngineSettings, ExperimentError, Matchup, army_index, piece_letter};

/// Add the armies and matchups a generator describes. Armies with the same
/// name and setup are shared between generators.
pub(super) fn expand(
    cx: &Ctx<'_>,
    variant: &Variant,
    key: &str,
    generator: &GeneratorFile,
    engine: &EngineSettings,
    armies: &mut Vec<Army>,
    matchups: &mut Vec<Matchup>,
) -> Result<(), ExperimentError> {
    let named: Vec<usize> = match generator {
        GeneratorFile::ClassEquivalence {
            class,
            slots,
            squares,
        } => {
            let members = variant
                .class(*class)
                .ok_or_else(|| {
                    cx.err(
                        format!("{key}.class"),
                        format!("variant '{}' has no class {class}", variant.name),
                    )
                })?
                .to_vec();
            if members.len() < 2 {
                return Err(cx.err(
                    format!("{key}.class"),
                    format!("class {class} has fewer than two pieces: nothing to compare"),
                ));
            }
            let start = Position::start(variant);
            let slot = match slots {
                Some(letter) => piece_letter(cx, variant, &format!("{key}.slots"), letter)?,
                None => *members.iter().find(|&&t| start.pieces_of_type(t).any()).ok_or_else(|| {
                    cx.err(format!("{key}.slots"), format!("no piece of class {class} in the start position: name the slots' letter"))
                })?,
            };
            if start.pieces_of_type(slot).is_empty() {
                return Err(cx.err(
                    format!("{key}.slots"),
                    "the start position has no such piece",
                ));
            }
            if slot == variant.royal {
                return Err(cx.err(
                    format!("{key}.slots"),
                    "the royal piece's square is not a slot",
                ));
            }
            let squares = slot_squares(cx, key, variant, &start, slot, squares)?;
            let mut indices = Vec::new();
            for &member in &members {
                let name = variant.letter(member).to_string();
                // Every slot piece replaced by type, or only those on `squares`.
                let (replace, place) = match (&squares, member == slot) {
                    (_, true) => (Vec::new(), Vec::new()),
                    (None, false) => (vec![(slot, member)], Vec::new()),
                    (Some(squares), false) => {
                        (Vec::new(), squares.iter().map(|&sq| (sq, member)).collect())
                    }
                };
                let army = Army {
                    name,
                    replace,
                    remove: Vec::new(),
                    place,
                    pocket: Vec::new(),
                    engine: engine.clone(),
                };
                indices.push(add_army(cx, key, armies, army)?);
            }
            round_robin(armies, &indices, matchups);
            return Ok(());
        }
        GeneratorFile::Imbalance { a, b } => {
            vec![
                army_index(cx, armies, key, a)?,
                army_index(cx, armies, key, b)?,
            ]
        }
        GeneratorFile::PawnOdds { square } => {
            let sq = square
                .parse()
                .map_err(|e: pocketlab_core::ParseSquareError| {
                    cx.err(format!("{key}.square"), e.to_string())
                })?;
            let start = Position::start(variant);
            match start.piece_at(sq) {
                Some(p) if variant.is_pawn(p.kind) && p.color == Color::White => {}
                _ => {
                    return Err(cx.err(
                        format!("{key}.square"),
                        format!("{square} holds no pawn in the start position"),
                    ));
                }
            }
            let base = add_army(cx, key, armies, Army::base("base", engine.clone()))?;
            let odds = Army {
                name: format!("pawn-odds-{square}"),
                replace: Vec::new(),
                remove: vec![sq],
                place: Vec::new(),
                pocket: Vec::new(),
                engine: engine.clone(),
            };
            let odds = add_army(cx, key, armies, odds)?;
            vec![base, odds]
        }
        GeneratorFile::RoundRobin { armies: names } => {
            if names.len() < 2 {
                return Err(cx.err(
                    format!("{key}.armies"),
                    "a round robin needs at least two armies",
                ));
            }
            names
                .iter()
                .map(|n| army_index(cx, armies, key, n))
                .collect::<Result<_, _>>()?
        }
    };
    round_robin(armies, &named, matchups);
    Ok(())
}

/// The squares a class-equivalence generator narrows its slots to (`None`:
/// every square of the slot piece). Each must hold White's slot piece in the
/// start position (Black's side is mirrored).
fn slot_squares(
    cx: &Ctx<'_>,
    key: &str,
    variant: &Variant,
    start: &Position<'_>,
    slot: PieceType,
    squares: &[String],
) -> Result<Option<Vec<Square>>, ExperimentError> {
    if squares.is_empty() {
        return Ok(None);
    }
    let k = format!("{key}.squares");
    let mut out: Vec<Square> = Vec::new();
    for text in squares {
        let sq: Square = text
            .parse()
            .map_err(|e: pocketlab_core::ParseSquareError| cx.err(&k, e.to_string()))?;
        let holds_slot = start
            .piece_at(sq)
            .is_some_and(|p| p.kind == slot && p.color == Color::White);
        if !holds_slot {
            return Err(cx.err(
                &k,
                format!(
                    "{text} does not hold White's {} in the start position (squares are from White's side)",
                    variant.letter(slot)
                ),
            ));
        }
        if out.contains(&sq) {
            return Err(cx.err(&k, format!("{text} is listed twice")));
        }
        out.push(sq);
    }
    Ok(Some(out))
}

/// Add an army, or reuse an identical one of the same name.
fn add_army(
    cx: &Ctx<'_>,
    key: &str,
    armies: &mut Vec<Army>,
    army: Army,
) -> Result<usize, ExperimentError> {
    if let Some(i) = armies.iter().position(|a| a.name == army.name) {
        let same = armies[i].replace == army.replace
            && armies[i].remove == army.remove
            && armies[i].place == army.place
            && armies[i].pocket == army.pocket;
        return if same {
            Ok(i)
        } else {
            Err(cx.err(
                key,
                format!(
                    "army '{}' is defined twice with different setups",
                    army.name
                ),
            ))
        };
    }
    armies.push(army);
    Ok(armies.len() - 1)
}

/// Every pair among `indices`, in order, skipping matchups already present.
fn round_robin(armies: &[Army], indices: &[usize], matchups: &mut Vec<Matchup>) {
    for (i, &a) in indices.iter().enumerate() {
        for &b in &indices[i + 1..] {
            let name = format!("{}-vs-{}", armies[a].name, armies[b].name);
            if !matchups.iter().any(|m| m.name == name) {
                matchups.push(Matchup { name, a, b });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::{Experiment, pieces_exchanged, start_fen};

    fn class_experiment(generator: &str) -> Result<Experiment, super::ExperimentError> {
        let text = format!(
            "name = \"t\"\nvariant = \"pocket-mutation\"\nseed = 1\n\
             [[generators]]\nkind = \"class-equivalence\"\n{generator}"
        );
        Experiment::parse("t.toml", &text, Path::new("."))
    }

    fn exchanged(exp: &Experiment) -> Vec<Option<u32>> {
        exp.matchups
            .iter()
            .map(|m| pieces_exchanged(&exp.variant, &exp.armies[m.a], &exp.armies[m.b]))
            .collect()
    }

    #[test]
    fn classes_on_two_squares_exchange_two_pieces_on_the_queens_one() {
        let two = class_experiment("class = 2\nslots = \"N\"").unwrap();
        assert_eq!(exchanged(&two), [Some(2)]);
        let three = class_experiment("class = 3\nslots = \"R\"").unwrap();
        assert_eq!(exchanged(&three), [Some(2); 3]);
        let five = class_experiment("class = 5\nslots = \"Q\"").unwrap();
        assert_eq!(exchanged(&five), [Some(1); 6]);
    }

    #[test]
    fn squares_narrow_the_slots_to_single_pieces_mirrored_for_black() {
        let exp = class_experiment("class = 2\nslots = \"N\"\nsquares = [\"b1\"]").unwrap();
        assert_eq!(exchanged(&exp), [Some(1)]);
        let bishop = exp.armies.iter().find(|a| a.name == "B").unwrap();
        let knight = exp.armies.iter().find(|a| a.name == "N").unwrap();
        assert_eq!(bishop.describe(&exp.variant), "b1=B");
        let fen = start_fen(&exp.variant, bishop, bishop).unwrap();
        assert!(
            fen.starts_with("rbbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RBBQKBNR"),
            "{fen}"
        );
        assert_eq!(knight.describe(&exp.variant), "base");
        // Both knights' squares, named: the same as the default.
        let both =
            class_experiment("class = 3\nslots = \"R\"\nsquares = [\"a1\", \"h1\"]").unwrap();
        assert_eq!(exchanged(&both), [Some(2); 3]);
    }

    #[test]
    fn squares_without_the_slot_piece_are_refused() {
        for (squares, why) in [
            ("[\"c1\"]", "does not hold White's N"),
            ("[\"b8\"]", "does not hold White's N"),
            ("[\"z9\"]", "squares"),
            ("[\"b1\", \"b1\"]", "listed twice"),
        ] {
            let e = class_experiment(&format!("class = 2\nslots = \"N\"\nsquares = {squares}"))
                .unwrap_err();
            assert_eq!(e.key, "generators[1].squares", "{e}");
            assert!(e.to_string().contains(why), "{e}");
        }
    }

    #[test]
    fn armies_that_differ_in_more_than_pieces_have_no_count() {
        let text = "name = \"t\"\nvariant = \"pocket-mutation\"\nseed = 1\n\
                    [armies.a]\n[armies.b]\nremove = [\"f2\"]\n[armies.c]\n\
                    [[matchups]]\na = \"a\"\nb = \"b\"\n[[matchups]]\na = \"a\"\nb = \"c\"\n";
        let exp = Experiment::parse("t.toml", text, Path::new(".")).unwrap();
        assert_eq!(exchanged(&exp), [None, None]);
    }
}
