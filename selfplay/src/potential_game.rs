//! Playing one colour-swapped pair of Potential Chess (a variant with a
//! `[potential]` army): the same runner, seeds and log as every other
//! variant, with the potential position and searcher in place of the
//! ordinary ones. Moves are logged in the seed's notation
//! (`d2-d4>QRP`, `c4:d5>Q(b)`), positions as potential text.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use pocketlab_core::engine::{SearchLimits, SearchOptions};
use pocketlab_core::potential::{
    Army, PotentialEvaluator, PotentialGame, PotentialMove, PotentialPosition, PotentialSearcher,
};
use pocketlab_core::{Color, GameStatus};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::experiment::{EngineSettings, Experiment};
use crate::game::{Ending, EngineGame, GameSetup, PlayedGame, limits, play_out};
use crate::log::MoveRecord;

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

/// A Potential Chess game in progress: the game, both engines, the log so far.
struct PotentialEngineGame<'e> {
    setup: &'e GameSetup<'e>,
    army: &'e Army<'e>,
    game: PotentialGame<'e>,
    engines: [PotentialSearcher<'e>; 2],
    limits: [SearchLimits; 2],
    moves: Vec<MoveRecord>,
    nodes: [u64; 2],
}

impl EngineGame for PotentialEngineGame<'_> {
    fn status(&self) -> GameStatus {
        self.game.status()
    }

    fn plies(&self) -> u32 {
        self.game.moves().len() as u32
    }

    fn engine_move(&mut self, interrupt: &AtomicBool) -> Option<i32> {
        let side = self.game.position().side_to_move().index();
        let hashes = self.game.hashes();
        let history = &hashes[..hashes.len() - 1];
        let result = self.engines[side].search(self.game.position(), history, &self.limits[side]);
        if interrupt.load(Ordering::Relaxed) {
            return None;
        }
        let mv = result.best_move.expect("an ongoing game has a legal move");
        self.nodes[side] += result.nodes;
        self.log_move(mv, Some((result.score, result.depth, result.nodes)));
        self.game.play(mv).expect("the searcher plays legal moves");
        Some(if side == 0 {
            result.score
        } else {
            -result.score
        })
    }
}

impl PotentialEngineGame<'_> {
    /// Logs `mv` (about to be played) with its search: the move in the
    /// seed's notation, the mover's potential before it, the captured name.
    fn log_move(&mut self, mv: PotentialMove, search: Option<(i32, u32, u64)>) {
        let pos = self.game.position();
        let ply = self.game.moves().len() as u32;
        let piece = pos
            .piece_at(mv.from)
            .map(|p| self.army.piece_token(p.potential, p.promoted, p.color))
            .unwrap_or_default();
        self.moves.push(MoveRecord {
            game_id: self.setup.id,
            ply,
            mv: pos.format_move(mv),
            piece,
            capture: mv.captured.map(|t| self.army.letter(t).to_string()),
            score_cp: search.map(|s| s.0),
            depth: search.map_or(0, |s| s.1),
            nodes: search.map_or(0, |s| s.2),
            fen: self.setup.logs_position_at(ply).then(|| pos.to_text()),
        });
    }
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
    let setup = GameSetup::new(exp, matchup, pair, b_is_white);
    let start_position = PotentialPosition::from_text(army, start).expect("the start is ours");
    let mut g = PotentialEngineGame {
        setup: &setup,
        army,
        game: PotentialGame::new(start_position),
        engines: [
            searcher(army, &setup.white.engine, setup.seed),
            searcher(army, &setup.black.engine, setup.seed ^ 1),
        ],
        limits: [
            limits(&setup.white.engine, interrupt),
            limits(&setup.black.engine, interrupt),
        ],
        moves: Vec::new(),
        nodes: [0; 2],
    };
    for text in opening {
        let mv = g
            .game
            .position()
            .parse_move(text)
            .expect("opening moves are legal");
        g.log_move(mv, None);
        g.game.play(mv).expect("opening moves are legal");
    }
    let (outcome, termination) = play_out(&mut g, &exp.adjudication, interrupt)?;

    let eval = PotentialEvaluator::new(army, &setup.white.engine.eval);
    let material = |c| eval.material(g.game.position(), c);
    let end = Ending {
        outcome,
        termination,
        plies: g.game.moves().len() as u32,
        nodes: g.nodes,
        material: [material(Color::White), material(Color::Black)],
    };
    let mut record = setup.record(start, opening, &end);
    record.white_promotions = promotions(&g.game, Color::White);
    record.black_promotions = promotions(&g.game, Color::Black);
    Some(setup.finish(record, g.moves))
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
