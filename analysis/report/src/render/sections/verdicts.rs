//! The verdicts first: per group its line (holds, fails, not settled) and
//! one short sentence per pair of pieces, then the headlines of the study,
//! then one details table with what the sentences leave out (the level of
//! each interval, the Elo, the look and the games); and one row per engine
//! comparison.

use super::super::super::model::{EngineVerdictKind, PairVerdict, Report, StatedInterval};
use super::super::derived::{OVERVIEW, player_label};
use super::super::doc::{Align, Block, Doc, Table, Tone};
use super::super::format::{count, counted, estimate, estimate_at, level_percent, percent, signed};
use super::{VERDICTS, value_scale, verdict_tone};
use crate::wording::pawn_decimals;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    doc.heading(2, VERDICTS);
    if let Some(scale) = &report.value_scale {
        value_scale::verdict(doc, scale);
    }
    for group in &report.groups {
        if !group.summary.trim().is_empty() {
            doc.paragraph(group.summary.clone());
        }
        let sentences: Vec<(Tone, String)> = group
            .pairs
            .iter()
            .map(|pair| (verdict_tone(pair.kind).0, pair.text.clone()))
            .collect();
        if !sentences.is_empty() {
            doc.push(Block::TonedList(sentences));
        }
    }
    let headlines: Vec<String> = report
        .headlines
        .iter()
        .filter(|h| !h.trim().is_empty())
        .cloned()
        .collect();
    if !headlines.is_empty() {
        doc.push(Block::Callout(headlines));
    } else if report.groups.is_empty() && report.value_scale.is_none() {
        doc.push(Block::Callout(vec![
            "No verdict yet: the log holds no games between pieces rated together.".to_owned(),
        ]));
    }
    if report.groups.iter().any(|g| !g.players.is_empty()) {
        doc.figure(
            OVERVIEW,
            "Every rated piece relative to its class's average (a Bradley-Terry rating with its 95% interval), \
             strongest first, one colour per class. On the right, a bracket joins the two pieces of each pair, \
             coloured by the pair's verdict above: green equivalent, red different, amber undecided. Pieces of \
             different classes were not played against each other: compare within a colour.",
        );
    }
    engines(doc, report);
    if report.groups.iter().any(|g| !g.pairs.is_empty()) {
        details(doc, report);
    }
}

/// What the sentences leave out, once per pair: the level of the interval
/// a sentence states, the other intervals in full, the look and the games.
fn details(doc: &mut Doc, report: &Report) {
    doc.heading(4, "Details of the verdicts");
    doc.aside(format!(
        "Green: equivalent, the equivalence interval of the difference per piece lies inside ±{} pawns. Red: \
         different, the test of equal strength rejects (its interval excludes 0). Amber: neither yet. Each \
         interval is the test that made the verdict, turned round, at the level printed with it: equivalence at \
         the Holm level in force in the pair's class (at least 90%), equal strength at its Holm level (at least \
         95%). Figures are the first piece minus the second, per piece exchanged (pair effects included); pawn \
         figures carry the uncertainty of the pawn's Elo value and are given only where that value bounds them. \
         \"Stated above\": the sentence gives that interval; the cell gives its level.{}",
        super::super::format::fixed(report.margin_pawns, 2),
        if report.adaptive.is_some() {
            " Under the sequential design the intervals are repeated confidence intervals at the pair's last \
             look: they hold whatever look stopped the pair."
        } else {
            ""
        }
    ));
    let looks = report.adaptive.as_ref().map(|a| a.looks_planned);
    let mut columns = vec![
        ("Pair", Align::Left),
        ("Pawns per piece (interval, level)", Align::Right),
        ("Elo per piece (interval, level)", Align::Right),
    ];
    if looks.is_some() {
        columns.push(("Look", Align::Right));
    }
    columns.push(("Games (pairs)", Align::Right));
    let mut table = Table::new(&columns);
    table.badge_column = Some(0);
    for group in &report.groups {
        for pair in &group.pairs {
            let (tone, _) = verdict_tone(pair.kind);
            let mut cells = vec![
                format!(
                    "{} vs {}{}",
                    player_label(group, &pair.a),
                    player_label(group, &pair.b),
                    pair.pieces
                        .filter(|&n| n > 1)
                        .map_or(String::new(), |n| format!(
                            " ({} each)",
                            counted(u64::from(n), "piece", "pieces")
                        ))
                ),
                pawn_cell(pair, report.margin_pawns),
                elo_cell(pair),
            ];
            if let Some(planned) = looks {
                cells.push(pair.look.map_or("not looked at yet".to_owned(), |look| {
                    format!("{look} of {planned}")
                }));
            }
            cells.push(format!("{} ({})", count(pair.games), count(pair.pairs)));
            table.push_toned(cells, tone);
        }
    }
    doc.table(table);
}

/// The interval a sentence states reads "stated above" with its level.
fn stated_above(level: f64) -> String {
    format!("stated above, {}", level_percent(level))
}

fn pawn_cell(pair: &PairVerdict, margin_pawns: f64) -> String {
    if pair.stated() == StatedInterval::Pawns {
        return stated_above(pair.pawns_level);
    }
    estimate_at(
        pair.pawns_per_piece,
        pair.pawns_per_piece_interval,
        pawn_decimals(pair.pawns_per_piece_interval, margin_pawns),
        pair.pawns_level,
    )
}

fn elo_cell(pair: &PairVerdict) -> String {
    if pair.stated() == StatedInterval::Elo {
        return stated_above(pair.elo_level);
    }
    let (elo, interval) = pair.elo_per_piece();
    estimate_at(elo, interval, 0, pair.elo_level)
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
