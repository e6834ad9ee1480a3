//! What a UCI session plays on: an ordinary position, or a Potential Chess
//! position when the variant has a `[potential]` army, with the engine of
//! the same kind. Moves are written in the project's notation (`e2e4`,
//! `N@e4`, `^e8=C`) or, for Potential Chess, the seed's (`d2-d4>QRP`,
//! `c4:d5>Q(b)`); the same notation is read in `position … moves`.

use pocketlab_core::engine::{EvalParams, SearchInfo, SearchOptions, Searcher, mate_distance};
use pocketlab_core::potential::{
    Army, PotentialMove, PotentialPosition, PotentialSearchResult, PotentialSearcher,
};
use pocketlab_core::{Color, Move, Position, Variant, notation};

/// A position of either kind. Both borrow leaked (`'static`) variants, so
/// they can move to the search thread.
#[derive(Clone, Debug)]
pub(super) enum Board {
    Ordinary(Position<'static>),
    Potential(PotentialPosition<'static>),
}

impl Board {
    /// The start position of `variant` (its army's start for Potential Chess).
    pub(super) fn start(variant: &'static Variant, army: Option<&'static Army<'static>>) -> Board {
        match army {
            Some(army) => Board::Potential(army.start_position()),
            None => Board::Ordinary(Position::start(variant)),
        }
    }

    pub(super) fn side_to_move(&self) -> Color {
        match self {
            Board::Ordinary(p) => p.side_to_move(),
            Board::Potential(p) => p.side_to_move(),
        }
    }

    /// FEN, or potential position text.
    pub(super) fn text(&self) -> String {
        match self {
            Board::Ordinary(p) => p.to_fen(),
            Board::Potential(p) => p.to_text(),
        }
    }

    /// Some legal move as text, or `0000`: the answer when no search can run.
    pub(super) fn any_move_text(&self) -> String {
        match self {
            Board::Ordinary(p) => move_text(p, p.legal_moves().first().copied()),
            Board::Potential(p) => potential_move_text(p, p.legal_moves().first().copied()),
        }
    }
}

/// `position startpos|fen <text> [moves …]`: the position and the hashes of
/// the positions before it.
pub(super) fn parse_position(
    variant: &'static Variant,
    army: Option<&'static Army<'static>>,
    args: &[&str],
) -> Result<(Board, Vec<u64>), String> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let text = match setup.split_first() {
        Some((&"startpos", [])) => None,
        Some((&"startpos", extra)) => {
            return Err(format!(
                "unexpected '{}' after startpos (expected 'moves')",
                extra.join(" ")
            ));
        }
        Some((&"fen", [])) => return Err("'fen' needs a FEN".into()),
        Some((&"fen", fen)) => Some(fen.join(" ")),
        _ => return Err("expected 'startpos' or 'fen <FEN>', then optionally 'moves …'".into()),
    };
    match army {
        None => {
            let mut position = match &text {
                Some(fen) => {
                    Position::from_fen(variant, fen).map_err(|e| format!("'{fen}': {e}"))?
                }
                None => Position::start(variant),
            };
            let mut history = Vec::with_capacity(moves.len());
            for (i, text) in moves.iter().enumerate() {
                let mv = notation::parse(&position, text)
                    .map_err(|e| format!("move {} of the list: {e}", i + 1))?;
                history.push(position.hash());
                position = position.after(mv);
            }
            Ok((Board::Ordinary(position), history))
        }
        Some(army) => {
            let mut position = match &text {
                Some(t) => {
                    PotentialPosition::from_text(army, t).map_err(|e| format!("'{t}': {e}"))?
                }
                None => army.start_position(),
            };
            let mut history = Vec::with_capacity(moves.len());
            for (i, text) in moves.iter().enumerate() {
                let mv = position
                    .parse_move(text)
                    .map_err(|e| format!("move {} of the list: {e}", i + 1))?;
                history.push(position.hash());
                position = position
                    .play(mv)
                    .map_err(|e| format!("move {} of the list: {e}", i + 1))?;
            }
            Ok((Board::Potential(position), history))
        }
    }
}

/// A searcher of either kind, matching the session's [`Board`].
#[derive(Debug)]
pub(super) enum Engine {
    // Boxed: searchers are large (about 1-2 KB) and move between threads.
    Ordinary(Box<Searcher<'static>>),
    Potential(Box<PotentialSearcher<'static>>),
}

impl Engine {
    pub(super) fn new(
        variant: &'static Variant,
        army: Option<&'static Army<'static>>,
        params: &EvalParams,
        options: SearchOptions,
    ) -> Engine {
        match army {
            Some(army) => {
                Engine::Potential(Box::new(PotentialSearcher::new(army, params, options)))
            }
            None => Engine::Ordinary(Box::new(Searcher::new(variant, params, options))),
        }
    }

    pub(super) fn new_game(&mut self) {
        match self {
            Engine::Ordinary(s) => s.new_game(),
            Engine::Potential(s) => s.new_game(),
        }
    }

    /// Whether this engine plays positions like `board`.
    pub(super) fn fits(&self, board: &Board) -> bool {
        matches!(
            (self, board),
            (Engine::Ordinary(_), Board::Ordinary(_)) | (Engine::Potential(_), Board::Potential(_))
        )
    }
}

/// `info depth … pv …` for one completed iteration.
pub(super) fn info_line(pos: &Position<'_>, info: &SearchInfo) -> String {
    let pv = pv_text(pos, &info.pv);
    progress_line(
        info.depth,
        info.seldepth.max(info.depth),
        info.score,
        info.nodes,
        info.elapsed,
        &pv,
    )
}

/// The one `info` line of a Potential Chess search (its searcher reports
/// only the final iteration).
pub(super) fn potential_info_line(
    pos: &PotentialPosition<'_>,
    result: &PotentialSearchResult,
) -> String {
    let pv = potential_pv_text(pos, &result.pv);
    progress_line(
        result.depth,
        result.depth,
        result.score,
        result.nodes,
        result.elapsed,
        &pv,
    )
}

fn progress_line(
    depth: u32,
    seldepth: u32,
    score: i32,
    nodes: u64,
    elapsed: std::time::Duration,
    pv: &str,
) -> String {
    let micros = elapsed.as_micros().max(1);
    let nps = u128::from(nodes) * 1_000_000 / micros;
    let mut line = format!(
        "info depth {depth} seldepth {seldepth} score {} nodes {nodes} nps {nps} time {}",
        uci_score(score),
        elapsed.as_millis(),
    );
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(pv);
    }
    line
}

/// The principal variation in move notation, cut at the first move that is
/// not legal (a defensive check; the searcher only returns legal lines).
fn pv_text(pos: &Position<'_>, pv: &[Move]) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !pos.is_legal(mv) {
            break;
        }
        words.push(notation::format(&pos, mv));
        pos = pos.after(mv);
    }
    words.join(" ")
}

fn potential_pv_text(pos: &PotentialPosition<'_>, pv: &[PotentialMove]) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &mv in pv {
        let text = pos.format_move(mv);
        let Ok(next) = pos.play(mv) else {
            break;
        };
        words.push(text);
        pos = next;
    }
    words.join(" ")
}

pub(super) fn move_text(pos: &Position<'_>, mv: Option<Move>) -> String {
    mv.map_or_else(|| "0000".to_owned(), |mv| notation::format(pos, mv))
}

pub(super) fn potential_move_text(
    pos: &PotentialPosition<'_>,
    mv: Option<PotentialMove>,
) -> String {
    mv.map_or_else(|| "0000".to_owned(), |mv| pos.format_move(mv))
}

/// `cp X`, or `mate N` in moves (negative: the side to move is mated).
pub(super) fn uci_score(score: i32) -> String {
    match mate_distance(score) {
        Some(plies) => format!("mate {}", plies.signum() * ((plies.abs() + 1) / 2)),
        None => format!("cp {score}"),
    }
}
