//! `pocketlab`: the lab's one command-line tool.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let missing = pocketlab_analysis::cpu::missing_features();
    if !missing.is_empty() {
        eprintln!(
            "error: this build of pocketlab uses instructions this CPU lacks ({}); \
             build it for this machine with `RUSTFLAGS=\"-C target-cpu=native\" cargo build --release` \
             (see README, Building for another CPU)",
            missing.join(", ")
        );
        return ExitCode::FAILURE;
    }
    let cli = pocketlab_analysis::cli::Cli::parse();
    match pocketlab_analysis::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
