//! How games ended: one bar per termination reason, with count and share.

use super::super::super::model::Report;
use super::super::format::{count, games, percent};
use super::bars::Bars;
use super::style::palette;

/// `None` when no game ended (no games).
pub(super) fn plot(report: &Report) -> Option<Bars> {
    let t = &report.balance.terminations;
    let total: u64 = t.iter().map(|(_, n)| *n).sum();
    if t.is_empty() || total == 0 {
        return None;
    }
    Some(Bars {
        title: format!("How games ended ({})", games(total)),
        subtitle: "Games per termination, most frequent first, with the share of all games."
            .to_owned(),
        x_label: "games".to_owned(),
        categories: t.iter().map(|(name, _)| name.clone()).collect(),
        series: vec![("games".to_owned(), palette(0))],
        values: t.iter().map(|(_, n)| vec![*n]).collect(),
        labels: t
            .iter()
            .map(|(_, n)| {
                vec![format!(
                    "{} ({})",
                    count(*n),
                    percent(*n as f64 / total as f64, 1)
                )]
            })
            .collect(),
    })
}
