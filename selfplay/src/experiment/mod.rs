//! Experiments: what to play, read from a TOML file and validated before
//! any game starts.
//!
//! An experiment names a variant (with optional rule overrides), armies (the
//! variant's start position for one side, with substitutions such as
//! "knights become nightriders"), matchups between armies, engine settings,
//! openings, adjudication and a stop rule (a number of game pairs, an SPRT,
//! or the sequential-equivalence design).
//! Generators write the armies and matchups for the lab's questions:
//! `class-equivalence`, `imbalance`, `pawn-odds`, `round-robin` and
//! `value-scale`.

mod army;
mod engine;
mod file;
mod generate;
mod logged;
pub mod plan;
mod stop;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use pocketlab_core::kind::{GameKind, parse_variant};
use pocketlab_core::{Position, Square, Variant};

pub use crate::uci_player::{UciEngine, UciVariant};
pub use army::{
    Army, Identities, pieces_exchanged, plays_alike, same_setup, start_fen, start_text,
};
pub use engine::{DEFAULT_EVAL_LABEL, DEFAULT_NODES, EngineSettings, Program, SHIPPED_EVAL_LABEL};
pub use file::DesignName;
use file::{AdjudicationFile, EngineFile, ExperimentFile, IdentitiesName, LogFile};
pub use generate::ScalePlan;
pub use logged::LoggedRulesError;
pub use stop::{ScaleStop, StopDesign, StopRule};

use crate::files::read_text;
use crate::hash::stable_hash;
use crate::log::GameId;
use crate::variant_files;

/// Documented limits, checked when an experiment loads (before any game).
pub mod limits {
    /// Colour-swapped pairs per matchup.
    pub const MAX_PAIRS: u64 = 1_000_000;
    /// Matchups in one experiment.
    pub const MAX_MATCHUPS: usize = 100_000;
    /// Games per Parquet chunk (a chunk is held in memory until written).
    pub const MAX_CHUNK_GAMES: usize = 10_000;
    /// Plies before a game is adjudicated a draw.
    pub const MAX_PLIES: u32 = 10_000;
    /// Transposition table per engine, MiB.
    pub const MAX_HASH_MB: usize = 4096;
    /// Search depth.
    pub const MAX_DEPTH: u32 = 60;
    /// Time per move, milliseconds.
    pub const MAX_MOVETIME_MS: u64 = 3_600_000;
    /// The longest wait for an external engine's answer, milliseconds.
    pub const MAX_TIMEOUT_MS: u64 = 86_400_000;
    /// Looks of a sequential design (stages of a study).
    pub const MAX_LOOKS: usize = 1000;
    /// Blocks of pairs in one stage of a value-scale study.
    pub const MAX_STAGE_BLOCKS: u64 = 1000;
    /// A published difference between two armies, pawns either way.
    pub const MAX_PUBLISHED_PAWNS: f64 = 100.0;
}

/// Why an experiment file was rejected: file, key and reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExperimentError {
    /// The experiment file at fault, as it was named.
    pub file: String,
    /// The key at fault (`engine.nodes`, `matchups[2]`); empty when the
    /// error is not about one key.
    pub key: String,
    /// What is wrong, and often what would be right.
    pub reason: String,
}

impl fmt::Display for ExperimentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "experiment file '{}': {}", self.file, self.reason)
        } else {
            write!(
                f,
                "experiment file '{}', key '{}': {}",
                self.file, self.key, self.reason
            )
        }
    }
}

impl std::error::Error for ExperimentError {}

/// Two armies that play colour-swapped game pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matchup {
    /// `A-vs-B`, by the armies' names; unique in the experiment.
    pub name: String,
    /// Army A, the one results are counted for: index into
    /// [`Experiment::armies`].
    pub a: usize,
    /// Army B: index into [`Experiment::armies`].
    pub b: usize,
}

/// A published estimate of a matchup's difference (army A minus army B,
/// in pawns), which the report sets beside the lab's measurement: known
/// values as sanity checks. It plays no part in the games.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedDifference {
    /// Index into [`Experiment::matchups`].
    pub matchup: usize,
    /// Who published it, as the report names it.
    pub source: String,
    /// Army A's value minus army B's, pawns (within ±100).
    pub pawns: f64,
}

/// How games open (the `[openings]` table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Openings {
    /// Random plies played from the start, the same in both games of a pair
    /// (fewer when the two run out of moves legal in both); default 4, at
    /// most 40.
    pub random_plies: u32,
    /// Start positions from a book file, used in turn by pair index.
    pub book: Vec<String>,
}

/// When a game is ended before the rules end it (the `[adjudication]`
/// table). Scores are the engines' search scores turned to White's view; a
/// move without a score never agrees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// A game that reaches this many plies is a draw (1 to 10000; default
    /// 400).
    pub max_plies: u32,
    /// Centipawns: a side wins when every score of the last `resign_moves`
    /// moves of each engine is at least this in its favour (0, the default:
    /// off).
    pub resign_score: i32,
    /// Moves of each engine the resign rule looks at (default 4).
    pub resign_moves: u32,
    /// Centipawns: a draw when every score of the last `draw_moves` moves of
    /// each engine is within this of 0 (0, the default: off).
    pub draw_score: i32,
    /// Moves of each engine the draw rule looks at (default 10).
    pub draw_moves: u32,
    /// Plies a game must have before the draw rule applies (default 120).
    pub draw_after_ply: u32,
}

/// What the log keeps (the `[log]` table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogSettings {
    /// Whether the `moves` table is written (default true).
    pub moves: bool,
    /// The position is logged with the moves at plies 0, N, 2N, …
    /// (default 10; 0: never).
    pub fen_every: u32,
    /// Games per Parquet chunk (1 to 10000; default 64).
    pub chunk_games: usize,
}

/// A validated experiment.
#[derive(Clone, Debug)]
pub struct Experiment {
    /// Letters, digits, `-` and `_`: it names the log directory and the
    /// report.
    pub name: String,
    /// Free text from the file (never inherited); empty when absent.
    pub description: String,
    /// How the file named the variant.
    pub variant_label: String,
    /// The variant as played, the rule overrides applied.
    pub variant: Variant,
    /// The rule overrides in force, as variant-file TOML (empty: none).
    pub rule_overrides: String,
    /// The master seed: every game's seed and every pair's opening derive
    /// from it.
    pub seed: u64,
    /// The armies the file defines (in name order), then those its
    /// generators add.
    pub armies: Vec<Army>,
    /// The matchups the generators write, then those the file lists; the
    /// log's `matchup_index` indexes this list.
    pub matchups: Vec<Matchup>,
    /// The value scale of a `value-scale` generator, if the experiment has
    /// one.
    pub scale: Option<ScalePlan>,
    /// Published estimates of matchups' differences, in file order.
    pub published: Vec<PublishedDifference>,
    /// How games open.
    pub openings: Openings,
    /// When games are ended before the rules end them.
    pub adjudication: Adjudication,
    /// How many pairs each matchup plays, and what may stop it sooner.
    pub stop: StopRule,
    /// What the log keeps.
    pub log: LogSettings,
    /// FNV-1a hash of the file text: a resumed run must match it.
    pub source_hash: u64,
    /// The experiment text as run: the file's own, or with `inherits` the
    /// chain written out as one file. The log keeps it as `experiment.toml`.
    pub source_text: String,
    /// The directory relative paths in the file resolve against.
    pub dir: PathBuf,
    /// FNV-1a hash of every input file that decides a game besides the
    /// experiment text, by what it is: each variant file of the
    /// inheritance chain (`variant a.toml > b.toml > pocket-mutation`),
    /// each evaluation parameter file, its `inherits` chain too
    /// (`eval params.toml`, `eval params.toml > base.toml`, the variant's
    /// shipped file as `eval shipped pmc-weights-2.toml`, the hand-written
    /// weights as `eval builtin` or, played for want of an `eval` key,
    /// `eval default`) and the book (`book openings.epd`). Logged in the manifest.
    pub inputs: BTreeMap<String, u64>,
}

/// `name`: it names the log directory and the report.
fn check_name(cx: &Ctx<'_>, name: &str) -> Result<(), ExperimentError> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(cx.err(
            "name",
            "must be non-empty and use only letters, digits, '-' and '_'",
        ));
    }
    Ok(())
}

/// The `[[matchups]]` the file lists, appended to the generated ones;
/// returns the figures they cite as published.
fn listed_matchups(
    cx: &Ctx<'_>,
    f: &ExperimentFile,
    armies: &[Army],
    matchups: &mut Vec<Matchup>,
) -> Result<Vec<PublishedDifference>, ExperimentError> {
    let mut published = Vec::new();
    for (i, m) in f.matchups.iter().enumerate() {
        let key = format!("matchups[{}]", i + 1);
        let a = army_index(cx, armies, &key, &m.a)?;
        let b = army_index(cx, armies, &key, &m.b)?;
        for (j, p) in m.published.iter().enumerate() {
            let key = format!("{key}.published[{}]", j + 1);
            if p.source.trim().is_empty() {
                return Err(cx.err(
                    key.as_str(),
                    "source is empty: name who published the figure",
                ));
            }
            if !(p.pawns.is_finite() && p.pawns.abs() <= limits::MAX_PUBLISHED_PAWNS) {
                return Err(cx.err(
                    key.as_str(),
                    format!(
                        "pawns = {}: a difference between -{max} and {max} pawns",
                        p.pawns,
                        max = limits::MAX_PUBLISHED_PAWNS
                    ),
                ));
            }
            published.push(PublishedDifference {
                matchup: matchups.len(),
                source: p.source.trim().to_owned(),
                pawns: p.pawns,
            });
        }
        matchups.push(Matchup {
            name: format!("{}-vs-{}", m.a, m.b),
            a,
            b,
        });
    }
    Ok(published)
}

/// At least one matchup, not too many, each named once, of two armies
/// with possible start positions.
fn check_matchups(
    cx: &Ctx<'_>,
    variant: &Variant,
    armies: &[Army],
    matchups: &[Matchup],
) -> Result<(), ExperimentError> {
    if matchups.is_empty() {
        return Err(cx.err(
            "matchups",
            "no matchup to play (add [[matchups]] or [[generators]])",
        ));
    }
    if matchups.len() > limits::MAX_MATCHUPS {
        return Err(cx.err(
            "matchups",
            format!(
                "{} matchups: at most {} in one experiment",
                matchups.len(),
                limits::MAX_MATCHUPS
            ),
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for m in matchups {
        if !seen.insert(m.name.clone()) {
            return Err(cx.err("matchups", format!("matchup '{}' appears twice", m.name)));
        }
        if m.a == m.b {
            return Err(cx.err(
                "matchups",
                format!("matchup '{}' plays an army against itself", m.name),
            ));
        }
        for (white, black) in [(m.a, m.b), (m.b, m.a)] {
            start_text(variant, &armies[white], &armies[black]).map_err(|e| {
                cx.err(
                    "armies",
                    format!("matchup '{}': impossible start position: {e}", m.name),
                )
            })?;
        }
    }
    Ok(())
}

/// Armies whose setups differ only where the game and the openings allow.
fn check_army_setups(
    cx: &Ctx<'_>,
    variant: &Variant,
    armies: &[Army],
    openings: &Openings,
) -> Result<(), ExperimentError> {
    let moves_pieces = |a: &Army| {
        !a.replace.is_empty() || !a.remove.is_empty() || !a.place.is_empty() || !a.pocket.is_empty()
    };
    if variant.rules.potential.is_some() && armies.iter().any(moves_pieces) {
        return Err(cx.err(
            "armies",
            "Potential Chess takes its army from the variant ([potential] army); \
             armies here may differ only in their engine and identities",
        ));
    }
    let transforms =
        |a: &Army| moves_pieces(a) || !a.castling || a.identities != Identities::Potential;
    if !openings.book.is_empty() && armies.iter().any(transforms) {
        // A book fixes whole positions, so army setups would be silently ignored.
        return Err(cx.err(
            "openings.book",
            "a book of positions needs armies that differ only in their engine",
        ));
    }
    Ok(())
}

/// The `[adjudication]` table with its defaults, checked.
fn adjudication(cx: &Ctx<'_>, a: &AdjudicationFile) -> Result<Adjudication, ExperimentError> {
    let adjudication = Adjudication {
        max_plies: a.max_plies.unwrap_or(400),
        resign_score: a.resign_score.unwrap_or(0),
        resign_moves: a.resign_moves.unwrap_or(4),
        draw_score: a.draw_score.unwrap_or(0),
        draw_moves: a.draw_moves.unwrap_or(10),
        draw_after_ply: a.draw_after_ply.unwrap_or(120),
    };
    if !(1..=limits::MAX_PLIES).contains(&adjudication.max_plies) {
        return Err(cx.err(
            "adjudication.max_plies",
            format!("between 1 and {}", limits::MAX_PLIES),
        ));
    }
    if adjudication.resign_score < 0 || adjudication.draw_score < 0 {
        return Err(cx.err(
            "adjudication",
            "scores are magnitudes: use 0 to turn a rule off, not a negative number",
        ));
    }
    Ok(adjudication)
}

/// The `[log]` table with its defaults, checked.
fn log_settings(cx: &Ctx<'_>, l: &LogFile) -> Result<LogSettings, ExperimentError> {
    let chunk_games = l.chunk_games.unwrap_or(64);
    if !(1..=limits::MAX_CHUNK_GAMES).contains(&chunk_games) {
        return Err(cx.err(
            "log.chunk_games",
            format!("between 1 and {}", limits::MAX_CHUNK_GAMES),
        ));
    }
    let log = LogSettings {
        moves: l.moves.unwrap_or(true),
        fen_every: l.fen_every.unwrap_or(10),
        chunk_games,
    };
    Ok(log)
}

/// What an engine table without an `eval` key plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AbsentEval {
    /// The variant's shipped evaluation ([`builtin::shipped_eval`](pocketlab_core::builtin::shipped_eval)), else
    /// the hand-written weights: what a new experiment plays.
    Shipped,
    /// The hand-written weights: what logs played before evaluations were
    /// shipped (their manifest records `eval default` and no `eval shipped`).
    Builtin,
    /// The shipped evaluations a log recorded, by file name: a variant
    /// whose shipped file has changed since keeps the one the log played
    /// ([`builtin::shipped_eval_as_recorded`](pocketlab_core::builtin::shipped_eval_as_recorded)).
    Recorded(Vec<String>),
}

impl AbsentEval {
    /// What the experiment of a log with these recorded inputs played.
    pub fn of_recorded<'a>(inputs: impl Iterator<Item = &'a str>) -> AbsentEval {
        let mut builtin = false;
        let mut shipped = Vec::new();
        for input in inputs {
            builtin |= input == engine::BUILTIN_RECORD;
            if let Some(file) = input.strip_prefix(engine::SHIPPED_RECORD) {
                shipped.push(file.to_owned());
            }
        }
        match (builtin, shipped.is_empty()) {
            (true, true) => AbsentEval::Builtin,
            (_, false) => AbsentEval::Recorded(shipped),
            (false, true) => AbsentEval::Shipped,
        }
    }
}

struct Ctx<'a> {
    file: &'a str,
    dir: PathBuf,
    absent_eval: AbsentEval,
    /// The input files read so far, hashed (see [`Experiment::inputs`]).
    inputs: RefCell<BTreeMap<String, u64>>,
}

impl Ctx<'_> {
    fn err(&self, key: impl Into<String>, reason: impl Into<String>) -> ExperimentError {
        ExperimentError {
            file: self.file.to_owned(),
            key: key.into(),
            reason: reason.into(),
        }
    }

    /// Read a file the experiment names: relative paths resolve against
    /// the experiment file's directory, absolute ones as they are; regular
    /// files only. Its hash is recorded as the input `what path`.
    fn read(
        &self,
        key: &str,
        what: &str,
        relative: &str,
    ) -> Result<(String, String), ExperimentError> {
        let path = self.dir.join(relative);
        let text = read_text(&path)
            .map_err(|e| self.err(key, format!("cannot read '{}': {e}", path.display())))?;
        self.record(format!("{what} {relative}"), &text);
        Ok((path.display().to_string(), text))
    }

    fn record(&self, what: String, text: &str) {
        self.record_hash(what, stable_hash(text.as_bytes()));
    }

    fn record_hash(&self, what: String, hash: u64) {
        self.inputs.borrow_mut().insert(what, hash);
    }
}

impl Experiment {
    /// Read and validate an experiment file.
    pub fn load(path: &Path) -> Result<Experiment, ExperimentError> {
        Experiment::load_with(path, AbsentEval::Shipped)
    }

    /// [`Experiment::load`], an engine table without `eval` playing `absent_eval`.
    pub fn load_with(path: &Path, absent_eval: AbsentEval) -> Result<Experiment, ExperimentError> {
        let label = path.display().to_string();
        let text = read_text(path).map_err(|e| ExperimentError {
            file: label.clone(),
            key: String::new(),
            reason: format!("cannot read: {e}"),
        })?;
        // `a.toml` has the parent "", which no directory function accepts.
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        Experiment::parse_with(&label, &text, dir, absent_eval)
    }

    /// Validate experiment text; relative paths resolve against `dir`.
    pub fn parse(file: &str, text: &str, dir: &Path) -> Result<Experiment, ExperimentError> {
        Experiment::parse_with(file, text, dir, AbsentEval::Shipped)
    }

    /// [`Experiment::parse`], an engine table without `eval` playing `absent_eval`.
    pub fn parse_with(
        file: &str,
        text: &str,
        dir: &Path,
        absent_eval: AbsentEval,
    ) -> Result<Experiment, ExperimentError> {
        let read = file::read_experiment(file, text, dir)?;
        let (f, text) = (read.file, read.text.as_str());
        let cx = Ctx {
            file: &read.label,
            dir: dir.to_path_buf(),
            absent_eval,
            inputs: RefCell::new(BTreeMap::new()),
        };
        check_name(&cx, &f.name)?;
        let (variant, rule_overrides) = load_variant(&cx, &f)?;
        let default_engine =
            engine::engine_settings(&cx, "engine", &f.engine, None, &variant, &rule_overrides)?;

        let mut armies: Vec<Army> = Vec::new();
        for (name, army) in &f.armies {
            let base = (&default_engine, &f.engine);
            armies.push(army_from_file(
                &cx,
                &variant,
                &rule_overrides,
                name,
                army,
                base,
            )?);
        }
        let mut matchups = Vec::new();
        let mut scale = None;
        for (i, g) in f.generators.iter().enumerate() {
            generate::expand(
                &cx,
                &variant,
                &format!("generators[{}]", i + 1),
                g,
                &default_engine,
                &mut armies,
                &mut matchups,
                &mut scale,
            )?;
        }
        let published = listed_matchups(&cx, &f, &armies, &mut matchups)?;
        check_matchups(&cx, &variant, &armies, &matchups)?;
        let openings = openings(&cx, &f, &variant)?;
        check_army_setups(&cx, &variant, &armies, &openings)?;
        let adjudication = adjudication(&cx, &f.adjudication)?;
        const _: () = assert!(limits::MAX_PAIRS <= GameId::MAX_PAIRS);
        const _: () = assert!(limits::MAX_MATCHUPS as u64 <= GameId::MAX_MATCHUPS);
        let stop = stop::stop_rule(&cx, &f.stop, matchups.len(), scale.as_ref())?;
        let log = log_settings(&cx, &f.log)?;
        Ok(Experiment {
            name: f.name.clone(),
            description: f.description.clone(),
            variant_label: f.variant.clone(),
            variant,
            rule_overrides,
            seed: f.seed,
            armies,
            matchups,
            scale,
            published,
            openings,
            adjudication,
            stop,
            log,
            source_hash: stable_hash(text.as_bytes()),
            source_text: text.to_owned(),
            dir: dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()),
            inputs: cx.inputs.into_inner(),
        })
    }

    /// The matchups whose two armies play alike ([`plays_alike`]):
    /// each of their pairs logs one game twice, colours swapped. Self-play
    /// data for tuning wants `root_noise` (or different limits) instead.
    pub fn mirrored_matchups(&self) -> impl Iterator<Item = &Matchup> {
        self.matchups
            .iter()
            .filter(|m| plays_alike(&self.variant, &self.armies[m.a], &self.armies[m.b]))
    }

    /// The most games the experiment plays: every matchup all its pairs
    /// (a value scale's pawn matchups to their own cap), or a staged
    /// design's budget when that is smaller.
    pub fn max_games(&self) -> u64 {
        let every_pair = match (self.stop.value_scale(), &self.scale) {
            (Some(stop), Some(plan)) => (0..plan.matchups.len())
                .map(|i| plan.cap(i, &stop.allocation) * 2)
                .sum(),
            _ => self.matchups.len() as u64 * self.stop.pairs * 2,
        };
        self.stop
            .budget_games()
            .map_or(every_pair, |budget| every_pair.min(budget))
    }

    /// The most memory the engines' hash tables take at once with
    /// `threads` workers: each worker plays one game at a time, with both
    /// players' engines allocated (MiB).
    pub fn hash_memory_mb(&self, threads: usize) -> u64 {
        let per_game = self
            .matchups
            .iter()
            .map(|m| {
                self.armies[m.a].engine.hash_memory_mb() + self.armies[m.b].engine.hash_memory_mb()
            })
            .max()
            .unwrap_or(0) as u64;
        per_game.saturating_mul(threads as u64)
    }
}

fn load_variant(cx: &Ctx<'_>, f: &ExperimentFile) -> Result<(Variant, String), ExperimentError> {
    let base_spec = f.variant.clone();
    let overrides = match &f.rules {
        Some(table) if !table.is_empty() => {
            toml::to_string(table).map_err(|e| cx.err("rules", e.to_string()))?
        }
        _ => String::new(),
    };
    let chain = variant_files::Chain::new(&cx.dir);
    let (label, text) = chain.resolve(&base_spec).ok_or_else(|| {
        cx.err(
            "variant",
            format!("'{base_spec}' is neither a shipped variant nor a file beside the experiment"),
        )
    })?;
    let base = parse_variant(&label, &text, &|name| chain.resolve(name))
        .map_err(|e| cx.err("variant", e.to_string()))?;
    for (what, hash) in chain.inputs() {
        cx.inputs.borrow_mut().insert(what, hash);
    }
    if overrides.is_empty() {
        return Ok((base, overrides));
    }
    // The overrides form a child variant inheriting from the named one; it
    // keeps the parent's name (reports list the overrides beside it).
    let child = format!(
        "name = \"{}\"\ninherits = \"{base_spec}\"\n{overrides}",
        base.name
    );
    let chain = variant_files::Chain::new(&cx.dir);
    let v = parse_variant(&format!("{} [rules]", cx.file), &child, &|name| {
        chain.resolve(name)
    })
    .map_err(|e| cx.err("rules", e.to_string()))?;
    Ok((v, overrides))
}

fn piece_letter(
    cx: &Ctx<'_>,
    variant: &Variant,
    key: &str,
    text: &str,
) -> Result<pocketlab_core::PieceType, ExperimentError> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_uppercase() => variant.piece_by_letter(c).ok_or_else(|| {
            cx.err(
                key,
                format!("'{c}' is not a piece of variant '{}'", variant.name),
            )
        }),
        _ => Err(cx.err(key, format!("'{text}' is not one upper-case piece letter"))),
    }
}

fn army_from_file(
    cx: &Ctx<'_>,
    variant: &Variant,
    rule_overrides: &str,
    name: &str,
    army: &file::ArmyFile,
    base_engine: (&EngineSettings, &EngineFile),
) -> Result<Army, ExperimentError> {
    let key = format!("armies.{name}");
    let mut replace = Vec::new();
    let start = Position::start(variant);
    for (from, to) in &army.replace {
        let k = format!("{key}.replace.{from}");
        let from_t = piece_letter(cx, variant, &k, from)?;
        let to_t = piece_letter(cx, variant, &k, to)?;
        if from_t == variant.royal || to_t == variant.royal {
            return Err(cx.err(k, "the royal piece cannot be substituted"));
        }
        if start.pieces_of_type(from_t).is_empty() {
            return Err(cx.err(k, format!("the start position has no '{from}' to replace")));
        }
        replace.push((from_t, to_t));
    }
    let mut remove = Vec::new();
    for sq in &army.remove {
        let k = format!("{key}.remove");
        let square: Square = sq
            .parse()
            .map_err(|e: pocketlab_core::ParseSquareError| cx.err(&k, e.to_string()))?;
        match start.piece_at(square) {
            Some(p) if p.color == pocketlab_core::Color::White && p.kind != variant.royal => {
                remove.push(square);
            }
            Some(_) => {
                return Err(cx.err(
                    &k,
                    format!("{sq} holds the royal piece, which cannot be removed"),
                ));
            }
            None => {
                return Err(cx.err(
                    &k,
                    format!(
                        "{sq} is empty in the start position (squares are from the army's own side)"
                    ),
                ));
            }
        }
    }
    let mut pocket = Vec::new();
    for c in army.pocket.chars() {
        pocket.push(piece_letter(
            cx,
            variant,
            &format!("{key}.pocket"),
            &c.to_string(),
        )?);
    }
    if army.castling == Some(false) && variant.rules.castling.is_none() {
        return Err(cx.err(
            format!("{key}.castling"),
            format!("variant '{}' has no castling to take away", variant.name),
        ));
    }
    let identities = match army.identities {
        None | Some(IdentitiesName::Potential) => Identities::Potential,
        Some(IdentitiesName::Fixed) if variant.rules.potential.is_some() => Identities::Fixed,
        Some(IdentitiesName::Fixed) => {
            return Err(cx.err(
                format!("{key}.identities"),
                format!(
                    "variant '{}' is not Potential Chess (no [potential] army): its pieces' identities are always known",
                    variant.name
                ),
            ));
        }
    };
    let engine = match &army.engine {
        Some(e) => engine::engine_settings(
            cx,
            &format!("{key}.engine"),
            e,
            Some(base_engine),
            variant,
            rule_overrides,
        )?,
        None => base_engine.0.clone(),
    };
    Ok(Army {
        name: name.to_owned(),
        replace,
        remove,
        place: Vec::new(),
        pocket,
        castling: army.castling.unwrap_or(true),
        identities,
        engine,
    })
}

fn army_index(
    cx: &Ctx<'_>,
    armies: &[Army],
    key: &str,
    name: &str,
) -> Result<usize, ExperimentError> {
    armies.iter().position(|a| a.name == name).ok_or_else(|| {
        cx.err(
            key,
            format!("no army named '{name}' (define it under [armies.{name}])"),
        )
    })
}

fn openings(
    cx: &Ctx<'_>,
    f: &ExperimentFile,
    variant: &Variant,
) -> Result<Openings, ExperimentError> {
    let random_plies = f.openings.random_plies.unwrap_or(4);
    if random_plies > 40 {
        return Err(cx.err("openings.random_plies", "at most 40"));
    }
    let mut book = Vec::new();
    if let Some(path) = &f.openings.book {
        let (label, text) = cx.read("openings.book", "book", path)?;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            GameKind::of(variant)
                .parse_position(line)
                .map_err(|e| cx.err("openings.book", format!("{label} line {}: {e}", i + 1)))?;
            book.push(line.to_owned());
        }
        if book.is_empty() {
            return Err(cx.err("openings.book", format!("{label} holds no position")));
        }
    }
    Ok(Openings { random_plies, book })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::Experiment;

    fn with_published(published: &str) -> Result<Experiment, super::ExperimentError> {
        let text = format!(
            "name = \"t\"\nvariant = \"chess\"\nseed = 1\n\
             [armies.standard]\n[armies.no-knight]\nremove = [\"b1\"]\n\
             [armies.no-bishop]\nremove = [\"c1\"]\n\
             [[matchups]]\na = \"no-knight\"\nb = \"no-bishop\"\n\
             [[matchups]]\na = \"standard\"\nb = \"no-knight\"\n{published}"
        );
        Experiment::parse("t.toml", &text, Path::new("."))
    }

    #[test]
    fn published_differences_belong_to_their_matchup() {
        let exp = with_published(
            "published = [{ source = \"Kaufman (1999)\", pawns = 3.25 }, \
             { source = \" Muller \", pawns = 3.0 }]",
        )
        .unwrap();
        let found: Vec<_> = exp
            .published
            .iter()
            .map(|p| {
                (
                    exp.matchups[p.matchup].name.as_str(),
                    p.source.as_str(),
                    p.pawns,
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                ("standard-vs-no-knight", "Kaufman (1999)", 3.25),
                ("standard-vs-no-knight", "Muller", 3.0)
            ]
        );
        assert!(with_published("").unwrap().published.is_empty());
    }

    #[test]
    fn bad_published_differences_name_their_key() {
        for (published, why) in [
            (
                "published = [{ source = \"\", pawns = 1.0 }]",
                "source is empty",
            ),
            (
                "published = [{ source = \"K\", pawns = nan }]",
                "between -100 and 100",
            ),
            (
                "published = [{ source = \"K\", pawns = 1e9 }]",
                "between -100 and 100",
            ),
        ] {
            let e = with_published(published).unwrap_err();
            assert_eq!(e.key, "matchups[2].published[1]", "{e}");
            assert!(e.reason.contains(why), "{e}");
        }
        let e = with_published("published = [{ source = \"K\", pawn = 1.0 }]").unwrap_err();
        assert!(e.to_string().contains("pawn"), "{e}");
    }

    fn castling_experiment(variant: &str) -> Result<Experiment, super::ExperimentError> {
        let text = format!(
            "name = \"t\"\nvariant = \"{variant}\"\nseed = 1\n\
             [armies.full]\n[armies.no-castling]\ncastling = false\n\
             [[matchups]]\na = \"full\"\nb = \"no-castling\"\n"
        );
        Experiment::parse("t.toml", &text, Path::new("."))
    }

    #[test]
    fn an_army_without_castling_starts_without_its_rights_in_both_colours() {
        let exp = castling_experiment("chess-mutation").unwrap();
        let (full, none) = (&exp.armies[0], &exp.armies[1]);
        assert!(!none.castling);
        let rights = |white, black| {
            let fen = super::start_fen(&exp.variant, white, black).unwrap();
            fen.split_whitespace().nth(2).unwrap().to_owned()
        };
        assert_eq!(rights(full, none), "KQ");
        assert_eq!(rights(none, full), "kq");
        assert_eq!(rights(full, full), "KQkq");
        // Not a piece exchange, and not the same setup.
        assert_eq!(super::pieces_exchanged(&exp.variant, full, none), None);
        assert!(!super::same_setup(&exp.variant, full, none));
        assert_eq!(none.describe(&exp.variant), "no castling");
    }

    #[test]
    fn castling_cannot_be_taken_from_a_variant_without_it() {
        let e = castling_experiment("chess-nocastle").unwrap_err();
        assert_eq!(e.key, "armies.no-castling.castling", "{e}");
        assert!(e.reason.contains("no castling"), "{e}");
    }

    const BASE: &str = "name = \"base\"\ndescription = \"the base\"\nvariant = \"chess\"\nseed = 7\n\
        [engine]\nnodes = 1000\nhash_mb = 4\n\
        [armies.standard]\n[armies.no-knight]\nremove = [\"b1\"]\n\
        [[matchups]]\na = \"standard\"\nb = \"no-knight\"\n";

    /// `files` written into a fresh directory, then `first` loaded.
    fn load_in_dir(
        files: &[(&str, &str)],
        first: &str,
    ) -> Result<Experiment, super::ExperimentError> {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        Experiment::load(&dir.path().join(first))
    }

    #[test]
    fn an_inheriting_experiment_changes_only_what_it_states() {
        let child = "name = \"child\"\ninherits = \"base.toml\"\n[engine]\nnodes = 2000\n";
        let exp = load_in_dir(&[("base.toml", BASE), ("child.toml", child)], "child.toml").unwrap();
        let base = load_in_dir(&[("base.toml", BASE)], "base.toml").unwrap();
        assert_eq!((exp.name.as_str(), exp.description.as_str()), ("child", ""));
        assert_eq!(exp.seed, base.seed);
        assert_eq!(exp.matchups, base.matchups);
        let (engine, base_engine) = (&exp.armies[0].engine, &base.armies[0].engine);
        assert_eq!((engine.nodes, base_engine.nodes), (Some(2000), Some(1000)));
        let mut with_base_nodes = engine.clone();
        with_base_nodes.nodes = base_engine.nodes;
        assert_eq!(&with_base_nodes, base_engine, "only nodes differ");
        // The experiment as run is one file that needs no other.
        let keys: toml::Table = toml::from_str(&exp.source_text).unwrap();
        assert!(!keys.contains_key("inherits"), "{}", exp.source_text);
        let again = Experiment::parse("copy.toml", &exp.source_text, &exp.dir).unwrap();
        assert_eq!(again.source_hash, exp.source_hash);
        assert_eq!(again.armies, exp.armies);
    }

    #[test]
    fn a_changed_parent_changes_the_experiment_and_a_comment_does_not() {
        let child = "name = \"child\"\ninherits = \"base.toml\"\n";
        let hash = |base: &str| {
            load_in_dir(&[("base.toml", base), ("child.toml", child)], "child.toml")
                .unwrap()
                .source_hash
        };
        let commented = format!("# a note\n{BASE}");
        assert_eq!(hash(BASE), hash(&commented));
        assert_ne!(
            hash(BASE),
            hash(&BASE.replace("hash_mb = 4", "hash_mb = 8"))
        );
    }

    #[test]
    fn bad_inheritance_names_the_file_key_and_reason() {
        for (child, file, key, why) in [
            (
                "inherits = \"base.toml\"\n",
                "child.toml",
                "name",
                "names itself",
            ),
            (
                "name = \"c\"\ninherits = \"../base.toml\"\n",
                "child.toml",
                "inherits",
                "own directory",
            ),
            (
                "name = \"c\"\ninherits = \"none.toml\"\n",
                "child.toml",
                "inherits",
                "cannot read",
            ),
            (
                "name = \"c\"\ninherits = \"child.toml\"\n",
                "child.toml",
                "inherits",
                "cycle",
            ),
            (
                "name = \"c\"\ninherits = 3\n",
                "child.toml",
                "inherits",
                "file name",
            ),
            (
                "name = \"c\"\ninherits = \"base.toml\"\n[engine]\nnodez = 1\n",
                "child.toml",
                "",
                "nodez",
            ),
            (
                "name = \"c\"\ninherits = \"bad.toml\"\n",
                "bad.toml",
                "",
                "unknown field",
            ),
        ] {
            let files = [
                ("base.toml", BASE),
                ("child.toml", child),
                ("bad.toml", "inherits = \"base.toml\"\nwhat = 1\n"),
            ];
            let e = load_in_dir(&files, "child.toml").unwrap_err();
            assert!(e.file.ends_with(file), "{e}");
            assert_eq!(e.key, key, "{e}");
            assert!(e.reason.contains(why), "{e}");
        }
        // What the whole lacks is named with the chain.
        let e = load_in_dir(
            &[
                ("part.toml", "name = \"p\"\nseed = 1\n"),
                ("child.toml", "name = \"c\"\ninherits = \"part.toml\"\n"),
            ],
            "child.toml",
        )
        .unwrap_err();
        assert!(
            e.file.ends_with("child.toml (inheriting part.toml)") && e.reason.contains("variant"),
            "{e}"
        );
    }
}
