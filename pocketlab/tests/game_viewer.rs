//! Games to look at, end to end: a tiny real experiment is played and
//! reported, the games embedded in `report.html` are read back, and every
//! one must replay through the lab's rules to exactly its embedded
//! positions, and be the game the log holds; a tampered game is refused by
//! the same check.

mod common;

use std::path::Path;
use std::process::Command;

use pocketlab_report::build::experiment_of;
use pocketlab_report::games::check_shown_game;
use pocketlab_report::model::ShownGame;
use pocketlab_selfplay::log::{GameRecord, MoveRecord, read_games, read_moves};

use common::succeeded;

const EXPERIMENT: &str = r#"
name = "viewer"
description = "Bishop against knight, a few short games to replay."
variant = "pocket-mutation"
seed = 3

[engine]
nodes = 300
hash_mb = 2

[openings]
random_plies = 4

[adjudication]
max_plies = 120
resign_score = 800
resign_moves = 3

[stop]
pairs = 3

[log]
fen_every = 3

[[generators]]
kind = "class-equivalence"
class = 2
slots = "N"
"#;

/// Runs `pocketlab args` in `dir` and asserts it succeeded; a failure
/// names the calling line, and so the arguments.
#[track_caller]
fn pocketlab(args: &[&str], dir: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_pocketlab"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    succeeded(&out);
}

/// The games embedded in the report's viewer.
fn embedded_games(html: &str) -> Vec<ShownGame> {
    let open = "<script type=\"application/json\" id=\"game-data\">";
    let start = html.find(open).expect("the report embeds its games") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[test]
fn every_embedded_game_replays_to_its_positions_and_a_tampered_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("viewer.toml"), EXPERIMENT).unwrap();
    pocketlab(
        &[
            "run",
            "viewer.toml",
            "--out",
            "log",
            "--threads",
            "2",
            "--quiet",
        ],
        dir.path(),
    );
    pocketlab(&["report", "log", "--out", "report"], dir.path());

    let log = dir.path().join("log");
    let (exp, _) = experiment_of(&log).unwrap();
    let records = read_games(&log).unwrap();
    let moves = read_moves(&log).unwrap();
    let logged = |id: u64| -> (GameRecord, Vec<MoveRecord>) {
        let record = records.iter().find(|g| g.game_id == id).unwrap().clone();
        let mut game_moves: Vec<MoveRecord> =
            moves.iter().filter(|m| m.game_id == id).cloned().collect();
        game_moves.sort_by_key(|m| m.ply);
        (record, game_moves)
    };

    let html = std::fs::read_to_string(dir.path().join("report/report.html")).unwrap();
    let games = embedded_games(&html);
    assert!(
        games.len() >= 2,
        "a decisive win and a median game at least: {games:?}"
    );
    for game in &games {
        let (record, game_moves) = logged(game.game_id);
        check_shown_game(&exp.variant, game, &record, &game_moves)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(game.positions.len(), game.moves.len() + 1);
        assert_eq!(game.move_texts.len(), game.moves.len());
        assert!(
            game_moves.iter().any(|m| m.fen.is_some()),
            "the log kept positions to compare with"
        );
    }
    // The list names every game with the command that exports it.
    let markdown = std::fs::read_to_string(dir.path().join("report/report.md")).unwrap();
    for game in &games {
        assert!(markdown.contains(&format!("--game {}", game.game_id)));
    }
    // Game balance says how deep the engine searched in these games.
    let depth_row = markdown
        .lines()
        .find(|line| line.starts_with("| Search depth"))
        .expect("a search depth row");
    assert!(
        depth_row.contains("median") && depth_row.contains("searched moves"),
        "{depth_row}"
    );

    let game = games.iter().max_by_key(|g| g.moves.len()).unwrap();
    let (record, game_moves) = logged(game.game_id);
    let refused = |tampered: &ShownGame, what: &str| {
        assert!(
            check_shown_game(&exp.variant, tampered, &record, &game_moves).is_err(),
            "{what} was not refused"
        );
    };
    // A move changed for another legal move of the same position: it
    // replays, but not to the embedded positions nor the logged game.
    let mut other_move = game.clone();
    let ply = 5;
    other_move.moves[ply] = other_legal_move(&exp.variant, game, ply);
    refused(&other_move, "another legal move");
    let mut illegal = game.clone();
    illegal.moves[ply] = "a1a1".into();
    refused(&illegal, "an illegal move");
    // A position with a piece removed.
    let mut moved_piece = game.clone();
    let row = moved_piece.positions[ply + 1]
        .rows
        .iter_mut()
        .find(|row| row.contains(|c: char| c != '.'))
        .unwrap();
    *row = row.replacen(|c: char| c != '.', ".", 1);
    refused(&moved_piece, "a changed position");
    let mut pocket = game.clone();
    pocket.positions[ply].pockets[0].push('Q');
    refused(&pocket, "a changed pocket");
    let mut text = game.clone();
    text.move_texts[ply] = "Qxh7#".into();
    refused(&text, "a changed move text");
    let mut shorter = game.clone();
    shorter.moves.pop();
    shorter.positions.pop();
    shorter.move_texts.pop();
    refused(&shorter, "a game cut short");
}

/// A legal move at `ply` other than the one played.
fn other_legal_move(variant: &pocketlab_core::Variant, game: &ShownGame, ply: usize) -> String {
    use pocketlab_core::GamePosition;
    use pocketlab_core::kind::GameKind;
    let kind = GameKind::of(variant);
    let mut pos = kind.parse_position(&game.start).unwrap();
    for text in &game.moves[..ply] {
        let mv = pos.parse_move(text).unwrap();
        pos = pos.play(mv).unwrap();
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| pos.format_move(mv))
        .find(|text| *text != game.moves[ply])
        .expect("a second legal move")
}
