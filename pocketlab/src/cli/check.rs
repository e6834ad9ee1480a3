//! `pocketlab check LOG_DIR`: verify a log and say how to recover.

use std::path::PathBuf;

use clap::Args;
use pocketlab_selfplay::check::check_log;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// A log directory written by `pocketlab run`.
    pub log: PathBuf,
}

/// Prints every note and problem (with its fix); fails if there is a problem.
pub fn run(args: &CheckArgs) -> anyhow::Result<()> {
    let report = check_log(&args.log);
    print!("{report}");
    if !report.is_ok() {
        anyhow::bail!(
            "{}: {} problem(s); see above",
            args.log.display(),
            report.problems.len()
        );
    }
    Ok(())
}
