//! The verdicts in plain words: the headlines, then each group's summary
//! and one coloured row per pair of pieces, and one row per engine
//! comparison.

use super::super::super::model::{EngineVerdictKind, Report};
use super::super::derived::player_label;
use super::super::doc::{Align, Block, Doc, Table, Tone};
use super::super::format::{count, counted, estimate, estimate_at, fixed, percent, signed};
use super::{VERDICTS, verdict_tone};
use crate::wording::pawn_decimals;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    doc.heading(2, VERDICTS);
    let headlines: Vec<String> = report
        .headlines
        .iter()
        .filter(|h| !h.trim().is_empty())
        .cloned()
        .collect();
    if headlines.is_empty() {
        doc.push(Block::Callout(vec![
            "No verdict yet: the log holds no games between pieces rated together.".to_owned(),
        ]));
    } else {
        doc.push(Block::Callout(headlines));
    }
    engines(doc, report);
    if report.groups.is_empty() {
        return;
    }
    let margin = fixed(report.margin_pawns, 2);
    doc.aside(format!(
        "Each pair of pieces gets one verdict. Equivalent (green): the equivalence interval of the difference per \
         piece lies inside ±{margin} pawns. Different (red): the difference interval in Elo excludes 0: one piece \
         is stronger. Equivalent, one stronger (green): both at once: inside the margin, and yet measurably \
         different. Inconclusive (amber): neither yet. Each interval is the test that made the verdict, turned \
         round, at the level printed beside it: the two one-sided tests of equivalence at the Holm level in force \
         in the pair's class (at least 90%), the test of equal strength at its Holm level (at least 95%), \
         so each covers the true difference at least that often. Differences are the first piece minus the \
         second, per piece exchanged (pair effects included); pawn figures carry the uncertainty of the pawn's \
         Elo value, and are given only where that value is known well enough to bound them.{}",
        if report.adaptive.is_some() {
            " Under the sequential design the intervals are repeated confidence intervals at the pair's last \
             look, at the boundaries of that look: they hold whatever look stopped the pair."
        } else {
            ""
        }
    ));

    for group in &report.groups {
        doc.heading(3, group.title.clone());
        if !group.summary.trim().is_empty() {
            doc.paragraph(group.summary.clone());
        }
        if group.pairs.is_empty() {
            doc.aside("No pair in this group has been measured yet.");
            continue;
        }
        let mut table = Table::new(&[
            ("Pair", Align::Left),
            ("Verdict", Align::Left),
            ("In plain words", Align::Left),
            ("Pawns per piece (interval, level)", Align::Right),
            ("Elo, armies (interval, level)", Align::Right),
            ("Games (pairs)", Align::Right),
        ]);
        table.badge_column = Some(1);
        for pair in &group.pairs {
            let (tone, word) = verdict_tone(pair.kind);
            table.push_toned(
                vec![
                    format!(
                        "{} vs {}{}",
                        player_label(group, &pair.a),
                        player_label(group, &pair.b),
                        pair.pieces
                            .filter(|&n| n > 1)
                            .map_or(String::new(), |n| format!(
                                " ({})",
                                counted(u64::from(n), "piece", "pieces")
                            ))
                    ),
                    word.to_owned(),
                    pair.text.clone(),
                    estimate_at(
                        pair.pawns_per_piece,
                        pair.pawns_per_piece_interval,
                        pawn_decimals(pair.pawns_per_piece_interval, report.margin_pawns),
                        pair.pawns_level,
                    ),
                    estimate_at(pair.elo, pair.elo_interval, 0, pair.elo_level),
                    format!("{} ({})", count(pair.games), count(pair.pairs)),
                ],
                tone,
            );
        }
        doc.table(table);
    }
}

/// Matchups whose armies differ only in their engine: strength, not pieces.
fn engines(doc: &mut Doc, report: &Report) {
    if report.engines.is_empty() {
        return;
    }
    doc.heading(3, "Engines");
    doc.aside(
        "These matchups play the same army on both sides with different engines, so each measures playing \
         strength: A minus B in Elo with its 95% interval over colour-swapped pairs. Stronger (green) or weaker \
         (red): the interval excludes 0; undecided (amber): it does not yet. LOS: the likelihood that A is the \
         stronger. SPRT: the sequential test's decision between its two hypotheses, when one ran.",
    );
    let mut table = Table::new(&[
        ("Engines (A vs B)", Align::Left),
        ("Verdict", Align::Left),
        ("In plain words", Align::Left),
        ("Elo A − B (95% CI)", Align::Right),
        ("LOS", Align::Right),
        ("SPRT", Align::Left),
        ("Games (pairs)", Align::Right),
    ]);
    table.badge_column = Some(1);
    for v in &report.engines {
        let (tone, word) = match v.kind {
            EngineVerdictKind::Stronger => (Tone::Good, "A stronger"),
            EngineVerdictKind::Weaker => (Tone::Bad, "B stronger"),
            EngineVerdictKind::Undecided => (Tone::Unsure, "undecided"),
        };
        let sprt = v.sprt.as_ref().map_or("none".to_owned(), |s| {
            let hypotheses = v.sprt_elo.map_or(String::new(), |(e0, e1)| {
                format!(" [{}, {}]", signed(e0, 0), signed(e1, 0))
            });
            let decision = match s.decision.as_str() {
                "H0" => "H0 accepted",
                "H1" => "H1 accepted",
                _ => "undecided",
            };
            format!("{decision}{hypotheses} (LLR {})", signed(s.llr, 2))
        });
        table.push_toned(
            vec![
                format!("{} ({}) vs {} ({})", v.a, v.a_engine, v.b, v.b_engine),
                word.to_owned(),
                v.text.clone(),
                estimate(v.elo, v.elo_interval, 0),
                percent(v.los, 1),
                sprt,
                format!("{} ({})", count(v.games), count(v.pairs)),
            ],
            tone,
        );
    }
    doc.table(table);
}
