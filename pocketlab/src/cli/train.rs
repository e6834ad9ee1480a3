//! `pocketlab train`: learn piece values from self-play, then report.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::Args;
use pocketlab_selfplay::files::replace_whole;
use pocketlab_selfplay::{Experiment, RunOptions, Shard, run};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use pocketlab_report::build::{ReportOptions, build_report};
use pocketlab_report::render::write_report;
use pocketlab_training::generations::random_armies;
use pocketlab_training::summary::summarize;
use pocketlab_training::{TrainingFile, train};

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Training file (TOML), e.g. configs/training/pmc-values.toml.
    pub training: PathBuf,
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

pub fn run_training(args: &TrainArgs) -> anyhow::Result<()> {
    let (file, dir) = TrainingFile::load(&args.training)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("reports").join(&file.name));
    let threads = super::run::worker_threads(args.threads)?;
    let outcome = train(&file, &dir, &out.join("training"), threads, args.quiet)?;

    // The seeded match: trained against starting values, full rules.
    let last_log = out
        .join("training")
        .join(format!("gen-{:03}", outcome.fits.len().saturating_sub(1)))
        .join("log");
    let report_log = if file.validation_pairs > 0 {
        let vdir = out.join("validation");
        std::fs::create_dir_all(&vdir)?;
        let text =
            validation_experiment(&file, &dir, &outcome.final_params, &outcome.initial_params)?;
        replace_whole(&vdir.join("experiment-source.toml"), text.as_bytes())?;
        let exp = Experiment::parse(
            &vdir.join("experiment-source.toml").display().to_string(),
            &text,
            &vdir,
        )?;
        let options = RunOptions {
            out_dir: vdir.join("log"),
            threads,
            shard: Shard::WHOLE,
            quiet: args.quiet,
        };
        let summary = run(&exp, &options, &Arc::new(AtomicBool::new(false)))?;
        anyhow::ensure!(
            !summary.interrupted,
            "the validation match was interrupted; run the same command to resume"
        );
        vdir.join("log")
    } else {
        last_log
    };
    let mut report = build_report(&[report_log], &ReportOptions::default())?;
    let direct: Vec<_> = file
        .compare_logs
        .iter()
        .map(|l| build_report(&[dir.join(l)], &ReportOptions::default()))
        .collect::<Result<_, _>>()?;
    let variant = pocketlab_selfplay::load_variant(&file.variant).or_else(|_| {
        pocketlab_selfplay::load_variant(&dir.join(&file.variant).display().to_string())
    })?;
    let summary = summarize(
        &outcome,
        &variant,
        &direct,
        (file.validation_pairs > 0).then_some(&report),
    );
    // The validation's per-army verdicts stay in the ratings section; the
    // headlines say what training did, then the pooled validation result.
    if file.validation_pairs > 0 {
        report.headlines.clear();
    }
    if let Some(v) = &summary.validation {
        report.headlines.insert(0, v.text.clone());
    }
    report.headlines.insert(
        0,
        format!(
            "Training: {} generations{}; learned values in {}.",
            summary.generations,
            if summary.converged {
                " (converged)"
            } else {
                ""
            },
            summary.final_params
        ),
    );
    report.training = Some(summary);
    let rendered = write_report(&report, &out)?;
    for h in &report.headlines {
        println!("{h}");
    }
    println!("report: {}", rendered.html.display());
    Ok(())
}

/// The seeded match of trained against starting values: the variant's own
/// army, then `validation_random_armies` random armies (the same army for
/// both engines, so only the values differ), the pairs split evenly.
fn validation_experiment(
    file: &TrainingFile,
    dir: &Path,
    trained: &Path,
    initial: &Path,
) -> anyhow::Result<String> {
    let abs = |p: &Path| {
        p.canonicalize()
            .unwrap_or_else(|_| p.to_path_buf())
            .display()
            .to_string()
            .replace('\\', "/")
    };
    let variant_spec = if pocketlab_core::builtin::text(&file.variant).is_some() {
        file.variant.clone()
    } else {
        abs(&dir.join(&file.variant))
    };
    let variant = pocketlab_selfplay::load_variant(&variant_spec)?;
    // A stream of its own: not the armies any generation trained on.
    let mut rng = ChaCha8Rng::seed_from_u64(file.seed ^ 0x7a11_da7e);
    let armies = random_armies(&variant, file.validation_random_armies, &mut rng);
    let matchups = 1 + armies.len() as u64;
    let pairs = file.validation_pairs.div_ceil(matchups).max(1);

    let mut t = String::new();
    let _ = writeln!(
        t,
        "name = \"{}-validation\"\nvariant = \"{variant_spec}\"\nseed = {}",
        file.name,
        file.seed.wrapping_add(1000)
    );
    let _ = writeln!(
        t,
        "description = \"Trained values against the starting values: the variant's army and {} random armies, full rules.\"",
        armies.len()
    );
    let _ = writeln!(t, "[engine]\nnodes = {}\nhash_mb = 4", file.nodes);
    let _ = writeln!(t, "[openings]\nrandom_plies = 6");
    let _ = writeln!(
        t,
        "[adjudication]\nmax_plies = 400\nresign_score = 1000\nresign_moves = 4"
    );
    let _ = writeln!(t, "[stop]\npairs = {pairs}");
    let (trained, initial) = (abs(trained), abs(initial));
    let mut army = |name: &str, replace: &str, eval: &str| {
        let _ = writeln!(
            t,
            "[armies.{name}]\n{replace}engine = {{ eval = \"{eval}\" }}"
        );
    };
    army("trained", "", &trained);
    army("initial", "", &initial);
    for (i, a) in armies.iter().enumerate() {
        let pieces: Vec<String> = a.iter().map(|(x, y)| format!("{x} = \"{y}\"")).collect();
        let replace = format!("replace = {{ {} }}\n", pieces.join(", "));
        army(&format!("trained-r{i}"), &replace, &trained);
        army(&format!("initial-r{i}"), &replace, &initial);
    }
    let _ = writeln!(t, "[[matchups]]\na = \"trained\"\nb = \"initial\"");
    for i in 0..armies.len() {
        let _ = writeln!(
            t,
            "[[matchups]]\na = \"trained-r{i}\"\nb = \"initial-r{i}\""
        );
    }
    Ok(t)
}
