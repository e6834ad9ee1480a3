//! The runner as separate processes: shards run as separate processes
//! union to the single run, and a run killed with SIGKILL at any moment and
//! started again equals an uninterrupted run.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pocketlab_selfplay::log::{GameRecord, MoveRecord, read_games, read_moves};

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
        let _ = child.kill();
        let _ = child.wait();
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
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/experiment.toml"));
    let out = pocketlab()
        .args(["run", "--shard", "3/2"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard"));
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
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("FEN"));
    let out = pocketlab()
        .args(["perft", "--variant", "chess", "--depth", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.lines().last(),
        Some("8902"),
        "perft's last line is the count alone"
    );
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
    for args in [
        vec!["report", log.to_str().unwrap()],
        vec!["pgn", log.to_str().unwrap()],
    ] {
        let out = pocketlab()
            .args(&args)
            .current_dir(work.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(work.path().join("elsewhere").join("report.html").exists());
}
