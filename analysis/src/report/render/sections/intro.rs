//! The title and the question the experiment asked, in one paragraph a
//! designer can check against what they meant to ask.

use super::super::super::model::Report;
use super::super::doc::{Block, Doc};
use super::super::format::{count, fixed, games};
use super::{WHAT_WAS_ASKED, total_games};

pub(super) fn title(report: &Report) -> String {
    let name = report.experiment.name.trim();
    if name.is_empty() {
        "Balance report".to_owned()
    } else {
        format!("Balance report: {name}")
    }
}

pub(super) fn write(doc: &mut Doc, report: &Report) {
    let exp = &report.experiment;
    doc.heading(2, WHAT_WAS_ASKED);

    // The designer's own question when the experiment states one, else the
    // question every class experiment asks.
    let mut text = String::new();
    let variant = if exp.variant.trim().is_empty() {
        "this variant"
    } else {
        exp.variant.trim()
    };
    let description = exp.description.trim();
    if description.is_empty() {
        let classes = report.groups.iter().any(|g| g.class.is_some()) || report.groups.is_empty();
        if classes {
            text.push_str(&format!(
                "Are the pieces that {variant} puts in one value class really worth the same? "
            ));
        } else {
            text.push_str(&format!(
                "Are the armies of {variant} rated together below really worth the same? "
            ));
        }
    } else {
        text.push_str(description);
        if !description.ends_with(['.', '!', '?']) {
            text.push('.');
        }
        text.push(' ');
    }
    let variant_description = exp.variant_description.trim();
    if !variant_description.is_empty() {
        text.push_str(&format!(
            "The variant played is {variant}: {variant_description}"
        ));
        if !variant_description.ends_with(['.', '!', '?']) {
            text.push('.');
        }
        text.push(' ');
    }
    text.push_str(&format!(
        "To find out, engines played {} against each other in {} matchups. Two pieces count as equivalent when, \
         with 95% confidence, their strengths differ by less than ±{} pawns per piece exchanged (±{} Elo); as \
         different when one is stronger beyond chance; otherwise the answer is \"not enough games yet\".",
        games(total_games(report)),
        count(report.matchups.len() as u64),
        fixed(report.margin_pawns, 2),
        fixed(report.margin_elo, 0),
    ));
    doc.paragraph(text);
    doc.push(Block::Aside(
        "How to read this report: the verdicts come first, in plain words; the evidence behind them follows \
         (ratings, head-to-head results, every matchup, game balance); the last section says how to reproduce \
         every number."
            .to_owned(),
    ));
}
