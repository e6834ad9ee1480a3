//! Pocket use per piece: how often each piece was pocketed, mutated into,
//! promoted into and dropped, as grouped bars.

use super::super::super::model::Report;
use super::super::derived::piece_label;
use super::super::format::{count, games};
use super::bars::Bars;
use super::style::palette;

/// `None` when no pocket moves were recorded.
pub(super) fn plot(report: &Report) -> Option<Bars> {
    let uses = &report.pocket_use;
    if uses.is_empty() {
        return None;
    }
    let values: Vec<Vec<u64>> = uses
        .iter()
        .map(|p| vec![p.pocket_ins, p.mutated_into, p.promoted_into, p.drops])
        .collect();
    Some(Bars {
        title: format!(
            "Pocket moves per piece (over {})",
            games(report.balance.games)
        ),
        subtitle:
            "How often each piece type was pocketed, gained by mutation or promotion, and dropped."
                .to_owned(),
        x_label: "times, over all games".to_owned(),
        categories: uses
            .iter()
            .map(|p| piece_label(&p.letter, &p.name))
            .collect(),
        series: vec![
            ("pocketed".to_owned(), palette(0)),
            ("mutated into".to_owned(), palette(1)),
            ("promoted into".to_owned(), palette(2)),
            ("dropped".to_owned(), palette(3)),
        ],
        labels: values
            .iter()
            .map(|row| row.iter().map(|n| count(*n)).collect())
            .collect(),
        values,
    })
}
