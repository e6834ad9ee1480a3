//! `pocketlab simulate`: an experiment's sequential design on simulated
//! results with known truths, beside the fixed design on the same games,
//! so a designer can choose a margin, cap and budget before a night of play.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use super::run::load_experiment;
use pocketlab_report::adaptive::AdaptiveStudy;
use pocketlab_stats::sequential::Design;
use pocketlab_stats::sequential::simulate::{DesignTally, Scenario, simulate};

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Experiment file whose design and matchups are simulated (default:
    /// the embedded default experiment). Its `[stop]` must use
    /// design = "sequential-equivalence".
    pub experiment: Option<PathBuf>,
    /// Simulated studies per scenario.
    #[arg(long, default_value_t = 200)]
    pub runs: u32,
    /// Master seed of the simulated games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// True differences to try, pawns per piece (every pair of pieces at
    /// the same truth).
    #[arg(long, value_delimiter = ',', default_values_t = [0.0, 0.25, 0.5, 1.0, 2.0, 3.0])]
    pub effects: Vec<f64>,
    /// Draw rates between equal sides to try.
    #[arg(long, value_delimiter = ',', default_values_t = [0.05, 0.2, 0.4])]
    pub draw_rates: Vec<f64>,
    /// White's edge to try, Elo.
    #[arg(long, value_delimiter = ',', default_values_t = [30.0])]
    pub white_edges: Vec<f64>,
    /// The pawn's true worth to try, Elo (a smaller pawn is harder to
    /// measure: the calibration's error weighs more).
    #[arg(long, value_delimiter = ',', default_values_t = [100.0])]
    pub elo_per_pawn: Vec<f64>,
    /// How much each opening favours one colour, Elo.
    #[arg(long, default_value_t = 60.0)]
    pub opening_spread: f64,
    /// Instead of the experiment's matchups: a study shaped like the Pocket
    /// Mutation Chess class study (15 pairs in six classes, truths from 0
    /// to 2 pawns with three at the margin, and the calibration), under
    /// the experiment's design.
    #[arg(long)]
    pub pmc: bool,
}

pub fn run(args: &SimulateArgs) -> anyhow::Result<()> {
    if args.runs == 0 {
        anyhow::bail!("--runs must be at least 1");
    }
    for &d in &args.draw_rates {
        if !(0.0..=0.5).contains(&d) {
            anyhow::bail!("--draw-rates: each between 0 and 0.5, got {d}");
        }
    }
    for &k in &args.elo_per_pawn {
        if !(k.is_finite() && k > 0.0) {
            anyhow::bail!("--elo-per-pawn: each positive, got {k}");
        }
    }
    if args
        .effects
        .iter()
        .chain(&args.white_edges)
        .chain([&args.opening_spread])
        .any(|x| !x.is_finite() || x.abs() > 10_000.0)
    {
        anyhow::bail!("--effects, --white-edges and --opening-spread must be finite");
    }
    let exp = load_experiment(args.experiment.as_deref())?;
    let study = AdaptiveStudy::of(&exp).with_context(|| {
        format!(
            "experiment {}: [stop] does not use design = \"sequential-equivalence\"; nothing to simulate",
            exp.name
        )
    })?;
    let design = study.design();
    let stop = exp.stop.sequential().context("a sequential design")?;
    println!(
        "design of {}: {} spending, a look every {} pairs up to {}, margin ±{} pawns per piece, α = {} per \
         kind of claim and class{}{}; {} runs per scenario, seed {}",
        exp.name,
        stop.spending.as_str(),
        stop.look_every,
        stop.max_pairs,
        stop.margin_pawns,
        stop.alpha,
        stop.budget_games
            .map(|b| format!(", budget {b} games"))
            .unwrap_or_default(),
        stop.calibration_futility
            .map(|g| format!(", calibration futility {g}"))
            .unwrap_or_default(),
        args.runs,
        args.seed
    );
    if args.pmc {
        let scenario = Scenario {
            opening_spread: args.opening_spread,
            ..Scenario::pmc_like()
        };
        print_pmc(&scenario, design, stop.budget_games, args);
        return Ok(());
    }
    let base = Scenario::from_roles(study.study().roles(), 0.0);
    println!(
        "{} pairs of pieces in {} classes{}; every pair of pieces at the same true difference",
        base.comparisons.len(),
        base.comparisons
            .iter()
            .map(|c| c.family + 1)
            .max()
            .unwrap_or(0),
        if base.calibration {
            ", the pawn unit measured in the same loop"
        } else {
            ", no calibration: the pawn unit taken as known"
        }
    );
    println!(
        "{:>7} {:>5} {:>6} {:>6} | {:>6} {:>6} {:>6} {:>6} | {:>8} {:>8} | {:>7} {:>7} | {:>8} {:>8}",
        "truth",
        "draws",
        "White",
        "pawn",
        "equiv",
        "diff",
        "wrong",
        "undec",
        "false eq",
        "false df",
        "games",
        "fixed",
        "fixed eq",
        "fixed df"
    );
    for &k in &args.elo_per_pawn {
        for &edge in &args.white_edges {
            for &draw in &args.draw_rates {
                for &effect in &args.effects {
                    let scenario = Scenario {
                        draw_at_equal: draw,
                        white_edge: edge,
                        elo_per_pawn: k,
                        opening_spread: args.opening_spread,
                        ..Scenario::from_roles(study.study().roles(), effect)
                    };
                    let r = simulate(&scenario, design, stop.budget_games, args.runs, args.seed);
                    let runs = f64::from(r.runs);
                    let pairs = scenario.comparisons.len() as f64 * runs;
                    let share = |f: fn(&DesignTally) -> u64, t: &DesignTally| f(t) as f64 / pairs;
                    let eq = |t: &DesignTally| {
                        t.comparisons.iter().map(|c| u64::from(c.equivalent)).sum()
                    };
                    let df = |t: &DesignTally| {
                        t.comparisons.iter().map(|c| u64::from(c.different)).sum()
                    };
                    let wrong = |t: &DesignTally| {
                        t.comparisons.iter().map(|c| u64::from(c.wrong_side)).sum()
                    };
                    let undecided = |t: &DesignTally| {
                        t.comparisons.iter().map(|c| u64::from(c.undecided)).sum()
                    };
                    let family = |v: &[u32]| {
                        v.iter().map(|&x| f64::from(x)).sum::<f64>()
                            / (v.len().max(1) as f64 * runs)
                    };
                    let s = &r.sequential;
                    println!(
                        "{effect:>7.2} {draw:>5.2} {edge:>6.0} {k:>6.0} | {:>6.3} {:>6.3} {:>6.3} {:>6.3} | {:>8.3} {:>8.3} | \
                         {:>7.0} {:>7.0} | {:>8.3} {:>8.3}",
                        share(eq, s),
                        share(df, s),
                        share(wrong, s),
                        share(undecided, s),
                        family(&s.family_false_equivalence),
                        family(&s.family_false_difference),
                        s.games as f64 / runs,
                        r.fixed.games as f64 / runs,
                        share(eq, &r.fixed),
                        share(df, &r.fixed)
                    );
                }
            }
        }
    }
    println!(
        "equiv/diff/wrong/undec: share of pairs of pieces said equivalent, different (the right side \
         stronger), different the wrong way round (or at all, at a truth of 0), undecided. false eq / false \
         df: share of classes with a false 'equivalent' (truth at or beyond the margin) / a false \
         'different' (nominal at most α each). games: mean per study, against the fixed design's."
    );
    Ok(())
}

fn print_pmc(scenario: &Scenario, design: &Design, budget: Option<u64>, args: &SimulateArgs) {
    let r = simulate(scenario, design, budget, args.runs, args.seed);
    let runs = f64::from(r.runs);
    let (diff, se) = r.decided_difference_mean();
    let fe = |t: &DesignTally| t.family_false_equivalence.iter().sum::<u32>();
    let fd = |t: &DesignTally| t.family_false_difference.iter().sum::<u32>();
    let families = r.sequential.family_false_equivalence.len() as f64 * runs;
    println!(
        "a study shaped like the PMC class study: 15 pairs of pieces, truths from 0 to 2 pawns per piece, \
         {} Elo per pawn, draws {:.0}%, White +{:.0} Elo",
        scenario.elo_per_pawn,
        100.0 * scenario.draw_at_equal,
        scenario.white_edge
    );
    for (name, t) in [("sequential", &r.sequential), ("fixed", &r.fixed)] {
        println!(
            "{name:>10}: {:>6.0} games per study, {:.3} of 15 pairs decided, calibration {:.0} pairs, classes \
             with a false 'equivalent' {:.4}, with a false 'different' {:.4}",
            t.games as f64 / runs,
            t.decided() as f64 / runs,
            t.calibration_pairs as f64 / runs,
            f64::from(fe(t)) / families,
            f64::from(fd(t)) / families
        );
    }
    println!(
        "sequential: {:.2}x fewer games; decided {diff:+.3} ± {se:.3} pairs per study against the fixed \
         design (same games)",
        r.fixed.games as f64 / r.sequential.games.max(1) as f64
    );
    println!(
        "{:>6} {:>7} {:>6} | {:>5} {:>5} {:>5} {:>5} {:>6} | {:>5} {:>5} {:>5} {:>5}",
        "class",
        "truth",
        "pieces",
        "eq",
        "diff",
        "wrong",
        "undec",
        "pairs",
        "eq",
        "diff",
        "wrong",
        "undec"
    );
    for (c, (s, f)) in scenario
        .comparisons
        .iter()
        .zip(r.sequential.comparisons.iter().zip(&r.fixed.comparisons))
    {
        println!(
            "{:>6} {:>+7.2} {:>6} | {:>5} {:>5} {:>5} {:>5} {:>6.0} | {:>5} {:>5} {:>5} {:>5}",
            c.family + 2,
            c.truth,
            c.pieces,
            s.equivalent,
            s.different,
            s.wrong_side,
            s.undecided,
            s.pairs as f64 / runs,
            f.equivalent,
            f.different,
            f.wrong_side,
            f.undecided
        );
    }
    println!(
        "counts over {} runs: sequential | fixed ({} pairs each)",
        r.runs,
        design.max_pairs()
    );
}
