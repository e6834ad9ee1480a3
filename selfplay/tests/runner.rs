//! The runner: experiment-file errors, determinism across thread counts
//! and shards, the Parquet round trip, and SPRT stopping.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pocketlab_selfplay::log::{GameRecord, MoveRecord, read_games, read_moves};
use pocketlab_selfplay::{Experiment, RunOptions, Shard, run};

const TINY: &str = r#"
name = "tiny"
variant = "pocket-mutation"
seed = 7
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
pairs = 3
[log]
chunk_games = 2
fen_every = 5
[[generators]]
kind = "class-equivalence"
class = 2
slots = "N"
[[generators]]
kind = "pawn-odds"
"#;

fn experiment(text: &str) -> Experiment {
    Experiment::parse("tiny.toml", text, Path::new(".")).unwrap()
}

fn play(exp: &Experiment, dir: &Path, threads: usize, shard: Shard) {
    let options = RunOptions {
        out_dir: dir.to_path_buf(),
        threads,
        shard,
        quiet: true,
    };
    let summary = run(exp, &options, &Arc::new(AtomicBool::new(false))).unwrap();
    assert!(!summary.interrupted);
}

/// Games and moves sorted, with the wall-clock column blanked.
fn contents(dir: &Path) -> (Vec<GameRecord>, Vec<MoveRecord>) {
    let mut games = read_games(dir).unwrap();
    for g in &mut games {
        g.duration_ms = 0;
    }
    games.sort_by_key(|g| g.game_id);
    let mut moves = read_moves(dir).unwrap();
    moves.sort_by_key(|m| (m.game_id, m.ply));
    (games, moves)
}

#[test]
fn results_do_not_depend_on_threads_or_shards() {
    let exp = experiment(TINY);
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    let sharded = tempfile::tempdir().unwrap();
    play(&exp, one.path(), 1, Shard::WHOLE);
    play(&exp, two.path(), 2, Shard::WHOLE);
    play(&exp, sharded.path(), 1, Shard { index: 1, count: 2 });
    play(&exp, sharded.path(), 2, Shard { index: 0, count: 2 });
    let reference = contents(one.path());
    assert_eq!(reference.0.len(), exp.matchups.len() * 3 * 2);
    assert!(!reference.1.is_empty());
    assert_eq!(contents(two.path()), reference, "2 threads differ from 1");
    assert_eq!(
        contents(sharded.path()),
        reference,
        "the union of shards differs from the single run"
    );
    // Running again adds nothing.
    play(&exp, one.path(), 2, Shard::WHOLE);
    assert_eq!(contents(one.path()), reference);
}

#[test]
fn logged_games_replay_to_their_results() {
    let exp = experiment(TINY);
    let dir = tempfile::tempdir().unwrap();
    play(&exp, dir.path(), 2, Shard::WHOLE);
    let (games, moves) = contents(dir.path());
    for g in &games {
        let own: Vec<&MoveRecord> = moves.iter().filter(|m| m.game_id == g.game_id).collect();
        assert_eq!(
            own.len() as u32,
            g.plies,
            "game {} has all its moves",
            g.game_id
        );
        let mut pos = pocketlab_core::Position::from_fen(&exp.variant, &g.start_fen).unwrap();
        for m in own {
            if let Some(fen) = &m.fen {
                assert_eq!(
                    fen,
                    &pos.to_fen(),
                    "the logged FEN is the position before the move"
                );
            }
            pos = pos.after(pocketlab_core::notation::parse(&pos, &m.mv).unwrap());
        }
        let pgn = pocketlab_selfplay::pgn::game_pgn(
            &exp.variant,
            g,
            &moves
                .iter()
                .filter(|m| m.game_id == g.game_id)
                .cloned()
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert!(pgn.trim_end().ends_with(&g.result), "{pgn}");
    }
}

const SELF_PLAY: &str = r#"
name = "self-play"
variant = "chess"
seed = 11
[engine]
nodes = 300
hash_mb = 1
NOISE
[openings]
random_plies = 4
[adjudication]
max_plies = 40
[stop]
pairs = 3
[armies.white]
[armies.black]
[[matchups]]
a = "white"
b = "black"
"#;

/// Each pair's two games as move lists (A White, then B White).
fn pair_move_lists(dir: &Path) -> Vec<[Vec<String>; 2]> {
    let (games, moves) = contents(dir);
    let list = |id: u64| -> Vec<String> {
        moves
            .iter()
            .filter(|m| m.game_id == id)
            .map(|m| m.mv.clone())
            .collect()
    };
    games
        .chunks(2)
        .map(|pair| [list(pair[0].game_id), list(pair[1].game_id)])
        .collect()
}

#[test]
fn armies_that_play_alike_repeat_each_game_unless_root_noise_parts_them() {
    let alike = experiment(&SELF_PLAY.replace("NOISE", ""));
    assert_eq!(alike.mirrored_matchups().count(), 1);
    let dir = tempfile::tempdir().unwrap();
    play(&alike, dir.path(), 2, Shard::WHOLE);
    for [first, second] in pair_move_lists(dir.path()) {
        assert_eq!(first, second, "the colour swap changes nothing");
    }

    let noisy = experiment(&SELF_PLAY.replace("NOISE", "root_noise = 30"));
    assert_eq!(noisy.mirrored_matchups().count(), 0);
    let dir = tempfile::tempdir().unwrap();
    play(&noisy, dir.path(), 2, Shard::WHOLE);
    assert!(
        pair_move_lists(dir.path())
            .iter()
            .any(|[first, second]| first != second),
        "root noise drawn per game parts the pair's games"
    );

    let unequal = experiment(
        &SELF_PLAY
            .replace("NOISE", "")
            .replace("[armies.black]", "[armies.black]\nengine = { nodes = 400 }"),
    );
    assert_eq!(unequal.mirrored_matchups().count(), 0);
}

#[test]
fn an_inherited_evaluation_file_is_recorded_with_its_parent() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    std::fs::create_dir(dir.path().join("mine")).unwrap();
    write("base.toml", "tempo = 30\n");
    write(
        "mine/child.toml",
        "inherits = \"../base.toml\"\n[king_danger]\nshield = 5\n",
    );
    let text = SELF_PLAY.replace("NOISE", "eval = \"mine/child.toml\"");
    let exp = Experiment::parse("e.toml", &text, dir.path()).unwrap();
    let eval = &exp.armies[0].engine.eval;
    assert_eq!((eval.tempo, eval.king_danger.shield), (30, 5));
    let recorded: Vec<&str> = exp
        .inputs
        .keys()
        .filter(|k| k.starts_with("eval"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        recorded,
        [
            "eval mine/child.toml",
            "eval mine/child.toml > ../base.toml"
        ],
        "both files decide the games"
    );
    std::fs::remove_file(dir.path().join("base.toml")).unwrap();
    let err = Experiment::parse("e.toml", &text, dir.path())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("engine.eval") && err.contains("child.toml") && err.contains("base.toml"),
        "{err}"
    );
}

#[test]
fn sprt_stops_a_matchup_at_the_same_pair_whatever_the_threads() {
    let text = TINY
        .replace(
            "pairs = 3",
            "pairs = 40\nsprt = { elo0 = 0, elo1 = 400, alpha = 0.2, beta = 0.2 }",
        )
        .replace("[[generators]]\nkind = \"pawn-odds\"\n", "");
    let exp = experiment(&text);
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    play(&exp, a.path(), 1, Shard::WHOLE);
    play(&exp, b.path(), 2, Shard::WHOLE);
    let (games, _) = contents(a.path());
    assert_eq!(contents(b.path()).0, games);
    let decided: Vec<&GameRecord> = games.iter().filter(|g| g.sprt_decision.is_some()).collect();
    assert_eq!(decided.len(), 2, "one pair decides the test");
    let last_pair = decided[0].pair_index;
    assert!(
        games.iter().all(|g| g.pair_index <= last_pair),
        "no pair after the decision is logged"
    );
    assert!(games.iter().all(|g| g.sprt_llr.is_some()));
}

fn error_of(text: &str) -> pocketlab_selfplay::ExperimentError {
    Experiment::parse("bad.toml", text, Path::new(".")).unwrap_err()
}

#[test]
fn bad_experiment_files_fail_before_any_game_with_file_key_and_reason() {
    let e = error_of(&TINY.replace(
        "variant = \"pocket-mutation\"",
        "variant = \"no-such-variant\"",
    ));
    assert_eq!((e.file.as_str(), e.key.as_str()), ("bad.toml", "variant"));
    let e = error_of(&TINY.replace("pairs = 3", "pairs = 0"));
    assert_eq!(e.key, "stop.pairs");
    let e = error_of(&TINY.replace("slots = \"N\"", "slots = \"W\""));
    assert!(e.key.contains("slots") && e.reason.contains("'W'"), "{e}");
    let e = error_of(&TINY.replace("class = 2", "class = 8"));
    assert!(e.reason.contains("fewer than two"), "{e}");
    let e = error_of(&TINY.replace("seed = 7", "seed = 7\ncolour = 3"));
    assert!(e.to_string().contains("colour"), "{e}");
    let e = error_of(&format!("{TINY}\n[armies.x]\nreplace = {{ K = \"Q\" }}\n"));
    assert!(e.reason.contains("royal"), "{e}");
    let e = error_of(&format!("{TINY}\n[armies.x]\nreplace = {{ C = \"Q\" }}\n"));
    assert!(e.reason.contains("no 'C' to replace"), "{e}");
    let e = error_of(&format!("{TINY}\n[[matchups]]\na = \"N\"\nb = \"ghost\"\n"));
    assert!(e.reason.contains("ghost"), "{e}");
    let e = error_of(&TINY.replace(
        "pocket = { mutation = false }",
        "pocket = { mutashun = false }",
    ));
    assert_eq!(e.key, "rules");
    assert!(e.reason.contains("mutashun"), "{e}");
    let e = error_of(&TINY.replace("[engine]\nnodes = 300", "[engine]\nnodes = 0"));
    assert!(e.key.starts_with("engine"), "{e}");
}

#[test]
fn a_log_of_another_experiment_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    play(&experiment(TINY), dir.path(), 1, Shard::WHOLE);
    let other = experiment(&TINY.replace("seed = 7", "seed = 8"));
    let options = RunOptions {
        out_dir: dir.path().to_path_buf(),
        threads: 1,
        shard: Shard::WHOLE,
        quiet: true,
    };
    let err = run(&other, &options, &Arc::new(AtomicBool::new(false))).unwrap_err();
    assert!(
        err.to_string().contains("another --out") || err.to_string().contains("use another"),
        "{err}"
    );
}

#[test]
fn a_damaged_chunk_is_reported_with_its_file_name() {
    let dir = tempfile::tempdir().unwrap();
    play(&experiment(TINY), dir.path(), 1, Shard::WHOLE);
    let chunk = std::fs::read_dir(dir.path().join("games"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let bytes = std::fs::read(&chunk).unwrap();
    std::fs::write(&chunk, &bytes[..bytes.len() / 2]).unwrap();
    let err = read_games(dir.path()).unwrap_err().to_string();
    assert!(
        err.contains(&chunk.file_name().unwrap().to_string_lossy().into_owned()),
        "{err}"
    );
}
