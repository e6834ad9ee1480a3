//! A study under the sequential-equivalence design: the calibration, and
//! the study's games against the fixed design's (each pair's look and games
//! stand in the verdicts' details, and what an open pair needs under What
//! to change).

use super::super::super::model::{AdaptiveMatchup, AdaptiveStatus, Report};
use super::super::doc::{Align, Doc, Table, Tone};
use super::super::format::count;
use super::ADAPTIVE;

/// The status's badge colour and word.
fn status_tone(status: AdaptiveStatus) -> (Tone, &'static str) {
    match status {
        AdaptiveStatus::Equivalent => (Tone::Good, "equivalent"),
        AdaptiveStatus::Different => (Tone::Bad, "different"),
        AdaptiveStatus::EquivalentStronger => (Tone::Good, "equivalent, one stronger"),
        AdaptiveStatus::Playing => (Tone::Unsure, "playing"),
        AdaptiveStatus::Cap => (Tone::Unsure, "undecided at the cap"),
        AdaptiveStatus::Budget => (Tone::Unsure, "undecided: budget"),
        AdaptiveStatus::CalibrationDone => (Tone::Good, "calibration"),
    }
}

pub(super) fn write(doc: &mut Doc, report: &Report) {
    let Some(a) = &report.adaptive else {
        return;
    };
    // The design's result in one sentence is a headline of the verdicts.
    doc.heading(2, ADAPTIVE);
    doc.aside(format!(
        "A look after every {} pairs, up to {} pairs per matchup; {} spending of α = {} per kind of claim \
         within each class (Holm across its pairs and looks); margin ±{} pawns per piece{}. At each look a \
         decided pair stops and the rest play on; the pawn-odds calibration plays while {}. The fixed design \
         plays every matchup, the calibration included, to the cap: {} games.",
        a.look_every,
        a.max_pairs,
        a.spending,
        a.alpha,
        a.margin_pawns,
        a.budget_games
            .map(|b| format!("; budget {} games", count(b)))
            .unwrap_or_default(),
        match a.calibration_futility {
            None => "any pair is open".to_owned(),
            Some(gamma) => format!(
                "any open pair could still be shown equivalent by the cap with a chance of {}% or more, \
                 were the truth the most favourable to it (no difference, the pawn at the top of its \
                 range): the unit serves equivalence verdicts only",
                gamma * 100.0
            ),
        },
        count(a.fixed_games)
    ));
    let mut table = Table::new(&[
        ("Matchup", Align::Left),
        ("Outcome", Align::Left),
        ("Look", Align::Right),
        ("Pairs", Align::Right),
        ("Games", Align::Right),
        ("How it ended", Align::Left),
    ]);
    table.badge_column = Some(1);
    let row = |table: &mut Table, m: &AdaptiveMatchup| {
        let (tone, word) = status_tone(m.status);
        table.push_toned(
            vec![
                m.label.clone(),
                word.to_owned(),
                format!("{} of {}", m.look, a.looks_planned),
                count(m.pairs),
                count(m.games),
                m.text.clone(),
            ],
            tone,
        );
    };
    if let Some(c) = &a.calibration {
        row(&mut table, c);
    }
    table.push(vec![
        "Study".into(),
        String::new(),
        format!("{} of {}", a.looks_done, a.looks_planned),
        String::new(),
        count(a.games),
        format!(
            "{} of {} pairs of pieces decided; the fixed design: {} games",
            a.decided,
            a.matchups.len(),
            count(a.fixed_games)
        ),
    ]);
    doc.table(table);
}
