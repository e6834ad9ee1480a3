//! `pocketlab pgn`: export logged games as PGN.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use pocketlab_selfplay::files::replace_whole;
use pocketlab_selfplay::log::{
    MOVES_DIR, chunk_name, list_chunks, read_game_chunks, read_move_chunks,
};
use pocketlab_selfplay::pgn::game_pgn;

#[derive(Debug, Args)]
pub struct PgnArgs {
    /// A log directory written by `pocketlab run`.
    pub log: PathBuf,
    /// Only games of this matchup (e.g. `B-vs-N`).
    #[arg(long)]
    pub matchup: Option<String>,
    /// Only this game id.
    #[arg(long)]
    pub game: Option<u64>,
    /// Write to this file instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Exports every game it can; a game whose moves are missing (a moves
/// chunk lost in a crash) is named, with its chunk, and skipped, and the
/// command then fails after the rest is written.
pub fn run(args: &PgnArgs) -> anyhow::Result<()> {
    let files = list_chunks(&[&args.log])?;
    let log = &files.logs[0];
    // The moves are replayed under the rules as they ran.
    let exp = log
        .experiment_as_played()
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.log.display()))?;
    if !exp.log.moves {
        anyhow::bail!(
            "{}: the experiment ran with log.moves = false: there are no moves to export",
            args.log.display()
        );
    }
    for orphan in &files.orphaned_moves {
        eprintln!(
            "note: {}: a moves chunk without its games chunk (a run died between writing the \
             two; resuming deletes it): not exported",
            orphan.path.display()
        );
    }
    let wanted = |g: &pocketlab_selfplay::log::GameRecord| {
        args.matchup.as_ref().is_none_or(|m| &g.matchup == m)
            && args.game.is_none_or(|id| g.game_id == id)
    };
    // Each game with the moves chunk it needs, when that chunk is missing.
    let mut games = Vec::new();
    for chunk in &files.games {
        let missing = files.games_without_moves.contains(chunk).then(|| {
            files
                .dir_of(chunk)
                .join(MOVES_DIR)
                .join(chunk_name(chunk.shard, chunk.number))
        });
        for g in read_game_chunks(std::slice::from_ref(chunk))? {
            if wanted(&g) {
                games.push((g, missing.clone()));
            }
        }
    }
    if games.is_empty() {
        anyhow::bail!("no game in {} matches the filters", args.log.display());
    }
    games.sort_by_key(|(g, _)| g.game_id);
    let mut moves = read_move_chunks(&files.moves)?;
    moves.sort_by_key(|m| (m.game_id, m.ply));
    // Whole games in memory (a few kilobytes each), so a file is replaced
    // whole, never left half-written.
    let mut text = String::new();
    let mut skipped = Vec::new();
    for (g, missing) in &games {
        let start = moves.partition_point(|m| m.game_id < g.game_id);
        let end = moves.partition_point(|m| m.game_id <= g.game_id);
        if (end - start) as u64 != u64::from(g.plies) {
            skipped.push(match missing {
                Some(chunk) => format!(
                    "game {}: its moves chunk {} is missing",
                    g.game_id,
                    chunk.display()
                ),
                None => format!(
                    "game {}: {} moves logged for {} plies",
                    g.game_id,
                    end - start,
                    g.plies
                ),
            });
            continue;
        }
        let pgn = game_pgn(&exp.variant, g, &moves[start..end]).map_err(anyhow::Error::msg)?;
        text.push_str(&pgn);
    }
    match &args.out {
        Some(path) => replace_whole(path, text.as_bytes())?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    }
    if !skipped.is_empty() {
        anyhow::bail!(
            "{} of {} games not exported (the rest were): {}. `pocketlab check {}` says how to \
             recover",
            skipped.len(),
            games.len(),
            skipped
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join("; "),
            args.log.display()
        );
    }
    Ok(())
}
