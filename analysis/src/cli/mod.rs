//! Command-line interface: one binary, one subcommand per job.

mod bench;
mod perft;
mod pgn;
pub mod run;
mod uci;

use clap::{Parser, Subcommand};

/// pocketlab: is every piece of a chess variant worth what its designer thinks?
#[derive(Debug, Parser)]
#[command(name = "pocketlab", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count leaf nodes of the legal move tree (the last line is the count alone).
    Perft(perft::PerftArgs),
    /// Speed benchmarks (single thread).
    Bench(bench::BenchArgs),
    /// List the shipped variants.
    Variants,
    /// Play an experiment (default: the embedded default experiment).
    Run(run::RunArgs),
    /// Export logged games as PGN.
    Pgn(pgn::PgnArgs),
    /// Speak the UCI protocol on stdin/stdout, for GUIs and match runners.
    Uci,
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Uci) => uci::run(),
        Some(Command::Run(args)) => run::play(&args).map(|_| ()),
        Some(Command::Pgn(args)) => pgn::run(&args),
        Some(Command::Variants) => {
            for name in pocketlab_core::variant::builtin::names() {
                let v = pocketlab_core::variant::builtin::load(name)?;
                println!("{name:<24} {}", v.description);
            }
            Ok(())
        }
        None => run::play(&run::RunArgs { experiment: None, threads: None, shard: None, out: None, quiet: false }).map(|_| ()),
    }
}
