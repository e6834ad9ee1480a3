//! Every piece of a value scale on one axis, strongest first, with its 95%
//! interval, coloured by its class in the variant's table today: where the
//! classes overlap on the scale is where the table and the values disagree;
//! thin lines mark the classes of the best table the values support.

use super::super::super::model::Report;
use super::super::derived::piece_label;
use super::forest::{Forest, ForestRow};
use super::style::{MUTED, palette};

/// `None` without a value scale or a valued piece.
pub(super) fn plot(report: &Report) -> Option<Forest> {
    let scale = report.value_scale.as_ref()?;
    // In pawns when every valued piece has a bounded value in pawns.
    let valued: Vec<_> = scale
        .pieces
        .iter()
        .filter(|p| p.missing.is_none())
        .collect();
    if valued.is_empty() {
        return None;
    }
    let in_pawns = valued.iter().all(|p| p.pawns.is_finite());
    let colour =
        |class: Option<u8>| class.map_or(MUTED, |c| palette(usize::from(c).saturating_sub(1)));
    let mut rows: Vec<ForestRow> = valued
        .iter()
        .map(|p| {
            let (value, lo, hi) = if in_pawns {
                (p.pawns, p.pawns_lo, p.pawns_hi)
            } else {
                (p.elo, p.elo_lo, p.elo_hi)
            };
            ForestRow {
                label: piece_label(&p.letter, &p.name),
                value,
                lo,
                hi,
                colour: colour(p.class),
            }
        })
        .collect();
    rows.reverse();
    // The best table's class of each row, top (strongest) down.
    let best_class = |letter: &str| {
        scale.best.as_ref().and_then(|t| {
            t.classes
                .iter()
                .position(|class| class.iter().any(|l| l == letter))
        })
    };
    let row_classes: Vec<Option<usize>> =
        valued.iter().rev().map(|p| best_class(&p.letter)).collect();
    let breaks: Vec<usize> = (1..row_classes.len())
        .filter(|&i| row_classes[i].is_some() && row_classes[i] != row_classes[i - 1])
        .collect();
    let mut classes: Vec<u8> = valued.iter().filter_map(|p| p.class).collect();
    classes.sort_unstable();
    classes.dedup();
    let legend = classes
        .iter()
        .map(|&c| (format!("class {c}"), colour(Some(c))))
        .collect();
    let units = if in_pawns {
        "pawns"
    } else {
        "Elo against the empty square"
    };
    Some(Forest {
        title: format!("All {} valued pieces on one scale", rows.len()),
        subtitle: format!(
            "Value in {units}; bars: 95% intervals{}. Colour: the piece's class in the variant's table today.{}",
            if in_pawns {
                " (Fieller's, with the unit's uncertainty)"
            } else {
                ""
            },
            match &scale.best {
                Some(best) if !breaks.is_empty() => format!(
                    " Thin lines: the classes of the best table with {} classes.",
                    best.classes.len()
                ),
                _ => String::new(),
            }
        ),
        x_label: format!("Value, {units}"),
        rows,
        band: None,
        legend,
        decimals: if in_pawns { 2 } else { 0 },
        signed: false,
        brackets: Vec::new(),
        breaks,
    })
}
