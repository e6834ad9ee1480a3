//! `pocketlab bench`: fixed suites, single-threaded, printing speed.

use std::time::Instant;

use clap::{Args, Subcommand};
use pocketlab_core::Position;
use pocketlab_core::builtin;
use pocketlab_core::engine::{EvalParams, Evaluator, SearchLimits, SearchOptions, Searcher};
use pocketlab_core::perft::perft;
use pocketlab_selfplay::experiment::SHIPPED_EVAL_LABEL;

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub suite: BenchSuite,
}

#[derive(Debug, Subcommand)]
pub enum BenchSuite {
    /// Perft leaves per second on the oracle's reference positions.
    Perft {
        /// Run only the quick part (smaller depths).
        #[arg(long)]
        quick: bool,
    },
    /// Time to write the balance report over a synthetic log.
    Report {
        /// Games in the synthetic log.
        #[arg(long, default_value_t = 1_000_000)]
        games: u64,
        /// Keep the log and report here (default: a temporary directory).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
    /// Games per hour of the runner with 1 and with 2 threads, and its overhead outside games.
    Selfplay {
        /// Experiment file (default: configs/experiments/quick.toml's settings with more pairs).
        experiment: Option<std::path::PathBuf>,
    },
    /// Nodes per second of the searcher on fixed positions at a fixed node
    /// budget, or on positions of a log's games (`--log`).
    Search {
        /// Nodes per position (default: 2,000,000 on the fixed positions;
        /// with `--log`, the node limit the chosen army played with).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
        /// Search positions of this log's games instead: those logged with
        /// a FEN (`[log] fen_every`) where the chosen army (`--army`, or the
        /// log's first army of the lab's engine) was to move, spread evenly
        /// over the log, each with that army's evaluation and hash size,
        /// beside the depth the logged game's search reached there.
        #[arg(long)]
        log: Option<std::path::PathBuf>,
        /// With `--log`: the army whose positions, evaluation and hash size
        /// to take (one that plays with the lab's engine).
        #[arg(long, requires = "log")]
        army: Option<String>,
        /// With `--log`: how many positions.
        #[arg(long, default_value_t = 200, requires = "log",
              value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        positions: u64,
    },
}

/// `(label, variant, fen, depth, quick depth)`: the positions the oracle engine was timed on.
const PERFT_SUITE: &[(&str, &str, &str, u32, u32)] = &[
    (
        "chess start",
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        5,
    ),
    (
        "F1 white fairy",
        "fairy-oracle",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/IBNHKNBI w - - 0 1",
        5,
        4,
    ),
    (
        "F2 both fairy",
        "fairy-oracle",
        "ucxmkxcu/pppppppp/8/8/8/8/PPPPPPPP/EIDAKDIE w - - 0 1",
        5,
        4,
    ),
    (
        "F3 super pieces",
        "fairy-oracle",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/GFJLKJFG w - - 0 1",
        5,
        4,
    ),
    (
        "PMC start",
        "pocket-mutation",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1",
        4,
        3,
    ),
];

pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    match args.suite {
        BenchSuite::Perft { quick } => bench_perft(quick),
        BenchSuite::Search {
            nodes, log: None, ..
        } => bench_search(nodes.unwrap_or(2_000_000)),
        BenchSuite::Search {
            nodes,
            log: Some(ref log),
            positions,
            ref army,
        } => bench_search_log(log, army.as_deref(), nodes, positions as usize),
        BenchSuite::Selfplay { ref experiment } => bench_selfplay(experiment.as_deref()),
        BenchSuite::Report { games, ref dir } => bench_report(games, dir.as_deref()),
    }
}

fn bench_perft(quick: bool) -> anyhow::Result<()> {
    let (mut total_nodes, mut total_seconds) = (0u64, 0f64);
    println!(
        "{:<18} {:>5} {:>12} {:>9} {:>12}",
        "position", "depth", "leaves", "seconds", "M leaves/s"
    );
    for &(label, variant_name, fen, depth, quick_depth) in PERFT_SUITE {
        let variant = builtin::load(variant_name)?;
        let pos = Position::from_fen(&variant, fen)?;
        let depth = if quick { quick_depth } else { depth };
        let started = Instant::now();
        let nodes = perft(&pos, depth);
        let seconds = started.elapsed().as_secs_f64();
        total_nodes += nodes;
        total_seconds += seconds;
        println!(
            "{label:<18} {depth:>5} {nodes:>12} {seconds:>9.3} {:>12.2}",
            nodes as f64 / seconds / 1e6
        );
    }
    println!(
        "{:<18} {:>5} {total_nodes:>12} {total_seconds:>9.3} {:>12.2}",
        "total",
        "",
        total_nodes as f64 / total_seconds / 1e6
    );
    Ok(())
}

/// `(label, variant, fen)`: openings and middlegames of the shipped variants.
const SEARCH_SUITE: &[(&str, &str, &str)] = &[
    (
        "chess start",
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "F2 both fairy",
        "fairy-oracle",
        "ucxmkxcu/pppppppp/8/8/8/8/PPPPPPPP/EIDAKDIE w - - 0 1",
    ),
    (
        "PMC start",
        "pocket-mutation",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1",
    ),
    (
        "PMC middlegame",
        "pocket-mutation",
        "r1bqk2r/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R[] w - - 0 6",
    ),
];

/// Searches each position of [`SEARCH_SUITE`] with the hand-written
/// weights and, where the variant ships one, its default evaluation: the
/// nodes a second of each and what one static evaluation costs.
fn bench_search(nodes: u64) -> anyhow::Result<()> {
    let (mut total_nodes, mut total_seconds) = (0u64, 0f64);
    println!(
        "{:<16} {:<44} {:>6} {:>10} {:>9} {:>10} {:>8}  best",
        "position", "evaluation", "depth", "nodes", "seconds", "k nodes/s", "eval ns"
    );
    for &(label, variant_name, fen) in SEARCH_SUITE {
        let variant = builtin::load(variant_name)?;
        let pos = Position::from_fen(&variant, fen)?;
        let mut evaluations = vec![("builtin".to_owned(), EvalParams::default())];
        if let Some(shipped) = builtin::shipped_eval(variant_name) {
            evaluations.push((
                format!("{SHIPPED_EVAL_LABEL}{}", shipped.file),
                shipped.params(),
            ));
        }
        for (eval_label, params) in &evaluations {
            let mut searcher = Searcher::standard(&variant, params, SearchOptions::default());
            let result = searcher.search(&pos, &[], &SearchLimits::nodes(nodes));
            // The cost of one static evaluation of the root position.
            let eval_ns = nanos_per_evaluation(
                searcher.rules().evaluator(),
                std::slice::from_ref(&pos),
                20_000,
            );
            let seconds = result.elapsed.as_secs_f64();
            total_nodes += result.nodes;
            total_seconds += seconds;
            let best = result
                .best_move
                .map(|m| pocketlab_core::notation::format(&pos, m))
                .unwrap_or_default();
            println!(
                "{label:<16} {eval_label:<44} {:>6} {:>10} {seconds:>9.3} {:>10.0} {eval_ns:>8.0}  {best}",
                result.depth,
                result.nodes,
                result.nodes as f64 / seconds / 1e3
            );
        }
    }
    println!(
        "{:<16} {:<44} {:>6} {total_nodes:>10} {total_seconds:>9.3} {:>10.0}",
        "total",
        "",
        "",
        total_nodes as f64 / total_seconds / 1e3
    );
    Ok(())
}

/// Mean wall time of one static evaluation over `rounds` passes through
/// `positions`.
fn nanos_per_evaluation(evaluator: &Evaluator, positions: &[Position<'_>], rounds: usize) -> f64 {
    let started = Instant::now();
    let mut sink = 0i64;
    for _ in 0..rounds {
        for pos in positions {
            sink += i64::from(evaluator.evaluate(std::hint::black_box(pos)));
        }
    }
    std::hint::black_box(sink);
    started.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64
}

/// Searches from positions of a log's games: the speed and depth of the
/// engine on the positions a study actually plays, then and now.
fn bench_search_log(
    log: &std::path::Path,
    army: Option<&str>,
    nodes: Option<u64>,
    positions: usize,
) -> anyhow::Result<()> {
    use anyhow::Context as _;
    use pocketlab_core::ByColor;
    use pocketlab_selfplay::experiment::Program;
    use pocketlab_selfplay::log::{open_log, read_games, read_moves};

    let exp = open_log(log)?.experiment()?;
    // An external engine's settings say nothing of the lab's search.
    let mut lab_armies = exp
        .armies
        .iter()
        .filter(|a| matches!(a.engine.program, Program::Lab));
    let army = match army {
        None => lab_armies.next().with_context(|| {
            format!(
                "{}: no army of the log's experiment plays with the lab's engine",
                log.display()
            )
        })?,
        Some(name) => match lab_armies.clone().find(|a| a.name == name) {
            Some(army) => army,
            None => {
                let names: Vec<&str> = lab_armies.map(|a| a.name.as_str()).collect();
                anyhow::bail!(
                    "{}: --army {name}: no army of that name plays with the lab's engine \
                     (the log's that do: {})",
                    log.display(),
                    names.join(", ")
                );
            }
        },
    };
    let settings = &army.engine;
    let nodes = nodes
        .or(settings.nodes)
        .unwrap_or(pocketlab_selfplay::experiment::DEFAULT_NODES);
    // Per game and colour, whether that army played it.
    let sides: std::collections::HashMap<u64, ByColor<bool>> = read_games(log)?
        .into_iter()
        .map(|g| {
            let played = ByColor {
                white: g.white == army.name,
                black: g.black == army.name,
            };
            (g.game_id, played)
        })
        .collect();
    let variant = &exp.variant;
    let mut logged = Vec::new();
    // Searched moves only: opening plies are played at random, unsearched.
    for m in read_moves(log)?.into_iter().filter(|m| m.nodes > 0) {
        let Some(fen) = m.fen.as_deref() else {
            continue;
        };
        let pos = Position::from_fen(variant, fen).map_err(|e| {
            anyhow::anyhow!(
                "{}: game {}, ply {}: field fen: {e}",
                log.display(),
                m.game_id,
                m.ply
            )
        })?;
        if sides
            .get(&m.game_id)
            .is_some_and(|played| played[pos.side_to_move()])
        {
            logged.push((m, pos));
        }
    }
    if logged.is_empty() {
        anyhow::bail!(
            "{}: no position searched by army {} is logged with a FEN (the experiment's \
             [log] fen_every is 0, or every logged move was an opening move)",
            log.display(),
            army.name
        );
    }
    let step = (logged.len() / positions).max(1);
    let (chosen, boards): (Vec<_>, Vec<_>) =
        logged.iter().step_by(step).take(positions).cloned().unzip();
    println!(
        "{}: {} of {} logged positions (every {step}th), {nodes} nodes each, \
         army {}, evaluation {}, hash {} MB",
        exp.name,
        boards.len(),
        logged.len(),
        army.name,
        settings.eval_label,
        settings.hash_mb
    );
    let mut searcher = Searcher::standard(
        variant,
        &settings.eval,
        SearchOptions {
            hash_megabytes: settings.hash_mb,
            ..SearchOptions::default()
        },
    );
    let (mut total_nodes, mut total_seconds) = (0u64, 0f64);
    let (mut depth_now, mut depth_then) = (0u64, 0u64);
    for (pos, record) in boards.iter().zip(&chosen) {
        searcher.new_game();
        let result = searcher.search(pos, &[], &SearchLimits::nodes(nodes));
        total_nodes += result.nodes;
        total_seconds += result.elapsed.as_secs_f64();
        depth_now += u64::from(result.depth);
        depth_then += u64::from(record.depth);
    }
    let rounds = (200_000 / boards.len()).max(1);
    let eval_ns = nanos_per_evaluation(searcher.rules().evaluator(), &boards, rounds);
    let count = boards.len() as f64;
    println!(
        "{:>10} {:>9} {:>10} {:>11} {:>13} {:>8}",
        "nodes", "seconds", "k nodes/s", "mean depth", "logged depth", "eval ns"
    );
    println!(
        "{total_nodes:>10} {total_seconds:>9.3} {:>10.0} {:>11.2} {:>13.2} {eval_ns:>8.0}",
        total_nodes as f64 / total_seconds / 1e3,
        depth_now as f64 / count,
        depth_then as f64 / count,
    );
    match settings.nodes {
        Some(logged_nodes) if logged_nodes == nodes => println!(
            "logged depth: what the game's own search reached from the same positions \
             at the same {nodes} nodes (with that game's hash table, not a fresh one)"
        ),
        logged_nodes => println!(
            "logged depth: what the game's own search reached from the same positions, \
             with {} nodes: compare depths at the same budget",
            logged_nodes.map_or_else(|| "another limit than".to_string(), |n| n.to_string())
        ),
    }
    Ok(())
}

fn bench_report(games: u64, dir: Option<&std::path::Path>) -> anyhow::Result<()> {
    use pocketlab_report::build::{ReportOptions, build_report};
    use pocketlab_report::render::write_report;
    use pocketlab_report::synthetic::{SyntheticModel, write_synthetic_log};

    let root = match dir {
        Some(d) => d.to_path_buf(),
        None => tempfile_dir()?,
    };
    let exp = super::run::load_experiment(None)?;
    let pairs = (games / (2 * exp.matchups.len() as u64)).max(1);
    let model = SyntheticModel {
        elo: vec![("R".into(), 20.0), ("pawn-odds-f2".into(), -100.0)],
        draw_rate: 0.3,
        white_edge_elo: 20.0,
        opening_bias_elo: 60.0,
        pairs,
        matchup_pairs: Vec::new(),
        seed: 1,
        chunk_games: 50_000,
    };
    let log = root.join("log");
    if !log.join(pocketlab_selfplay::log::MANIFEST_FILE).exists() {
        let started = Instant::now();
        let n = write_synthetic_log(&exp, &model, &log)?;
        println!(
            "synthetic log: {n} games written in {:.2} s",
            started.elapsed().as_secs_f64()
        );
    }
    let started = Instant::now();
    let report = build_report(&[log], &ReportOptions::default())?;
    let analysed = started.elapsed().as_secs_f64();
    let rendered = write_report(&report, &root)?;
    let total = started.elapsed().as_secs_f64();
    println!(
        "report over {} games: statistics {analysed:.2} s, with plots and files {total:.2} s -> {}",
        report.balance.games,
        rendered.html.display()
    );
    Ok(())
}

/// A fresh directory under the system temporary directory.
fn tempfile_dir() -> anyhow::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("pocketlab-bench-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// The quick experiment with enough pairs to time (`bench selfplay` default).
const SELFPLAY_BENCH: &str = include_str!("../../../configs/experiments/quick.toml");

fn bench_selfplay(path: Option<&std::path::Path>) -> anyhow::Result<()> {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use pocketlab_selfplay::log::read_games;
    use pocketlab_selfplay::{Experiment, RunOptions, Shard, run};

    let exp = match path {
        Some(p) => Experiment::load(p)?,
        None => Experiment::parse(
            "quick.toml (16 pairs)",
            &SELFPLAY_BENCH.replace("pairs = 4", "pairs = 16"),
            std::path::Path::new("."),
        )?,
    };
    println!(
        "{:<8} {:>6} {:>9} {:>12} {:>22}",
        "threads", "games", "seconds", "games/hour", "time outside games"
    );
    let mut rates = Vec::new();
    for threads in [1usize, 2] {
        let dir = tempfile_dir()?.join(format!("selfplay-{threads}"));
        let _ = std::fs::remove_dir_all(&dir);
        let options = RunOptions {
            out_dir: dir.clone(),
            threads,
            shard: Shard::WHOLE,
            quiet: true,
        };
        let started = Instant::now();
        let summary = run(&exp, &options, &Arc::new(AtomicBool::new(false)))?;
        let wall = started.elapsed().as_secs_f64();
        // Time inside games (search, move generation, bookkeeping) as the games logged it.
        let in_games: f64 = read_games(&dir)?
            .iter()
            .map(|g| g.duration_ms as f64 / 1000.0)
            .sum();
        let outside = 1.0 - in_games / (wall * threads as f64);
        let rate = summary.played_games as f64 / wall * 3600.0;
        rates.push(rate);
        println!(
            "{threads:<8} {:>6} {wall:>9.2} {rate:>12.0} {:>21.1}%",
            summary.played_games,
            100.0 * outside
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    println!(
        "two threads play {:.2}x the games per hour of one",
        rates[1] / rates[0]
    );
    Ok(())
}
