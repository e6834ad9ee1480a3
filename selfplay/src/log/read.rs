//! Reading a log back (for resuming, PGN export and tests), through the
//! validated listing of [`list_chunks`]. Analysis reads the same files
//! lazily with polars ([`super::LogFiles::scan`]).

use std::fs::File;
use std::path::Path;

use super::chunks::Chunk;
use super::error::{LogError, damaged};
use super::files::list_chunks;
use super::schema::{GameRecord, MoveRecord, SCHEMA_VERSION, SprtAccepted, Termination, col};
use polars::prelude::*;

fn read_frame(path: &Path) -> Result<DataFrame, LogError> {
    let file = File::open(path).map_err(|e| LogError::io(path, &e))?;
    ParquetReader::new(file)
        .finish()
        .map_err(|e| damaged(path, e))
}

struct Frame<'a> {
    df: &'a DataFrame,
    path: &'a Path,
}

impl Frame<'_> {
    fn column(&self, name: &str) -> Result<&Column, LogError> {
        self.df
            .column(name)
            .map_err(|_| damaged(self.path, format!("missing column '{name}'")))
    }

    fn strs(&self, name: &str) -> Result<Vec<Option<String>>, LogError> {
        let c = self
            .column(name)?
            .str()
            .map_err(|e| damaged(self.path, format!("column '{name}': {e}")))?;
        Ok(c.iter().map(|v| v.map(str::to_owned)).collect())
    }

    fn req_strs(&self, name: &str) -> Result<Vec<String>, LogError> {
        self.strs(name)?
            .into_iter()
            .map(|v| v.ok_or_else(|| damaged(self.path, format!("null in column '{name}'"))))
            .collect()
    }
}

macro_rules! numbers {
    ($frame:expr, $name:expr, $method:ident) => {{
        let c = $frame
            .column($name)?
            .$method()
            .map_err(|e| damaged($frame.path, format!("column '{}': {e}", $name)))?;
        c.iter().collect::<Vec<_>>()
    }};
}

macro_rules! required {
    ($frame:expr, $name:expr, $method:ident) => {{
        numbers!($frame, $name, $method)
            .into_iter()
            .map(|v| v.ok_or_else(|| damaged($frame.path, format!("null in column '{}'", $name))))
            .collect::<Result<Vec<_>, _>>()?
    }};
}

/// Every game in a log directory, in file order.
pub fn read_games(dir: &Path) -> Result<Vec<GameRecord>, LogError> {
    read_game_chunks(&list_chunks(&[dir])?.games)
}

/// The games of the given chunks, in order.
pub fn read_game_chunks(chunks: &[Chunk]) -> Result<Vec<GameRecord>, LogError> {
    let mut out = Vec::new();
    for chunk in chunks {
        let path = &chunk.path;
        let df = read_frame(path)?;
        let f = Frame { df: &df, path };
        let version: Vec<u32> = required!(f, col::SCHEMA_VERSION, u32);
        if version.iter().any(|&v| v != SCHEMA_VERSION) {
            return Err(damaged(
                path,
                format!("schema version differs from this build's {SCHEMA_VERSION}"),
            ));
        }
        let s = |n: &str| f.req_strs(n);
        let (experiment, matchup, white, black) = (
            s(col::EXPERIMENT)?,
            s(col::MATCHUP)?,
            s(col::WHITE)?,
            s(col::BLACK)?,
        );
        let (white_army, black_army, white_engine, black_engine) = (
            s(col::WHITE_ARMY)?,
            s(col::BLACK_ARMY)?,
            s(col::WHITE_ENGINE)?,
            s(col::BLACK_ENGINE)?,
        );
        let (variant, start_fen, opening, result, termination, pocket_events) = (
            s(col::VARIANT)?,
            s(col::START_FEN)?,
            s(col::OPENING)?,
            s(col::RESULT)?,
            s(col::TERMINATION)?,
            s(col::POCKET_EVENTS)?,
        );
        let matchup_index: Vec<u32> = required!(f, col::MATCHUP_INDEX, u32);
        let pair_index: Vec<u64> = required!(f, col::PAIR_INDEX, u64);
        let game_id: Vec<u64> = required!(f, col::GAME_ID, u64);
        let seed: Vec<u64> = required!(f, col::SEED, u64);
        let white_score: Vec<f64> = required!(f, col::WHITE_SCORE, f64);
        let plies: Vec<u32> = required!(f, col::PLIES, u32);
        let duration_ms: Vec<u64> = required!(f, col::DURATION_MS, u64);
        let white_nodes: Vec<u64> = required!(f, col::WHITE_NODES, u64);
        let black_nodes: Vec<u64> = required!(f, col::BLACK_NODES, u64);
        let wpi: Vec<u32> = required!(f, col::WHITE_POCKET_INS, u32);
        let bpi: Vec<u32> = required!(f, col::BLACK_POCKET_INS, u32);
        let wmu: Vec<u32> = required!(f, col::WHITE_MUTATIONS, u32);
        let bmu: Vec<u32> = required!(f, col::BLACK_MUTATIONS, u32);
        let wpr: Vec<u32> = required!(f, col::WHITE_PROMOTIONS, u32);
        let bpr: Vec<u32> = required!(f, col::BLACK_PROMOTIONS, u32);
        let wdr: Vec<u32> = required!(f, col::WHITE_DROPS, u32);
        let bdr: Vec<u32> = required!(f, col::BLACK_DROPS, u32);
        let wmat: Vec<i32> = required!(f, col::WHITE_MATERIAL, i32);
        let bmat: Vec<i32> = required!(f, col::BLACK_MATERIAL, i32);
        let llr: Vec<Option<f64>> = numbers!(f, col::SPRT_LLR, f64);
        let decision = f.strs(col::SPRT_DECISION)?;
        let termination = termination
            .iter()
            .map(|t| t.parse::<Termination>().map_err(|e| damaged(path, e)))
            .collect::<Result<Vec<_>, _>>()?;
        let decision = decision
            .iter()
            .map(|d| d.as_deref().map(str::parse::<SprtAccepted>).transpose())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| damaged(path, e))?;
        for i in 0..df.height() {
            out.push(GameRecord {
                experiment: experiment[i].clone(),
                matchup: matchup[i].clone(),
                matchup_index: matchup_index[i],
                pair_index: pair_index[i],
                game_id: game_id[i],
                white: white[i].clone(),
                black: black[i].clone(),
                white_army: white_army[i].clone(),
                black_army: black_army[i].clone(),
                white_engine: white_engine[i].clone(),
                black_engine: black_engine[i].clone(),
                variant: variant[i].clone(),
                seed: seed[i],
                start_fen: start_fen[i].clone(),
                opening: opening[i].clone(),
                result: result[i].clone(),
                white_score: white_score[i],
                termination: termination[i],
                plies: plies[i],
                duration_ms: duration_ms[i],
                white_nodes: white_nodes[i],
                black_nodes: black_nodes[i],
                white_pocket_ins: wpi[i],
                black_pocket_ins: bpi[i],
                white_mutations: wmu[i],
                black_mutations: bmu[i],
                white_promotions: wpr[i],
                black_promotions: bpr[i],
                white_drops: wdr[i],
                black_drops: bdr[i],
                pocket_events: pocket_events[i].clone(),
                white_material: wmat[i],
                black_material: bmat[i],
                sprt_llr: llr[i],
                sprt_decision: decision[i],
            });
        }
    }
    Ok(out)
}

/// Every move in a log directory, in file order.
pub fn read_moves(dir: &Path) -> Result<Vec<MoveRecord>, LogError> {
    read_move_chunks(&list_chunks(&[dir])?.moves)
}

/// The moves of the given chunks, in order.
pub fn read_move_chunks(chunks: &[Chunk]) -> Result<Vec<MoveRecord>, LogError> {
    let mut out = Vec::new();
    for chunk in chunks {
        let path = &chunk.path;
        let df = read_frame(path)?;
        let f = Frame { df: &df, path };
        let game_id: Vec<u64> = required!(f, col::GAME_ID, u64);
        let ply: Vec<u32> = required!(f, col::PLY, u32);
        let mv = f.req_strs(col::MOVE)?;
        let piece = f.req_strs(col::PIECE)?;
        let capture = f.strs(col::CAPTURE)?;
        let score: Vec<Option<i32>> = numbers!(f, col::SCORE_CP, i32);
        let depth: Vec<u32> = required!(f, col::DEPTH, u32);
        let nodes: Vec<u64> = required!(f, col::NODES, u64);
        let fen = f.strs(col::FEN)?;
        for i in 0..df.height() {
            out.push(MoveRecord {
                game_id: game_id[i],
                ply: ply[i],
                mv: mv[i].clone(),
                piece: piece[i].clone(),
                capture: capture[i].clone(),
                score_cp: score[i],
                depth: depth[i],
                nodes: nodes[i],
                fen: fen[i].clone(),
            });
        }
    }
    Ok(out)
}
