//! A Chess Mutation experiment runs end to end and its report values every
//! square colour: table, per-square CSV and the board heat map.

use std::process::Command;

const TINY_MUTATION: &str = r#"
name = "tiny-mutation"
variant = "chess-mutation"
seed = 3

[engine]
nodes = 300

[openings]
random_plies = 4

[adjudication]
max_plies = 160

[stop]
pairs = 6

[armies.first]

[armies.second]

[[matchups]]
a = "first"
b = "second"
"#;

/// Runs `experiment` with `pocketlab run`; the report's directory.
fn run(dir: &tempfile::TempDir, experiment: &str) -> std::path::PathBuf {
    let file = dir.path().join("tiny.toml");
    std::fs::write(&file, experiment).unwrap();
    let log = dir.path().join("run").join("log");
    let status = Command::new(env!("CARGO_BIN_EXE_pocketlab"))
        .args(["run", file.to_str().unwrap(), "--quiet", "--threads", "2"])
        .args(["--out", log.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    dir.path().join("run")
}

#[test]
fn a_chess_mutation_report_values_each_colour() {
    let dir = tempfile::tempdir().unwrap();
    let report = run(&dir, TINY_MUTATION);

    let markdown = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(markdown.contains("What each square colour is worth"));
    for colour in [
        "yellow (Y)",
        "blue (B)",
        "red (R)",
        "black (K)",
        "white (W)",
    ] {
        assert!(
            markdown.contains(colour),
            "{colour} missing from the report"
        );
    }

    let colours = std::fs::read_to_string(report.join("tables/colour_values.csv")).unwrap();
    let rows: Vec<&str> = colours.lines().collect();
    assert_eq!(rows.len(), 6, "{colours}");
    assert!(rows[0].starts_with("letter,name,betza,squares,occupancy,value"));
    let squares_total: u32 = rows[1..]
        .iter()
        .map(|r| r.split(',').nth(3).unwrap().parse::<u32>().unwrap())
        .sum();
    assert_eq!(squares_total, 64);

    let squares = std::fs::read_to_string(report.join("tables/square_values.csv")).unwrap();
    assert_eq!(squares.lines().count(), 65);
    assert!(squares.contains("\na1,R,"), "{squares}");
    assert!(squares.contains("\nd8,K,"), "{squares}");

    for ext in ["png", "svg"] {
        assert!(report.join(format!("plots/colour-map.{ext}")).exists());
    }
}

#[test]
fn reports_of_variants_without_a_map_have_no_colour_section() {
    let dir = tempfile::tempdir().unwrap();
    let chess = TINY_MUTATION
        .replace("chess-mutation", "chess")
        .replace("pairs = 6", "pairs = 1");
    let report = run(&dir, &chess);
    let markdown = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(!markdown.contains("What each square colour is worth"));
    assert!(!report.join("tables/colour_values.csv").exists());
    assert!(!report.join("plots/colour-map.png").exists());
}
