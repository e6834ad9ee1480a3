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
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output directory (default: `reports/<name>`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: &TrainNetworkArgs) -> anyhow::Result<()> {
    let (file, dir) = NetworkLoopFile::load(&args.file)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("reports").join(&file.name));
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
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
