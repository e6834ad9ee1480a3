//! `pocketlab perft`.

use std::time::Instant;

use anyhow::Context;
use clap::Args;
use pocketlab_core::perft::{perft, perft_divide};
use pocketlab_core::{Position, notation};
use pocketlab_selfplay::load_variant;

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// A shipped variant name or the path of a variant file.
    #[arg(long, default_value = pocketlab_core::variant::builtin::DEFAULT)]
    pub variant: String,
    /// Start from this FEN instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Plies to count.
    #[arg(long)]
    pub depth: u32,
    /// Print the count below each root move first.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let variant = load_variant(&args.variant)?;
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
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{nodes} leaves in {seconds:.3} s ({:.1} M leaves/s)",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    println!("{nodes}");
    Ok(())
}
