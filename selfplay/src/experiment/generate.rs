//! Generators: the armies and matchups of the lab's standard questions.

use pocketlab_core::{Color, PieceType, Position, Square, Variant};
use pocketlab_stats::value_scale::{AllocationOptions, PieceRef};

use super::file::GeneratorFile;
use super::{
    Army, Ctx, EngineSettings, ExperimentError, Identities, Matchup, army_index, piece_letter,
};

/// The value scale a `value-scale` generator lays out: its pieces, and the
/// piece each side of each of its matchups has on the exchanged square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScalePlan {
    /// The square whose piece is exchanged (White's view).
    pub square: Square,
    /// The pieces on the scale by index: the pawn (the unit, by pawn
    /// odds), then the placed pieces in the order of the variant's values.
    pub pieces: Vec<PieceType>,
    /// The pawn's index in `pieces`.
    pub pawn: usize,
    /// Per matchup on the scale: its index among the experiment's
    /// matchups, army A's piece and army B's (`PieceRef::Nothing`: the
    /// square, or the pawn's, is empty).
    pub matchups: Vec<(usize, PieceRef, PieceRef)>,
}

impl ScalePlan {
    /// What matchup `m` of the experiment compares, if it is on the scale.
    pub fn sides(&self, m: usize) -> Option<(PieceRef, PieceRef)> {
        self.matchups
            .iter()
            .find(|&&(i, _, _)| i == m)
            .map(|&(_, a, b)| (a, b))
    }

    /// The cap under `allocation` of the scale's `i`-th matchup: the
    /// unit's for the pawn's matchups, every other matchup's otherwise.
    pub fn cap(&self, i: usize, allocation: &AllocationOptions) -> u64 {
        let (_, a, b) = self.matchups[i];
        allocation.cap(a, b, self.pawn)
    }
}

/// Add the armies and matchups a generator describes. Armies with the same
/// name and setup are shared between generators. A value-scale generator
/// also lays out `scale` (one per experiment).
#[allow(clippy::too_many_arguments)]
pub(super) fn expand(
    cx: &Ctx<'_>,
    variant: &Variant,
    key: &str,
    generator: &GeneratorFile,
    engine: &EngineSettings,
    armies: &mut Vec<Army>,
    matchups: &mut Vec<Matchup>,
    scale: &mut Option<ScalePlan>,
) -> Result<(), ExperimentError> {
    let named: Vec<usize> = match generator {
        GeneratorFile::ValueScale {
            square,
            pieces,
            neighbours,
            odds,
            pawn_odds,
        } => {
            if scale.is_some() {
                return Err(cx.err(
                    key,
                    "a second value-scale generator: an experiment holds one value scale",
                ));
            }
            let file = ScaleFile {
                square,
                pieces: pieces.as_deref(),
                neighbours: *neighbours,
                odds: *odds,
                pawn_odds,
            };
            *scale = Some(value_scale(
                cx, variant, key, &file, engine, armies, matchups,
            )?);
            return Ok(());
        }
        GeneratorFile::ClassEquivalence {
            class,
            slots,
            squares,
            pairs,
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
            let only = class_pairs(cx, key, variant, &members, pairs)?;
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
                    castling: true,
                    identities: Identities::Potential,
                    engine: engine.clone(),
                };
                indices.push(add_army(cx, key, armies, army)?);
            }
            let listed = |i: usize, j: usize| {
                only.as_ref().is_none_or(|only| {
                    only.contains(&(members[i], members[j]))
                        || only.contains(&(members[j], members[i]))
                })
            };
            round_robin(armies, &indices, listed, matchups);
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
                castling: true,
                identities: Identities::Potential,
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
    round_robin(armies, &named, |_, _| true, matchups);
    Ok(())
}

/// A value-scale generator's settings, as its table gives them.
struct ScaleFile<'a> {
    square: &'a str,
    pieces: Option<&'a str>,
    neighbours: u8,
    odds: u8,
    pawn_odds: &'a str,
}

/// The value-scale design: one army per piece, the piece on `square` (and
/// Black's mirror square); each piece against the next `neighbours` up the
/// variant's values, the lowest `odds` pieces against the empty square,
/// and the base army against itself a pawn down (the unit). Every matchup
/// exchanges one piece, so a value is the piece's own, without pair
/// effects; army A is the stronger side by the variant's values.
fn value_scale(
    cx: &Ctx<'_>,
    variant: &Variant,
    key: &str,
    scale: &ScaleFile<'_>,
    engine: &EngineSettings,
    armies: &mut Vec<Army>,
    matchups: &mut Vec<Matchup>,
) -> Result<ScalePlan, ExperimentError> {
    let start = Position::start(variant);
    let square = scale_square(cx, key, variant, &start, scale.square)?;
    let mut pieces = scale_pieces(cx, key, variant, scale.pieces)?;
    if pieces.len() < 2 {
        return Err(cx.err(format!("{key}.pieces"), "a scale needs at least two pieces"));
    }
    if scale.neighbours == 0 {
        return Err(cx.err(
            format!("{key}.neighbours"),
            "at least 1: each piece against the next up the scale",
        ));
    }
    pieces.sort_by_key(|&t| (variant.piece(t).value, variant.letter(t)));
    let mut on_square = Vec::new();
    for &piece in &pieces {
        let army = Army {
            name: format!("{}@{square}", variant.letter(piece)),
            replace: Vec::new(),
            remove: Vec::new(),
            place: vec![(square, piece)],
            pocket: Vec::new(),
            castling: true,
            identities: Identities::Potential,
            engine: engine.clone(),
        };
        on_square.push(add_army(cx, key, armies, army)?);
    }
    let empty = Army {
        name: format!("none@{square}"),
        replace: Vec::new(),
        remove: vec![square],
        place: Vec::new(),
        pocket: Vec::new(),
        castling: true,
        identities: Identities::Potential,
        engine: engine.clone(),
    };
    // Piece `i` of the scale is `pieces[i - 1]`: index 0 is the pawn.
    let mut on_scale = Vec::new();
    if scale.odds > 0 {
        let empty = add_army(cx, key, armies, empty)?;
        for (i, &a) in on_square.iter().enumerate().take(usize::from(scale.odds)) {
            let m = add_matchup(armies, a, empty, matchups);
            on_scale.push((m, PieceRef::Piece(i + 1), PieceRef::Nothing));
        }
    }
    for (i, &lower) in on_square.iter().enumerate() {
        for (j, &upper) in on_square
            .iter()
            .enumerate()
            .skip(i + 1)
            .take(usize::from(scale.neighbours))
        {
            let m = add_matchup(armies, upper, lower, matchups);
            on_scale.push((m, PieceRef::Piece(j + 1), PieceRef::Piece(i + 1)));
        }
    }
    let pawn_key = format!("{key}.pawn_odds");
    let pawn_odds = GeneratorFile::PawnOdds {
        square: scale.pawn_odds.to_owned(),
    };
    let mut none = None;
    expand(
        cx, variant, &pawn_key, &pawn_odds, engine, armies, matchups, &mut none,
    )?;
    // The pawn-odds generator's one matchup: the base army against itself
    // a pawn down.
    let calibration_name = format!("base-vs-pawn-odds-{}", scale.pawn_odds);
    let calibration = matchups
        .iter()
        .position(|m| m.name == calibration_name)
        .ok_or_else(|| cx.err(&pawn_key, "the pawn-odds matchup is missing"))?;
    on_scale.push((calibration, PieceRef::Piece(0), PieceRef::Nothing));
    let pawn_square: Square = scale
        .pawn_odds
        .parse()
        .map_err(|e: pocketlab_core::ParseSquareError| cx.err(&pawn_key, e.to_string()))?;
    let pawn = start
        .piece_at(pawn_square)
        .map(|p| p.kind)
        .ok_or_else(|| cx.err(&pawn_key, "no pawn"))?;
    on_scale.sort_by_key(|&(m, _, _)| m);
    on_scale.dedup_by_key(|&mut (m, _, _)| m);
    Ok(ScalePlan {
        square,
        pieces: std::iter::once(pawn).chain(pieces).collect(),
        pawn: 0,
        matchups: on_scale,
    })
}

/// The square a value scale exchanges pieces on: it holds one of White's
/// pieces in the start position, not the royal piece and not a pawn.
fn scale_square(
    cx: &Ctx<'_>,
    key: &str,
    variant: &Variant,
    start: &Position<'_>,
    text: &str,
) -> Result<Square, ExperimentError> {
    let square: Square = text
        .parse()
        .map_err(|e: pocketlab_core::ParseSquareError| {
            cx.err(format!("{key}.square"), e.to_string())
        })?;
    match start.piece_at(square) {
        Some(p) if p.color == Color::White && p.kind != variant.royal && !variant.is_pawn(p.kind) => {
            Ok(square)
        }
        _ => Err(cx.err(
            format!("{key}.square"),
            format!("{text} holds no White piece in the start position (other than the royal piece and pawns)"),
        )),
    }
}

/// The pieces a value scale places: the listed letters, or every piece of
/// the variant's classes but pawns and the royal piece.
fn scale_pieces(
    cx: &Ctx<'_>,
    key: &str,
    variant: &Variant,
    letters: Option<&str>,
) -> Result<Vec<PieceType>, ExperimentError> {
    let k = format!("{key}.pieces");
    let pieces: Vec<PieceType> = match letters {
        Some(text) => text
            .chars()
            .map(|c| piece_letter(cx, variant, &k, &c.to_string()))
            .collect::<Result<_, _>>()?,
        None => variant.classes.iter().flatten().copied().collect(),
    };
    let mut out: Vec<PieceType> = Vec::new();
    for p in pieces {
        if p == variant.royal || variant.is_pawn(p) {
            if letters.is_some() {
                return Err(cx.err(
                    k.as_str(),
                    format!("{}: the royal piece and pawns are not placed on the scale's square (the pawn is the unit, by pawn odds)", variant.letter(p)),
                ));
            }
            continue;
        }
        if !out.contains(&p) {
            out.push(p);
        }
    }
    if out.is_empty() && letters.is_none() {
        return Err(cx.err(
            k.as_str(),
            format!(
                "variant '{}' has no classes: list the pieces to place",
                variant.name
            ),
        ));
    }
    Ok(out)
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
            && armies[i].pocket == army.pocket
            && armies[i].castling == army.castling
            && armies[i].identities == army.identities;
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

/// The pairs a class-equivalence generator lists (`None`: every pair), each
/// checked: two different letters of the class, listed once.
fn class_pairs(
    cx: &Ctx<'_>,
    key: &str,
    variant: &Variant,
    members: &[PieceType],
    pairs: &[String],
) -> Result<Option<Vec<(PieceType, PieceType)>>, ExperimentError> {
    if pairs.is_empty() {
        return Ok(None);
    }
    let mut listed = Vec::new();
    for (i, text) in pairs.iter().enumerate() {
        let field = format!("{key}.pairs[{i}]");
        let letters: Vec<char> = text.chars().collect();
        let [a, b] = letters[..] else {
            return Err(cx.err(
                field,
                format!("'{text}': a pair is two piece letters, e.g. \"DG\""),
            ));
        };
        let piece = |letter: char| {
            variant
                .piece_by_letter(letter)
                .filter(|t| members.contains(t))
                .ok_or_else(|| cx.err(&field, format!("'{letter}' is no piece of this class")))
        };
        let (a, b) = (piece(a)?, piece(b)?);
        if a == b {
            return Err(cx.err(field, format!("'{text}' pairs a piece with itself")));
        }
        if listed.contains(&(a, b)) || listed.contains(&(b, a)) {
            return Err(cx.err(field, format!("'{text}' is listed twice")));
        }
        listed.push((a, b));
    }
    Ok(Some(listed))
}

/// Every pair among `indices` that `keep` takes (called with positions in
/// `indices`), in order, skipping matchups already present.
fn round_robin(
    armies: &[Army],
    indices: &[usize],
    keep: impl Fn(usize, usize) -> bool,
    matchups: &mut Vec<Matchup>,
) {
    for (i, &a) in indices.iter().enumerate() {
        for (j, &b) in indices.iter().enumerate().skip(i + 1) {
            if keep(i, j) {
                add_matchup(armies, a, b, matchups);
            }
        }
    }
}

/// Army `a` against army `b`, unless that matchup is already listed: its
/// index.
fn add_matchup(armies: &[Army], a: usize, b: usize, matchups: &mut Vec<Matchup>) -> usize {
    let name = format!("{}-vs-{}", armies[a].name, armies[b].name);
    match matchups.iter().position(|m| m.name == name) {
        Some(i) => i,
        None => {
            matchups.push(Matchup { name, a, b });
            matchups.len() - 1
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use pocketlab_stats::value_scale::PieceRef;

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
    fn pairs_narrow_a_class_to_the_pairs_listed_and_are_checked() {
        let exp = class_experiment("class = 5\nslots = \"Q\"\npairs = [\"QD\", \"FH\"]").unwrap();
        let names: Vec<&str> = exp.matchups.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["Q-vs-D", "H-vs-F"]);
        for (pairs, why) in [
            ("[\"Q\"]", "two piece letters"),
            ("[\"QQ\"]", "with itself"),
            ("[\"QN\"]", "'N' is no piece of this class"),
            ("[\"QD\", \"DQ\"]", "listed twice"),
        ] {
            let e = class_experiment(&format!("class = 5\nslots = \"Q\"\npairs = {pairs}"))
                .unwrap_err();
            assert!(e.key.starts_with("generators[1].pairs["), "{e}");
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

    fn scale_experiment(generator: &str) -> Result<Experiment, super::ExperimentError> {
        let text = format!(
            "name = \"t\"\nvariant = \"pocket-mutation\"\nseed = 1\n\
             [[generators]]\nkind = \"value-scale\"\n{generator}"
        );
        Experiment::parse("t.toml", &text, Path::new("."))
    }

    #[test]
    fn a_value_scale_links_every_piece_by_one_piece_exchanges() {
        let exp = scale_experiment("").unwrap();
        // 17 pieces (every class member but the pawn): 16 + 15 neighbour
        // pairs, 2 piece odds and the pawn odds.
        assert_eq!(exp.matchups.len(), 16 + 15 + 2 + 1);
        // One piece exchanged in every substitution, so no pair effects
        // (the odds matchups remove one piece, or one pawn).
        let substitutions = exp
            .matchups
            .iter()
            .zip(exchanged(&exp))
            .filter(|(m, _)| !m.name.starts_with("base") && !m.name.ends_with("none@b1"));
        let mut count = 0;
        for (m, n) in substitutions {
            assert_eq!(n, Some(1), "{}", m.name);
            count += 1;
        }
        assert_eq!(count, 16 + 15);
        let value = |army: usize| {
            let a = &exp.armies[army];
            a.place
                .first()
                .map_or(0, |&(_, piece)| exp.variant.piece(piece).value)
        };
        // Army A is the stronger by the variant's values.
        for m in &exp.matchups {
            if !m.name.starts_with("base") {
                assert!(value(m.a) >= value(m.b), "{}", m.name);
            }
        }
        // Every piece is joined to the empty square through the matchups.
        let mut joined = vec![exp.armies.iter().position(|a| a.name == "none@b1").unwrap()];
        while let Some(next) =
            exp.matchups
                .iter()
                .find_map(|m| match (joined.contains(&m.a), joined.contains(&m.b)) {
                    (true, false) => Some(m.b),
                    (false, true) => Some(m.a),
                    _ => None,
                })
        {
            joined.push(next);
        }
        for (i, army) in exp.armies.iter().enumerate() {
            if army.name.ends_with("@b1") {
                assert!(joined.contains(&i), "{} is not on the scale", army.name);
            }
        }
    }

    fn scale_study(stop: &str) -> Result<Experiment, super::ExperimentError> {
        scale_experiment(&format!(
            "pieces = \"NBR\"\n[stop]\ndesign = \"value-scale\"\n{stop}"
        ))
    }

    #[test]
    fn a_value_scale_lays_out_its_pieces_and_matchups() {
        let exp = scale_study("max_pairs = 50").unwrap();
        let plan = exp.scale.as_ref().unwrap();
        let letters: String = plan.pieces.iter().map(|&t| exp.variant.letter(t)).collect();
        assert_eq!((letters.as_str(), plan.pawn), ("PNBR", 0));
        // Every matchup is on the scale, each named by its two pieces.
        assert_eq!(plan.matchups.len(), exp.matchups.len());
        let name = |r: PieceRef| match r {
            PieceRef::Piece(i) => format!("{}@b1", exp.variant.letter(plan.pieces[i])),
            PieceRef::Nothing => "none@b1".to_owned(),
        };
        for (m, matchup) in exp.matchups.iter().enumerate() {
            let (a, b) = plan.sides(m).unwrap();
            if a == PieceRef::Piece(0) {
                assert_eq!(
                    (matchup.name.as_str(), b),
                    ("base-vs-pawn-odds-f2", PieceRef::Nothing)
                );
            } else {
                assert_eq!(matchup.name, format!("{}-vs-{}", name(a), name(b)));
            }
        }
        let stop = exp.stop.value_scale().unwrap();
        assert_eq!(
            (
                stop.allocation.max_pairs,
                stop.allocation.warmup_pairs,
                stop.allocation.block_pairs
            ),
            (50, 20, 10)
        );
        assert!(exp.stop.staged() && exp.stop.sequential().is_none());
        assert_eq!(exp.stop.pairs, 50);
        // At most every matchup's pairs, or the budget when smaller.
        assert_eq!(exp.max_games(), 6 * 50 * 2);
        let budgeted = scale_study("max_pairs = 50\nbudget_games = 300").unwrap();
        assert_eq!(budgeted.max_games(), 300);
        // The pawn odds may play to their own cap.
        let unit = scale_study("max_pairs = 50\nunit_max_pairs = 200").unwrap();
        let stop = unit.stop.value_scale().unwrap();
        assert_eq!(
            (stop.allocation.max_pairs, stop.allocation.unit_max_pairs),
            (50, 200)
        );
        assert_eq!(unit.stop.pairs, 200);
        assert_eq!(unit.max_games(), (5 * 50 + 200) * 2);
        assert_eq!(
            exp.stop.value_scale().unwrap().allocation.unit_max_pairs,
            50
        );
    }

    #[test]
    fn bad_value_scale_stops_name_their_key() {
        for (stop, key, why) in [
            ("", "stop.max_pairs", "needs max_pairs"),
            ("max_pairs = 0", "stop.max_pairs", "zero game pairs"),
            (
                "max_pairs = 10\nwarmup_pairs = 11",
                "stop.warmup_pairs",
                "between 1 and max_pairs",
            ),
            (
                "max_pairs = 10\nwarmup_pairs = 0",
                "stop.warmup_pairs",
                "between 1 and max_pairs",
            ),
            (
                "max_pairs = 10\nblock_pairs = 20",
                "stop.block_pairs",
                "between 1 and max_pairs",
            ),
            (
                "max_pairs = 10\nstage_blocks = 0",
                "stop.stage_blocks",
                "between 1 and",
            ),
            (
                "max_pairs = 10\nadjacent_half_width = 0",
                "stop.adjacent_half_width",
                "between 0 and 10",
            ),
            (
                "max_pairs = 10\nadjacent_half_width = nan",
                "stop.adjacent_half_width",
                "between 0 and 10",
            ),
            (
                "max_pairs = 10\nunit_precision = 1.5",
                "stop.unit_precision",
                "between 0 and 1",
            ),
            (
                "max_pairs = 10\nunit_max_pairs = 5",
                "stop.unit_max_pairs",
                "at least max_pairs (10)",
            ),
            (
                "max_pairs = 10\nbudget_games = 100",
                "stop.budget_games",
                "warm-up",
            ),
            (
                "max_pairs = 10\npairs = 10",
                "stop.pairs",
                "design = \"fixed\"",
            ),
            (
                "max_pairs = 10\nlook_every = 2",
                "stop.look_every",
                "design = \"sequential-equivalence\"",
            ),
            (
                "max_pairs = 10\nsprt = { elo0 = 0, elo1 = 5 }",
                "stop.sprt",
                "not to design = \"value-scale\"",
            ),
        ] {
            let e = scale_study(stop).unwrap_err();
            assert_eq!(e.key, key, "{stop}: {e}");
            assert!(e.reason.contains(why), "{stop}: {e}");
            assert_eq!(e.file, "t.toml");
        }
        // Keys of the value-scale design under another design.
        let e =
            scale_experiment("pieces = \"NBR\"\n[stop]\npairs = 4\nwarmup_pairs = 2").unwrap_err();
        assert_eq!(e.key, "stop.warmup_pairs", "{e}");
        assert!(e.reason.contains("design = \"value-scale\""), "{e}");
        // The design needs a value scale, and only its matchups.
        let text = "name = \"t\"\nvariant = \"pocket-mutation\"\nseed = 1\n\
                    [stop]\ndesign = \"value-scale\"\nmax_pairs = 10\n\
                    [[generators]]\nkind = \"pawn-odds\"\n";
        let e = Experiment::parse("t.toml", text, Path::new(".")).unwrap_err();
        assert_eq!(e.key, "stop.design", "{e}");
        assert!(e.reason.contains("kind = \"value-scale\""), "{e}");
        let e =
            scale_study("max_pairs = 10\n[[generators]]\nkind = \"class-equivalence\"\nclass = 2")
                .unwrap_err();
        assert_eq!(e.key, "stop.design", "{e}");
        assert!(e.reason.contains("not on the scale"), "{e}");
        let e = scale_experiment("[[generators]]\nkind = \"value-scale\"").unwrap_err();
        assert_eq!(e.key, "generators[2]", "{e}");
        assert!(e.reason.contains("one value scale"), "{e}");
    }

    #[test]
    fn bad_value_scales_name_their_key() {
        for (generator, key, why) in [
            ("square = \"e1\"", "generators[1].square", "no White piece"),
            ("square = \"e2\"", "generators[1].square", "no White piece"),
            ("pieces = \"N\"", "generators[1].pieces", "at least two"),
            ("pieces = \"NP\"", "generators[1].pieces", "pawns"),
            ("neighbours = 0", "generators[1].neighbours", "at least 1"),
            (
                "pawn_odds = \"b1\"",
                "generators[1].pawn_odds.square",
                "no pawn",
            ),
        ] {
            let e = scale_experiment(generator).unwrap_err();
            assert_eq!(e.key, key, "{e}");
            assert!(e.reason.contains(why), "{e}");
        }
    }
}
