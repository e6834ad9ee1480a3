//! The best evaluation is the default: an experiment without an `eval` key
//! plays its variant's shipped evaluation, `eval = "builtin"` the
//! hand-written weights, and a log begun before evaluations were shipped
//! (its manifest records `eval default`) or with a file the variant
//! shipped earlier goes on with the evaluation it began with, so its games
//! stay what they were.

mod common;

use std::path::Path;
use std::process::Command;

use pocketlab_core::builtin;
use pocketlab_core::engine::EvalParams;
use pocketlab_selfplay::log::{open_log, read_games};
use pocketlab_selfplay::{AbsentEval, Experiment};

use common::succeeded;

fn experiment(variant: &str, engine: &str) -> String {
    format!(
        r#"
name = "default-eval"
variant = "{variant}"
seed = 5

[engine]
nodes = 200
hash_mb = 2
{engine}

[openings]
random_plies = 4

[adjudication]
max_plies = 60

[stop]
pairs = 1

[armies.white]
[armies.black]

[[matchups]]
a = "white"
b = "black"
"#
    )
}

fn parse(text: &str) -> Experiment {
    Experiment::parse("e.toml", text, Path::new(".")).unwrap()
}

#[test]
fn an_experiment_without_eval_plays_its_variants_shipped_evaluation() {
    let exp = parse(&experiment("pocket-mutation", ""));
    let shipped = builtin::shipped_eval("pocket-mutation").unwrap();
    for army in &exp.armies {
        assert_eq!(army.engine.eval, shipped.params());
        assert_eq!(army.engine.eval_label, format!("shipped:{}", shipped.file));
    }
    assert!(
        exp.inputs
            .contains_key(&format!("eval shipped {}", shipped.file))
    );
    assert!(!exp.inputs.contains_key("eval default"));
    // Rule overrides keep the variant, and its evaluation.
    let text = experiment("pocket-mutation", "").replace(
        "seed = 5",
        "seed = 5\n[rules]\npocket = { mutation = false }",
    );
    assert_eq!(parse(&text).armies[0].engine.eval, shipped.params());
}

#[test]
fn builtin_asks_for_the_hand_written_weights() {
    let exp = parse(&experiment("pocket-mutation", "eval = \"builtin\""));
    assert_eq!(exp.armies[0].engine.eval, EvalParams::default());
    assert_eq!(exp.armies[0].engine.eval_label, "builtin");
    assert!(exp.inputs.contains_key("eval builtin"));
    assert!(!exp.inputs.keys().any(|k| k.starts_with("eval shipped")));
}

#[test]
fn a_variant_without_a_shipped_evaluation_plays_the_hand_written_weights() {
    let exp = parse(&experiment("chess-mutation", ""));
    assert_eq!(exp.armies[0].engine.eval, EvalParams::default());
    assert_eq!(exp.armies[0].engine.eval_label, "default");
    assert!(exp.inputs.contains_key("eval default"));
}

#[test]
fn what_a_log_recorded_decides_what_a_missing_eval_meant() {
    let old = ["variant pocket-mutation", "eval default"];
    assert_eq!(
        AbsentEval::of_recorded(old.into_iter()),
        AbsentEval::Builtin
    );
    let shipped = ["eval default", "eval shipped pmc-weights-2.toml"];
    assert_eq!(
        AbsentEval::of_recorded(shipped.into_iter()),
        AbsentEval::Recorded(vec!["pmc-weights-2.toml".to_owned()])
    );
    assert_eq!(
        AbsentEval::of_recorded(["eval params.toml"].into_iter()),
        AbsentEval::Shipped
    );
    let exp = Experiment::parse_with(
        "e.toml",
        &experiment("pocket-mutation", ""),
        Path::new("."),
        AbsentEval::Builtin,
    )
    .unwrap();
    assert_eq!(exp.armies[0].engine.eval, EvalParams::default());
    assert_eq!(exp.armies[0].engine.eval_label, "default");
}

fn pocketlab(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pocketlab"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Play the one-pair experiment into `dir/log`, then make the log one whose
/// manifest recorded `input` (with the hash of `text`) in place of the
/// shipped file, and no games; returns the experiment text.
fn a_log_that_recorded(dir: &Path, input: &str, text: &str) -> String {
    let experiment_text = experiment("pocket-mutation", "");
    std::fs::write(dir.join("e.toml"), &experiment_text).unwrap();
    succeeded(&pocketlab(
        &["run", "e.toml", "--out", "log", "--threads", "1", "--quiet"],
        dir,
    ));
    let log_dir = dir.join("log");
    let first = read_games(&log_dir).unwrap();
    assert!(
        first
            .iter()
            .all(|g| g.white_engine.contains("eval=shipped:"))
    );
    let manifest = log_dir.join("manifest.toml");
    let recorded = std::fs::read_to_string(&manifest).unwrap();
    let line = recorded
        .lines()
        .find(|l| l.starts_with("\"eval shipped"))
        .unwrap()
        .to_owned();
    let hash = format!(
        "{:016x}",
        pocketlab_selfplay::hash::stable_hash(text.as_bytes())
    );
    let old = recorded.replace(&line, &format!("\"{input}\" = \"{hash}\""));
    assert_ne!(old, recorded);
    std::fs::remove_dir_all(&log_dir).unwrap();
    std::fs::create_dir_all(&log_dir).unwrap();
    std::fs::write(&manifest, old).unwrap();
    std::fs::write(log_dir.join("experiment.toml"), &experiment_text).unwrap();
    experiment_text
}

/// Resume the log in `dir/log`, which must then hold two games whose
/// white engine says `label`, recorded as `input`, and be whole.
fn resumes_with(dir: &Path, label: &str, input: &str) {
    succeeded(&pocketlab(
        &["run", "e.toml", "--out", "log", "--threads", "1", "--quiet"],
        dir,
    ));
    let log_dir = dir.join("log");
    let games = read_games(&log_dir).unwrap();
    assert_eq!(games.len(), 2);
    assert!(
        games.iter().all(|g| g.white_engine.contains(label)),
        "{:?}",
        games.iter().map(|g| &g.white_engine).collect::<Vec<_>>()
    );
    let log = open_log(&log_dir).unwrap();
    assert!(log.manifest.inputs.contains_key(input));
    succeeded(&pocketlab(&["check", "log"], dir));
}

/// A log whose manifest says it was begun with the hand-written weights
/// for want of an `eval` key continues with them: the run is accepted, the
/// new games say `eval=default`, and `check` finds the log whole.
#[test]
fn a_log_begun_with_the_hand_written_weights_continues_with_them() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = builtin::shipped_eval("pocket-mutation").unwrap();
    assert_ne!(shipped.params(), EvalParams::default());
    a_log_that_recorded(dir.path(), "eval default", &EvalParams::default().to_toml());
    resumes_with(dir.path(), "eval=default", "eval default");
}

/// A log begun when the variant shipped another file continues with that
/// file, not with today's.
#[test]
fn a_log_begun_with_an_earlier_shipped_file_continues_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let earlier = "pmc-weights-2.toml";
    let shipped = builtin::shipped_eval("pocket-mutation").unwrap();
    assert_ne!(shipped.file, earlier);
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../configs/eval")
            .join(earlier),
    )
    .unwrap();
    let input = format!("eval shipped {earlier}");
    a_log_that_recorded(dir.path(), &input, &text);
    resumes_with(dir.path(), &format!("eval=shipped:{earlier}"), &input);
}
