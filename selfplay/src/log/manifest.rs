//! The manifest: what a log holds, and everything that decided its games.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::LogError;
use super::write::write_new;
use super::{EXPERIMENT_FILE, MANIFEST_FILE, sync_dir};
use crate::files::read_text;
use crate::hash::stable_hash;

/// What a log directory holds. A resumed run must match it in everything
/// that decides a game: the experiment text, every input file it names
/// (variant files through their inheritance, evaluation parameters, the
/// opening book), the engine version and the schema.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The experiment's name.
    pub experiment: String,
    /// FNV-1a of the experiment file text, as hex.
    pub experiment_hash: String,
    /// The [`SCHEMA_VERSION`](super::SCHEMA_VERSION) of the log's columns.
    pub schema_version: u32,
    /// The build that started the log (`pocketlab 0.1.0`).
    pub code_version: String,
    /// The experiment's master seed.
    pub seed: u64,
    /// The variant's name.
    pub variant: String,
    /// The experiment's rule overrides, as variant-file TOML (empty: none).
    pub rule_overrides: String,
    /// Where the experiment file's relative paths (variant, eval, book)
    /// resolve: needed to read the log's `experiment.toml` copy again.
    #[serde(default)]
    pub experiment_dir: String,
    /// [`pocketlab_core::engine::ENGINE_VERSION`] of the engine that played
    /// (absent in logs of older builds).
    #[serde(default)]
    pub engine_version: Option<u32>,
    /// FNV-1a hash of each input besides the experiment text, by what it is
    /// (`variant cheap.toml > pocket-mutation`, `eval params.toml`, `book
    /// openings.epd`).
    #[serde(default)]
    pub inputs: BTreeMap<String, String>,
}

pub(crate) fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// How the key of a variant file's input begins (`variant chess.toml >
/// pocket-mutation`): the inputs that make the rules.
pub const VARIANT_INPUT: &str = "variant ";

/// One difference between a run and a log, and whether it touches the
/// rules the logged moves were played under.
struct Change {
    text: String,
    rules: bool,
}

impl Change {
    fn rules(text: String) -> Change {
        Change { text, rules: true }
    }

    fn play(text: String) -> Change {
        Change { text, rules: false }
    }

    fn of_input(what: &str, text: String) -> Change {
        Change {
            text,
            rules: what.starts_with(VARIANT_INPUT),
        }
    }
}

impl Manifest {
    /// What differs between the run this manifest describes (`self`) and
    /// the one a log was started with (`logged`), in words; empty if a game
    /// played now equals the logged game of the same id.
    pub fn differences(&self, logged: &Manifest) -> Vec<String> {
        self.changes(logged).into_iter().map(|c| c.text).collect()
    }

    /// The differences that change how the logged moves read back: the
    /// rules (the experiment and its variant files) and the schema. A new
    /// engine version, evaluation or book changes what would be played, not
    /// what was.
    pub fn rule_differences(&self, logged: &Manifest) -> Vec<String> {
        self.changes(logged)
            .into_iter()
            .filter(|c| c.rules)
            .map(|c| c.text)
            .collect()
    }

    fn changes(&self, logged: &Manifest) -> Vec<Change> {
        let mut out = Vec::new();
        if logged.experiment != self.experiment || logged.experiment_hash != self.experiment_hash {
            out.push(Change::rules(format!(
                "the experiment file: the log holds '{}' (hash {}), this run is '{}' (hash {})",
                logged.experiment, logged.experiment_hash, self.experiment, self.experiment_hash
            )));
        }
        if logged.schema_version != self.schema_version {
            out.push(Change::rules(format!(
                "the log schema: {} in the log, {} in this build",
                logged.schema_version, self.schema_version
            )));
        }
        match (logged.engine_version, self.engine_version) {
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => out.push(Change::play(format!(
                "the engine: version {a} played the log, this build's is {b} (search or \
                 evaluation changed)"
            ))),
            _ => out.push(Change::play(
                "the engine: the log was written by an older pocketlab that did not record \
                 its engine version or input hashes"
                    .to_owned(),
            )),
        }
        for (what, hash) in &self.inputs {
            let change = |text| Change::of_input(what, text);
            match logged.inputs.get(what) {
                Some(h) if h == hash => {}
                Some(h) => out.push(change(format!(
                    "{what}: changed (hash {h} in the log, now {hash})"
                ))),
                None if logged.engine_version.is_some() => {
                    out.push(change(format!("{what}: not an input of the logged run")));
                }
                None => {}
            }
        }
        for what in logged.inputs.keys() {
            if !self.inputs.contains_key(what) {
                out.push(Change::of_input(
                    what,
                    format!("{what}: an input of the logged run, not of this one"),
                ));
            }
        }
        out
    }

    /// Write the manifest and the experiment text into a new log, or check
    /// that the log present was started with exactly this run's inputs.
    /// Refuses a directory that holds chunks but no manifest: their games
    /// cannot be told apart from another experiment's.
    pub fn write_or_check(&self, dir: &Path, experiment_text: &str) -> Result<(), LogError> {
        let path = dir.join(MANIFEST_FILE);
        if !path.exists() {
            refuse_chunks_without_manifest(dir)?;
            let text = toml::to_string(self).expect("the manifest serialises");
            // The experiment text first: a manifest promises its presence.
            match write_new(&dir.join(EXPERIMENT_FILE), experiment_text.as_bytes()) {
                Ok(()) | Err(LogError::Exists { .. }) => {}
                Err(e) => return Err(e),
            }
            match write_new(&path, text.as_bytes()) {
                // Another shard may have raced us to it: then it must match.
                Ok(()) | Err(LogError::Exists { .. }) => {}
                Err(e) => return Err(e),
            }
            sync_dir(dir)?;
        }
        let log = open_log(dir)?;
        let differences = self.differences(&log.manifest);
        if differences.is_empty() {
            return Ok(());
        }
        Err(LogError::Mismatch {
            dir: dir.display().to_string(),
            reason: format!(
                "this run differs from the one the log was started with, so its games would not \
                 match the logged ones: {}. Use another --out directory, or restore the inputs \
                 as they were",
                differences.join("; ")
            ),
        })
    }
}

fn refuse_chunks_without_manifest(dir: &Path) -> Result<(), LogError> {
    for table in [super::Table::Games, super::Table::Moves] {
        let d = dir.join(table.dir_name());
        let has_chunks = std::fs::read_dir(&d).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| super::parse_chunk_name(&e.file_name().to_string_lossy()).is_some())
        });
        if has_chunks {
            return Err(LogError::Mismatch {
                dir: dir.display().to_string(),
                reason: format!(
                    "{} holds chunks but the directory has no {MANIFEST_FILE}, so nothing says \
                     which experiment played them; they are not adopted. Use another --out \
                     directory (or move the chunks away)",
                    d.display()
                ),
            });
        }
    }
    Ok(())
}

/// A log directory whose manifest and experiment text were read and agree.
#[derive(Debug, Clone)]
pub struct LogDir {
    /// The log directory, as given.
    pub dir: PathBuf,
    /// Its `manifest.toml`.
    pub manifest: Manifest,
    /// Its `experiment.toml`: the experiment text as run.
    pub experiment_text: String,
}

/// Open a log directory: read its manifest and `experiment.toml` (regular
/// files only) and check the text against the manifest's hash, so an edited
/// copy cannot relabel the logged games.
pub fn open_log(dir: &Path) -> Result<LogDir, LogError> {
    let meta = std::fs::metadata(dir).map_err(|e| LogError::io(dir, &e))?;
    if !meta.is_dir() {
        return Err(LogError::Mismatch {
            dir: dir.display().to_string(),
            reason: "not a directory".into(),
        });
    }
    let manifest_path = dir.join(MANIFEST_FILE);
    let text = read_text(&manifest_path).map_err(|e| LogError::Io {
        file: manifest_path.display().to_string(),
        reason: format!("{e} (is this a pocketlab log directory?)"),
    })?;
    let manifest: Manifest = toml::from_str(&text).map_err(|e| LogError::Damaged {
        file: manifest_path.display().to_string(),
        reason: pocketlab_core::variant::describe_toml_error(&e, &text),
    })?;
    let exp_path = dir.join(EXPERIMENT_FILE);
    let experiment_text = read_text(&exp_path).map_err(|e| LogError::io(&exp_path, &e))?;
    let hash = hex(stable_hash(experiment_text.as_bytes()));
    if hash != manifest.experiment_hash {
        return Err(LogError::Mismatch {
            dir: dir.display().to_string(),
            reason: format!(
                "{} was changed after the run started (hash {hash}, the manifest says {}): it \
                 no longer describes the logged games. Restore it from the experiment file that \
                 was run",
                exp_path.display(),
                manifest.experiment_hash
            ),
        });
    }
    Ok(LogDir {
        dir: dir.to_path_buf(),
        manifest,
        experiment_text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::SCHEMA_VERSION;

    fn manifest(engine_version: u32, inputs: &[(&str, &str)]) -> Manifest {
        Manifest {
            experiment: "study".into(),
            experiment_hash: "00000000000000aa".into(),
            schema_version: SCHEMA_VERSION,
            code_version: "test".into(),
            seed: 1,
            variant: "pocket-mutation".into(),
            rule_overrides: String::new(),
            experiment_dir: String::new(),
            engine_version: Some(engine_version),
            inputs: inputs
                .iter()
                .map(|&(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        }
    }

    #[test]
    fn another_engine_or_evaluation_stops_a_resume_but_not_reading_the_moves() {
        let variant = format!("{VARIANT_INPUT}pmc.toml > pocket-mutation");
        let logged = manifest(4, &[(&variant, "01"), ("eval chess.toml", "02")]);
        let now = manifest(5, &[(&variant, "01"), ("eval chess.toml", "03")]);
        let all = now.differences(&logged);
        assert_eq!(all.len(), 2, "{all:?}");
        assert!(all[0].contains("version 4") && all[1].contains("eval chess.toml"));
        assert!(now.rule_differences(&logged).is_empty());
        assert!(logged.differences(&logged).is_empty());
    }

    #[test]
    fn changed_variant_files_and_schemas_stop_both() {
        let variant = format!("{VARIANT_INPUT}pmc.toml > pocket-mutation");
        let logged = manifest(4, &[(&variant, "01")]);
        let changed = manifest(4, &[(&variant, "09")]);
        let rules = changed.rule_differences(&logged);
        assert!(
            rules.len() == 1 && rules[0].contains("pmc.toml"),
            "{rules:?}"
        );
        let dropped = manifest(4, &[]);
        assert_eq!(
            dropped.rule_differences(&logged).len(),
            1,
            "a variant file no longer read"
        );
        let mut other_schema = manifest(4, &[(&variant, "01")]);
        other_schema.schema_version += 1;
        assert_eq!(other_schema.rule_differences(&logged).len(), 1);
    }
}
