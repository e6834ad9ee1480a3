//! The runner as separate processes: shards run as separate processes
//! union to the single run, and a run killed with SIGKILL at any moment and
//! started again equals an uninterrupted run.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pocketlab_selfplay::log::{
    GAMES_DIR, GameRecord, MOVES_DIR, MoveRecord, ShardLock, chunk_name, list_chunks, read_games,
    read_moves,
};

use common::{refused, succeeded};

const EXPERIMENT: &str = r#"
name = "procs"
variant = "pocket-mutation"
seed = 99
[rules]
pocket = { mutation = false }
[engine]
nodes = 400
hash_mb = 1
[adjudication]
max_plies = 80
[stop]
pairs = 8
[log]
chunk_games = 2
[[generators]]
kind = "class-equivalence"
class = 3
slots = "R"
"#;

fn pocketlab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pocketlab"))
}

fn run_to_end(experiment: &Path, out: &Path, extra: &[&str]) {
    let status = pocketlab()
        .args([
            "run",
            experiment.to_str().unwrap(),
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
        .args(extra)
        .status()
        .unwrap();
    assert!(status.success(), "pocketlab run {extra:?} failed");
}

fn contents(dir: &Path) -> (Vec<GameRecord>, Vec<MoveRecord>) {
    let mut games = read_games(dir).unwrap();
    games.iter_mut().for_each(|g| g.duration_ms = 0);
    games.sort_by_key(|g| g.game_id);
    let mut moves = read_moves(dir).unwrap();
    moves.sort_by_key(|m| (m.game_id, m.ply));
    (games, moves)
}

#[test]
fn shard_processes_union_to_the_single_run_and_kills_lose_nothing() {
    let work = tempfile::tempdir().unwrap();
    let experiment = work.path().join("procs.toml");
    std::fs::write(&experiment, EXPERIMENT).unwrap();

    let single = work.path().join("single");
    run_to_end(&experiment, &single, &["--threads", "2"]);
    let reference = contents(&single);
    assert_eq!(reference.0.len(), 3 * 8 * 2);

    // Three shards as three processes at once, writing to one directory.
    let sharded = work.path().join("sharded");
    let children: Vec<_> = (0..3)
        .map(|i| {
            pocketlab()
                .args([
                    "run",
                    experiment.to_str().unwrap(),
                    "--quiet",
                    "--threads",
                    "1",
                ])
                .args([
                    "--shard",
                    &format!("{i}/3"),
                    "--out",
                    sharded.to_str().unwrap(),
                ])
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    assert_eq!(
        contents(&sharded),
        reference,
        "the union of shard processes differs from the single run"
    );

    // Kill with SIGKILL after the first chunks land, several times, then finish.
    let killed = work.path().join("killed");
    for round in 0..3 {
        let mut child = pocketlab()
            .args([
                "run",
                experiment.to_str().unwrap(),
                "--quiet",
                "--threads",
                "2",
                "--out",
                killed.to_str().unwrap(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let chunks_before = chunk_count(&killed);
        let deadline = Instant::now() + Duration::from_secs(120);
        while chunk_count(&killed) <= chunks_before && Instant::now() < deadline {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        // Let it get mid-way through the next chunk before killing it.
        std::thread::sleep(Duration::from_millis(40 * (round + 1)));
        assert!(
            child.try_wait().unwrap().is_none(),
            "round {round}: the run finished before the kill: the test would not test resuming"
        );
        let _ = child.kill();
        let _ = child.wait();
        let logged = list_chunks(&[&killed]).unwrap().games_count;
        assert!(
            logged < reference.0.len() as u64,
            "round {round}: the kill left the log complete ({logged} games)"
        );
    }
    run_to_end(&experiment, &killed, &["--threads", "1"]);
    assert_eq!(
        contents(&killed),
        reference,
        "a killed and resumed run differs from an uninterrupted one"
    );
}

fn chunk_count(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("games"))
        .map(|d| d.count())
        .unwrap_or(0)
}

#[test]
fn bad_arguments_and_files_exit_non_zero_with_a_message() {
    let out = pocketlab()
        .args(["run", "/no/such/experiment.toml"])
        .output()
        .unwrap();
    assert!(refused(&out).contains("/no/such/experiment.toml"));
    let out = pocketlab()
        .args(["run", "--shard", "3/2"])
        .output()
        .unwrap();
    assert!(refused(&out).contains("shard"));
    let out = pocketlab()
        .args([
            "perft",
            "--variant",
            "chess",
            "--depth",
            "2",
            "--fen",
            "not a fen",
        ])
        .output()
        .unwrap();
    assert!(refused(&out).contains("FEN"));
    let out = pocketlab()
        .args(["perft", "--variant", "chess", "--depth", "3"])
        .output()
        .unwrap();
    let stdout = succeeded(&out);
    assert_eq!(
        stdout.lines().last(),
        Some("8902"),
        "perft's last line is the count alone"
    );
}

/// `pocketlab perft … | head -0`: a reader gone before the first line is
/// a quiet exit with status 141 (128 + SIGPIPE), not a panic.
#[test]
fn a_closed_stdout_ends_quietly() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = pocketlab()
        .args(["perft", "--variant", "chess", "--depth", "2"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn logs_of_experiments_with_files_beside_them_can_be_reported_from_anywhere() {
    let work = tempfile::tempdir().unwrap();
    let exp_dir = work.path().join("designs");
    std::fs::create_dir_all(&exp_dir).unwrap();
    std::fs::write(
        exp_dir.join("cheap-knights.toml"),
        "name = \"cheap-knights\"\ninherits = \"pocket-mutation\"\n[pieces.N]\nvalue = 250\n",
    )
    .unwrap();
    std::fs::write(exp_dir.join("params.toml"), "tempo = 5\n").unwrap();
    let experiment = exp_dir.join("design.toml");
    std::fs::write(
        &experiment,
        EXPERIMENT
            .replace("name = \"procs\"", "name = \"design\"")
            .replace(
                "variant = \"pocket-mutation\"",
                "variant = \"cheap-knights.toml\"",
            )
            .replace("hash_mb = 1", "hash_mb = 1\neval = \"params.toml\"")
            .replace("pairs = 8", "pairs = 2"),
    )
    .unwrap();
    let log = work.path().join("elsewhere").join("log");
    run_to_end(&experiment, &log, &["--threads", "2"]);
    // One call a line, so a failure's line names the command.
    let from_work = |args: &[&str]| {
        pocketlab()
            .args(args)
            .current_dir(work.path())
            .output()
            .unwrap()
    };
    succeeded(&from_work(&["report", log.to_str().unwrap()]));
    succeeded(&from_work(&["pgn", log.to_str().unwrap()]));
    assert!(work.path().join("elsewhere").join("report.html").exists());
}

/// Runs the command to its end, or kills it after a minute and fails: a
/// hang fails the test instead of hanging CI. Output goes to files (a full
/// pipe would block the child).
fn output_within_a_minute(cmd: &mut Command) -> (bool, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let (out, err) = (dir.path().join("out"), dir.path().join("err"));
    let mut child = cmd
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{cmd:?} hung (killed after a minute)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        status.success(),
        std::fs::read_to_string(out).unwrap(),
        std::fs::read_to_string(err).unwrap(),
    )
}

fn small_log(work: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let experiment = work.join("procs.toml");
    std::fs::write(&experiment, EXPERIMENT.replace("pairs = 8", "pairs = 2")).unwrap();
    let log = work.join("log");
    run_to_end(&experiment, &log, &["--threads", "2"]);
    (experiment, log)
}

/// An `--out` that exists as something other than a directory is refused
/// saying what it is, by `run` and by `study` alike: a symbolic link to a
/// missing directory names its target, a regular file is called one;
/// nothing is written.
#[test]
fn an_out_that_is_no_directory_is_refused_saying_what_it_is() {
    let work = tempfile::tempdir().unwrap();
    let experiment = work.path().join("procs.toml");
    std::fs::write(&experiment, EXPERIMENT.replace("pairs = 8", "pairs = 1")).unwrap();
    let run_into = |out: &Path| {
        pocketlab()
            .args(["run", experiment.to_str().unwrap(), "--quiet", "--out"])
            .arg(out)
            .output()
            .unwrap()
    };
    let target = work.path().join("elsewhere").join("log");
    let link = work.path().join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let stderr = refused(&run_into(&link));
    assert!(
        stderr.contains("symbolic link") && stderr.contains(target.to_str().unwrap()),
        "{stderr}"
    );
    assert!(!target.exists());

    let file = work.path().join("file");
    std::fs::write(&file, "not a log").unwrap();
    let stderr = refused(&run_into(&file));
    assert!(
        stderr.contains(file.to_str().unwrap()) && stderr.contains("not a directory"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a log");

    // Every command's output folder is created the same way.
    for (out, says) in [(&link, "symbolic link"), (&file, "not a directory")] {
        let study = pocketlab()
            .args(["study", "pocket-mutation", "--dry-run", "--out"])
            .arg(out)
            .output()
            .unwrap();
        let stderr = refused(&study);
        assert!(stderr.contains(says), "{stderr}");
    }
    assert!(!target.exists());
}

#[test]
fn a_second_writer_process_of_a_shard_is_refused_with_the_holder_named() {
    let work = tempfile::tempdir().unwrap();
    let (experiment, log) = small_log(work.path());
    let lock = ShardLock::acquire(&log, 0, 2).unwrap();
    let (ok, _, err) = output_within_a_minute(pocketlab().args([
        "run",
        experiment.to_str().unwrap(),
        "--quiet",
        "--shard",
        "0/2",
        "--out",
        log.to_str().unwrap(),
    ]));
    assert!(!ok);
    assert!(
        err.contains(&format!("pid {}", std::process::id())) && err.contains("shard 0/2"),
        "{err}"
    );
    drop(lock);

    // Two real processes that split the schedule differently, at once: the
    // log never holds a game twice, and a last run completes it.
    let fresh = work.path().join("fresh");
    let children: Vec<_> = ["0/1", "0/2"]
        .iter()
        .map(|shard| {
            pocketlab()
                .args([
                    "run",
                    experiment.to_str().unwrap(),
                    "--quiet",
                    "--threads",
                    "1",
                ])
                .args(["--shard", shard, "--out", fresh.to_str().unwrap()])
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() || err.contains("being written by") || err.contains("split into"),
            "{err}"
        );
    }
    run_to_end(&experiment, &fresh, &["--threads", "1"]);
    assert_eq!(contents(&fresh), contents(&log));
}

#[test]
fn report_pgn_and_check_name_broken_files_and_never_hang() {
    let work = tempfile::tempdir().unwrap();
    let (_, log) = small_log(work.path());
    let cli =
        |args: &[&str]| output_within_a_minute(pocketlab().args(args).current_dir(work.path()));
    let log_s = log.to_str().unwrap();
    let (ok, out, _) = cli(&["check", log_s]);
    assert!(ok && out.contains("ok:"), "{out}");

    // A duplicated chunk: the report refuses, naming both files.
    let copy = log.join(GAMES_DIR).join(chunk_name(8, 0));
    std::fs::copy(log.join(GAMES_DIR).join(chunk_name(0, 0)), &copy).unwrap();
    let (ok, _, err) = cli(&["report", log_s, "--out", "r1"]);
    assert!(
        !ok && err.contains("part-s0-000000") && err.contains("part-s8-000000"),
        "{err}"
    );
    let (ok, out, _) = cli(&["check", log_s]);
    assert!(!ok && out.contains("logged twice"), "{out}");
    std::fs::remove_file(&copy).unwrap();

    // A missing moves chunk: the report goes on and names it; PGN exports
    // the other games, names it, and fails.
    let moves = log.join(MOVES_DIR).join(chunk_name(0, 1));
    let saved = std::fs::read(&moves).unwrap();
    std::fs::remove_file(&moves).unwrap();
    let (ok, _, err) = cli(&["report", log_s, "--out", "r2"]);
    assert!(ok && err.contains("part-s0-000001"), "{err}");
    let (ok, _, err) = cli(&["pgn", log_s, "--out", "games.pgn"]);
    assert!(
        !ok && err.contains("part-s0-000001") && err.contains("not exported"),
        "{err}"
    );
    let pgn = std::fs::read_to_string(work.path().join("games.pgn")).unwrap();
    assert!(
        pgn.matches("[Event ").count() >= 2,
        "the other games were exported"
    );
    std::fs::write(&moves, saved).unwrap();

    // A FIFO where a chunk belongs: refused at once, nothing blocks on it.
    let fifo = log.join(GAMES_DIR).join(chunk_name(6, 0));
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for args in [
        vec!["report", log_s, "--out", "r3"],
        vec!["pgn", log_s],
        vec!["check", log_s],
    ] {
        let (ok, out, err) = cli(&args);
        assert!(
            !ok && (err + &out).contains("not a regular file"),
            "{args:?}"
        );
    }
    // A FIFO given as an input file (experiment, training file) is refused
    // at once rather than opened (which would block until a writer comes).
    let fifo_input = work.path().join("input.toml");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo_input)
            .status()
            .unwrap()
            .success()
    );
    let input_s = fifo_input.to_str().unwrap();
    for args in [vec!["run", input_s], vec!["train", input_s]] {
        let (ok, out, err) = cli(&args);
        assert!(
            !ok && format!("{err}{out}").contains("not a regular file"),
            "{args:?}: {err}{out}"
        );
    }
}

#[test]
fn sizes_beyond_the_documented_limits_are_refused_before_work_starts() {
    let work = tempfile::tempdir().unwrap();
    for depth in ["4294967295", "100000"] {
        let (ok, _, err) = output_within_a_minute(pocketlab().args([
            "perft",
            "--variant",
            "chess",
            "--depth",
            depth,
        ]));
        assert!(!ok && err.contains("at most 20"), "{err}");
    }
    let experiment = work.path().join("big.toml");
    std::fs::write(
        &experiment,
        EXPERIMENT.replace("hash_mb = 1", "hash_mb = 4096"),
    )
    .unwrap();
    let (ok, _, err) = output_within_a_minute(pocketlab().args([
        "run",
        experiment.to_str().unwrap(),
        "--threads",
        "2",
        "--out",
        work.path().join("log").to_str().unwrap(),
    ]));
    assert!(
        !ok && err.contains("16384 MiB") && err.contains("--max-memory-mb"),
        "{err}"
    );
    assert!(
        !work.path().join("log").exists(),
        "refused before anything was written"
    );
    std::fs::write(
        &experiment,
        EXPERIMENT.replace("pairs = 8", "pairs = 4294967295"),
    )
    .unwrap();
    let (ok, _, err) =
        output_within_a_minute(pocketlab().args(["run", experiment.to_str().unwrap()]));
    assert!(!ok && err.contains("stop.pairs"), "{err}");
}

#[test]
fn bench_search_replays_a_logs_positions_and_says_when_none_are_logged() {
    let work = tempfile::tempdir().unwrap();
    let (_, log) = small_log(work.path());
    let out = pocketlab()
        .args(["bench", "search", "--log", log.to_str().unwrap()])
        .args(["--positions", "3"])
        .output()
        .unwrap();
    let stdout = succeeded(&out);
    // The log's own budget (400 nodes) unless told otherwise.
    assert!(
        stdout.contains("procs: 3 of ") && stdout.contains("400 nodes each"),
        "{stdout}"
    );
    let figures: Vec<f64> = stdout
        .lines()
        .nth(2)
        .unwrap()
        .split_whitespace()
        .map(|f| f.parse().unwrap())
        .collect();
    assert!(figures[0] > 0.0 && figures[0] <= 3.0 * 400.0, "{stdout}");

    // `--army` picks another army; a name no lab army has is refused with
    // the names that would do.
    let with_army = |name: &str| {
        pocketlab()
            .args(["bench", "search", "--log", log.to_str().unwrap()])
            .args(["--positions", "2", "--army", name])
            .output()
            .unwrap()
    };
    let stderr = refused(&with_army("nosuch"));
    assert!(stderr.contains("--army nosuch"), "{stderr}");
    let names: Vec<String> = stderr
        .rsplit_once("do: ")
        .unwrap()
        .1
        .trim_end()
        .trim_end_matches(')')
        .split(", ")
        .map(str::to_owned)
        .collect();
    assert!(names.len() >= 2, "{stderr}");
    let first = stdout
        .split("army ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    let other = names.iter().find(|n| *n != first).unwrap();
    let stdout = succeeded(&with_army(other));
    assert!(stdout.contains(&format!("army {other}, ")), "{stdout}");

    let experiment = work.path().join("no-fens.toml");
    let text = EXPERIMENT.replace("pairs = 8", "pairs = 1");
    std::fs::write(&experiment, text.replace("[log]", "[log]\nfen_every = 0")).unwrap();
    let bare = work.path().join("bare");
    run_to_end(&experiment, &bare, &[]);
    let out = pocketlab()
        .args(["bench", "search", "--log", bare.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = refused(&out);
    assert!(
        stderr.contains(bare.to_str().unwrap()) && stderr.contains("fen_every"),
        "{stderr}"
    );
}
