//! Renders a [`Comparison`] of two studies the way a report is rendered:
//! one neutral document printed as HTML and Markdown, and a CSV table.

use std::path::{Path, PathBuf};

use super::super::compare::{Comparison, PairFinding, PieceComparison, Shift};
use super::doc::{Align, Doc, Table, Tone};
use super::error::RenderError;
use super::files::create_dir;
use super::format::{count, estimate, fixed, level_percent, signed};
use super::sections::verdict_tone;
use super::{csv, html, markdown};
use pocketlab_selfplay::files::replace_whole;

/// Where [`write_comparison`] put its files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedComparison {
    /// `comparison.html`: the self-contained comparison.
    pub html: PathBuf,
    /// `comparison.md`: the same content in Markdown.
    pub markdown: PathBuf,
    /// `comparison.csv`: one row per pair both studies rated.
    pub table: PathBuf,
    /// `pieces.csv`, when both studies are value scales.
    pub pieces_table: Option<PathBuf>,
}

/// Write `comparison.html`, `comparison.md` and `comparison.csv` into
/// `out_dir` (created if missing).
pub fn write_comparison(
    cmp: &Comparison,
    out_dir: &Path,
) -> Result<RenderedComparison, RenderError> {
    create_dir(out_dir)?;
    let doc = document(cmp);
    let html_path = out_dir.join("comparison.html");
    replace_whole(&html_path, html::render(&doc, &[]).as_bytes())?;
    let markdown_path = out_dir.join("comparison.md");
    replace_whole(&markdown_path, markdown::render(&doc, &[]).as_bytes())?;
    let table_path = out_dir.join("comparison.csv");
    let bytes = csv::comparison(cmp).map_err(|e| RenderError::Table {
        path: table_path.clone(),
        reason: e.to_string(),
    })?;
    replace_whole(&table_path, &bytes)?;
    let pieces_table = if cmp.pieces.is_empty() {
        None
    } else {
        let path = out_dir.join("pieces.csv");
        let bytes = csv::piece_changes(cmp).map_err(|e| RenderError::Table {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        replace_whole(&path, &bytes)?;
        Some(path)
    };
    Ok(RenderedComparison {
        html: html_path,
        markdown: markdown_path,
        table: table_path,
        pieces_table,
    })
}

/// The comparison in plain words: a sentence for the pairs, one for the
/// pieces of two value scales.
pub fn summary(cmp: &Comparison) -> String {
    match (cmp.pairs.is_empty(), cmp.pieces.is_empty()) {
        (false, true) | (true, true) => pairs_summary(cmp),
        (true, false) => pieces_summary(cmp),
        (false, false) => format!("{} {}", pairs_summary(cmp), pieces_summary(cmp)),
    }
}

fn pieces_summary(cmp: &Comparison) -> String {
    let moved = |shift: fn(&PieceComparison) -> Shift| {
        let names: Vec<String> = cmp
            .pieces
            .iter()
            .filter(|p| shift(p) == Shift::Moved)
            .map(|p| p.name.clone())
            .collect();
        let tested = cmp
            .pieces
            .iter()
            .filter(|p| shift(p) != Shift::Untested)
            .count();
        if tested == 0 {
            "none could be tested".to_owned()
        } else if names.is_empty() {
            format!("0 of {tested} moved")
        } else {
            format!("{} of {tested} moved ({})", names.len(), names.join(", "))
        }
    };
    format!(
        "{} vs {}: {} pieces on both value scales; in pawns (each scale's own unit) {}, in Elo {} \
         (Holm across the pieces at 5%, each measure on its own).",
        cmp.first_label,
        cmp.second_label,
        cmp.pieces.len(),
        moved(|p| p.pawns_shift),
        moved(|p| p.shift),
    )
}

fn pairs_summary(cmp: &Comparison) -> String {
    let untested = cmp.count(Shift::Untested);
    let moved: Vec<String> = cmp
        .pairs
        .iter()
        .filter(|p| p.shift == Shift::Moved)
        .map(|p| format!("{} vs {}", p.a, p.b))
        .collect();
    let mut line = format!(
        "{} vs {}: of {} shared pairs, {} moved{} and {} show no change (Holm across the pairs at 5%)",
        cmp.first_label,
        cmp.second_label,
        cmp.pairs.len(),
        moved.len(),
        if moved.is_empty() {
            String::new()
        } else {
            format!(" ({})", moved.join(", "))
        },
        cmp.count(Shift::Agree),
    );
    if untested > 0 {
        line.push_str(&format!(", {untested} untested (a one-sided score)"));
    }
    let same_verdict = cmp
        .pairs
        .iter()
        .filter(|p| p.first.kind == p.second.kind)
        .count();
    line.push_str(&format!("; {same_verdict} keep their verdict."));
    line
}

fn document(cmp: &Comparison) -> Doc {
    let mut doc = Doc {
        title: format!("Comparison: {} and {}", cmp.first_label, cmp.second_label),
        blocks: Vec::new(),
    };
    if !cmp.pieces.is_empty() {
        pieces_section(&mut doc, cmp);
        if cmp.pairs.is_empty() {
            return doc;
        }
    }
    doc.heading(2, "Pairs of both studies");
    doc.paragraph(pairs_summary(cmp));
    let level = level_percent(cmp.level);
    doc.aside(format!(
        "Each study is read on its own (its own pawn unit and verdicts). A pair's difference is the first piece \
         minus the second per piece exchanged, ± its standard error: under the sequential design the \
         bias-adjusted estimate at the look that decided it (a pair stopped at a boundary leans away from the \
         hypothesis it rejected, by an amount that depends on the look; the adjustment takes the lean out, and \
         its standard error counts the spread of stopping looks). The change is the second study's difference \
         minus the first's, tested in Elo (which needs no pawn unit) with the two standard errors; across the \
         pairs the claims 'moved' are Holm-corrected at 5%, and the change intervals are at the Holm level in \
         force ({level}), so an interval excludes 0 exactly when its pair moved. The change in pawns uses each \
         study's own unit, where both give a size in pawns."
    ));
    let first = format!("{} (Elo ± se; pawns ± se)", cmp.first_label);
    let second = format!("{} (Elo ± se; pawns ± se)", cmp.second_label);
    let elo_head = format!("Change, Elo ({level})");
    let pawn_head = format!("Change, pawns ({level})");
    let mut table = Table::new(&[
        ("Pair (A vs B)", Align::Left),
        (first.as_str(), Align::Right),
        (second.as_str(), Align::Right),
        (elo_head.as_str(), Align::Right),
        (pawn_head.as_str(), Align::Right),
        ("z", Align::Right),
        ("Shift", Align::Left),
    ]);
    for p in &cmp.pairs {
        let (tone, shift) = shift_words(p.shift);
        table.push_toned(
            vec![
                format!("{} vs {}", p.a, p.b),
                finding(&p.first),
                finding(&p.second),
                estimate(p.elo_change, p.elo_change_interval, 0),
                estimate(p.pawns_change, p.pawns_change_interval, 2),
                fixed(p.z, 1),
                shift.to_owned(),
            ],
            tone,
        );
    }
    doc.table(table);
    for (label, only) in [
        (&cmp.first_label, &cmp.only_first),
        (&cmp.second_label, &cmp.only_second),
    ] {
        if !only.is_empty() {
            doc.paragraph(format!("Only in {label}: {}.", only.join(", ")));
        }
    }
    doc
}

/// Every piece of both value scales: each scale's value and the change.
fn pieces_section(doc: &mut Doc, cmp: &Comparison) {
    doc.heading(2, "Every piece on both value scales");
    doc.paragraph(pieces_summary(cmp));
    let (elo_level, pawns_level) = (
        level_percent(cmp.pieces_level),
        level_percent(cmp.pieces_pawns_level),
    );
    doc.aside(format!(
        "Each scale is its own fit: a piece's value against the empty square, ± its standard error, in Elo \
         and in pawns of that scale's own unit (the unit's error included). The change is the second \
         value minus the first, tested with the two standard errors twice, each test Holm-corrected across \
         the pieces at 5% on its own: in pawns, a piece's worth against the others, which is what a class \
         table weighs; and in Elo, which needs no unit but grows with search strength for every piece, as a \
         stronger player converts any edge more surely. The change intervals are at the Holm level in force \
         ({pawns_level} in pawns, {elo_level} in Elo), so an interval excludes 0 exactly when its piece \
         moved. A value-scale design gives pairs where intervals are widest, not by where an estimate lies, \
         so no stopping bias is adjusted."
    ));
    let first = format!("{} (Elo ± se; pawns ± se)", cmp.first_label);
    let second = format!("{} (Elo ± se; pawns ± se)", cmp.second_label);
    let pawn_head = format!("Change, pawns ({pawns_level})");
    let elo_head = format!("Change, Elo ({elo_level})");
    let mut table = Table::new(&[
        ("Piece", Align::Left),
        (first.as_str(), Align::Right),
        (second.as_str(), Align::Right),
        (pawn_head.as_str(), Align::Right),
        ("In pawns", Align::Left),
        (elo_head.as_str(), Align::Right),
        ("In Elo", Align::Left),
    ]);
    for p in &cmp.pieces {
        // The pawn is 1 in both scales: its row takes the Elo answer's tone,
        // every other row the pawns' (a designer's question).
        let unit = p.pawns_shift == Shift::Untested && p.first_pawns == 1.0;
        let (elo_tone, elo_shift) = shift_words(p.shift);
        let (tone, pawns_shift) = if unit {
            (elo_tone, "the unit")
        } else {
            shift_words(p.pawns_shift)
        };
        table.push_toned(
            vec![
                format!("{} ({})", p.letter, p.name),
                piece_value(p, true),
                piece_value(p, false),
                estimate(p.pawns_change, p.pawns_change_interval, 2),
                pawns_shift.to_owned(),
                estimate(p.elo_change, p.elo_change_interval, 0),
                elo_shift.to_owned(),
            ],
            tone,
        );
    }
    doc.table(table);
}

fn shift_words(shift: Shift) -> (Tone, &'static str) {
    match shift {
        Shift::Agree => (Tone::Good, "no change shown"),
        Shift::Moved => (Tone::Bad, "moved"),
        Shift::Untested => (Tone::Unsure, "untested"),
    }
}

/// `+412 ± 18 Elo; 3.21 ± 0.20 pawns` for the first scale or the second.
fn piece_value(p: &PieceComparison, first: bool) -> String {
    let (elo, elo_se, pawns, pawns_se) = if first {
        (
            p.first_elo,
            p.first_elo_std_error,
            p.first_pawns,
            p.first_pawns_std_error,
        )
    } else {
        (
            p.second_elo,
            p.second_elo_std_error,
            p.second_pawns,
            p.second_pawns_std_error,
        )
    };
    let pawns = if pawns.is_finite() {
        format!("{} ± {} pawns", fixed(pawns, 2), fixed(pawns_se, 2))
    } else {
        "pawns not yet known".to_owned()
    };
    format!("{} ± {} Elo; {pawns}", signed(elo, 0), fixed(elo_se, 0))
}

/// `different, +45 ± 12 Elo; +0.42 ± 0.12 pawns, 700 games`.
fn finding(f: &PairFinding) -> String {
    let pawns = if f.pawns_per_piece.is_finite() {
        format!(
            "{} ± {} pawns",
            signed(f.pawns_per_piece, 2),
            fixed(f.pawns_per_piece_std_error, 2)
        )
    } else {
        "pawns not yet known".to_owned()
    };
    format!(
        "{}, {} ± {} Elo; {pawns}, {} games",
        verdict_tone(f.kind).1,
        signed(f.elo_per_piece, 0),
        fixed(f.elo_per_piece_std_error, 0),
        count(f.games)
    )
}
