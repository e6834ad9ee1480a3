//! Generators: the armies and matchups of the lab's standard questions.

use pocketlab_core::{Position, Variant};

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
        GeneratorFile::ClassEquivalence { class, slots } => {
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
            let mut indices = Vec::new();
            for &member in &members {
                let name = variant.letter(member).to_string();
                let replace = if member == slot {
                    Vec::new()
                } else {
                    vec![(slot, member)]
                };
                let army = Army {
                    name,
                    replace,
                    remove: Vec::new(),
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
                .map_err(|e: pocketlab_core::types::ParseSquareError| {
                    cx.err(format!("{key}.square"), e.to_string())
                })?;
            let start = Position::start(variant);
            match start.piece_at(sq) {
                Some(p) if variant.is_pawn(p.kind) && p.color == pocketlab_core::Color::White => {}
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
