//! `pocketlab train-network`: self-play training of a learned evaluation,
//! generation by generation (play, label, fit, gate), resumed when run
//! again.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use pocketlab_training::network_loop::{NetworkLoopFile, train_network};

#[derive(Debug, Args)]
pub struct TrainNetworkArgs {
    /// Loop file (TOML), e.g. configs/training/pmc-network.toml.
    pub file: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output directory (default: `reports/<name>`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress output.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: &TrainNetworkArgs) -> anyhow::Result<()> {
    let (file, dir) = NetworkLoopFile::load(&args.file)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("reports").join(&file.name));
    let threads = super::run::worker_threads(args.threads)?;
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupt);
    super::run::ctrlc_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let outcome = train_network(&file, &dir, &out, threads, args.quiet, &interrupt)?;
    let kept = outcome.results.iter().filter(|r| r.kept).count();
    println!(
        "{} generations, {kept} networks kept; the player after the last: {}",
        outcome.results.len(),
        outcome.best.display()
    );
    println!("summary: {}", out.join("README.md").display());
    Ok(())
}
