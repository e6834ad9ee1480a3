//! Command-line interface: one binary, one subcommand per job.

mod bench;
mod check;
mod compare;
mod init;
mod paired;
mod perft;
mod pgn;
mod report;
pub mod run;
mod simulate;
mod stages;
mod study;
mod train;
mod train_network;
mod tune;
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
    /// Write the balance report for logged games.
    Report(report::ReportArgs),
    /// Two studies of the same pairs side by side: has a difference moved?
    Compare(compare::CompareArgs),
    /// Two players' runs against one opponent from the same openings,
    /// compared opening by opening: which is stronger, and by how much?
    Paired(paired::PairedArgs),
    /// Verify a log directory: say what is wrong and how to recover.
    Check(check::CheckArgs),
    /// Learn piece values from self-play and report them.
    Train(train::TrainArgs),
    /// Self-play training of a learned evaluation: generations of play,
    /// labels, fit and an SPRT gate.
    TrainNetwork(train_network::TrainNetworkArgs),
    /// Fit every evaluation weight to logged games (Texel tuning).
    Tune(tune::TuneArgs),
    /// Run a sequential design on simulated results with known truths.
    Simulate(simulate::SimulateArgs),
    /// The stages of a sequential study (last line: their number).
    Stages(stages::StagesArgs),
    /// A variant's class study in one command: plan it from the variant's
    /// classes, play it (resuming when run again) and write its report.
    Study(study::StudyArgs),
    /// Write a commented starter variant file to edit.
    Init(init::InitArgs),
    /// Speak the UCI protocol on stdin/stdout, for GUIs and match runners.
    Uci,
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Uci) => uci::run(),
        Some(Command::Run(args)) => play_and_report(&args),
        Some(Command::Pgn(args)) => pgn::run(&args),
        Some(Command::Report(args)) => report::run(&args),
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::Compare(args)) => compare::run(&args),
        Some(Command::Paired(args)) => paired::run(&args),
        Some(Command::Train(args)) => train::run_training(&args),
        Some(Command::TrainNetwork(args)) => train_network::run(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Simulate(args)) => simulate::run(&args),
        Some(Command::Stages(args)) => stages::run(&args),
        Some(Command::Study(args)) => study::run(&args),
        Some(Command::Init(args)) => init::run(&args),
        Some(Command::Variants) => {
            for name in pocketlab_core::builtin::names() {
                let v = pocketlab_core::builtin::load(name)?;
                println!("{name:<24} {}", v.description);
            }
            Ok(())
        }
        None => play_and_report(&run::RunArgs {
            experiment: None,
            threads: None,
            shard: None,
            stage: None,
            out: None,
            quiet: false,
            max_memory_mb: pocketlab_selfplay::DEFAULT_MEMORY_BUDGET_MB,
        }),
    }
}

/// `run` ends by writing the report for what it played (the whole log,
/// resumed games included), unless other shards or stages are still to come.
fn play_and_report(args: &run::RunArgs) -> anyhow::Result<()> {
    let (_, log, played) = run::play(args)?;
    if played == run::Played::StagesLeft {
        println!("when the study is over: pocketlab report {}", log.display());
        return Ok(());
    }
    if args.shard.is_some_and(|s| s.count > 1) {
        println!(
            "shard done; when every shard has finished: pocketlab report {}",
            log.display()
        );
        return Ok(());
    }
    report::write(
        std::slice::from_ref(&log),
        &report::default_out(&log),
        &pocketlab_report::build::ReportOptions::default(),
    )
}
