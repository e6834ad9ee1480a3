//! The product speaks of the product: no tracked text file tells how the
//! work on it was organised (numbered sessions, the computer at hand,
//! issue numbers) or names a tool that is not part of the project. This
//! file assembles the phrases it looks for rather than writing them out,
//! so that it, too, holds none of them.
//!
//! Two kinds of text are quotations, not the product's words, and are
//! left as they are: a run's log (it holds the experiment it ran, word for
//! word) with a report's lines that quote it, and a shipped file whose
//! exact bytes a committed log records by hash (rewording it would make
//! `pocketlab check` report the log's inputs as changed).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use pocketlab_selfplay::hash::stable_hash;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// The files git tracks, relative to the repository.
fn tracked_files(repo: &Path) -> Vec<PathBuf> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["ls-files", "-z"])
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git ls-files failed");
    out.stdout
        .split(|&b| b == 0)
        .filter(|name| !name.is_empty())
        .map(|name| PathBuf::from(String::from_utf8_lossy(name).into_owned()))
        .collect()
}

/// FNV-1a hashes of the names of tools that are not part of the project,
/// so that this file, too, names none of them.
const FOREIGN_TOOL_NAMES: [u64; 2] = [0xb145_ff9e_4369_46b2, 0xb5c1_aca6_a4cb_6952];

/// Why `line` speaks of the work rather than the product, if it does.
fn workflow_words(line: &str) -> Option<&'static str> {
    let lower = line.to_lowercase();
    let followed_by_number = |word: &str, plural: bool| {
        lower.match_indices(word).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            if before.is_some_and(char::is_alphanumeric) {
                return false;
            }
            let mut rest = &lower[at + word.len()..];
            if plural {
                rest = rest.strip_prefix('s').unwrap_or(rest);
            }
            let rest = rest.strip_prefix([' ', '-', '_']).unwrap_or(rest);
            let rest = rest.strip_prefix('#').unwrap_or(rest);
            rest.starts_with(|c: char| c.is_ascii_digit())
        })
    };
    if followed_by_number("session", true) {
        return Some("a numbered session");
    }
    if followed_by_number("issue", true) {
        return Some("an issue number");
    }
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    // "this" then "session", as words or glued to their neighbours.
    if words
        .windows(2)
        .any(|w| w[0].ends_with("this") && w[1].starts_with("session"))
    {
        return Some("a reference to the present session");
    }
    let this_machine = words.windows(2).any(|w| w == ["this", "machine"])
        || words
            .windows(3)
            .any(|w| w[0] == "this" && w[2] == "machine");
    if this_machine {
        return Some("a reference to the computer at hand");
    }
    if words
        .iter()
        .any(|w| FOREIGN_TOOL_NAMES.contains(&stable_hash(w.as_bytes())))
    {
        return Some("the name of a tool that is not part of the project");
    }
    None
}

/// Hashes of the inputs every committed log records.
fn inputs_hashed_by_logs(repo: &Path, files: &[PathBuf]) -> BTreeSet<String> {
    let mut hashes = BTreeSet::new();
    for file in files.iter().filter(|f| f.ends_with("log/manifest.toml")) {
        let text = std::fs::read_to_string(repo.join(file)).unwrap();
        let manifest: toml::Table = toml::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not a manifest: {e}", file.display()));
        if let Some(toml::Value::Table(inputs)) = manifest.get("inputs") {
            hashes.extend(
                inputs
                    .values()
                    .filter_map(|v| v.as_str().map(str::to_owned)),
            );
        }
    }
    hashes
}

/// The log a report or README quotes, if it sits beside one.
fn quoted_experiment(repo: &Path, file: &Path) -> Option<String> {
    let folder = repo.join(file.parent()?);
    std::fs::read_to_string(folder.join("log/experiment.toml")).ok()
}

fn is_run_log(file: &Path) -> bool {
    file.components().any(|c| c.as_os_str() == "log")
}

#[test]
fn no_tracked_text_speaks_of_how_the_work_was_organised() {
    let repo = repository();
    let files = tracked_files(&repo);
    let pinned = inputs_hashed_by_logs(&repo, &files);
    let this_file = Path::new("pocketlab/tests/product_text.rs");
    let mut found = Vec::new();
    let mut read = 0;
    for file in &files {
        // A path is read as well as written: a folder is named for what it holds.
        if let Some(why) = workflow_words(&file.to_string_lossy()) {
            found.push(format!("{} (its name): {why}", file.display()));
        }
        if is_run_log(file) || file == this_file {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(repo.join(file)) else {
            continue; // not text
        };
        if text.contains('\0') {
            continue;
        }
        read += 1;
        if file.starts_with("configs")
            && pinned.contains(&format!("{:016x}", stable_hash(text.as_bytes())))
        {
            continue;
        }
        let quoted = quoted_experiment(&repo, file).unwrap_or_default();
        for (number, line) in text.lines().enumerate() {
            if let Some(why) = workflow_words(line) {
                let quotation = !line.trim().is_empty() && quoted.contains(line.trim());
                if !quotation {
                    found.push(format!("{}:{}: {why}", file.display(), number + 1));
                }
            }
        }
    }
    assert!(read > 100, "read only {read} text files");
    assert!(
        found.is_empty(),
        "{} lines speak of the work, not the product:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_workflow_words_are_recognised_and_the_product_words_are_not() {
    let (this, session, issue) = ("this", "session", "issue");
    for line in [
        format!("Measured in {session} 39 on 2 cores."),
        format!("{session}s 29-30, complete"),
        format!("(Session{} 40, 2026-11-29)", ""),
        format!("as {issue} 17 asked"),
        format!("see {issue} #12"),
        format!("on {this} {session}'s machine"),
        format!("done in {this} {session}"),
        format!("figures from {this} machine"),
        format!("on {this} 2-core machine"),
        format!("reports/engine-strength/fs-{session}42-drops/report.md"),
        format!("{session}-7 notes"),
    ] {
        assert!(workflow_words(&line).is_some(), "missed: {line}");
    }
    for line in [
        "The UCI session ends with quit.".to_owned(),
        "a sessionless run".to_owned(),
        format!("t{issue} 3"),
        "machines with 2 cores of an AMD EPYC, 2026-11".to_owned(),
        "the issue is settled".to_owned(),
        "Measured on 2 cores of an AMD EPYC, 2026-12-03.".to_owned(),
    ] {
        assert!(workflow_words(&line).is_none(), "flagged: {line}");
    }
}

#[test]
fn foreign_tool_names_are_recognised_by_hash() {
    // The names are assembled here, not written out, so that this file
    // names no foreign tool either.
    for (first, second) in [("farm", "bench"), ("farm", "studio")] {
        let name = format!("{first}-{second}");
        assert!(
            FOREIGN_TOOL_NAMES.contains(&stable_hash(name.as_bytes())),
            "{name}"
        );
        assert!(workflow_words(&format!("timed with {name} -n 5")).is_some());
    }
}
