//! Engine settings: who plays a side (the lab's own engine, or an external
//! UCI program) and the limits each move is searched to.
//!
//! Every key of an army's `engine` table overrides the experiment's
//! `[engine]` one by one (`options` as a whole). Node and depth limits keep
//! games reproducible; `movetime` does not, and every description of such
//! an engine says `movetime=`, so logs and reports can tell.

use std::fs::File;
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

use pocketlab_core::Variant;
use pocketlab_core::builtin::{self, BUILTIN_EVAL};
use pocketlab_core::engine::EvalParams;

use super::file::EngineFile;
use super::{AbsentEval, Ctx, Experiment, ExperimentError, limits};
use crate::files::{read_eval_params, require_regular};
use crate::hash::fnv1a;
use crate::uci_player::{self, UciEngine, UciVariant};

/// Nodes per move when no limit is set anywhere.
pub const DEFAULT_NODES: u64 = 10_000;
/// Hash memory counted for an external engine without a numeric `Hash`
/// option: the usual UCI default (pocketlab's and Fairy-Stockfish's).
pub const EXTERNAL_DEFAULT_HASH_MB: usize = 16;
/// How an engine description spells a time limit.
const MOVETIME: &str = "movetime=";

/// How one player searches.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSettings {
    /// Nodes per move; `None`: no node limit ([`DEFAULT_NODES`] when no
    /// limit is set at all).
    pub nodes: Option<u64>,
    /// Search depth per move, plies (at most 60); `None`: no depth limit.
    pub depth: Option<u32>,
    /// Milliseconds per move: games with a time limit are not reproducible.
    pub movetime: Option<u64>,
    /// The lab's engine's evaluation (external engines: the default values,
    /// used only to count material in the log).
    pub eval: EvalParams,
    /// Where the evaluation parameters came from: a file as the experiment
    /// names it, `builtin`, [`SHIPPED_EVAL_LABEL`] and the shipped file's
    /// name, or [`DEFAULT_EVAL_LABEL`].
    pub eval_label: String,
    /// The lab engine's transposition table, MiB (1 to 4096; default 8).
    /// An external engine's memory is its `Hash` option instead.
    pub hash_mb: usize,
    /// The lab engine's seeded root randomness: each root move gets a bonus
    /// of up to this many centipawns (0 to 1000; 0, the default: none).
    pub root_noise: i32,
    /// Who chooses the moves: the lab's engine or an external program.
    pub program: Program,
}

/// Who chooses the moves.
#[derive(Clone, Debug, PartialEq)]
pub enum Program {
    /// The lab's own engine, in process.
    Lab,
    /// An external program spoken to over UCI (boxed: the lab's own
    /// engine, by far the common case, needs none of it).
    Uci(Box<UciEngine>),
}

impl EngineSettings {
    /// The `go` command for these limits (all that are set; the engine stops
    /// at the first reached).
    pub fn go_command(&self) -> String {
        let mut go = "go".to_owned();
        if let Some(n) = self.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        if let Some(d) = self.depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(t) = self.movetime {
            go.push_str(&format!(" movetime {t}"));
        }
        go
    }

    /// The description logged per game (`white_engine`): limits, then the
    /// lab engine's evaluation or the external program and its options.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Program::Uci(u) = &self.program {
            parts.push(format!("uci={}", u.label));
            if u.args_explicit {
                parts.push(format!("args={}", u.args.join(",")));
            }
        }
        let limits: Vec<String> = [
            self.nodes.map(|n| format!("nodes={n}")),
            self.depth.map(|d| format!("depth={d}")),
            self.movetime.map(|t| format!("{MOVETIME}{t}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        if limits.is_empty() {
            parts.push("unlimited".to_owned());
        }
        parts.extend(limits);
        match &self.program {
            Program::Lab => {
                parts.push(format!("eval={}", self.eval_label));
                if self.root_noise > 0 {
                    parts.push(format!("noise={}", self.root_noise));
                }
            }
            Program::Uci(u) => {
                match &u.variant {
                    UciVariant::Name {
                        name,
                        explicit: true,
                    } => parts.push(format!("uci_variant={name}")),
                    UciVariant::Name { .. } => {}
                    UciVariant::Unset => parts.push("uci_variant=none".to_owned()),
                }
                parts.extend(u.options.iter().map(|(k, v)| format!("{k}={v}")));
            }
        }
        parts.join(" ")
    }

    /// Whether moves are searched to a time limit (games not reproducible).
    pub fn is_time_limited(&self) -> bool {
        self.movetime.is_some()
    }

    /// Whether an engine description ([`Self::describe`], as logged)
    /// names a time limit.
    pub fn describes_time_limit(description: &str) -> bool {
        description
            .split_whitespace()
            .any(|w| w.starts_with(MOVETIME))
    }

    /// Hash memory this player takes, MiB: the lab engine's `hash_mb`, an
    /// external engine's `Hash` option (or the usual default).
    pub fn hash_memory_mb(&self) -> usize {
        match &self.program {
            Program::Lab => self.hash_mb,
            Program::Uci(u) => u
                .options
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("hash"))
                .and_then(|(_, v)| v.parse().ok())
                .unwrap_or(EXTERNAL_DEFAULT_HASH_MB),
        }
    }

    /// The longest wait for any answer of an external engine: `timeout_ms`,
    /// else a minute plus ten times the move time (generous: a timeout is
    /// for engines that hang, not for slow ones).
    pub fn answer_timeout(&self) -> Duration {
        let explicit = match &self.program {
            Program::Uci(u) => u.timeout_ms,
            Program::Lab => None,
        };
        Duration::from_millis(explicit.unwrap_or_else(|| 60_000 + 10 * self.movetime.unwrap_or(0)))
    }
}

/// The input a log records for the hand-written weights played by an
/// engine table without `eval` (a variant that ships no evaluation, or a
/// log from before evaluations were shipped).
pub(crate) const BUILTIN_RECORD: &str = "eval default";
/// The start of the input a log records for a shipped evaluation.
pub(crate) const SHIPPED_RECORD: &str = "eval shipped ";

/// The start of [`EngineSettings::eval_label`] for a variant's shipped
/// evaluation, followed by its file name (`shipped:pmc-network.toml`).
pub const SHIPPED_EVAL_LABEL: &str = "shipped:";

/// [`EngineSettings::eval_label`] of the hand-written weights played
/// because the variant ships no evaluation.
pub const DEFAULT_EVAL_LABEL: &str = "default";

/// What an engine table without `eval` plays, recorded: the variant's
/// shipped evaluation (labelled `shipped:FILE`), else the hand-written
/// weights (labelled `default`, as logs have always said).
fn default_eval(cx: &Ctx<'_>, variant: &Variant) -> (EvalParams, String) {
    let shipped = match &cx.absent_eval {
        AbsentEval::Shipped => builtin::shipped_eval(&variant.name),
        AbsentEval::Recorded(files) => builtin::shipped_eval_as_recorded(&variant.name, files),
        AbsentEval::Builtin => None,
    };
    match shipped {
        Some(eval) => {
            cx.record(format!("{SHIPPED_RECORD}{}", eval.file), eval.text);
            (eval.params(), format!("{SHIPPED_EVAL_LABEL}{}", eval.file))
        }
        None => {
            // The built-in values decide games too.
            let params = EvalParams::default();
            cx.record(BUILTIN_RECORD.to_owned(), &params.to_toml());
            (params, DEFAULT_EVAL_LABEL.to_owned())
        }
    }
}

/// The engine settings of one `engine` table over its base (`[engine]`,
/// for an army's table): the settings it inherits and the table they came
/// from (limits are inherited one by one; the default node limit only when
/// nothing sets a limit).
pub(super) fn engine_settings(
    cx: &Ctx<'_>,
    key: &str,
    e: &EngineFile,
    base: Option<(&EngineSettings, &EngineFile)>,
    variant: &Variant,
    rule_overrides: &str,
) -> Result<EngineSettings, ExperimentError> {
    let base_settings = base.map(|b| b.0);
    let (eval, eval_label) = match &e.eval {
        Some(name) if name == BUILTIN_EVAL => {
            let params = EvalParams::default();
            cx.record(format!("eval {BUILTIN_EVAL}"), &params.to_toml());
            (params, BUILTIN_EVAL.to_owned())
        }
        Some(path) => {
            // Named as the experiment writes it (so logs of files without
            // `inherits` keep their records), each parent after it.
            let record = |names: &str, text: &str| cx.record(format!("eval {names}"), text);
            let params = read_eval_params(&cx.dir, Path::new(path), &record)
                .map_err(|err| cx.err(format!("{key}.eval"), err.to_string()))?;
            (params, path.clone())
        }
        None => base_settings.map_or_else(
            || default_eval(cx, variant),
            |b| (b.eval.clone(), b.eval_label.clone()),
        ),
    };
    let movetime = e.movetime.or(base_settings.and_then(|b| b.movetime));
    let depth = e.depth.or(base_settings.and_then(|b| b.depth));
    let mut nodes = e.nodes.or(base_settings.and_then(|b| b.nodes));
    // A time-limited table does not inherit the default node limit, which
    // would cut its searches short.
    if e.movetime.is_some() && e.nodes.is_none() && base.is_some_and(|(_, f)| f.nodes.is_none()) {
        nodes = None;
    }
    if nodes.is_none() && depth.is_none() && movetime.is_none() {
        nodes = Some(DEFAULT_NODES);
    }
    if nodes == Some(0) || depth == Some(0) || movetime == Some(0) {
        return Err(cx.err(key, "nodes, depth and movetime must be at least 1"));
    }
    if depth.is_some_and(|d| d > limits::MAX_DEPTH) {
        return Err(cx.err(
            format!("{key}.depth"),
            format!("at most {}", limits::MAX_DEPTH),
        ));
    }
    if movetime.is_some_and(|t| t > limits::MAX_MOVETIME_MS) {
        return Err(cx.err(
            format!("{key}.movetime"),
            format!("at most {} milliseconds per move", limits::MAX_MOVETIME_MS),
        ));
    }
    let hash_mb = e.hash_mb.or(base_settings.map(|b| b.hash_mb)).unwrap_or(8);
    if !(1..=limits::MAX_HASH_MB).contains(&hash_mb) {
        return Err(cx.err(
            format!("{key}.hash_mb"),
            format!(
                "between 1 and {} (MiB per engine; a game has two engines)",
                limits::MAX_HASH_MB
            ),
        ));
    }
    let root_noise = e
        .root_noise
        .or(base_settings.map(|b| b.root_noise))
        .unwrap_or(0);
    if !(0..=1000).contains(&root_noise) {
        return Err(cx.err(format!("{key}.root_noise"), "between 0 and 1000 centipawns"));
    }
    let base_uci = match base_settings.map(|b| &b.program) {
        Some(Program::Uci(u)) => Some(&**u),
        _ => None,
    };
    let program = if e.uci.is_some() || base_uci.is_some() {
        for (set, name) in [
            (e.eval.is_some(), "eval"),
            (e.hash_mb.is_some(), "hash_mb"),
            (e.root_noise.is_some(), "root_noise"),
        ] {
            if set {
                return Err(cx.err(
                    format!("{key}.{name}"),
                    "a setting of the lab's own engine, and this engine is an external UCI program: \
                     set the program's own options instead (e.g. options = { Hash = 16 }; pocketlab's \
                     EvalFile for evaluation parameters)",
                ));
            }
        }
        Program::Uci(Box::new(uci_engine(
            cx,
            key,
            e,
            base_uci,
            variant,
            rule_overrides,
        )?))
    } else {
        for (set, name) in [
            (e.options.is_some(), "options"),
            (e.args.is_some(), "args"),
            (e.uci_variant.is_some(), "uci_variant"),
            (e.timeout_ms.is_some(), "timeout_ms"),
        ] {
            if set {
                return Err(cx.err(
                    format!("{key}.{name}"),
                    "applies to an external UCI engine only: set uci = \"path/to/engine\"",
                ));
            }
        }
        Program::Lab
    };
    Ok(EngineSettings {
        nodes,
        depth,
        movetime,
        eval,
        eval_label,
        hash_mb,
        root_noise,
        program,
    })
}

fn uci_engine(
    cx: &Ctx<'_>,
    key: &str,
    e: &EngineFile,
    base: Option<&UciEngine>,
    variant: &Variant,
    rule_overrides: &str,
) -> Result<UciEngine, ExperimentError> {
    let (label, path, owner) = match (&e.uci, base) {
        (Some(text), _) => {
            if text.trim().is_empty() {
                return Err(cx.err(format!("{key}.uci"), "empty: name the engine's program"));
            }
            let path = resolve_program(&cx.dir, text);
            // The program decides games: resuming with another build is refused.
            if require_regular(&path).is_ok() {
                let hash = hash_file(&path).map_err(|err| {
                    cx.err(
                        format!("{key}.uci"),
                        format!("cannot read '{}': {err}", path.display()),
                    )
                })?;
                cx.record_hash(format!("engine {text}"), hash);
            }
            (text.clone(), path, key.to_owned())
        }
        (None, Some(b)) => (b.label.clone(), b.path.clone(), b.key.clone()),
        (None, None) => unreachable!("called for an external engine"),
    };
    let (args, args_explicit) = match (&e.args, &e.uci, base) {
        (Some(args), _, _) => (args.clone(), true),
        (None, None, Some(b)) => (b.args.clone(), b.args_explicit),
        // pocketlab plays as an engine through its `uci` subcommand.
        (None, _, _) => {
            let named_pocketlab = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("pocketlab"));
            (
                if named_pocketlab {
                    vec!["uci".to_owned()]
                } else {
                    Vec::new()
                },
                false,
            )
        }
    };
    let options = match (&e.options, base) {
        (Some(table), _) => {
            let mut options = Vec::new();
            for (name, value) in table {
                let k = format!("{key}.options.{name}");
                if name.eq_ignore_ascii_case("UCI_Variant") {
                    return Err(cx.err(
                        k,
                        "the variant is sent by the lab: set uci_variant = \"name\" instead",
                    ));
                }
                let text = match value {
                    toml::Value::String(s) => s.clone(),
                    toml::Value::Integer(i) => i.to_string(),
                    toml::Value::Float(f) => f.to_string(),
                    toml::Value::Boolean(b) => b.to_string(),
                    other => {
                        return Err(cx.err(
                            k,
                            format!(
                                "a {} cannot be an option value (a string, number or true/false)",
                                other.type_str()
                            ),
                        ));
                    }
                };
                if text.contains(['\n', '\r']) {
                    return Err(cx.err(k, "an option value is one line"));
                }
                // A file an option names (VariantPath, EvalFile) decides games too.
                let file = cx.dir.join(&text);
                if !text.is_empty() && require_regular(&file).is_ok() {
                    let hash = hash_file(&file).map_err(|err| {
                        cx.err(&k, format!("cannot read '{}': {err}", file.display()))
                    })?;
                    cx.record_hash(format!("engine option {name} {text}"), hash);
                }
                options.push((name.clone(), text));
            }
            options
        }
        (None, Some(b)) => b.options.clone(),
        (None, None) => Vec::new(),
    };
    let uci_variant = e.uci_variant.clone().or_else(|| {
        base.and_then(|b| match &b.variant {
            UciVariant::Name {
                name,
                explicit: true,
            } => Some(name.clone()),
            UciVariant::Name { .. } => None,
            UciVariant::Unset => Some(String::new()),
        })
    });
    let variant = match uci_variant {
        Some(name) if name.trim().is_empty() => UciVariant::Unset,
        Some(name) => {
            if name.contains(char::is_whitespace) {
                return Err(cx.err(format!("{key}.uci_variant"), "a variant name has no spaces"));
            }
            UciVariant::Name {
                name,
                explicit: true,
            }
        }
        None if !rule_overrides.is_empty() => {
            return Err(cx.err(
                format!("{key}.uci_variant"),
                format!(
                    "the experiment changes the rules of '{}' ([rules]), and an external engine told \
                     UCI_Variant '{}' would play them unchanged: set uci_variant to the name of a variant \
                     with these rules that the engine knows (with the options that define it), or \
                     uci_variant = \"\" to send none",
                    variant.name, variant.name
                ),
            ));
        }
        None => UciVariant::Name {
            name: variant.name.clone(),
            explicit: false,
        },
    };
    let timeout_ms = e.timeout_ms.or(base.and_then(|b| b.timeout_ms));
    if timeout_ms.is_some_and(|t| !(1..=limits::MAX_TIMEOUT_MS).contains(&t)) {
        return Err(cx.err(
            format!("{key}.timeout_ms"),
            format!("between 1 and {} milliseconds", limits::MAX_TIMEOUT_MS),
        ));
    }
    Ok(UciEngine {
        file: cx.file.to_owned(),
        key: owner,
        label,
        path,
        args,
        args_explicit,
        dir: absolute(&cx.dir),
        options,
        variant,
        timeout_ms,
    })
}

/// The program `text` names: a path relative to `dir` (or absolute), or,
/// for a bare name that is no file there, the first match on `PATH`. The
/// result is absolute, as the process runs in another directory.
fn resolve_program(dir: &Path, text: &str) -> PathBuf {
    let beside = dir.join(text);
    let found = if text.contains('/') || beside.exists() {
        beside
    } else {
        std::env::var_os("PATH")
            .iter()
            .flat_map(std::env::split_paths)
            .map(|d| d.join(text))
            .find(|p| p.is_file())
            .unwrap_or(beside)
    };
    absolute(&found)
}

/// `path` made absolute against the current directory (`""` is `.`).
fn absolute(path: &Path) -> PathBuf {
    let path = if path.as_os_str().is_empty() {
        Path::new(".")
    } else {
        path
    };
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// FNV-1a of a file of any size, read in blocks (engine programs and
/// network files are large and not text).
fn hash_file(path: &Path) -> io::Result<u64> {
    let mut file = File::open(path)?;
    let mut buffer = vec![0u8; 1 << 16];
    let mut hash = fnv1a(None, &[]);
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            return Ok(hash);
        }
        hash = fnv1a(Some(hash), &buffer[..n]);
    }
}

impl Experiment {
    /// Start every external engine once, as a worker would, and check it:
    /// it answers `uci` and `isready` in time, advertises every option the
    /// experiment sets (with a value it accepts) and knows the variant.
    /// Called before a run plays anything; the lab's own engines need no
    /// check.
    pub fn check_engines(&self) -> Result<(), ExperimentError> {
        let mut checked: Vec<&EngineSettings> = Vec::new();
        for army in &self.armies {
            let Program::Uci(u) = &army.engine.program else {
                continue;
            };
            if checked.iter().any(|c| {
                c.program == army.engine.program
                    && c.answer_timeout() == army.engine.answer_timeout()
            }) {
                continue;
            }
            checked.push(&army.engine);
            uci_player::check(u, army.engine.answer_timeout()).map_err(|reason| {
                ExperimentError {
                    file: u.file.clone(),
                    key: format!("{}.uci", u.key),
                    reason: format!("engine '{}': {reason}", u.label),
                }
            })?;
        }
        Ok(())
    }
}
