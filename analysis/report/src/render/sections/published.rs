//! Known values as sanity checks: the figures others published for the
//! experiment's matchups, beside the lab's measurement of the same.

use super::super::super::model::{PublishedAgreement, Report};
use super::super::doc::{Align, Doc, Table, Tone};
use super::super::format::{count, estimate, signed};
use super::PUBLISHED;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    if report.published.is_empty() {
        return;
    }
    doc.heading(2, PUBLISHED);
    doc.aside(
        "Figures others published for these matchups (army A minus army B, in pawns), named in the experiment \
         file, beside the lab's estimate with its 95% interval. They come from other games (often orthodox chess, \
         other engines, other boards), so they are sanity checks, not truths: a figure outside the interval may \
         reflect this variant's rules as much as an error of either side.",
    );
    let mut table = Table::new(&[
        ("Matchup (A vs B)", Align::Left),
        ("Source", Align::Left),
        ("Published A − B", Align::Right),
        ("Lab A − B (95% CI)", Align::Right),
        ("Games", Align::Right),
        ("Agreement", Align::Left),
    ]);
    for p in &report.published {
        let (tone, agreement) = match p.agreement {
            PublishedAgreement::Within => (Tone::Good, "within the interval"),
            PublishedAgreement::LabLower => (Tone::Bad, "outside: the lab finds less"),
            PublishedAgreement::LabHigher => (Tone::Bad, "outside: the lab finds more"),
            PublishedAgreement::Unbounded => (
                Tone::Unsure,
                "no test yet: the interval is unbounded (the pawn unit is too uncertain)",
            ),
            PublishedAgreement::NotMeasured => (Tone::Unsure, "not measured"),
        };
        table.push_toned(
            vec![
                format!("{} vs {}", p.a, p.b),
                p.source.clone(),
                signed(p.published_pawns, 2),
                estimate(p.lab_pawns, p.lab_interval, 2),
                count(p.games),
                agreement.to_owned(),
            ],
            tone,
        );
    }
    doc.table(table);
}
