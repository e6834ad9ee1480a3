//! The log's columns, in one place. Bump [`SCHEMA_VERSION`] on any change.
//!
//! ## `games` (one row per game)
//! | column | type | meaning |
//! |---|---|---|
//! | `experiment` | str | experiment name |
//! | `matchup`, `matchup_index` | str, u32 | `A-vs-B` and its index in the experiment |
//! | `pair_index` | u64 | the colour-swapped pair within the matchup |
//! | `game_id` | u64 | `matchup << 40 \| pair << 1 \| (B has White)`: see [`GameId`](super::GameId) |
//! | `white`, `black` | str | army names (the subjects compared) |
//! | `white_army`, `black_army` | str | army setups (`N->I, -f2, +[P]`, or `base`) |
//! | `white_engine`, `black_engine` | str | engine settings (`nodes=10000 eval=default`; `uci=../fsf movetime=30 VariantPath=variants.ini` for an external engine; `movetime=` marks a time limit: such games are not reproducible) |
//! | `variant` | str | the variant as played (with the experiment's rule overrides) |
//! | `seed` | u64 | the game's seed |
//! | `start_fen`, `opening` | str | start position and the random opening moves |
//! | `result` | str | `1-0`, `0-1`, `1/2-1/2` |
//! | `white_score` | f64 | 1, 0.5, 0 |
//! | `termination` | str | checkmate, stalemate, n-move, repetition, dead-position, adjudication-max-plies, adjudication-resign, adjudication-draw; and for a game an external engine's fault lost: engine-illegal-move, engine-no-bestmove, engine-crash, engine-timeout |
//! | `plies`, `duration_ms` | u32, u64 | length and wall time |
//! | `white_nodes`, `black_nodes` | u64 | nodes searched |
//! | `{white,black}_{pocket_ins,mutations,promotions,drops}` | u32 | pocket use |
//! | `pocket_events` | str | space-separated `w:N>B` (mutation or promotion by pocketing), `w:P=Q` (FIDE promotion), `b:@N` (drop) |
//! | `white_material`, `black_material` | i32 | final material, board and pocket, centipawns |
//! | `sprt_llr`, `sprt_decision` | f64?, str? | the matchup's LLR after this pair (on both games of the pair), and `H0`/`H1` on the pair that decided it |
//!
//! ## `moves` (one row per ply)
//! | column | type | meaning |
//! |---|---|---|
//! | `game_id` | u64 | as in `games` |
//! | `ply` | u32 | 0-based |
//! | `move` | str | project notation (`e2e4`, `N@e4`, `^e8=C`) |
//! | `piece` | str | letter of the piece moved, dropped or pocketed |
//! | `capture` | str? | letter of the piece captured |
//! | `score_cp` | i32? | the mover's search score (null for opening moves, and for an external engine's move without a score in its `info` lines) |
//! | `depth`, `nodes` | u32, u64 | search depth and nodes (0 for opening moves; an external engine's from its last `info` line, 0 when absent) |
//! | `fen` | str? | the position before the move, every `fen_every` plies |
//!
//! Potential Chess variants (`[potential]` army) log `start_fen` and `fen` as
//! potential position text, `move` in the seed's notation (`d2-d4>QRP`,
//! `c4:d5>Q(b)`), `piece` as the mover's potential before the move (`X`,
//! `!K`) and `capture` as the captured piece's named identity.

use std::fmt;
use std::str::FromStr;

/// Version of the columns above.
pub const SCHEMA_VERSION: u32 = 1;

/// The column names, for polars scans and the writer: one spelling.
pub mod col {
    /// `games`: the experiment's name (str).
    pub const EXPERIMENT: &str = "experiment";
    /// `games`: the matchup's name, `A-vs-B` (str).
    pub const MATCHUP: &str = "matchup";
    /// `games`: the matchup's index among the experiment's matchups, from 0 (u32).
    pub const MATCHUP_INDEX: &str = "matchup_index";
    /// `games`: the colour-swapped pair within its matchup, from 0 (u64).
    pub const PAIR_INDEX: &str = "pair_index";
    /// `games` and `moves`: the game's identity, `matchup << 40 | pair << 1 | (B has White)`
    /// ([`GameId`](crate::log::GameId)) (u64).
    pub const GAME_ID: &str = "game_id";
    /// `games`: the name of the army playing White (str).
    pub const WHITE: &str = "white";
    /// `games`: the name of the army playing Black (str).
    pub const BLACK: &str = "black";
    /// `games`: White's army setup (`N->I, -f2, +[P]`, or `base`) (str).
    pub const WHITE_ARMY: &str = "white_army";
    /// `games`: Black's army setup (`N->I, -f2, +[P]`, or `base`) (str).
    pub const BLACK_ARMY: &str = "black_army";
    /// `games`: White's engine settings (`nodes=10000 eval=default`); `movetime=` marks a
    /// time limit, whose games are not reproducible (str).
    pub const WHITE_ENGINE: &str = "white_engine";
    /// `games`: Black's engine settings, as [`WHITE_ENGINE`] (str).
    pub const BLACK_ENGINE: &str = "black_engine";
    /// `games`: the variant's name (rule overrides keep the name of the variant they change)
    /// (str).
    pub const VARIANT: &str = "variant";
    /// `games`: the game's seed, from the experiment's seed and the game id (u64).
    pub const SEED: &str = "seed";
    /// `games`: the start position, before the opening, as FEN (Potential Chess: potential
    /// position text) (str).
    pub const START_FEN: &str = "start_fen";
    /// `games`: the random opening moves, space-separated in project notation; empty when
    /// none (str).
    pub const OPENING: &str = "opening";
    /// `games`: the result, `1-0`, `0-1` or `1/2-1/2` (str).
    pub const RESULT: &str = "result";
    /// `games`: the game's result from White's view: 1, 0.5 or 0 (f64).
    pub const WHITE_SCORE: &str = "white_score";
    /// `games`: how the game ended, as [`Termination::as_str`](super::Termination::as_str)
    /// spells it (str).
    pub const TERMINATION: &str = "termination";
    /// `games`: the game's length in plies, opening moves included (u32).
    pub const PLIES: &str = "plies";
    /// `games`: wall-clock time the game took, milliseconds (u64; not reproducible).
    pub const DURATION_MS: &str = "duration_ms";
    /// `games`: nodes White's engine searched over the whole game (u64; an external engine's
    /// as its `info` lines reported them).
    pub const WHITE_NODES: &str = "white_nodes";
    /// `games`: nodes Black's engine searched over the whole game, as [`WHITE_NODES`] (u64).
    pub const BLACK_NODES: &str = "black_nodes";
    /// `games`: times White put a piece into its pocket, mutations and promotions by
    /// pocketing included (u32).
    pub const WHITE_POCKET_INS: &str = "white_pocket_ins";
    /// `games`: times Black put a piece into its pocket, as [`WHITE_POCKET_INS`] (u32).
    pub const BLACK_POCKET_INS: &str = "black_pocket_ins";
    /// `games`: White's pocket-ins that changed the piece's type without promoting it (u32).
    pub const WHITE_MUTATIONS: &str = "white_mutations";
    /// `games`: Black's pocket-ins that changed the piece's type without promoting it (u32).
    pub const BLACK_MUTATIONS: &str = "black_mutations";
    /// `games`: White's promotions, by pocketing or on the board (u32).
    pub const WHITE_PROMOTIONS: &str = "white_promotions";
    /// `games`: Black's promotions, by pocketing or on the board (u32).
    pub const BLACK_PROMOTIONS: &str = "black_promotions";
    /// `games`: pieces White dropped from its pocket (u32).
    pub const WHITE_DROPS: &str = "white_drops";
    /// `games`: pieces Black dropped from its pocket (u32).
    pub const BLACK_DROPS: &str = "black_drops";
    /// `games`: pocket and promotion events, space-separated, White's in move order then
    /// Black's: `w:N>B` (mutation or promotion by pocketing), `w:P=Q` (promotion on the
    /// board), `b:@N` (drop); empty when none (str).
    pub const POCKET_EVENTS: &str = "pocket_events";
    /// `games`: White's material in the final position, board and pocket, centipawns (i32).
    pub const WHITE_MATERIAL: &str = "white_material";
    /// `games`: Black's material in the final position, board and pocket, centipawns (i32).
    pub const BLACK_MATERIAL: &str = "black_material";
    /// `games`: the matchup's SPRT log-likelihood ratio after this game's pair, on both games
    /// of the pair (f64); null without an SPRT.
    pub const SPRT_LLR: &str = "sprt_llr";
    /// `games`: `H0` or `H1` on both games of the pair that decided the matchup's SPRT; null
    /// on every other game (str).
    pub const SPRT_DECISION: &str = "sprt_decision";
    /// `games`: the [`SCHEMA_VERSION`](super::SCHEMA_VERSION) the row was written under (u32);
    /// readers refuse any other.
    pub const SCHEMA_VERSION: &str = "schema_version";
    // The moves table (`game_id` as above).
    /// `moves`: the ply the move was played at, from 0, opening moves included (u32).
    pub const PLY: &str = "ply";
    /// `moves`: the move in project notation (`e2e4`, `N@e4`, `^e8=C`) (str).
    pub const MOVE: &str = "move";
    /// `moves`: the letter of the piece moved, dropped or pocketed (str).
    pub const PIECE: &str = "piece";
    /// `moves`: the letter of the piece captured; null when the move captures nothing (str).
    pub const CAPTURE: &str = "capture";
    /// `moves`: the mover's search score from its own view, centipawns, mates as
    /// `±(30000 - plies)` (i32); null for opening moves and for an external engine's move
    /// without a score.
    pub const SCORE_CP: &str = "score_cp";
    /// `moves`: the move's search depth, the last completed iteration (u32); an external
    /// engine's from its last `info` line; 0 for opening moves and when none was reported.
    pub const DEPTH: &str = "depth";
    /// `moves`: nodes searched for the move (u64); 0 for opening moves and when an external
    /// engine reported none.
    pub const NODES: &str = "nodes";
    /// `moves`: the position before the move, as FEN (Potential Chess: position text), at
    /// plies 0, `fen_every`, 2 × `fen_every`, …; null at other plies and with `fen_every = 0`
    /// (str).
    pub const FEN: &str = "fen";
}

/// How a game ended, as the `termination` column spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// The side to move was in check and had no legal move.
    Checkmate,
    /// The side to move was not in check and had no legal move.
    Stalemate,
    /// The variant's n-move rule: too many plies without a reset.
    NMove,
    /// A position occurred as often as the variant's repetition rule says.
    Repetition,
    /// Neither side could mate (the variant's dead-position rule).
    DeadPosition,
    /// The game reached the experiment's `max_plies`: a draw.
    AdjudicationMaxPlies,
    /// Both engines' scores agreed beyond `resign_score` for `resign_moves`
    /// moves each: a win for the side they favour.
    AdjudicationResign,
    /// Both engines' scores stayed within `draw_score` for `draw_moves` moves
    /// each, from `draw_after_ply` on: a draw.
    AdjudicationDraw,
    /// An external engine's `bestmove` named no legal move (its side lost).
    EngineIllegalMove,
    /// An external engine searched but sent no `bestmove` in time.
    EngineNoBestmove,
    /// An external engine's process exited or could not be started.
    EngineCrash,
    /// An external engine did not answer in time.
    EngineTimeout,
}

impl Termination {
    /// Every termination, in declaration order.
    // Values were added (the engine faults) without a schema bump: older
    // logs read as before, and an older build names a value it does not know.
    pub const ALL: [Termination; 12] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::NMove,
        Termination::Repetition,
        Termination::DeadPosition,
        Termination::AdjudicationMaxPlies,
        Termination::AdjudicationResign,
        Termination::AdjudicationDraw,
        Termination::EngineIllegalMove,
        Termination::EngineNoBestmove,
        Termination::EngineCrash,
        Termination::EngineTimeout,
    ];

    /// The name the `termination` column writes (`checkmate`, `n-move`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::NMove => "n-move",
            Termination::Repetition => "repetition",
            Termination::DeadPosition => "dead-position",
            Termination::AdjudicationMaxPlies => "adjudication-max-plies",
            Termination::AdjudicationResign => "adjudication-resign",
            Termination::AdjudicationDraw => "adjudication-draw",
            Termination::EngineIllegalMove => "engine-illegal-move",
            Termination::EngineNoBestmove => "engine-no-bestmove",
            Termination::EngineCrash => "engine-crash",
            Termination::EngineTimeout => "engine-timeout",
        }
    }

    /// Whether the rules ended the game (not adjudication or a fault).
    pub fn by_rule(self) -> bool {
        !matches!(
            self,
            Termination::AdjudicationMaxPlies
                | Termination::AdjudicationResign
                | Termination::AdjudicationDraw
        ) && !self.is_engine_fault()
    }

    /// Whether an external engine's fault lost the game for its side.
    pub fn is_engine_fault(self) -> bool {
        matches!(
            self,
            Termination::EngineIllegalMove
                | Termination::EngineNoBestmove
                | Termination::EngineCrash
                | Termination::EngineTimeout
        )
    }
}

impl From<pocketlab_core::Termination> for Termination {
    fn from(t: pocketlab_core::Termination) -> Termination {
        use pocketlab_core::Termination as Rule;
        match t {
            Rule::Checkmate => Termination::Checkmate,
            Rule::Stalemate => Termination::Stalemate,
            Rule::NMoveRule => Termination::NMove,
            Rule::Repetition => Termination::Repetition,
            Rule::DeadPosition => Termination::DeadPosition,
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Termination {
    type Err = String;

    fn from_str(s: &str) -> Result<Termination, String> {
        Termination::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| format!("'{s}' is not a termination"))
    }
}

/// The hypothesis an SPRT accepted, as the `sprt_decision` column spells it
/// (`H0`, `H1`; null while the test goes on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtAccepted {
    /// Army A's Elo difference over army B is (about) `elo0` or less.
    H0,
    /// Army A's Elo difference over army B is (about) `elo1` or more.
    H1,
}

impl SprtAccepted {
    /// The text the `sprt_decision` column writes: `H0` or `H1`.
    pub fn as_str(self) -> &'static str {
        match self {
            SprtAccepted::H0 => "H0",
            SprtAccepted::H1 => "H1",
        }
    }
}

impl fmt::Display for SprtAccepted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SprtAccepted {
    type Err = String;

    fn from_str(s: &str) -> Result<SprtAccepted, String> {
        match s {
            "H0" => Ok(SprtAccepted::H0),
            "H1" => Ok(SprtAccepted::H1),
            _ => Err(format!("'{s}' is not an SPRT decision (H0 or H1)")),
        }
    }
}

/// One row of `games`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The experiment's name.
    pub experiment: String,
    /// The matchup's name, `A-vs-B`.
    pub matchup: String,
    /// The matchup's index among the experiment's matchups, from 0.
    pub matchup_index: u32,
    /// The colour-swapped pair within the matchup, from 0.
    pub pair_index: u64,
    /// The game's identity ([`GameId`](crate::log::GameId) encoded).
    pub game_id: u64,
    /// The name of the army playing White.
    pub white: String,
    /// The name of the army playing Black.
    pub black: String,
    /// White's army setup (`N->I, -f2, +[P]`, or `base`).
    pub white_army: String,
    /// Black's army setup (`N->I, -f2, +[P]`, or `base`).
    pub black_army: String,
    /// White's engine settings (`nodes=10000 eval=default`; `movetime=`
    /// marks a time limit).
    pub white_engine: String,
    /// Black's engine settings, as `white_engine`.
    pub black_engine: String,
    /// The variant's name.
    pub variant: String,
    /// The game's seed, from the experiment's seed and the game id.
    pub seed: u64,
    /// The start position before the opening (FEN, or Potential Chess
    /// position text).
    pub start_fen: String,
    /// The random opening moves, space-separated; empty when none.
    pub opening: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The game's result from White's view: 1, 0.5 or 0.
    pub white_score: f64,
    /// How the game ended.
    pub termination: Termination,
    /// The game's length in plies, opening moves included.
    pub plies: u32,
    /// Wall-clock time the game took, milliseconds.
    pub duration_ms: u64,
    /// Nodes White's engine searched over the game.
    pub white_nodes: u64,
    /// Nodes Black's engine searched over the game.
    pub black_nodes: u64,
    /// Times White put a piece into its pocket (mutations and promotions
    /// by pocketing included).
    pub white_pocket_ins: u32,
    /// Times Black put a piece into its pocket (mutations and promotions
    /// by pocketing included).
    pub black_pocket_ins: u32,
    /// White's pocket-ins that changed the piece's type without promoting it.
    pub white_mutations: u32,
    /// Black's pocket-ins that changed the piece's type without promoting it.
    pub black_mutations: u32,
    /// White's promotions, by pocketing or on the board.
    pub white_promotions: u32,
    /// Black's promotions, by pocketing or on the board.
    pub black_promotions: u32,
    /// Pieces White dropped from its pocket.
    pub white_drops: u32,
    /// Pieces Black dropped from its pocket.
    pub black_drops: u32,
    /// Pocket and promotion events, space-separated (see
    /// [`col::POCKET_EVENTS`]); empty when none.
    pub pocket_events: String,
    /// White's material in the final position, board and pocket, centipawns.
    pub white_material: i32,
    /// Black's material in the final position, board and pocket, centipawns.
    pub black_material: i32,
    /// The matchup's SPRT log-likelihood ratio after this game's pair;
    /// `None` without an SPRT.
    pub sprt_llr: Option<f64>,
    /// The hypothesis accepted, on both games of the pair that decided the
    /// matchup's SPRT; `None` on every other game.
    pub sprt_decision: Option<SprtAccepted>,
}

/// One row of `moves`.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    /// The game the move belongs to, as [`GameRecord::game_id`].
    pub game_id: u64,
    /// The ply the move was played at, from 0, opening moves included.
    pub ply: u32,
    /// The move in project notation (`e2e4`, `N@e4`, `^e8=C`).
    pub mv: String,
    /// The letter of the piece moved, dropped or pocketed.
    pub piece: String,
    /// The letter of the piece captured; `None` when nothing is.
    pub capture: Option<String>,
    /// The mover's search score from its own view, centipawns, mates as
    /// `±(30000 - plies)`; `None` for opening moves and an external engine's
    /// move without a score.
    pub score_cp: Option<i32>,
    /// The move's search depth (the last completed iteration); 0 for opening
    /// moves and when an external engine reported none.
    pub depth: u32,
    /// Nodes searched for the move; 0 for opening moves and when an external
    /// engine reported none.
    pub nodes: u64,
    /// The position before the move, every `fen_every` plies (from ply 0);
    /// `None` at other plies.
    pub fen: Option<String>,
}
