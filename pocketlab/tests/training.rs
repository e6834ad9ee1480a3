//! Self-play training: a tiny run completes, writes loadable parameters,
//! reports, and resumes after an interruption without redoing work: a real
//! process killed mid-generation resumes there, and finished generations
//! are not played again.

mod common;

use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use pocketlab_core::builtin;
use pocketlab_core::engine::{Activation, EvalParams, Evaluator, Views};

use common::{refused, succeeded};

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
    // Trained against initial values is an engine comparison, not a piece one.
    assert!(markdown.contains("### Engines"), "{markdown}");
    for unsaid in ["Two pieces count as equivalent", "strength of each piece"] {
        assert!(
            !markdown.contains(unsaid),
            "the validation report says '{unsaid}'"
        );
    }

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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/training");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.to_string_lossy().ends_with("-network.toml") {
            pocketlab_training::network_loop::NetworkLoopFile::load(&path)
                .unwrap_or_else(|e| panic!("{e}"));
            checked += 1;
        } else if path.extension().is_some_and(|e| e == "toml") {
            pocketlab_training::TrainingFile::load(&path).unwrap_or_else(|e| panic!("{e}"));
            checked += 1;
        }
    }
    assert!(checked >= 1);
}

/// Each chunk of a generation's log with its modification time.
fn chunk_times(log: &Path) -> Vec<(String, SystemTime)> {
    let mut out: Vec<_> = ["games", "moves"]
        .iter()
        .flat_map(|t| std::fs::read_dir(log.join(t)).unwrap())
        .map(|e| e.unwrap())
        .map(|e| {
            (
                e.path().display().to_string(),
                e.metadata().unwrap().modified().unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_killed_training_process_resumes_without_replaying_finished_generations() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tiny.toml");
    std::fs::write(
        &file,
        TINY.replace("generations = 2", "generations = 3")
            .replace("pairs_per_generation = 4", "pairs_per_generation = 8")
            .replace("validation_pairs = 3", "validation_pairs = 0"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let train = || {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_pocketlab"));
        cmd.args(["train", file.to_str().unwrap(), "--threads", "2", "--out"])
            .arg(&out);
        cmd
    };
    let gen0_fit = out.join("training/gen-000/fit.toml");
    let last_fit = out.join("training/gen-002/fit.toml");
    let mut child = train()
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it (SIGKILL) as soon as generation 0 is done.
    let deadline = Instant::now() + Duration::from_secs(300);
    while !gen0_fit.exists() {
        assert!(child.try_wait().unwrap().is_none(), "training ended early");
        assert!(Instant::now() < deadline, "generation 0 never finished");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !last_fit.exists(),
        "the kill left training unfinished (else this tests nothing)"
    );
    let fit_before = std::fs::read_to_string(&gen0_fit).unwrap();
    let chunks_before = chunk_times(&out.join("training/gen-000/log"));

    let resumed = train().output().unwrap();
    succeeded(&resumed);
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(last_fit.exists());
    assert!(
        !stderr.contains("generation 0: playing"),
        "generation 0 was played again: {stderr}"
    );
    assert!(stderr.contains("generation 1: playing"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&gen0_fit).unwrap(), fit_before);
    assert_eq!(
        chunk_times(&out.join("training/gen-000/log")),
        chunks_before,
        "generation 0's log was rewritten"
    );
}

/// A shipped evaluation file with its `inherits` chain, as an experiment loads it.
fn load_eval(path: &Path) -> EvalParams {
    pocketlab_selfplay::files::read_eval_params(Path::new(""), path, &|_, _| {})
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn shipped_evaluation_files_load_and_change_the_chess_evaluation() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/eval");
    let chess = builtin::load("chess-nocastle").unwrap();
    let plain = Evaluator::new(&chess, &EvalParams::default());
    let middlegame = pocketlab_core::Position::from_fen(
        &chess,
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2QK2R w - - 0 10",
    )
    .unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if !path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("chess")
        {
            continue;
        }
        let params = load_eval(&path);
        let letters: String = params.piece_squares.keys().cloned().collect();
        assert_eq!(
            letters,
            "BKNPQR",
            "{}: a table for every chess piece",
            path.display()
        );
        let tuned = Evaluator::new(&chess, &params);
        assert_ne!(tuned.evaluate(&middlegame), plain.evaluate(&middlegame));
        checked += 1;
    }
    assert_eq!(
        checked, 7,
        "the shipped chess.toml, the step it inherits and the five network files"
    );
    // The network files are step 5's weights plus a learned correction.
    for (name, hidden, views, activation) in [
        ("chess-network.toml", 32, Views::Mover, Activation::Clipped),
        (
            "chess-network-10k-h256-both-sq.toml",
            256,
            Views::Both,
            Activation::Squared,
        ),
        (
            "chess-network-10k-h256-both-sq-2.toml",
            256,
            Views::Both,
            Activation::Squared,
        ),
        (
            "chess-network-10k-h256-both-sq-3.toml",
            256,
            Views::Both,
            Activation::Squared,
        ),
        (
            "chess-network-10k-h256-both-sq-4.toml",
            256,
            Views::Both,
            Activation::Squared,
        ),
    ] {
        let mut network = load_eval(&dir.join(name));
        let net = network
            .network
            .take()
            .unwrap_or_else(|| panic!("{name} holds a network"));
        assert_eq!(
            (net.pieces.len(), net.hidden, net.views, net.activation),
            (6, hidden, views, activation),
            "{name}"
        );
        assert_eq!(
            network,
            load_eval(&dir.join("chess.toml")),
            "{name} carries chess.toml's weights"
        );
    }
    // The shipped file is the last step's weights under the name to use,
    // by inheritance (nothing of its own to drift).
    assert_eq!(
        load_eval(&dir.join("chess.toml")),
        load_eval(&dir.join("chess-structure.toml")),
        "chess.toml carries step 5's weights"
    );
}

#[test]
fn tune_refuses_a_weight_key_that_names_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pocketlab"))
        .args([
            "tune",
            "no-such-log",
            "--weights",
            "pair,kingdanger",
            "--out",
        ])
        .arg(dir.path().join("out.toml"))
        .output()
        .unwrap();
    let stderr = refused(&out);
    assert!(stderr.contains("--weights: 'kingdanger'"), "{stderr}");
    assert!(!dir.path().join("out.toml").exists());
}

#[test]
fn the_shipped_pocket_mutation_evaluation_covers_every_piece_and_leaves_values_alone() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/eval");
    let pmc = builtin::load("pocket-mutation").unwrap();
    let params = load_eval(&dir.join("pmc.toml"));
    let letters: String = params.piece_squares.keys().cloned().collect();
    assert_eq!(
        letters, "ABCDEFGHIJKLMNPQRUX",
        "a square table for each of the eighteen pieces and the king"
    );
    // Piece values are what the studies measure: tuning leaves them to the
    // variant file (and to `pocketlab train`).
    assert!(params.piece_values.is_empty());
    assert!(params.pocket_values.is_empty());
    let middlegame = pocketlab_core::Position::from_fen(
        &pmc,
        "r1bqk2r/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R[] w - - 0 6",
    )
    .unwrap();
    let plain = Evaluator::new(&pmc, &EvalParams::default());
    let tuned = Evaluator::new(&pmc, &params);
    assert_ne!(tuned.evaluate(&middlegame), plain.evaluate(&middlegame));
    // The shipped name carries the last kept step, by inheritance.
    assert_eq!(
        params,
        load_eval(&dir.join("pmc-refit.toml")),
        "pmc.toml carries step 4's weights"
    );
}

/// A few chess games with positions logged, for `tune` to fit.
const TINY_CHESS: &str = r#"
name = "tiny-tune"
variant = "chess-nocastle"
seed = 7

[engine]
nodes = 300
hash_mb = 1
root_noise = 10

[openings]
random_plies = 8

[adjudication]
max_plies = 120

[log]
fen_every = 2

[stop]
pairs = 6

[armies.white]

[armies.black]

[[matchups]]
a = "white"
b = "black"
"#;

/// `tune --network --labels`: the first fit searches and writes the label
/// file, the second reads every score from it and searches nothing, and
/// both write the same network; a damaged label file stops the fit with
/// an error naming it.
/// Plays the tiny chess experiment into `dir/log` and returns the log.
fn tiny_chess_log(dir: &Path) -> std::path::PathBuf {
    let experiment = dir.join("tiny.toml");
    std::fs::write(&experiment, TINY_CHESS).unwrap();
    let log = dir.join("log");
    succeeded(
        &std::process::Command::new(env!("CARGO_BIN_EXE_pocketlab"))
            .args(["run", "--quiet", "--threads", "2"])
            .arg(&experiment)
            .arg("--out")
            .arg(&log)
            .output()
            .unwrap(),
    );
    log
}

#[test]
fn a_label_file_serves_a_second_fit_and_a_damaged_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let log = tiny_chess_log(dir.path());
    let pocketlab = || std::process::Command::new(env!("CARGO_BIN_EXE_pocketlab"));
    let labels = dir.path().join("labels.parquet");
    let tune = |out: &str| {
        pocketlab()
            .arg("tune")
            .arg(&log)
            .args(["--network", "--hidden", "2", "--epochs", "2"])
            .args(["--search-nodes", "100", "--derived", "1", "--labels"])
            .arg(&labels)
            .arg("--out")
            .arg(dir.path().join(out))
            .output()
            .unwrap()
    };
    let stdout = succeeded(&tune("first.toml"));
    assert!(stdout.contains("0 positions already scored"), "{stdout}");
    let stdout2 = succeeded(&tune("second.toml"));
    assert!(stdout2.contains(", 0 of them new"), "{stdout2}");
    assert!(
        !stdout2.contains(" 0 positions already scored"),
        "{stdout2}"
    );
    assert_eq!(
        load_eval(&dir.path().join("first.toml")),
        load_eval(&dir.path().join("second.toml"))
    );

    std::fs::write(&labels, b"PAR1 damaged").unwrap();
    let stderr = refused(&tune("third.toml"));
    assert!(stderr.contains("labels.parquet"), "{stderr}");
    assert!(!dir.path().join("third.toml").exists());
}

/// `--warm-start` refines the `--params` file's network and says so in the
/// written file's command; a file whose network has another shape, or
/// none, is refused before any position is searched, naming the file. A
/// network of one king bucket starts a fit of four; four do not start two.
#[test]
fn a_warm_start_refines_the_params_network_and_refuses_another_shape() {
    let dir = tempfile::tempdir().unwrap();
    let log = tiny_chess_log(dir.path());
    let tune_with = |params: &str, hidden: &str, labels: &str, out: &str, extra: &[&str]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_pocketlab"));
        command.arg("tune").arg(&log);
        if !params.is_empty() {
            command.arg("--params").arg(dir.path().join(params));
        }
        if out != "cold.toml" {
            command.arg("--warm-start");
        }
        command
            .args(["--network", "--hidden", hidden, "--epochs", "2"])
            .args(["--search-nodes", "100", "--labels"])
            .arg(dir.path().join(labels))
            .arg("--out")
            .arg(dir.path().join(out))
            .args(extra)
            .output()
            .unwrap()
    };
    let tune = |params: &str, hidden: &str, labels: &str, out: &str| {
        tune_with(params, hidden, labels, out, &[])
    };
    let refused_saying = |out: &std::process::Output, says: &str| {
        let stderr = refused(out);
        assert!(stderr.contains(says), "{stderr}");
        stderr
    };
    succeeded(&tune("", "2", "cold.parquet", "cold.toml"));
    succeeded(&tune("cold.toml", "2", "warm.parquet", "warm.toml"));
    let written = std::fs::read_to_string(dir.path().join("warm.toml")).unwrap();
    assert!(written.contains("--warm-start"), "{written}");
    assert!(load_eval(&dir.path().join("warm.toml")).network.is_some());

    let four = ["--king-buckets", "4"];
    succeeded(&tune_with(
        "cold.toml",
        "2",
        "warm.parquet",
        "kings.toml",
        &four,
    ));
    let written = std::fs::read_to_string(dir.path().join("kings.toml")).unwrap();
    assert!(written.contains("--king-buckets 4"), "{written}");
    assert_eq!(
        load_eval(&dir.path().join("kings.toml"))
            .network
            .map(|n| n.king_buckets),
        Some(4)
    );
    let two = ["--king-buckets", "2"];
    refused_saying(
        &tune_with("kings.toml", "2", "warm.parquet", "refused.toml", &two),
        "king buckets 4, the fit asks for 2",
    );
    let three = ["--king-buckets", "3"];
    refused_saying(
        &tune_with("cold.toml", "2", "warm.parquet", "refused.toml", &three),
        "3 is not one of [1, 2, 4]",
    );
    assert!(!dir.path().join("refused.toml").exists());

    for (params, hidden, says) in [
        ("cold.toml", "3", "hidden units 2, the fit asks for 3"),
        ("", "2", "no network"),
    ] {
        let stderr = refused_saying(
            &tune(params, hidden, "refused.parquet", "refused.toml"),
            says,
        );
        let named = if params.is_empty() {
            "built-in"
        } else {
            params
        };
        assert!(
            stderr.contains("--warm-start") && stderr.contains(named),
            "{stderr}"
        );
        assert!(!dir.path().join("refused.parquet").exists());
        assert!(!dir.path().join("refused.toml").exists());
    }
}
