//! The TOML schema of experiment files. Unknown keys are errors.
//!
//! A file may build on another in its directory, `inherits =
//! "pmc-study.toml"`, and state only what it changes: its keys replace the
//! parent's, tables (`[engine]`, `[stop]`, an army) key by key, anything
//! else (a value, an array such as `generators` or `matchups`) whole. Its
//! `name` and `description` are its own, never inherited. The experiment
//! as run is the chain written out as one file ([`read_experiment`]): that
//! text is what a log keeps and hashes, so a change to any file of the
//! chain that changes a key is caught when a run resumes.

use std::collections::BTreeMap;
use std::path::Path;

use pocketlab_core::inherit::{ChainError, OwnFile, merged_chain};
use pocketlab_core::variant::describe_toml_error;
use pocketlab_stats::sequential::Spending;
use serde::Deserialize;

use super::ExperimentError;
use crate::files::read_text;

/// An experiment file as run: its schema, the text that describes it
/// whole (the file's own text, or with `inherits` the chain written out as
/// one file), and the label errors name it by.
pub(super) struct ReadExperiment {
    pub file: ExperimentFile,
    pub text: String,
    pub label: String,
}

/// Parse experiment text `text` read from `label`, following `inherits`
/// to sibling files in `dir`.
pub(super) fn read_experiment(
    label: &str,
    text: &str,
    dir: &Path,
) -> Result<ReadExperiment, ExperimentError> {
    let err = |file: &str, key: &str, reason: String| ExperimentError {
        file: file.to_owned(),
        key: key.to_owned(),
        reason,
    };
    let table: toml::Table =
        toml::from_str(text).map_err(|e| err(label, "", describe_toml_error(&e, text)))?;
    if !table.contains_key("inherits") {
        let file =
            toml::from_str(text).map_err(|e| err(label, "", describe_toml_error(&e, text)))?;
        return Ok(ReadExperiment {
            file,
            text: text.to_owned(),
            label: label.to_owned(),
        });
    }
    let own = |file: &str, text: &str| {
        let mut table: toml::Table =
            toml::from_str(text).map_err(|e| err(file, "", describe_toml_error(&e, text)))?;
        let inherits = match table.remove("inherits") {
            None => None,
            Some(toml::Value::String(name)) => Some(name),
            Some(_) => return Err(err(file, "inherits", "must be a file name".into())),
        };
        if file == label {
            if !table.contains_key("name") {
                return Err(err(
                    file,
                    "name",
                    "missing: a file that inherits names itself (names are never inherited)".into(),
                ));
            }
        } else {
            // The name and description belong to the file that has them.
            table.remove("name");
            table.remove("description");
        }
        // Each file alone must hold only known keys of the right types;
        // what the whole needs is checked once it is merged.
        let mut alone = table.clone();
        for (key, stub) in [
            ("name", toml::Value::from("stub")),
            ("variant", toml::Value::from("stub")),
            ("seed", toml::Value::from(0)),
        ] {
            alone.entry(key).or_insert(stub);
        }
        ExperimentFile::deserialize(alone)
            .map_err(|e| err(file, "", e.to_string().trim_end().replace('\n', " ")))?;
        Ok(OwnFile { table, inherits })
    };
    let resolve = |_: &str, name: &str| {
        if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
            return Err(format!(
                "'{name}' is not a file name: an experiment inherits from a file in its own \
                 directory, so relative paths mean the same in both"
            ));
        }
        // Beside a file named without a directory, name the parent so too.
        let path = if dir == Path::new(".") {
            Path::new(name).to_path_buf()
        } else {
            dir.join(name)
        };
        let text =
            read_text(&path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        Ok((path.display().to_string(), text))
    };
    let (merged, chain) = merged_chain(label, text, &own, &resolve).map_err(|e| match e {
        ChainError::File(e) => e,
        ChainError::Link { file, reason } => err(&file, "inherits", reason),
    })?;
    let names: Vec<String> = chain
        .iter()
        .map(|f| {
            Path::new(f)
                .file_name()
                .map_or_else(|| f.clone(), |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let written = format!(
        "# {}, written out as one file with what it inherits from {}.\n{}",
        names[0],
        names[1..].join(" > "),
        toml::to_string(&merged).expect("a TOML table serialises")
    );
    let label = format!("{label} (inheriting {})", names[1..].join(" > "));
    let file =
        toml::from_str(&written).map_err(|e| err(&label, "", describe_toml_error(&e, &written)))?;
    Ok(ReadExperiment {
        file,
        text: written,
        label,
    })
}

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

/// The `design` key: which stop rule.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DesignName {
    /// `pairs` per matchup (with `[stop.sprt]`, at most `pairs`).
    #[default]
    Fixed,
    /// Looks every `look_every` pairs up to `max_pairs`, each matchup
    /// stopped once decided, within `budget_games`.
    SequentialEquivalence,
    /// Every piece on one value scale: a warm-up of every matchup, then
    /// stages planned from the fit so far until every precision target is
    /// met, within `max_pairs` per matchup and `budget_games`.
    ValueScale,
}

impl DesignName {
    /// The name as an experiment file writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Fixed => "fixed",
            Self::SequentialEquivalence => "sequential-equivalence",
            Self::ValueScale => "value-scale",
        }
    }
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct StopFile {
    /// `fixed` (default), `sequential-equivalence` or `value-scale`.
    pub design: Option<DesignName>,
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
    pub spending: Option<Spending>,
    /// Stop the calibration once no undecided pair of pieces has more
    /// than this chance of an equivalence verdict by its cap.
    pub calibration_futility: Option<f64>,
    /// The value-scale design: pairs every matchup plays first, pairs in a
    /// block, blocks in a stage, the largest half-width of a neighbour
    /// difference (pawns) and of the pawn unit (a share of its value).
    pub warmup_pairs: Option<u64>,
    pub block_pairs: Option<u64>,
    pub stage_blocks: Option<u64>,
    pub adjacent_half_width: Option<f64>,
    pub unit_precision: Option<f64>,
    /// The value-scale design: the cap of the matchups that measure the
    /// pawn (at least `max_pairs`; `max_pairs` when absent).
    pub unit_max_pairs: Option<u64>,
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
    /// `false`: the side starts without castling rights.
    #[serde(default)]
    pub castling: Option<bool>,
    /// Potential Chess: `"potential"` (the game's rule) or `"fixed"`.
    #[serde(default)]
    pub identities: Option<IdentitiesName>,
    #[serde(default)]
    pub engine: Option<EngineFile>,
}

/// An army's `identities` as written.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum IdentitiesName {
    Potential,
    Fixed,
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
        /// Only these pairs of the class, each two piece letters (`["DG",
        /// "FE"]`): the pairs a confirmation has not yet decided. Default:
        /// every pair.
        #[serde(default)]
        pairs: Vec<String>,
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
    /// Single-piece substitutions on one square, linking the pieces into
    /// one value scale anchored to the empty square and the pawn.
    ValueScale {
        /// The square whose piece is exchanged (White's view, mirrored for
        /// Black); it must hold a piece other than the royal one and pawns.
        #[serde(default = "default_scale_square")]
        square: String,
        /// The pieces on the scale, by letter (default: every piece of the
        /// variant's classes but pawns and the royal piece).
        pieces: Option<String>,
        /// Each piece against this many next up the scale of the variant's
        /// values.
        #[serde(default = "default_neighbours")]
        neighbours: u8,
        /// The lowest this many pieces also against the empty square.
        #[serde(default = "default_odds")]
        odds: u8,
        /// The pawn removed for the pawn-odds anchor (the unit).
        #[serde(default = "default_odds_square")]
        pawn_odds: String,
    },
}

fn default_scale_square() -> String {
    "b1".into()
}

fn default_neighbours() -> u8 {
    2
}

fn default_odds() -> u8 {
    2
}

fn default_odds_square() -> String {
    "f2".into()
}
