//! Every file under `configs/` is one a user can run today: it loads as
//! what its folder says it is, and the guide's page on the shipped files
//! (`docs/src/configs.md`) names it.

use std::path::{Path, PathBuf};
use std::process::Command;

use pocketlab_selfplay::Experiment;
use pocketlab_selfplay::variant_files::load_variant;
use pocketlab_training::network_loop::NetworkLoopFile;
use pocketlab_training::{TrainingFile, load_params};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every file below `dir`, as paths relative to it, sorted.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                found.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    found.sort();
    found
}

/// Loads `file` (relative to `configs/`) as its folder's kind of file.
fn load_as_its_kind(configs: &Path, file: &Path) -> Result<&'static str, String> {
    let path = configs.join(file);
    let folder = file.components().next().unwrap().as_os_str();
    let extension = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    match (folder.to_str().unwrap(), extension) {
        ("variants", "toml") => load_variant(path.to_str().unwrap())
            .map(|_| "variant")
            .map_err(|e| e.to_string()),
        ("eval", "toml") => load_params(&path)
            .map(|_| "evaluation")
            .map_err(|e| format!("{e:#}")),
        ("training", "toml") if file.starts_with("training/params") => load_params(&path)
            .map(|_| "evaluation")
            .map_err(|e| format!("{e:#}")),
        ("training", "toml") if file.to_string_lossy().ends_with("-network.toml") => {
            NetworkLoopFile::load(&path)
                .map(|_| "self-play training of a network")
                .map_err(|e| format!("{e:#}"))
        }
        ("training", "toml") => TrainingFile::load(&path)
            .map(|_| "training")
            .map_err(|e| format!("{e:#}")),
        ("experiments" | "tuning" | "build", "toml") => Experiment::load(&path)
            .map(|_| "experiment")
            .map_err(|e| e.to_string()),
        ("cluster", "sh") => {
            let status = Command::new("bash").arg("-n").arg(&path).status();
            match status {
                Ok(s) if s.success() => Ok("shell script"),
                other => Err(format!("bash -n: {other:?}")),
            }
        }
        ("cluster", "yaml") => {
            let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
            let keys = ["apiVersion:", "kind:", "metadata:", "spec:"];
            match keys
                .iter()
                .find(|k| !text.lines().any(|l| l.starts_with(*k)))
            {
                None => Ok("Kubernetes manifest"),
                Some(missing) => Err(format!("no top-level {missing}")),
            }
        }
        _ => Err("a kind of file this folder does not hold".to_owned()),
    }
}

#[test]
fn every_shipped_config_loads_as_its_kind_and_the_guide_names_it() {
    let configs = repository().join("configs");
    let guide = std::fs::read_to_string(repository().join("docs/src/configs.md")).unwrap();
    let files = files_below(&configs);
    assert!(files.len() >= 20, "found only {} files", files.len());
    let mut failures = Vec::new();
    for file in &files {
        if let Err(reason) = load_as_its_kind(&configs, file) {
            failures.push(format!("configs/{}: {reason}", file.display()));
        }
        let name = format!("`{}`", file.display());
        if !guide.contains(&name) {
            failures.push(format!(
                "configs/{}: not named in docs/src/configs.md (as {name})",
                file.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_file_of_the_wrong_kind_is_refused() {
    let work = tempfile::tempdir().unwrap();
    let configs = work.path();
    std::fs::create_dir_all(configs.join("variants")).unwrap();
    std::fs::create_dir_all(configs.join("eval")).unwrap();
    std::fs::write(configs.join("variants/not-a-variant.toml"), "tempo = 10\n").unwrap();
    std::fs::write(
        configs.join("eval/not-an-eval.toml"),
        "name = \"x\"\nbetza = 3\n",
    )
    .unwrap();
    std::fs::write(configs.join("eval/notes.txt"), "words\n").unwrap();
    for file in [
        "variants/not-a-variant.toml",
        "eval/not-an-eval.toml",
        "eval/notes.txt",
    ] {
        assert!(
            load_as_its_kind(configs, Path::new(file)).is_err(),
            "{file} was taken for a config"
        );
    }
}
