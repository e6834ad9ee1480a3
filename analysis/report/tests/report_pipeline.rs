//! The report pipeline on synthetic logs with known answers.

use std::path::{Path, PathBuf};

use pocketlab_report::build::{ReportOptions, build_report};
use pocketlab_report::model::{AdaptiveStatus, CalibrationSource, VerdictKind};
use pocketlab_report::synthetic::{SyntheticModel, write_synthetic_log};
use pocketlab_selfplay::Experiment;

const DEFAULT: &str = include_str!("../../../configs/experiments/default.toml");

/// The default experiment with a fixed number of pairs instead of its
/// sequential design: the fixed-sample verdicts are what these tests check.
fn fixed_default() -> String {
    let mut out = String::new();
    for line in DEFAULT.lines() {
        let key = line.split('=').next().unwrap_or("").trim();
        if ["design", "max_pairs", "look_every", "budget_games"].contains(&key) {
            continue;
        }
        out.push_str(line);
        out.push('\n');
        if line.trim() == "[stop]" {
            out.push_str("pairs = 40\n");
        }
    }
    out
}

fn synthetic(dir: &Path, elo: &[(&str, f64)], pairs: u64, seed: u64) -> PathBuf {
    synthetic_of(&fixed_default(), dir, elo, pairs, seed)
}

fn synthetic_of(text: &str, dir: &Path, elo: &[(&str, f64)], pairs: u64, seed: u64) -> PathBuf {
    let exp = Experiment::parse("default.toml", text, Path::new(".")).unwrap();
    let model = SyntheticModel {
        elo: elo.iter().map(|(n, e)| ((*n).to_owned(), *e)).collect(),
        draw_rate: 0.3,
        white_edge_elo: 20.0,
        opening_bias_elo: 60.0,
        pairs,
        matchup_pairs: Vec::new(),
        seed,
        chunk_games: 5000,
    };
    let log = dir.join("log");
    write_synthetic_log(&exp, &model, &log).unwrap();
    log
}

#[test]
fn a_stronger_piece_is_found_different_and_equal_pieces_equivalent() {
    let dir = tempfile::tempdir().unwrap();
    // The rook army is 80 Elo stronger (two rooks: 0.4 pawns per piece,
    // beyond the margin); the pawn is worth 100 Elo.
    let log = synthetic(
        dir.path(),
        &[("R", 80.0), ("pawn-odds-f2", -100.0)],
        3000,
        1,
    );
    let report = build_report(&[log], &ReportOptions::default()).unwrap();

    assert_eq!(report.calibration.source, CalibrationSource::Measured);
    let (lo, hi) = report.calibration.interval.unwrap();
    // Averaged over the openings' bias the pawn's 100 Elo score as 97.
    assert!(
        lo < 97.0 && 97.0 < hi,
        "calibration {lo}..{hi} should cover the effective 97 Elo per pawn"
    );
    assert!(report.calibration.std_error > 0.0);

    assert_eq!(
        report.groups.len(),
        1,
        "one class group; the pawn-odds matchup only calibrates"
    );
    let group = &report.groups[0];
    assert_eq!(group.class, Some(3));
    assert_eq!(
        group.pieces,
        Some(2),
        "class 3 on the rooks' squares exchanges two pieces"
    );
    let verdict = |a: &str, b: &str| {
        group
            .pairs
            .iter()
            .find(|p| (p.a == a && p.b == b) || (p.a == b && p.b == a))
            .unwrap()
    };
    for other in ["I", "X"] {
        let v = verdict("R", other);
        assert_eq!(v.kind, VerdictKind::Different, "{}", v.text);
        assert!(v.text.starts_with("Rook stronger than "), "{}", v.text);
        assert!(v.text.contains(" pawns ("), "{}", v.text);
        assert!((v.pawns_per_piece - v.pawns / 2.0).abs() < 1e-12);
        assert_eq!(v.pieces, Some(2));
    }
    let same = verdict("I", "X");
    assert_eq!(same.kind, VerdictKind::Equivalent, "{}", same.text);
    let rook = group.players.iter().find(|p| p.name == "R").unwrap();
    assert!(
        rook.elo > 10.0,
        "the rook's rating {} should stand out",
        rook.elo
    );
    assert!((rook.pawns_per_piece - rook.pawns / 2.0).abs() < 1e-12);
    assert!(
        group
            .summary
            .contains(": fails (2 of 3 pairs are different)"),
        "{}",
        group.summary
    );
    // What to change names the piece that stands apart, and backs it.
    assert_eq!(
        group.advice,
        "Class 3 fails: Rook stands apart, stronger than each of the others (nightrider and super \
         bishop): move it up a class, or weaken it. Nightrider and super bishop are equivalent and can \
         stay together."
    );
    assert!(report.notes.iter().any(|n| n.contains("Per-piece figures")));
    assert!(report.balance.white_score > 0.5);
    let (wlo, whi) = report.balance.white_score_interval;
    assert!(wlo < report.balance.white_score && report.balance.white_score < whi);
    assert_eq!(report.balance.games, 4 * 3000 * 2);
}

#[test]
fn equivalence_is_never_claimed_for_a_piece_stronger_than_the_margin() {
    for seed in 0..6 {
        let dir = tempfile::tempdir().unwrap();
        // 80 Elo for two pieces: 0.4 pawns per piece, beyond the 0.25 margin.
        let log = synthetic(
            dir.path(),
            &[("I", 80.0), ("pawn-odds-f2", -100.0)],
            600,
            100 + seed,
        );
        let report = build_report(&[log], &ReportOptions::default()).unwrap();
        for p in &report.groups[0].pairs {
            if p.a == "I" || p.b == "I" {
                assert_ne!(p.kind, VerdictKind::Equivalent, "seed {seed}: {}", p.text);
            }
        }
    }
}

#[test]
fn small_samples_ask_for_more_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let log = synthetic(dir.path(), &[("pawn-odds-f2", -100.0)], 20, 5);
    let report = build_report(&[log], &ReportOptions::default()).unwrap();
    let undecided: Vec<_> = report.groups[0]
        .pairs
        .iter()
        .filter(|p| p.kind == VerdictKind::Inconclusive)
        .collect();
    assert!(!undecided.is_empty());
    for p in &undecided {
        // More pairs of the matchup, or (the calibration from 20 pairs being
        // vague) more pawn-odds pairs: either way the report says which.
        match p.more_pairs_needed {
            Some(n) => {
                assert!(n > 20, "{}", p.text);
                let plan = format!("(about {n} more pairs)");
                assert!(
                    report.groups[0].advice.contains(&plan),
                    "{}",
                    report.groups[0].advice
                );
            }
            None => {
                assert!(p.more_calibration_needed, "{}", p.text);
                assert!(
                    report.groups[0].advice.contains("more pawn-odds pairs"),
                    "{}",
                    report.groups[0].advice
                );
            }
        }
    }
}

/// A pawn-odds matchup in which the side a pawn up does not score above
/// 50%: the report says so, gives no pawn figures and claims no
/// equivalence, rather than quietly assuming 15% per pawn.
#[test]
fn a_pawn_odds_matchup_without_advantage_is_reported_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let log = synthetic(dir.path(), &[("pawn-odds-f2", 10.0), ("R", 40.0)], 1500, 21);
    let report = build_report(&[log], &ReportOptions::default()).unwrap();
    assert_eq!(
        report.calibration.source,
        CalibrationSource::NoPawnAdvantage
    );
    assert!(report.calibration.elo_per_pawn.is_nan());
    assert!(
        report.headlines[0].starts_with("No pawn unit")
            && report.headlines[0].contains("no pawn advantage"),
        "{}",
        report.headlines[0]
    );
    for p in &report.groups[0].pairs {
        assert!(!p.kind.is_equivalent(), "{}", p.text);
        assert!(p.pawns.is_nan() && p.pawns_per_piece.is_nan(), "{p:?}");
        if p.a == "R" || p.b == "R" {
            assert_eq!(p.kind, VerdictKind::Different, "{}", p.text);
            assert!(
                p.text.contains("size in pawns is not yet known"),
                "{}",
                p.text
            );
        }
    }
}

#[test]
fn damaged_or_missing_logs_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let err = build_report(&[dir.path().join("nowhere")], &ReportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("nowhere"), "{err}");
    let log = synthetic(dir.path(), &[], 50, 9);
    let chunk = std::fs::read_dir(log.join("games"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::write(&chunk, b"PAR1 this is not parquet").unwrap();
    let err = build_report(&[log], &ReportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&*chunk.file_name().unwrap().to_string_lossy()) || err.contains("games"),
        "{err}"
    );
}

/// The default experiment's own design: a log it could have written (20
/// pairs of equal pieces: two looks, nothing decided yet) gets the design's
/// account; one holding pairs the design never scheduled (a rook two pawns a
/// piece stronger is decided by the second look, yet has 30 pairs) gets
/// fixed-sample verdicts and a note saying so.
#[test]
fn the_design_speaks_only_for_logs_it_could_have_written() {
    let dir = tempfile::tempdir().unwrap();
    let log = synthetic_of(
        DEFAULT,
        &dir.path().join("in-design"),
        &[("pawn-odds-f2", -100.0)],
        20,
        3,
    );
    let report = build_report(&[log], &ReportOptions::default()).unwrap();
    let adaptive = report.adaptive.as_ref().expect("the design's account");
    assert_eq!(adaptive.looks_done, 2);
    assert_eq!(adaptive.next_stage, Some(3));
    assert_eq!(adaptive.games, 2 * 20 * 4);
    assert_eq!(adaptive.matchups.len(), 3);
    for m in &adaptive.matchups {
        assert_eq!(m.status, AdaptiveStatus::Playing, "{}", m.text);
        assert_eq!(m.pairs, 20);
    }
    assert!(
        report.groups[0]
            .pairs
            .iter()
            .all(|p| p.sequential.is_some())
    );
    assert!(!report.notes.iter().any(|n| n.contains("did not schedule")));

    let log = synthetic_of(
        DEFAULT,
        &dir.path().join("beyond"),
        &[("R", 400.0), ("pawn-odds-f2", -100.0)],
        30,
        4,
    );
    let report = build_report(&[log], &ReportOptions::default()).unwrap();
    assert!(report.adaptive.is_none(), "{:#?}", report.adaptive);
    let note = report
        .notes
        .iter()
        .find(|n| n.contains("did not schedule"))
        .expect("a note on the log");
    assert!(
        note.contains("fixed-sample") && note.contains("R-vs-"),
        "{note}"
    );
    assert!(
        report.groups[0]
            .pairs
            .iter()
            .all(|p| p.sequential.is_none())
    );
}

#[test]
fn a_comparison_finds_the_pair_that_moved_and_keeps_the_others() {
    use pocketlab_report::compare::{Shift, compare};
    let first_dir = tempfile::tempdir().unwrap();
    let second_dir = tempfile::tempdir().unwrap();
    // Both studies: the rook 80 Elo above the others. The second study
    // also lifts the nightrider by 80 Elo (0.4 pawns per piece): only the
    // pairs with the nightrider move.
    let first = synthetic(
        first_dir.path(),
        &[("R", 80.0), ("pawn-odds-f2", -100.0)],
        3000,
        3,
    );
    let second = synthetic(
        second_dir.path(),
        &[("R", 80.0), ("I", 80.0), ("pawn-odds-f2", -100.0)],
        3000,
        4,
    );
    let options = ReportOptions::default();
    let first = build_report(&[first], &options).unwrap();
    let second = build_report(&[second], &options).unwrap();
    let cmp = compare(&first, &second, "before", "after");
    assert_eq!(cmp.pairs.len(), 3, "{cmp:?}");
    assert!(cmp.only_first.is_empty() && cmp.only_second.is_empty());
    for p in &cmp.pairs {
        let moved = p.a == "I" || p.b == "I";
        let expected = if moved { Shift::Moved } else { Shift::Agree };
        assert_eq!(p.shift, expected, "{p:?}");
        assert!((p.elo_change - (p.second.elo_per_piece - p.first.elo_per_piece)).abs() < 1e-9);
        // The change interval excludes 0 exactly when the pair moved.
        let (lo, hi) = p.elo_change_interval;
        assert_eq!(lo > 0.0 || hi < 0.0, moved, "{p:?}");
        if moved {
            // The nightrider gained 40 Elo per piece (80 for the two
            // exchanged) against either other piece.
            let toward_i = if p.a == "I" {
                p.elo_change
            } else {
                -p.elo_change
            };
            assert!(
                toward_i > 20.0 && lo <= p.elo_change && p.elo_change <= hi,
                "{p:?}"
            );
        }
    }
    // Against itself nothing moves and every verdict stays.
    let same = compare(&first, &first, "a", "a");
    assert!(
        same.pairs
            .iter()
            .all(|p| p.shift == Shift::Agree && p.elo_change == 0.0)
    );
}
