//! `pocketlab report`: a balance report from one or more log directories.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::report::build::{ReportOptions, build_report};
use crate::report::render::write_report;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Log directories of one experiment (several for shards kept apart).
    #[arg(required = true)]
    pub logs: Vec<PathBuf>,
    /// Where to write the report (default: the parent of the first log, i.e. reports/<experiment>/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Equivalence margin in pawns.
    #[arg(long, default_value_t = 0.25)]
    pub margin: f64,
}

pub fn run(args: &ReportArgs) -> anyhow::Result<()> {
    if !(args.margin > 0.0 && args.margin < 10.0) {
        anyhow::bail!("--margin must be between 0 and 10 pawns");
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(&args.logs[0]));
    write(
        &args.logs,
        &out,
        &ReportOptions {
            margin_pawns: args.margin,
            ..ReportOptions::default()
        },
    )
}

/// `reports/<experiment>/` for a log in `reports/<experiment>/log`.
pub fn default_out(log: &Path) -> PathBuf {
    log.parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Build and render a report; print where it went and its headlines.
pub fn write(logs: &[PathBuf], out: &Path, options: &ReportOptions) -> anyhow::Result<()> {
    let report = build_report(logs, options)?;
    let rendered = write_report(&report, out)?;
    for h in &report.headlines {
        println!("{h}");
    }
    println!("report: {}", rendered.html.display());
    Ok(())
}
