//! External UCI engines as players.
//!
//! An external engine is a real subprocess spoken to over UCI. Each worker
//! thread keeps its processes across games (a thread-local pool, so the
//! runner needs no per-worker state) and sends `ucinewgame` before every
//! game, so a node- or depth-limited game depends only on the position and
//! the engine, never on which worker played which games before.
//!
//! Starting a process: `uci` (its options are read up to `uciok`), then the
//! experiment's options and `UCI_Variant`, then `isready`. The variant name
//! goes first when the engine lists it at once, else after the options
//! (Fairy-Stockfish learns the variants of a `VariantPath` file only then;
//! pocketlab's `VariantFile` must come after `UCI_Variant` to win). A move:
//! `position fen <start> moves ...`, `go nodes|depth|movetime`, read up to
//! `bestmove`, keeping the last `info` line's depth, nodes and score.
//!
//! Whatever an engine does wrong ends in a [`Fault`]: the caller scores the
//! game as lost for that side, logs the fault as the termination, and the
//! process is killed (the next game starts a new one).

use std::cell::RefCell;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use pocketlab_core::engine::MATE;

use crate::log::Termination;

/// An external UCI engine: what starts it and what it is told first.
#[derive(Clone, Debug)]
pub struct UciEngine {
    /// The experiment file, for messages.
    pub file: String,
    /// The table that named the program (`engine`, `armies.x.engine`), for messages.
    pub key: String,
    /// `uci` as the file writes it.
    pub label: String,
    /// The program it resolved to (absolute).
    pub path: PathBuf,
    /// Its arguments, and whether the file set them.
    pub args: Vec<String>,
    /// Whether the file set `args` (the logged description then names
    /// them); else the default: none, or `uci` for a program named
    /// `pocketlab…`.
    pub args_explicit: bool,
    /// Where the process runs: the experiment file's directory, so relative
    /// paths in option values (`VariantPath`, `EvalFile`) resolve like the
    /// file's own paths.
    pub dir: PathBuf,
    /// Options in the order they are sent (by name), values as text.
    pub options: Vec<(String, String)>,
    /// What the engine is told about the variant.
    pub variant: UciVariant,
    /// `timeout_ms` when set (else the experiment's default answer timeout).
    pub timeout_ms: Option<u64>,
}

impl PartialEq for UciEngine {
    /// The same process and setup, wherever the file named it.
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
            && self.args == other.args
            && self.dir == other.dir
            && self.options == other.options
            && self.variant == other.variant
            && self.timeout_ms == other.timeout_ms
    }
}

/// What an external engine is told about the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciVariant {
    /// This name as `UCI_Variant`. `explicit`: set by `uci_variant`, so an
    /// engine without the option is an error; else the experiment's
    /// variant name, sent when the engine has the option.
    Name {
        /// The variant name sent.
        name: String,
        /// Whether `uci_variant` set the name.
        explicit: bool,
    },
    /// `uci_variant = ""`: none is sent (the options define the variant).
    Unset,
}

impl UciVariant {
    /// The name to send, if any.
    pub fn name(&self) -> Option<&str> {
        match self {
            UciVariant::Name { name, .. } => Some(name),
            UciVariant::Unset => None,
        }
    }
}

/// Longest line kept from an engine (the rest of a longer line is dropped).
const MAX_LINE_BYTES: usize = 64 << 10;
/// Lines buffered from an engine before its output blocks.
const LINE_BUFFER: usize = 4096;
/// How often a wait looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(50);

/// What an external engine did wrong; it loses the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// `bestmove` named no legal move: illegal, unreadable, or `0000`.
    IllegalMove(String),
    /// It answered `go` (with `info` lines) but sent no `bestmove` in time.
    NoBestmove(String),
    /// The process exited, closed its pipes, or could not be (re)started.
    Crash(String),
    /// It did not answer in time (`uci`, `isready` or `go`).
    Timeout(String),
}

impl Fault {
    /// The log's termination for a game this fault lost.
    pub fn termination(&self) -> Termination {
        match self {
            Fault::IllegalMove(_) => Termination::EngineIllegalMove,
            Fault::NoBestmove(_) => Termination::EngineNoBestmove,
            Fault::Crash(_) => Termination::EngineCrash,
            Fault::Timeout(_) => Termination::EngineTimeout,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (Fault::IllegalMove(s) | Fault::NoBestmove(s) | Fault::Crash(s) | Fault::Timeout(s)) =
            self;
        f.write_str(s)
    }
}

/// Why a wait for an engine ended without an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The engine failed: its side loses the game.
    Fault(Fault),
    /// The run was interrupted (the game is not logged).
    Interrupted,
    /// The engine refused the setup (an option it does not have, a variant
    /// it does not know): an error in the experiment.
    Refused(String),
}

impl From<Fault> for Stop {
    fn from(f: Fault) -> Stop {
        Stop::Fault(f)
    }
}

/// What the engine's `info` lines said about its search (the last value
/// of each), the score from the mover's view as the lab's engine gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Search depth, plies; `None` when no `info` line gave one.
    pub depth: Option<u32>,
    /// Nodes searched; `None` when no `info` line gave them.
    pub nodes: Option<u64>,
    /// Centipawns from the mover's view, mates as `±(MATE - plies)`;
    /// `None` when no `info` line gave a `cp` or `mate` score.
    pub score: Option<i32>,
}

impl SearchInfo {
    /// Take what an `info` line says (`info string` lines say nothing).
    fn read(&mut self, line: &str) {
        let mut words = line.split_whitespace().skip(1);
        while let Some(word) = words.next() {
            match word {
                "depth" => {
                    if let Some(d) = words.next().and_then(|v| v.parse().ok()) {
                        self.depth = Some(d);
                    }
                }
                "nodes" => {
                    if let Some(n) = words.next().and_then(|v| v.parse().ok()) {
                        self.nodes = Some(n);
                    }
                }
                "score" => {
                    let kind = words.next();
                    let value = words.next().and_then(|v| v.parse::<i64>().ok());
                    if let Some(score) = value.and_then(|v| uci_score(kind?, v)) {
                        self.score = Some(score);
                    }
                }
                // The rest of the line is moves or free text.
                "pv" | "string" | "refutation" | "currline" => return,
                _ => {}
            }
        }
    }
}

/// A UCI score in the lab's convention: centipawns, mates as
/// `±(MATE - plies)` (mate in N moves is 2N-1 plies; mated in N, 2N).
fn uci_score(kind: &str, value: i64) -> Option<i32> {
    let bound = i64::from(MATE - 1);
    match kind {
        "cp" => Some(value.clamp(-bound, bound) as i32),
        "mate" => {
            let n = value.clamp(-1000, 1000) as i32;
            Some(if n > 0 {
                MATE - (2 * n - 1)
            } else {
                -(MATE + 2 * n)
            })
        }
        _ => None,
    }
}

/// An engine's answer to `go`.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The move text after `bestmove` (empty if there was none).
    pub best: String,
    /// What the `info` lines of this search said.
    pub info: SearchInfo,
}

/// One option an engine advertised.
#[derive(Clone, Debug)]
struct Advertised {
    name: String,
    kind: String,
    min: Option<i64>,
    max: Option<i64>,
    vars: Vec<String>,
}

impl Advertised {
    /// `option name <words> type <t> [default …] [min …] [max …] [var …]*`.
    fn parse(line: &str) -> Option<Advertised> {
        let mut option = Advertised {
            name: String::new(),
            kind: String::new(),
            min: None,
            max: None,
            vars: Vec::new(),
        };
        let mut field = "";
        let mut name = Vec::new();
        for word in line.split_whitespace().skip(1) {
            match word {
                "name" | "type" | "default" | "min" | "max" | "var"
                    if field != "name" || word == "type" =>
                {
                    field = word;
                    if word == "var" {
                        option.vars.push(String::new());
                    }
                }
                _ => match field {
                    "name" => name.push(word),
                    "type" => option.kind = word.to_ascii_lowercase(),
                    "min" => option.min = word.parse().ok(),
                    "max" => option.max = word.parse().ok(),
                    "var" => {
                        if let Some(last) = option.vars.last_mut() {
                            if !last.is_empty() {
                                last.push(' ');
                            }
                            last.push_str(word);
                        }
                    }
                    _ => {}
                },
            }
        }
        option.name = name.join(" ");
        (!option.name.is_empty()).then_some(option)
    }

    /// The `setoption` line for `value`, or why the value does not fit.
    fn command(&self, value: &str) -> Result<Option<String>, String> {
        let set = |v: &str| Some(format!("setoption name {} value {v}", self.name));
        match self.kind.as_str() {
            "spin" => {
                let n: i64 = value
                    .parse()
                    .map_err(|_| format!("'{value}' is not a whole number (a spin option)"))?;
                let (lo, hi) = (self.min.unwrap_or(i64::MIN), self.max.unwrap_or(i64::MAX));
                if !(lo..=hi).contains(&n) {
                    return Err(format!(
                        "{n} is outside {lo}..={hi}, the range the engine advertises"
                    ));
                }
                Ok(set(value))
            }
            "check" => match value {
                "true" | "false" => Ok(set(value)),
                _ => Err(format!("'{value}' is not true or false (a check option)")),
            },
            "combo" => self
                .vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(value))
                .map(|v| set(v))
                .ok_or_else(|| {
                    format!(
                        "'{value}' is not one of its values ({})",
                        self.vars.join(", ")
                    )
                }),
            // A button is pressed by `true`, left alone by `false`.
            "button" => match value {
                "true" => Ok(Some(format!("setoption name {}", self.name))),
                "false" => Ok(None),
                _ => Err("a button: true presses it".to_owned()),
            },
            _ => Ok(set(value)),
        }
    }
}

/// The `position` command for a game from `start` after `moves`.
pub fn position_command(start: &str, moves: &[String]) -> String {
    if moves.is_empty() {
        format!("position fen {start}")
    } else {
        format!("position fen {start} moves {}", moves.join(" "))
    }
}

/// A running engine process, ready for a game.
#[derive(Debug)]
pub struct UciProcess {
    spec: UciEngine,
    timeout: Duration,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl UciProcess {
    /// Start the program and set it up; `Refused` names what the engine
    /// does not accept.
    pub fn start(
        spec: &UciEngine,
        timeout: Duration,
        interrupt: Option<&AtomicBool>,
    ) -> Result<UciProcess, Stop> {
        let mut command = Command::new(&spec.path);
        command
            .args(&spec.args)
            .current_dir(&spec.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group: a Ctrl-C at the terminal reaches the
        // runner, which stops its games, not the engines mid-search (a
        // killed engine would be logged as a crash).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| {
            Stop::Fault(Fault::Crash(format!(
                "cannot start '{}': {e}",
                spec.path.display()
            )))
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Fault::Crash("no pipes to the process".into()).into());
        };
        let (sender, lines) = sync_channel(LINE_BUFFER);
        let reader = std::thread::Builder::new()
            .name("uci-reader".into())
            .spawn(move || read_lines(stdout, &sender));
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Fault::Crash(format!("cannot start a reader thread: {e}")).into());
        }
        let mut process = UciProcess {
            spec: spec.clone(),
            timeout,
            child,
            stdin,
            lines,
        };
        process.set_up(interrupt)?;
        Ok(process)
    }

    /// `uci`, the options and the variant, `isready`.
    fn set_up(&mut self, interrupt: Option<&AtomicBool>) -> Result<(), Stop> {
        let advertised = self.handshake(interrupt)?;
        let find = |name: &str| {
            advertised
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(name))
        };
        let mut options = Vec::new();
        for (name, value) in &self.spec.options {
            let option = find(name).ok_or_else(|| {
                let names: Vec<&str> = advertised.iter().map(|o| o.name.as_str()).collect();
                Stop::Refused(format!(
                    "option '{name}' is not one the engine advertises (it has: {})",
                    names.join(", ")
                ))
            })?;
            let command = option
                .command(value)
                .map_err(|reason| Stop::Refused(format!("option '{name}': {reason}")))?;
            options.extend(command);
        }
        let variant_option = find("UCI_Variant").cloned();
        let knows = |o: &Advertised, name: &str| {
            o.vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(name))
                .cloned()
        };
        let mut late_variant = None;
        match (&self.spec.variant, &variant_option) {
            (UciVariant::Unset, _) => {}
            (UciVariant::Name { name, explicit }, None) => {
                if *explicit {
                    return Err(Stop::Refused(format!(
                        "uci_variant '{name}' is set, but the engine has no UCI_Variant option"
                    )));
                }
                // A plain chess engine: the lab checks every move it makes.
            }
            (UciVariant::Name { name, .. }, Some(option)) => match knows(option, name) {
                Some(spelled) => {
                    self.send(&format!("setoption name UCI_Variant value {spelled}"))?;
                }
                None => late_variant = Some(name.clone()),
            },
        }
        for command in &options {
            self.send(command)?;
        }
        if let Some(name) = late_variant {
            // The options may have taught it the variant (a VariantPath file).
            let again = self.handshake(interrupt)?;
            let option = again
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case("UCI_Variant"));
            match option.and_then(|o| knows(o, &name)) {
                Some(spelled) => {
                    self.send(&format!("setoption name UCI_Variant value {spelled}"))?;
                }
                None => {
                    return Err(Stop::Refused(format!(
                        "the engine does not know variant '{name}' (its UCI_Variant lists: {}); set \
                         uci_variant to its name for this variant, or an option that defines it \
                         (Fairy-Stockfish: VariantPath = \"variants.ini\")",
                        option.map_or(String::new(), |o| o.vars.join(", "))
                    )));
                }
            }
        }
        self.ready(interrupt, true)
    }

    /// `uci` up to `uciok`: the options advertised.
    fn handshake(&mut self, interrupt: Option<&AtomicBool>) -> Result<Vec<Advertised>, Stop> {
        self.drain();
        self.send("uci")?;
        let mut options = Vec::new();
        let deadline = Instant::now() + self.timeout;
        let millis = self.timeout.as_millis();
        loop {
            let line = self.next_line(deadline, interrupt, || {
                Fault::Timeout(format!(
                    "did not answer 'uci' with 'uciok' within {millis} ms"
                ))
            })?;
            match line.split_whitespace().next() {
                Some("uciok") => return Ok(options),
                Some("option") => options.extend(Advertised::parse(&line)),
                _ => {}
            }
        }
    }

    /// `isready` up to `readyok`. While setting up, an `info string error`
    /// (pocketlab's answer to a bad option value) refuses the setup.
    fn ready(&mut self, interrupt: Option<&AtomicBool>, setting_up: bool) -> Result<(), Stop> {
        self.send("isready")?;
        let deadline = Instant::now() + self.timeout;
        let millis = self.timeout.as_millis();
        loop {
            let line = self.next_line(deadline, interrupt, || {
                Fault::Timeout(format!(
                    "did not answer 'isready' with 'readyok' within {millis} ms"
                ))
            })?;
            if line.trim() == "readyok" {
                return Ok(());
            }
            if setting_up && line.starts_with("info string error") {
                return Err(Stop::Refused(format!(
                    "it answered the setup with '{line}'"
                )));
            }
        }
    }

    /// Forget the last game: `ucinewgame`, then `isready`.
    pub fn new_game(&mut self, interrupt: &AtomicBool) -> Result<(), Stop> {
        self.drain();
        self.send("ucinewgame")?;
        self.ready(Some(interrupt), false)
    }

    /// Search `position` with `go` and return its `bestmove` with what its
    /// `info` lines said.
    pub fn go(&mut self, position: &str, go: &str, interrupt: &AtomicBool) -> Result<Answer, Stop> {
        self.drain();
        self.send(position)?;
        self.send(go)?;
        let deadline = Instant::now() + self.timeout;
        let mut info = SearchInfo::default();
        let mut answered = false;
        let timeout = self.timeout.as_millis();
        loop {
            let line = self.next_line(deadline, Some(interrupt), || {
                if answered {
                    Fault::NoBestmove(format!(
                        "searched ('info' lines) but sent no 'bestmove' within {timeout} ms"
                    ))
                } else {
                    Fault::Timeout(format!("did not answer 'go' within {timeout} ms"))
                }
            })?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    return Ok(Answer {
                        best: words.next().unwrap_or_default().to_owned(),
                        info,
                    });
                }
                Some("info") => {
                    answered = true;
                    info.read(&line);
                }
                _ => {}
            }
        }
    }

    /// Whether this process was started for `spec` with this timeout.
    pub fn serves(&self, spec: &UciEngine, timeout: Duration) -> bool {
        self.spec == *spec && self.timeout == timeout
    }

    fn send(&mut self, line: &str) -> Result<(), Stop> {
        let result = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        result.map_err(|e| {
            let status = self.exit_status();
            Stop::Fault(Fault::Crash(format!("cannot be written to ({e}){status}")))
        })
    }

    /// Lines left from before (a late answer) are not this command's.
    fn drain(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// The next line before `deadline`; `late` says what a timeout means.
    fn next_line(
        &mut self,
        deadline: Instant,
        interrupt: Option<&AtomicBool>,
        late: impl FnOnce() -> Fault,
    ) -> Result<String, Stop> {
        loop {
            if interrupt.is_some_and(|i| i.load(Ordering::Relaxed)) {
                return Err(Stop::Interrupted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(late().into());
            }
            match self.lines.recv_timeout(left.min(POLL)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.exit_status();
                    return Err(Fault::Crash(format!("closed its output{status}")).into());
                }
            }
        }
    }

    /// `" (exit status …)"` once the process has exited, else empty.
    fn exit_status(&mut self) -> String {
        // It closed its output; its exit follows within moments.
        for _ in 0..20 {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!(" ({status})"),
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        String::new()
    }
}

impl Drop for UciProcess {
    /// `quit`, a moment to comply, then the process is killed and reaped.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
            for _ in 0..10 {
                if matches!(self.child.try_wait(), Ok(Some(_))) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Forwards the engine's output line by line until it closes.
fn read_lines(stdout: ChildStdout, sender: &SyncSender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        let (consumed, complete) = match reader.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(buffer) => {
                let end = buffer.iter().position(|&b| b == b'\n');
                let chunk = &buffer[..end.unwrap_or(buffer.len())];
                let room = MAX_LINE_BYTES.saturating_sub(line.len());
                line.extend_from_slice(&chunk[..chunk.len().min(room)]);
                (end.map_or(buffer.len(), |e| e + 1), end.is_some())
            }
        };
        reader.consume(consumed);
        if complete {
            // Output that is not UTF-8 is read lossily, never a reason to stop.
            let text = String::from_utf8_lossy(&line).trim_end().to_owned();
            line.clear();
            if sender.send(text).is_err() {
                return;
            }
        }
    }
}

thread_local! {
    /// This worker's idle engine processes, kept across games.
    static IDLE: RefCell<Vec<UciProcess>> = const { RefCell::new(Vec::new()) };
}

/// A process for `spec` ready for a new game: this worker's idle one, or a
/// new one.
pub fn acquire(
    spec: &UciEngine,
    timeout: Duration,
    interrupt: &AtomicBool,
) -> Result<UciProcess, Stop> {
    let idle = IDLE.with_borrow_mut(|idle| {
        idle.iter()
            .position(|p| p.serves(spec, timeout))
            .map(|i| idle.swap_remove(i))
    });
    if let Some(mut process) = idle {
        match process.new_game(interrupt) {
            Ok(()) => return Ok(process),
            Err(Stop::Interrupted) => return Err(Stop::Interrupted),
            // It died while idle: not this game's fault; a new one is started.
            Err(_) => drop(process),
        }
    }
    let mut process = UciProcess::start(spec, timeout, Some(interrupt))?;
    process.new_game(interrupt)?;
    Ok(process)
}

/// Give a healthy process back to this worker for its next game.
pub fn release(process: UciProcess) {
    IDLE.with_borrow_mut(|idle| idle.push(process));
}

/// Start the engine once and set it up as a worker would; the reason it
/// cannot play, in words.
pub fn check(spec: &UciEngine, timeout: Duration) -> Result<(), String> {
    match UciProcess::start(spec, timeout, None) {
        Ok(_) => Ok(()),
        Err(Stop::Fault(f)) => Err(f.to_string()),
        Err(Stop::Refused(reason)) => Err(reason),
        Err(Stop::Interrupted) => Err("interrupted".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_depth_nodes_and_score() {
        let mut info = SearchInfo::default();
        info.read("info depth 7 seldepth 9 score cp -35 nodes 14846 nps 1000 pv e2e4 e7e5");
        assert_eq!(
            info,
            SearchInfo {
                depth: Some(7),
                nodes: Some(14846),
                score: Some(-35)
            }
        );
        info.read("info string depth 99 score cp 5");
        assert_eq!(info.depth, Some(7));
        info.read("info depth 8 score mate 2 lowerbound nodes 20000");
        assert_eq!(info.score, Some(MATE - 3));
        info.read("info score mate -1");
        assert_eq!(info.score, Some(-(MATE - 2)));
        info.read("info score mate 0");
        assert_eq!(info.score, Some(-MATE));
        info.read("info depth x score cp");
        assert_eq!(info.depth, Some(8));
    }

    #[test]
    fn options_are_read_with_spaces_ranges_and_values() {
        let o = Advertised::parse("option name Clear Hash type button").unwrap();
        assert_eq!((o.name.as_str(), o.kind.as_str()), ("Clear Hash", "button"));
        assert_eq!(
            o.command("true").unwrap().as_deref(),
            Some("setoption name Clear Hash")
        );
        let o = Advertised::parse("option name Hash type spin default 16 min 1 max 4096").unwrap();
        assert_eq!((o.min, o.max), (Some(1), Some(4096)));
        assert!(o.command("0").unwrap_err().contains("outside 1..=4096"));
        assert_eq!(
            o.command("32").unwrap().as_deref(),
            Some("setoption name Hash value 32")
        );
        let o = Advertised::parse(
            "option name UCI_Variant type combo default chess var chess var pocket-mutation",
        )
        .unwrap();
        assert_eq!(o.vars, ["chess", "pocket-mutation"]);
        assert_eq!(
            o.command("Pocket-Mutation").unwrap().as_deref(),
            Some("setoption name UCI_Variant value pocket-mutation")
        );
        let o = Advertised::parse("option name VariantFile type string default <empty>").unwrap();
        assert_eq!(
            o.command("my variant.toml").unwrap().as_deref(),
            Some("setoption name VariantFile value my variant.toml")
        );
    }
}
