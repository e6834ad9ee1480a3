//! `pocketlab perft`.

use std::time::Instant;

use anyhow::Context;
use clap::Args;
use pocketlab_core::kind::GameKind;
use pocketlab_core::perft::MAX_PERFT_DEPTH;
use pocketlab_selfplay::load_variant;

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// A shipped variant name or the path of a variant file.
    #[arg(long, default_value = pocketlab_core::builtin::DEFAULT)]
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

pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    if args.depth > MAX_PERFT_DEPTH {
        anyhow::bail!(
            "--depth {}: at most {MAX_PERFT_DEPTH} (deeper counts would not finish)",
            args.depth
        );
    }
    let variant = load_variant(&args.variant)?;
    let kind = GameKind::of(&variant);
    let pos = match &args.fen {
        Some(text) => kind
            .parse_position(text)
            .with_context(|| format!("--fen '{text}'"))?,
        None => kind.start_position(),
    };
    let started = Instant::now();
    let nodes = if args.divide {
        let mut total = 0;
        for (mv, n) in pos.perft_divide(args.depth) {
            println!("{mv} {n}");
            total += n;
        }
        total
    } else {
        pos.perft(args.depth)
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
