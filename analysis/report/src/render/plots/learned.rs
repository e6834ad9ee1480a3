//! Training's learned piece values as a ladder, coloured by the class the
//! variant puts each piece in: a piece whose bar sits among another
//! colour is the one to look at.

use super::super::super::model::Report;
use super::super::derived::piece_label;
use super::super::format::{count, truncate};
use super::forest::{Forest, ForestRow};
use super::style::palette;

/// `None` unless the report holds training values.
pub(super) fn plot(report: &Report) -> Option<Forest> {
    let t = report.training.as_ref()?;
    if t.pieces.is_empty() {
        return None;
    }
    let mut classes: Vec<Option<u8>> = t.pieces.iter().map(|p| p.class).collect();
    classes.sort();
    classes.dedup();
    let colour = |class: Option<u8>| palette(classes.iter().position(|c| *c == class).unwrap_or(0));
    let class_name =
        |class: Option<u8>| class.map_or("no class".to_owned(), |c| format!("class {c}"));
    let mut rows: Vec<ForestRow> = t
        .pieces
        .iter()
        .map(|p| ForestRow {
            label: format!(
                "{} · {}",
                truncate(&piece_label(&p.letter, &p.name), 28),
                class_name(p.class)
            ),
            value: p.value,
            lo: p.interval.0,
            hi: p.interval.1,
            colour: colour(p.class),
        })
        .collect();
    let key = |r: &ForestRow| {
        if r.value.is_finite() {
            r.value
        } else {
            f64::NEG_INFINITY
        }
    };
    rows.sort_by(|a, b| key(b).total_cmp(&key(a)));
    let legend = if classes.len() > 1 {
        classes
            .iter()
            .map(|c| (class_name(*c), colour(*c)))
            .collect()
    } else {
        Vec::new()
    };
    let generations = if t.generations == 1 {
        "1 generation".to_owned()
    } else {
        format!("{} generations", count(t.generations as u64))
    };
    Some(Forest {
        title: format!("Learned piece values after {generations} of training"),
        subtitle: "Highest first, coloured by the variant's class. Bars: 95% intervals.".to_owned(),
        x_label: "learned value in pawns".to_owned(),
        rows,
        band: None,
        legend,
        decimals: 2,
        signed: false,
        brackets: Vec::new(),
        breaks: Vec::new(),
    })
}
