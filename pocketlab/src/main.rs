//! `pocketlab`: the lab's one command-line tool.

use std::process::ExitCode;

use clap::Parser;

mod cli;
mod cpu;

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let missing = cpu::missing_features();
    if !missing.is_empty() {
        eprintln!(
            "error: this build of pocketlab uses instructions this CPU lacks ({}); \
             build it for this CPU with `RUSTFLAGS=\"-C target-cpu=native\" cargo build --release` \
             (see docs/src/installation.md, Building for another CPU)",
            missing.join(", ")
        );
        return ExitCode::FAILURE;
    }
    let cli = cli::Cli::parse();
    match cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// `pocketlab … | head` closes stdout early: end quietly with status 141
/// (128 + SIGPIPE), as Unix tools do, instead of reporting a panic. Rust
/// ignores SIGPIPE, so a dead UCI engine's pipe is an error the lab handles
/// rather than a signal that kills it; the price is that `println!` panics
/// on a closed stdout, and this hook turns that one panic into the exit.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info.payload_as_str().unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}
