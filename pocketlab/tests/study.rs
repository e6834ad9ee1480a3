//! `pocketlab study` end to end on a small variant written here: the
//! experiment file it writes, the games, the report with a verdict row for
//! every within-class pair, and a second run that resumes instead of
//! playing again.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{refused, succeeded};

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
    succeeded(&out);
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
    succeeded(&again);
    assert_eq!(
        std::fs::read_dir(folder.join("log/games")).unwrap().count(),
        games
    );

    // Other options would change the study under way: refused, not adopted.
    let other = study(dir.path(), &["--seed", "2"]);
    let message = refused(&other);
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
    let message = refused(&out);
    assert!(message.contains("classes = ["), "{message}");
}

#[test]
fn eval_builtin_asks_the_study_for_the_hand_written_weights() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tiny.toml"), VARIANT).unwrap();
    let out = study(dir.path(), &["--dry-run", "--eval", "builtin"]);
    succeeded(&out);
    let experiment = std::fs::read_to_string(dir.path().join("study/study.toml")).unwrap();
    assert!(experiment.contains("eval = \"builtin\""), "{experiment}");
}

#[test]
fn a_scale_study_values_every_piece_and_proposes_a_table() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tiny.toml"), VARIANT).unwrap();
    let folder = dir.path().join("scale");
    let out = Command::new(env!("CARGO_BIN_EXE_pocketlab"))
        .arg("study")
        .arg(dir.path().join("tiny.toml"))
        .args([
            "--scale",
            "--nodes",
            "200",
            "--max-pairs",
            "30",
            "--games",
            "600",
        ])
        .args(["--threads", "2", "--quiet", "--out"])
        .arg(&folder)
        .output()
        .unwrap();
    succeeded(&out);
    let experiment = std::fs::read_to_string(folder.join("study.toml")).unwrap();
    assert!(
        experiment.contains("design = \"value-scale\""),
        "{experiment}"
    );
    // The knight is White's least valuable piece: the scale is on b1.
    assert!(experiment.contains("square = \"b1\""), "{experiment}");
    let values = std::fs::read_to_string(folder.join("tables/piece_values.csv")).unwrap();
    let letters: Vec<&str> = values
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    let mut sorted = letters.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ["B", "N", "P", "R", "X"], "{values}");
    let proposed = std::fs::read_to_string(folder.join("proposed-classes.toml")).unwrap();
    assert!(proposed.contains("classes = ["), "{proposed}");
    // The proposed table's confirmation plans from it (its `inherits`
    // names the variant file it revises), whatever pairs are new.
    let confirm = Command::new(env!("CARGO_BIN_EXE_pocketlab"))
        .arg("study")
        .arg(folder.join("proposed-classes.toml"))
        .args(["--new-pairs", "--dry-run", "--threads", "1", "--out"])
        .arg(dir.path().join("confirm"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&confirm.stderr);
    assert!(
        confirm.status.success() || said.contains("no pair is new"),
        "{said}"
    );

    // A square without an exchangeable White piece is refused, and so
    // are the class study's options and a budget too small for the
    // warm-up, before any file is written.
    for (extra, why) in [
        (&["--square", "e4"][..], "e4"),
        (&["--slots", "2=N"], "cannot be used with"),
        (&["--look-every", "5"], "cannot be used with"),
        (&["--hours", "0.0001"], "give more hours"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pocketlab"))
            .arg("study")
            .arg(dir.path().join("tiny.toml"))
            .args([
                "--scale",
                "--dry-run",
                "--nodes",
                "200",
                "--threads",
                "1",
                "--out",
            ])
            .arg(dir.path().join("refused"))
            .args(extra)
            .output()
            .unwrap();
        let message = refused(&out);
        assert!(message.contains(why), "{extra:?}: {message}");
        assert!(!dir.path().join("refused/study.toml").exists(), "{extra:?}");
    }
}

#[test]
fn a_revised_table_is_studied_on_its_new_pairs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tiny.toml"), VARIANT).unwrap();
    // Rook and super bishop were together already; knight joins them.
    std::fs::write(
        dir.path().join("revised.toml"),
        "name = \"revised\"\ninherits = \"tiny.toml\"\nclasses = [\"P\", \"B\", \"NRX\"]\n",
    )
    .unwrap();
    let run = |variant: &str| {
        Command::new(env!("CARGO_BIN_EXE_pocketlab"))
            .args([
                "study",
                variant,
                "--new-pairs",
                "--dry-run",
                "--threads",
                "1",
                "--out",
            ])
            .arg(dir.path().join(format!("{}-study", variant.len())))
            .output()
            .unwrap()
    };
    let revised = dir.path().join("revised.toml");
    let out = run(revised.to_str().unwrap());
    succeeded(&out);
    let folder = dir
        .path()
        .join(format!("{}-study", revised.to_str().unwrap().len()));
    let experiment = std::fs::read_to_string(folder.join("study.toml")).unwrap();
    assert!(
        experiment.contains("pairs = [\"NR\", \"NX\"]"),
        "{experiment}"
    );

    // A shipped variant revises nothing the study can name.
    let out = run("pocket-mutation");
    let message = refused(&out);
    assert!(message.contains("inherits"), "{message}");
}
