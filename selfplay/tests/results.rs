//! Results reach the right army: every game of a small run under full
//! Pocket Mutation rules (mutation on), with pawn odds played from both
//! colours and score adjudication on, is replayed; its logged result and
//! termination must follow from the final position (or, for adjudication,
//! from the logged scores), and each side's start position must be the
//! army the row names, built here independently of the runner.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pocketlab_core::{Color, Game, GameStatus, Outcome, Piece, Position, Square, notation};
use pocketlab_selfplay::experiment::Army;
use pocketlab_selfplay::log::{GameId, MoveRecord, Termination, read_games, read_moves};
use pocketlab_selfplay::{Experiment, RunOptions, Shard, run};

const CREDIT: &str = r#"
name = "credit"
variant = "pocket-mutation"
seed = 11
[engine]
nodes = 300
hash_mb = 1
[openings]
random_plies = 2
[adjudication]
max_plies = 90
resign_score = 300
resign_moves = 2
draw_score = 40
draw_moves = 3
draw_after_ply = 20
[stop]
pairs = 4
[[generators]]
kind = "pawn-odds"
[[generators]]
kind = "class-equivalence"
class = 3
slots = "R"
"#;

/// What `army` puts on `color`'s side, from the variant's start position:
/// each own piece substituted, removed squares (the army's own view)
/// emptied.
fn expected_side(exp: &Experiment, army: &Army, color: Color) -> Vec<(Square, Option<Piece>)> {
    let base = Position::start(&exp.variant);
    Square::all()
        .filter(|&sq| base.piece_at(sq).is_some_and(|p| p.color == color))
        .map(|sq| {
            let own_view = if color == Color::White {
                sq
            } else {
                sq.flip_vertical()
            };
            let piece = base.piece_at(sq).expect("filtered");
            let kept = (!army.remove.contains(&own_view)).then(|| {
                let kind = army
                    .replace
                    .iter()
                    .find(|(from, _)| *from == piece.kind)
                    .map_or(piece.kind, |&(_, to)| to);
                Piece { color, kind }
            });
            (sq, kept)
        })
        .collect()
}

/// Scores of the engine moves from White's view (opening moves have none).
fn white_scores(moves: &[&MoveRecord]) -> Vec<i32> {
    moves
        .iter()
        .filter_map(|m| {
            let white_moved = m.ply % 2 == 0;
            m.score_cp.map(|s| if white_moved { s } else { -s })
        })
        .collect()
}

#[test]
fn every_logged_result_follows_from_its_game_and_reaches_the_right_army() {
    let work = tempfile::tempdir().unwrap();
    let path = work.path().join("credit.toml");
    std::fs::write(&path, CREDIT).unwrap();
    let exp = Experiment::load(&path).unwrap();
    assert!(
        exp.variant
            .rules
            .pocket
            .as_ref()
            .is_some_and(|p| p.mutation),
        "mutation is on"
    );
    let out = work.path().join("log");
    let options = RunOptions {
        out_dir: out.clone(),
        threads: 2,
        shard: Shard::WHOLE,
        quiet: true,
    };
    run(&exp, &options, &Arc::new(AtomicBool::new(false))).unwrap();
    let games = read_games(&out).unwrap();
    let moves = read_moves(&out).unwrap();
    assert_eq!(games.len() as u64, exp.max_games());
    let adj = &exp.adjudication;
    let mut seen = std::collections::BTreeSet::new();
    let mut odds_colours = std::collections::BTreeSet::new();

    for g in &games {
        // Identity: the id's colour bit says which army has White.
        let id = GameId::decode(g.game_id);
        let m = &exp.matchups[id.matchup as usize];
        let (white, black) = if id.b_is_white {
            (&exp.armies[m.b], &exp.armies[m.a])
        } else {
            (&exp.armies[m.a], &exp.armies[m.b])
        };
        assert_eq!((&g.white, &g.black), (&white.name, &black.name));
        if !white.remove.is_empty() {
            odds_colours.insert("white");
        }
        if !black.remove.is_empty() {
            odds_colours.insert("black");
        }

        // Each side's start is the army the row names.
        let start = Position::from_fen(&exp.variant, &g.start_fen).unwrap();
        for (army, color) in [(white, Color::White), (black, Color::Black)] {
            for (sq, piece) in expected_side(&exp, army, color) {
                assert_eq!(
                    start.piece_at(sq),
                    piece,
                    "game {}: {sq} of {color:?} ({}) in {}",
                    g.game_id,
                    army.name,
                    g.start_fen
                );
            }
            for kind in exp.variant.piece_types() {
                let expected = army.pocket.iter().filter(|&&k| k == kind).count() as u8;
                assert_eq!(start.pocket_count(color, kind), expected);
            }
        }

        // Replay, then judge the ending.
        let own: Vec<&MoveRecord> = {
            let mut v: Vec<&MoveRecord> = moves.iter().filter(|m| m.game_id == g.game_id).collect();
            v.sort_by_key(|m| m.ply);
            v
        };
        assert_eq!(
            own.len() as u32,
            g.plies,
            "game {} has all its moves",
            g.game_id
        );
        let mut game = Game::new(start);
        for m in &own {
            let mv = notation::parse(game.position(), &m.mv).unwrap();
            game.play(mv).unwrap();
        }
        let final_pos = game.position();
        assert_eq!(g.white_material, final_pos.material(Color::White));
        assert_eq!(g.black_material, final_pos.material(Color::Black));
        let score = |o: Outcome| match o {
            Outcome::Win(Color::White) => 1.0,
            Outcome::Win(Color::Black) => 0.0,
            Outcome::Draw => 0.5,
        };
        let expected_result = if g.white_score > 0.75 {
            "1-0"
        } else if g.white_score < 0.25 {
            "0-1"
        } else {
            "1/2-1/2"
        };
        assert_eq!(g.result, expected_result);
        let scores = white_scores(&own);
        match (g.termination, game.status()) {
            (
                t,
                GameStatus::Over {
                    outcome,
                    termination,
                },
            ) => {
                assert_eq!(t, Termination::from(termination), "game {}", g.game_id);
                assert_eq!(g.white_score, score(outcome), "game {}", g.game_id);
            }
            (Termination::AdjudicationMaxPlies, GameStatus::Ongoing) => {
                assert_eq!(g.plies, adj.max_plies);
                assert_eq!(g.white_score, 0.5);
            }
            (Termination::AdjudicationResign, GameStatus::Ongoing) => {
                let window = &scores[scores.len() - 2 * adj.resign_moves as usize..];
                let white_wins = window.iter().all(|&s| s >= adj.resign_score);
                let black_wins = window.iter().all(|&s| s <= -adj.resign_score);
                assert!(white_wins || black_wins, "game {}: {window:?}", g.game_id);
                assert_eq!(g.white_score, if white_wins { 1.0 } else { 0.0 });
            }
            (Termination::AdjudicationDraw, GameStatus::Ongoing) => {
                assert!(g.plies >= adj.draw_after_ply);
                let window = &scores[scores.len() - 2 * adj.draw_moves as usize..];
                assert!(
                    window.iter().all(|s| s.abs() <= adj.draw_score),
                    "{window:?}"
                );
                assert_eq!(g.white_score, 0.5);
            }
            (t, s) => panic!("game {} logged {t} but the game is {s:?}", g.game_id),
        }
        seen.insert(g.termination);
    }
    assert_eq!(
        odds_colours.len(),
        2,
        "the pawn-odds army played both colours"
    );
    assert!(
        seen.contains(&Termination::AdjudicationResign),
        "adjudication by score was exercised: {seen:?}"
    );
}
