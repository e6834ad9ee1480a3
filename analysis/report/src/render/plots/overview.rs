//! The report's first picture: every rated piece on one axis, relative to
//! its class's average, grouped and coloured by class, with each pair's
//! verdict marked by a bracket between the two pieces (green equivalent,
//! red different, amber undecided). Pawns per piece where the pawn unit
//! resolves every rating, else Elo per piece.

use super::super::super::model::{RatingGroup, Report};
use super::super::derived::{finite_mean, group_games, pawn_in_elo, ranking};
use super::super::format::games;
use super::forest::{Bracket, Forest, ForestRow};
use super::style::{palette, verdict_colour};
use crate::model::VerdictKind;

/// `None` when no group has a rated player.
pub(super) fn plot(report: &Report) -> Option<Forest> {
    let groups: Vec<&RatingGroup> = report
        .groups
        .iter()
        .filter(|g| !g.players.is_empty())
        .collect();
    if groups.is_empty() {
        return None;
    }
    let in_pawns = groups.iter().all(|g| {
        g.players
            .iter()
            .all(|p| p.pawns_per_piece.is_finite() || !p.elo.is_finite())
    });
    let mut rows = Vec::new();
    let mut brackets = Vec::new();
    let mut breaks = Vec::new();
    let mut legend = Vec::new();
    let mut total = 0;
    for (k, group) in groups.iter().enumerate() {
        let colour = palette(k);
        legend.push((group.title.clone(), colour));
        total += group_games(group);
        let per_piece = f64::from(group.pieces.unwrap_or(1));
        let pick = |i: usize| {
            let p = &group.players[i];
            if in_pawns {
                (p.pawns_per_piece, p.pawns_per_piece_interval)
            } else {
                (
                    p.elo / per_piece,
                    (p.elo_interval.0 / per_piece, p.elo_interval.1 / per_piece),
                )
            }
        };
        let centre = finite_mean((0..group.players.len()).map(|i| pick(i).0));
        let first = rows.len();
        if first > 0 {
            breaks.push(first);
        }
        let order = ranking(group);
        for &i in &order {
            let p = &group.players[i];
            let (value, (lo, hi)) = pick(i);
            rows.push(ForestRow {
                label: if p.label.trim().is_empty() {
                    p.name.clone()
                } else {
                    p.label.clone()
                },
                value: value - centre,
                lo: lo - centre,
                hi: hi - centre,
                colour,
            });
        }
        let row_of = |name: &str| {
            order
                .iter()
                .position(|&i| group.players[i].name == name)
                .map(|r| first + r)
        };
        let spans: Vec<(usize, usize, VerdictKind)> = group
            .pairs
            .iter()
            .filter_map(|v| {
                let (a, b) = (row_of(&v.a)?, row_of(&v.b)?);
                Some((a.min(b), a.max(b), v.kind))
            })
            .collect();
        brackets.extend(lanes(&spans));
    }
    if legend.len() < 2 {
        legend.clear();
    }
    for kind in [
        VerdictKind::Equivalent,
        VerdictKind::Different,
        VerdictKind::Inconclusive,
    ] {
        let word = match kind {
            VerdictKind::Different => "different",
            VerdictKind::Inconclusive => "undecided",
            _ => "equivalent",
        };
        if brackets.iter().any(|b| b.colour == verdict_colour(kind)) {
            legend.push((format!("pair {word}"), verdict_colour(kind)));
        }
    }
    let (unit, decimals) = if in_pawns {
        ("pawns per piece", 2)
    } else {
        ("Elo per piece", 0)
    };
    let calibration = pawn_in_elo(report, in_pawns);
    Some(Forest {
        title: format!(
            "Every piece and every verdict: {} rated pieces ({})",
            rows.len(),
            games(total)
        ),
        subtitle: "Each piece relative to its class's average, strongest first; bars: 95% intervals. Right: a \
                   bracket per pair, coloured by its verdict."
            .to_owned(),
        x_label: format!("{unit} relative to the class average{calibration}"),
        rows,
        band: None,
        legend,
        decimals,
        signed: true,
        brackets,
        breaks,
    })
}

/// A bracket per pair of rows, in the innermost lane free over its rows;
/// shorter spans first, so the brackets nest instead of crossing.
fn lanes(spans: &[(usize, usize, VerdictKind)]) -> Vec<Bracket> {
    let mut order: Vec<&(usize, usize, VerdictKind)> = spans.iter().collect();
    order.sort_by_key(|(from, to, _)| (to - from, *from));
    let mut placed: Vec<Bracket> = Vec::new();
    for &&(from, to, kind) in &order {
        let overlaps = |b: &Bracket| b.from <= to && from <= b.to;
        let lane = (0..)
            .find(|&lane| !placed.iter().any(|b| b.lane == lane && overlaps(b)))
            .unwrap_or(0);
        placed.push(Bracket {
            from,
            to,
            lane,
            colour: verdict_colour(kind),
        });
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_over_shared_rows_take_separate_lanes() {
        use VerdictKind::*;
        let placed = lanes(&[
            (0, 1, Different),
            (1, 2, Equivalent),
            (0, 2, Inconclusive),
            (3, 4, Different),
        ]);
        let lane = |from, to| {
            placed
                .iter()
                .find(|b| b.from == from && b.to == to)
                .unwrap()
                .lane
        };
        // (0,1) and (1,2) share row 1; the long one goes outside both.
        assert_ne!(lane(0, 1), lane(1, 2));
        assert_eq!(lane(0, 2), 2);
        // Another class's rows: the innermost lane again.
        assert_eq!(lane(3, 4), 0);
    }
}
