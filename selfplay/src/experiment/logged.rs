//! An experiment and its log: the manifest a run writes, and the
//! experiment read back from a log as it ran.

use std::fmt;
use std::path::{Component, Path, PathBuf};

use super::{AbsentEval, Experiment, ExperimentError};
use crate::log::{EXPERIMENT_FILE, LogDir, Manifest, SCHEMA_VERSION, hex};

impl Manifest {
    /// The manifest of a run of `exp` with this build.
    pub fn for_experiment(exp: &Experiment) -> Manifest {
        Manifest {
            experiment: exp.name.clone(),
            experiment_hash: hex(exp.source_hash),
            schema_version: SCHEMA_VERSION,
            code_version: crate::code_version(),
            seed: exp.seed,
            variant: exp.variant.name.clone(),
            rule_overrides: exp.rule_overrides.clone(),
            experiment_dir: exp.dir.display().to_string(),
            engine_version: Some(pocketlab_core::engine::ENGINE_VERSION),
            inputs: exp
                .inputs
                .iter()
                .map(|(k, &v)| (k.clone(), hex(v)))
                .collect(),
        }
    }
}

impl LogDir {
    /// The experiment as it ran: the logged text, its relative paths
    /// resolved where the experiment file was (see
    /// [`LogDir::experiment_base`]).
    /// An engine table without `eval` plays what it played when the log
    /// began ([`AbsentEval::of_recorded`]). The error says where the
    /// experiment's files are read from.
    pub fn experiment(&self) -> Result<Experiment, LoggedRulesError> {
        let label = self.dir.join(EXPERIMENT_FILE).display().to_string();
        let absent_eval = AbsentEval::of_recorded(self.manifest.inputs.keys().map(String::as_str));
        let files_dir = self.experiment_base();
        Experiment::parse_with(&label, &self.experiment_text, &files_dir, absent_eval)
            .map_err(|source| LoggedRulesError::NoLongerLoads { files_dir, source })
    }

    /// Where the logged experiment's relative paths (variant, eval, book)
    /// resolve. The manifest records the experiment's directory as an
    /// absolute path, which names another place in a clone elsewhere or
    /// on another machine; so the directory is first looked for beside
    /// the log's own checkout: the longest tail of the recorded path
    /// (`configs/experiments`, then `experiments`) under the nearest of
    /// the log's ancestors that has it, the log directory and what it
    /// holds aside (a log kept elsewhere under the experiment folder's
    /// name is not that folder). Then the recorded path itself, and last
    /// the log directory.
    pub fn experiment_base(&self) -> PathBuf {
        let recorded = Path::new(&self.manifest.experiment_dir);
        if self.manifest.experiment_dir.is_empty() {
            return self.dir.clone();
        }
        let log_dir = std::path::absolute(&self.dir).unwrap_or_else(|_| self.dir.clone());
        let tails: Vec<PathBuf> = recorded_tails(recorded);
        // The filesystem root is left out: under it the whole recorded path
        // is the recorded directory itself, tried after the checkout.
        for ancestor in log_dir.ancestors().filter(|a| a.parent().is_some()) {
            if let Some(found) = tails
                .iter()
                .map(|tail| ancestor.join(tail))
                .find(|candidate| !candidate.starts_with(&log_dir) && candidate.is_dir())
            {
                return found;
            }
        }
        if recorded.is_dir() {
            recorded.to_path_buf()
        } else {
            self.dir.clone()
        }
    }

    /// What changed since the run among the inputs the experiment names
    /// (variant files, parameters, book) and the engine: empty if the
    /// logged games can be replayed as they were played.
    pub fn changes_since_run(&self, exp: &Experiment) -> Vec<String> {
        Manifest::for_experiment(exp).differences(&self.manifest)
    }

    /// What changed since the run in the rules alone (variant files, the
    /// schema): empty if the logged moves read back as they were played,
    /// whatever engine this build has.
    pub fn rule_changes_since_run(&self, exp: &Experiment) -> Vec<String> {
        Manifest::for_experiment(exp).rule_differences(&self.manifest)
    }

    /// The experiment as it ran, refused if its games would not read back
    /// as they were played: it no longer loads, or its rules changed since
    /// the run. Another engine or evaluation is accepted: reading the
    /// games (reports, PGN) does not play them.
    pub fn experiment_as_played(&self) -> Result<Experiment, LoggedRulesError> {
        let exp = self.experiment()?;
        let changes = self.rule_changes_since_run(&exp);
        if changes.is_empty() {
            Ok(exp)
        } else {
            Err(LoggedRulesError::RulesChanged(changes))
        }
    }
}

/// Why a log's games cannot be read under the rules they were played
/// under ([`LogDir::experiment_as_played`]), or its experiment not loaded
/// at all ([`LogDir::experiment`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoggedRulesError {
    /// The logged experiment no longer loads: a file it names is missing
    /// or no longer valid.
    NoLongerLoads {
        /// Where the experiment's variant, eval and book files are read.
        files_dir: PathBuf,
        /// Why the experiment was rejected.
        source: ExperimentError,
    },
    /// The rules (variant files, schema) changed since the run: each
    /// entry names one change.
    RulesChanged(Vec<String>),
}

impl fmt::Display for LoggedRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoggedRulesError::NoLongerLoads { files_dir, source } => write!(
                f,
                "the logged experiment no longer loads ({source}): its variant, eval and book \
                 files are read from {}; restore them as they were",
                files_dir.display()
            ),
            LoggedRulesError::RulesChanged(changes) => write!(
                f,
                "its rules changed since the run ({}): its games would be read under other \
                 rules or classes than they were played under; restore the files as they were",
                changes.join("; ")
            ),
        }
    }
}

// The experiment's error is part of the message, so it is not also given
// as the source (a chain printer would say it twice).
impl std::error::Error for LoggedRulesError {}

/// The tails of a recorded directory, longest first, each at least its
/// last component: `/a/configs/experiments` gives `a/configs/experiments`,
/// `configs/experiments` and `experiments`.
fn recorded_tails(recorded: &Path) -> Vec<PathBuf> {
    let names: Vec<&std::ffi::OsStr> = recorded
        .components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect();
    (0..names.len())
        .map(|start| names[start..].iter().collect())
        .collect()
}
