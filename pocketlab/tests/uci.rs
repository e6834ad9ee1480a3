//! `pocketlab uci` end to end: scripted conversations with the binary.
//!
//! Every wait has a timeout so a hang fails the test instead of blocking CI;
//! the timeouts are guards only, nothing asserts how long anything took.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use pocketlab_core::builtin;
use pocketlab_core::engine::SearchLimits;
use pocketlab_core::{Position, Variant, notation};

/// How long any single expected answer may take before the test fails.
const GUARD: Duration = Duration::from_secs(120);

/// A running `pocketlab uci` with its transcript, killed when dropped.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pocketlab"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start pocketlab uci");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            transcript: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("write to the engine");
        stdin.flush().unwrap();
    }

    /// Read lines until one satisfies `done`; returns every line read, that one last.
    fn read_until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + GUARD;
        let mut read = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    let finished = done(&line);
                    read.push(line);
                    if finished {
                        return read;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("timed out waiting for {what}; transcript:\n{}", self.log())
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "engine output ended before {what}; transcript:\n{}",
                        self.log()
                    )
                }
            }
        }
    }

    fn ready(&mut self) {
        self.send("isready");
        self.read_until("readyok", |l| l == "readyok");
    }

    /// The lines up to and including `bestmove`, and the move text.
    fn bestmove(&mut self) -> (Vec<String>, String) {
        let lines = self.read_until("bestmove", |l| l.starts_with("bestmove"));
        let last = lines.last().unwrap();
        let mv = last.split_whitespace().nth(1).expect("bestmove has a move");
        let mv = mv.to_owned();
        (lines, mv)
    }

    /// Wait for the process to exit (after `quit` or closing stdin).
    fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + GUARD;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "engine did not exit; transcript:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn log(&self) -> String {
        self.transcript.join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn variant(name: &str) -> Variant {
    builtin::load(name).unwrap()
}

/// Play `moves` (project notation) from `start`.
fn play<'v>(start: Position<'v>, moves: &[&str]) -> Position<'v> {
    moves.iter().fold(start, |pos, text| {
        let mv = notation::parse(&pos, text).unwrap();
        pos.after(mv)
    })
}

fn assert_legal(pos: &Position<'_>, mv: &str, log: &str) {
    assert!(
        notation::parse(pos, mv).is_ok(),
        "bestmove {mv} is not legal in {}; transcript:\n{log}",
        pos.to_fen()
    );
}

/// One parsed `info depth …` line.
#[derive(Debug)]
struct Info {
    depth: u32,
    nodes: u64,
    score: String,
    pv: Vec<String>,
}

/// Parse an `info` line with every field the engine promises, and check
/// that its principal variation is a legal line from `pos`.
fn parse_info(line: &str, pos: &Position<'_>) -> Info {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "info", "{line}");
    let field = |key: &str| -> Option<usize> { words.iter().position(|w| *w == key) };
    let number = |key: &str| -> i64 {
        let at = field(key).unwrap_or_else(|| panic!("no '{key}' in '{line}'"));
        words[at + 1]
            .parse()
            .unwrap_or_else(|_| panic!("'{key}' is not a number in '{line}'"))
    };
    for key in ["seldepth", "nodes", "nps", "time"] {
        assert!(number(key) >= 0, "{line}");
    }
    let at = field("score").expect("score");
    let kind = words[at + 1];
    assert!(kind == "cp" || kind == "mate", "{line}");
    let value: i64 = words[at + 2].parse().expect("score value");
    let pv: Vec<String> = match field("pv") {
        Some(at) => words[at + 1..].iter().map(|w| (*w).to_owned()).collect(),
        None => Vec::new(),
    };
    let mut p = pos.clone();
    for mv in &pv {
        let parsed = notation::parse(&p, mv).unwrap_or_else(|e| panic!("pv in '{line}': {e}"));
        p = p.after(parsed);
    }
    Info {
        depth: number("depth") as u32,
        nodes: number("nodes") as u64,
        score: format!("{kind} {value}"),
        pv,
    }
}

fn search_infos(lines: &[String]) -> impl Iterator<Item = &String> {
    lines.iter().filter(|l| l.starts_with("info depth"))
}

#[test]
fn chess_conversation() {
    let mut engine = Engine::start();
    engine.send("uci");
    let header = engine.read_until("uciok", |l| l == "uciok");
    assert!(header[0].starts_with("id name pocketlab "), "{header:?}");
    assert!(header.contains(&"id author pocketlab developers".to_owned()));
    let combo = header
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo default chess"))
        .expect("UCI_Variant option");
    for name in builtin::names() {
        assert!(combo.contains(&format!(" var {name}")), "{combo}");
    }
    for option in ["Hash", "VariantFile", "EvalFile", "RootNoise", "Seed"] {
        let prefix = format!("option name {option} type ");
        assert!(header.iter().any(|l| l.starts_with(&prefix)), "{option}");
    }
    engine.ready();
    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go depth 5");
    let (lines, mv) = engine.bestmove();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );

    let chess = variant("chess");
    let pos = play(Position::start(&chess), &["e2e4", "e7e5"]);
    assert_legal(&pos, &mv, &engine.log());
    let infos: Vec<Info> = search_infos(&lines).map(|l| parse_info(l, &pos)).collect();
    let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
    // One line per iteration, then the totals of the whole search.
    assert_eq!(depths, [1, 2, 3, 4, 5, 5], "{}", engine.log());
    let (last_iteration, totals) = (&infos[4], &infos[5]);
    assert!(totals.nodes >= last_iteration.nodes, "{}", engine.log());
    assert_eq!(totals.pv[0], mv);
    engine.send("quit");
    assert!(engine.wait_exit().success());
}

#[test]
fn pocket_mutation_moves_and_drops() {
    let pm = variant("pocket-mutation");
    let mut engine = Engine::start();
    engine.send("uci");
    engine.read_until("uciok", |l| l == "uciok");
    engine.send("setoption name UCI_Variant value pocket-mutation");
    engine.send("ucinewgame");
    engine.ready();

    // Pocket-ins in the move list, then a search.
    // Black pockets a pawn, White pockets a knight as a bishop (same class),
    // Black drops its pawn.
    let moves = ["e2e4", "^e7", "^b1=B", "P@e6"];
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    engine.send("go nodes 20000");
    let (lines, mv) = engine.bestmove();
    let pos = play(Position::start(&pm), &moves);
    assert_legal(&pos, &mv, &engine.log());
    search_infos(&lines).for_each(|l| {
        parse_info(l, &pos);
    });

    // A FEN with pieces in the pockets and a drop in the move list.
    let fen = "rnbqkb1r/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKB1R[Nn] w - - 0 3";
    let moves = ["N@d5", "n@c6"];
    engine.send(&format!("position fen {fen} moves {}", moves.join(" ")));
    engine.send("go nodes 20000");
    let (lines, mv) = engine.bestmove();
    let pos = play(Position::from_fen(&pm, fen).unwrap(), &moves);
    assert_legal(&pos, &mv, &engine.log());
    search_infos(&lines).for_each(|l| {
        parse_info(l, &pos);
    });
    engine.send("quit");
    assert!(engine.wait_exit().success());
}

#[test]
fn bad_input_is_reported_and_the_session_goes_on() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.read_until("uciok", |l| l == "uciok");
    let bad = [
        "frobnicate the engine",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "position fen this is not a fen",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e2e4 zz99",
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name NoSuchOption value 1",
        "setoption name UCI_Variant value checkers",
        "setoption name VariantFile value /no/such/variant.toml",
        "setoption name EvalFile value /no/such/params.toml",
        "go depth many",
    ];
    // A good position first: the bad ones after it must leave it in place.
    engine.send("position startpos moves d2d4");
    for line in bad {
        engine.send(line);
    }
    // `go depth many` still searches (without a depth limit it would run
    // forever, so stop it); every bad line gave exactly one error.
    engine.send("stop");
    let (lines, _) = engine.bestmove();
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .count();
    assert_eq!(errors, bad.len(), "{}", engine.log());
    engine.ready();

    engine.send("go depth 2");
    let (_, mv) = engine.bestmove();
    let chess = variant("chess");
    let pos = play(Position::start(&chess), &["d2d4"]);
    assert_legal(&pos, &mv, &engine.log());

    // Input that is not UTF-8 is an unknown command, not the end of the session.
    engine
        .stdin
        .as_mut()
        .unwrap()
        .write_all(b"\xff\xfe garbage\n")
        .unwrap();
    engine.read_until("an error", |l| l.starts_with("info string error: "));
    engine.ready();

    // End of input ends the session cleanly.
    drop(engine.stdin.take());
    assert!(engine.wait_exit().success());
}

#[test]
fn infinite_search_stops_on_stop_and_quit_exits_zero() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.read_until("uciok", |l| l == "uciok");
    engine.send("position startpos");
    engine.send("go infinite");
    // Wait for a completed iteration so the search is really under way.
    engine.read_until("an info line", |l| l.starts_with("info depth"));
    engine.ready();
    engine.send("stop");
    let (_, mv) = engine.bestmove();
    let chess = variant("chess");
    assert_legal(&Position::start(&chess), &mv, &engine.log());

    // `quit` during a search also ends at once with status 0.
    engine.send("go infinite");
    engine.read_until("an info line", |l| l.starts_with("info depth"));
    engine.send("quit");
    assert!(engine.wait_exit().success());
}

#[test]
fn mate_in_one_is_reported_as_mate_1() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.read_until("uciok", |l| l == "uciok");
    engine.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    engine.send("go depth 4");
    let (lines, mv) = engine.bestmove();
    assert_eq!(mv, "d1d8", "{}", engine.log());
    let chess = variant("chess");
    let pos = Position::from_fen(&chess, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
    let last = search_infos(&lines).last().expect("an info line");
    assert_eq!(parse_info(last, &pos).score, "mate 1", "{}", engine.log());
    engine.send("quit");
    assert!(engine.wait_exit().success());
}

/// The engine is deterministic at a fixed depth, so the session's answer is
/// the searcher's own (a guard against the protocol layer losing moves).
#[test]
fn bestmove_matches_a_direct_search() {
    let chess = variant("chess");
    let pos = play(Position::start(&chess), &["e2e4", "c7c5", "g1f3"]);
    // The engine plays chess with its shipped evaluation unless told otherwise.
    let params = builtin::shipped_eval("chess").unwrap().params();
    let mut searcher = pocketlab_core::engine::Searcher::standard(
        &chess,
        &params,
        pocketlab_core::engine::SearchOptions::default(),
    );
    let history = [
        Position::start(&chess).hash(),
        play(Position::start(&chess), &["e2e4"]).hash(),
        play(Position::start(&chess), &["e2e4", "c7c5"]).hash(),
    ];
    let direct = searcher.search(&pos, &history, &SearchLimits::depth(4));
    let expected = notation::format(&pos, direct.best_move.unwrap());

    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 c7c5 g1f3");
    engine.send("go depth 4");
    let (_, mv) = engine.bestmove();
    assert_eq!(mv, expected, "{}", engine.log());
    engine.send("quit");
    assert!(engine.wait_exit().success());
}

/// A hash table the process may not allocate (an address-space limit, as
/// `ulimit -v` sets) gives a smaller table and an `info string`, never an
/// abort: the search answers as usual.
#[cfg(target_os = "linux")]
#[test]
fn a_hash_the_machine_cannot_give_is_cut_to_fit_and_said() {
    let mut child = Command::new("sh")
        .arg("-c")
        // 1 GiB of address space: room for the program, not for 4 GiB of table.
        .arg(format!(
            "ulimit -v 1048576 && exec '{}' uci",
            env!("CARGO_BIN_EXE_pocketlab")
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pocketlab uci under a memory limit");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    writeln!(
        stdin,
        "uci\nsetoption name Hash value 4096\nisready\nposition startpos\ngo depth 3"
    )
    .unwrap();
    stdin.flush().unwrap();
    let mut said = Vec::new();
    let deadline = Instant::now() + GUARD;
    while !said.iter().any(|l: &String| l.starts_with("bestmove")) {
        match lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => said.push(line),
            Err(e) => panic!("no bestmove ({e:?}); said: {said:#?}"),
        }
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}; said: {said:#?}");
    let note = said
        .iter()
        .find(|l| l.starts_with("info string Hash 4096 MB does not fit"))
        .unwrap_or_else(|| panic!("no info string on the hash; said: {said:#?}"));
    assert!(note.contains("the table has"), "{note}");
}
