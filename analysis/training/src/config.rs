//! Training files (TOML): what to learn from and how long.

use std::path::{Path, PathBuf};

use pocketlab_core::variant::describe_toml_error;
use serde::Deserialize;

/// A training run, as written in `configs/training/*.toml`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct TrainingFile {
    /// The run's name (letters, digits, '-' and '_'): names its output
    /// directory and each generation's experiment.
    pub name: String,
    /// What the run is for, free text (optional).
    #[serde(default)]
    pub description: String,
    /// Shipped variant name or variant file (relative to the training file).
    pub variant: String,
    /// Seed of the run: each generation's games, random armies and fit
    /// bootstrap are seeded from it and the generation number.
    pub seed: u64,
    /// Most generations; training stops earlier once values settle.
    pub generations: u32,
    /// Game pairs per generation.
    pub pairs_per_generation: u64,
    /// Engine nodes per move in training games.
    pub nodes: u64,
    /// Random armies per generation (pieces drawn per slot from nearby classes).
    #[serde(default = "default_armies")]
    pub random_armies: usize,
    /// Share of those armies left as the variant's own army (0 to 1).
    #[serde(default = "default_own_army_share")]
    pub own_army_share: f64,
    /// Positions sampled per game: the log's FEN every this many plies.
    #[serde(default = "default_fen_every")]
    pub fen_every: u32,
    /// Pull of the fit towards the current values, per squared centipawn
    /// against the summed log-loss (`5e-3`: about 5,000 positions of
    /// evidence; much weaker priors let values and scale drift together
    /// from one generation to the next).
    #[serde(default = "default_regularization")]
    pub regularization: f64,
    /// Bootstrap replicates of each generation's fit, for the learned
    /// values' intervals (default 60).
    #[serde(default = "default_bootstrap")]
    pub bootstrap: usize,
    /// Stop when no value moves more than this many pawns in a generation.
    #[serde(default = "default_tolerance")]
    pub tolerance_pawns: f64,
    /// Starting evaluation parameters (default: built in, values from the variant).
    pub eval: Option<String>,
    /// Game pairs of the final match, trained against starting values (0:
    /// none), split evenly between the variant's own army and the random
    /// armies below.
    #[serde(default)]
    pub validation_pairs: u64,
    /// Random armies (drawn like the training's, the same army for both
    /// engines) in the final match besides the variant's own army, so that
    /// every piece's learned value is put to the test, not only the start
    /// army's.
    #[serde(default = "default_validation_armies")]
    pub validation_random_armies: usize,
    /// Logs of direct match experiments to compare the learned values with.
    #[serde(default)]
    pub compare_logs: Vec<String>,
}

fn default_armies() -> usize {
    8
}
fn default_own_army_share() -> f64 {
    0.25
}
fn default_validation_armies() -> usize {
    8
}
fn default_fen_every() -> u32 {
    6
}
fn default_regularization() -> f64 {
    5e-3
}
fn default_bootstrap() -> usize {
    60
}
fn default_tolerance() -> f64 {
    0.05
}

impl TrainingFile {
    /// Reads and checks the training file at `path`; returns it with its
    /// directory, against which its relative paths are resolved. Errors
    /// name the file (and the key at fault).
    pub fn load(path: &Path) -> anyhow::Result<(TrainingFile, PathBuf)> {
        let text = pocketlab_selfplay::files::read_text(path)
            .map_err(|e| anyhow::anyhow!("training file '{}': {e}", path.display()))?;
        let file: TrainingFile = toml::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "training file '{}': {}",
                path.display(),
                describe_toml_error(&e, &text)
            )
        })?;
        let bad = |key: &str, why: &str| {
            anyhow::anyhow!("training file '{}', key '{key}': {why}", path.display())
        };
        if file.name.is_empty()
            || !file
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(bad(
                "name",
                "must be non-empty and use only letters, digits, '-' and '_'",
            ));
        }
        if file.generations == 0 {
            return Err(bad("generations", "at least 1"));
        }
        if file.pairs_per_generation == 0 {
            return Err(bad(
                "pairs_per_generation",
                "zero pairs: nothing would be played",
            ));
        }
        if file.nodes == 0 {
            return Err(bad("nodes", "at least 1"));
        }
        if file.random_armies < 2 {
            return Err(bad("random_armies", "at least 2"));
        }
        if !(0.0..=1.0).contains(&file.own_army_share) {
            return Err(bad("own_army_share", "a share between 0 and 1"));
        }
        if file.fen_every == 0 {
            return Err(bad("fen_every", "at least 1"));
        }
        if !(file.regularization >= 0.0 && file.regularization.is_finite()) {
            return Err(bad("regularization", "a non-negative number"));
        }
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        Ok((file, dir))
    }
}
