//! Every piece of a value scale on one axis, strongest first, with its 95%
//! interval, coloured by its class in the variant's table today: where the
//! classes overlap on the scale is where the table and the values disagree.
//! Right of the plot, one bracket per class: today's (in the class's
//! colour) beside the proposed table's (grey: the fewest classes that can
//! hold with class studies' verdicts when the report has them, else the
//! best table with as many classes), which thin lines across the plot
//! also mark.

use super::super::super::model::Report;
use super::super::derived::piece_label;
use super::forest::{Bracket, Forest, ForestRow};
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
    // The proposed table's class of each row, top (strongest) down.
    let holdable = scale.known.as_ref().and_then(|k| k.table.as_ref());
    let proposed = holdable.or(scale.best.as_ref());
    let best_class = |letter: &str| {
        proposed.and_then(|t| {
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
    let today: Vec<Option<usize>> = valued
        .iter()
        .rev()
        .map(|p| p.class.map(usize::from))
        .collect();
    let mut brackets = class_brackets(&today, 0, |class| colour(class.map(|c| c as u8)));
    if proposed.is_some() {
        brackets.extend(class_brackets(&row_classes, 1, |_| MUTED));
    }
    Some(Forest {
        title: format!("All {} valued pieces on one scale", rows.len()),
        subtitle: format!(
            "Value in {units}, 95% intervals{}. Colour, first bracket: the class today.{}",
            if in_pawns {
                " (with the unit's uncertainty)"
            } else {
                ""
            },
            match (holdable, &scale.best) {
                (Some(table), _) => format!(
                    " Grey bracket, thin lines: the fewest classes that can hold ({}).",
                    table.classes.len()
                ),
                (None, Some(best)) => format!(
                    " Grey bracket, thin lines: the best table with {} classes.",
                    best.classes.len()
                ),
                (None, None) => String::new(),
            }
        ),
        x_label: format!("Value, {units}"),
        rows,
        band: None,
        legend,
        decimals: if in_pawns { 2 } else { 0 },
        signed: false,
        brackets,
        breaks,
    })
}

/// One bracket in `lane` for every run of consecutive rows in the same
/// class (a class split by another's piece gets one bracket per run).
fn class_brackets(
    classes: &[Option<usize>],
    lane: usize,
    colour: impl Fn(Option<usize>) -> plotters::style::RGBColor,
) -> Vec<Bracket> {
    let mut brackets = Vec::new();
    let mut from = 0;
    for to in 0..classes.len() {
        if to + 1 == classes.len() || classes[to + 1] != classes[to] {
            if classes[to].is_some() {
                brackets.push(Bracket {
                    from,
                    to,
                    lane,
                    colour: colour(classes[to]),
                });
            }
            from = to + 1;
        }
    }
    brackets
}
