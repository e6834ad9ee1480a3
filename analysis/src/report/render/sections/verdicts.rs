//! The verdicts in plain words: the headlines, then each group's summary
//! and one coloured row per pair of pieces.

use super::super::super::model::Report;
use super::super::derived::player_label;
use super::super::doc::{Align, Block, Doc, Table};
use super::super::format::{count, estimate, fixed};
use super::{VERDICTS, verdict_tone};

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
    if report.groups.is_empty() {
        return;
    }
    let margin = fixed(report.margin_pawns, 2);
    doc.aside(format!(
        "Each pair of pieces gets one of three verdicts. Equivalent (green): the difference is within ±{margin} pawns \
         with 95% confidence. Different (red): one piece is stronger, beyond chance. Inconclusive (amber): more games \
         are needed to tell, and the row says about how many. Differences are the first piece minus the second."
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
            ("Difference in pawns (95% CI)", Align::Right),
            ("Difference in Elo (95% CI)", Align::Right),
            ("Games (pairs)", Align::Right),
        ]);
        table.badge_column = Some(1);
        for pair in &group.pairs {
            let (tone, word) = verdict_tone(pair.kind);
            table.push_toned(
                vec![
                    format!(
                        "{} vs {}",
                        player_label(group, &pair.a),
                        player_label(group, &pair.b)
                    ),
                    word.to_owned(),
                    pair.text.clone(),
                    estimate(pair.pawns, pair.pawns_interval, 2),
                    estimate(pair.elo, pair.elo_interval, 0),
                    format!("{} ({})", count(pair.games), count(pair.pairs)),
                ],
                tone,
            );
        }
        doc.table(table);
    }
}
