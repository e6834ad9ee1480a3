//! `pocketlab`: the lab's one command-line tool.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = pocketlab_analysis::cli::Cli::parse();
    match pocketlab_analysis::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
