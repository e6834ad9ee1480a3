//! The verdicts' error rates end to end: simulated logs with a known truth,
//! written in the lab's log schema and read by the report, as a designer's
//! run would be. Bishop against knight on the knights' squares (two pieces
//! exchanged), 1,000 pairs, the pawn calibrated by 100 pawn-odds pairs.
//!
//! Slow in the test profile (polars unoptimised): run with
//!
//! ```sh
//! cargo test --release -p pocketlab-analysis --test verdict_error_rates -- --ignored --nocapture
//! ```
//!
//! (`POCKETLAB_E2E_LOGS=N` sets the logs per scenario, 200 by default.) The
//! same rates are checked in CI at the statistics level, on simulated counts
//! (`stats::equivalence` and `stats::pawns` tests).

use std::path::Path;

use pocketlab_analysis::report::build::{ReportOptions, build_report};
use pocketlab_analysis::report::model::{PairVerdict, VerdictKind};
use pocketlab_analysis::synthetic::{SyntheticModel, write_synthetic_log};
use pocketlab_selfplay::Experiment;

const EXPERIMENT: &str = r#"
name = "bishop-vs-knight"
variant = "pocket-mutation"
seed = 1
[[generators]]
kind = "class-equivalence"
class = 2
slots = "N"
[[generators]]
kind = "pawn-odds"
square = "f2"
"#;

/// White's edge and the spread of the openings' bias, in Elo.
const WHITE_EDGE: f64 = 20.0;
const OPENING_BIAS: f64 = 60.0;
/// The pawn's Elo in the simulation's model.
const PAWN: f64 = 107.5;

fn logistic(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo a colour-swapped pair's expected score implies when the armies
/// are `elo` apart in the model: White's edge and the openings' bias (normal,
/// shared by the two games) flatten the curve, so this is the truth the
/// report estimates.
fn effective_elo(elo: f64) -> f64 {
    let steps = 4000;
    let (mut total, mut weight) = (0.0, 0.0);
    for i in 0..=steps {
        let z = -8.0 + 16.0 * f64::from(i) / f64::from(steps);
        let w = (-z * z / 2.0).exp();
        let x = WHITE_EDGE + OPENING_BIAS * z;
        total += w * (logistic(elo + x) + logistic(elo - x)) / 2.0;
        weight += w;
    }
    let score = total / weight;
    400.0 * (score / (1.0 - score)).log10()
}

/// The model's Elo for the bishops' army that makes the true difference
/// `pawns_per_piece` per piece (two pieces), in the effective pawn.
fn bishops_for(pawns_per_piece: f64) -> f64 {
    let target = 2.0 * pawns_per_piece * effective_elo(PAWN);
    let (mut lo, mut hi) = (0.0, 400.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if effective_elo(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The B-vs-N verdict of one simulated log.
fn verdict(dir: &Path, bishops: f64, seed: u64) -> PairVerdict {
    let exp = Experiment::parse("e.toml", EXPERIMENT, Path::new(".")).unwrap();
    let model = SyntheticModel {
        elo: vec![("B".into(), bishops), ("pawn-odds-f2".into(), -PAWN)],
        draw_rate: 0.3,
        white_edge_elo: WHITE_EDGE,
        opening_bias_elo: OPENING_BIAS,
        pairs: 1000,
        matchup_pairs: vec![("base-vs-pawn-odds-f2".into(), 100)],
        seed,
        chunk_games: 10_000,
    };
    let log = dir.join(format!("log-{seed}"));
    write_synthetic_log(&exp, &model, &log).unwrap();
    let report = build_report(std::slice::from_ref(&log), &ReportOptions::default()).unwrap();
    std::fs::remove_dir_all(&log).unwrap();
    let group = &report.groups[0];
    assert_eq!(group.pieces, Some(2));
    group.pairs[0].clone()
}

fn logs() -> u64 {
    std::env::var("POCKETLAB_E2E_LOGS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

/// α plus 2.5 simulation SDs.
fn ceiling(n: u64) -> f64 {
    0.05 + 2.5 * (0.05 * 0.95 / n as f64).sqrt()
}

#[test]
#[ignore = "slow: simulated logs through polars; see the module docs"]
fn false_equivalence_at_the_margin_and_pawn_interval_coverage_through_the_report() {
    let n = logs();
    let dir = tempfile::tempdir().unwrap();
    let bishops = bishops_for(0.25);
    let (mut equivalent, mut covered) = (0, 0);
    for seed in 0..n {
        let v = verdict(dir.path(), bishops, 1000 + seed);
        equivalent += u64::from(v.kind == VerdictKind::Equivalent);
        let (lo, hi) = v.pawns_per_piece_interval;
        covered += u64::from(lo <= 0.25 && 0.25 <= hi);
    }
    let (rate, coverage) = (equivalent as f64 / n as f64, covered as f64 / n as f64);
    eprintln!(
        "truth 0.25 pawns per piece (model Elo {bishops:.2}): 'equivalent' in {equivalent} of {n} logs \
         ({rate:.3}); the 95% per-piece interval covered the truth in {covered} ({coverage:.3})"
    );
    assert!(rate <= ceiling(n), "false equivalence {rate}");
    assert!(
        coverage >= 0.95 - 2.5 * (0.05 * 0.95 / n as f64).sqrt(),
        "coverage {coverage}"
    );
}

#[test]
#[ignore = "slow: simulated logs through polars; see the module docs"]
fn false_difference_at_zero_through_the_report() {
    let n = logs();
    let dir = tempfile::tempdir().unwrap();
    let mut different = 0;
    for seed in 0..n {
        let v = verdict(dir.path(), 0.0, 5000 + seed);
        different += u64::from(v.kind == VerdictKind::Different);
    }
    let rate = different as f64 / n as f64;
    eprintln!("truth 0: 'different' in {different} of {n} logs ({rate:.3})");
    assert!(rate <= ceiling(n), "false difference {rate}");
}
