//! Every rated piece of every group on one horizontal ladder, strongest
//! first, coloured by group: the whole experiment at a glance.

use super::super::super::model::Report;
use super::super::derived::{finite_mean, group_games, group_short};
use super::super::format::{fixed, games, truncate};
use super::forest::{Forest, ForestRow};
use super::style::palette;

/// `None` when no group has a rated player.
pub(super) fn plot(report: &Report) -> Option<Forest> {
    let mut rows = Vec::new();
    let mut legend = Vec::new();
    let mut total = 0;
    for (k, group) in report
        .groups
        .iter()
        .filter(|g| !g.players.is_empty())
        .enumerate()
    {
        let colour = palette(k);
        legend.push((group.title.clone(), colour));
        total += group_games(group);
        let centre = finite_mean(group.players.iter().map(|p| p.elo));
        // Per piece exchanged, the unit of the margin.
        let per_piece = f64::from(group.pieces.unwrap_or(1));
        let short = group_short(group);
        for p in &group.players {
            let name = if p.label.trim().is_empty() {
                &p.name
            } else {
                &p.label
            };
            rows.push(ForestRow {
                // The name is cut, never the group after it.
                label: format!("{} · {}", truncate(name, 28), truncate(&short, 14)),
                value: (p.elo - centre) / per_piece,
                lo: (p.elo_interval.0 - centre) / per_piece,
                hi: (p.elo_interval.1 - centre) / per_piece,
                colour,
            });
        }
    }
    if rows.is_empty() {
        return None;
    }
    let key = |r: &ForestRow| {
        if r.value.is_finite() {
            r.value
        } else {
            f64::NEG_INFINITY
        }
    };
    rows.sort_by(|a, b| key(b).total_cmp(&key(a)));
    if legend.len() < 2 {
        legend.clear();
    }
    Some(Forest {
        title: format!(
            "Elo ladder of all {} rated pieces ({})",
            rows.len(),
            games(total)
        ),
        subtitle: format!(
            "Elo per piece exchanged, relative to each piece's own group average. Bars: 95% intervals. Green band: \
             ±{} Elo equivalence margin per piece.",
            fixed(report.margin_elo, 0)
        ),
        x_label: "Elo per piece relative to the piece's group average".to_owned(),
        rows,
        band: report.margin_elo.is_finite().then_some(report.margin_elo),
        legend,
        decimals: 0,
        signed: true,
    })
}
