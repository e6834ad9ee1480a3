//! Potential Chess through the runner: games are legal, replay to their
//! logged results (positions as potential text, moves in the seed's
//! notation), export as PGN, and do not depend on the thread count.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pocketlab_core::Game;
use pocketlab_core::potential::{Army, PotentialPosition};
use pocketlab_core::{GameStatus, Outcome};
use pocketlab_selfplay::log::{GameRecord, MoveRecord, read_games, read_moves};
use pocketlab_selfplay::{Experiment, RunOptions, Shard, run};

const TINY_POTENTIAL: &str = r#"
name = "tiny-potential"
variant = "potential-chess"
seed = 9
[engine]
nodes = 400
hash_mb = 1
[openings]
random_plies = 2
[adjudication]
max_plies = 50
[stop]
pairs = 2
[log]
fen_every = 3
[armies.first]
[armies.second]
[[matchups]]
a = "first"
b = "second"
"#;

fn play(exp: &Experiment, dir: &Path, threads: usize) -> (Vec<GameRecord>, Vec<MoveRecord>) {
    let options = RunOptions {
        out_dir: dir.to_path_buf(),
        threads,
        shard: Shard::WHOLE,
        quiet: true,
    };
    let summary = run(exp, &options, &Arc::new(AtomicBool::new(false))).unwrap();
    assert!(!summary.interrupted);
    let mut games = read_games(dir).unwrap();
    games.iter_mut().for_each(|g| g.duration_ms = 0);
    games.sort_by_key(|g| g.game_id);
    let mut moves = read_moves(dir).unwrap();
    moves.sort_by_key(|m| (m.game_id, m.ply));
    (games, moves)
}

#[test]
fn potential_games_replay_to_their_results_whatever_the_threads() {
    let exp = Experiment::parse("tiny.toml", TINY_POTENTIAL, Path::new(".")).unwrap();
    let army = Army::of(&exp.variant).expect("a potential variant");
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    let (games, moves) = play(&exp, one.path(), 1);
    assert_eq!(games.len(), 4);
    assert_eq!(play(&exp, two.path(), 2), (games.clone(), moves.clone()));

    for g in &games {
        let own: Vec<&MoveRecord> = moves.iter().filter(|m| m.game_id == g.game_id).collect();
        assert_eq!(own.len() as u32, g.plies);
        let start = PotentialPosition::from_text(&army, &g.start_fen).unwrap();
        assert_eq!(
            start,
            army.start_position(),
            "games start from the army's start"
        );
        let mut game = Game::new(start);
        for m in &own {
            let pos = game.position();
            if let Some(text) = &m.fen {
                assert_eq!(
                    text,
                    &pos.to_text(),
                    "the logged text is the position before the move"
                );
            }
            let mv = pos.parse_move(&m.mv).unwrap();
            assert_eq!(pos.format_move(mv), m.mv);
            assert_eq!(m.capture.is_some(), mv.captured.is_some());
            game.play(mv).unwrap();
        }
        // The logged ending is what the rules say about the final position.
        match (g.termination.as_str(), game.status()) {
            ("adjudication-max-plies", GameStatus::Ongoing) => {
                assert_eq!(g.plies, 50);
                assert_eq!(g.white_score, 0.5);
            }
            (
                _,
                GameStatus::Over {
                    outcome,
                    termination,
                },
            ) => {
                assert_eq!(g.termination, termination.into());
                let expected = match outcome {
                    Outcome::Win(pocketlab_core::Color::White) => 1.0,
                    Outcome::Win(pocketlab_core::Color::Black) => 0.0,
                    Outcome::Draw => 0.5,
                };
                assert_eq!(g.white_score, expected);
            }
            (t, s) => panic!("game {} logged '{t}' but the position is {s:?}", g.game_id),
        }
        let pgn = pocketlab_selfplay::pgn::game_pgn(
            &exp.variant,
            g,
            &own.iter().map(|m| (*m).clone()).collect::<Vec<_>>(),
        )
        .unwrap();
        assert!(pgn.contains(&format!("[FEN \"{}\"]", g.start_fen)), "{pgn}");
        assert!(pgn.trim_end().ends_with(&g.result), "{pgn}");
    }
}

#[test]
fn potential_experiments_reject_army_setups() {
    let text = TINY_POTENTIAL.replace("[armies.first]\n", "[armies.first]\nremove = [\"f2\"]\n");
    let e = Experiment::parse("tiny.toml", &text, Path::new(".")).unwrap_err();
    let message = e.to_string();
    assert!(message.contains("armies"), "{message}");
    assert!(message.contains("Potential Chess"), "{message}");
}

#[test]
fn an_army_with_fixed_identities_starts_as_orthodox_pieces_in_both_colours() {
    let text = TINY_POTENTIAL
        .replace(
            "[armies.first]\n",
            "[armies.first]\nidentities = \"fixed\"\n",
        )
        .replace("pairs = 2", "pairs = 1")
        .replace("max_plies = 50", "max_plies = 6");
    let exp = Experiment::parse("tiny.toml", &text, Path::new(".")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (games, _) = play(&exp, dir.path(), 1);
    let starts: Vec<&str> = games.iter().map(|g| g.start_fen.as_str()).collect();
    // The fixed army plays White in the pair's first game, Black in its second.
    assert_eq!(
        starts,
        [
            "xxxxxxxx/xxxxxxxx/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/XXXXXXXX/XXXXXXXX[] w - 0 1",
        ]
    );
}

#[test]
fn identities_are_checked_by_name_and_variant() {
    let misspelt = TINY_POTENTIAL.replace(
        "[armies.first]\n",
        "[armies.first]\nidentities = \"known\"\n",
    );
    let message = Experiment::parse("tiny.toml", &misspelt, Path::new("."))
        .unwrap_err()
        .to_string();
    assert!(message.contains("known"), "{message}");
    let chess = TINY_POTENTIAL
        .replace("variant = \"potential-chess\"", "variant = \"chess\"")
        .replace(
            "[armies.first]\n",
            "[armies.first]\nidentities = \"fixed\"\n",
        );
    let e = Experiment::parse("tiny.toml", &chess, Path::new(".")).unwrap_err();
    assert_eq!(e.key, "armies.first.identities", "{e}");
    assert!(e.reason.contains("not Potential Chess"), "{e}");
}
