//! Playing one colour-swapped game pair.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use pocketlab_core::engine::{SearchLimits, SearchOptions, Searcher};
use pocketlab_core::{Color, Game, GameStatus, Move, Outcome, Position, notation};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::experiment::{EngineSettings, Experiment, start_fen};
use crate::log::{GameId, GameRecord, MoveRecord, Termination};

/// The identity of a game: matchup, pair, and which army has White
/// (encoded by the log's codec, [`GameId`]).
pub fn game_id(matchup: usize, pair: u64, b_is_white: bool) -> u64 {
    GameId::new(matchup as u32, pair, b_is_white).encode()
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

/// Who plays a game and with what identity: shared by both kinds of game.
pub(crate) struct GameSetup<'e> {
    pub(crate) exp: &'e Experiment,
    matchup: usize,
    pair: u64,
    pub(crate) id: u64,
    pub(crate) seed: u64,
    pub(crate) white: &'e crate::experiment::Army,
    pub(crate) black: &'e crate::experiment::Army,
    started: Instant,
}

impl<'e> GameSetup<'e> {
    pub(crate) fn new(exp: &'e Experiment, matchup: usize, pair: u64, b_is_white: bool) -> Self {
        let m = &exp.matchups[matchup];
        let (white, black) = if b_is_white {
            (&exp.armies[m.b], &exp.armies[m.a])
        } else {
            (&exp.armies[m.a], &exp.armies[m.b])
        };
        let id = game_id(matchup, pair, b_is_white);
        GameSetup {
            exp,
            matchup,
            pair,
            id,
            seed: game_seed(exp.seed, id),
            white,
            black,
            started: Instant::now(),
        }
    }

    /// Whether the moves of this game are logged at `ply` with a position.
    pub(crate) fn logs_position_at(&self, ply: u32) -> bool {
        self.exp.log.fen_every > 0 && ply.is_multiple_of(self.exp.log.fen_every)
    }

    /// The game's row, without pocket statistics (set by the caller).
    pub(crate) fn record(&self, start: &str, opening: &[String], end: &Ending) -> GameRecord {
        let exp = self.exp;
        let v = &exp.variant;
        let (result, white_score) = match end.outcome {
            Outcome::Win(Color::White) => ("1-0", 1.0),
            Outcome::Win(Color::Black) => ("0-1", 0.0),
            Outcome::Draw => ("1/2-1/2", 0.5),
        };
        GameRecord {
            experiment: exp.name.clone(),
            matchup: exp.matchups[self.matchup].name.clone(),
            matchup_index: self.matchup as u32,
            pair_index: self.pair,
            game_id: self.id,
            white: self.white.name.clone(),
            black: self.black.name.clone(),
            white_army: self.white.describe(v),
            black_army: self.black.describe(v),
            white_engine: self.white.engine.describe(),
            black_engine: self.black.engine.describe(),
            variant: v.name.clone(),
            seed: self.seed,
            start_fen: start.to_owned(),
            opening: opening.join(" "),
            result: result.to_owned(),
            white_score,
            termination: end.termination,
            plies: end.plies,
            duration_ms: self.started.elapsed().as_millis() as u64,
            white_nodes: end.nodes[0],
            black_nodes: end.nodes[1],
            white_pocket_ins: 0,
            black_pocket_ins: 0,
            white_mutations: 0,
            black_mutations: 0,
            white_promotions: 0,
            black_promotions: 0,
            white_drops: 0,
            black_drops: 0,
            pocket_events: String::new(),
            white_material: end.material[0],
            black_material: end.material[1],
            sprt_llr: None,
            sprt_decision: None,
        }
    }

    pub(crate) fn finish(&self, record: GameRecord, moves: Vec<MoveRecord>) -> PlayedGame {
        PlayedGame {
            record,
            moves: if self.exp.log.moves {
                moves
            } else {
                Vec::new()
            },
        }
    }
}

/// How a game ended, with what the record needs from its last position.
pub(crate) struct Ending {
    pub(crate) outcome: Outcome,
    pub(crate) termination: Termination,
    pub(crate) plies: u32,
    /// Nodes searched by White's and Black's engine.
    pub(crate) nodes: [u64; 2],
    /// Final material of White and Black, centipawns.
    pub(crate) material: [i32; 2],
}

/// A game in progress of either kind, as the shared game loop sees it.
pub(crate) trait EngineGame {
    fn status(&self) -> GameStatus;
    fn plies(&self) -> u32;
    /// Search with the side to move's engine, log and play its move; the
    /// search score from White's view, or `None` if it was interrupted.
    fn engine_move(&mut self, interrupt: &AtomicBool) -> Option<i32>;
}

/// Plays engine moves until the rules end the game or adjudication does:
/// the outcome and termination name, or `None` if interrupted.
pub(crate) fn play_out(
    game: &mut impl EngineGame,
    adj: &crate::experiment::Adjudication,
    interrupt: &AtomicBool,
) -> Option<(Outcome, Termination)> {
    // Scores from White's point of view, for adjudication.
    let mut white_scores: Vec<i32> = Vec::new();
    loop {
        if let GameStatus::Over {
            outcome,
            termination,
        } = game.status()
        {
            return Some((outcome, termination.into()));
        }
        if game.plies() >= adj.max_plies {
            return Some((Outcome::Draw, Termination::AdjudicationMaxPlies));
        }
        if let Some(ending) = adjudicate(adj, &white_scores, game.plies()) {
            return Some(ending);
        }
        white_scores.push(game.engine_move(interrupt)?);
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

/// An ordinary game in progress: the game, both engines, the log so far.
struct OrdinaryGame<'e> {
    setup: &'e GameSetup<'e>,
    game: Game<'e>,
    engines: [Searcher<'e>; 2],
    limits: [SearchLimits; 2],
    moves: Vec<MoveRecord>,
    stats: [PocketStats; 2],
    nodes: [u64; 2],
}

impl EngineGame for OrdinaryGame<'_> {
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
            // The search was cut short: this game is not the experiment's game.
            return None;
        }
        let mv = result.best_move.expect("an ongoing game has a legal move");
        self.nodes[side] += result.nodes;
        self.log_move(mv, Some((result.score, result.depth, result.nodes)));
        self.game.play_unchecked(mv);
        Some(if side == 0 {
            result.score
        } else {
            -result.score
        })
    }
}

impl OrdinaryGame<'_> {
    /// Logs `mv` (about to be played) with its search, and counts pocket use.
    fn log_move(&mut self, mv: Move, search: Option<(i32, u32, u64)>) {
        let v = &self.setup.exp.variant;
        let pos = self.game.position();
        let side = pos.side_to_move();
        let ply = self.game.moves().len() as u32;
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
        let s = &mut self.stats[side.index()];
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
        let fen = self.setup.logs_position_at(ply).then(|| pos.to_fen());
        self.moves.push(MoveRecord {
            game_id: self.setup.id,
            ply,
            mv: notation::format(pos, mv),
            piece,
            capture,
            score_cp: search.map(|s| s.0),
            depth: search.map_or(0, |s| s.1),
            nodes: search.map_or(0, |s| s.2),
            fen,
        });
    }
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
    let setup = GameSetup::new(exp, matchup, pair, b_is_white);
    let mut g = OrdinaryGame {
        setup: &setup,
        game: Game::new(Position::from_fen(&exp.variant, start).expect("validated start")),
        engines: [
            searcher(exp, &setup.white.engine, setup.seed),
            searcher(exp, &setup.black.engine, setup.seed ^ 1),
        ],
        limits: [
            limits(&setup.white.engine, interrupt),
            limits(&setup.black.engine, interrupt),
        ],
        moves: Vec::new(),
        stats: [PocketStats::default(), PocketStats::default()],
        nodes: [0; 2],
    };
    for text in opening {
        let mv = notation::parse(g.game.position(), text)
            .expect("opening moves are legal in both games");
        g.log_move(mv, None);
        g.game.play_unchecked(mv);
    }
    let (outcome, termination) = play_out(&mut g, &exp.adjudication, interrupt)?;

    let pos = g.game.position();
    let end = Ending {
        outcome,
        termination,
        plies: g.game.moves().len() as u32,
        nodes: g.nodes,
        material: [pos.material(Color::White), pos.material(Color::Black)],
    };
    let mut record = setup.record(start, opening, &end);
    let [w, b] = g.stats;
    record.white_pocket_ins = w.pocket_ins;
    record.black_pocket_ins = b.pocket_ins;
    record.white_mutations = w.mutations;
    record.black_mutations = b.mutations;
    record.white_promotions = w.promotions;
    record.black_promotions = b.promotions;
    record.white_drops = w.drops;
    record.black_drops = b.drops;
    record.pocket_events = w
        .events
        .into_iter()
        .chain(b.events)
        .collect::<Vec<_>>()
        .join(" ");
    Some(setup.finish(record, g.moves))
}

/// Score-based adjudication over the last moves of both engines.
pub(crate) fn adjudicate(
    adj: &crate::experiment::Adjudication,
    white_scores: &[i32],
    ply: u32,
) -> Option<(Outcome, Termination)> {
    if adj.resign_score > 0 {
        let window = 2 * adj.resign_moves as usize;
        if window > 0 && white_scores.len() >= window {
            let last = &white_scores[white_scores.len() - window..];
            if last.iter().all(|&s| s >= adj.resign_score) {
                return Some((Outcome::Win(Color::White), Termination::AdjudicationResign));
            }
            if last.iter().all(|&s| s <= -adj.resign_score) {
                return Some((Outcome::Win(Color::Black), Termination::AdjudicationResign));
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
            return Some((Outcome::Draw, Termination::AdjudicationDraw));
        }
    }
    None
}
