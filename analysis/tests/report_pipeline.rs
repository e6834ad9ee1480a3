//! The report pipeline on synthetic logs with known answers.

use std::path::{Path, PathBuf};

use pocketlab_analysis::report::build::{ReportOptions, build_report};
use pocketlab_analysis::report::model::VerdictKind;
use pocketlab_analysis::synthetic::{SyntheticModel, write_synthetic_log};
use pocketlab_selfplay::Experiment;

const DEFAULT: &str = include_str!("../../configs/experiments/default.toml");

fn synthetic(dir: &Path, elo: &[(&str, f64)], pairs: u64, seed: u64) -> PathBuf {
    let exp = Experiment::parse("default.toml", DEFAULT, Path::new(".")).unwrap();
    let model = SyntheticModel {
        elo: elo.iter().map(|(n, e)| ((*n).to_owned(), *e)).collect(),
        draw_rate: 0.3,
        white_edge_elo: 20.0,
        opening_bias_elo: 60.0,
        pairs,
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
    // The rook is 30 Elo stronger; the pawn is worth 100 Elo.
    let log = synthetic(
        dir.path(),
        &[("R", 30.0), ("pawn-odds-f2", -100.0)],
        3000,
        1,
    );
    let report = build_report(&[log], &ReportOptions::default()).unwrap();

    assert_eq!(report.calibration.source, "measured");
    let (lo, hi) = report.calibration.interval.unwrap();
    assert!(
        lo < 100.0 && 100.0 < hi,
        "calibration {lo}..{hi} should cover 100 Elo per pawn"
    );

    assert_eq!(
        report.groups.len(),
        1,
        "one class group; the pawn-odds matchup only calibrates"
    );
    let group = &report.groups[0];
    assert_eq!(group.class, Some(3));
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
        assert!(v.text.starts_with("R (rook) is stronger"), "{}", v.text);
    }
    let same = verdict("I", "X");
    assert_eq!(same.kind, VerdictKind::Equivalent, "{}", same.text);
    let rook = group.players.iter().find(|p| p.name == "R").unwrap();
    assert!(
        rook.elo > 10.0,
        "the rook's rating {} should stand out",
        rook.elo
    );
    assert!(
        report.headlines[0].contains("does not hold"),
        "{}",
        report.headlines[0]
    );
    assert!(report.balance.white_score > 0.5);
    assert_eq!(report.balance.games, 4 * 3000 * 2);
}

#[test]
fn equivalence_is_never_claimed_for_a_stronger_piece() {
    for seed in 0..6 {
        let dir = tempfile::tempdir().unwrap();
        let log = synthetic(
            dir.path(),
            &[("I", 30.0), ("pawn-odds-f2", -100.0)],
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
    assert!(
        undecided
            .iter()
            .all(|p| p.more_pairs_needed.is_some_and(|n| n > 20)),
        "{:?}",
        undecided[0].text
    );
    assert!(undecided[0].text.contains("more pairs needed"));
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
