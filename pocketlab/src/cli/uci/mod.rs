//! `pocketlab uci`: the Universal Chess Interface, for every shipped variant
//! and any variant file.
//!
//! The protocol logic lives in [`UciSession`], which takes one input line at
//! a time and writes its answers to a shared [`Write`] sink, so it can be
//! driven without a process; [`run`] only connects it to stdin and stdout.
//!
//! Searches run on an engine thread that owns a copy of the variant and
//! the engine built from it (`engine.rs`), so `stop`, `isready` and `quit`
//! are answered during a search, and nothing is leaked to outlive the
//! session. Every `go` is answered by exactly one
//! `bestmove` (a `go` sent while a search is still running is refused with
//! an error instead), also when some of its arguments were rejected: a GUI
//! waiting for a move must never hang on our account.
//!
//! Bad input (unknown commands, bad FEN, illegal moves, bad option values)
//! is answered with `info string error: <reason>` and changes nothing.
//!
//! Choices a GUI author may want to know:
//! * `UCI_Variant` defaults to `chess` (not the lab's default,
//!   `pocket-mutation`) so that standard chess GUIs work out of the box.
//!   Setting it, or `VariantFile`, resets the position to the new variant's
//!   start position.
//! * `go` with no limit at all searches until `stop`, like `go infinite`.
//! * Time management: with the mover's clock `t`, increment `i` and
//!   `movestogo` `m` (30 when absent) the search gets `t / m + 0.8 i`, capped
//!   at `t / 2`, and at least 1 ms. `movetime` is used as given; with both,
//!   the smaller wins. `depth` and `nodes` limits apply on top.
//! * At end of input a running finite search is allowed to finish (so
//!   `printf 'position startpos\ngo depth 8\n' | pocketlab uci` prints its
//!   move); an infinite one is stopped. `quit` stops any search at once.
//! * Potential Chess variants (`UCI_Variant potential-chess`, or a variant
//!   file with a `[potential]` army) take positions as potential text
//!   (`position fen xxxxxxxx/…[] w - 0 1`) and moves in the seed's
//!   notation (`d2-d4>QRP`, `c4:d5>Q(b)`), and answer in it; their
//!   searcher reports one `info` line, for its last iteration.
//! * Before `bestmove`, a last `info` line gives the search's true totals
//!   (nodes and time of the last, partial iteration included).

mod engine;
mod go;
mod position;

use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};

use pocketlab_core::Variant;
use pocketlab_core::builtin::{self, BUILTIN_EVAL};
use pocketlab_core::engine::{EvalParams, SearchOptions};
use pocketlab_core::kind::GameKind;

use engine::{EngineWorker, SearchJob};
use go::GoRequest;
use position::{PositionSpec, PositionSummary};

/// Where the session writes its answers; shared with the search thread.
pub type Sink = Arc<Mutex<dyn Write + Send>>;

/// The variant a session starts with. See the module documentation for why
/// it is `chess` rather than the lab's default.
pub const DEFAULT_VARIANT: &str = "chess";

const HASH_DEFAULT_MB: usize = 16;
const HASH_MAX_MB: usize = 4096;
const ROOT_NOISE_MAX: i32 = 1000;
/// GUIs store spin values as 32-bit integers.
const SEED_MAX: u64 = i32::MAX as u64;

/// Connect a session to stdin and stdout until `quit` or end of input.
pub fn run() -> anyhow::Result<()> {
    let out: Sink = Arc::new(Mutex::new(io::stdout()));
    let mut session = UciSession::new(out);
    let mut input = io::stdin().lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        // Bytes, not `lines()`: input that is not UTF-8 must not end the session.
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) => break,
            Ok(_) => {
                if session.handle(&String::from_utf8_lossy(&buffer)) == Flow::Quit {
                    return Ok(());
                }
            }
            Err(e) => {
                session.finish();
                return Err(anyhow::Error::new(e).context("reading standard input"));
            }
        }
    }
    session.finish();
    Ok(())
}

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Settings that take effect when the next searcher is built.
#[derive(Clone, Debug)]
struct Config {
    hash_megabytes: usize,
    root_noise: i32,
    seed: u64,
    eval: EvalChoice,
}

/// The evaluation the next engine plays (`EvalFile`).
#[derive(Clone, Debug, PartialEq)]
enum EvalChoice {
    /// The variant's shipped evaluation, else the hand-written weights
    /// (`EvalFile` empty, the default).
    Shipped,
    /// The hand-written weights (`EvalFile builtin`).
    Builtin,
    /// A parameter file's.
    File(Box<EvalParams>),
}

/// A search in flight and the handles to stop and await it.
#[derive(Debug)]
struct RunningSearch {
    stop: Arc<AtomicBool>,
    /// Set just before `bestmove` is written: awaiting then cannot block for long.
    reported: Arc<AtomicBool>,
    /// Hears when `bestmove` is out (disconnects if the engine thread died).
    done: Receiver<()>,
    infinite: bool,
}

/// One UCI conversation.
pub struct UciSession {
    out: Sink,
    config: Config,
    variant: Arc<Variant>,
    /// Shipped variants built so far, by name.
    shipped: HashMap<&'static str, Arc<Variant>>,
    position: PositionSpec,
    /// The current position, as answers without a search need it.
    summary: PositionSummary,
    /// The engine thread; `None` before the first `go` or after a change
    /// of variant or options.
    engine: Option<EngineWorker>,
    search: Option<RunningSearch>,
}

impl fmt::Debug for UciSession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UciSession")
            .field("variant", &self.variant.name)
            .field("position", &self.summary.text)
            .field("config", &self.config)
            .field("searching", &self.search.is_some())
            .finish_non_exhaustive()
    }
}

impl UciSession {
    pub fn new(out: Sink) -> UciSession {
        let mut shipped = HashMap::new();
        let variant = shipped_variant(&mut shipped, DEFAULT_VARIANT)
            .expect("the embedded chess variant builds");
        let summary = start_summary(&variant);
        UciSession {
            out,
            config: Config {
                hash_megabytes: HASH_DEFAULT_MB,
                root_noise: 0,
                seed: 0,
                eval: EvalChoice::Shipped,
            },
            variant,
            shipped,
            position: PositionSpec::default(),
            summary,
            engine: None,
            search: None,
        }
    }

    /// Handle one input line. Unknown leading words are reported and
    /// skipped, as the UCI specification asks (`joho debug on` is `debug on`).
    pub fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() {
            return Flow::Continue;
        }
        let Some(start) = tokens.iter().position(|t| is_command(t)) else {
            self.error(format_args!("unknown command '{}'", tokens.join(" ")));
            return Flow::Continue;
        };
        if start > 0 {
            self.error(format_args!(
                "unknown command '{}' ignored",
                tokens[..start].join(" ")
            ));
        }
        let args = &tokens[start + 1..];
        match tokens[start] {
            "uci" => self.uci(),
            "isready" => self.say("readyok"),
            "debug" | "register" => {}
            "ucinewgame" => self.new_game(),
            "setoption" => {
                // The raw text from the command on: option values keep their spacing.
                let from = tokens[start].as_ptr() as usize - line.as_ptr() as usize;
                self.set_option(&line[from..]);
            }
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.stop(),
            "ponderhit" => self.error("ponderhit: pondering is not supported"),
            "quit" => {
                self.stop();
                return Flow::Quit;
            }
            other => unreachable!("is_command accepted '{other}'"),
        }
        Flow::Continue
    }

    /// End of input: let a finite search finish, stop an infinite one.
    pub fn finish(&mut self) {
        if self.search.as_ref().is_some_and(|s| s.infinite) {
            self.stop();
        } else {
            self.join_search();
        }
    }

    fn uci(&self) {
        let variants: String = builtin::names().map(|n| format!(" var {n}")).collect();
        self.say(&format!("id name pocketlab {}", env!("CARGO_PKG_VERSION")));
        self.say("id author pocketlab developers");
        self.say(&format!(
            "option name Hash type spin default {HASH_DEFAULT_MB} min 1 max {HASH_MAX_MB}"
        ));
        self.say(&format!(
            "option name UCI_Variant type combo default {DEFAULT_VARIANT}{variants}"
        ));
        self.say("option name VariantFile type string default <empty>");
        self.say("option name EvalFile type string default <empty>");
        self.say(&format!(
            "option name RootNoise type spin default 0 min 0 max {ROOT_NOISE_MAX}"
        ));
        self.say(&format!(
            "option name Seed type spin default 0 min 0 max {SEED_MAX}"
        ));
        self.say("uciok");
    }

    /// The engine forgets earlier positions once its current search (if
    /// any) is done; requests reach its thread in order.
    fn new_game(&self) {
        if let Some(engine) = &self.engine {
            engine.new_game();
        }
    }

    /// `setoption name <name> [value <value>]`; names are case-insensitive,
    /// values are taken verbatim (file paths may contain spaces).
    fn set_option(&mut self, line: &str) {
        let Some((name, value)) = parse_setoption(line) else {
            self.error("setoption: expected 'setoption name <name> [value <value>]'");
            return;
        };
        if let Err(reason) = self.apply_option(&name, value.as_deref().unwrap_or("")) {
            self.error(format_args!("setoption {name}: {reason}"));
        }
    }

    fn apply_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                self.config.hash_megabytes = parse_spin(value, 1, HASH_MAX_MB as u64)? as usize;
            }
            "rootnoise" => {
                self.config.root_noise = parse_spin(value, 0, ROOT_NOISE_MAX as u64)? as i32;
            }
            "seed" => self.config.seed = parse_spin(value, 0, SEED_MAX)?,
            "evalfile" => self.config.eval = eval_choice(value)?,
            "uci_variant" => {
                let name = builtin::names()
                    .find(|n| n.eq_ignore_ascii_case(value))
                    .ok_or_else(|| {
                        format!(
                            "'{value}' is not a shipped variant ({})",
                            builtin::names().collect::<Vec<_>>().join(", ")
                        )
                    })?;
                let variant = shipped_variant(&mut self.shipped, name)?;
                self.switch_variant(variant);
                return Ok(());
            }
            "variantfile" => {
                if is_empty_value(value) {
                    return Ok(());
                }
                let variant = pocketlab_selfplay::load_variant(value).map_err(|e| e.to_string())?;
                self.switch_variant(Arc::new(variant));
                return Ok(());
            }
            _ => return Err("no such option".into()),
        }
        self.retire_engine();
        Ok(())
    }

    /// The parameters `EvalFile` chooses for the current variant.
    fn eval_params(&self) -> EvalParams {
        match &self.config.eval {
            EvalChoice::Shipped => builtin::shipped_eval(&self.variant.name)
                .map(|eval| eval.params())
                .unwrap_or_default(),
            EvalChoice::Builtin => EvalParams::default(),
            EvalChoice::File(params) => (**params).clone(),
        }
    }

    fn switch_variant(&mut self, variant: Arc<Variant>) {
        self.summary = start_summary(&variant);
        self.variant = variant;
        self.position = PositionSpec::default();
        self.retire_engine();
    }

    /// The next `go` starts an engine with the current variant and options.
    /// A running search finishes on the old one, whose thread then ends.
    fn retire_engine(&mut self) {
        self.engine = None;
    }

    /// `position startpos|fen <FEN> [moves …]`. All or nothing: on any
    /// error the previous position stays.
    fn set_position(&mut self, args: &[&str]) {
        let kind = GameKind::of(&self.variant);
        let checked = PositionSpec::parse(args).and_then(|spec| {
            let (position, _) = spec.replay(&kind)?;
            Ok((PositionSummary::of(&position), spec))
        });
        match checked {
            Ok((summary, spec)) => {
                self.summary = summary;
                self.position = spec;
            }
            Err(reason) => self.error(format_args!("position: {reason}")),
        }
    }

    fn go(&mut self, args: &[&str]) {
        if let Some(running) = &self.search {
            if !running.reported.load(Ordering::Acquire) {
                self.error("go: a search is already running; send stop first");
                return;
            }
            self.join_search();
        }
        let (request, errors) = GoRequest::parse(args);
        for e in errors {
            self.error(format_args!("go: {e}"));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let mut limits = request.limits(self.summary.side_to_move);
        limits.stop = Some(Arc::clone(&stop));
        let infinite = request.is_infinite();
        let reported = Arc::new(AtomicBool::new(false));
        let (done_tx, done) = mpsc::channel();
        let mut job = SearchJob {
            position: self.position.clone(),
            limits,
            infinite,
            stop: Arc::clone(&stop),
            reported: Arc::clone(&reported),
            out: Arc::clone(&self.out),
            done: done_tx,
        };
        // One retry: an engine thread that died is replaced.
        for _ in 0..2 {
            let engine = match self.engine.take() {
                Some(engine) => engine,
                None => match EngineWorker::spawn(
                    Arc::clone(&self.variant),
                    self.eval_params(),
                    self.search_options(),
                ) {
                    Ok(engine) => engine,
                    Err(e) => {
                        self.error(format_args!("go: cannot start the engine thread: {e}"));
                        break;
                    }
                },
            };
            match engine.search(job) {
                Ok(()) => {
                    self.engine = Some(engine);
                    self.search = Some(RunningSearch {
                        stop,
                        reported,
                        done,
                        infinite,
                    });
                    return;
                }
                Err(returned) => job = *returned,
            }
        }
        self.say(&format!("bestmove {}", self.summary.any_move));
    }

    fn search_options(&self) -> SearchOptions {
        SearchOptions {
            hash_megabytes: self.config.hash_megabytes,
            root_noise: self.config.root_noise,
            seed: self.config.seed,
        }
    }

    /// Stop a running search and wait for its `bestmove`.
    fn stop(&mut self) {
        if let Some(running) = &self.search {
            running.stop.store(true, Ordering::Release);
            // An infinite search that already finished waits parked for `stop`.
            if let Some(engine) = &self.engine {
                engine.wake();
            }
        }
        self.join_search();
    }

    /// Wait for the running search's `bestmove`, if any.
    fn join_search(&mut self) {
        let Some(running) = self.search.take() else {
            return;
        };
        if running.done.recv().is_err() {
            self.engine = None;
            self.error("the engine thread failed; a new one will be started");
        }
    }

    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    fn error(&self, reason: impl fmt::Display) {
        self.say(&format!("info string error: {reason}"));
    }
}

/// Commands the session knows.
fn is_command(token: &str) -> bool {
    matches!(
        token,
        "uci"
            | "isready"
            | "debug"
            | "register"
            | "ucinewgame"
            | "setoption"
            | "position"
            | "go"
            | "stop"
            | "ponderhit"
            | "quit"
    )
}

/// Write one line and flush. Write errors are ignored: a GUI that closed
/// our stdout also closes our stdin, which ends the session.
fn say(out: &Sink, line: &str) {
    let mut out = out.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn shipped_variant(
    cache: &mut HashMap<&'static str, Arc<Variant>>,
    name: &'static str,
) -> Result<Arc<Variant>, String> {
    if let Some(v) = cache.get(name) {
        return Ok(Arc::clone(v));
    }
    let variant = Arc::new(builtin::load(name).map_err(|e| e.to_string())?);
    cache.insert(name, Arc::clone(&variant));
    Ok(variant)
}

/// The summary of a variant's start position.
fn start_summary(variant: &Variant) -> PositionSummary {
    let kind = GameKind::of(variant);
    PositionSummary::of(&kind.start_position())
}

/// `<empty>` is how UCI GUIs write an empty string option.
fn is_empty_value(value: &str) -> bool {
    value.is_empty() || value == "<empty>"
}

/// `EvalFile`: empty for the variant's shipped evaluation, `builtin` for
/// the hand-written weights, else a parameter file's path.
fn eval_choice(value: &str) -> Result<EvalChoice, String> {
    if is_empty_value(value) {
        return Ok(EvalChoice::Shipped);
    }
    if value == BUILTIN_EVAL {
        return Ok(EvalChoice::Builtin);
    }
    pocketlab_training::load_params(std::path::Path::new(value))
        .map(|params| EvalChoice::File(Box::new(params)))
        .map_err(|e| e.to_string())
}

fn parse_spin(value: &str, min: u64, max: u64) -> Result<u64, String> {
    let n: u64 = value
        .parse()
        .map_err(|_| format!("'{value}' is not a whole number"))?;
    if (min..=max).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{n} is outside {min}..={max}"))
    }
}

/// Split `setoption name <name words> [value <rest>]` into the name (words
/// joined by one space) and the raw value after the `value` keyword.
fn parse_setoption(line: &str) -> Option<(String, Option<String>)> {
    let rest = after_word(line, "setoption")?;
    let rest = after_word(rest, "name")?;
    let (name, value) = match find_word(rest, "value") {
        Some(at) => (
            &rest[..at],
            Some(rest[at + "value".len()..].trim().to_owned()),
        ),
        None => (rest, None),
    };
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    (!name.is_empty()).then_some((name, value))
}

/// The text after the first whitespace-delimited `word`, if it is the first word.
fn after_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let trimmed = text.trim_start();
    let rest = trimmed.strip_prefix(word)?;
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then_some(rest)
}

/// Byte offset of `word` standing alone (between whitespace or the ends).
fn find_word(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        before.is_none_or(char::is_whitespace) && after.is_none_or(char::is_whitespace)
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use pocketlab_core::Color;
    use pocketlab_core::engine::MATE;

    use super::go::clock_budget;
    use super::position::uci_score;
    use super::*;

    fn session() -> (UciSession, Arc<Mutex<Vec<u8>>>) {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let sink: Sink = buffer.clone();
        (UciSession::new(sink), buffer)
    }

    fn output(buffer: &Arc<Mutex<Vec<u8>>>) -> String {
        String::from_utf8(buffer.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn clock_budget_follows_the_documented_formula() {
        assert_eq!(clock_budget(60_000, 0, None), Duration::from_millis(2_000));
        assert_eq!(
            clock_budget(60_000, 1_000, Some(10)),
            Duration::from_millis(6_800)
        );
        // Capped at half the remaining time, and never zero.
        assert_eq!(
            clock_budget(1_000, 5_000, Some(1)),
            Duration::from_millis(500)
        );
        assert_eq!(clock_budget(0, 0, None), Duration::from_millis(1));
    }

    #[test]
    fn go_uses_the_side_to_moves_clock_and_the_smaller_limit() {
        let (request, errors) = GoRequest::parse(&[
            "wtime", "60000", "btime", "3000", "winc", "0", "binc", "0", "movetime", "5000",
        ]);
        assert!(errors.is_empty());
        assert_eq!(
            request.limits(Color::White).movetime,
            Some(Duration::from_millis(2_000))
        );
        assert_eq!(
            request.limits(Color::Black).movetime,
            Some(Duration::from_millis(100))
        );
        assert!(!request.is_infinite());
        assert!(GoRequest::parse(&[]).0.is_infinite());
    }

    #[test]
    fn go_reports_bad_arguments_and_keeps_the_good_ones() {
        let (request, errors) = GoRequest::parse(&[
            "depth",
            "x",
            "frob",
            "nodes",
            "500",
            "searchmoves",
            "e2e4",
            "e2e3",
        ]);
        assert_eq!(request.nodes, Some(500));
        assert_eq!(request.depth, None);
        assert_eq!(errors.len(), 3, "{errors:?}");
    }

    #[test]
    fn mate_scores_are_reported_in_moves() {
        assert_eq!(uci_score(MATE - 1), "mate 1");
        assert_eq!(uci_score(MATE - 3), "mate 2");
        assert_eq!(uci_score(-(MATE - 2)), "mate -1");
        assert_eq!(uci_score(-35), "cp -35");
    }

    #[test]
    fn setoption_values_keep_spaces_and_names_ignore_case() {
        assert_eq!(
            parse_setoption("setoption name VariantFile value /tmp/my variant.toml"),
            Some(("VariantFile".into(), Some("/tmp/my variant.toml".into())))
        );
        assert_eq!(
            parse_setoption("setoption  name  Clear   Hash"),
            Some(("Clear Hash".into(), None))
        );
        assert_eq!(parse_setoption("setoption value 3"), None);
        let (mut s, _) = session();
        s.handle("setoption name hash value 32");
        assert_eq!(s.config.hash_megabytes, 32);
    }

    #[test]
    fn a_bad_position_keeps_the_previous_one() {
        let (mut s, buffer) = session();
        s.handle("position startpos moves e2e4");
        let fen = s.summary.text.clone();
        s.handle("position startpos moves e7e5");
        s.handle("position fen not/a/fen w");
        assert_eq!(s.summary.text, fen);
        assert_eq!(s.position.moves.len(), 1);
        assert_eq!(
            output(&buffer)
                .matches("info string error: position")
                .count(),
            2
        );
    }

    #[test]
    fn switching_variant_resets_the_position() {
        let (mut s, _) = session();
        s.handle("position startpos moves e2e4");
        s.handle("setoption name UCI_Variant value Pocket-Mutation");
        assert_eq!(s.variant.name, "pocket-mutation");
        assert_eq!(s.summary.text, s.variant.start_fen);
        assert_eq!(s.position.moves.len(), 0);
    }

    #[test]
    fn variant_and_eval_files_are_loaded_from_disk() {
        let dir = std::env::temp_dir().join(format!("pocketlab-uci-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let variant = dir.join("knightless chess.toml");
        std::fs::write(
            &variant,
            "name = \"knightless\"\ninherits = \"chess\"\n\
             start = \"r1bqkb1r/pppppppp/8/8/8/8/PPPPPPPP/R1BQKB1R w KQkq - 0 1\"\n",
        )
        .unwrap();
        let params = dir.join("params.toml");
        std::fs::write(&params, "tempo = 20\n").unwrap();

        let (mut s, buffer) = session();
        s.handle(&format!(
            "setoption name VariantFile value {}",
            variant.display()
        ));
        s.handle(&format!(
            "setoption name EvalFile value {}",
            params.display()
        ));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(output(&buffer), "");
        assert_eq!(s.variant.name, "knightless");
        assert_eq!(s.summary.text, s.variant.start_fen);
        assert_eq!(s.eval_params().tempo, 20);
        s.handle("setoption name EvalFile value <empty>");
        // The knightless variant ships no evaluation: the hand-written weights.
        assert_eq!(s.config.eval, EvalChoice::Shipped);
        assert_eq!(s.eval_params(), EvalParams::default());
    }

    #[test]
    fn a_shipped_variant_plays_its_shipped_evaluation_unless_told_otherwise() {
        let (mut s, buffer) = session();
        let chess = builtin::shipped_eval("chess").unwrap().params();
        assert_eq!(s.variant.name, "chess");
        assert_eq!(s.eval_params(), chess);
        s.handle("setoption name UCI_Variant value pocket-mutation");
        let pmc = builtin::shipped_eval("pocket-mutation").unwrap().params();
        assert_eq!(s.eval_params(), pmc);
        s.handle("setoption name EvalFile value builtin");
        assert_eq!(s.eval_params(), EvalParams::default());
        s.handle("setoption name UCI_Variant value chess-mutation");
        s.handle("setoption name EvalFile value <empty>");
        assert_eq!(s.eval_params(), EvalParams::default());
        assert_eq!(output(&buffer), "");
    }

    #[test]
    fn unknown_leading_words_are_skipped() {
        let (mut s, buffer) = session();
        assert_eq!(s.handle("joho isready"), Flow::Continue);
        let out = output(&buffer);
        assert!(out.contains("info string error: unknown command 'joho' ignored"));
        assert!(out.ends_with("readyok\n"));
    }

    #[test]
    fn a_search_answers_with_one_bestmove() {
        let (mut s, buffer) = session();
        s.handle("position startpos");
        s.handle("go depth 2");
        s.finish();
        let out = output(&buffer);
        assert_eq!(out.matches("bestmove ").count(), 1, "{out}");
        assert!(out.contains("info depth 2 "), "{out}");
    }

    #[test]
    fn an_immediate_stop_gives_a_bestmove_and_no_bogus_score() {
        let (mut s, buffer) = session();
        s.handle("position startpos");
        s.handle("go infinite");
        s.handle("stop");
        let out = output(&buffer);
        assert_eq!(out.matches("bestmove ").count(), 1, "{out}");
        for line in out.lines().filter(|l| l.starts_with("info depth")) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "score").unwrap();
            let value: i32 = words[at + 2].parse().unwrap();
            let sane = match words[at + 1] {
                "mate" => value.abs() <= 64,
                _ => value.abs() < MATE,
            };
            assert!(sane, "{line}");
        }
    }

    #[test]
    fn a_position_without_moves_answers_0000() {
        let (mut s, buffer) = session();
        // White is checkmated (fool's mate).
        s.handle("position startpos moves f2f3 e7e5 g2g4 d8h4");
        s.handle("go depth 3");
        s.finish();
        let out = output(&buffer);
        assert!(
            out.contains("info depth 0 score mate 0\nbestmove 0000\n"),
            "{out}"
        );
    }

    #[test]
    fn potential_chess_takes_and_gives_moves_in_the_seeds_notation() {
        let (mut s, buffer) = session();
        s.handle("uci");
        assert!(output(&buffer).contains(" var potential-chess"));
        s.handle("setoption name UCI_Variant value potential-chess");
        s.handle("position startpos moves d2-d4>QRP a7-b5>n d1-d2>!BN h7-g5>n");
        assert_eq!(
            s.summary.text,
            "(!kn)(!n)(!n)(!n)(!n)(!n)(!n)(!kn)/1(!kn)(!kn)(!kn)(!kn)(!kn)(!kn)1/8/1n4n1/3{QRP}4/8/\
             {!K}{!K}{!K}{!BN}'{!K}{!K}{!K}{!K}/XXX1XXXX[] w - 1 3",
            "the seed's example position"
        );
        assert_eq!(s.position.moves.len(), 4);
        s.handle("go nodes 2000");
        s.finish();
        let out = output(&buffer);
        assert!(!out.contains("error"), "{out}");
        let best = out
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .expect("one bestmove");
        let kind = GameKind::of(&s.variant);
        let (pos, _) = s.position.replay(&kind).unwrap();
        assert!(matches!(
            pos,
            pocketlab_core::kind::AnyPosition::Potential(_)
        ));
        let mv = pocketlab_core::GamePosition::parse_move(&pos, best)
            .expect("the answer is in the seed's notation");
        assert!(
            pocketlab_core::GamePosition::play(&pos, mv).is_ok(),
            "{best} is legal"
        );
        assert!(out.contains("info depth "), "{out}");

        // Back to chess: the ordinary engine and notation again.
        s.handle("setoption name UCI_Variant value chess");
        s.handle("position startpos moves e2e4");
        s.handle("go depth 2");
        s.finish();
        assert!(
            output(&buffer)
                .trim_end()
                .lines()
                .last()
                .unwrap()
                .starts_with("bestmove ")
        );
    }

    #[test]
    fn a_bad_potential_move_is_an_error_and_keeps_the_position() {
        let (mut s, buffer) = session();
        s.handle("setoption name UCI_Variant value potential-chess");
        let before = s.summary.text.clone();
        s.handle("position startpos moves d2-d5>QRP");
        assert!(output(&buffer).contains("info string error: position: move 1 of the list"));
        assert_eq!(s.summary.text, before);
    }
}
