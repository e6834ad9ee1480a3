//! `pocketlab perft`.

use std::time::Instant;

use anyhow::Context;
use clap::Args;
use pocketlab_core::perft::{perft, perft_divide};
use pocketlab_core::potential::{self, Army, PotentialPosition};
use pocketlab_core::{Position, notation};
use pocketlab_selfplay::load_variant;

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// A shipped variant name or the path of a variant file.
    #[arg(long, default_value = pocketlab_core::variant::builtin::DEFAULT)]
    pub variant: String,
    /// Start from this FEN instead of the variant's start position (for a
    /// Potential Chess variant: potential position text).
    #[arg(long)]
    pub fen: Option<String>,
    /// Plies to count (at most 20).
    #[arg(long)]
    pub depth: u32,
    /// Print the count below each root move first.
    #[arg(long)]
    pub divide: bool,
}

/// Deepest perft the CLI runs: chess perft 15 is already a record count,
/// and each ply is a stack frame with a move list.
pub const MAX_PERFT_DEPTH: u32 = 20;

pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    if args.depth > MAX_PERFT_DEPTH {
        anyhow::bail!(
            "--depth {}: at most {MAX_PERFT_DEPTH} (deeper counts would not finish)",
            args.depth
        );
    }
    let variant = load_variant(&args.variant)?;
    if let Some(army) = variant.potential_army() {
        return potential_perft(&army, args);
    }
    let fen = args
        .fen
        .clone()
        .unwrap_or_else(|| variant.start_fen.clone());
    let pos = Position::from_fen(&variant, &fen).with_context(|| format!("--fen '{fen}'"))?;
    let started = Instant::now();
    let nodes = if args.divide {
        let mut total = 0;
        for (mv, n) in perft_divide(&pos, args.depth) {
            println!("{} {n}", notation::format(&pos, mv));
            total += n;
        }
        total
    } else {
        perft(&pos, args.depth)
    };
    print_count(nodes, started);
    Ok(())
}

/// Perft of a Potential Chess variant (every naming and promotion choice is a move).
fn potential_perft(army: &Army<'_>, args: &PerftArgs) -> anyhow::Result<()> {
    let pos = match &args.fen {
        Some(text) => PotentialPosition::from_text(army, text)
            .map_err(|e| anyhow::anyhow!("--fen '{text}': {e}"))?,
        None => army.start_position(),
    };
    let started = Instant::now();
    let nodes = if args.divide {
        let mut total = 0;
        for (mv, next) in pos.legal_successors() {
            let n = potential::perft(&next, args.depth.saturating_sub(1));
            println!("{} {n}", pos.format_move(mv));
            total += n;
        }
        total
    } else {
        potential::perft(&pos, args.depth)
    };
    print_count(nodes, started);
    Ok(())
}

fn print_count(nodes: u64, started: Instant) {
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{nodes} leaves in {seconds:.3} s ({:.1} M leaves/s)",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    println!("{nodes}");
}
