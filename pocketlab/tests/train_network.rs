//! `pocketlab train-network` end to end on a tiny loop: two generations of
//! self-play, labels, fit and gate; the same files for one and two threads;
//! a run stopped between generations or inside one continues to exactly
//! the files of a run that never stopped.

mod common;

use std::path::Path;
use std::process::Command;

use common::succeeded;

const LOOP: &str = r#"
name = "tiny-loop"
variant = "chess-nocastle"
seed = 3
generations = GENERATIONS
[selfplay]
pairs = 6
nodes = 200
fen_every = 4
max_plies = 80
[labels]
search_nodes = 60
[network]
hidden = 4
epochs = 2
[gate]
nodes = 200
max_pairs = 4
"#;

fn train(dir: &Path, generations: u32, out: &str, threads: &str) {
    let file = dir.join(format!("loop-{generations}.toml"));
    std::fs::write(&file, LOOP.replace("GENERATIONS", &generations.to_string())).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pocketlab"))
        .args(["train-network", file.to_str().unwrap(), "--out", out])
        .args(["--threads", threads, "--quiet"])
        .current_dir(dir)
        .output()
        .unwrap();
    succeeded(&out);
}

/// The files that say what a run did, by name.
fn outcome(run: &Path) -> Vec<(String, String)> {
    let mut files = vec!["README.md".to_owned(), "best.toml".to_owned()];
    for g in 0..2 {
        files.extend(
            ["player.toml", "candidate.toml", "result.toml"].map(|f| format!("gen-{g:03}/{f}")),
        );
    }
    files
        .into_iter()
        .map(|name| {
            let path = run.join(&name);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (name, text)
        })
        .collect()
}

/// Asserts two runs wrote the same files, naming the first that differs.
fn assert_same(run: &Path, expected: &[(String, String)]) {
    for ((name, text), (_, want)) in outcome(run).iter().zip(expected) {
        assert!(
            text == want,
            "{}: {name} differs:\n{}\n---\n{}",
            run.display(),
            &text[..text.len().min(2000)],
            &want[..want.len().min(2000)]
        );
    }
}

/// `from` without what the records replay: self-play games, label files
/// and players.
fn copy_records(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        let name = name.to_str().unwrap();
        if matches!(name, "selfplay" | "labels.parquet" | "player.toml") {
            continue;
        }
        let target = to.join(name);
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_records(&entry.path(), &target);
        } else {
            std::fs::create_dir_all(to).unwrap();
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn the_loop_runs_resumes_and_does_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    train(dir.path(), 2, "whole", "2");
    let whole = outcome(&dir.path().join("whole"));
    let summary = &whole[0].1;
    assert_eq!(
        summary
            .lines()
            .filter(|l| l.starts_with("| 0 ") || l.starts_with("| 1 "))
            .count(),
        2,
        "{summary}"
    );
    for g in 0..2 {
        let result = &whole[4 + 3 * g].1;
        assert!(result.contains("gate_decision"), "{result}");
        let gate = dir.path().join(format!("whole/gen-{g:03}/gate/log"));
        assert!(gate.join("manifest.toml").exists());
    }

    train(dir.path(), 2, "one-thread", "1");
    assert_same(&dir.path().join("one-thread"), &whole);

    // Stopped after the first generation, then asked for two.
    train(dir.path(), 1, "resumed", "2");
    train(dir.path(), 2, "resumed", "2");
    assert_same(&dir.path().join("resumed"), &whole);

    // Stopped inside the second generation, after its fit.
    let second = dir.path().join("resumed/gen-001");
    std::fs::remove_file(second.join("result.toml")).unwrap();
    std::fs::remove_dir_all(second.join("gate")).unwrap();

    std::fs::remove_file(dir.path().join("resumed/gen-002/player.toml")).unwrap();
    train(dir.path(), 2, "resumed", "1");
    assert_same(&dir.path().join("resumed"), &whole);

    // A copy with the records only (no self-play games, labels or
    // players): the second generation's fit replays the first's games.
    let records = dir.path().join("records");
    copy_records(&dir.path().join("whole"), &records);
    for file in ["result.toml", "fit.toml", "candidate.toml"] {
        std::fs::remove_file(records.join("gen-001").join(file)).unwrap();
    }
    std::fs::remove_dir_all(records.join("gen-001/gate")).unwrap();
    train(dir.path(), 2, "records", "2");
    assert_same(&records, &whole);

    // Stopped after its labels were kept, before the fit: the scores are
    // read back, not searched again, and the fit is the same.
    for file in ["result.toml", "fit.toml", "candidate.toml"] {
        std::fs::remove_file(second.join(file)).unwrap();
    }
    std::fs::remove_dir_all(second.join("gate")).unwrap();
    std::fs::remove_file(dir.path().join("resumed/gen-002/player.toml")).unwrap();
    assert!(second.join("labels.parquet").exists());
    train(dir.path(), 2, "resumed", "2");
    assert_same(&dir.path().join("resumed"), &whole);
}

/// Writes `LOOP` with `generations` as `name` in `dir` and runs
/// `pocketlab train-network` on it (with `extra` arguments) expecting a
/// refusal; returns what it said.
fn refused(dir: &Path, name: &str, generations: &str, extra: &[&str]) -> String {
    let file = dir.join(name);
    std::fs::write(&file, LOOP.replace("GENERATIONS", generations)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pocketlab"))
        .args(["train-network", file.to_str().unwrap(), "--quiet"])
        .args(extra)
        .current_dir(dir)
        .output()
        .unwrap();
    common::refused(&out)
}

#[test]
fn a_bad_loop_file_is_refused_with_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let said = refused(dir.path(), "bad.toml", "0", &[]);
    assert!(
        said.contains("generations") && said.contains("bad.toml"),
        "{said}"
    );
}

#[test]
fn a_loop_file_that_does_not_parse_is_refused_with_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let said = refused(dir.path(), "broken.toml", "\"one\"", &[]);
    assert!(
        said.contains("training loop file") && said.contains("broken.toml"),
        "{said}"
    );
    assert!(said.contains("line 5, column"), "{said}");
}

#[test]
fn zero_threads_are_refused_not_adjusted() {
    let dir = tempfile::tempdir().unwrap();
    let said = refused(dir.path(), "loop.toml", "1", &["--threads", "0"]);
    assert!(said.contains("--threads"), "{said}");
    assert!(
        !dir.path().join("reports").exists(),
        "nothing is written before the refusal"
    );
}
