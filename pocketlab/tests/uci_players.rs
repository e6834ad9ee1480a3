//! External UCI engines as players, with `pocketlab uci` itself as the
//! external engine: its games equal the lab engine's move for move and
//! replay legally, node-limited games are the same for any thread count,
//! time-limited games say they are not reproducible. Deliberately broken
//! engines (small shell scripts wrapped around `pocketlab uci`) lose their
//! games with the fault logged while the run goes on, and setups an engine
//! cannot accept are refused before the run. Hang tests use a short
//! configured timeout and check what was logged, never how long it took.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pocketlab_core::kind::GameKind;
use pocketlab_core::{Color, Game, GamePosition, GameStatus};
use pocketlab_report::build::{ReportOptions, build_report};
use pocketlab_selfplay::log::{GameRecord, MoveRecord, Termination, read_games, read_moves};
use pocketlab_selfplay::runner::RunError;
use pocketlab_selfplay::{Experiment, RunOptions, Shard, run};

use common::succeeded;

fn pocketlab() -> &'static str {
    env!("CARGO_BIN_EXE_pocketlab")
}

/// An experiment of Pocket Mutation Chess (mutation on) between two armies
/// with the same pieces, `a` and `b` standing for their engine tables.
fn experiment(name: &str, a: &str, b: &str, pairs: u32, extra: &str) -> String {
    format!(
        r#"
name = "{name}"
variant = "pocket-mutation"
seed = 5
[engine]
nodes = 250
[openings]
random_plies = 2
[adjudication]
max_plies = 70
[stop]
pairs = {pairs}
{extra}
[armies.a]
engine = {a}
[armies.b]
engine = {b}
[[matchups]]
a = "a"
b = "b"
"#
    )
}

/// Load `text` as `name.toml` in `dir` and run it with `threads` workers.
fn run_in(dir: &Path, name: &str, text: &str, threads: usize) -> Result<PathBuf, RunError> {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    let exp = Experiment::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let out = dir.join(format!("{name}-{threads}"));
    let options = RunOptions {
        out_dir: out.clone(),
        threads,
        shard: Shard::WHOLE,
        quiet: true,
    };
    let summary = run(&exp, &options, &Arc::new(AtomicBool::new(false)))?;
    assert!(!summary.interrupted);
    Ok(out)
}

/// Games and moves in id order, without what depends on timing.
fn contents(dir: &Path) -> (Vec<GameRecord>, Vec<MoveRecord>) {
    let mut games = read_games(dir).unwrap();
    games.iter_mut().for_each(|g| g.duration_ms = 0);
    games.sort_by_key(|g| g.game_id);
    let mut moves = read_moves(dir).unwrap();
    moves.sort_by_key(|m| (m.game_id, m.ply));
    (games, moves)
}

/// Every game replays legally from its start; returns, per game, the side
/// to move in its final position and whether the rules ended it there.
fn replay(dir: &Path) -> Vec<(GameRecord, Color, bool)> {
    let (games, moves) = contents(dir);
    let variant = pocketlab_selfplay::load_variant("pocket-mutation").unwrap();
    let kind = GameKind::of(&variant);
    games
        .into_iter()
        .map(|g| {
            let mut game = Game::new(kind.parse_position(&g.start_fen).unwrap());
            let own: Vec<&MoveRecord> = moves.iter().filter(|m| m.game_id == g.game_id).collect();
            assert_eq!(own.len() as u32, g.plies, "game {}", g.game_id);
            for m in own {
                let mv = game
                    .position()
                    .parse_move(&m.mv)
                    .unwrap_or_else(|e| panic!("game {} ply {}: {e}", g.game_id, m.ply));
                game.play_legal(mv).unwrap();
            }
            let side = game.position().side_to_move();
            let over = matches!(game.status(), GameStatus::Over { .. });
            (g, side, over)
        })
        .collect()
}

fn external(nodes: u32) -> String {
    format!(
        r#"{{ uci = "{}", options = {{ Hash = 8 }}, nodes = {nodes} }}"#,
        pocketlab()
    )
}

#[test]
fn pocketlab_as_an_external_engine_plays_the_lab_engines_games_for_any_thread_count() {
    let work = tempfile::tempdir().unwrap();
    let uci = experiment("ext", &external(400), &external(200), 3, "");
    let one = run_in(work.path(), "ext", &uci, 1).unwrap();
    let three = run_in(work.path(), "ext", &uci, 3).unwrap();
    let (games, moves) = contents(&one);
    assert_eq!(games.len(), 6);
    assert_eq!(
        (games.clone(), moves.clone()),
        contents(&three),
        "node-limited external games differ between 1 and 3 threads"
    );
    assert!(
        games[0].white_engine.starts_with("uci=") && games[0].white_engine.contains("Hash=8"),
        "{}",
        games[0].white_engine
    );

    // The same engine in process (the same table size): the same games,
    // move for move, with the same depth, nodes and score per move (but for
    // a search that completed no iteration: UCI gives no score, the lab
    // engine logs its placeholder).
    let lab = experiment(
        "lab",
        "{ nodes = 400, hash_mb = 8 }",
        "{ nodes = 200, hash_mb = 8 }",
        3,
        "",
    );
    let (lab_games, lab_moves) = contents(&run_in(work.path(), "lab", &lab, 2).unwrap());
    assert_eq!(moves.len(), lab_moves.len());
    for (x, y) in moves.iter().zip(&lab_moves) {
        let unscored = MoveRecord {
            score_cp: None,
            ..y.clone()
        };
        let y = if y.depth == 0 && y.score_cp.is_some() {
            &unscored
        } else {
            y
        };
        assert_eq!(
            x, y,
            "the external engine's move differs from the lab engine's"
        );
    }
    let result = |g: &GameRecord| {
        (
            g.game_id,
            g.result.clone(),
            g.termination,
            g.plies,
            g.white_nodes,
            g.black_nodes,
        )
    };
    assert_eq!(
        games.iter().map(result).collect::<Vec<_>>(),
        lab_games.iter().map(result).collect::<Vec<_>>()
    );
    for (g, _, over) in replay(&one) {
        assert!(
            over || !g.termination.by_rule(),
            "game {}: logged {} but the replayed game goes on",
            g.game_id,
            g.termination
        );
    }
}

#[test]
fn bench_search_replays_the_positions_of_the_lab_engines_army_only() {
    let work = tempfile::tempdir().unwrap();
    // Army `a` (first in the file) is external: its settings are not the
    // lab's search, and its positions are not the ones to replay.
    let mixed = experiment(
        "mixed",
        &external(400),
        "{ nodes = 300 }",
        1,
        "[log]\nfen_every = 1",
    );
    let log = run_in(work.path(), "mixed", &mixed, 1).unwrap();
    let (games, moves) = contents(&log);
    let searched_by_b = moves
        .iter()
        .filter(|m| {
            let g = games.iter().find(|g| g.game_id == m.game_id).unwrap();
            let white_to_move = m.ply % 2 == 0;
            m.nodes > 0 && (if white_to_move { &g.white } else { &g.black }) == "b"
        })
        .count();
    let bench = |log: &Path| {
        std::process::Command::new(pocketlab())
            .args(["bench", "search", "--log", log.to_str().unwrap()])
            .args(["--positions", "1000"])
            .output()
            .unwrap()
    };
    let stdout = succeeded(&bench(&log));
    assert!(
        stdout.contains(&format!(
            "mixed: {searched_by_b} of {searched_by_b} logged positions"
        )) && stdout.contains("300 nodes each")
            && stdout.contains("army b,"),
        "{searched_by_b} positions searched by b: {stdout}"
    );

    let only_external = experiment("ext", &external(300), &external(200), 1, "");
    let log = run_in(work.path(), "ext", &only_external, 1).unwrap();
    let stderr = common::refused(&bench(&log));
    assert!(
        stderr.contains(log.to_str().unwrap()) && stderr.contains("lab's engine"),
        "{stderr}"
    );
}

#[test]
fn time_limited_games_are_logged_and_reported_as_not_reproducible() {
    let work = tempfile::tempdir().unwrap();
    let timed = format!(r#"{{ uci = "{}", movetime = 5 }}"#, pocketlab());
    // No limit in [engine]: the time-limited engine does not inherit the
    // default node limit.
    let text = experiment("timed", &timed, "{ nodes = 200 }", 1, "")
        .replace("max_plies = 70", "max_plies = 16")
        .replace("nodes = 250\n", "hash_mb = 8\n");
    let out = run_in(work.path(), "timed", &text, 1).unwrap();
    let (games, _) = contents(&out);
    let timed_side = |g: &GameRecord| {
        if g.white == "a" {
            g.white_engine.clone()
        } else {
            g.black_engine.clone()
        }
    };
    for g in &games {
        assert!(
            timed_side(g).split_whitespace().any(|w| w == "movetime=5"),
            "{}",
            timed_side(g)
        );
        assert!(
            !timed_side(g).contains("nodes="),
            "no inherited node limit: {}",
            timed_side(g)
        );
    }
    let report = build_report(&[out], &ReportOptions::default()).unwrap();
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("time-limited games are not reproducible")),
        "{:#?}",
        report.notes
    );
}

/// A UCI engine that is `pocketlab uci` until its `fault_at`-th `go`, then
/// does `action` (shell commands) instead of forwarding the `go`. Written
/// for `/bin/sh` with builtins and `mkfifo`/`mktemp` only.
fn fake_engine(dir: &Path, name: &str, fault_at: u32, action: &str) -> PathBuf {
    let script = format!(
        r#"#!/bin/sh
# pocketlab uci, misbehaving from its go number {fault_at}
fifo_dir=$(mktemp -d)
mkfifo "$fifo_dir/in"
'{engine}' uci < "$fifo_dir/in" &
engine=$!
exec 3> "$fifo_dir/in"
rm -rf "$fifo_dir"
n=0
while IFS= read -r line; do
  case "$line" in
    go*)
      n=$((n + 1))
      if [ "$n" -ge {fault_at} ]; then
        {action}
        continue
      fi
      ;;
  esac
  printf '%s\n' "$line" >&3
done
exec 3>&-
wait "$engine"
"#,
        engine = pocketlab()
    );
    executable(dir, name, &script)
}

/// A UCI engine in plain `/bin/sh` that answers `uci` and `isready` at once
/// (no options) and does `on_go` for every `go`: quick to start however
/// loaded the machine is, for the tests that wait out a short timeout.
fn script_engine(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    let script = format!(
        r#"#!/bin/sh
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name {name}"; echo uciok ;;
    isready) echo readyok ;;
    go*) {on_go} ;;
    quit) exit 0 ;;
  esac
done
"#
    );
    executable(dir, name, &script)
}

fn executable(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// Army `a` plays with `engine` (timeout `timeout_ms`) against the lab's
/// engine for one colour-swapped pair: both games must end with `expected`,
/// lost by `a`, after at least `min_plies` legal plies; the run completes.
fn faulty_engine_loses(engine: &Path, timeout_ms: u64, expected: Termination, min_plies: u32) {
    let work = tempfile::tempdir().unwrap();
    let faulty = format!(
        r#"{{ uci = "{}", timeout_ms = {timeout_ms} }}"#,
        engine.display()
    );
    let text = experiment("faults", &faulty, "{ nodes = 250 }", 1, "");
    let out = run_in(work.path(), "faults", &text, 1).unwrap();
    let games = replay(&out);
    assert_eq!(games.len(), 2, "the run goes on after a fault");
    for (g, side_to_move, over) in games {
        assert_eq!(g.termination, expected, "game {}", g.game_id);
        let faulty_side = if g.white == "a" {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(side_to_move, faulty_side, "the faulty side was to move");
        assert!(!over, "a fault, not the rules, ended game {}", g.game_id);
        let faulty_score = if faulty_side == Color::White {
            g.white_score
        } else {
            1.0 - g.white_score
        };
        assert_eq!(
            faulty_score, 0.0,
            "game {}: the faulty side loses",
            g.game_id
        );
        assert!(
            g.plies >= min_plies,
            "game {}: {} plies",
            g.game_id,
            g.plies
        );
    }
}

#[test]
fn an_illegal_move_loses_the_game() {
    let work = tempfile::tempdir().unwrap();
    // The king never jumps two squares (and e1 is no black piece).
    let engine = fake_engine(work.path(), "illegal", 2, "echo 'bestmove e1e3'");
    faulty_engine_loses(&engine, 10_000, Termination::EngineIllegalMove, 2);
}

#[test]
fn garbage_loses_the_game() {
    let work = tempfile::tempdir().unwrap();
    let engine = fake_engine(
        work.path(),
        "garbage",
        2,
        r"printf 'random words, not UCI\n\377\376\375\n'; printf 'bestmove \377@@\n'",
    );
    faulty_engine_loses(&engine, 10_000, Termination::EngineIllegalMove, 2);
}

#[test]
fn a_search_without_bestmove_loses_the_game() {
    let work = tempfile::tempdir().unwrap();
    let engine = script_engine(
        work.path(),
        "no-bestmove",
        "echo 'info depth 1 score cp 12 nodes 40 pv e2e4'",
    );
    faulty_engine_loses(&engine, 1_500, Termination::EngineNoBestmove, 0);
}

#[test]
fn a_crash_mid_game_loses_the_game_and_the_engine_is_restarted() {
    let work = tempfile::tempdir().unwrap();
    let engine = fake_engine(work.path(), "crash", 3, r#"kill "$engine"; exit 3"#);
    // Two games, each lost at the engine's third move: the second game
    // needed a new process.
    faulty_engine_loses(&engine, 10_000, Termination::EngineCrash, 4);
}

#[test]
fn an_engine_that_never_answers_go_loses_on_time() {
    let work = tempfile::tempdir().unwrap();
    let engine = script_engine(work.path(), "silent", ":");
    faulty_engine_loses(&engine, 1_500, Termination::EngineTimeout, 0);
}

/// The run is refused before it starts, naming `needle`; nothing is logged.
fn refused(engine: &str, needle: &str) {
    let work = tempfile::tempdir().unwrap();
    let text = experiment("refused", engine, "{ nodes = 250 }", 1, "");
    let err = run_in(work.path(), "refused", &text, 1).unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, RunError::Engine(_)), "{message}");
    assert!(message.contains("armies.a.engine.uci"), "{message}");
    assert!(message.contains(needle), "{message}");
    assert!(
        !work.path().join("refused-1").exists(),
        "nothing is written before the engines are checked"
    );
}

#[test]
fn an_engine_that_never_answers_uci_is_refused_before_the_run() {
    let work = tempfile::tempdir().unwrap();
    let mute = executable(
        work.path(),
        "mute",
        "#!/bin/sh\nwhile IFS= read -r line; do :; done\n",
    );
    refused(
        &format!(r#"{{ uci = "{}", timeout_ms = 500 }}"#, mute.display()),
        "did not answer 'uci' with 'uciok' within 500 ms",
    );
}

#[test]
fn setups_the_engine_cannot_accept_are_refused_before_the_run() {
    let bin = pocketlab();
    refused(
        &format!(r#"{{ uci = "{bin}", options = {{ Frobnicate = 3 }} }}"#),
        "option 'Frobnicate' is not one the engine advertises (it has: Hash, UCI_Variant",
    );
    refused(
        &format!(r#"{{ uci = "{bin}", options = {{ Hash = 100000 }} }}"#),
        "outside 1..=4096",
    );
    refused(
        &format!(r#"{{ uci = "{bin}", uci_variant = "no-such-chess" }}"#),
        "does not know variant 'no-such-chess'",
    );
    refused(
        &format!(r#"{{ uci = "{bin}", options = {{ EvalFile = "missing.toml" }} }}"#),
        "info string error",
    );
    refused(
        r#"{ uci = "/nonexistent/engine" }"#,
        "cannot start '/nonexistent/engine'",
    );
}

#[test]
fn engine_keys_are_checked_when_the_file_loads() {
    let bin = pocketlab();
    let cases = [
        (
            format!(r#"{{ uci = "{bin}", eval = "params.toml" }}"#),
            "armies.a.engine.eval",
        ),
        (
            r#"{ nodes = 100, options = { Hash = 8 } }"#.to_owned(),
            "armies.a.engine.options",
        ),
        (
            r#"{ movetime = 0 }"#.to_owned(),
            "movetime must be at least 1",
        ),
        (
            format!(r#"{{ uci = "{bin}", options = {{ UCI_Variant = "chess" }} }}"#),
            "set uci_variant",
        ),
    ];
    for (engine, needle) in cases {
        let text = experiment("keys", &engine, "{ nodes = 100 }", 1, "");
        let err = Experiment::parse("keys.toml", &text, Path::new(".")).unwrap_err();
        assert!(err.to_string().contains(needle), "{err}");
    }
    // Changed rules and an external engine told the variant's name.
    let text = experiment(
        "keys",
        &external(100),
        "{ nodes = 100 }",
        1,
        "[rules]\npocket = { mutation = false }",
    );
    let err = Experiment::parse("keys.toml", &text, Path::new(".")).unwrap_err();
    assert!(err.to_string().contains("uci_variant"), "{err}");
}
