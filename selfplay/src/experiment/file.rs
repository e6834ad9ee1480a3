//! The TOML schema of experiment files. Unknown keys are errors.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct ExperimentFile {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// A shipped variant name or a variant file path (relative to this file).
    pub variant: String,
    pub seed: u64,
    /// Overrides of the variant's settings, written as in a variant file
    /// (`pocket = { mutation = false }`).
    #[serde(default)]
    pub rules: Option<toml::Table>,
    #[serde(default)]
    pub engine: EngineFile,
    #[serde(default)]
    pub openings: OpeningsFile,
    #[serde(default)]
    pub adjudication: AdjudicationFile,
    #[serde(default)]
    pub stop: StopFile,
    #[serde(default)]
    pub log: LogFile,
    #[serde(default)]
    pub armies: BTreeMap<String, ArmyFile>,
    #[serde(default)]
    pub matchups: Vec<MatchupFile>,
    #[serde(default)]
    pub generators: Vec<GeneratorFile>,
}

/// Engine settings; an army's `engine` table overrides the experiment's.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct EngineFile {
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Evaluation parameter file (relative to the experiment file).
    pub eval: Option<String>,
    pub hash_mb: Option<usize>,
    /// Seeded root randomness in centipawns (0 = off).
    pub root_noise: Option<i32>,
    /// Milliseconds per move: a time limit, so the games are not reproducible.
    pub movetime: Option<u64>,
    /// An external UCI engine plays: its program (relative to this file,
    /// or a name on `PATH`).
    pub uci: Option<String>,
    /// Arguments the program is started with (default: none; `["uci"]`
    /// for a program named `pocketlab…`).
    pub args: Option<Vec<String>>,
    /// Options the external engine advertises, set before its first game:
    /// `{ Hash = 16, VariantPath = "variants.ini" }`.
    pub options: Option<toml::Table>,
    /// The name sent as `UCI_Variant` (default: the experiment's variant;
    /// `""`: send none, the options define the variant).
    pub uci_variant: Option<String>,
    /// The longest wait for any answer of the external engine, milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct OpeningsFile {
    /// Random plies played from the start, the same in both games of a pair.
    pub random_plies: Option<u32>,
    /// A file of start positions (FEN, one per line, `#` comments), used in turn.
    pub book: Option<String>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct AdjudicationFile {
    pub max_plies: Option<u32>,
    /// Win when both engines' scores agree beyond this (centipawns) for `resign_moves` moves each; 0 = off.
    pub resign_score: Option<i32>,
    pub resign_moves: Option<u32>,
    /// Draw when both scores stay within this for `draw_moves` moves each, after `draw_after_ply`; 0 = off.
    pub draw_score: Option<i32>,
    pub draw_moves: Option<u32>,
    pub draw_after_ply: Option<u32>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct StopFile {
    /// `fixed` (default) or `sequential-equivalence`.
    pub design: Option<super::stop::DesignName>,
    /// Game pairs per matchup (the most, with SPRT).
    pub pairs: Option<u64>,
    pub sprt: Option<SprtFile>,
    /// The sequential design: pairs per matchup at most, pairs between
    /// looks, games for the whole study, margin (pawns per piece), error
    /// rate per kind of claim, spending function.
    pub max_pairs: Option<u64>,
    pub look_every: Option<u64>,
    pub budget_games: Option<u64>,
    pub margin: Option<f64>,
    pub alpha: Option<f64>,
    pub spending: Option<super::stop::Spending>,
    /// Stop the calibration once no undecided pair of pieces has more
    /// than this chance of an equivalence verdict by its cap.
    pub calibration_futility: Option<f64>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct SprtFile {
    pub elo0: f64,
    pub elo1: f64,
    #[serde(default = "default_error_rate")]
    pub alpha: f64,
    #[serde(default = "default_error_rate")]
    pub beta: f64,
}

fn default_error_rate() -> f64 {
    0.05
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct LogFile {
    /// Write the `moves` table.
    pub moves: Option<bool>,
    /// Record the FEN every this many plies in the moves table (0 = never).
    pub fen_every: Option<u32>,
    /// Games per Parquet chunk.
    pub chunk_games: Option<usize>,
}

/// An army: the variant's start position for one side, transformed.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct ArmyFile {
    /// Letter substitutions on this side's pieces: `{ N = "I" }`.
    #[serde(default)]
    pub replace: BTreeMap<String, String>,
    /// Squares (from this side's view: White's coordinates, mirrored for Black) emptied.
    #[serde(default)]
    pub remove: Vec<String>,
    /// Pieces this side starts with in its pocket (letters).
    #[serde(default)]
    pub pocket: String,
    #[serde(default)]
    pub engine: Option<EngineFile>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct MatchupFile {
    pub a: String,
    pub b: String,
    /// Published estimates of this matchup's difference, for the report to
    /// set beside the lab's: `[{ source = "Kaufman (1999)", pawns = 0.5 }]`.
    #[serde(default)]
    pub published: Vec<PublishedFile>,
}

/// One published estimate of a matchup's difference.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PublishedFile {
    /// Who published it (`"Kaufman (1999)"`), as the report names it.
    pub source: String,
    /// Army A minus army B, in pawns.
    pub pawns: f64,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields, tag = "kind", rename_all = "kebab-case")]
pub enum GeneratorFile {
    /// Every pair of pieces of one class, each placed on the same slots.
    ClassEquivalence {
        class: u8,
        /// The letter whose squares receive the class's pieces (default: the
        /// first class member found in the start position).
        slots: Option<String>,
        /// Which of the slot piece's squares (White's view, mirrored for
        /// Black) receive them: `["b1"]` exchanges one knight, not both,
        /// so a piece is measured without pair effects. Default: all.
        #[serde(default)]
        squares: Vec<String>,
    },
    /// Army `a` against army `b`.
    Imbalance { a: String, b: String },
    /// The base army against itself a pawn down, to express scores in pawns.
    PawnOdds {
        /// The pawn removed, from the weaker side's view.
        #[serde(default = "default_odds_square")]
        square: String,
    },
    /// Every pair among the listed armies.
    RoundRobin { armies: Vec<String> },
}

fn default_odds_square() -> String {
    "f2".into()
}
