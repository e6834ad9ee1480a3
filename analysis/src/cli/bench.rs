//! `pocketlab bench`: fixed suites, single-threaded, printing speed.

use std::time::Instant;

use clap::{Args, Subcommand};
use pocketlab_core::Position;
use pocketlab_core::perft::perft;
use pocketlab_core::variant::builtin;

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub suite: BenchSuite,
}

#[derive(Debug, Subcommand)]
pub enum BenchSuite {
    /// Perft leaves per second on the oracle's reference positions.
    Perft {
        /// Run only the quick part (smaller depths).
        #[arg(long)]
        quick: bool,
    },
}

/// `(label, variant, fen, depth, quick depth)`: the positions the oracle engine was timed on.
const PERFT_SUITE: &[(&str, &str, &str, u32, u32)] = &[
    (
        "chess start",
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        5,
    ),
    (
        "F1 white fairy",
        "fairy-oracle",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/IBNHKNBI w - - 0 1",
        5,
        4,
    ),
    (
        "F2 both fairy",
        "fairy-oracle",
        "ucxmkxcu/pppppppp/8/8/8/8/PPPPPPPP/EIDAKDIE w - - 0 1",
        5,
        4,
    ),
    (
        "F3 super pieces",
        "fairy-oracle",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/GFJLKJFG w - - 0 1",
        5,
        4,
    ),
    (
        "PMC start",
        "pocket-mutation",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1",
        4,
        3,
    ),
];

pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    match args.suite {
        BenchSuite::Perft { quick } => bench_perft(quick),
    }
}

fn bench_perft(quick: bool) -> anyhow::Result<()> {
    let (mut total_nodes, mut total_seconds) = (0u64, 0f64);
    println!(
        "{:<18} {:>5} {:>12} {:>9} {:>12}",
        "position", "depth", "leaves", "seconds", "M leaves/s"
    );
    for &(label, variant_name, fen, depth, quick_depth) in PERFT_SUITE {
        let variant = builtin::load(variant_name)?;
        let pos = Position::from_fen(&variant, fen)?;
        let depth = if quick { quick_depth } else { depth };
        let started = Instant::now();
        let nodes = perft(&pos, depth);
        let seconds = started.elapsed().as_secs_f64();
        total_nodes += nodes;
        total_seconds += seconds;
        println!(
            "{label:<18} {depth:>5} {nodes:>12} {seconds:>9.3} {:>12.2}",
            nodes as f64 / seconds / 1e6
        );
    }
    println!(
        "{:<18} {:>5} {total_nodes:>12} {total_seconds:>9.3} {:>12.2}",
        "total",
        "",
        total_nodes as f64 / total_seconds / 1e6
    );
    Ok(())
}
