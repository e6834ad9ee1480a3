//! Reading a log back (for resuming, PGN export and tests). Analysis reads
//! the same files lazily with polars.

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use polars::prelude::*;
use thiserror::Error;

use super::schema::{GameRecord, MoveRecord, SCHEMA_VERSION};

#[derive(Debug, Error)]
pub enum LogError {
    #[error("{file}: {reason}")]
    Io { file: String, reason: String },
    #[error("{file}: damaged or not a pocketlab log file: {reason}")]
    Damaged { file: String, reason: String },
    #[error("log directory {dir}: {reason}")]
    Mismatch { dir: String, reason: String },
}

impl LogError {
    pub(crate) fn io(path: &Path, e: &std::io::Error) -> LogError {
        LogError::Io {
            file: path.display().to_string(),
            reason: e.to_string(),
        }
    }
}

/// The Parquet files of one table, sorted by name.
fn parts(dir: &Path, table: &str) -> Result<Vec<PathBuf>, LogError> {
    let d = dir.join(table);
    if !d.exists() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for entry in fs::read_dir(&d).map_err(|e| LogError::io(&d, &e))? {
        let path = entry.map_err(|e| LogError::io(&d, &e))?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.ends_with(".parquet") && !name.starts_with(".tmp-") {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

fn read_frame(path: &Path) -> Result<DataFrame, LogError> {
    let file = File::open(path).map_err(|e| LogError::io(path, &e))?;
    ParquetReader::new(file)
        .finish()
        .map_err(|e| damaged(path, e))
}

fn damaged(path: &Path, e: impl std::fmt::Display) -> LogError {
    LogError::Damaged {
        file: path.display().to_string(),
        reason: e.to_string(),
    }
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
    ($frame:expr, $name:literal, $method:ident) => {{
        let c = $frame
            .column($name)?
            .$method()
            .map_err(|e| damaged($frame.path, format!("column '{}': {e}", $name)))?;
        c.iter().collect::<Vec<_>>()
    }};
}

macro_rules! required {
    ($frame:expr, $name:literal, $method:ident) => {{
        numbers!($frame, $name, $method)
            .into_iter()
            .map(|v| v.ok_or_else(|| damaged($frame.path, format!("null in column '{}'", $name))))
            .collect::<Result<Vec<_>, _>>()?
    }};
}

/// Every game in a log directory, in file order.
pub fn read_games(dir: &Path) -> Result<Vec<GameRecord>, LogError> {
    let mut out = Vec::new();
    for path in parts(dir, "games")? {
        let df = read_frame(&path)?;
        let f = Frame {
            df: &df,
            path: &path,
        };
        let version: Vec<u32> = required!(f, "schema_version", u32);
        if version.iter().any(|&v| v != SCHEMA_VERSION) {
            return Err(damaged(
                &path,
                format!("schema version differs from this build's {SCHEMA_VERSION}"),
            ));
        }
        let s = |n: &str| f.req_strs(n);
        let (experiment, matchup, white, black) =
            (s("experiment")?, s("matchup")?, s("white")?, s("black")?);
        let (white_army, black_army, white_engine, black_engine) = (
            s("white_army")?,
            s("black_army")?,
            s("white_engine")?,
            s("black_engine")?,
        );
        let (variant, start_fen, opening, result, termination, pocket_events) = (
            s("variant")?,
            s("start_fen")?,
            s("opening")?,
            s("result")?,
            s("termination")?,
            s("pocket_events")?,
        );
        let matchup_index: Vec<u32> = required!(f, "matchup_index", u32);
        let pair_index: Vec<u64> = required!(f, "pair_index", u64);
        let game_id: Vec<u64> = required!(f, "game_id", u64);
        let seed: Vec<u64> = required!(f, "seed", u64);
        let white_score: Vec<f64> = required!(f, "white_score", f64);
        let plies: Vec<u32> = required!(f, "plies", u32);
        let duration_ms: Vec<u64> = required!(f, "duration_ms", u64);
        let white_nodes: Vec<u64> = required!(f, "white_nodes", u64);
        let black_nodes: Vec<u64> = required!(f, "black_nodes", u64);
        let wpi: Vec<u32> = required!(f, "white_pocket_ins", u32);
        let bpi: Vec<u32> = required!(f, "black_pocket_ins", u32);
        let wmu: Vec<u32> = required!(f, "white_mutations", u32);
        let bmu: Vec<u32> = required!(f, "black_mutations", u32);
        let wpr: Vec<u32> = required!(f, "white_promotions", u32);
        let bpr: Vec<u32> = required!(f, "black_promotions", u32);
        let wdr: Vec<u32> = required!(f, "white_drops", u32);
        let bdr: Vec<u32> = required!(f, "black_drops", u32);
        let wmat: Vec<i32> = required!(f, "white_material", i32);
        let bmat: Vec<i32> = required!(f, "black_material", i32);
        let llr: Vec<Option<f64>> = numbers!(f, "sprt_llr", f64);
        let decision = f.strs("sprt_decision")?;
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
                termination: termination[i].clone(),
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
                sprt_decision: decision[i].clone(),
            });
        }
    }
    Ok(out)
}

/// Every move in a log directory, in file order.
pub fn read_moves(dir: &Path) -> Result<Vec<MoveRecord>, LogError> {
    let mut out = Vec::new();
    for path in parts(dir, "moves")? {
        let df = read_frame(&path)?;
        let f = Frame {
            df: &df,
            path: &path,
        };
        let game_id: Vec<u64> = required!(f, "game_id", u64);
        let ply: Vec<u32> = required!(f, "ply", u32);
        let mv = f.req_strs("move")?;
        let piece = f.req_strs("piece")?;
        let capture = f.strs("capture")?;
        let score: Vec<Option<i32>> = numbers!(f, "score_cp", i32);
        let depth: Vec<u32> = required!(f, "depth", u32);
        let nodes: Vec<u64> = required!(f, "nodes", u64);
        let fen = f.strs("fen")?;
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
