//! `pocketlab study` end to end on a small variant written here: the
//! experiment file it writes, the games, the report with a verdict row for
//! every within-class pair, and a second run that resumes instead of
//! playing again.

use std::path::Path;
use std::process::{Command, Output};

const VARIANT: &str = r#"
name = "tiny-classes"
inherits = "chess"
classes = ["P", "BN", "RX"]

[pieces.X]
name = "super bishop"
betza = "BK"
value = 560
"#;

fn study(dir: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pocketlab"))
        .arg("study")
        .arg(dir.join("tiny.toml"))
        .args(["--nodes", "300", "--max-pairs", "4", "--look-every", "2"])
        .args(["--threads", "2", "--quiet", "--out"])
        .arg(dir.join("study"))
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_study_plays_every_within_class_pair_and_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tiny.toml"), VARIANT).unwrap();
    let out = study(dir.path(), &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let folder = dir.path().join("study");
    let experiment = std::fs::read_to_string(folder.join("study.toml")).unwrap();
    assert!(
        experiment.contains("variant = \"../tiny.toml\""),
        "{experiment}"
    );
    assert!(folder.join("report.html").is_file());
    let verdicts = std::fs::read_to_string(folder.join("tables/verdicts.csv")).unwrap();
    // Each row: the group (quoted), then piece A and piece B.
    for (a, b) in [("B", "N"), ("R", "X")] {
        assert!(
            verdicts
                .lines()
                .any(|row| row.contains(&format!("\",{a},{b},"))),
            "no verdict row for {a} vs {b}: {verdicts}"
        );
    }
    let games = std::fs::read_dir(folder.join("log/games")).unwrap().count();

    // The same command again resumes: nothing new is played.
    let again = study(dir.path(), &[]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(
        std::fs::read_dir(folder.join("log/games")).unwrap().count(),
        games
    );

    // Other options would change the study under way: refused, not adopted.
    let other = study(dir.path(), &["--seed", "2"]);
    assert!(!other.status.success());
    let message = String::from_utf8_lossy(&other.stderr);
    assert!(
        message.contains("differs from this study's plan"),
        "{message}"
    );
}

#[test]
fn a_variant_without_classes_is_told_what_to_add() {
    let out = Command::new(env!("CARGO_BIN_EXE_pocketlab"))
        .args(["study", "chess", "--dry-run"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(message.contains("classes = ["), "{message}");
}

#[test]
fn eval_builtin_asks_the_study_for_the_hand_written_weights() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tiny.toml"), VARIANT).unwrap();
    let out = study(dir.path(), &["--dry-run", "--eval", "builtin"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let experiment = std::fs::read_to_string(dir.path().join("study/study.toml")).unwrap();
    assert!(experiment.contains("eval = \"builtin\""), "{experiment}");
}
