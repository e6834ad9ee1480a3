//! Every row of the independent perft oracle must match exactly.
//!
//! Rows up to `QUICK_LIMIT` leaves run by default; set
//! `POCKETLAB_FULL_PERFT=1` to run every row (about a minute in release).

mod perft_table;

use perft_table::rows;
use pocketlab_core::builtin;
use pocketlab_core::perft::{perft, perft_divide};
use pocketlab_core::{Position, notation};

const QUICK_LIMIT: u64 = 5_000_000;

fn full() -> bool {
    std::env::var_os("POCKETLAB_FULL_PERFT").is_some()
}

fn check(text: &str) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for row in rows(text) {
        if row.nodes > QUICK_LIMIT && !full() {
            continue;
        }
        let variant = builtin::load(&row.variant).unwrap_or_else(|e| panic!("{}: {e}", row.id));
        let pos =
            Position::from_fen(&variant, &row.fen).unwrap_or_else(|e| panic!("{}: {e}", row.id));
        let got = perft(&pos, row.depth);
        ran += 1;
        if got != row.nodes {
            failures.push(format!(
                "{} depth {}: expected {}, got {}",
                row.id, row.depth, row.nodes, got
            ));
        }
    }
    assert!(ran > 0);
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

#[test]
fn oracle_perft_counts_match() {
    check(include_str!("data/oracle_perft.tsv"));
}

#[test]
fn published_chess_perft_counts_match() {
    check(include_str!("data/perft_published.tsv"));
}

/// `(variant, fen, move, nodes)` of one divide line.
type DivideRow = (String, String, String, u64);

#[test]
fn oracle_divide_counts_match_per_root_move() {
    let text = include_str!("data/oracle_perft_divide.tsv");
    let mut by_position: std::collections::BTreeMap<(String, u32), Vec<DivideRow>> =
        Default::default();
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let key = (f[0].to_owned(), f[3].parse().unwrap());
        by_position.entry(key).or_default().push((
            f[1].into(),
            f[2].into(),
            f[4].into(),
            f[5].parse().unwrap(),
        ));
    }
    for ((id, depth), moves) in by_position {
        let (variant_name, fen) = (&moves[0].0, &moves[0].1);
        let variant = builtin::load(variant_name).unwrap();
        let pos = Position::from_fen(&variant, fen).unwrap();
        let mut ours: Vec<(String, u64)> = perft_divide(&pos, depth)
            .into_iter()
            .map(|(m, n)| (notation::format(&pos, m), n))
            .collect();
        let mut theirs: Vec<(String, u64)> =
            moves.iter().map(|(_, _, m, n)| (m.clone(), *n)).collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{id} depth {depth}");
    }
}
