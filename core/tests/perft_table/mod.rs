//! Perft tables kept as test data (`data/*.tsv`): a header line, then one
//! row per count: id, variant, FEN, depth, leaf count, tab-separated.

/// One stored perft count.
pub struct Row {
    pub id: String,
    pub variant: String,
    pub fen: String,
    pub depth: u32,
    pub nodes: u64,
}

/// The rows of a table's text (blank lines skipped).
pub fn rows(text: &str) -> Vec<Row> {
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                id: f[0].into(),
                variant: f[1].into(),
                fen: f[2].into(),
                depth: f[3].parse().unwrap(),
                nodes: f[4].parse().unwrap(),
            }
        })
        .collect()
}
