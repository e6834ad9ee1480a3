//! Staged runs with a toy design (the real one lives in the analysis crate
//! and is tested there, also through these paths): the same log for any
//! thread count and shard split, stage by stage; a stage resumed in its
//! middle; a stopped matchup gets no more pairs; stages refused out of order.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pocketlab_selfplay::log::{GameRecord, read_games};
use pocketlab_selfplay::runner::RunError;
use pocketlab_selfplay::{
    Experiment, PairScores, RunOptions, RunSummary, Shard, StagePairs, StagePlanner, run,
    run_stages,
};

const STAGED: &str = r#"
name = "staged"
variant = "pocket-mutation"
seed = 5
[rules]
pocket = { mutation = false }
[engine]
nodes = 300
hash_mb = 1
[openings]
random_plies = 4
[adjudication]
max_plies = 60
[stop]
design = "sequential-equivalence"
max_pairs = 6
look_every = 2
[log]
chunk_games = 3
[[generators]]
kind = "class-equivalence"
class = 2
slots = "N"
[[generators]]
kind = "pawn-odds"
"#;

/// Stages of 2 pairs up to 6, each planned once the logged results of
/// the stage before are complete; matchup 0 stops after stage 1 (whatever
/// it scored, so the test does not hang on the engine's play); the others
/// play every stage.
struct Toy;

impl StagePlanner for Toy {
    fn next_stage(&self, scores: &PairScores) -> Result<Option<StagePairs>, String> {
        let mut active: Vec<usize> = (0..scores.len()).collect();
        for stage in 1..=3usize {
            let (from, to) = (2 * (stage as u64 - 1), 2 * stage as u64);
            let complete = active.iter().all(|&m| {
                (from..to).all(|p| scores[m].get(p as usize).copied().flatten().is_some())
            });
            if !complete {
                return Ok(Some(StagePairs::uniform(stage, from, to, &active)));
            }
            active.retain(|&m| m != 0);
            if active.is_empty() {
                return Ok(None);
            }
        }
        Ok(None)
    }
}

fn experiment() -> Experiment {
    Experiment::parse("staged.toml", STAGED, Path::new(".")).unwrap()
}

fn options(dir: &Path, threads: usize, shard: Shard) -> RunOptions {
    RunOptions {
        out_dir: dir.to_path_buf(),
        threads,
        shard,
        quiet: true,
    }
}

fn stages(
    dir: &Path,
    threads: usize,
    shard: Shard,
    stage: Option<usize>,
) -> Result<RunSummary, RunError> {
    run_stages(
        &experiment(),
        &options(dir, threads, shard),
        &Toy,
        stage,
        &Arc::new(AtomicBool::new(false)),
    )
}

fn games(dir: &Path) -> Vec<GameRecord> {
    let mut games = read_games(dir).unwrap();
    games.iter_mut().for_each(|g| g.duration_ms = 0);
    games.sort_by_key(|g| g.game_id);
    games
}

fn pairs_of(games: &[GameRecord], matchup: u32) -> Vec<u64> {
    let mut pairs: Vec<u64> = games
        .iter()
        .filter(|g| g.matchup_index == matchup)
        .map(|g| g.pair_index)
        .collect();
    pairs.dedup();
    pairs
}

#[test]
fn stages_give_the_same_log_for_any_threads_and_shards() {
    let one = tempfile::tempdir().unwrap();
    let summary = stages(one.path(), 1, Shard::WHOLE, None).unwrap();
    let report = summary.stages.unwrap();
    assert_eq!(report.next, None, "{report:?}");
    let reference = games(one.path());
    // The stopped matchup got stage 1 only.
    assert_eq!(pairs_of(&reference, 0), [0, 1]);
    assert!(reference.iter().any(|g| g.pair_index >= 2));

    let two = tempfile::tempdir().unwrap();
    stages(two.path(), 2, Shard::WHOLE, None).unwrap();
    assert_eq!(games(two.path()), reference, "2 threads differ from 1");

    // Stage by stage, each split into shards (another split per stage).
    let sharded = tempfile::tempdir().unwrap();
    for (stage, count) in [(1, 2), (2, 3), (3, 2)] {
        for index in (0..count).rev() {
            let s = stages(sharded.path(), 1, Shard { index, count }, Some(stage)).unwrap();
            assert_eq!(s.stages.unwrap().played, [stage]);
        }
    }
    assert_eq!(
        games(sharded.path()),
        reference,
        "the shards' union differs"
    );
    // A stage already played is not played again.
    let again = stages(sharded.path(), 1, Shard::WHOLE, Some(2)).unwrap();
    assert_eq!(again.played_games, 0);
    assert!(again.stages.unwrap().played.is_empty());
}

#[test]
fn a_stage_resumes_in_its_middle_and_stages_run_in_order() {
    let reference = tempfile::tempdir().unwrap();
    stages(reference.path(), 1, Shard::WHOLE, None).unwrap();

    let dir = tempfile::tempdir().unwrap();
    stages(dir.path(), 1, Shard::WHOLE, Some(1)).unwrap();
    // Stage 3 before stage 2: refused, naming what is missing.
    let early = stages(dir.path(), 1, Shard::WHOLE, Some(3)).unwrap_err();
    assert!(
        matches!(
            early,
            RunError::StageNotReady {
                wanted: 3,
                incomplete: 2,
                ..
            }
        ),
        "{early}"
    );
    assert!(
        early.to_string().contains("stage 2 is not complete"),
        "{early}"
    );
    // Half of stage 2 (one shard), then the rest of the study in one go.
    let half = stages(dir.path(), 1, Shard { index: 1, count: 2 }, Some(2)).unwrap();
    let report = half.stages.unwrap();
    assert_eq!(report.next, Some(2));
    assert!(report.missing_pairs > 0);
    stages(dir.path(), 2, Shard::WHOLE, None).unwrap();
    assert_eq!(games(dir.path()), games(reference.path()));
}

#[test]
fn staged_experiments_are_refused_where_they_cannot_run() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment();
    let flag = Arc::new(AtomicBool::new(false));
    // The plain runner cannot plan stages.
    let err = run(&exp, &options(dir.path(), 1, Shard::WHOLE), &flag).unwrap_err();
    assert!(matches!(err, RunError::NeedsStages), "{err}");
    // Shards without a stage: each shard needs the others' results.
    let err = stages(dir.path(), 1, Shard { index: 0, count: 2 }, None).unwrap_err();
    assert!(matches!(err, RunError::ShardsNeedStage), "{err}");
    // A planner that finds pairs it did not schedule stops the run.
    struct Refuses;
    impl StagePlanner for Refuses {
        fn next_stage(&self, _: &PairScores) -> Result<Option<StagePairs>, String> {
            Err("matchup x has pair 9 logged".into())
        }
    }
    let err = run_stages(
        &exp,
        &options(dir.path(), 1, Shard::WHOLE),
        &Refuses,
        None,
        &flag,
    )
    .unwrap_err();
    assert!(err.to_string().contains("pair 9"), "{err}");
}

#[test]
fn stop_keys_of_the_design_are_checked() {
    let check = |replace: &str, with: &str, key: &str, reason: &str| {
        let text = STAGED.replace(replace, with);
        let err = Experiment::parse("s.toml", &text, Path::new(".")).unwrap_err();
        assert_eq!(err.key, key, "{err}");
        assert!(err.reason.contains(reason), "{err}");
    };
    check(
        "max_pairs = 6\n",
        "max_pairs = 6\npairs = 6\n",
        "stop.pairs",
        "use max_pairs",
    );
    check("max_pairs = 6\n", "", "stop.max_pairs", "needs max_pairs");
    check(
        "look_every = 2",
        "look_every = 7",
        "stop.look_every",
        "between 1 and max_pairs",
    );
    check(
        "look_every = 2",
        "look_every = 2\nbudget_games = 7",
        "stop.budget_games",
        "first stage",
    );
    check(
        "look_every = 2",
        "look_every = 2\nmargin = 0",
        "stop.margin",
        "between 0 and 10",
    );
    check(
        "look_every = 2",
        "look_every = 2\nalpha = 0.5",
        "stop.alpha",
        "between 0 and 0.5",
    );
    check(
        "look_every = 2",
        "look_every = 2\nsprt = { elo0 = 0, elo1 = 10 }",
        "stop.sprt",
        "two stop rules",
    );
    check(
        "design = \"sequential-equivalence\"\nmax_pairs = 6\nlook_every = 2",
        "pairs = 6\nlook_every = 2",
        "stop.look_every",
        "belongs to design",
    );
    for gamma in ["0", "0.5", "-0.1", "nan"] {
        check(
            "look_every = 2",
            &format!("look_every = 2\ncalibration_futility = {gamma}"),
            "stop.calibration_futility",
            "between 0 and 0.5",
        );
    }
    check(
        "design = \"sequential-equivalence\"\nmax_pairs = 6\nlook_every = 2",
        "pairs = 6\ncalibration_futility = 0.05",
        "stop.calibration_futility",
        "belongs to design",
    );
    // A misspelt design or spending function is named by line and column.
    for (from, to) in [
        ("\"sequential-equivalence\"", "\"sequential\""),
        ("look_every = 2", "look_every = 2\nspending = \"fleming\""),
    ] {
        let text = STAGED.replace(from, to);
        let err = Experiment::parse("s.toml", &text, Path::new(".")).unwrap_err();
        assert!(err.reason.contains("line"), "{err}");
    }
    let exp = experiment();
    let s = exp.stop.sequential().unwrap();
    assert_eq!(
        (s.max_pairs, s.look_every, s.looks()),
        (6, 2, vec![2, 4, 6])
    );
    assert_eq!(exp.stop.pairs, 6);
    assert_eq!(s.calibration_futility, None);
    let text = STAGED.replace(
        "look_every = 2",
        "look_every = 2\ncalibration_futility = 0.05",
    );
    let exp = Experiment::parse("s.toml", &text, Path::new(".")).unwrap();
    assert_eq!(
        exp.stop.sequential().unwrap().calibration_futility,
        Some(0.05)
    );
}
