//! `pocketlab pgn`: export logged games as PGN.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use pocketlab_selfplay::log::{read_games, read_moves};
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

pub fn run(args: &PgnArgs) -> anyhow::Result<()> {
    // The experiment as it ran (its relative paths resolve where it was).
    let (exp, _) = crate::report::build::experiment_of(&args.log)?;
    let mut games = read_games(&args.log)?;
    games.retain(|g| {
        args.matchup.as_ref().is_none_or(|m| &g.matchup == m)
            && args.game.is_none_or(|id| g.game_id == id)
    });
    if games.is_empty() {
        anyhow::bail!("no game in {} matches the filters", args.log.display());
    }
    games.sort_by_key(|g| g.game_id);
    let mut moves = read_moves(&args.log)?;
    moves.sort_by_key(|m| (m.game_id, m.ply));
    let mut out: Box<dyn std::io::Write> = match &args.out {
        Some(p) => Box::new(std::fs::File::create(p).with_context(|| p.display().to_string())?),
        None => Box::new(std::io::stdout().lock()),
    };
    for g in &games {
        let start = moves.partition_point(|m| m.game_id < g.game_id);
        let end = moves.partition_point(|m| m.game_id <= g.game_id);
        if end == start && g.plies > 0 {
            anyhow::bail!(
                "the log has no moves for game {} (was it run with log.moves = false?)",
                g.game_id
            );
        }
        out.write_all(
            game_pgn(&exp.variant, g, &moves[start..end])
                .map_err(anyhow::Error::msg)?
                .as_bytes(),
        )?;
    }
    Ok(())
}
