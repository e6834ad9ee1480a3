//! The one dispatch point over the kinds of game: a variant is played
//! either as a game of pieces with fixed identity (chess, Pocket Mutation
//! Chess, Chess Mutation: [`Position`]) or as Potential Chess
//! ([`PotentialPosition`], for a variant with a `[potential]` army).
//!
//! [`GameKind::of`] chooses the kind from the variant; its positions
//! ([`AnyPosition`], a [`GamePosition`] itself) and engines ([`AnyEngine`])
//! are what the layers above play with, so self-play, PGN export, reports,
//! perft and UCI have one path for every kind. Each kind's search and perft
//! run monomorphised on its own position type: the enum is matched once
//! per call, never per node.
//!
//! ```
//! use pocketlab_core::{GamePosition, builtin, kind::GameKind};
//!
//! let variant = builtin::load("potential-chess").unwrap();
//! let kind = GameKind::of(&variant);
//! let start = kind.start_position();
//! assert_eq!(start.legal_moves().len(), 186);
//! let next = start.play(start.parse_move("d2-d4>QRP").unwrap()).unwrap();
//! assert_eq!(next.side_to_move(), pocketlab_core::Color::Black);
//! ```

use std::fmt;
use std::time::Duration;

use crate::engine::{
    EvalParams, SearchInfo, SearchLimits, SearchOptions, SearchResult, Searcher, StandardRules,
};
use crate::game::{GamePosition, GameStatus, IllegalMove, MoveFacts};
use crate::moves::Move;
use crate::notation::NotationError;
use crate::position::{FenError, Position};
use crate::potential::{
    Army, PotentialEvaluator, PotentialMove, PotentialNotationError, PotentialPosition,
    PotentialRules, PotentialTextError,
};
use crate::types::Color;
use crate::variant::{Variant, VariantError, parse_variant_data};

/// Parse a variant file and check that it can be played: `file` names it in
/// errors; `resolve` turns an `inherits` value into `(file name, text)` of
/// the parent, or `None`. Every error names the file, the key and the reason.
///
/// ```rust
/// use pocketlab_core::{builtin, kind};
///
/// let text = "name = \"odd\"\ninherits = \"chess\"\nroyal = \"Z\"\n";
/// let error = kind::parse_variant("odd.toml", text, &|name| builtin::resolve(name)).unwrap_err();
/// assert_eq!((error.file.as_str(), error.key.as_str()), ("odd.toml", "royal"));
/// ```
pub fn parse_variant(
    file: &str,
    text: &str,
    resolve: &dyn Fn(&str) -> Option<(String, String)>,
) -> Result<Variant, VariantError> {
    let variant = parse_variant_data(file, text, resolve)?;
    if Army::of(&variant).is_none() {
        // Pieces of fixed identity start from the variant's `start` FEN.
        Position::from_fen(&variant, &variant.start_fen).map_err(|e| VariantError {
            file: file.to_owned(),
            key: "start".into(),
            reason: e.to_string(),
        })?;
    }
    Ok(variant)
}

/// How a variant is played.
#[derive(Clone, Debug)]
pub enum GameKind<'v> {
    /// Pieces of fixed identity (chess, Pocket Mutation Chess, Chess Mutation).
    Standard(&'v Variant),
    /// Potential Chess with the variant's army.
    Potential(Army<'v>),
}

impl<'v> GameKind<'v> {
    /// The kind a variant is played as.
    pub fn of(variant: &'v Variant) -> GameKind<'v> {
        match Army::of(variant) {
            Some(army) => GameKind::Potential(army),
            None => GameKind::Standard(variant),
        }
    }

    /// The variant played.
    pub fn variant(&self) -> &'v Variant {
        match self {
            GameKind::Standard(v) => v,
            GameKind::Potential(army) => army.variant(),
        }
    }

    /// The start position: the variant's `start`, or the army's start.
    pub fn start_position(&self) -> AnyPosition<'_> {
        match self {
            GameKind::Standard(v) => AnyPosition::Standard(Position::start(v)),
            GameKind::Potential(army) => AnyPosition::Potential(army.start_position()),
        }
    }

    /// A position from its text: FEN, or Potential Chess position text.
    pub fn parse_position(&self, text: &str) -> Result<AnyPosition<'_>, PositionTextError> {
        match self {
            GameKind::Standard(v) => Position::from_fen(v, text)
                .map(AnyPosition::Standard)
                .map_err(PositionTextError::Fen),
            GameKind::Potential(army) => PotentialPosition::from_text(army, text)
                .map(AnyPosition::Potential)
                .map_err(PositionTextError::Potential),
        }
    }

    /// An engine for this kind's positions.
    pub fn engine(&self, params: &EvalParams, options: SearchOptions) -> AnyEngine<'_> {
        match self {
            GameKind::Standard(v) => AnyEngine::Standard(Box::new(Searcher::new(
                StandardRules::new(v, params),
                options,
            ))),
            GameKind::Potential(army) => AnyEngine::Potential(Box::new(Searcher::new(
                PotentialRules::new(army, params),
                options,
            ))),
        }
    }

    /// `color`'s material in centipawns: the variant's piece values, or for
    /// Potential Chess the expected values under `params`.
    pub fn material(&self, pos: &AnyPosition<'_>, color: Color, params: &EvalParams) -> i32 {
        match (self, pos) {
            (GameKind::Standard(_), AnyPosition::Standard(p)) => p.material(color),
            (GameKind::Potential(army), AnyPosition::Potential(p)) => {
                PotentialEvaluator::new(army, params).material(p, color)
            }
            _ => kind_mismatch(),
        }
    }
}

fn kind_mismatch() -> ! {
    panic!("a position of one game kind met the engine or rules of another")
}

/// A position of either kind.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyPosition<'k> {
    /// A position of pieces with fixed identity.
    Standard(Position<'k>),
    /// A Potential Chess position.
    Potential(PotentialPosition<'k>),
}

/// A move of either kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A move of pieces with fixed identity.
    Standard(Move),
    /// A Potential Chess move.
    Potential(PotentialMove),
}

/// Position text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionTextError {
    /// A FEN that could not be read.
    Fen(FenError),
    /// Potential Chess position text that could not be read.
    Potential(PotentialTextError),
}

impl fmt::Display for PositionTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionTextError::Fen(e) => e.fmt(f),
            PositionTextError::Potential(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PositionTextError {}

/// A move text that is not a legal move in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Not a move in the project's notation, or not legal here.
    Standard(NotationError),
    /// Not a Potential Chess move, or not legal here.
    Potential(PotentialNotationError),
    /// The move belongs to a position of the other kind.
    OtherKind,
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Standard(e) => e.fmt(f),
            MoveTextError::Potential(e) => e.fmt(f),
            MoveTextError::OtherKind => f.write_str("a move of another game kind"),
        }
    }
}

impl std::error::Error for MoveTextError {}

/// Applies one expression to the inner position of either kind.
macro_rules! each_kind {
    ($pos:expr, $p:ident => $body:expr) => {
        match $pos {
            AnyPosition::Standard($p) => $body,
            AnyPosition::Potential($p) => $body,
        }
    };
}

impl<'k> AnyPosition<'k> {
    /// Leaf count of the legal move tree at `depth` plies, counted on the
    /// kind's own position type.
    pub fn perft(&self, depth: u32) -> u64 {
        each_kind!(self, p => crate::perft::perft(p, depth))
    }

    /// Leaf counts below each legal root move, with the move's text.
    pub fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        each_kind!(self, p => crate::perft::perft_divide(p, depth)
            .into_iter()
            .map(|(mv, n)| (p.format_move(mv), n))
            .collect())
    }

    /// A line of moves from here as text, cut at the first move that does
    /// not play (a defensive check: searchers return legal lines).
    pub fn line_text(&self, line: &[AnyMove]) -> Vec<String> {
        let mut pos = self.clone();
        let mut words = Vec::with_capacity(line.len());
        for &mv in line {
            let Ok(next) = pos.play(mv) else { break };
            words.push(pos.format_move(mv));
            pos = next;
        }
        words
    }

    /// The move's standard-notation (SAN) text where the kind has one,
    /// else its own notation.
    pub fn san(&self, mv: AnyMove) -> String {
        match (self, mv) {
            (AnyPosition::Standard(p), AnyMove::Standard(m)) => crate::san::format(p, m),
            _ => self.format_move(mv),
        }
    }
}

impl GamePosition for AnyPosition<'_> {
    type Move = AnyMove;
    type MoveTextError = MoveTextError;

    fn side_to_move(&self) -> Color {
        each_kind!(self, p => GamePosition::side_to_move(p))
    }

    fn hash(&self) -> u64 {
        each_kind!(self, p => GamePosition::hash(p))
    }

    fn halfmove_clock(&self) -> u16 {
        each_kind!(self, p => GamePosition::halfmove_clock(p))
    }

    fn fullmove_number(&self) -> u16 {
        each_kind!(self, p => GamePosition::fullmove_number(p))
    }

    fn is_check(&self) -> bool {
        each_kind!(self, p => GamePosition::is_check(p))
    }

    fn generate_moves(&self, moves: &mut Vec<AnyMove>) {
        match self {
            AnyPosition::Standard(p) => {
                moves.extend(p.legal_moves().into_iter().map(AnyMove::Standard));
            }
            AnyPosition::Potential(p) => {
                moves.extend(p.pseudo_legal_moves().into_iter().map(AnyMove::Potential));
            }
        }
    }

    fn successor(&self, mv: AnyMove) -> Option<Self> {
        match (self, mv) {
            (AnyPosition::Standard(p), AnyMove::Standard(m)) => {
                p.successor(m).map(AnyPosition::Standard)
            }
            (AnyPosition::Potential(p), AnyMove::Potential(m)) => {
                p.successor(m).map(AnyPosition::Potential)
            }
            _ => None,
        }
    }

    fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyPosition::Standard(p) => {
                p.legal_moves().into_iter().map(AnyMove::Standard).collect()
            }
            AnyPosition::Potential(p) => p
                .legal_moves()
                .into_iter()
                .map(AnyMove::Potential)
                .collect(),
        }
    }

    fn count_legal_moves(&self) -> u64 {
        each_kind!(self, p => GamePosition::count_legal_moves(p))
    }

    fn status(&self) -> GameStatus {
        each_kind!(self, p => GamePosition::status(p))
    }

    fn repetition_rule(&self) -> u8 {
        each_kind!(self, p => GamePosition::repetition_rule(p))
    }

    fn format_move(&self, mv: AnyMove) -> String {
        match (self, mv) {
            (AnyPosition::Standard(p), AnyMove::Standard(m)) => p.format_move(m),
            (AnyPosition::Potential(p), AnyMove::Potential(m)) => p.format_move(m),
            _ => format!("{mv:?}"),
        }
    }

    fn parse_move(&self, text: &str) -> Result<AnyMove, MoveTextError> {
        match self {
            AnyPosition::Standard(p) => GamePosition::parse_move(p, text)
                .map(AnyMove::Standard)
                .map_err(MoveTextError::Standard),
            AnyPosition::Potential(p) => GamePosition::parse_move(p, text)
                .map(AnyMove::Potential)
                .map_err(MoveTextError::Potential),
        }
    }

    fn to_text(&self) -> String {
        each_kind!(self, p => GamePosition::to_text(p))
    }

    fn move_facts(&self, mv: AnyMove) -> MoveFacts {
        match (self, mv) {
            (AnyPosition::Standard(p), AnyMove::Standard(m)) => p.move_facts(m),
            (AnyPosition::Potential(p), AnyMove::Potential(m)) => p.move_facts(m),
            _ => kind_mismatch(),
        }
    }

    fn play(&self, mv: AnyMove) -> Result<Self, IllegalMove> {
        match (self, mv) {
            (AnyPosition::Standard(p), AnyMove::Standard(m)) => {
                GamePosition::play(p, m).map(AnyPosition::Standard)
            }
            (AnyPosition::Potential(p), AnyMove::Potential(m)) => {
                GamePosition::play(p, m).map(AnyPosition::Potential)
            }
            _ => Err(IllegalMove {
                text: format!("{mv:?}"),
                position: self.to_text(),
            }),
        }
    }
}

/// One kind's search, its moves wrapped as [`AnyMove`]s.
fn run_search<R: crate::engine::SearchRules>(
    searcher: &mut Searcher<R>,
    pos: &R::Position,
    history: &[u64],
    limits: &SearchLimits,
    on_iteration: Option<&mut dyn FnMut(&AnySearchInfo)>,
    wrap: fn(crate::engine::MoveOf<R>) -> AnyMove,
) -> AnySearchResult {
    let r: SearchResult<_> = match on_iteration {
        None => searcher.search(pos, history, limits),
        Some(report) => {
            searcher.search_with_info(pos, history, limits, &mut |info: &SearchInfo<_>| {
                report(&AnySearchInfo {
                    depth: info.depth,
                    seldepth: info.seldepth,
                    score: info.score,
                    nodes: info.nodes,
                    elapsed: info.elapsed,
                    pv: info.pv.iter().copied().map(wrap).collect(),
                });
            })
        }
    };
    AnySearchResult {
        best_move: r.best_move.map(wrap),
        score: r.score,
        depth: r.depth,
        seldepth: r.seldepth,
        nodes: r.nodes,
        elapsed: r.elapsed,
        pv: r.pv.into_iter().map(wrap).collect(),
    }
}

/// Progress of a search after a completed iteration.
#[derive(Clone, Debug)]
pub struct AnySearchInfo {
    /// The iteration just completed.
    pub depth: u32,
    /// The deepest ply reached so far.
    pub seldepth: u32,
    /// Its score, in centipawns from the side to move's view.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Its principal variation.
    pub pv: Vec<AnyMove>,
}

/// The outcome of [`AnyEngine::search`].
#[derive(Clone, Debug)]
pub struct AnySearchResult {
    /// `None` only when the position has no legal move.
    pub best_move: Option<AnyMove>,
    /// Centipawns from the side to move's view; mates as `±(MATE - plies)`.
    pub score: i32,
    /// The last completed iteration.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes of the whole search, the last partial iteration included.
    pub nodes: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// The principal variation, `best_move` first.
    pub pv: Vec<AnyMove>,
}

/// An engine of either kind, made by [`GameKind::engine`].
#[derive(Debug)]
pub enum AnyEngine<'k> {
    // Boxed: searchers are large and move between threads.
    /// The searcher of pieces with fixed identity.
    Standard(Box<Searcher<StandardRules<'k>>>),
    /// The Potential Chess searcher.
    Potential(Box<Searcher<PotentialRules<'k>>>),
}

impl<'k> AnyEngine<'k> {
    /// The transposition table's size in MiB (see
    /// [`crate::engine::Searcher::hash_megabytes`]).
    pub fn hash_megabytes(&self) -> usize {
        match self {
            AnyEngine::Standard(s) => s.hash_megabytes(),
            AnyEngine::Potential(s) => s.hash_megabytes(),
        }
    }

    /// Whether the table is smaller than asked, for want of memory.
    pub fn hash_shrunk(&self) -> bool {
        match self {
            AnyEngine::Standard(s) => s.hash_shrunk(),
            AnyEngine::Potential(s) => s.hash_shrunk(),
        }
    }

    /// Forget everything learned from earlier positions.
    pub fn new_game(&mut self) {
        match self {
            AnyEngine::Standard(s) => s.new_game(),
            AnyEngine::Potential(s) => s.new_game(),
        }
    }

    /// Search `pos`, reached through positions with `history` hashes (oldest
    /// first, `pos` itself excluded), within `limits`.
    ///
    /// # Panics
    /// If `pos` is of another kind than the engine (both come from one
    /// [`GameKind`], so this is a logic error).
    pub fn search(
        &mut self,
        pos: &AnyPosition<'k>,
        history: &[u64],
        limits: &SearchLimits,
    ) -> AnySearchResult {
        self.search_with_info(pos, history, limits, None)
    }

    /// [`Self::search`], telling `on_iteration` of each completed iteration.
    pub fn search_with_info(
        &mut self,
        pos: &AnyPosition<'k>,
        history: &[u64],
        limits: &SearchLimits,
        on_iteration: Option<&mut dyn FnMut(&AnySearchInfo)>,
    ) -> AnySearchResult {
        match (self, pos) {
            (AnyEngine::Standard(s), AnyPosition::Standard(p)) => {
                run_search(s, p, history, limits, on_iteration, AnyMove::Standard)
            }
            (AnyEngine::Potential(s), AnyPosition::Potential(p)) => {
                run_search(s, p, history, limits, on_iteration, AnyMove::Potential)
            }
            _ => kind_mismatch(),
        }
    }
}
