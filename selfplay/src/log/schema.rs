//! The log's columns, in one place. Bump [`SCHEMA_VERSION`] on any change.
//!
//! ## `games` (one row per game)
//! | column | type | meaning |
//! |---|---|---|
//! | `experiment` | str | experiment name |
//! | `matchup`, `matchup_index` | str, u32 | `A-vs-B` and its index in the experiment |
//! | `pair_index` | u64 | the colour-swapped pair within the matchup |
//! | `game_id` | u64 | `matchup << 40 \| pair << 1 \| (B has White)` |
//! | `white`, `black` | str | army names (the subjects compared) |
//! | `white_army`, `black_army` | str | army setups (`N->I, -f2, +[P]`, or `base`) |
//! | `white_engine`, `black_engine` | str | engine settings (`nodes=10000 eval=default`) |
//! | `variant` | str | the variant as played (with the experiment's rule overrides) |
//! | `seed` | u64 | the game's seed |
//! | `start_fen`, `opening` | str | start position and the random opening moves |
//! | `result` | str | `1-0`, `0-1`, `1/2-1/2` |
//! | `white_score` | f64 | 1, 0.5, 0 |
//! | `termination` | str | checkmate, stalemate, n-move, repetition, dead-position, adjudication-max-plies, adjudication-resign, adjudication-draw |
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
//! | `score_cp` | i32? | the mover's search score (null for opening moves) |
//! | `depth`, `nodes` | u32, u64 | search depth and nodes (0 for opening moves) |
//! | `fen` | str? | the position before the move, every `fen_every` plies |
//!
//! Potential Chess variants (`[potential]` army) log `start_fen` and `fen` as
//! potential position text, `move` in the seed's notation (`d2-d4>QRP`,
//! `c4:d5>Q(b)`), `piece` as the mover's potential before the move (`X`,
//! `!K`) and `capture` as the captured piece's named identity.

/// Version of the columns above.
pub const SCHEMA_VERSION: u32 = 1;

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
    pub termination: String,
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
    pub sprt_decision: Option<String>,
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
