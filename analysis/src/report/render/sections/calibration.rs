//! How Elo becomes pawns: every pawn figure in the report rests on this one
//! conversion, so the reader must see whether it was measured or assumed.

use super::super::super::model::Report;
use super::super::doc::Doc;
use super::super::format::{fixed, range};
use super::CALIBRATION;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    let c = &report.calibration;
    doc.heading(2, CALIBRATION);
    let interval = match c.interval {
        Some(iv) if iv.0.is_finite() && iv.1.is_finite() => {
            format!(" (95% interval {})", range(iv, 0))
        }
        _ => String::new(),
    };
    if !c.elo_per_pawn.is_finite() || c.elo_per_pawn <= 0.0 {
        doc.paragraph(
            "No conversion from Elo to pawns is available for these games, so pawn figures read n/a; the Elo figures \
             stand on their own.",
        );
        return;
    }
    let source = match c.source.trim() {
        "" => "of unknown origin",
        s => s,
    };
    let mut text = format!(
        "One pawn is worth about {} Elo{interval}; this figure is {source}.",
        fixed(c.elo_per_pawn, 0)
    );
    if !c.note.trim().is_empty() {
        text.push(' ');
        text.push_str(c.note.trim());
    }
    doc.paragraph(text);
    doc.paragraph(format!(
        "So the equivalence margin of ±{} pawns is ±{} Elo. Pawn figures are Elo figures divided by the Elo a pawn is \
         worth{}.",
        fixed(report.margin_pawns, 2),
        fixed(report.margin_elo, 0),
        if c.source == "measured" { "" } else { "; if that figure is off, every pawn figure is off by the same factor" }
    ));
}
