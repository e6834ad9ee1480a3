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
    pub const EXPERIMENT: &str = "experiment";
    pub const MATCHUP: &str = "matchup";
    pub const MATCHUP_INDEX: &str = "matchup_index";
    pub const PAIR_INDEX: &str = "pair_index";
    pub const GAME_ID: &str = "game_id";
    pub const WHITE: &str = "white";
    pub const BLACK: &str = "black";
    pub const WHITE_ARMY: &str = "white_army";
    pub const BLACK_ARMY: &str = "black_army";
    pub const WHITE_ENGINE: &str = "white_engine";
    pub const BLACK_ENGINE: &str = "black_engine";
    pub const VARIANT: &str = "variant";
    pub const SEED: &str = "seed";
    pub const START_FEN: &str = "start_fen";
    pub const OPENING: &str = "opening";
    pub const RESULT: &str = "result";
    pub const WHITE_SCORE: &str = "white_score";
    pub const TERMINATION: &str = "termination";
    pub const PLIES: &str = "plies";
    pub const DURATION_MS: &str = "duration_ms";
    pub const WHITE_NODES: &str = "white_nodes";
    pub const BLACK_NODES: &str = "black_nodes";
    pub const WHITE_POCKET_INS: &str = "white_pocket_ins";
    pub const BLACK_POCKET_INS: &str = "black_pocket_ins";
    pub const WHITE_MUTATIONS: &str = "white_mutations";
    pub const BLACK_MUTATIONS: &str = "black_mutations";
    pub const WHITE_PROMOTIONS: &str = "white_promotions";
    pub const BLACK_PROMOTIONS: &str = "black_promotions";
    pub const WHITE_DROPS: &str = "white_drops";
    pub const BLACK_DROPS: &str = "black_drops";
    pub const POCKET_EVENTS: &str = "pocket_events";
    pub const WHITE_MATERIAL: &str = "white_material";
    pub const BLACK_MATERIAL: &str = "black_material";
    pub const SPRT_LLR: &str = "sprt_llr";
    pub const SPRT_DECISION: &str = "sprt_decision";
    pub const SCHEMA_VERSION: &str = "schema_version";
    // The moves table (`game_id` as above).
    pub const PLY: &str = "ply";
    pub const MOVE: &str = "move";
    pub const PIECE: &str = "piece";
    pub const CAPTURE: &str = "capture";
    pub const SCORE_CP: &str = "score_cp";
    pub const DEPTH: &str = "depth";
    pub const NODES: &str = "nodes";
    pub const FEN: &str = "fen";
}

/// How a game ended, as the `termination` column spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    Checkmate,
    Stalemate,
    NMove,
    Repetition,
    DeadPosition,
    AdjudicationMaxPlies,
    AdjudicationResign,
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
    H0,
    H1,
}

impl SprtAccepted {
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
    pub experiment: String,
    pub matchup: String,
    pub matchup_index: u32,
    pub pair_index: u64,
    pub game_id: u64,
    pub white: String,
    pub black: String,
    pub white_army: String,
    pub black_army: String,
    pub white_engine: String,
    pub black_engine: String,
    pub variant: String,
    pub seed: u64,
    pub start_fen: String,
    pub opening: String,
    pub result: String,
    pub white_score: f64,
    pub termination: Termination,
    pub plies: u32,
    pub duration_ms: u64,
    pub white_nodes: u64,
    pub black_nodes: u64,
    pub white_pocket_ins: u32,
    pub black_pocket_ins: u32,
    pub white_mutations: u32,
    pub black_mutations: u32,
    pub white_promotions: u32,
    pub black_promotions: u32,
    pub white_drops: u32,
    pub black_drops: u32,
    pub pocket_events: String,
    pub white_material: i32,
    pub black_material: i32,
    pub sprt_llr: Option<f64>,
    pub sprt_decision: Option<SprtAccepted>,
}

/// One row of `moves`.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    pub game_id: u64,
    pub ply: u32,
    pub mv: String,
    pub piece: String,
    pub capture: Option<String>,
    pub score_cp: Option<i32>,
    pub depth: u32,
    pub nodes: u64,
    pub fen: Option<String>,
}
