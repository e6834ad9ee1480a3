//! How Elo becomes pawns: every pawn figure in the report rests on this one
//! conversion, so the reader must see whether it was measured (and how
//! precisely), assumed, or could not be had.

use super::super::super::model::{CalibrationSource, Report};
use super::super::doc::Doc;
use super::super::format::{fixed, range};
use super::CALIBRATION;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    let c = &report.calibration;
    doc.heading(2, CALIBRATION);
    if report.groups.is_empty() && !report.engines.is_empty() {
        doc.paragraph(
            "Not needed: the matchups compare engines, whose difference is playing strength in Elo; no piece is \
             valued in pawns.",
        );
        return;
    }
    let note = c.note.trim();
    if !c.elo_per_pawn.is_finite() || c.elo_per_pawn <= 0.0 {
        let mut text = "No conversion from Elo to pawns is available for these games, so pawn figures read n/a and \
                        no pair can be shown equivalent within a margin in pawns; the Elo figures and the 'different' \
                        verdicts stand on their own."
            .to_owned();
        if !note.is_empty() {
            text.push(' ');
            text.push_str(note);
        }
        doc.paragraph(text);
        return;
    }
    let interval = match c.interval {
        Some(iv) if iv.0.is_finite() && iv.1.is_finite() => {
            format!(" (95% interval {})", range(iv, 0))
        }
        _ => String::new(),
    };
    let source = match c.source {
        CalibrationSource::Measured => "measured",
        CalibrationSource::Assumed => "assumed",
        CalibrationSource::NoPawnAdvantage | CalibrationSource::Unmeasurable => "not measurable",
    };
    let mut text = format!(
        "One pawn is worth about {} Elo{interval}; this figure is {source}.",
        fixed(c.elo_per_pawn, 0)
    );
    if !note.is_empty() {
        text.push(' ');
        text.push_str(note);
    }
    doc.paragraph(text);
    let how = if c.source == CalibrationSource::Measured {
        "The pawn's value is uncertain too, so pawn intervals and equivalence tests carry that uncertainty \
         (Fieller's method for a ratio of two estimates): a quarter of a pawn is not known exactly in Elo, and a \
         verdict accounts for it."
    } else {
        "If that figure is off, every pawn figure is off by the same factor."
    };
    doc.paragraph(format!(
        "So the equivalence margin of ±{} pawns per piece is about ±{} Elo per piece. Pawn figures are Elo figures \
         divided by the Elo a pawn is worth; per-piece figures also divide by the pieces a matchup exchanges. {how}",
        fixed(report.margin_pawns, 2),
        fixed(report.margin_elo, 0),
    ));
}
