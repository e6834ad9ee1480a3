//! From TOML text to a validated [`Variant`].

use std::collections::BTreeMap;

use super::file::{Merge, PieceFile, RegionFile, VariantFile};
use super::{
    CastlingRules, CounterResets, DeadPosition, PieceDef, PocketRules, PotentialRules,
    PromotionRules, Region, RegionMap, Rules, Variant, VariantError, move_rules_for,
};
use crate::betza;
use crate::inherit::{ChainError, OwnFile, walk_chain};
use crate::movement::PieceMoves;
use crate::types::{Bitboard, ByColor, Color, MAX_PIECE_TYPES, PieceType, Square};

/// Parse a variant file into its data. `file` names it in errors;
/// `resolve` turns an `inherits` value into `(file name, text)` of the
/// parent, or `None`. Whether the result can be played (its start position)
/// is checked by [`crate::kind::parse_variant`], the public entry point.
pub(crate) fn parse_variant_data(
    file: &str,
    text: &str,
    resolve: &dyn Fn(&str) -> Option<(String, String)>,
) -> Result<Variant, VariantError> {
    let merged = load_chain(file, text, resolve)?;
    build(file, &merged)
}

/// The chain's files merged field by field, the nearest file's value
/// winning; the name and the inheritance link belong to `file` alone.
fn load_chain(
    file: &str,
    text: &str,
    resolve: &dyn Fn(&str) -> Option<(String, String)>,
) -> Result<VariantFile, VariantError> {
    let own = |file: &str, text: &str| {
        let parsed: VariantFile = toml::from_str(text).map_err(|e| VariantError {
            file: file.to_owned(),
            key: String::new(),
            reason: super::file::describe_toml_error(&e, text),
        })?;
        let inherits = parsed.inherits.clone();
        Ok(OwnFile {
            table: parsed,
            inherits,
        })
    };
    let resolve = |_: &str, name: &str| {
        resolve(name).ok_or_else(|| format!("no variant named or found at '{name}'"))
    };
    let mut files = walk_chain(file, text, &own, &resolve).map_err(|e| match e {
        ChainError::File(e) => e,
        ChainError::Link { file, reason } => VariantError {
            file,
            key: "inherits".into(),
            reason,
        },
    })?;
    let (_, mut merged) = files.pop().expect("the chain has its first file");
    while let Some((_, child)) = files.pop() {
        let name = child.name.clone();
        merged = child.merge(merged);
        merged.name = name;
    }
    merged.inherits = None;
    Ok(merged)
}

struct Ctx<'a> {
    file: &'a str,
}

impl Ctx<'_> {
    fn err(&self, key: impl Into<String>, reason: impl Into<String>) -> VariantError {
        VariantError {
            file: self.file.to_owned(),
            key: key.into(),
            reason: reason.into(),
        }
    }

    fn ranks(&self, key: &str, ranks: &[i64]) -> Result<u8, VariantError> {
        let mut mask = 0u8;
        for &r in ranks {
            if !(1..=8).contains(&r) {
                return Err(self.err(key, format!("rank {r} is not between 1 and 8")));
            }
            mask |= 1 << (r - 1);
        }
        Ok(mask)
    }

    fn file_letter(&self, key: &str, value: &str) -> Result<u8, VariantError> {
        match value.as_bytes() {
            [f @ b'a'..=b'h'] => Ok(f - b'a'),
            _ => Err(self.err(key, format!("'{value}' is not a file letter a-h"))),
        }
    }

    fn piece_letters(
        &self,
        key: &str,
        value: &str,
        letters: &[Option<PieceType>; 26],
    ) -> Result<Vec<PieceType>, VariantError> {
        let mut out: Vec<PieceType> = Vec::new();
        for c in value.chars() {
            let kind = c
                .is_ascii_uppercase()
                .then(|| letters[(c as u8 - b'A') as usize])
                .flatten()
                .ok_or_else(|| {
                    self.err(
                        key,
                        format!("'{c}' is not the letter of a piece of this variant"),
                    )
                })?;
            if out.contains(&kind) {
                return Err(self.err(key, format!("piece '{c}' is listed twice")));
            }
            out.push(kind);
        }
        Ok(out)
    }
}

/// The variant a merged file describes, validated stage by stage in the
/// file's own order: name, pieces (with the region map their moves may
/// come from), royal piece, classes, then the rule tables. The first
/// invalid key is the error.
fn build(file: &str, f: &VariantFile) -> Result<Variant, VariantError> {
    let cx = Ctx { file };
    let name = variant_name(&cx, f)?;
    let piece_files = piece_files(&cx, f)?;
    let region_map = region_map(&cx, f.map.as_ref(), f.regions.as_ref())?;
    let (mut pieces, letters) = piece_defs(&cx, &piece_files, region_map.as_ref())?;
    let royal = royal_piece(&cx, f, &letters, &pieces)?;
    let classes = piece_classes(&cx, f, &letters, royal, &mut pieces)?;
    let initial_ranks = cx.ranks(
        "initial_ranks",
        &f.initial_ranks.clone().unwrap_or_else(|| vec![2]),
    )?;
    let pocket = pocket_rules(&cx, f, &classes)?;
    let castling = castling_rules(&cx, f)?;
    let promotion = promotion_rules(&cx, f, &letters, royal, &pieces)?;
    let draw = draw_rules(&cx, f)?;
    let potential = potential_rules(&cx, f, &letters, royal, &pieces)?;
    if potential.is_some() {
        if pocket.is_some() {
            return Err(cx.err(
                "potential",
                "Potential Chess has no pockets: set pocket.enabled = false",
            ));
        }
        if castling.is_some() {
            return Err(cx.err(
                "potential",
                "Potential Chess has no castling: set castling.enabled = false",
            ));
        }
    }
    let rules = Rules {
        pocket,
        castling,
        promotion,
        en_passant: f.en_passant.unwrap_or(true),
        initial_ranks,
        n_move_rule: draw.n_move_rule,
        n_move_reset: draw.n_move_reset,
        repetition: draw.repetition,
        dead_position: draw.dead_position,
        potential,
    };
    let start_fen = f
        .start
        .clone()
        .ok_or_else(|| cx.err("start", "missing (the starting position as FEN)"))?;
    Ok(compile(VariantParts {
        name,
        description: f.description.clone().unwrap_or_default(),
        pieces,
        royal,
        classes,
        start_fen,
        rules,
        region_map,
        letters,
    }))
}

/// The validated parts of a variant, before its move tables and derived
/// tables are compiled.
struct VariantParts {
    name: String,
    description: String,
    pieces: Vec<PieceDef>,
    royal: PieceType,
    classes: Vec<Vec<PieceType>>,
    start_fen: String,
    rules: Rules,
    region_map: Option<RegionMap>,
    letters: [Option<PieceType>; 26],
}

/// The variant with its move tables per side and the tables derived from
/// its rules (pocket choices, castling rights kept per square, pawn types,
/// file symmetry).
fn compile(parts: VariantParts) -> Variant {
    let VariantParts {
        name,
        description,
        pieces,
        royal,
        classes,
        start_fen,
        rules,
        region_map,
        letters,
    } = parts;
    let moves: ByColor<Vec<PieceMoves>> = ByColor::new_with(|color| {
        pieces
            .iter()
            .map(|p| PieceMoves::compile(color, &move_rules_for(p, color, rules.initial_ranks)))
            .collect()
    });
    let (pocket_choices, promotion_pocket_choices) =
        pocket_choice_tables(&pieces, &classes, rules.pocket.as_ref());
    let castling_keep = castling_keep_table(rules.castling);
    let pawn_types = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.pawn)
        .fold(0u32, |m, (i, _)| m | 1 << i);
    let file_symmetric = rules.castling.is_none()
        && rules.potential.is_none()
        && Color::ALL
            .iter()
            .all(|&c| moves[c].iter().all(PieceMoves::is_file_symmetric));
    Variant {
        name,
        description,
        pieces,
        royal,
        classes,
        start_fen,
        rules,
        region_map,
        moves,
        letters,
        pocket_choices,
        promotion_pocket_choices,
        castling_keep,
        pawn_types,
        file_symmetric,
    }
}

/// `name`: present, non-empty, letters, digits, `-` and `_` only.
fn variant_name(cx: &Ctx<'_>, f: &VariantFile) -> Result<String, VariantError> {
    let name = f
        .name
        .clone()
        .ok_or_else(|| cx.err("name", "missing (every variant file needs its own name)"))?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(cx.err(
            "name",
            format!("'{name}' must be non-empty and use only letters, digits, '-' and '_'"),
        ));
    }
    Ok(name)
}

/// `[pieces]`: at least one, at most [`MAX_PIECE_TYPES`].
fn piece_files(cx: &Ctx<'_>, f: &VariantFile) -> Result<BTreeMap<String, PieceFile>, VariantError> {
    let piece_files: BTreeMap<String, PieceFile> = f.pieces.clone().unwrap_or_default();
    if piece_files.is_empty() {
        return Err(cx.err("pieces", "a variant needs at least one piece"));
    }
    if piece_files.len() > MAX_PIECE_TYPES {
        return Err(cx.err(
            "pieces",
            format!(
                "{} pieces; at most {MAX_PIECE_TYPES} are supported",
                piece_files.len()
            ),
        ));
    }
    Ok(piece_files)
}

/// Each piece's definition in letter order (its type index), with the
/// letter-to-type table.
fn piece_defs(
    cx: &Ctx<'_>,
    piece_files: &BTreeMap<String, PieceFile>,
    region_map: Option<&RegionMap>,
) -> Result<(Vec<PieceDef>, [Option<PieceType>; 26]), VariantError> {
    let mut letters = [None; 26];
    let mut pieces = Vec::new();
    for (i, (letter, p)) in piece_files.iter().enumerate() {
        let key = format!("pieces.{letter}");
        let c = match letter.as_bytes() {
            [c @ b'A'..=b'Z'] => *c as char,
            _ => return Err(cx.err(&key, "a piece is named by one upper-case letter A-Z")),
        };
        let (betza_text, rules, by_region) = piece_moves(cx, &key, p, region_map)?;
        let value = p.value.ok_or_else(|| {
            cx.err(
                format!("{key}.value"),
                "missing (material value in centipawns)",
            )
        })?;
        let value = i32::try_from(value)
            .ok()
            .filter(|v| v.abs() <= 100_000)
            .ok_or_else(|| {
                cx.err(
                    format!("{key}.value"),
                    "must be between -100000 and 100000 centipawns",
                )
            })?;
        letters[(c as u8 - b'A') as usize] = Some(PieceType::from_index(i));
        pieces.push(PieceDef {
            letter: c,
            name: p.name.clone().unwrap_or_else(|| c.to_string()),
            betza: betza_text,
            by_region,
            value,
            pawn: p.pawn.unwrap_or(false),
            class: None,
            rules,
        });
    }
    Ok((pieces, letters))
}

/// `royal`: exactly one piece letter, not a pawn.
fn royal_piece(
    cx: &Ctx<'_>,
    f: &VariantFile,
    letters: &[Option<PieceType>; 26],
    pieces: &[PieceDef],
) -> Result<PieceType, VariantError> {
    let royal_letter = f
        .royal
        .clone()
        .ok_or_else(|| cx.err("royal", "missing (the letter of the royal piece)"))?;
    let royal = match cx
        .piece_letters("royal", &royal_letter, letters)?
        .as_slice()
    {
        [one] => *one,
        _ => return Err(cx.err("royal", "name exactly one piece letter")),
    };
    if pieces[royal.index()].pawn {
        return Err(cx.err("royal", "the royal piece cannot also be a pawn"));
    }
    Ok(royal)
}

/// `classes`: lists of non-royal pieces, each piece in one class at most;
/// sets each member's class number (1-based).
fn piece_classes(
    cx: &Ctx<'_>,
    f: &VariantFile,
    letters: &[Option<PieceType>; 26],
    royal: PieceType,
    pieces: &mut [PieceDef],
) -> Result<Vec<Vec<PieceType>>, VariantError> {
    let mut classes = Vec::new();
    for (i, class) in f.classes.clone().unwrap_or_default().iter().enumerate() {
        let key = format!("classes[{}]", i + 1);
        let members = cx.piece_letters(&key, class, letters)?;
        if members.is_empty() {
            return Err(cx.err(&key, "a class needs at least one piece"));
        }
        for &m in &members {
            if m == royal {
                return Err(cx.err(
                    &key,
                    "the royal piece cannot be in a class (it is never pocketed)",
                ));
            }
            if let Some(previous) = pieces[m.index()].class {
                return Err(cx.err(
                    &key,
                    format!(
                        "piece '{}' is already in class {previous}",
                        pieces[m.index()].letter
                    ),
                ));
            }
            pieces[m.index()].class = Some(i as u8 + 1);
        }
        classes.push(members);
    }
    Ok(classes)
}

/// `[pocket]`, if enabled: size, drop ranks, and mutation or promotion by
/// pocketing (which need classes and pocket-ins).
fn pocket_rules(
    cx: &Ctx<'_>,
    f: &VariantFile,
    classes: &[Vec<PieceType>],
) -> Result<Option<PocketRules>, VariantError> {
    let pocket_file = f.pocket.clone().unwrap_or_default();
    if !pocket_file.enabled.unwrap_or(false) {
        return Ok(None);
    }
    let size = pocket_file.size.unwrap_or(1);
    if !(1..=16).contains(&size) {
        return Err(cx.err("pocket.size", format!("{size} is not between 1 and 16")));
    }
    let mutation = pocket_file.mutation.unwrap_or(false);
    let promote = pocket_file.promote_from_last_rank.unwrap_or(false);
    let pocket_in = pocket_file.pocket_in.unwrap_or(true);
    if (mutation || promote) && classes.is_empty() {
        let key = if mutation {
            "pocket.mutation"
        } else {
            "pocket.promote_from_last_rank"
        };
        return Err(cx.err(key, "needs a class table ('classes')"));
    }
    if (mutation || promote) && !pocket_in {
        return Err(cx.err(
            "pocket.pocket_in",
            "mutation and promotion by pocketing need pocket_in = true",
        ));
    }
    let all_ranks: Vec<i64> = (1..=8).collect();
    let drop_ranks = cx.ranks(
        "pocket.drop_ranks",
        pocket_file.drop_ranks.as_deref().unwrap_or(&all_ranks),
    )?;
    let pawn_drop_ranks = match &pocket_file.pawn_drop_ranks {
        Some(r) => cx.ranks("pocket.pawn_drop_ranks", r)?,
        None => drop_ranks,
    };
    if drop_ranks == 0 {
        return Err(cx.err("pocket.drop_ranks", "no rank to drop on"));
    }
    Ok(Some(PocketRules {
        size: size as u8,
        pocket_in,
        mutation,
        promote_from_last_rank: promote,
        white_first_move_ban: pocket_file.white_first_move_ban.unwrap_or(false),
        drop_ranks,
        pawn_drop_ranks,
    }))
}

/// `[castling]`, if enabled: the king's and its partners' files, placed so
/// that the king lands on c or g.
fn castling_rules(cx: &Ctx<'_>, f: &VariantFile) -> Result<Option<CastlingRules>, VariantError> {
    let castling_file = f.castling.clone().unwrap_or_default();
    if !castling_file.enabled.unwrap_or(false) {
        return Ok(None);
    }
    let king_file = cx.file_letter(
        "castling.king_file",
        castling_file.king_file.as_deref().unwrap_or("e"),
    )?;
    let queenside_file = cx.file_letter(
        "castling.queenside_file",
        castling_file.queenside_file.as_deref().unwrap_or("a"),
    )?;
    let kingside_file = cx.file_letter(
        "castling.kingside_file",
        castling_file.kingside_file.as_deref().unwrap_or("h"),
    )?;
    if !(queenside_file < king_file && king_file < kingside_file) {
        return Err(cx.err(
            "castling",
            "the files must satisfy queenside_file < king_file < kingside_file",
        ));
    }
    if !(1..=6).contains(&king_file) || queenside_file > 2 || kingside_file < 6 {
        return Err(cx.err(
            "castling",
            "the king must stand between files b and g, the partners on files a-c and g-h (it lands on c or g)",
        ));
    }
    Ok(Some(CastlingRules {
        king_file,
        queenside_file,
        kingside_file,
    }))
}

/// `[promotion]`, if enabled: ranks and choices (neither royal nor pawn),
/// for a variant that has a pawn.
fn promotion_rules(
    cx: &Ctx<'_>,
    f: &VariantFile,
    letters: &[Option<PieceType>; 26],
    royal: PieceType,
    pieces: &[PieceDef],
) -> Result<Option<PromotionRules>, VariantError> {
    let promotion_file = f.promotion.clone().unwrap_or_default();
    if !promotion_file.enabled.unwrap_or(false) {
        return Ok(None);
    }
    let ranks = cx.ranks(
        "promotion.ranks",
        promotion_file.ranks.as_deref().unwrap_or(&[8]),
    )?;
    let choices_text = promotion_file.choices.clone().ok_or_else(|| {
        cx.err(
            "promotion.choices",
            "missing (letters of the pieces a pawn may become)",
        )
    })?;
    let choices = cx.piece_letters("promotion.choices", &choices_text, letters)?;
    if choices.is_empty() {
        return Err(cx.err("promotion.choices", "no piece to promote to"));
    }
    if let Some(bad) = choices
        .iter()
        .find(|&&c| c == royal || pieces[c.index()].pawn)
    {
        return Err(cx.err(
            "promotion.choices",
            format!(
                "cannot promote to '{}' (royal or pawn)",
                pieces[bad.index()].letter
            ),
        ));
    }
    if !pieces.iter().any(|p| p.pawn) {
        return Err(cx.err(
            "promotion.enabled",
            "no piece has pawn = true, so nothing can promote",
        ));
    }
    Ok(Some(PromotionRules {
        ranks,
        choices,
        mandatory: promotion_file.mandatory.unwrap_or(true),
    }))
}

/// The draw rules of `[draw]`, each with its default.
struct DrawRules {
    n_move_rule: u16,
    n_move_reset: CounterResets,
    repetition: u8,
    dead_position: DeadPosition,
}

/// `[draw]`: the n-move rule and what resets its counter, repetition, dead
/// positions.
fn draw_rules(cx: &Ctx<'_>, f: &VariantFile) -> Result<DrawRules, VariantError> {
    let draw = f.draw.clone().unwrap_or_default();
    let n_move_rule = draw.n_move_rule.unwrap_or(100);
    let n_move_rule = u16::try_from(n_move_rule).map_err(|_| {
        cx.err(
            "draw.n_move_rule",
            format!("{n_move_rule} is not between 0 and 65535 plies"),
        )
    })?;
    let mut n_move_reset = CounterResets::default();
    let resets = draw
        .n_move_reset
        .clone()
        .unwrap_or_else(|| vec!["capture".into(), "pawn-move".into()]);
    for r in &resets {
        let flag = match r.as_str() {
            "capture" => &mut n_move_reset.capture,
            "pawn-move" => &mut n_move_reset.pawn_move,
            "promotion" => &mut n_move_reset.promotion,
            "drop" => &mut n_move_reset.drop,
            "pocket-in" => &mut n_move_reset.pocket_in,
            other => {
                return Err(cx.err(
                    "draw.n_move_reset",
                    format!(
                        "'{other}' is not one of capture, pawn-move, promotion, drop, pocket-in"
                    ),
                ));
            }
        };
        *flag = true;
    }
    let repetition = draw.repetition.unwrap_or(3);
    if repetition == 1 || !(0..=10).contains(&repetition) {
        return Err(cx.err(
            "draw.repetition",
            format!("{repetition} must be 0 (off) or between 2 and 10"),
        ));
    }
    let dead_position = match draw.dead_position.as_deref().unwrap_or("kings-only") {
        "kings-only" => DeadPosition::KingsOnly,
        "never" => DeadPosition::Never,
        other => {
            return Err(cx.err(
                "draw.dead_position",
                format!("'{other}' is not one of kings-only, never"),
            ));
        }
    };
    Ok(DrawRules {
        n_move_rule,
        n_move_reset,
        repetition: repetition as u8,
        dead_position,
    })
}

/// `[potential]`: its army, which a `[potential]` table must give.
fn potential_rules(
    cx: &Ctx<'_>,
    f: &VariantFile,
    letters: &[Option<PieceType>; 26],
    royal: PieceType,
    pieces: &[PieceDef],
) -> Result<Option<PotentialRules>, VariantError> {
    match f.potential.as_ref().and_then(|p| p.army.as_deref()) {
        Some(text) => Ok(Some(potential_army(cx, text, letters, royal, pieces)?)),
        None if f.potential.is_some() => Err(cx.err(
            "potential.army",
            "missing (the army's letters, e.g. \"KQBBRRNNPPPPPPPP\")",
        )),
        None => Ok(None),
    }
}

/// `"KQBBRRNNPPPPPPPP"`: letters in order of first appearance, with counts.
/// The army must hold the royal piece exactly once, at most one pawn type,
/// at most [`MAX_PIECE_TYPES`] types and 1 to 32 pieces (a side's pieces
/// start on its first four ranks).
fn potential_army(
    cx: &Ctx<'_>,
    text: &str,
    letters: &[Option<PieceType>; 26],
    royal: PieceType,
    pieces: &[PieceDef],
) -> Result<PotentialRules, VariantError> {
    let err = |reason: String| cx.err("potential.army", reason);
    let mut army: Vec<(PieceType, u8)> = Vec::new();
    let mut total = 0usize;
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        let upper = c.to_ascii_uppercase();
        let kind = upper
            .is_ascii_uppercase()
            .then(|| letters[(upper as u8 - b'A') as usize])
            .flatten()
            .ok_or_else(|| err(format!("'{c}' is not a piece letter of this variant")))?;
        total += 1;
        if total > 32 {
            return Err(err("more than 32 pieces per side".into()));
        }
        match army.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => army.push((kind, 1)),
        }
    }
    if army.is_empty() {
        return Err(err("empty".into()));
    }
    if army.len() > MAX_PIECE_TYPES {
        return Err(err(format!(
            "{} piece types; at most {MAX_PIECE_TYPES}",
            army.len()
        )));
    }
    match army.iter().find(|(k, _)| *k == royal) {
        None => return Err(err("the royal piece is not in the army".into())),
        Some((_, n)) if *n != 1 => {
            return Err(err(format!(
                "the royal piece appears {n} times; exactly once"
            )));
        }
        Some(_) => {}
    }
    if army.iter().filter(|(k, _)| pieces[k.index()].pawn).count() > 1 {
        return Err(err("at most one pawn type".into()));
    }
    Ok(PotentialRules { army })
}

/// A piece's moves as built: `(betza text or by-region summary, rules with
/// their from-squares, whether by region)`.
type BuiltMoves = (String, Vec<(betza::MoveRule, Bitboard)>, bool);

/// The moves of one piece, from `betza` or from the region map.
fn piece_moves(
    cx: &Ctx<'_>,
    key: &str,
    p: &PieceFile,
    region_map: Option<&RegionMap>,
) -> Result<BuiltMoves, VariantError> {
    match p.moves.as_deref() {
        None | Some("betza") => {
            let text = p
                .betza
                .clone()
                .ok_or_else(|| cx.err(format!("{key}.betza"), "missing"))?;
            let rules = betza::parse(&text)
                .map_err(|e| cx.err(format!("{key}.betza"), e.to_string()))?
                .into_iter()
                .map(|r| (r, Bitboard::FULL))
                .collect();
            Ok((text, rules, false))
        }
        Some("by-region") => {
            if p.betza.is_some() {
                return Err(cx.err(
                    key,
                    "has both `betza` and moves = \"by-region\"; a by-region piece takes its moves from the map, so keep only one",
                ));
            }
            let map = region_map.ok_or_else(|| {
                cx.err(
                    format!("{key}.moves"),
                    "\"by-region\" needs a region map (`map` and `[regions.X]` tables)",
                )
            })?;
            let used = map.regions.iter().filter(|r| r.squares.any());
            let summary = used
                .clone()
                .map(|r| format!("{} {}", r.name, r.betza))
                .collect::<Vec<_>>()
                .join(", ");
            let rules = used
                .flat_map(|r| r.rules.iter().map(|rule| (rule.clone(), r.squares)))
                .collect();
            Ok((format!("by-region({summary})"), rules, true))
        }
        Some(other) => Err(cx.err(
            format!("{key}.moves"),
            format!("'{other}' is not one of betza, by-region"),
        )),
    }
}

/// The region map from `map` and `[regions]`, validated: 8 rows of 8
/// letters, every letter a defined region.
fn region_map(
    cx: &Ctx<'_>,
    map: Option<&toml::Value>,
    regions: Option<&BTreeMap<String, RegionFile>>,
) -> Result<Option<RegionMap>, VariantError> {
    let Some(map) = map else {
        if regions.is_some_and(|r| !r.is_empty()) {
            return Err(cx.err(
                "map",
                "missing: [regions] are defined but no map assigns them to squares",
            ));
        }
        return Ok(None);
    };
    let rows = map_rows(cx, map)?;
    let mut defined = defined_regions(cx, regions)?;
    let known = if defined.is_empty() {
        "no [regions.X] table is defined".to_owned()
    } else {
        let letters: Vec<String> = defined.iter().map(|r| r.letter.to_string()).collect();
        format!("defined: {}", letters.join(", "))
    };
    let mut square_region = [0u8; 64];
    for (i, row) in rows.iter().enumerate() {
        let rank = 7 - i as u8;
        for (file, c) in row.chars().enumerate() {
            let sq = Square::from_coords(file as u8, rank);
            let index = defined.iter().position(|r| r.letter == c).ok_or_else(|| {
                cx.err(
                    "map",
                    format!(
                        "square {sq} (row {}): '{c}' is not a region letter ({})",
                        i + 1,
                        known
                    ),
                )
            })?;
            defined[index].squares = defined[index].squares.with(sq);
            square_region[sq.index()] = index as u8;
        }
    }
    Ok(Some(RegionMap {
        regions: defined,
        rows,
        square_region,
    }))
}

/// `map`'s rows, spaces removed: 8 of 8 letters, rank 8 first, written as
/// an array of strings or one multi-line string.
fn map_rows(cx: &Ctx<'_>, map: &toml::Value) -> Result<Vec<String>, VariantError> {
    let shape_error = || {
        cx.err(
            "map",
            "write 8 strings of 8 region letters, one per rank, rank 8 first (or one multi-line string)",
        )
    };
    let raw_rows: Vec<String> = match map {
        toml::Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned).ok_or_else(shape_error))
            .collect::<Result<_, _>>()?,
        toml::Value::String(text) => text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect(),
        _ => return Err(shape_error()),
    };
    // Spaces between letters are allowed for readability.
    let rows: Vec<String> = raw_rows
        .iter()
        .map(|r| r.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    if rows.len() != 8 {
        return Err(cx.err(
            "map",
            format!(
                "has {} rows; a map has 8, one per rank, rank 8 first",
                rows.len()
            ),
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let n = row.chars().count();
        if n != 8 {
            return Err(cx.err(
                "map",
                format!(
                    "row {} (rank {}) '{row}' has {n} squares; each row has 8 (files a-h)",
                    i + 1,
                    8 - i
                ),
            ));
        }
    }
    Ok(rows)
}

/// The `[regions.X]` tables as regions without squares yet, in letter
/// order: one letter or digit each, with a valid Betza move.
fn defined_regions(
    cx: &Ctx<'_>,
    regions: Option<&BTreeMap<String, RegionFile>>,
) -> Result<Vec<Region>, VariantError> {
    let mut defined = Vec::new();
    for (letter, r) in regions.into_iter().flatten() {
        let key = format!("regions.{letter}");
        let c = match letter.as_bytes() {
            [c] if c.is_ascii_alphanumeric() => *c as char,
            _ => {
                return Err(cx.err(
                    &key,
                    "a region is named by the one letter or digit that stands for it in `map`",
                ));
            }
        };
        let text = r
            .betza
            .clone()
            .ok_or_else(|| cx.err(format!("{key}.betza"), "missing (the move on this region)"))?;
        let rules =
            betza::parse(&text).map_err(|e| cx.err(format!("{key}.betza"), e.to_string()))?;
        defined.push(Region {
            letter: c,
            name: r.name.clone().unwrap_or_else(|| c.to_string()),
            betza: text,
            squares: Bitboard::EMPTY,
            rules,
        });
    }
    Ok(defined)
}

fn pocket_choice_tables(
    pieces: &[PieceDef],
    classes: &[Vec<PieceType>],
    pocket: Option<&PocketRules>,
) -> (Vec<Vec<PieceType>>, Vec<Vec<PieceType>>) {
    let mut same = Vec::new();
    let mut promoted = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let me = vec![PieceType::from_index(i)];
        let class_members = |c: u8| classes[usize::from(c) - 1].clone();
        let (mutation, promote) =
            pocket.map_or((false, false), |r| (r.mutation, r.promote_from_last_rank));
        let within = match p.class {
            Some(c) if mutation => class_members(c),
            _ => me.clone(),
        };
        let from_last = match p.class {
            Some(c) if promote => class_members((c + 1).min(classes.len() as u8)),
            _ => within.clone(),
        };
        same.push(within);
        promoted.push(from_last);
    }
    (same, promoted)
}

fn castling_keep_table(castling: Option<CastlingRules>) -> [u8; 64] {
    let mut keep = [0b1111u8; 64];
    if let Some(c) = castling {
        // Bits: White kingside 1, White queenside 2, Black kingside 4, Black queenside 8.
        for (rank, shift) in [(0, 0), (7, 2)] {
            keep[Square::from_coords(c.king_file, rank).index()] &= !(0b11 << shift);
            keep[Square::from_coords(c.kingside_file, rank).index()] &= !(0b01 << shift);
            keep[Square::from_coords(c.queenside_file, rank).index()] &= !(0b10 << shift);
        }
    }
    keep
}
