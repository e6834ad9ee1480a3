//! The verdicts' error rates end to end: simulated logs with a known truth,
//! written in the lab's log schema and read by the report, as a designer's
//! run would be. Bishop against knight on the knights' squares (two pieces
//! exchanged), 1,000 pairs, the pawn calibrated by 100 pawn-odds pairs.
//!
//! Run with
//!
//! ```sh
//! POCKETLAB_E2E_LOGS=600 cargo test -p pocketlab-report --test verdict_error_rates -- --ignored --nocapture
//! ```
//!
//! (about 10 minutes on 2 cores for 600 logs per model and truth).
//!
//! (`POCKETLAB_E2E_LOGS=N` sets the logs per model and truth, 600 by default.) The
//! same rates are checked in CI at the statistics level, on simulated counts
//! (`stats::equivalence` and `stats::pawns` tests).

use std::path::Path;

use pocketlab_report::build::{ReportOptions, build_report};
use pocketlab_report::model::PairVerdict;
use pocketlab_report::synthetic::{SyntheticModel, write_synthetic_log};
use pocketlab_selfplay::Experiment;
use pocketlab_stats::error_rate::ObservedRate;

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

/// A simulation model: White's edge, the spread of the openings' bias (Elo,
/// shared by the two games of a pair), the pawn's Elo and the draw rate.
#[derive(Clone, Copy, Debug)]
struct Model {
    white_edge: f64,
    opening_bias: f64,
    pawn: f64,
    draw_rate: f64,
}

/// The suite's model, and the audit's: no White advantage, no correlation
/// within a pair, 100 Elo a pawn, 30% draws.
const MODELS: [Model; 2] = [
    Model {
        white_edge: 20.0,
        opening_bias: 60.0,
        pawn: 107.5,
        draw_rate: 0.3,
    },
    Model {
        white_edge: 0.0,
        opening_bias: 0.0,
        pawn: 100.0,
        draw_rate: 0.3,
    },
];

fn logistic(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo a colour-swapped pair's expected score implies when the armies
/// are `elo` apart in the model: White's edge and the openings' bias (normal,
/// shared by the two games) flatten the curve, so this is the truth the
/// report estimates.
fn effective_elo(model: Model, elo: f64) -> f64 {
    let steps = 4000;
    let (mut total, mut weight) = (0.0, 0.0);
    for i in 0..=steps {
        let z = -8.0 + 16.0 * f64::from(i) / f64::from(steps);
        let w = (-z * z / 2.0).exp();
        let x = model.white_edge + model.opening_bias * z;
        total += w * (logistic(elo + x) + logistic(elo - x)) / 2.0;
        weight += w;
    }
    let score = total / weight;
    400.0 * (score / (1.0 - score)).log10()
}

/// The model's Elo for the bishops' army that makes the true difference
/// `pawns_per_piece` per piece (two pieces), in the effective pawn.
fn bishops_for(model: Model, pawns_per_piece: f64) -> f64 {
    let target = 2.0 * pawns_per_piece * effective_elo(model, model.pawn);
    let (mut lo, mut hi) = (0.0, 400.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if effective_elo(model, mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The B-vs-N verdict of one simulated log.
fn verdict(dir: &Path, model: Model, bishops: f64, seed: u64) -> PairVerdict {
    let exp = Experiment::parse("e.toml", EXPERIMENT, Path::new(".")).unwrap();
    let synthetic = SyntheticModel {
        elo: vec![("B".into(), bishops), ("pawn-odds-f2".into(), -model.pawn)],
        draw_rate: model.draw_rate,
        white_edge_elo: model.white_edge,
        opening_bias_elo: model.opening_bias,
        pairs: 1000,
        matchup_pairs: vec![("base-vs-pawn-odds-f2".into(), 100)],
        seed,
        chunk_games: 10_000,
    };
    let log = dir.join(format!("log-{seed}"));
    write_synthetic_log(&exp, &synthetic, &log).unwrap();
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
        .unwrap_or(600)
}

/// At a true difference of exactly the margin: "equivalent" (alone or
/// beside "stronger") is not shown above 5%, in either model; every
/// printed interval agrees with its verdict; the Elo interval (the
/// difference test's, 95%) covers the truth at its level.
#[test]
#[ignore = "slow: simulated logs through polars; see the module docs"]
fn false_equivalence_at_the_margin_and_interval_coverage_through_the_report() {
    let n = logs();
    let dir = tempfile::tempdir().unwrap();
    for (m, model) in MODELS.into_iter().enumerate() {
        let bishops = bishops_for(model, 0.25);
        let truth_elo = effective_elo(model, bishops);
        let (mut equivalent, mut elo_missed) = (0, 0);
        for seed in 0..n {
            let v = verdict(dir.path(), model, bishops, 1000 + 10_000 * m as u64 + seed);
            equivalent += u64::from(v.kind.is_equivalent());
            assert_agrees(&v);
            let (lo, hi) = v.elo_interval;
            elo_missed += u64::from(!(lo <= truth_elo && truth_elo <= hi));
        }
        let what = format!("{model:?}, truth 0.25 pawns per piece");
        ObservedRate::new(equivalent, n).assert_at_most(0.05, &format!("{what}: 'equivalent'"));
        ObservedRate::new(elo_missed, n)
            .assert_at_most(0.05, &format!("{what}: the 95% Elo interval misses"));
    }
}

/// The intervals printed beside a verdict are the verdict: inside the
/// margin for equivalence, excluding 0 for a difference.
fn assert_agrees(v: &PairVerdict) {
    let (lo, hi) = v.pawns_per_piece_interval;
    if v.kind.is_equivalent() {
        assert!(-0.25 < lo && hi < 0.25, "{}", v.text);
    }
    let (elo_lo, elo_hi) = v.elo_interval;
    assert_eq!(
        elo_lo > 0.0 || elo_hi < 0.0,
        v.kind.shows_stronger(),
        "{}",
        v.text
    );
}

#[test]
#[ignore = "slow: simulated logs through polars; see the module docs"]
fn false_difference_at_zero_through_the_report() {
    let n = logs();
    let dir = tempfile::tempdir().unwrap();
    for (m, model) in MODELS.into_iter().enumerate() {
        let mut different = 0;
        for seed in 0..n {
            let v = verdict(dir.path(), model, 0.0, 5000 + 10_000 * m as u64 + seed);
            assert_agrees(&v);
            different += u64::from(v.kind.shows_stronger());
        }
        ObservedRate::new(different, n)
            .assert_at_most(0.05, &format!("{model:?}, truth 0: 'different'"));
    }
}
