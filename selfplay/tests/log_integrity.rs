//! The log under hostile conditions: duplicated, empty, foreign and edited
//! files, a second writer, changed inputs on resume, special files, and
//! glob characters in paths. Each is refused with the file named, or read
//! as exactly what it is; nothing hangs (reads that could block run under a
//! timeout guard).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Duration;

use pocketlab_selfplay::check::check_log;
use pocketlab_selfplay::log::{
    self, EXPERIMENT_FILE, GAMES_DIR, MANIFEST_FILE, MOVES_DIR, ShardLock, Table, list_chunks,
    read_games,
};
use pocketlab_selfplay::{Experiment, LoggedRulesError, RunOptions, Shard, run};

const TINY: &str = r#"
name = "tiny"
variant = "pocket-mutation"
seed = 7
[engine]
nodes = 200
hash_mb = 1
[openings]
random_plies = 2
[adjudication]
max_plies = 30
[stop]
pairs = 2
[log]
chunk_games = 2
[[generators]]
kind = "class-equivalence"
class = 2
slots = "N"
"#;

fn experiment_in(dir: &Path, text: &str) -> Experiment {
    let path = dir.join("tiny.toml");
    std::fs::write(&path, text).unwrap();
    Experiment::load(&path).unwrap()
}

fn try_play(exp: &Experiment, out: &Path, shard: Shard) -> Result<(), String> {
    let options = RunOptions {
        out_dir: out.to_path_buf(),
        threads: 1,
        shard,
        quiet: true,
    };
    run(exp, &options, &Arc::new(AtomicBool::new(false)))
        .map(drop)
        .map_err(|e| e.to_string())
}

fn play(exp: &Experiment, out: &Path) {
    try_play(exp, out, Shard::WHOLE).unwrap();
}

/// Runs `f` on another thread; a result that does not come within a
/// minute fails the test instead of hanging it.
fn within_a_minute<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the call hung (no answer within a minute)")
}

fn chunks(dir: &Path, table: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir.join(table))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    out.sort();
    out
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn a_duplicated_chunk_is_an_error_naming_both_files() {
    let work = tempfile::tempdir().unwrap();
    let exp = experiment_in(work.path(), TINY);
    let out = work.path().join("log");
    play(&exp, &out);
    let first = chunks(&out, GAMES_DIR)[0].clone();
    let copy = out.join(GAMES_DIR).join(log::chunk_name(7, 0));
    std::fs::copy(&first, &copy).unwrap();
    let err = read_games(&out).unwrap_err().to_string();
    assert!(
        err.contains("part-s0-000000") && err.contains("part-s7-000000"),
        "{err}"
    );
    // Resuming refuses too: nothing is counted twice.
    let err = try_play(&exp, &out, Shard::WHOLE).unwrap_err();
    assert!(err.contains("logged twice"), "{err}");
    let report = check_log(&out);
    assert!(!report.is_ok());
    assert!(report.to_string().contains("logged twice"), "{report}");
}

#[test]
fn empty_foreign_and_misnamed_chunks_are_named() {
    let work = tempfile::tempdir().unwrap();
    let exp = experiment_in(work.path(), TINY);
    let out = work.path().join("log");
    play(&exp, &out);

    let empty = out.join(GAMES_DIR).join(log::chunk_name(3, 0));
    std::fs::write(&empty, b"").unwrap();
    let err = read_games(&out).unwrap_err().to_string();
    assert!(
        err.contains("part-s3-000000") && err.contains("empty"),
        "{err}"
    );
    std::fs::remove_file(&empty).unwrap();

    // A chunk of another run of the same experiment name (another seed).
    let other_dir = work.path().join("other");
    std::fs::create_dir_all(&other_dir).unwrap();
    let other = experiment_in(&other_dir, &TINY.replace("seed = 7", "seed = 8"));
    let other_out = other_dir.join("log");
    play(&other, &other_out);
    let foreign = out.join(GAMES_DIR).join(log::chunk_name(5, 0));
    std::fs::copy(&chunks(&other_out, GAMES_DIR)[0], &foreign).unwrap();
    let err = read_games(&out).unwrap_err().to_string();
    assert!(
        err.contains("part-s5-000000") && err.contains("another log"),
        "{err}"
    );
    std::fs::remove_file(&foreign).unwrap();

    let misnamed = out.join(GAMES_DIR).join("extra.parquet");
    std::fs::copy(&chunks(&out, GAMES_DIR)[0], &misnamed).unwrap();
    let err = read_games(&out).unwrap_err().to_string();
    assert!(err.contains("extra.parquet"), "{err}");
    std::fs::remove_file(&misnamed).unwrap();
    assert!(check_log(&out).is_ok(), "{}", check_log(&out));
}

#[test]
fn an_edited_experiment_copy_is_refused() {
    let work = tempfile::tempdir().unwrap();
    let exp = experiment_in(work.path(), TINY);
    let out = work.path().join("log");
    play(&exp, &out);
    let copy = out.join(EXPERIMENT_FILE);
    let text = std::fs::read_to_string(&copy).unwrap();
    std::fs::write(&copy, text.replace("slots = \"N\"", "slots = \"B\"")).unwrap();
    let err = list_chunks(&[&out]).unwrap_err().to_string();
    assert!(
        err.contains("experiment.toml") && err.contains("changed"),
        "{err}"
    );
}

#[test]
fn glob_characters_in_a_log_path_are_taken_literally() {
    let work = tempfile::tempdir().unwrap();
    let exp = experiment_in(work.path(), TINY);
    // `lg[ab]` as a glob would match its sibling `lga`.
    let literal = work.path().join("lg[ab]");
    let sibling = work.path().join("lga");
    play(&exp, &literal);
    play(&exp, &sibling);
    std::fs::copy(
        chunks(&sibling, GAMES_DIR)[0].clone(),
        sibling.join(GAMES_DIR).join(log::chunk_name(9, 0)),
    )
    .unwrap();
    let files = list_chunks(&[&literal]).unwrap();
    let rows = files
        .scan(Table::Games)
        .unwrap()
        .collect()
        .unwrap()
        .height();
    assert_eq!(rows as u64, files.games_count);
    assert_eq!(rows, read_games(&literal).unwrap().len());
}

#[test]
fn a_second_writer_of_a_shard_is_refused_and_other_shards_temp_files_are_kept() {
    let work = tempfile::tempdir().unwrap();
    let exp = experiment_in(work.path(), TINY);
    let out = work.path().join("log");
    std::fs::create_dir_all(out.join(GAMES_DIR)).unwrap();
    // Shard 1's file in flight, and a leftover of a dead shard-0 writer.
    let theirs = out
        .join(GAMES_DIR)
        .join(".tmp-part-s1-000000.parquet.otherhost-1-0123456789abcdef.0");
    let ours = out
        .join(GAMES_DIR)
        .join(".tmp-part-s0-000000.parquet.deadhost-1-0123456789abcdef.0");
    std::fs::write(&theirs, b"in flight").unwrap();
    std::fs::write(&ours, b"left over").unwrap();
    {
        let _held = ShardLock::acquire(&out, 0, 2).unwrap();
        let err = try_play(&exp, &out, Shard { index: 0, count: 2 }).unwrap_err();
        assert!(
            err.contains("being written by") && err.contains("shard 0/2"),
            "{err}"
        );
        // Another split of the schedule while shard 0/2 runs.
        let err = try_play(&exp, &out, Shard { index: 1, count: 3 }).unwrap_err();
        assert!(err.contains("split into 2 shards"), "{err}");
    }
    try_play(&exp, &out, Shard { index: 0, count: 2 }).unwrap();
    assert!(
        theirs.exists(),
        "another shard's temporary file was deleted"
    );
    assert!(!ours.exists(), "this shard's leftover was kept");
}

#[test]
fn resume_refuses_changed_inputs_and_chunks_without_a_manifest() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    std::fs::write(
        dir.join("base.toml"),
        "name = \"base\"\ninherits = \"pocket-mutation\"\n[pieces.N]\nvalue = 300\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("designs")).unwrap();
    // `inherits` resolves beside the file that says it: designs/../base.toml.
    std::fs::write(
        dir.join("designs/cheap.toml"),
        "name = \"cheap\"\ninherits = \"../base.toml\"\n",
    )
    .unwrap();
    std::fs::write(dir.join("params.toml"), "tempo = 10\n").unwrap();
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        format!(
            "{}\n",
            pocketlab_core::builtin::load("pocket-mutation")
                .unwrap()
                .start_fen
        ),
    )
    .unwrap();
    let text = TINY
        .replace("variant = \"pocket-mutation\"", "variant = \"designs/cheap.toml\"")
        .replace("hash_mb = 1", "hash_mb = 1\neval = \"params.toml\"")
        .replace(
            "random_plies = 2",
            &format!("random_plies = 2\nbook = \"{}\"", book.display()),
        )
        .replace(
            "[[generators]]\nkind = \"class-equivalence\"\nclass = 2\nslots = \"N\"\n",
            "[armies.a]\n[armies.b]\nengine = { nodes = 300 }\n[[matchups]]\na = \"a\"\nb = \"b\"\n",
        );
    let out = dir.join("log");
    play(&experiment_in(dir, &text), &out);
    let resume = || try_play(&experiment_in(dir, &text), &out, Shard::WHOLE);
    resume().unwrap();

    for (file, changed, named) in [
        (
            "base.toml",
            "value = 310",
            "variant designs/cheap.toml > ../base.toml",
        ),
        ("params.toml", "tempo = 11", "eval params.toml"),
        ("book.epd", "# a comment\n", "book"),
    ] {
        let path = dir.join(file);
        let before = std::fs::read_to_string(&path).unwrap();
        let after = if file == "book.epd" {
            format!("{changed}{before}")
        } else {
            before.replace(before.lines().last().unwrap(), changed)
        };
        std::fs::write(&path, &after).unwrap();
        let err = resume().unwrap_err();
        assert!(
            err.contains(named) && err.contains("changed"),
            "{file}: {err}"
        );
        // Reading the games back needs only the rules as they ran: another
        // evaluation or book is accepted, a changed variant is not.
        let as_played = log::open_log(&out).unwrap().experiment_as_played();
        match (file, as_played) {
            ("base.toml", Err(LoggedRulesError::RulesChanged(changes))) => {
                assert!(changes.iter().any(|c| c.contains(named)), "{changes:?}");
            }
            ("params.toml" | "book.epd", Ok(_)) => {}
            (_, other) => panic!("{file}: {other:?}"),
        }
        std::fs::write(&path, &before).unwrap();
        resume().unwrap();
    }
    // A variant file gone: the experiment no longer loads, and the error
    // says where its files are read from.
    let base = std::fs::read_to_string(dir.join("base.toml")).unwrap();
    std::fs::remove_file(dir.join("base.toml")).unwrap();
    match log::open_log(&out).unwrap().experiment_as_played() {
        Err(e @ LoggedRulesError::NoLongerLoads { .. }) => {
            let said = e.to_string();
            assert!(
                said.contains("base.toml") && said.contains("read from"),
                "{said}"
            );
        }
        other => panic!("a missing variant file was not refused: {other:?}"),
    }
    std::fs::write(dir.join("base.toml"), base).unwrap();

    // Chunks with no manifest: another experiment's games are not adopted.
    std::fs::remove_file(out.join(MANIFEST_FILE)).unwrap();
    let err = resume().unwrap_err();
    assert!(err.contains("no manifest.toml"), "{err}");
}

#[test]
fn special_files_are_refused_without_hanging() {
    let work = tempfile::tempdir().unwrap();
    let root = work.path().to_path_buf();
    let exp = experiment_in(&root, TINY);
    let out = root.join("log");
    play(&exp, &out);
    // A FIFO named like a chunk: opening it to read would block for ever.
    mkfifo(&out.join(GAMES_DIR).join(log::chunk_name(4, 0)));
    let resumed = within_a_minute(move || try_play(&exp, &out, Shard::WHOLE).unwrap_err());
    assert!(
        resumed.contains("part-s4-000000") && resumed.contains("not a regular file"),
        "{resumed}"
    );
    // The experiment, eval and book paths too.
    mkfifo(&root.join("fifo.toml"));
    let errors = within_a_minute(move || {
        let load = |text: Option<String>| {
            let path = match text {
                Some(t) => {
                    let p = root.join("x.toml");
                    std::fs::write(&p, t).unwrap();
                    p
                }
                None => root.join("fifo.toml"),
            };
            Experiment::load(&path).unwrap_err().to_string()
        };
        [
            load(None),
            load(Some(
                TINY.replace("hash_mb = 1", "hash_mb = 1\neval = \"fifo.toml\""),
            )),
            load(Some(
                TINY.replace("random_plies = 2", "book = \"fifo.toml\""),
            )),
        ]
        .join("\n")
    });
    assert_eq!(errors.matches("not a regular file").count(), 3, "{errors}");
    drop(work);
}

#[test]
fn check_names_orphaned_and_missing_moves_chunks() {
    let work = tempfile::tempdir().unwrap();
    let exp = experiment_in(work.path(), TINY);
    let out = work.path().join("log");
    play(&exp, &out);
    assert!(check_log(&out).is_ok(), "{}", check_log(&out));
    let games = chunks(&out, GAMES_DIR);
    let moves = chunks(&out, MOVES_DIR);
    std::fs::remove_file(&games[0]).unwrap();
    std::fs::remove_file(&moves[1]).unwrap();
    let report = check_log(&out).to_string();
    assert!(
        report.contains("orphaned") && report.contains("part-s0-000000"),
        "{report}"
    );
    assert!(
        report.contains("moves chunk is missing") && report.contains("part-s0-000001"),
        "{report}"
    );
    // Readers leave the orphan out and report the games they have.
    let files = list_chunks(&[&out]).unwrap();
    assert_eq!(files.orphaned_moves.len(), 1);
    assert_eq!(files.games_without_moves.len(), 1);
}

#[test]
fn documented_limits_are_checked_when_the_experiment_loads() {
    let work = tempfile::tempdir().unwrap();
    for (from, to, key) in [
        ("pairs = 2", "pairs = 4294967295", "stop.pairs"),
        (
            "chunk_games = 2",
            "chunk_games = 1000000000",
            "log.chunk_games",
        ),
        (
            "max_plies = 30",
            "max_plies = 1000000000",
            "adjudication.max_plies",
        ),
        ("hash_mb = 1", "hash_mb = 100000", "engine.hash_mb"),
    ] {
        let path = work.path().join("limits.toml");
        std::fs::write(&path, TINY.replace(from, to)).unwrap();
        let e = Experiment::load(&path).unwrap_err();
        assert_eq!(e.key, key, "{e}");
    }
    // Hash tables: both engines of a game, per worker thread, within a budget.
    let exp = experiment_in(work.path(), &TINY.replace("hash_mb = 1", "hash_mb = 4096"));
    let err = pocketlab_selfplay::check_memory(&exp, 2, 2048)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("16384 MiB") && err.contains("--max-memory-mb"),
        "{err}"
    );
    pocketlab_selfplay::check_memory(&exp, 2, 16384).unwrap();
}

#[test]
fn a_file_that_is_not_toml_is_not_quoted_in_the_error() {
    let work = tempfile::tempdir().unwrap();
    let secret = "root:x:0:0:root:/root:/bin/bash\n";
    std::fs::write(work.path().join("passwd"), secret).unwrap();
    for key in ["eval = \"passwd\"", "variant = \"passwd\""] {
        let text = if key.starts_with("eval") {
            TINY.replace("hash_mb = 1", &format!("hash_mb = 1\n{key}"))
        } else {
            TINY.replace("variant = \"pocket-mutation\"", key)
        };
        let path = work.path().join("x.toml");
        std::fs::write(&path, text).unwrap();
        let e = Experiment::load(&path).unwrap_err().to_string();
        assert!(e.contains("passwd") && e.contains("line 1"), "{e}");
        assert!(!e.contains("root:x"), "the error quotes the file: {e}");
    }
    std::fs::write(work.path().join("x.toml"), secret).unwrap();
    let e = Experiment::load(&work.path().join("x.toml"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 1") && !e.contains("root:x"), "{e}");
}

/// A checkout cloned elsewhere: the manifest's absolute experiment
/// directory names the first checkout (or nothing at all), yet the log
/// reads its variant and eval files from its own checkout.
#[test]
fn a_log_in_a_checkout_elsewhere_reads_its_inputs_from_that_checkout() {
    let work = tempfile::tempdir().unwrap();
    let first = work.path().join("first");
    let experiments = first.join("configs/experiments");
    std::fs::create_dir_all(&experiments).unwrap();
    std::fs::create_dir_all(first.join("configs/eval")).unwrap();
    std::fs::write(first.join("configs/eval/params.toml"), "tempo = 10\n").unwrap();
    let text = TINY.replace("hash_mb = 1", "hash_mb = 1\neval = \"../eval/params.toml\"");
    let out = first.join("reports/tiny/log");
    play(&experiment_in(&experiments, &text), &out);

    // A second checkout whose eval file differs: the log must read its own.
    let second = work.path().join("second");
    copy_tree(&first, &second);
    std::fs::write(second.join("configs/eval/params.toml"), "tempo = 11\n").unwrap();
    let log = log::open_log(&second.join("reports/tiny/log")).unwrap();
    assert_eq!(
        std::fs::canonicalize(log.experiment_base()).unwrap(),
        std::fs::canonicalize(second.join("configs/experiments")).unwrap()
    );
    let report = check_log(&second.join("reports/tiny/log"));
    assert!(
        report.problems.iter().any(|p| p.what.contains("eval")),
        "the second checkout's changed eval file went unseen: {:?}",
        report.problems
    );

    // The first checkout gone: the copy, restored, checks clean.
    std::fs::write(second.join("configs/eval/params.toml"), "tempo = 10\n").unwrap();
    std::fs::remove_dir_all(&first).unwrap();
    let report = check_log(&second.join("reports/tiny/log"));
    assert!(report.is_ok(), "{:?}", report.problems);

    // Its eval file gone: the check says the experiment no longer loads
    // and where its files are read from.
    std::fs::remove_file(second.join("configs/eval/params.toml")).unwrap();
    let report = check_log(&second.join("reports/tiny/log"));
    let experiments = std::fs::canonicalize(second.join("configs/experiments")).unwrap();
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.what.contains("no longer loads")
                && p.what.contains("params.toml")
                && p.what.contains(&*experiments.to_string_lossy())),
        "{:?}",
        report.problems
    );
}

/// A log written elsewhere into a directory named like the experiment's
/// folder: the experiment's files are still read where it was, not from
/// the log directory that happens to share the folder's name.
#[test]
fn a_log_named_like_its_experiment_folder_reads_its_inputs_from_that_folder() {
    let work = tempfile::tempdir().unwrap();
    let folder = work.path().join("repo/reports/screens/wide");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::create_dir_all(work.path().join("repo/configs/eval")).unwrap();
    std::fs::write(
        work.path().join("repo/configs/eval/params.toml"),
        "tempo = 10\n",
    )
    .unwrap();
    let text = TINY.replace(
        "hash_mb = 1",
        "hash_mb = 1\neval = \"../../../configs/eval/params.toml\"",
    );
    let out = work.path().join("scratch/wide");
    play(&experiment_in(&folder, &text), &out);
    let log = log::open_log(&out).unwrap();
    assert_eq!(
        std::fs::canonicalize(log.experiment_base()).unwrap(),
        std::fs::canonicalize(&folder).unwrap()
    );
    let exp = log.experiment_as_played().unwrap();
    assert_eq!(exp.name, "tiny");
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
