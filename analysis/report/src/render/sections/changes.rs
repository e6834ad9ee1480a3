//! What to change, right after the verdicts: per class its advice (the
//! piece that stands apart, the order of the pieces, the pairs still
//! open), and the class table the learned values propose when the report
//! has one.

use super::super::super::model::Report;
use super::super::doc::{Block, Doc};
use super::{CHANGES, training, value_scale};

pub(super) fn write(doc: &mut Doc, report: &Report) {
    let advice: Vec<String> = report
        .groups
        .iter()
        .map(|g| g.advice.clone())
        .filter(|a| !a.trim().is_empty())
        .collect();
    let proposal = report
        .training
        .as_ref()
        .and_then(|t| t.proposal.as_ref().map(|p| (t, p)));
    let scale_advice = report.value_scale.as_ref().and_then(value_scale::advice);
    if advice.is_empty() && proposal.is_none() && scale_advice.is_none() {
        return;
    }
    doc.heading(2, CHANGES);
    if let Some(text) = scale_advice {
        doc.paragraph(text);
    }
    if !advice.is_empty() {
        doc.aside(
            "Each line rests on the verdicts above: a piece stands apart when it is shown different from every \
             other piece of its class, in the same direction.",
        );
        doc.push(Block::List(advice));
    }
    if let Some((t, p)) = proposal {
        training::write_proposal(doc, t, p);
    }
}
