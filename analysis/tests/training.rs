//! Self-play training: a tiny run completes, writes loadable parameters,
//! reports, and resumes after an interruption without redoing work.

use pocketlab_core::builtin;
use pocketlab_core::engine::{EvalParams, Evaluator};

const TINY: &str = r#"
name = "tiny-train"
variant = "pocket-mutation"
seed = 5
generations = 2
pairs_per_generation = 4
nodes = 200
random_armies = 4
fen_every = 4
bootstrap = 10
tolerance_pawns = 0.0
validation_pairs = 3
validation_random_armies = 2
"#;

#[test]
fn a_tiny_training_run_completes_resumes_and_writes_loadable_values() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tiny.toml");
    std::fs::write(&file, TINY).unwrap();
    let out = dir.path().join("out");
    let run = || {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_pocketlab"))
            .args([
                "train",
                file.to_str().unwrap(),
                "--quiet",
                "--threads",
                "2",
                "--out",
                out.to_str().unwrap(),
            ])
            .status()
            .unwrap();
        assert!(status.success());
    };
    run();
    let params_path = out.join("training/gen-002/params.toml");
    let text = std::fs::read_to_string(&params_path).unwrap();
    let params = EvalParams::from_toml("params.toml", &text).unwrap();
    assert!(params.piece_values.contains_key("N") && params.pocket_values.contains_key("N"));
    // Generation 1 played with what generation 0 learned.
    let played = std::fs::read_to_string(out.join("training/gen-001/params.toml")).unwrap();
    let played = EvalParams::from_toml("gen-001/params.toml", &played).unwrap();
    let fit: toml::Value =
        toml::from_str(&std::fs::read_to_string(out.join("training/gen-000/fit.toml")).unwrap())
            .unwrap();
    let learned_knight = fit["board"]["N"]["value"].as_float().unwrap().round() as i32;
    assert_eq!(played.piece_values.get("N"), Some(&learned_knight));
    let variant = builtin::load("pocket-mutation").unwrap();
    let _ = Evaluator::new(&variant, &params);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        html.contains("Training"),
        "the report has a training section"
    );
    // The validation plays the variant's army and the two random armies,
    // one pair each, trained values always as the first army.
    let validation = pocketlab_selfplay::log::read_games(&out.join("validation/log")).unwrap();
    assert_eq!(validation.len(), 6);
    let matchups: std::collections::BTreeSet<&str> =
        validation.iter().map(|g| g.matchup.as_str()).collect();
    assert_eq!(matchups.len(), 3, "{matchups:?}");
    assert!(
        matchups.iter().all(|m| m.starts_with("trained")),
        "{matchups:?}"
    );
    assert!(validation.iter().any(|g| g.white_army != "base"));
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        markdown.contains("Trained values against the starting values over 6 games")
            && markdown.contains("random armies:"),
        "the validation headline pools every matchup"
    );

    // Interrupt: forget the second generation's fit; a rerun redoes only it.
    let first_fit = std::fs::read_to_string(out.join("training/gen-000/fit.toml")).unwrap();
    std::fs::remove_file(out.join("training/gen-001/fit.toml")).unwrap();
    run();
    assert_eq!(
        std::fs::read_to_string(out.join("training/gen-000/fit.toml")).unwrap(),
        first_fit
    );
    assert!(out.join("training/gen-001/fit.toml").exists());
    assert_eq!(
        std::fs::read_to_string(&params_path).unwrap(),
        text,
        "the redone generation learns the same values"
    );
}

#[test]
fn shipped_training_files_are_valid() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/training");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            pocketlab_analysis::training::TrainingFile::load(&path)
                .unwrap_or_else(|e| panic!("{e}"));
            checked += 1;
        }
    }
    assert!(checked >= 1);
}
