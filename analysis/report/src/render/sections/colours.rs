//! What standing on each colour of the square-colour map is worth (Chess
//! Mutation): the designer's map, read back from the games. Only written
//! for variants with a map.

use super::super::super::model::Report;
use super::super::derived::COLOUR_MAP;
use super::super::doc::{Align, Doc, Table};
use super::super::format::{NA, count, fixed, value_interval};
use super::COLOURS;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    let Some(values) = &report.colour_values else {
        return;
    };
    doc.heading(2, COLOURS);
    if values.positions == 0 {
        doc.paragraph(
            "No quiet position could be sampled from the logged games, so no colour could be valued.",
        );
        return;
    }
    doc.aside(format!(
        "Fitted to the results of {} games over {} quiet positions: a logistic regression of the result on how \
         many pieces (kings excepted) each side had on each colour. 1.00 is the average piece, weighted by where \
         pieces stood; 1.30 means a piece standing on that colour is worth 30% more to the game's result. \
         Intervals are 95% bootstrap intervals over games.",
        count(values.games),
        count(values.positions)
    ));
    let mut table = Table::new(&[
        ("Colour", Align::Left),
        ("Move there", Align::Left),
        ("Squares", Align::Right),
        ("Pieces standing there", Align::Right),
        ("Value (average piece = 1)", Align::Right),
    ]);
    for c in &values.colours {
        let value = if c.value.is_finite() {
            if c.interval.0.is_finite() {
                value_interval(c.value, c.interval, 2)
            } else {
                format!(
                    "{} (too rarely occupied for an interval)",
                    fixed(c.value, 2)
                )
            }
        } else {
            NA.to_owned()
        };
        table.push(vec![
            format!("{} ({})", c.name, c.letter),
            c.betza.clone(),
            count(u64::from(c.squares)),
            fixed(c.occupancy, 2),
            value,
        ]);
    }
    doc.table(table);
    doc.figure(
        COLOUR_MAP,
        "Each square: its colour's letter and the value of a piece standing there, seen from its owner's side \
         (Black's squares mirrored onto White's), shrunk towards its colour's value where pieces rarely stood.",
    );
}
