//! The value scale's tables for machines: `piece_values.csv` (a row per
//! piece, from the lowest value up, then the pieces without one) and
//! `adjacent_differences.csv` (each valued piece and the next one up the
//! scale). Written only for a report with a value scale; an old copy is
//! removed otherwise. Numbers that do not exist are empty cells.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::super::model::{Report, ValueScale};
use super::csv::{Num, table, write_tables};
use super::error::RenderError;

#[derive(Serialize, Default)]
struct PieceValueRow<'a> {
    letter: &'a str,
    name: &'a str,
    /// The piece's class in the variant's table today.
    class: Option<u8>,
    /// Value in pawns and its 95% interval (empty unless the unit bounds it).
    pawns: Num,
    pawns_lo95: Num,
    pawns_hi95: Num,
    /// Value in logistic Elo against the empty square and its 95% interval.
    elo: Num,
    elo_lo95: Num,
    elo_hi95: Num,
    /// Pairs played by the matchups the piece is in.
    pairs: u64,
}

#[derive(Serialize, Default)]
struct AdjacentRow<'a> {
    /// The lower piece's letter.
    a: &'a str,
    /// The next piece up.
    b: &'a str,
    /// `v(b) - v(a)` in pawns and its 95% interval (Fieller's).
    pawns: Num,
    pawns_lo95: Num,
    pawns_hi95: Num,
}

fn piece_values(scale: &ValueScale) -> Vec<PieceValueRow<'_>> {
    scale
        .pieces
        .iter()
        .map(|p| PieceValueRow {
            letter: &p.letter,
            name: &p.name,
            class: p.class,
            pawns: Num(p.pawns),
            pawns_lo95: Num(p.pawns_lo),
            pawns_hi95: Num(p.pawns_hi),
            elo: Num(p.elo),
            elo_lo95: Num(p.elo_lo),
            elo_hi95: Num(p.elo_hi),
            pairs: p.pairs,
        })
        .collect()
}

fn adjacent_differences(scale: &ValueScale) -> Vec<AdjacentRow<'_>> {
    scale
        .adjacent
        .iter()
        .map(|d| AdjacentRow {
            a: &d.lower,
            b: &d.upper,
            pawns: Num(d.pawns),
            pawns_lo95: Num(d.pawns_lo),
            pawns_hi95: Num(d.pawns_hi),
        })
        .collect()
}

/// Writes the value scale's tables (or removes old copies); their paths.
pub(super) fn write_all(report: &Report, dir: &Path) -> Result<Vec<PathBuf>, RenderError> {
    let scale = report.value_scale.as_ref();
    write_tables(
        dir,
        [
            ("piece_values", scale.map(|s| table(&piece_values(s)))),
            (
                "adjacent_differences",
                scale.map(|s| table(&adjacent_differences(s))),
            ),
        ],
    )
}
