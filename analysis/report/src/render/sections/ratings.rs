//! Per group: the ratings table, the strength plot and the head-to-head
//! heat map (every piece on one axis is the report's first picture, under
//! the verdicts).
//!
//! Ratings are shown relative to the group's average (0 = average), which
//! is what "are these pieces worth the same" is about; the plots use the
//! same centring so table and picture agree.

use super::super::super::model::{RatingGroup, Report};
use super::super::derived::{finite_mean, group_keys, matrix_stem, ranking, strength_stem};
use super::super::doc::{Align, Doc, Table};
use super::super::format::{count, estimate, fixed, signed};
use super::RATINGS;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    if report.groups.is_empty() && report.value_scale.is_some() {
        // The value scale above rates every piece; nothing to add.
        return;
    }
    doc.heading(2, RATINGS);
    if report.groups.is_empty() {
        doc.paragraph(if report.engines.is_empty() {
            "No pieces were rated: the log holds no games between members of a group."
        } else {
            "No pieces were rated: the matchups compare engines (see the verdicts above), not pieces."
        });
        return;
    }
    doc.aside(format!(
        "Each piece's strength is shown relative to the average of its group (0 = average), in Elo and in pawns, \
         with 95% intervals, strongest first. Per group, the strength plot shades the equivalence margin of ±{} \
         pawns per piece, and the heat map gives the row piece's score against the column piece (a draw counts \
         half) with the games behind each cell.",
        fixed(report.margin_pawns, 2)
    ));
    for (group, key) in report.groups.iter().zip(group_keys(report)) {
        doc.heading(3, group.title.clone());
        doc.table(ratings_table(group));
        // Each plot's title names its group and games; the aside above says how to read them.
        doc.figure(strength_stem(&key), "");
        doc.figure(matrix_stem(&key), "");
        doc.aside(format!(
            "Fit terms: White's advantage in this group {} Elo; draw parameter {}.",
            signed(group.white_advantage_elo, 0),
            fixed(group.draw_parameter, 2)
        ));
    }
}

fn ratings_table(group: &RatingGroup) -> Table {
    let mut table = Table::new(&[
        ("Piece", Align::Left),
        ("Elo vs group average (95% CI)", Align::Right),
        ("Pawns vs group average (95% CI)", Align::Right),
        ("Per piece (95% CI)", Align::Right),
        ("Games", Align::Right),
    ]);
    let elo_mean = finite_mean(group.players.iter().map(|p| p.elo));
    let pawn_mean = finite_mean(group.players.iter().map(|p| p.pawns));
    let piece_mean = finite_mean(group.players.iter().map(|p| p.pawns_per_piece));
    for i in ranking(group) {
        let p = &group.players[i];
        let shift = |(lo, hi): (f64, f64), by: f64| (lo - by, hi - by);
        table.push(vec![
            if p.label.trim().is_empty() {
                p.name.clone()
            } else {
                p.label.clone()
            },
            estimate(p.elo - elo_mean, shift(p.elo_interval, elo_mean), 0),
            estimate(p.pawns - pawn_mean, shift(p.pawns_interval, pawn_mean), 2),
            estimate(
                p.pawns_per_piece - piece_mean,
                shift(p.pawns_per_piece_interval, piece_mean),
                2,
            ),
            count(p.games),
        ]);
    }
    if table.rows.is_empty() {
        table.push(vec![
            "(no ratings: too few games to fit this group)".to_owned(),
            "n/a".into(),
            "n/a".into(),
            "n/a".into(),
            "0".into(),
        ]);
    }
    table
}
