//! Playing one colour-swapped pair of Potential Chess (a variant with a
//! `[potential]` army): the same runner, seeds and log as every other
//! variant, with the potential position and searcher in place of the
//! ordinary ones. Moves are logged in the seed's notation
//! (`d2-d4>QRP`, `c4:d5>Q(b)`), positions as potential text.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use pocketlab_core::engine::SearchOptions;
use pocketlab_core::potential::{
    Army, PotentialEvaluator, PotentialGame, PotentialPosition, PotentialSearcher,
};
use pocketlab_core::{Color, GameStatus, Outcome};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::experiment::{EngineSettings, Experiment};
use crate::game::{PlayedGame, adjudicate, game_id, game_seed, limits};
use crate::log::{GameRecord, MoveRecord};

/// Both games of pair `pair` of matchup `matchup`; `None` if interrupted.
pub(crate) fn play_pair(
    exp: &Experiment,
    army: &Army<'_>,
    matchup: usize,
    pair: u64,
    interrupt: &Arc<AtomicBool>,
) -> Option<[PlayedGame; 2]> {
    let (start, opening) = pair_opening(exp, army, matchup, pair);
    let first = play_game(exp, army, matchup, pair, false, &start, &opening, interrupt)?;
    let second = play_game(exp, army, matchup, pair, true, &start, &opening, interrupt)?;
    Some([first, second])
}

/// The pair's start (book position or the army's start) and its random
/// opening moves, as text. Both games of a pair start alike.
fn pair_opening(
    exp: &Experiment,
    army: &Army<'_>,
    matchup: usize,
    pair: u64,
) -> (String, Vec<String>) {
    let mut position = if exp.openings.book.is_empty() {
        army.start_position()
    } else {
        let text = &exp.openings.book[(pair % exp.openings.book.len() as u64) as usize];
        PotentialPosition::from_text(army, text).expect("book positions are validated on load")
    };
    let start = position.to_text();
    let mut rng = ChaCha8Rng::seed_from_u64(exp.seed);
    rng.set_stream(((matchup as u64) << 32) | pair);
    let mut opening = Vec::new();
    for _ in 0..exp.openings.random_plies {
        // Sorted by text, so the choice does not depend on generation order.
        let mut successors: Vec<(String, PotentialPosition<'_>)> = position
            .legal_successors()
            .into_iter()
            .map(|(mv, next)| (position.format_move(mv), next))
            .collect();
        successors.sort_by(|a, b| a.0.cmp(&b.0));
        if successors.is_empty() {
            break;
        }
        let (text, next) = successors.swap_remove(rng.random_range(0..successors.len()));
        if !next.has_legal_move() {
            break;
        }
        opening.push(text);
        position = next;
    }
    (start, opening)
}

fn searcher<'a>(army: &'a Army<'a>, settings: &EngineSettings, seed: u64) -> PotentialSearcher<'a> {
    let options = SearchOptions {
        hash_megabytes: settings.hash_mb,
        root_noise: settings.root_noise,
        seed,
    };
    PotentialSearcher::new(army, &settings.eval, options)
}

#[allow(clippy::too_many_arguments)]
fn play_game(
    exp: &Experiment,
    army: &Army<'_>,
    matchup: usize,
    pair: u64,
    b_is_white: bool,
    start: &str,
    opening: &[String],
    interrupt: &Arc<AtomicBool>,
) -> Option<PlayedGame> {
    let started = Instant::now();
    let m = &exp.matchups[matchup];
    let (white_army, black_army) = if b_is_white {
        (&exp.armies[m.b], &exp.armies[m.a])
    } else {
        (&exp.armies[m.a], &exp.armies[m.b])
    };
    let id = game_id(matchup, pair, b_is_white);
    let seed = game_seed(exp.seed, id);
    let mut engines = [
        searcher(army, &white_army.engine, seed),
        searcher(army, &black_army.engine, seed ^ 1),
    ];
    let engine_limits = [
        limits(&white_army.engine, interrupt),
        limits(&black_army.engine, interrupt),
    ];
    let start_position = PotentialPosition::from_text(army, start).expect("the start is ours");
    let mut game = PotentialGame::new(start_position);
    let mut moves = Vec::new();
    let mut nodes = [0u64; 2];
    let mut white_scores: Vec<i32> = Vec::new();

    let record = |game: &PotentialGame<'_>, text: String, search: Option<(i32, u32, u64)>| {
        let pos = game.position();
        let ply = game.moves().len() as u32;
        let mv = pos.parse_move(&text).expect("recorded moves are legal");
        let piece = pos
            .piece_at(mv.from)
            .map(|p| army.piece_token(p.potential, p.promoted, p.color))
            .unwrap_or_default();
        let fen =
            (exp.log.fen_every > 0 && ply.is_multiple_of(exp.log.fen_every)).then(|| pos.to_text());
        MoveRecord {
            game_id: id,
            ply,
            mv: text,
            piece,
            capture: mv.captured.map(|t| army.letter(t).to_string()),
            score_cp: search.map(|s| s.0),
            depth: search.map_or(0, |s| s.1),
            nodes: search.map_or(0, |s| s.2),
            fen,
        }
    };

    for text in opening {
        let mv = game
            .position()
            .parse_move(text)
            .expect("opening moves are legal");
        moves.push(record(&game, text.clone(), None));
        game.play(mv).expect("opening moves are legal");
    }

    let adj = &exp.adjudication;
    let (outcome, termination) = loop {
        if let GameStatus::Over {
            outcome,
            termination,
        } = game.status()
        {
            break (outcome, termination.name().to_owned());
        }
        if game.moves().len() as u32 >= adj.max_plies {
            break (Outcome::Draw, "adjudication-max-plies".to_owned());
        }
        if let Some(outcome) = adjudicate(adj, &white_scores, game.moves().len() as u32) {
            break outcome;
        }
        let side = game.position().side_to_move().index();
        let history = &game.hashes()[..game.hashes().len() - 1];
        let result = engines[side].search(game.position(), history, &engine_limits[side]);
        if interrupt.load(Ordering::Relaxed) {
            return None;
        }
        let mv = result.best_move.expect("an ongoing game has a legal move");
        nodes[side] += result.nodes;
        white_scores.push(if side == 0 {
            result.score
        } else {
            -result.score
        });
        let text = game.position().format_move(mv);
        moves.push(record(
            &game,
            text,
            Some((result.score, result.depth, result.nodes)),
        ));
        game.play(mv).expect("the searcher plays legal moves");
    };

    let (result, white_score) = match outcome {
        Outcome::Win(Color::White) => ("1-0", 1.0),
        Outcome::Win(Color::Black) => ("0-1", 0.0),
        Outcome::Draw => ("1/2-1/2", 0.5),
    };
    let eval = PotentialEvaluator::new(army, &white_army.engine.eval);
    let material = |c| eval.material(game.position(), c);
    let v = &exp.variant;
    let record = GameRecord {
        experiment: exp.name.clone(),
        matchup: m.name.clone(),
        matchup_index: matchup as u32,
        pair_index: pair,
        game_id: id,
        white: white_army.name.clone(),
        black: black_army.name.clone(),
        white_army: white_army.describe(v),
        black_army: black_army.describe(v),
        white_engine: white_army.engine.describe(),
        black_engine: black_army.engine.describe(),
        variant: v.name.clone(),
        seed,
        start_fen: start.to_owned(),
        opening: opening.join(" "),
        result: result.to_owned(),
        white_score,
        termination,
        plies: game.moves().len() as u32,
        duration_ms: started.elapsed().as_millis() as u64,
        white_nodes: nodes[0],
        black_nodes: nodes[1],
        white_pocket_ins: 0,
        black_pocket_ins: 0,
        white_mutations: 0,
        black_mutations: 0,
        white_promotions: promotions(&game, Color::White),
        black_promotions: promotions(&game, Color::Black),
        white_drops: 0,
        black_drops: 0,
        pocket_events: String::new(),
        white_material: material(Color::White),
        black_material: material(Color::Black),
        sprt_llr: None,
        sprt_decision: None,
    };
    Some(PlayedGame {
        record,
        moves: if exp.log.moves { moves } else { Vec::new() },
    })
}

/// Promotions made by `color` in the game (White moves on even plies from
/// a White-to-move start).
fn promotions(game: &PotentialGame<'_>, color: Color) -> u32 {
    let first = game.start().side_to_move();
    game.moves()
        .iter()
        .enumerate()
        .filter(|(ply, mv)| {
            let mover = if ply % 2 == 0 { first } else { !first };
            mover == color && mv.promotion.is_some()
        })
        .count() as u32
}
