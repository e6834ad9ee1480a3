//! The names of a log's chunk files: which table, which shard, which
//! chunk.

use std::path::PathBuf;

use super::{GAMES_DIR, MOVES_DIR};

/// The two tables of a log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Table {
    /// One row per game ([`GameRecord`](super::GameRecord)).
    Games,
    /// One row per ply ([`MoveRecord`](super::MoveRecord)).
    Moves,
}

impl Table {
    /// The table's folder in a log directory.
    pub fn dir_name(self) -> &'static str {
        match self {
            Table::Games => GAMES_DIR,
            Table::Moves => MOVES_DIR,
        }
    }
}

/// The start of shard `shard`'s chunk names.
pub(crate) fn shard_prefix(shard: u32) -> String {
    format!("part-s{shard}-")
}

/// A chunk's file name: `part-sI-NNNNNN.parquet`.
pub fn chunk_name(shard: u32, number: u32) -> String {
    format!("{}{number:06}.parquet", shard_prefix(shard))
}

/// Shard and chunk number of a chunk's file name; `None` for any other name.
pub fn parse_chunk_name(name: &str) -> Option<(u32, u32)> {
    let rest = name.strip_prefix("part-s")?.strip_suffix(".parquet")?;
    let (shard, number) = rest.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(shard) || !digits(number) {
        return None;
    }
    let parsed = (shard.parse().ok()?, number.parse().ok()?);
    // One spelling per chunk (no `part-s00-…`, no short numbers).
    (chunk_name(parsed.0, parsed.1) == name).then_some(parsed)
}

/// One chunk file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// The chunk's file.
    pub path: PathBuf,
    /// Which of the listed log directories it is in.
    pub dir: usize,
    /// The shard that wrote it (`I` of `part-sI-NNNNNN.parquet`).
    pub shard: u32,
    /// Its number within the shard, from 0 (`NNNNNN`).
    pub number: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_names_have_one_spelling() {
        assert_eq!(chunk_name(3, 12), "part-s3-000012.parquet");
        assert_eq!(parse_chunk_name("part-s3-000012.parquet"), Some((3, 12)));
        assert_eq!(
            parse_chunk_name("part-s3-1234567.parquet"),
            Some((3, 1_234_567))
        );
        for bad in [
            "part-s03-000012.parquet",
            "part-s3-12.parquet",
            "part-s-1-000012.parquet",
            "part-s3-000012.parquet.bak",
            "games.parquet",
        ] {
            assert_eq!(parse_chunk_name(bad), None, "{bad}");
        }
    }
}
