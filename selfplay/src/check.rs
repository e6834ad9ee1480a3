//! `pocketlab check`: every problem of a log at once, each with its fix,
//! the experiment it ran included (can its moves still be read back?).
//! Unlike the readers, which stop at the first problem, this reads every
//! file whole and goes on.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::fs::{self, File, TryLockError};
use std::path::Path;

use crate::log::{
    Chunk, LOCKS_DIR, LogDir, TEMP_PREFIX, Table, game_seed, open_log, parse_chunk_name,
    read_game_chunks, read_move_chunks,
};

/// One thing wrong with a log, and how to recover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What is wrong, naming the file.
    pub what: String,
    /// What to do about it.
    pub fix: String,
}

/// What `check_log` found.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Every problem found, in the order found; empty for a sound log.
    pub problems: Vec<Problem>,
    /// Facts that are not problems (progress, live writers, leftovers).
    pub notes: Vec<String>,
    /// Distinct games in the games chunks that read and belong to the
    /// experiment.
    pub games: u64,
}

impl CheckReport {
    /// Whether no problem was found.
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }

    fn problem(&mut self, what: impl Into<String>, fix: impl Into<String>) {
        self.problems.push(Problem {
            what: what.into(),
            fix: fix.into(),
        });
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for n in &self.notes {
            writeln!(f, "note: {n}")?;
        }
        for p in &self.problems {
            writeln!(f, "problem: {}\n  fix: {}", p.what, p.fix)?;
        }
        if self.is_ok() {
            writeln!(f, "ok: {} games, no problem found", self.games)
        } else {
            writeln!(
                f,
                "{} problem(s) found; {} games readable",
                self.problems.len(),
                self.games
            )
        }
    }
}

/// Verify a log directory: manifest and experiment text, the inputs the
/// experiment names (changed since the run?), every chunk (name, regular
/// file, non-empty, readable, rows of this experiment), one row per game
/// id, moves chunks that match their games chunk (orphans, missing ones,
/// moves of games not in the chunk, move counts).
pub fn check_log(dir: &Path) -> CheckReport {
    let mut report = CheckReport::default();
    let log = match open_log(dir) {
        Ok(log) => log,
        Err(e) => {
            report.problem(
                e.to_string(),
                "a log needs its manifest.toml and the experiment.toml it was started with; \
                 without them its games cannot be attributed: start a new log directory",
            );
            return report;
        }
    };
    let moves_logged = check_experiment(&log, &mut report);
    notes_on_writers(dir, &mut report);
    let chunks = list_all_chunks(dir, &mut report);
    let plies_of = check_games(&log, &chunks, &mut report);
    check_moves(&chunks, &plies_of, &mut report);
    if moves_logged {
        check_moves_present(&chunks, &plies_of, &mut report);
    }
    report
}

/// Every chunk file of a log by table, shard and number.
type Chunks = BTreeMap<(Table, u32, u32), Chunk>;
/// Plies of each game (by id) in each games chunk (by shard and number).
type PliesByChunk = HashMap<(u32, u32), HashMap<u64, u32>>;

/// The experiment as logged: does it still load, and have its inputs
/// changed since the run? Returns whether it logs moves.
fn check_experiment(log: &LogDir, report: &mut CheckReport) -> bool {
    match log.experiment() {
        Ok(exp) => {
            let changes = log.changes_since_run(&exp);
            if !changes.is_empty() {
                report.problem(
                    format!("changed since the run: {}", changes.join("; ")),
                    "resuming is refused while they differ: restore the files as they were \
                     (or start a new log directory for the changed experiment)",
                );
            }
            report.notes.push(format!(
                "experiment '{}': up to {} games",
                exp.name,
                exp.max_games()
            ));
            exp.log.moves
        }
        Err(e) => {
            report.problem(
                e.to_string(),
                "resuming and reading its games (reports, PGN) need them there; a changed \
                 experiment starts a new log directory",
            );
            true
        }
    }
}

/// The chunk files of both tables, each a regular non-empty file with a
/// chunk's name.
fn list_all_chunks(dir: &Path, report: &mut CheckReport) -> Chunks {
    let mut chunks = Chunks::new();
    for table in [Table::Games, Table::Moves] {
        let d = dir.join(table.dir_name());
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if name.starts_with('.') || !name.ends_with(".parquet") {
                continue;
            }
            let Some((shard, number)) = parse_chunk_name(&name) else {
                report.problem(
                    format!(
                        "{}: not a chunk name (part-sI-NNNNNN.parquet)",
                        path.display()
                    ),
                    "move it out of the log directory",
                );
                continue;
            };
            match fs::metadata(&path) {
                Ok(m) if !m.is_file() => report.problem(
                    format!("{}: not a regular file", path.display()),
                    "remove it",
                ),
                Ok(m) if m.len() == 0 => report.problem(
                    format!("{}: empty (0 bytes)", path.display()),
                    "delete it and resume the run: its games are played again",
                ),
                Ok(_) => {
                    chunks.insert(
                        (table, shard, number),
                        Chunk {
                            path,
                            dir: 0,
                            shard,
                            number,
                        },
                    );
                }
                Err(e) => report.problem(format!("{}: {e}", path.display()), "check permissions"),
            }
        }
    }
    chunks
}

/// Games chunks: readable, of this experiment, each game id once. Returns
/// each chunk's plies per game, for its moves chunk.
fn check_games(log: &LogDir, chunks: &Chunks, report: &mut CheckReport) -> PliesByChunk {
    let mut first_file: HashMap<u64, String> = HashMap::new();
    let mut plies_of = PliesByChunk::new();
    let expected_seed = |id| game_seed(log.manifest.seed, id);
    for ((table, shard, number), chunk) in chunks {
        if *table != Table::Games {
            continue;
        }
        let games = match read_game_chunks(std::slice::from_ref(chunk)) {
            Ok(g) => g,
            Err(e) => {
                report.problem(
                    e.to_string(),
                    "delete it (and its moves chunk) and resume the run: its games are played again",
                );
                continue;
            }
        };
        let here = chunk.path.display().to_string();
        let foreign = games.iter().find(|g| {
            g.experiment != log.manifest.experiment || g.seed != expected_seed(g.game_id)
        });
        if let Some(g) = foreign {
            report.problem(
                format!(
                    "{here}: game {} belongs to another experiment ('{}', or another seed)",
                    g.game_id, g.experiment
                ),
                "a chunk of another log was copied here: move it out",
            );
            continue;
        }
        for g in &games {
            if let Some(first) = first_file.get(&g.game_id) {
                report.problem(
                    format!(
                        "game {} is logged twice: in {first} and in {here}",
                        g.game_id
                    ),
                    "the two rows are the same game played twice (or copied): delete one of \
                     the two files (with its moves chunk) after checking the other holds the \
                     same games",
                );
            } else {
                first_file.insert(g.game_id, here.clone());
                report.games += 1;
            }
        }
        plies_of.insert(
            (*shard, *number),
            games.iter().map(|g| (g.game_id, g.plies)).collect(),
        );
    }
    plies_of
}

/// Moves chunks: beside their games chunk, of its games, all plies there.
fn check_moves(chunks: &Chunks, plies_of: &PliesByChunk, report: &mut CheckReport) {
    for ((table, shard, number), chunk) in chunks {
        if *table != Table::Moves {
            continue;
        }
        let path = chunk.path.display();
        let Some(plies) = plies_of.get(&(*shard, *number)) else {
            if !chunks.contains_key(&(Table::Games, *shard, *number)) {
                report.problem(
                    format!("{path}: a moves chunk without its games chunk (orphaned)"),
                    "left by a run that died between writing the two: resuming that shard \
                     deletes it, or delete it yourself; its games are played again",
                );
            }
            continue;
        };
        let moves = match read_move_chunks(std::slice::from_ref(chunk)) {
            Ok(m) => m,
            Err(e) => {
                report.problem(
                    e.to_string(),
                    "delete it and its games chunk, then resume: their games are played again",
                );
                continue;
            }
        };
        let mut count: HashMap<u64, u32> = HashMap::new();
        for m in &moves {
            *count.entry(m.game_id).or_default() += 1;
        }
        let strangers: HashSet<u64> = count
            .keys()
            .filter(|id| !plies.contains_key(id))
            .copied()
            .collect();
        if !strangers.is_empty() {
            report.problem(
                format!(
                    "{path}: moves of {} game(s) not in its games chunk (e.g. game {})",
                    strangers.len(),
                    strangers.iter().min().copied().unwrap_or(0)
                ),
                "written by another process: delete this chunk and its games chunk, then resume",
            );
            continue;
        }
        if let Some((id, n)) = plies
            .iter()
            .find(|(id, n)| count.get(id).copied().unwrap_or(0) != **n)
        {
            report.problem(
                format!(
                    "{path}: game {id} has {} moves logged but {n} plies",
                    count.get(id).copied().unwrap_or(0)
                ),
                "delete this chunk and its games chunk, then resume: their games are played again",
            );
        }
    }
}

/// Games chunks whose moves chunk is missing (in a log that logs moves).
fn check_moves_present(chunks: &Chunks, plies_of: &PliesByChunk, report: &mut CheckReport) {
    for (shard, number) in plies_of.keys() {
        let has_moves = chunks.contains_key(&(Table::Moves, *shard, *number));
        let needs_moves = plies_of[&(*shard, *number)].values().any(|&p| p > 0);
        if !has_moves && needs_moves {
            let games = &chunks[&(Table::Games, *shard, *number)].path;
            report.problem(
                format!("{}: its moves chunk is missing", games.display()),
                "PGN export and replays skip its games; to get them back, delete the games \
                 chunk and resume the run (its games are played again, identically)",
            );
        }
    }
}

/// Live writers (held shard locks) and leftover temporary files.
fn notes_on_writers(dir: &Path, report: &mut CheckReport) {
    if let Ok(entries) = fs::read_dir(dir.join(LOCKS_DIR)) {
        for entry in entries.flatten() {
            let Ok(file) = File::open(entry.path()) else {
                continue;
            };
            if let Err(TryLockError::WouldBlock) = file.try_lock_shared() {
                let holder = fs::read_to_string(entry.path()).unwrap_or_default();
                report.notes.push(format!(
                    "{} is held: {} is writing the log now (what you see is incomplete)",
                    entry.path().display(),
                    holder.trim()
                ));
            }
        }
    }
    let temps = [Table::Games, Table::Moves]
        .iter()
        .filter_map(|t| fs::read_dir(dir.join(t.dir_name())).ok())
        .flat_map(|e| e.flatten())
        .filter(|e| e.file_name().to_string_lossy().starts_with(TEMP_PREFIX))
        .count();
    if temps > 0 {
        report.notes.push(format!(
            "{temps} temporary file(s) of writers (in flight, or left by a run that died: \
             resuming its shard deletes them)"
        ));
    }
}
