//! How much each piece takes part in pocket moves: a piece that is never
//! pocketed or dropped hardly tests the pocket rules, which matters when
//! reading its verdict.

use super::super::super::model::Report;
use super::super::derived::{POCKET_USE as PLOT, piece_label};
use super::super::doc::{Align, Doc, Table};
use super::super::format::{count, games};
use super::POCKET_USE;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    doc.heading(2, POCKET_USE);
    if report.pocket_use.is_empty() {
        doc.paragraph("No pocket moves were logged (the variant may have no pockets).");
        return;
    }
    doc.aside(format!(
        "Counts over all {}. Pocketed: put into a pocket. Mutated from / into: pocketed on ranks 1-7 and \
         exchanged for another piece of its class. Promoted into: gained by pocketing a piece on the last rank \
         (or by ordinary promotion). Dropped: put back on the board from a pocket.",
        games(report.balance.games)
    ));
    let mut table = Table::new(&[
        ("Piece", Align::Left),
        ("Pocketed", Align::Right),
        ("Mutated from", Align::Right),
        ("Mutated into", Align::Right),
        ("Promoted into", Align::Right),
        ("Dropped", Align::Right),
    ]);
    for p in &report.pocket_use {
        table.push(vec![
            piece_label(&p.letter, &p.name),
            count(p.pocket_ins),
            count(p.mutated_from),
            count(p.mutated_into),
            count(p.promoted_into),
            count(p.drops),
        ]);
    }
    doc.table(table);
    doc.figure(PLOT, "");
}
