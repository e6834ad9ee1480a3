//! A report of an engine comparison speaks of engines: armies with the same
//! pieces and different engines (here different evaluation parameters, as
//! in training's validation match) get an Elo verdict with its interval
//! and the SPRT's outcome, not piece equivalence, pawns per piece or a
//! strength-of-each-piece plot.

mod common;

use pocketlab_report::build::{ReportOptions, build_report};
use pocketlab_report::model::{Compared, EngineVerdictKind};
use pocketlab_report::render::write_report;

use common::played;

const EXPERIMENT: &str = r#"
name = "eval-match"
variant = "pocket-mutation"
seed = 8
[engine]
nodes = 300
hash_mb = 2
[openings]
random_plies = 4
[adjudication]
max_plies = 60
resign_score = 600
resign_moves = 3
[stop]
pairs = 6
sprt = { elo0 = 0, elo1 = 10 }
[armies.tuned]
engine = { eval = "tuned.toml" }
[armies.initial]
[[matchups]]
a = "tuned"
b = "initial"
"#;

#[test]
fn an_engine_comparison_is_reported_in_elo_with_its_sprt() {
    let (work, log) = played(EXPERIMENT, &[("tuned.toml", "tempo = 40\n")]);
    let report = build_report(std::slice::from_ref(&log), &ReportOptions::default()).unwrap();
    assert_eq!(report.matchups[0].compared, Compared::Engines);
    assert!(report.groups.is_empty(), "engines are not rated as pieces");
    assert_eq!(report.engines.len(), 1);
    let verdict = &report.engines[0];
    assert_eq!(
        (verdict.a.as_str(), verdict.b.as_str()),
        ("tuned", "initial")
    );
    assert!(
        verdict.a_engine.contains("eval=tuned.toml"),
        "{}",
        verdict.a_engine
    );
    assert_eq!(verdict.sprt_elo, Some((0.0, 10.0)));
    let expected_kind = if verdict.elo_interval.0 > 0.0 {
        EngineVerdictKind::Stronger
    } else if verdict.elo_interval.1 < 0.0 {
        EngineVerdictKind::Weaker
    } else {
        EngineVerdictKind::Undecided
    };
    assert_eq!(verdict.kind, expected_kind);
    assert!(verdict.text.contains(" Elo (95%: "), "{}", verdict.text);
    assert!(
        verdict
            .text
            .contains("SPRT of H0: +0 Elo against H1: +10 Elo for tuned − initial: "),
        "{}",
        verdict.text
    );
    assert!(
        report.headlines.iter().any(|h| h.starts_with("Engines: ")),
        "{:?}",
        report.headlines
    );
    assert!(
        !report.notes.iter().any(|n| n.contains("pawn")),
        "no pawn calibration caveat where no piece is valued: {:?}",
        report.notes
    );

    let rendered = write_report(&report, &work.path().join("report")).unwrap();
    let markdown = std::fs::read_to_string(&rendered.markdown).unwrap();
    assert!(
        markdown.starts_with("# Engine comparison: eval-match"),
        "{}",
        &markdown[..80]
    );
    for said in [
        "### Engines",
        "Elo A − B (95% CI)",
        "playing strength",
        "LLR",
    ] {
        assert!(markdown.contains(said), "the report should say '{said}'");
    }
    for unsaid in [
        "Two pieces count as equivalent",
        "strength of each piece",
        "pawns per piece",
        "Strength of each piece",
    ] {
        assert!(!markdown.contains(unsaid), "the report says '{unsaid}'");
    }
    assert!(
        !rendered
            .plots
            .iter()
            .any(|p| p.to_string_lossy().contains("strength")),
        "{:?}",
        rendered.plots
    );
    let engines_csv =
        std::fs::read_to_string(work.path().join("report/tables/engines.csv")).unwrap();
    assert_eq!(engines_csv.lines().count(), 2, "{engines_csv}");
    let matchups_csv =
        std::fs::read_to_string(work.path().join("report/tables/matchups.csv")).unwrap();
    assert!(
        matchups_csv.lines().nth(1).unwrap().ends_with(",engines"),
        "{matchups_csv}"
    );
}

const NODE_MATCH: &str = r#"
name = "node-match"
variant = "chess"
seed = 5
[engine]
hash_mb = 2
[openings]
random_plies = 4
[adjudication]
max_plies = 40
[stop]
pairs = 3
[armies.wide]
engine = { nodes = 600 }
[armies.narrow]
engine = { nodes = 150 }
[[matchups]]
a = "wide"
b = "narrow"
"#;

#[test]
fn search_depth_and_nodes_are_told_per_engine_setting() {
    let (work, log) = played(NODE_MATCH, &[]);
    let report = build_report(std::slice::from_ref(&log), &ReportOptions::default()).unwrap();
    let depths = &report.balance.search_depth;
    let armies: Vec<&[String]> = depths.iter().map(|d| d.armies.as_slice()).collect();
    assert_eq!(
        armies,
        [
            ["narrow".to_owned()].as_slice(),
            ["wide".to_owned()].as_slice()
        ]
    );
    let (narrow, wide) = (&depths[0], &depths[1]);
    // Node limits are exact, so a move credited to the wrong side shows.
    assert!(
        narrow.mean_nodes <= 150.0 && wide.mean_nodes > 150.0 && wide.mean_nodes <= 600.0,
        "narrow {} nodes, wide {}",
        narrow.mean_nodes,
        wide.mean_nodes
    );
    assert!(
        wide.mean >= narrow.mean,
        "wide {} narrow {}",
        wide.mean,
        narrow.mean
    );
    // Every searched move is counted once: 40 plies less the 4 of the
    // opening per game at most, and both sides moved.
    assert!(narrow.moves > 0 && narrow.moves + wide.moves <= 6 * 36);

    let out = work.path().join("report");
    write_report(&report, &out).unwrap();
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    for army in ["narrow", "wide"] {
        let row = markdown
            .lines()
            .find(|line| line.starts_with(&format!("| Search depth, {army} |")))
            .unwrap_or_else(|| panic!("no search depth row for {army}"));
        assert!(row.contains("nodes a move"), "{row}");
    }
}
