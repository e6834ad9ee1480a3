//! Caveats a reader must know before trusting a verdict.

use super::super::super::model::Report;
use super::super::doc::{Block, Doc};
use super::NOTES;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    doc.heading(2, NOTES);
    let notes: Vec<String> = report
        .notes
        .iter()
        .filter(|n| !n.trim().is_empty())
        .cloned()
        .collect();
    if notes.is_empty() {
        doc.paragraph("No caveats were recorded.");
    } else {
        doc.push(Block::List(notes));
    }
}
