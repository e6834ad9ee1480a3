//! Playing one colour-swapped game pair.
//!
//! A side is played by a `Player`: the lab's own engine, built fresh for
//! each game, or an external UCI program ([`crate::uci_player`]), whose
//! process the worker thread keeps between games. Either way the game flow
//! is the same, and a node- or depth-limited game depends only on the
//! experiment, its seed and the game's identity.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pocketlab_core::MoveEvent;
use pocketlab_core::engine::{SearchLimits, SearchOptions};
use pocketlab_core::kind::{AnyEngine, AnyMove, AnyPosition, GameKind};
use pocketlab_core::{Color, Game, GamePosition, GameStatus, Outcome};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::experiment::{EngineSettings, Experiment, Program, UciEngine, start_text};
use crate::log::{GameRecord, MoveRecord, Termination, game_id, game_seed};
use crate::uci_player::{self, Answer, Fault, Stop, UciProcess};

/// A finished game with its moves.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game's row of the `games` table.
    pub record: GameRecord,
    /// Its rows of the `moves` table, in ply order; empty when the
    /// experiment does not log moves.
    pub moves: Vec<MoveRecord>,
}

/// The two start positions of a pair (A White, then B White) as text.
fn pair_starts(exp: &Experiment, kind: &GameKind<'_>, matchup: usize, pair: u64) -> [String; 2] {
    if !exp.openings.book.is_empty() {
        let text = &exp.openings.book[(pair % exp.openings.book.len() as u64) as usize];
        return [text.clone(), text.clone()];
    }
    let m = &exp.matchups[matchup];
    let (a, b) = (&exp.armies[m.a], &exp.armies[m.b]);
    // Armies are setups of the variant's start position.
    [(a, b), (b, a)].map(|(white, black)| {
        start_text(kind.variant(), white, black)
            .expect("start positions are validated when the experiment loads")
    })
}

/// The two start positions of a pair (A White, then B White) and the
/// shared opening: random plies legal in both, so both games open alike.
fn pair_openings(
    exp: &Experiment,
    kind: &GameKind<'_>,
    matchup: usize,
    pair: u64,
) -> ([String; 2], Vec<String>) {
    let starts = pair_starts(exp, kind, matchup, pair);
    let mut rng = ChaCha8Rng::seed_from_u64(exp.seed);
    rng.set_stream(((matchup as u64) << 32) | pair);
    let mut positions = starts
        .each_ref()
        .map(|s| kind.parse_position(s).expect("validated start"));
    let mut opening = Vec::new();
    for _ in 0..exp.openings.random_plies {
        let texts = |p: &AnyPosition<'_>| -> Vec<String> {
            p.legal_moves()
                .into_iter()
                .map(|m| p.format_move(m))
                .collect()
        };
        let second = texts(&positions[1]);
        // Sorted by text, so the choice does not depend on generation order.
        let mut common: Vec<String> = texts(&positions[0])
            .into_iter()
            .filter(|t| second.contains(t))
            .collect();
        common.sort();
        if common.is_empty() {
            break;
        }
        let pick = common.swap_remove(rng.random_range(0..common.len()));
        let next = positions.each_ref().map(|p| {
            let mv = p
                .parse_move(&pick)
                .expect("the move is legal in both positions");
            p.play(mv).expect("the move is legal in both positions")
        });
        if next.iter().any(|p| p.count_legal_moves() == 0) {
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
    let kind = GameKind::of(&exp.variant);
    let (starts, opening) = pair_openings(exp, &kind, matchup, pair);
    let first = play_game(
        exp, &kind, matchup, pair, false, &starts[0], &opening, interrupt,
    )?;
    let second = play_game(
        exp, &kind, matchup, pair, true, &starts[1], &opening, interrupt,
    )?;
    Some([first, second])
}

/// Who chooses one side's moves in one game.
enum Player<'e, 'k> {
    /// The lab's own engine, built for this game.
    Lab {
        engine: AnyEngine<'k>,
        limits: SearchLimits,
    },
    /// An external UCI program (boxed: it holds its process's handles).
    Uci(Box<UciPlayer<'e>>),
}

/// An external engine in one game: its process is taken from the worker
/// at its first move and given back after the game, unless it failed.
struct UciPlayer<'e> {
    spec: &'e UciEngine,
    go: String,
    timeout: Duration,
    process: Option<UciProcess>,
}

impl<'e, 'k> Player<'e, 'k> {
    fn new(
        kind: &'k GameKind<'_>,
        settings: &'e EngineSettings,
        seed: u64,
        interrupt: &Arc<AtomicBool>,
    ) -> Player<'e, 'k> {
        match &settings.program {
            Program::Lab => Player::Lab {
                engine: kind.engine(
                    &settings.eval,
                    SearchOptions {
                        hash_megabytes: settings.hash_mb,
                        root_noise: settings.root_noise,
                        seed,
                    },
                ),
                limits: SearchLimits {
                    depth: settings.depth,
                    nodes: settings.nodes,
                    movetime: settings.movetime.map(Duration::from_millis),
                    stop: Some(Arc::clone(interrupt)),
                },
            },
            Program::Uci(spec) => Player::Uci(Box::new(UciPlayer {
                spec,
                go: settings.go_command(),
                timeout: settings.answer_timeout(),
                process: None,
            })),
        }
    }

    /// After the game: a healthy process goes back to the worker.
    fn finish(self) {
        if let Player::Uci(player) = self
            && let Some(p) = player.process
        {
            uci_player::release(p);
        }
    }
}

/// What a search said besides its move (the mover's score).
#[derive(Clone, Copy)]
struct Searched {
    score: Option<i32>,
    depth: u32,
    nodes: u64,
}

/// The outcome of asking a player for a move.
enum Turn {
    Move(AnyMove, Searched),
    /// The player's engine failed: its side loses.
    Fault(Fault),
    /// The run was interrupted: the game is not the experiment's game.
    Interrupted,
}

/// Who plays a game and with what identity.
struct GameSetup<'e> {
    exp: &'e Experiment,
    matchup: usize,
    pair: u64,
    id: u64,
    seed: u64,
    white: &'e crate::experiment::Army,
    black: &'e crate::experiment::Army,
    started: Instant,
}

impl<'e> GameSetup<'e> {
    fn new(exp: &'e Experiment, matchup: usize, pair: u64, b_is_white: bool) -> Self {
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

    /// Says on stderr why an external engine lost this game: the log keeps
    /// only the termination.
    fn warn(&self, side: Color, fault: &Fault) {
        let (army, colour) = match side {
            Color::White => (self.white, "White"),
            Color::Black => (self.black, "Black"),
        };
        let label = match &army.engine.program {
            Program::Uci(u) => u.label.as_str(),
            Program::Lab => "the lab's engine",
        };
        eprintln!(
            "warning: game {} ({}, pair {}): {colour}'s engine '{label}' (army {}) {fault}; \
             {colour} loses ({}) and the engine is restarted for its next game",
            self.id,
            self.exp.matchups[self.matchup].name,
            self.pair,
            army.name,
            fault.termination()
        );
    }

    /// Whether the moves of this game are logged at `ply` with a position.
    fn logs_position_at(&self, ply: u32) -> bool {
        self.exp.log.fen_every > 0 && ply.is_multiple_of(self.exp.log.fen_every)
    }

    /// The game's row, without pocket statistics (set by the caller).
    fn record(&self, start: &str, opening: &[String], end: &Ending) -> GameRecord {
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
}

/// How a game ended, with what the record needs from its last position.
struct Ending {
    outcome: Outcome,
    termination: Termination,
    plies: u32,
    /// Nodes searched by White's and Black's engine.
    nodes: [u64; 2],
    /// Final material of White and Black, centipawns.
    material: [i32; 2],
}

/// Per-side pocket and promotion statistics.
#[derive(Default)]
struct PocketStats {
    pocket_ins: u32,
    mutations: u32,
    promotions: u32,
    drops: u32,
    events: Vec<String>,
}

impl PocketStats {
    fn count(&mut self, side: Color, event: &MoveEvent) {
        let tag = if side == Color::White { 'w' } else { 'b' };
        match event {
            MoveEvent::PocketIn {
                piece,
                into,
                promotion,
            } => {
                self.pocket_ins += 1;
                if piece != into {
                    if *promotion {
                        self.promotions += 1;
                    } else {
                        self.mutations += 1;
                    }
                    self.events.push(format!("{tag}:{piece}>{into}"));
                }
            }
            MoveEvent::Drop { piece } => {
                self.drops += 1;
                self.events.push(format!("{tag}:@{piece}"));
            }
            MoveEvent::Promotion { piece, into } => {
                self.promotions += 1;
                self.events.push(format!("{tag}:{piece}={into}"));
            }
        }
    }
}

/// A game in progress: the game, both players, the log so far.
struct EngineGame<'e, 'k> {
    setup: &'e GameSetup<'e>,
    start: &'e str,
    game: Game<AnyPosition<'k>>,
    players: [Player<'e, 'k>; 2],
    /// Every move so far in notation, opening included (for `position`).
    texts: Vec<String>,
    moves: Vec<MoveRecord>,
    stats: [PocketStats; 2],
    nodes: [u64; 2],
}

impl<'k> EngineGame<'_, 'k> {
    fn plies(&self) -> u32 {
        self.game.moves().len() as u32
    }

    /// Ask the side to move's player for a move; log and play it. The
    /// search score from White's view (`None` if the player gave none),
    /// or why the game ends here.
    fn engine_move(&mut self, interrupt: &Arc<AtomicBool>) -> Result<Option<i32>, Turn> {
        let side = self.game.position().side_to_move().index();
        let (mv, searched) = match self.ask(side, interrupt) {
            Turn::Move(mv, searched) => (mv, searched),
            other => return Err(other),
        };
        self.nodes[side] += searched.nodes;
        self.log_move(mv, Some(searched));
        self.game
            .play_legal(mv)
            .expect("moves are checked for legality before they are played");
        Ok(searched.score.map(|s| if side == 0 { s } else { -s }))
    }

    fn ask(&mut self, side: usize, interrupt: &Arc<AtomicBool>) -> Turn {
        let position = self.game.position();
        match &mut self.players[side] {
            Player::Lab { engine, limits } => {
                let result = engine.search(position, self.game.history(), limits);
                if interrupt.load(Ordering::Relaxed) {
                    // The search was cut short: this game is not the experiment's game.
                    return Turn::Interrupted;
                }
                let mv = result.best_move.expect("an ongoing game has a legal move");
                Turn::Move(
                    mv,
                    Searched {
                        score: Some(result.score),
                        depth: result.depth,
                        nodes: result.nodes,
                    },
                )
            }
            Player::Uci(player) => {
                let command = uci_player::position_command(self.start, &self.texts);
                let answer = match player.search(&command, interrupt) {
                    Ok(answer) => answer,
                    Err(stop) => {
                        // A failed process is never reused.
                        player.process = None;
                        return match stop {
                            Stop::Fault(fault) => Turn::Fault(fault),
                            Stop::Refused(reason) => Turn::Fault(Fault::Crash(format!(
                                "refused its setup when restarted: {reason}"
                            ))),
                            Stop::Interrupted => Turn::Interrupted,
                        };
                    }
                };
                // The lab's rules decide what is legal, whatever the engine says.
                match position.parse_move(&answer.best) {
                    Ok(mv) => Turn::Move(
                        mv,
                        Searched {
                            score: answer.info.score,
                            depth: answer.info.depth.unwrap_or(0),
                            nodes: answer.info.nodes.unwrap_or(0),
                        },
                    ),
                    Err(e) => {
                        player.process = None;
                        Turn::Fault(Fault::IllegalMove(if answer.best.is_empty() {
                            "sent 'bestmove' without a move".to_owned()
                        } else {
                            format!("played {e}")
                        }))
                    }
                }
            }
        }
    }

    /// Logs `mv` (about to be played) with its search, and counts pocket use.
    fn log_move(&mut self, mv: AnyMove, search: Option<Searched>) {
        let pos = self.game.position();
        let side = pos.side_to_move();
        let ply = self.plies();
        let facts = pos.move_facts(mv);
        if let Some(event) = &facts.event {
            self.stats[side.index()].count(side, event);
        }
        let text = pos.format_move(mv);
        self.moves.push(MoveRecord {
            game_id: self.setup.id,
            ply,
            mv: text.clone(),
            piece: facts.piece,
            capture: facts.capture,
            score_cp: search.and_then(|s| s.score),
            depth: search.map_or(0, |s| s.depth),
            nodes: search.map_or(0, |s| s.nodes),
            fen: self.setup.logs_position_at(ply).then(|| pos.to_text()),
        });
        self.texts.push(text);
    }

    /// Plays engine moves until the rules end the game or adjudication
    /// does: the outcome and termination name, or `None` if interrupted.
    fn play_out(
        &mut self,
        adj: &crate::experiment::Adjudication,
        interrupt: &Arc<AtomicBool>,
    ) -> Option<(Outcome, Termination)> {
        // Scores from White's point of view, for adjudication.
        let mut white_scores: Vec<Option<i32>> = Vec::new();
        loop {
            if let GameStatus::Over {
                outcome,
                termination,
            } = self.game.status()
            {
                return Some((outcome, termination.into()));
            }
            if self.plies() >= adj.max_plies {
                return Some((Outcome::Draw, Termination::AdjudicationMaxPlies));
            }
            if let Some(ending) = adjudicate(adj, &white_scores, self.plies()) {
                return Some(ending);
            }
            match self.engine_move(interrupt) {
                Ok(score) => white_scores.push(score),
                Err(Turn::Fault(fault)) => {
                    let side = self.game.position().side_to_move();
                    self.setup.warn(side, &fault);
                    return Some((Outcome::Win(!side), fault.termination()));
                }
                Err(_) => return None,
            }
        }
    }
}

impl UciPlayer<'_> {
    /// Search `position` (a `position` command) with this player's limits.
    /// Its process is taken from the worker or started at its first move
    /// of the game, with `ucinewgame`.
    fn search(&mut self, position: &str, interrupt: &AtomicBool) -> Result<Answer, Stop> {
        if self.process.is_none() {
            self.process = Some(uci_player::acquire(self.spec, self.timeout, interrupt)?);
        }
        let process = self.process.as_mut().expect("just set");
        process.go(position, &self.go, interrupt)
    }
}

#[allow(clippy::too_many_arguments)]
fn play_game(
    exp: &Experiment,
    kind: &GameKind<'_>,
    matchup: usize,
    pair: u64,
    b_is_white: bool,
    start: &str,
    opening: &[String],
    interrupt: &Arc<AtomicBool>,
) -> Option<PlayedGame> {
    let setup = GameSetup::new(exp, matchup, pair, b_is_white);
    let mut g = EngineGame {
        setup: &setup,
        start,
        game: Game::new(kind.parse_position(start).expect("validated start")),
        players: [
            Player::new(kind, &setup.white.engine, setup.seed, interrupt),
            Player::new(kind, &setup.black.engine, setup.seed ^ 1, interrupt),
        ],
        texts: Vec::new(),
        moves: Vec::new(),
        stats: [PocketStats::default(), PocketStats::default()],
        nodes: [0; 2],
    };
    for text in opening {
        let mv = g
            .game
            .position()
            .parse_move(text)
            .expect("opening moves are legal in both games");
        g.log_move(mv, None);
        g.game.play_legal(mv).expect("opening moves are legal");
    }
    let played = g.play_out(&exp.adjudication, interrupt);
    let plies = g.plies();
    let EngineGame {
        game,
        players,
        moves,
        stats,
        nodes,
        ..
    } = g;
    if played.is_some() {
        players.into_iter().for_each(Player::finish);
    }
    // Else the players drop here: a process interrupted mid-search is killed.
    let (outcome, termination) = played?;

    let pos = game.position();
    let material = |c| kind.material(pos, c, &setup.white.engine.eval);
    let end = Ending {
        outcome,
        termination,
        plies,
        nodes,
        material: [material(Color::White), material(Color::Black)],
    };
    let mut record = setup.record(start, opening, &end);
    let [w, b] = stats;
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
    Some(PlayedGame {
        record,
        moves: if exp.log.moves { moves } else { Vec::new() },
    })
}

/// Score-based adjudication over the last moves of both engines (a move
/// without a score, from an external engine that gave none, never agrees).
fn adjudicate(
    adj: &crate::experiment::Adjudication,
    white_scores: &[Option<i32>],
    ply: u32,
) -> Option<(Outcome, Termination)> {
    if adj.resign_score > 0 {
        let window = 2 * adj.resign_moves as usize;
        if window > 0 && white_scores.len() >= window {
            let last = &white_scores[white_scores.len() - window..];
            if last
                .iter()
                .all(|s| s.is_some_and(|s| s >= adj.resign_score))
            {
                return Some((Outcome::Win(Color::White), Termination::AdjudicationResign));
            }
            if last
                .iter()
                .all(|s| s.is_some_and(|s| s <= -adj.resign_score))
            {
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
                .all(|s| s.is_some_and(|s| s.abs() <= adj.draw_score))
        {
            return Some((Outcome::Draw, Termination::AdjudicationDraw));
        }
    }
    None
}
