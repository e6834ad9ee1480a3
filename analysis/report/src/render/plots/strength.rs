//! Per group: each piece's strength relative to the group average, with
//! the equivalence band, so "are these worth the same" is one glance.

use super::super::super::model::{RatingGroup, Report};
use super::super::derived::{finite_mean, group_games, pawn_in_elo, ranking};
use super::super::format::{fixed, games};
use super::forest::{Forest, ForestRow};
use super::style::palette;

/// `None` when the group has no rated player.
pub(super) fn plot(report: &Report, group: &RatingGroup) -> Option<Forest> {
    if group.players.is_empty() {
        return None;
    }
    // Pawns per piece exchanged (the margin's unit) when both are known,
    // pawns for the armies when the pieces are not counted, else Elo.
    let per_piece = group.players.iter().any(|p| p.pawns_per_piece.is_finite());
    let use_pawns = per_piece || group.players.iter().any(|p| p.pawns.is_finite());
    let pick = |p: &super::super::super::model::PlayerRating| {
        if per_piece {
            (p.pawns_per_piece, p.pawns_per_piece_interval)
        } else if use_pawns {
            (p.pawns, p.pawns_interval)
        } else {
            (p.elo, p.elo_interval)
        }
    };
    let centre = finite_mean(group.players.iter().map(|p| pick(p).0));
    let rows = ranking(group)
        .into_iter()
        .map(|i| {
            let p = &group.players[i];
            let (value, (lo, hi)) = pick(p);
            let label = if p.label.trim().is_empty() {
                p.name.clone()
            } else {
                p.label.clone()
            };
            ForestRow {
                label,
                value: value - centre,
                lo: lo - centre,
                hi: hi - centre,
                colour: palette(0),
            }
        })
        .collect();
    let (unit, margin, decimals) = if per_piece {
        ("pawns per piece", report.margin_pawns, 2)
    } else if use_pawns {
        ("pawns", report.margin_pawns, 2)
    } else {
        ("Elo", report.margin_elo, 0)
    };
    let calibration = pawn_in_elo(report, use_pawns);
    Some(Forest {
        title: format!(
            "{}: strength of each piece ({})",
            group.title,
            games(group_games(group))
        ),
        subtitle: format!(
            "Relative to the group average, strongest first. Bars: 95% intervals. Green band: equivalent within ±{} {unit}.",
            fixed(margin, decimals)
        ),
        x_label: format!("{unit} relative to the group average{calibration}"),
        rows,
        band: margin.is_finite().then_some(margin),
        legend: Vec::new(),
        decimals,
        signed: true,
        brackets: Vec::new(),
        breaks: Vec::new(),
    })
}
