//! Search scores of positions, kept in a label file so one labelling
//! serves many network fits (`pocketlab tune --network --labels FILE`).
//!
//! Labelling is most of a fit's cost: a million positions searched to
//! 10,000 nodes take most of an hour on two cores, the fit itself
//! minutes. A label file holds the scores of any number of searches, each
//! row keyed by the search that made it ([`LabelSearch`]: variant, engine
//! version, the start parameters' fingerprint, nodes) and the position's
//! FEN. A search reads its own rows and ignores the others; writing keeps
//! them. The engine version stands for the search code: like the logs'
//! reproducibility, this relies on every change to node-limited play
//! bumping [`ENGINE_VERSION`].
//!
//! The file is Parquet with the columns `variant` (text), `engine_version`
//! (u32), `params` (text: the hex FNV-1a of the start parameters as TOML),
//! `nodes` (u64), `fen` (text) and `score` (i32, White's view in
//! centipawns, mates clamped to ±[`MAX_LABEL_SCORE`]). It is replaced
//! whole through a synced temporary file, so a crash leaves the old file
//! or the new one. Two fits writing one file at once keep the labels of
//! whichever wrote last (nothing is corrupted; the other's new labels are
//! searched again next time).

use std::collections::HashMap;
use std::fs::File;
use std::path::Path;

use anyhow::{Context, bail};
use pocketlab_core::Variant;
use pocketlab_core::engine::{ENGINE_VERSION, EvalParams};
use pocketlab_selfplay::hash::stable_hash;
use polars::prelude::{
    BooleanChunked, Column, DataFrame, Int32Chunked, NewChunkedArray, ParquetReader, ParquetWriter,
    PolarsError, SerReader, StringChunked, UInt32Chunked, UInt64Chunked,
};

/// The largest search score a label file holds: mates count as a won
/// position, not as an infinite one.
pub const MAX_LABEL_SCORE: i32 = 2000;

mod column {
    pub const VARIANT: &str = "variant";
    pub const ENGINE_VERSION: &str = "engine_version";
    pub const PARAMS: &str = "params";
    pub const NODES: &str = "nodes";
    pub const FEN: &str = "fen";
    pub const SCORE: &str = "score";
}

/// The search that scores positions: a label depends on these and the
/// position alone (each position is searched from a fresh table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelSearch {
    /// The variant's name.
    pub variant: String,
    /// The engine version that searched ([`ENGINE_VERSION`] for this build).
    pub engine_version: u32,
    /// Hex FNV-1a of the start parameters as TOML (network included).
    pub params: String,
    /// Nodes searched per position.
    pub nodes: u64,
}

impl LabelSearch {
    /// The search of `nodes` nodes with `start` in `variant` by this build's engine.
    pub fn new(variant: &Variant, start: &EvalParams, nodes: u64) -> LabelSearch {
        LabelSearch {
            variant: variant.name.clone(),
            engine_version: ENGINE_VERSION,
            params: format!("{:016x}", stable_hash(start.to_toml().as_bytes())),
            nodes,
        }
    }

    /// Whether `row` is this search's.
    fn made(&self, row: &Row<'_>) -> bool {
        self.variant == row.variant
            && self.engine_version == row.engine_version
            && self.params == row.params
            && self.nodes == row.nodes
    }
}

/// One search's scores by FEN: those read from a label file and those
/// found since.
#[derive(Clone, Debug)]
pub struct SearchScores {
    search: LabelSearch,
    scores: HashMap<String, i32>,
    read: usize,
}

impl SearchScores {
    /// No scores yet.
    pub fn new(search: LabelSearch) -> SearchScores {
        SearchScores {
            search,
            scores: HashMap::new(),
            read: 0,
        }
    }

    /// The search these scores belong to.
    pub fn search(&self) -> &LabelSearch {
        &self.search
    }

    /// The score of the position `fen`, White's view, if known.
    pub fn get(&self, fen: &str) -> Option<i32> {
        self.scores.get(fen).copied()
    }

    /// Records a score (clamped to ±[`MAX_LABEL_SCORE`]).
    pub fn insert(&mut self, fen: String, score: i32) {
        self.scores
            .insert(fen, score.clamp(-MAX_LABEL_SCORE, MAX_LABEL_SCORE));
    }

    /// Positions scored.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether no position is scored.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Positions scored since the file was read.
    pub fn added(&self) -> usize {
        self.scores.len() - self.read
    }

    /// The scores `path` holds for `search` (none if there is no file).
    /// A damaged or foreign file is an error naming the file, the column
    /// and the reason; so is a position scored twice differently.
    pub fn read(path: &Path, search: LabelSearch) -> anyhow::Result<SearchScores> {
        let mut scores = SearchScores::new(search);
        let Some(df) = read_file(path)? else {
            return Ok(scores);
        };
        let rows = Rows::of(&df, path)?;
        for i in 0..df.height() {
            let row = rows.row(i, path)?;
            if !scores.search.made(&row) {
                continue;
            }
            if row.score.abs() > MAX_LABEL_SCORE {
                bail!(
                    "{}: column '{}', row {i}: score {} is beyond ±{MAX_LABEL_SCORE}",
                    path.display(),
                    column::SCORE,
                    row.score
                );
            }
            if let Some(old) = scores.scores.insert(row.fen.to_owned(), row.score)
                && old != row.score
            {
                bail!(
                    "{}: column '{}': position {} is scored twice by one search ({old} and {})",
                    path.display(),
                    column::FEN,
                    row.fen,
                    row.score
                );
            }
        }
        scores.read = scores.scores.len();
        Ok(scores)
    }

    /// Writes these scores to `path`, keeping the rows of other searches
    /// it holds (read again now, so a file that changed since is kept).
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let others = match read_file(path)? {
            None => None,
            Some(df) => {
                let rows = Rows::of(&df, path)?;
                let mut keep = Vec::with_capacity(df.height());
                for i in 0..df.height() {
                    keep.push(!self.search.made(&rows.row(i, path)?));
                }
                let mask = BooleanChunked::from_slice("keep".into(), &keep);
                Some(
                    df.filter(&mask)
                        .with_context(|| format!("{}: filtering its rows", path.display()))?,
                )
            }
        };
        // Sorted, so the same scores make the same file.
        let mut rows: Vec<(&String, &i32)> = self.scores.iter().collect();
        rows.sort_unstable();
        let n = rows.len();
        let s = &self.search;
        let mut df = DataFrame::new(
            n,
            vec![
                Column::new(column::VARIANT.into(), vec![s.variant.as_str(); n]),
                Column::new(column::ENGINE_VERSION.into(), vec![s.engine_version; n]),
                Column::new(column::PARAMS.into(), vec![s.params.as_str(); n]),
                Column::new(column::NODES.into(), vec![s.nodes; n]),
                Column::new(
                    column::FEN.into(),
                    rows.iter().map(|(f, _)| f.as_str()).collect::<Vec<_>>(),
                ),
                Column::new(
                    column::SCORE.into(),
                    rows.iter().map(|&(_, &v)| v).collect::<Vec<_>>(),
                ),
            ],
        )
        .context("building the label table")?;
        if let Some(others) = others {
            df.vstack_mut(&others)
                .with_context(|| format!("{}: joining its other searches", path.display()))?;
        }
        replace_file(path, &mut df)
    }
}

/// The file's table, or `None` if there is no file.
fn read_file(path: &Path) -> anyhow::Result<Option<DataFrame>> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("{}: cannot open", path.display())),
    };
    ParquetReader::new(file)
        .finish()
        .map(Some)
        .with_context(|| format!("{}: not a readable label file", path.display()))
}

/// Replaces `path` with `df` whole ([`pocketlab_selfplay::files::replace_whole`]).
fn replace_file(path: &Path, df: &mut DataFrame) -> anyhow::Result<()> {
    let mut bytes = Vec::new();
    ParquetWriter::new(&mut bytes)
        .finish(df)
        .with_context(|| format!("{}: cannot encode the label table", path.display()))?;
    Ok(pocketlab_selfplay::files::replace_whole(path, &bytes)?)
}

/// The label file's columns, typed.
struct Rows<'a> {
    variant: &'a StringChunked,
    engine_version: &'a UInt32Chunked,
    params: &'a StringChunked,
    nodes: &'a UInt64Chunked,
    fen: &'a StringChunked,
    score: &'a Int32Chunked,
}

struct Row<'a> {
    variant: &'a str,
    engine_version: u32,
    params: &'a str,
    nodes: u64,
    fen: &'a str,
    score: i32,
}

impl<'a> Rows<'a> {
    fn of(df: &'a DataFrame, path: &Path) -> anyhow::Result<Rows<'a>> {
        let get = |name: &str| {
            df.column(name)
                .with_context(|| format!("{}: missing column '{name}'", path.display()))
        };
        let typed = |name: &str, e: PolarsError| {
            anyhow::anyhow!("{}: column '{name}': {e}", path.display())
        };
        Ok(Rows {
            variant: get(column::VARIANT)?
                .str()
                .map_err(|e| typed(column::VARIANT, e))?,
            engine_version: get(column::ENGINE_VERSION)?
                .u32()
                .map_err(|e| typed(column::ENGINE_VERSION, e))?,
            params: get(column::PARAMS)?
                .str()
                .map_err(|e| typed(column::PARAMS, e))?,
            nodes: get(column::NODES)?
                .u64()
                .map_err(|e| typed(column::NODES, e))?,
            fen: get(column::FEN)?.str().map_err(|e| typed(column::FEN, e))?,
            score: get(column::SCORE)?
                .i32()
                .map_err(|e| typed(column::SCORE, e))?,
        })
    }

    fn row(&self, i: usize, path: &Path) -> anyhow::Result<Row<'a>> {
        let null =
            |name: &str| anyhow::anyhow!("{}: column '{name}', row {i}: null", path.display());
        Ok(Row {
            variant: self.variant.get(i).ok_or_else(|| null(column::VARIANT))?,
            engine_version: self
                .engine_version
                .get(i)
                .ok_or_else(|| null(column::ENGINE_VERSION))?,
            params: self.params.get(i).ok_or_else(|| null(column::PARAMS))?,
            nodes: self.nodes.get(i).ok_or_else(|| null(column::NODES))?,
            fen: self.fen.get(i).ok_or_else(|| null(column::FEN))?,
            score: self.score.get(i).ok_or_else(|| null(column::SCORE))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pocketlab_core::builtin;
    use polars::df;

    fn search(nodes: u64) -> LabelSearch {
        let v = builtin::load("chess").unwrap();
        LabelSearch::new(&v, &EvalParams::default(), nodes)
    }

    #[test]
    fn scores_round_trip_and_other_searches_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("labels.parquet");
        let mut a = SearchScores::read(&path, search(100)).unwrap();
        assert!(a.is_empty(), "no file: no scores");
        a.insert("fen a".into(), 12);
        a.insert("fen b".into(), 99_999);
        a.write(&path).unwrap();

        let mut b = SearchScores::read(&path, search(200)).unwrap();
        assert!(b.is_empty(), "another search's rows are not this one's");
        b.insert("fen a".into(), -7);
        b.write(&path).unwrap();

        let a = SearchScores::read(&path, search(100)).unwrap();
        assert_eq!(
            (a.get("fen a"), a.get("fen b"), a.len(), a.added()),
            (Some(12), Some(MAX_LABEL_SCORE), 2, 0)
        );
        let b = SearchScores::read(&path, search(200)).unwrap();
        assert_eq!((b.get("fen a"), b.len()), (Some(-7), 1));
        let mut other = EvalParams::default();
        other.tempo += 1;
        let v = builtin::load("chess").unwrap();
        let c = SearchScores::read(&path, LabelSearch::new(&v, &other, 100)).unwrap();
        assert!(c.is_empty(), "other start parameters, other labels");
    }

    #[test]
    fn a_damaged_or_foreign_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("labels.parquet");
        std::fs::write(&path, b"not parquet").unwrap();
        let e = format!("{:#}", SearchScores::read(&path, search(1)).unwrap_err());
        assert!(e.contains("labels.parquet"), "{e}");

        let mut df = df!("fen" => ["x"], "score" => [1i32]).unwrap();
        ParquetWriter::new(File::create(&path).unwrap())
            .finish(&mut df)
            .unwrap();
        let e = format!("{:#}", SearchScores::read(&path, search(1)).unwrap_err());
        assert!(e.contains("missing column 'variant'"), "{e}");
        let e = format!("{:#}", search_scores(1).write(&path).unwrap_err());
        assert!(
            e.contains("labels.parquet"),
            "a foreign file is not replaced: {e}"
        );
    }

    fn search_scores(nodes: u64) -> SearchScores {
        let mut s = SearchScores::new(search(nodes));
        s.insert("fen".into(), 5);
        s
    }

    #[test]
    fn a_position_scored_twice_differently_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("labels.parquet");
        search_scores(1).write(&path).unwrap();
        let mut df = ParquetReader::new(File::open(&path).unwrap())
            .finish()
            .unwrap();
        let mut twice = df.clone();
        twice
            .with_column(Column::new("score".into(), [6i32]))
            .unwrap();
        df.vstack_mut(&twice).unwrap();
        ParquetWriter::new(File::create(&path).unwrap())
            .finish(&mut df)
            .unwrap();
        let e = format!("{:#}", SearchScores::read(&path, search(1)).unwrap_err());
        assert!(e.contains("scored twice"), "{e}");
    }
}
