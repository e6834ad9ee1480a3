//! `pocketlab paired` from the command line: two players' runs from the
//! same openings compared opening by opening; runs that cannot be paired
//! are refused with the reason and a non-zero exit.

mod common;

use std::path::Path;

use common::pocketlab;

/// Plays a player with evaluation `player` (a file's text) against the
/// built-in weights, 4 pairs on `seed`, into `dir/log`.
fn played(dir: &Path, seed: u64, player: &str) -> String {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("player.toml"), player).unwrap();
    let experiment = format!(
        "name = \"player\"\nvariant = \"chess\"\nseed = {seed}\n[engine]\nnodes = 150\nhash_mb = 1\n\
         [openings]\nrandom_plies = 4\n[adjudication]\nmax_plies = 50\n[stop]\npairs = 4\n\
         [armies.player]\nengine = {{ eval = \"player.toml\" }}\n[armies.sparring]\n\
         [[matchups]]\na = \"player\"\nb = \"sparring\"\n"
    );
    let file = dir.join("experiment.toml");
    std::fs::write(&file, experiment).unwrap();
    let log = dir.join("log");
    let (ok, said) = pocketlab(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        log.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(ok, "{said}");
    log.to_str().unwrap().to_owned()
}

#[test]
fn two_runs_pair_by_opening_and_unpairable_runs_are_refused() {
    let work = tempfile::tempdir().unwrap();
    let first = played(&work.path().join("a"), 5, "tempo = 60\n");
    let second = played(&work.path().join("b"), 5, "tempo = 0\n");
    let other = played(&work.path().join("c"), 6, "tempo = 0\n");

    let (ok, said) = pocketlab(&["paired", "--first", &first, "--second", &second]);
    assert!(ok, "{said}");
    assert!(
        said.contains(": 4 pairs, ")
            && said.contains("first (player) against its opponent: ")
            && said.contains("first - second, paired by opening: ")
            && said.contains(" Elo over 4 pairs"),
        "{said}"
    );

    let (ok, said) = pocketlab(&["paired", "--first", &first, "--second", &other]);
    assert!(!ok && said.contains("not the same openings"), "{said}");
    let (ok, said) = pocketlab(&["paired", "--first", &first, "--second", &second, &other]);
    assert!(
        !ok && said.contains("--first has 1 log directories and --second 2"),
        "{said}"
    );
    let (ok, said) = pocketlab(&[
        "paired", "--first", &first, "--second", &second, "--army", "nobody",
    ]);
    assert!(!ok && said.contains("no army 'nobody'"), "{said}");
}
