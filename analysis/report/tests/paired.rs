//! Two players' runs against one opponent from the same openings, paired
//! opening by opening (`pocketlab paired`): the pairs are the logs' own,
//! matched by index, and runs from other openings are refused.

mod common;

use pocketlab_report::build::{ReportOptions, build_report};
use pocketlab_report::paired::{LogPairs, MatchedPairs};
use pocketlab_stats::estimate::ConfidenceLevel;

use common::played;

/// A player (its evaluation in `player.toml`) against the built-in
/// weights, 6 pairs from random openings of `seed`.
fn experiment(seed: u64) -> String {
    format!(
        r#"
name = "player-vs-sparring"
variant = "chess"
seed = {seed}
[engine]
nodes = 200
hash_mb = 1
[openings]
random_plies = 4
[adjudication]
max_plies = 60
resign_score = 600
resign_moves = 3
[stop]
pairs = 6
[armies.player]
engine = {{ eval = "player.toml" }}
[armies.sparring]
[[matchups]]
a = "player"
b = "sparring"
"#
    )
}

#[test]
fn runs_from_the_same_openings_pair_by_opening() {
    let (_a, first) = played(&experiment(21), &[("player.toml", "tempo = 60\n")]);
    let (_b, second) = played(&experiment(21), &[("player.toml", "tempo = 0\n")]);
    let a = LogPairs::read(&first, None).unwrap();
    let b = LogPairs::read(&second, Some("player")).unwrap();
    assert_eq!((a.army.as_str(), a.len(), a.unfinished), ("player", 6, 0));
    assert_eq!(b.len(), 6);
    // Each log's pairs score what its report says.
    let level = ConfidenceLevel::NINETY_FIVE;
    for (log, pairs) in [(&first, &a), (&second, &b)] {
        let report = build_report(std::slice::from_ref(log), &ReportOptions::default()).unwrap();
        let summary = pairs.summary(level).unwrap();
        assert_eq!(report.engines[0].pairs, summary.samples);
        assert!((report.engines[0].elo - summary.elo).abs() < 1e-9);
    }
    let matched = MatchedPairs::of(&a, &b).unwrap();
    assert_eq!(
        (matched.pairs.len(), matched.first_only, matched.second_only),
        (6, 0, 0)
    );
    let d = matched.difference(level).unwrap();
    let mean = |side: fn(&(u8, u8)) -> u8| {
        matched
            .pairs
            .iter()
            .map(|p| f64::from(side(p)))
            .sum::<f64>()
            / 24.0
    };
    assert!((d.score_difference - (mean(|p| p.0) - mean(|p| p.1))).abs() < 1e-12);
    // The opponent's side of the same log is the mirror of the player's.
    let sparring = LogPairs::read(&first, Some("sparring")).unwrap();
    let mirrored = MatchedPairs::of(&a, &sparring).unwrap();
    assert!(mirrored.pairs.iter().all(|&(p, s)| p + s == 4));
}

#[test]
fn runs_from_other_openings_or_without_the_army_are_refused() {
    let (_a, first) = played(&experiment(21), &[("player.toml", "tempo = 60\n")]);
    let (_b, other) = played(&experiment(22), &[("player.toml", "tempo = 60\n")]);
    let a = LogPairs::read(&first, None).unwrap();
    let b = LogPairs::read(&other, None).unwrap();
    let error = MatchedPairs::of(&a, &b).unwrap_err().to_string();
    assert!(error.contains("not the same openings"), "{error}");
    let error = LogPairs::read(&first, Some("nobody"))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("no army 'nobody'") && error.contains("player, sparring"),
        "{error}"
    );
}
