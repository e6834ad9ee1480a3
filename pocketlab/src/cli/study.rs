//! `pocketlab study VARIANT`: a designer's class study in one command. The
//! variant's `classes` become an experiment file (every within-class pair
//! on stated slot squares, a pawn-odds calibration, the sequential design:
//! `pocketlab_selfplay::experiment::plan`), written to the study's folder
//! and played there with its report; run again, it resumes. With
//! `--scale`, the experiment is the value scale of every piece of the
//! classes instead, whose report proposes the class table the values
//! support.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use pocketlab_core::GamePosition;
use pocketlab_core::builtin::BUILTIN_EVAL;
use pocketlab_core::engine::{SearchLimits, SearchOptions};
use pocketlab_core::kind::GameKind;
use pocketlab_selfplay::experiment::plan::{ScaleStudyPlan, StudyPlan, StudySettings};
use pocketlab_selfplay::experiment::{DEFAULT_NODES, Program, start_text};
use pocketlab_selfplay::files::{create_output_dir, relative_path, replace_whole};
use pocketlab_selfplay::{DEFAULT_MEMORY_BUDGET_MB, Experiment};

use super::report;
use super::run::{self, Played, RunArgs};

/// Plies of a game the time estimate assumes: the games of the Pocket
/// Mutation Chess class study of record average 99.7 plies.
const PLIES_PER_GAME: f64 = 100.0;
/// Searched moves the timing probe plays from the first matchup's start.
const PROBE_MOVES: usize = 12;

#[derive(Debug, Args)]
pub struct StudyArgs {
    /// The variant: a shipped name (`pocketlab variants`) or a variant file.
    pub variant: String,
    /// Nodes a move.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub nodes: u64,
    /// Games the whole study may play (with --hours, the smaller budget).
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..))]
    pub games: Option<u64>,
    /// Hours of play the study may take: turned into a game budget by a
    /// timing probe (searches at --nodes on --threads, 100 plies a game).
    #[arg(long, value_parser = hours)]
    pub hours: Option<f64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The study's folder: the experiment file `study.toml`, `log/`, the
    /// report and `tables/` (default: `reports/<variant>-study`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the experiment file and print the plan, with a timing probe
    /// (no game is played or logged).
    #[arg(long)]
    pub dry_run: bool,
    /// The slot piece of a class, overriding the rule: `2=N,4=R` compares
    /// class 2 on the knights' squares and class 4 on the rooks'.
    #[arg(long, value_delimiter = ',', value_parser = slot)]
    pub slots: Vec<(u8, char)>,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Pairs per matchup at most (default: 500; 1,000 with --scale, and
    /// three times as many for the scale's pawn odds).
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    pub max_pairs: Option<u64>,
    /// Pairs between looks of the sequential design (default: 25).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub look_every: Option<u64>,
    /// Only the within-class pairs the table this variant revises (the
    /// variant it `inherits`) does not already hold in one class: the
    /// confirmation of a revised table, on the pairs a class study of the
    /// earlier table has not decided.
    #[arg(long, conflicts_with = "scale")]
    pub new_pairs: bool,
    /// Value every piece of the classes on one scale instead, in pawns
    /// with intervals, and propose the class table the values support
    /// (default folder: `reports/<variant>-scale`).
    #[arg(long, conflicts_with_all = ["slots", "look_every"])]
    pub scale: bool,
    /// The square of the scale's substitutions, White's view (default: that
    /// of White's least valuable piece, b1 in chess).
    #[arg(long, requires = "scale")]
    pub square: Option<String>,
    /// An evaluation file for the engines (default: the evaluation the
    /// variant ships, as `pocketlab variants` lists; `builtin` for the
    /// hand-written weights).
    #[arg(long)]
    pub eval: Option<PathBuf>,
    /// No progress output.
    #[arg(long)]
    pub quiet: bool,
}

fn hours(text: &str) -> Result<f64, String> {
    let h: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if h.is_finite() && h > 0.0 && h <= 24.0 * 365.0 {
        Ok(h)
    } else {
        Err(format!("{h} is not a number of hours above 0"))
    }
}

fn slot(text: &str) -> Result<(u8, char), String> {
    let (class, letter) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}': write CLASS=LETTER, e.g. 2=N"))?;
    let class: u8 = class
        .trim()
        .parse()
        .map_err(|e| format!("'{text}': class: {e}"))?;
    let mut chars = letter.trim().chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Ok((class, c.to_ascii_uppercase())),
        _ => Err(format!("'{text}': the slot is one piece letter")),
    }
}

/// The study `pocketlab study` plans: the class study or the value scale.
enum Planned {
    Classes(StudyPlan),
    Scale(ScaleStudyPlan),
}

impl Planned {
    fn settings(&mut self) -> &mut StudySettings {
        match self {
            Planned::Classes(p) => &mut p.settings,
            Planned::Scale(p) => &mut p.settings,
        }
    }

    fn to_toml(&self) -> String {
        match self {
            Planned::Classes(p) => p.to_toml(),
            Planned::Scale(p) => p.to_toml(),
        }
    }
}

pub fn run(args: &StudyArgs) -> anyhow::Result<()> {
    let variant = pocketlab_selfplay::load_variant(&args.variant)?;
    let name = format!(
        "{}-{}",
        variant.name,
        if args.scale { "scale" } else { "study" }
    );
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("reports").join(&name));
    create_output_dir(&out).with_context(|| out.display().to_string())?;
    let threads = run::worker_threads(args.threads)?;
    let settings = StudySettings {
        name,
        variant: path_from(&out, &args.variant)?,
        seed: args.seed,
        nodes: args.nodes,
        max_pairs: args
            .max_pairs
            .unwrap_or(if args.scale { 1000 } else { 500 }),
        look_every: args.look_every.unwrap_or(25),
        budget_games: args.games,
        eval: args
            .eval
            .as_deref()
            .map(|e| match e.to_str() {
                Some(BUILTIN_EVAL) => Ok(BUILTIN_EVAL.to_owned()),
                _ => path_from(&out, &e.display().to_string()),
            })
            .transpose()?,
    };
    let mut plan = if args.scale {
        Planned::Scale(ScaleStudyPlan::new(
            &variant,
            settings,
            args.square.as_deref(),
        )?)
    } else {
        let slots: BTreeMap<u8, char> = args.slots.iter().copied().collect();
        let mut plan = StudyPlan::new(&variant, settings, &slots)?;
        if args.new_pairs {
            plan.keep_new_pairs(&revised_variant(&args.variant)?)?;
        }
        Planned::Classes(plan)
    };
    let file = out.join("study.toml");
    let log = out.join("log");
    let resuming = file.exists() && log.exists();
    let mut probe = None;
    if args.hours.is_some() && resuming {
        // The budget was set by the first run's probe: keep it, so the
        // same command resumes the same study.
        plan.settings().budget_games = logged_budget(&file)?;
    } else if args.hours.is_some() || args.dry_run {
        probe = Some(probe_plan(&file, &plan)?);
    }
    if let (Some(h), Some(seconds)) = (args.hours, probe) {
        let budget = ((h * games_per_hour(seconds, threads)) as u64 / 2 * 2).max(2);
        plan.settings().budget_games = Some(args.games.map_or(budget, |g| g.min(budget)));
    }
    // A plan refused only once this run's probe set its budget from
    // --hours was refused for that budget.
    let (text, exp) = parse_plan(&file, &plan).with_context(|| {
        match (args.hours, probe, plan.settings().budget_games) {
            (Some(h), Some(_), Some(games)) => format!(
                "--hours {h} gives a budget of {games} games, too few for this plan: give more hours"
            ),
            _ => "the study's plan".to_owned(),
        }
    })?;
    write_plan(&file, &text)?;
    println!("study: {}", file.display());
    match &plan {
        Planned::Classes(p) => print_plan(p, probe, threads),
        Planned::Scale(p) => print_scale_plan(p, &exp, probe, threads),
    }
    if args.dry_run {
        return Ok(());
    }
    let (_, log, played) = run::play(&RunArgs {
        experiment: Some(file),
        threads: Some(threads),
        shard: None,
        stage: None,
        out: Some(log),
        quiet: args.quiet,
        max_memory_mb: DEFAULT_MEMORY_BUDGET_MB,
    })?;
    if played == Played::StagesLeft {
        println!("run the same command to go on");
        return Ok(());
    }
    report::write(
        std::slice::from_ref(&log),
        &out,
        &pocketlab_report::build::ReportOptions::default(),
    )
}

/// Writes the plan's experiment file `text` (parsed by [`parse_plan`]),
/// refusing to replace a different one (a study under way with other
/// options, or an edited file).
fn write_plan(file: &Path, text: &str) -> anyhow::Result<()> {
    match std::fs::read_to_string(file) {
        Ok(old) if old == text => Ok(()),
        Ok(_) => anyhow::bail!(
            "{} exists and differs from this study's plan (other options, or edited): play it \
             as it is with `pocketlab run {} --out {}`, or choose another --out",
            file.display(),
            file.display(),
            file.with_file_name("log").display()
        ),
        Err(_) => Ok(replace_whole(file, text.as_bytes())?),
    }
}

/// The plan's experiment file text, and the experiment as it reads from
/// `file` (relative paths resolve beside it), nothing written: refused
/// if it would not play (a budget below the first stage, say).
fn parse_plan(file: &Path, plan: &Planned) -> anyhow::Result<(String, Experiment)> {
    let text = plan.to_toml();
    // `a.toml` has the parent "", which no directory function accepts.
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let exp = Experiment::parse(&file.display().to_string(), &text, dir)?;
    Ok((text, exp))
}

/// The variant the variant file `target` revises: the one it `inherits`,
/// a file beside it or a shipped name.
fn revised_variant(target: &str) -> anyhow::Result<pocketlab_core::Variant> {
    let path = Path::new(target);
    let text = std::fs::read_to_string(path).with_context(|| {
        format!("--new-pairs: {target} must be a variant file that inherits the table it revises")
    })?;
    let file: toml::Table = toml::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "variant file '{target}': {}",
            pocketlab_core::variant::describe_toml_error(&e, &text)
        )
    })?;
    let Some(inherits) = file.get("inherits").and_then(toml::Value::as_str) else {
        anyhow::bail!(
            "{target}: --new-pairs needs `inherits`, the variant whose table this one revises"
        );
    };
    let beside = path.parent().unwrap_or(Path::new(".")).join(inherits);
    let name = if beside.is_file() {
        beside.display().to_string()
    } else {
        inherits.to_owned()
    };
    Ok(pocketlab_selfplay::load_variant(&name)?)
}

/// The timing probe of the plan, read as it would be from `file`.
fn probe_plan(file: &Path, plan: &Planned) -> anyhow::Result<f64> {
    timing_probe(&parse_plan(file, plan)?.1)
}

/// The game budget of a study's experiment file.
fn logged_budget(file: &Path) -> anyhow::Result<Option<u64>> {
    Ok(Experiment::load(file)?.stop.budget_games())
}

/// `target` (a shipped name or a file path) as the experiment file in
/// `dir` names it: a name as it is, a file relative to `dir`.
fn path_from(dir: &Path, target: &str) -> anyhow::Result<String> {
    let path = Path::new(target);
    if !path.exists() && pocketlab_core::builtin::text(target).is_some() {
        return Ok(target.to_owned());
    }
    let relative = relative_path(dir, path).with_context(|| format!("{target}: cannot read it"))?;
    Ok(relative.display().to_string())
}

/// Mean seconds per searched move: the first matchup's army A plays
/// `PROBE_MOVES` moves from its start position against itself with the
/// study's engine settings. Nothing is logged.
fn timing_probe(exp: &Experiment) -> anyhow::Result<f64> {
    let matchup = &exp.matchups[0];
    let (white, black) = (&exp.armies[matchup.a], &exp.armies[matchup.b]);
    let settings = &white.engine;
    if !matches!(settings.program, Program::Lab) {
        anyhow::bail!("the timing probe needs the lab's engine");
    }
    let kind = GameKind::of(&exp.variant);
    let fen = start_text(&exp.variant, white, black).map_err(anyhow::Error::msg)?;
    let mut pos = kind
        .parse_position(&fen)
        .map_err(|e| anyhow::anyhow!("start position {fen}: {e}"))?;
    let mut engine = kind.engine(
        &settings.eval,
        SearchOptions {
            hash_megabytes: settings.hash_mb,
            ..SearchOptions::default()
        },
    );
    let limits = SearchLimits::nodes(settings.nodes.unwrap_or(DEFAULT_NODES));
    let mut history = Vec::new();
    let (mut searched, started) = (0usize, Instant::now());
    while searched < PROBE_MOVES {
        let result = engine.search(&pos, &history, &limits);
        searched += 1;
        let Some(next) = result.best_move.and_then(|m| pos.successor(m)) else {
            break;
        };
        history.push(pos.hash());
        pos = next;
    }
    Ok(started.elapsed().as_secs_f64() / searched.max(1) as f64)
}

/// Games an hour at `seconds` a move on `threads` threads.
fn games_per_hour(seconds: f64, threads: usize) -> f64 {
    3600.0 * threads as f64 / (seconds * PLIES_PER_GAME).max(1e-9)
}

fn print_scale_plan(plan: &ScaleStudyPlan, exp: &Experiment, probe: Option<f64>, threads: usize) {
    let s = &plan.settings;
    println!(
        "value scale: {} ({} pieces) alone on {}, each against its next two up, the lowest \
         against the empty square, pawn odds ({}) for the unit: {} matchups",
        plan.pieces.iter().collect::<String>(),
        plan.pieces.len(),
        plan.square,
        plan.pawn_odds_square,
        exp.matchups.len()
    );
    println!(
        "stages until every neighbour difference is known to ±0.2 pawns and the unit to ±8% (or \
         each settled at what the matchups' departures from one scale allow); at most {} pairs a \
         matchup, {} for the pawn odds{}",
        s.max_pairs,
        plan.unit_max_pairs,
        s.budget_games
            .map(|b| format!(", {b} games in all"))
            .unwrap_or_default()
    );
    if let Some(seconds) = probe {
        let per_hour = games_per_hour(seconds, threads);
        println!(
            "timing probe: {:.3} s a move at {} nodes; about {:.0} games an hour on {threads} \
             thread(s) ({PLIES_PER_GAME:.0} plies a game){}",
            seconds,
            s.nodes,
            per_hour,
            s.budget_games
                .map(|b| format!(": the budget is about {:.1} hours", b as f64 / per_hour))
                .unwrap_or_default()
        );
    }
}

fn print_plan(plan: &StudyPlan, probe: Option<f64>, threads: usize) {
    for c in &plan.classes {
        let pairs = c.pairs();
        let only = if c.only.is_empty() {
            String::new()
        } else {
            format!(" new: {}", c.only_letters().join(" "))
        };
        println!(
            "class {}: {} ({pairs} pair{}{only}) on the squares of {}",
            c.class,
            c.pieces.iter().collect::<String>(),
            if pairs == 1 { "" } else { "s" },
            c.slot
        );
    }
    println!(
        "{} pairs and a pawn-odds calibration (pawn {}): {} matchups, each until decided or {} \
         pairs; at most {} games{}",
        plan.pairs(),
        plan.pawn_odds_square,
        plan.matchups(),
        plan.settings.max_pairs,
        plan.max_games(),
        plan.settings
            .budget_games
            .map(|b| format!(" (budget {b})"))
            .unwrap_or_default()
    );
    if let Some(seconds) = probe {
        let per_hour = games_per_hour(seconds, threads);
        println!(
            "timing probe: {:.3} s a move at {} nodes; about {:.0} games an hour on {threads} \
             thread(s) ({PLIES_PER_GAME:.0} plies a game): at most {:.1} hours",
            seconds,
            plan.settings.nodes,
            per_hour,
            plan.max_games() as f64 / per_hour
        );
    }
}
