//! A study under the sequential-equivalence design, run by the `pocketlab`
//! binary as the cluster examples run it: stages split into shard
//! processes union to the single-process run, a run killed with SIGKILL (or
//! left in the middle of a stage) resumes exactly, stages out of order are
//! refused, and the report shows what the design did.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pocketlab_selfplay::log::{GameRecord, list_chunks, read_games};

use common::succeeded;

const EXPERIMENT: &str = r#"
name = "staged"
variant = "pocket-mutation"
seed = 41
[rules]
pocket = { mutation = false }
[engine]
nodes = 400
hash_mb = 1
[adjudication]
max_plies = 80
[stop]
design = "sequential-equivalence"
max_pairs = 8
look_every = 2
[log]
chunk_games = 2
[[generators]]
kind = "class-equivalence"
class = 3
slots = "R"
[[generators]]
kind = "pawn-odds"
"#;

fn pocketlab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pocketlab"))
}

fn run(experiment: &Path, out: &Path, extra: &[&str]) -> (bool, String) {
    let output = pocketlab()
        .args(["run", experiment.to_str().unwrap(), "--quiet"])
        .args(["--out", out.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned()
            + &String::from_utf8_lossy(&output.stdout),
    )
}

fn games(dir: &Path) -> Vec<GameRecord> {
    let mut games = read_games(dir).unwrap();
    games.iter_mut().for_each(|g| g.duration_ms = 0);
    games.sort_by_key(|g| g.game_id);
    games
}

#[test]
fn stage_shards_union_to_the_single_run_and_resume_exactly() {
    let work = tempfile::tempdir().unwrap();
    let experiment = work.path().join("staged.toml");
    std::fs::write(&experiment, EXPERIMENT).unwrap();

    let single = work.path().join("single");
    let (ok, said) = run(&experiment, &single, &["--threads", "2"]);
    assert!(ok, "{said}");
    assert!(said.contains("the study is over"), "{said}");
    let reference = games(&single);
    assert!(!reference.is_empty());
    assert!(single.parent().unwrap().join("report.md").exists());

    // Each stage as three shard processes at once, on one directory, as the
    // Slurm chain runs them; stages past the end of the study do nothing.
    let sharded = work.path().join("sharded");
    for stage in 1..=4 {
        let children: Vec<_> = (0..3)
            .map(|i| {
                pocketlab()
                    .args(["run", experiment.to_str().unwrap(), "--quiet"])
                    .args(["--threads", "1", "--stage", &stage.to_string()])
                    .args(["--shard", &format!("{i}/3")])
                    .args(["--out", sharded.to_str().unwrap()])
                    .stdout(Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut child in children {
            assert!(child.wait().unwrap().success(), "stage {stage}");
        }
    }
    assert_eq!(
        games(&sharded),
        reference,
        "the stages' shards differ from the single run"
    );

    // Stage 1, then half of stage 2, then the rest in one process.
    let halves = work.path().join("halves");
    assert!(run(&experiment, &halves, &["--stage", "1"]).0);
    let (ok, said) = run(&experiment, &halves, &["--stage", "2", "--shard", "1/2"]);
    assert!(ok, "{said}");
    assert!(
        said.contains("still to be logged by other shards"),
        "{said}"
    );
    // Stage 3 cannot start while stage 2 is incomplete.
    let (ok, said) = run(&experiment, &halves, &["--stage", "3"]);
    assert!(!ok);
    assert!(said.contains("stage 2 is not complete"), "{said}");
    assert!(run(&experiment, &halves, &["--threads", "2"]).0);
    assert_eq!(games(&halves), reference, "resumed mid-stage differs");

    // Killed with SIGKILL twice while playing, then finished.
    let killed = work.path().join("killed");
    for round in 0..2 {
        let mut child = pocketlab()
            .args(["run", experiment.to_str().unwrap(), "--quiet"])
            .args(["--threads", "2", "--out", killed.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let before = logged(&killed);
        let deadline = Instant::now() + Duration::from_secs(120);
        while logged(&killed) <= before + 2 && Instant::now() < deadline {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "round {round}: the run finished before the kill"
        );
        let _ = child.kill();
        let _ = child.wait();
        assert!(logged(&killed) < reference.len() as u64);
    }
    assert!(run(&experiment, &killed, &["--threads", "1"]).0);
    assert_eq!(games(&killed), reference, "killed and resumed differs");
}

fn logged(dir: &Path) -> u64 {
    if !dir.join("games").exists() {
        return 0;
    }
    list_chunks(&[dir]).map_or(0, |c| c.games_count)
}

#[test]
fn the_report_shows_the_design_and_refuses_nothing_it_played() {
    let work = tempfile::tempdir().unwrap();
    let experiment = work.path().join("staged.toml");
    std::fs::write(&experiment, EXPERIMENT).unwrap();
    let log = work.path().join("out").join("log");
    assert!(run(&experiment, &log, &["--stage", "1"]).0);
    let report = pocketlab()
        .args(["report", log.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = succeeded(&report);
    assert!(stdout.contains("Sequential design:"), "{stdout}");
    assert!(stdout.contains("stage 2 is next"), "{stdout}");
    let md = std::fs::read_to_string(work.path().join("out").join("report.md")).unwrap();
    assert!(md.contains("## Sequential design: looks and games"), "{md}");
    assert!(md.contains("Pawns per piece (interval, level)"), "{md}");
    assert!(md.contains("repeated confidence intervals"), "{md}");
    let looks = std::fs::read_to_string(work.path().join("out/tables/looks.csv")).unwrap();
    assert!(
        looks.starts_with("matchup,pair,outcome,look,looks_planned,pairs,games"),
        "{looks}"
    );
    assert_eq!(looks.lines().count(), 1 + 4, "{looks}");
    // --stage on an experiment without the design, and a stage 0.
    let fixed = work.path().join("fixed.toml");
    std::fs::write(
        &fixed,
        EXPERIMENT.replace(
            "design = \"sequential-equivalence\"\nmax_pairs = 8\nlook_every = 2",
            "pairs = 2",
        ),
    )
    .unwrap();
    let (ok, said) = run(&fixed, &work.path().join("f"), &["--stage", "1"]);
    assert!(!ok && said.contains("--stage is for experiments"), "{said}");
    let (ok, said) = run(&experiment, &log, &["--stage", "0"]);
    assert!(!ok && said.contains("numbered from 1"), "{said}");
}
