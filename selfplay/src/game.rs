//! Playing one colour-swapped game pair.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use pocketlab_core::engine::{SearchLimits, SearchOptions, Searcher};
use pocketlab_core::{Color, Game, GameStatus, Move, Outcome, Position, notation};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::experiment::{EngineSettings, Experiment, start_fen};
use crate::log::{GameRecord, MoveRecord};

/// The identity of a game: matchup, pair, and which army has White.
pub fn game_id(matchup: usize, pair: u64, b_is_white: bool) -> u64 {
    ((matchup as u64) << 40) | (pair << 1) | u64::from(b_is_white)
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Seed of one game (engine noise), from the master seed and the game's identity.
pub fn game_seed(master: u64, id: u64) -> u64 {
    splitmix(master ^ splitmix(id))
}

/// A finished game with its moves.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    pub record: GameRecord,
    pub moves: Vec<MoveRecord>,
}

/// The two start positions of a pair (A White, then B White) and the shared opening.
fn pair_openings(exp: &Experiment, matchup: usize, pair: u64) -> ([String; 2], Vec<String>) {
    let m = &exp.matchups[matchup];
    let (a, b) = (&exp.armies[m.a], &exp.armies[m.b]);
    let starts = if exp.openings.book.is_empty() {
        [
            start_fen(&exp.variant, a, b)
                .expect("start positions are validated when the experiment loads"),
            start_fen(&exp.variant, b, a)
                .expect("start positions are validated when the experiment loads"),
        ]
    } else {
        let fen = exp.openings.book[(pair % exp.openings.book.len() as u64) as usize].clone();
        [fen.clone(), fen]
    };
    // Random plies legal in both positions, so both games open alike.
    let mut rng = ChaCha8Rng::seed_from_u64(exp.seed);
    rng.set_stream(((matchup as u64) << 32) | pair);
    let mut positions = [
        Position::from_fen(&exp.variant, &starts[0]).expect("validated start"),
        Position::from_fen(&exp.variant, &starts[1]).expect("validated start"),
    ];
    let mut opening = Vec::new();
    for _ in 0..exp.openings.random_plies {
        let texts = |p: &Position<'_>| -> Vec<String> {
            p.legal_moves()
                .into_iter()
                .map(|m| notation::format(p, m))
                .collect()
        };
        let first = texts(&positions[0]);
        let second = texts(&positions[1]);
        let mut common: Vec<String> = first.into_iter().filter(|t| second.contains(t)).collect();
        common.sort();
        if common.is_empty() {
            break;
        }
        let pick = common.swap_remove(rng.random_range(0..common.len()));
        let next = [0, 1].map(|i| {
            let mv =
                notation::parse(&positions[i], &pick).expect("the move is legal in both positions");
            positions[i].after(mv)
        });
        if next.iter().any(|p| p.legal_moves().is_empty()) {
            break;
        }
        positions = next;
        opening.push(pick);
    }
    (starts, opening)
}

/// Play both games of pair `pair` of matchup `matchup`; `None` if `interrupt`
/// was raised meanwhile (the pair is then simply played again on resume).
pub fn play_pair(
    exp: &Experiment,
    matchup: usize,
    pair: u64,
    interrupt: &Arc<AtomicBool>,
) -> Option<[PlayedGame; 2]> {
    if let Some(army) = exp.variant.potential_army() {
        return crate::potential_game::play_pair(exp, &army, matchup, pair, interrupt);
    }
    let (starts, opening) = pair_openings(exp, matchup, pair);
    let first = play_game(exp, matchup, pair, false, &starts[0], &opening, interrupt)?;
    let second = play_game(exp, matchup, pair, true, &starts[1], &opening, interrupt)?;
    Some([first, second])
}

fn searcher<'v>(exp: &'v Experiment, settings: &EngineSettings, seed: u64) -> Searcher<'v> {
    let options = SearchOptions {
        hash_megabytes: settings.hash_mb,
        root_noise: settings.root_noise,
        seed,
    };
    Searcher::new(&exp.variant, &settings.eval, options)
}

pub(crate) fn limits(settings: &EngineSettings, interrupt: &Arc<AtomicBool>) -> SearchLimits {
    SearchLimits {
        depth: settings.depth,
        nodes: settings.nodes,
        movetime: None,
        stop: Some(Arc::clone(interrupt)),
    }
}

/// Per-side pocket statistics.
#[derive(Default)]
struct PocketStats {
    pocket_ins: u32,
    mutations: u32,
    promotions: u32,
    drops: u32,
    events: Vec<String>,
}

fn play_game(
    exp: &Experiment,
    matchup: usize,
    pair: u64,
    b_is_white: bool,
    start: &str,
    opening: &[String],
    interrupt: &Arc<AtomicBool>,
) -> Option<PlayedGame> {
    let started = Instant::now();
    let v = &exp.variant;
    let m = &exp.matchups[matchup];
    let (white_army, black_army) = if b_is_white {
        (&exp.armies[m.b], &exp.armies[m.a])
    } else {
        (&exp.armies[m.a], &exp.armies[m.b])
    };
    let id = game_id(matchup, pair, b_is_white);
    let seed = game_seed(exp.seed, id);
    let mut engines = [
        searcher(exp, &white_army.engine, seed),
        searcher(exp, &black_army.engine, seed ^ 1),
    ];
    let engine_limits = [
        limits(&white_army.engine, interrupt),
        limits(&black_army.engine, interrupt),
    ];
    let mut game = Game::new(Position::from_fen(v, start).expect("validated start"));
    let mut moves = Vec::new();
    let mut stats = [PocketStats::default(), PocketStats::default()];
    let mut nodes = [0u64; 2];
    // Scores from White's point of view, for adjudication.
    let mut white_scores: Vec<i32> = Vec::new();

    let record_move = |game: &Game<'_>,
                       mv: Move,
                       score: Option<i32>,
                       depth: u32,
                       n: u64,
                       stats: &mut [PocketStats; 2],
                       moves: &mut Vec<MoveRecord>| {
        let pos = game.position();
        let side = pos.side_to_move();
        let ply = game.moves().len() as u32;
        let letter = |k| v.letter(k).to_string();
        let (piece, capture) = match mv {
            Move::Drop { kind, .. } => (letter(kind), None),
            _ => {
                let from = mv.from().expect("board and pocket moves start on a square");
                let piece = pos
                    .piece_at(from)
                    .map(|p| letter(p.kind))
                    .unwrap_or_default();
                let captured = match mv {
                    Move::EnPassant { to, .. } => {
                        to.offset(0, -side.forward()).and_then(|s| pos.piece_at(s))
                    }
                    Move::Normal { to, .. } | Move::Promotion { to, .. } => pos.piece_at(to),
                    _ => None,
                };
                (piece, captured.map(|p| letter(p.kind)))
            }
        };
        let s = &mut stats[side.index()];
        let tag = if side == Color::White { 'w' } else { 'b' };
        match mv {
            Move::PocketIn { from, into } => {
                s.pocket_ins += 1;
                let own = pos.piece_at(from).map(|p| p.kind);
                if own != Some(into) {
                    let promotes = side.relative_rank(from.rank()) == 7
                        && v.rules
                            .pocket
                            .as_ref()
                            .is_some_and(|r| r.promote_from_last_rank);
                    if promotes {
                        s.promotions += 1;
                    } else {
                        s.mutations += 1;
                    }
                    s.events.push(format!("{tag}:{piece}>{}", v.letter(into)));
                }
            }
            Move::Drop { kind, .. } => {
                s.drops += 1;
                s.events.push(format!("{tag}:@{}", v.letter(kind)));
            }
            Move::Promotion { into, .. } => {
                s.promotions += 1;
                s.events.push(format!("{tag}:{piece}={}", v.letter(into)));
            }
            _ => {}
        }
        let fen =
            (exp.log.fen_every > 0 && ply.is_multiple_of(exp.log.fen_every)).then(|| pos.to_fen());
        moves.push(MoveRecord {
            game_id: id,
            ply,
            mv: notation::format(pos, mv),
            piece,
            capture,
            score_cp: score,
            depth,
            nodes: n,
            fen,
        });
    };

    for text in opening {
        let mv =
            notation::parse(game.position(), text).expect("opening moves are legal in both games");
        record_move(&game, mv, None, 0, 0, &mut stats, &mut moves);
        game.play_unchecked(mv);
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
            // The search was cut short: this game is not the experiment's game.
            return None;
        }
        let mv = result.best_move.expect("an ongoing game has a legal move");
        nodes[side] += result.nodes;
        let white_view = if side == 0 {
            result.score
        } else {
            -result.score
        };
        white_scores.push(white_view);
        record_move(
            &game,
            mv,
            Some(result.score),
            result.depth,
            result.nodes,
            &mut stats,
            &mut moves,
        );
        game.play_unchecked(mv);
    };

    let (result, white_score) = match outcome {
        Outcome::Win(Color::White) => ("1-0", 1.0),
        Outcome::Win(Color::Black) => ("0-1", 0.0),
        Outcome::Draw => ("1/2-1/2", 0.5),
    };
    let pos = game.position();
    let [w, b] = stats;
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
        white_pocket_ins: w.pocket_ins,
        black_pocket_ins: b.pocket_ins,
        white_mutations: w.mutations,
        black_mutations: b.mutations,
        white_promotions: w.promotions,
        black_promotions: b.promotions,
        white_drops: w.drops,
        black_drops: b.drops,
        pocket_events: w
            .events
            .into_iter()
            .chain(b.events)
            .collect::<Vec<_>>()
            .join(" "),
        white_material: pos.material(Color::White),
        black_material: pos.material(Color::Black),
        sprt_llr: None,
        sprt_decision: None,
    };
    Some(PlayedGame {
        record,
        moves: if exp.log.moves { moves } else { Vec::new() },
    })
}

/// Score-based adjudication over the last moves of both engines.
pub(crate) fn adjudicate(
    adj: &crate::experiment::Adjudication,
    white_scores: &[i32],
    ply: u32,
) -> Option<(Outcome, String)> {
    if adj.resign_score > 0 {
        let window = 2 * adj.resign_moves as usize;
        if window > 0 && white_scores.len() >= window {
            let last = &white_scores[white_scores.len() - window..];
            if last.iter().all(|&s| s >= adj.resign_score) {
                return Some((Outcome::Win(Color::White), "adjudication-resign".to_owned()));
            }
            if last.iter().all(|&s| s <= -adj.resign_score) {
                return Some((Outcome::Win(Color::Black), "adjudication-resign".to_owned()));
            }
        }
    }
    if adj.draw_score > 0 && ply >= adj.draw_after_ply {
        let window = 2 * adj.draw_moves as usize;
        if window > 0
            && white_scores.len() >= window
            && white_scores[white_scores.len() - window..]
                .iter()
                .all(|s| s.abs() <= adj.draw_score)
        {
            return Some((Outcome::Draw, "adjudication-draw".to_owned()));
        }
    }
    None
}
