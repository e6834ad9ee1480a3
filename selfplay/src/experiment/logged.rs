//! An experiment and its log: the manifest a run writes, and the
//! experiment read back from a log as it ran.

use std::path::Path;

use super::{Experiment, ExperimentError};
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
    /// resolved where the experiment file was (else beside the log).
    pub fn experiment(&self) -> Result<Experiment, ExperimentError> {
        let base = Path::new(&self.manifest.experiment_dir);
        let base = if self.manifest.experiment_dir.is_empty() || !base.is_dir() {
            self.dir.as_path()
        } else {
            base
        };
        let label = self.dir.join(EXPERIMENT_FILE).display().to_string();
        Experiment::parse(&label, &self.experiment_text, base)
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
}
