//! The value-scale section: every piece of an experiment's value scale on
//! one scale (the fit of every logged pair), the class tables the values
//! support beside the variant's, the design's targets and state, and the
//! best table as a variant file a class study can confirm.

use std::path::Path;

use pocketlab_core::builtin::{self, BUILTIN_EVAL};
use pocketlab_selfplay::experiment::{DEFAULT_EVAL_LABEL, SHIPPED_EVAL_LABEL, ScalePlan};
use pocketlab_selfplay::files::relative_path;
use pocketlab_selfplay::{Experiment, PairScores};
use pocketlab_stats::value_scale::{
    ClassTable, NoValue, PartitionOptions, Pawns, PieceRef, ScaleFit, ScaleOptions, ScaleUnits,
    Target, Targets, WithinClass, check_targets, fit_scale, least_classes, minimax_agreement,
    partition, partition_apart, partition_within,
};

use super::matchups::agreement;
use super::model::{
    ScaleAdjacent, ScaleConsistency, ScaleDeparture, ScaleDesign, ScaleDistinct, ScaleKnown,
    ScalePiece, ScalePublished, ScaleTable, ScaleTarget, ScaleUnit, ValueScale, VerdictKind,
};
use super::published_values::PUBLISHED_PIECE_VALUES;
use super::scale_study::{ScaleEnd, ScaleStudy, scale_counts};

/// The margin of the fewest-classes table, pawns: a quarter pawn, the
/// lab's equivalence margin.
pub const WITHIN_PAWNS: f64 = 0.25;

/// The family-wise error rate of the claims "these pieces differ by more
/// than the margin" behind the least number of classes a table that holds
/// needs.
const DISTINCT_ALPHA: f64 = 0.05;

/// A class study's verdict on a pair of pieces, taken as known by a value
/// scale's class tables.
#[derive(Clone, Debug)]
pub(super) struct KnownVerdict {
    /// The pieces' letters.
    pub a: String,
    /// See `a`.
    pub b: String,
    /// The study's verdict.
    pub kind: VerdictKind,
    /// The study's experiment name.
    pub source: String,
}

/// The section for `exp`, if it has a value scale and the scale can be
/// fitted; `scores` are the logged pair results.
/// `out_dir`, the report's folder if known, is where the confirmation
/// command runs; `known`, class studies' verdicts the tables respect.
pub(super) fn value_scale(
    exp: &Experiment,
    scores: &PairScores,
    out_dir: Option<&Path>,
    known: &[KnownVerdict],
) -> Option<ValueScale> {
    let plan = exp.scale.as_ref()?;
    let counts = scale_counts(plan, scores, None);
    let fit = fit_scale(plan.pieces.len(), &counts, &ScaleOptions::new(plan.pawn)).ok()?;
    let letter = |i: usize| exp.variant.letter(plan.pieces[i]).to_string();
    let pairs_of = |i: usize| -> u64 {
        counts
            .iter()
            .filter(|m| m.a == PieceRef::Piece(i) || m.b == PieceRef::Piece(i))
            .filter_map(|m| m.counts.pairs())
            .sum()
    };
    let ladder = fit.ladder();
    let unvalued = (0..plan.pieces.len()).filter(|i| !ladder.contains(i));
    let pieces = ladder
        .iter()
        .copied()
        .chain(unvalued)
        .map(|i| {
            let def = exp.variant.piece(plan.pieces[i]);
            let (elo, elo_std_error, (elo_lo, elo_hi), pawns, missing) = match fit.values[i] {
                Ok(v) => (
                    v.elo,
                    v.std_error,
                    (v.elo_interval.lower, v.elo_interval.upper),
                    v.pawns,
                    None,
                ),
                Err(e) => (
                    f64::NAN,
                    f64::NAN,
                    (f64::NAN, f64::NAN),
                    Pawns::NoUnit,
                    Some(no_value_words(e)),
                ),
            };
            let (pawns, pawns_lo, pawns_hi) = pawn_numbers(&pawns);
            let pawns_std_error = if pawns.is_finite() {
                fit.pawns_std_error(i).unwrap_or(f64::NAN)
            } else {
                f64::NAN
            };
            ScalePiece {
                letter: letter(i),
                name: def.name.clone(),
                class: def.class,
                pawns,
                pawns_lo,
                pawns_hi,
                elo,
                elo_lo,
                elo_hi,
                elo_std_error,
                pawns_std_error,
                pairs: pairs_of(i),
                missing,
            }
        })
        .collect();
    let adjacent = fit
        .adjacent_differences()
        .iter()
        .map(|a| {
            let d = &a.difference;
            let (pawns, pawns_lo, pawns_hi) = pawn_numbers(&d.pawns);
            ScaleAdjacent {
                lower: letter(a.lower),
                upper: letter(a.upper),
                pawns,
                pawns_lo,
                pawns_hi,
                elo: d.elo,
                elo_lo: d.elo_interval.lower,
                elo_hi: d.elo_interval.upper,
            }
        })
        .collect();
    let unit = fit.unit.ok().map(|u| ScaleUnit {
        elo: u.elo,
        elo_lo: u.interval.lower,
        elo_hi: u.interval.upper,
        relative_precision: u.relative_precision,
        shown_positive: u.shown_positive,
    });
    let consistency = fit.consistency.map(|c| ScaleConsistency {
        chi_square: c.chi_square,
        degrees_of_freedom: c.degrees_of_freedom,
        p_value: c.p_value,
        departure: c.departure(),
        departing: departing(exp, plan, &fit),
    });
    let tables = class_tables(exp, &fit);
    let study = ScaleStudy::of(exp);
    let targets = study
        .as_ref()
        .map_or_else(Targets::default, |s| s.stop().targets);
    let targets = check_targets(&fit, &targets)
        .iter()
        .map(|c| ScaleTarget {
            label: match c.target {
                Target::Unit => "pawn unit".to_owned(),
                Target::Adjacent { lower, upper } => {
                    format!("{} to {}", letter(lower), letter(upper))
                }
            },
            half_width: c.half_width,
            goal: c.goal,
            met: c.met,
            relative: c.target == Target::Unit,
            floor: c.floor.unwrap_or(f64::NAN),
            out_of_reach: c.out_of_reach,
            settled: c.settled,
        })
        .collect();
    let design = study.map(|s| design_state(&s, scores));
    let asked = !known.is_empty();
    let known = known_pairs(exp, &fit, known);
    let mut table_note = tables.note.clone();
    if asked && known.is_none() {
        let unused =
            "the class verdicts are not used: the pawn's value is not yet shown positive, \
                      so no pair is shown beyond the margin in pawns"
                .to_owned();
        table_note = Some(match table_note {
            Some(note) => format!("{note}; {unused}"),
            None => unused,
        });
    }
    let confirmation = confirmation_command(exp, out_dir);
    let (proposed_variant, proposal_note) = match (&known, &tables.best) {
        (Some(k), _) => match &k.table {
            Some(table) => proposed_variant(exp, table, Proposal::Holdable(k), &confirmation),
            None => (None, tables.note.clone()),
        },
        (None, Some(best)) => proposed_variant(exp, best, Proposal::Best, &confirmation),
        (None, None) => (None, tables.note.clone()),
    };
    // The classes today's table has among the scale's pieces.
    let classes_today = tables.today.classes.len();
    Some(ValueScale {
        square: plan.square.to_string(),
        pieces,
        adjacent,
        unit,
        consistency,
        today: tables.today,
        best: tables.best,
        fewest: tables.fewest,
        within_pawns: WITHIN_PAWNS,
        known,
        distinct: least_classes(&fit, WITHIN_PAWNS, DISTINCT_ALPHA, &[]).map(|d| ScaleDistinct {
            classes_needed: d.classes,
            pieces: d.pieces.iter().map(|&i| letter(i)).collect(),
            pairs_tested: d.pairs_tested,
            pairs_apart: d.pairs_apart,
            margin_pawns: WITHIN_PAWNS,
            alpha: DISTINCT_ALPHA,
            classes_today,
        }),
        table_note,
        targets,
        design,
        confirmation: proposed_variant.as_ref().map(|_| confirmation),
        proposed_variant,
        proposal_note,
        published: published(exp, &fit),
    })
}

/// The scale with class studies' verdicts: the pairs they found different
/// kept apart beside the scale's own claims, the least classes that gives,
/// and the fewest-class table that can still hold with every pair of a
/// class within the margin by the estimates or found equivalent (a class
/// spread wider would fail its confirmation unless the estimates are far
/// off). `None` without
/// verdicts or without a unit shown positive (no claim in pawns).
fn known_pairs(exp: &Experiment, fit: &ScaleFit, known: &[KnownVerdict]) -> Option<ScaleKnown> {
    let plan = exp.scale.as_ref()?;
    if known.is_empty() {
        return None;
    }
    let index = |letter: &str| {
        plan.pieces
            .iter()
            .position(|&kind| exp.variant.letter(kind).to_string() == letter)
    };
    let letter = |i: usize| exp.variant.letter(plan.pieces[i]).to_string();
    let mut sources: Vec<String> = Vec::new();
    let (mut different, mut equivalent) = (Vec::new(), Vec::new());
    let (mut apart, mut alike) = (Vec::new(), Vec::new());
    for v in known {
        if !sources.contains(&v.source) {
            sources.push(v.source.clone());
        }
        let (Some(a), Some(b)) = (index(&v.a), index(&v.b)) else {
            continue;
        };
        let name = format!("{}–{}", v.a, v.b);
        if v.kind == VerdictKind::Different {
            apart.push((a, b));
            different.push(name);
        } else if v.kind.is_equivalent() {
            alike.push((a, b));
            equivalent.push(name);
        }
    }
    let least = least_classes(fit, WITHIN_PAWNS, DISTINCT_ALPHA, &apart)?;
    let options = PartitionOptions {
        units: ScaleUnits::Pawns,
        ..PartitionOptions::default()
    };
    let table = partition_apart(fit, &least.apart, &alike, WITHIN_PAWNS, &options)
        .ok()
        .map(|t| scale_table(t, &letter));
    let found_equivalent = |a: &str, b: &str| {
        let (Some(a), Some(b)) = (index(a), index(b)) else {
            return false;
        };
        alike.contains(&(a, b)) || alike.contains(&(b, a))
    };
    let unconfirmed = table.as_ref().map_or_else(Vec::new, |t| {
        t.within_class_pairs()
            .filter(|&(a, b)| !found_equivalent(a, b))
            .map(|(a, b)| format!("{a}–{b}"))
            .collect()
    });
    Some(ScaleKnown {
        sources,
        different,
        equivalent,
        pairs_added: least.pairs_added,
        classes_needed: least.classes,
        pieces: least.pieces.iter().map(|&i| letter(i)).collect(),
        table,
        unconfirmed,
    })
}

/// The published values ([`PUBLISHED_PIECE_VALUES`]) of the scale's
/// pieces, matched by their moves, beside the fit's.
fn published(exp: &Experiment, fit: &ScaleFit) -> Vec<ScalePublished> {
    let Some(plan) = exp.scale.as_ref() else {
        return Vec::new();
    };
    let on_scale = |betza: &str| -> Option<usize> {
        plan.pieces
            .iter()
            .position(|&kind| exp.variant.piece(kind).betza == betza)
    };
    let named = |i: usize| {
        let kind = plan.pieces[i];
        format!(
            "{} ({})",
            exp.variant.letter(kind),
            exp.variant.piece(kind).name
        )
    };
    PUBLISHED_PIECE_VALUES
        .iter()
        .filter_map(|p| {
            let piece = on_scale(p.betza)?;
            let (what, lab) = match p.relative_to {
                None => (named(piece), fit.values[piece].map(|v| v.pawns)),
                Some(reference) => {
                    let reference = on_scale(reference)?;
                    let what = format!("{} − {}", named(piece), named(reference));
                    let difference =
                        fit.difference(PieceRef::Piece(piece), PieceRef::Piece(reference));
                    (what, difference.map(|d| d.pawns))
                }
            };
            let (lab_pawns, lab_lo, lab_hi) =
                lab.map_or((f64::NAN, f64::NAN, f64::NAN), |pawns| pawn_numbers(&pawns));
            Some(ScalePublished {
                source: p.source.to_owned(),
                what,
                difference: p.relative_to.is_some(),
                published_pawns: p.pawns,
                lab_pawns,
                lab_lo,
                lab_hi,
                agreement: agreement(p.pawns, lab_pawns, (lab_lo, lab_hi)),
            })
        })
        .collect()
}

/// Estimate and 95% interval in pawns; NaN where the unit does not bound
/// them.
fn pawn_numbers(pawns: &Pawns) -> (f64, f64, f64) {
    match *pawns {
        Pawns::Bounded { pawns, interval } => (pawns, interval.lower, interval.upper),
        _ => (f64::NAN, f64::NAN, f64::NAN),
    }
}

fn no_value_words(e: NoValue) -> String {
    match e {
        NoValue::NotPlayed => "not played yet".to_owned(),
        NoValue::Disconnected => {
            "played, but not joined to the empty square by played matchups".to_owned()
        }
    }
}

/// Today's table, the best with as many classes, the fewest within a
/// quarter pawn, and why any is missing.
struct Tables {
    today: ScaleTable,
    best: Option<ScaleTable>,
    fewest: Option<ScaleTable>,
    note: Option<String>,
}

fn class_tables(exp: &Experiment, fit: &ScaleFit) -> Tables {
    let plan = exp.scale.as_ref().map_or(&[][..], |p| p.pieces.as_slice());
    let in_pawns = fit.unit.is_ok_and(|u| u.shown_positive);
    let options = PartitionOptions {
        units: if in_pawns {
            ScaleUnits::Pawns
        } else {
            ScaleUnits::Elo
        },
        ..PartitionOptions::default()
    };
    let value = |i: usize| -> Option<f64> {
        let v = fit.values[i].ok()?;
        if in_pawns {
            v.pawns.estimate()
        } else {
            Some(v.elo)
        }
    };
    let order = |i: usize| value(i).unwrap_or(f64::NAN);
    // Today's classes, restricted to the valued pieces on the scale, each
    // from its lowest value up, the classes by their lowest value.
    let mut today: Vec<Vec<usize>> = exp
        .variant
        .classes
        .iter()
        .map(|class| {
            let mut members: Vec<usize> = class
                .iter()
                .filter_map(|t| plan.iter().position(|p| p == t))
                .filter(|&i| value(i).is_some())
                .collect();
            members.sort_by(|&a, &b| order(a).total_cmp(&order(b)).then(a.cmp(&b)));
            members
        })
        .filter(|c| !c.is_empty())
        .collect();
    today.sort_by(|a, b| order(a[0]).total_cmp(&order(b[0])));
    let spreads: Vec<f64> = today
        .iter()
        .map(|c| order(c[c.len() - 1]) - order(c[0]))
        .collect();
    let units = if in_pawns { "pawns" } else { "Elo" };
    let letters = |classes: &[Vec<usize>]| -> Vec<Vec<String>> {
        classes
            .iter()
            .map(|c| {
                c.iter()
                    .map(|&i| exp.variant.letter(plan[i]).to_string())
                    .collect()
            })
            .collect()
    };
    let today_table = ScaleTable {
        classes: letters(&today),
        largest_spread: spreads.iter().copied().fold(0.0, f64::max),
        spreads,
        units: units.to_owned(),
        stability: minimax_agreement(fit, &today, &options).unwrap_or(f64::NAN),
        draws: options.draws,
    };
    let letter = |i: usize| exp.variant.letter(plan[i]).to_string();
    let table = |t: ClassTable| scale_table(t, &letter);
    let mut notes = Vec::new();
    let best = match partition(fit, today.len(), &options) {
        Ok(t) => Some(table(t)),
        Err(e) => {
            notes.push(format!(
                "no table with the variant's {} classes: {e}",
                today.len()
            ));
            None
        }
    };
    let fewest = if in_pawns {
        match partition_within(fit, WITHIN_PAWNS, WithinClass::Estimates, &options) {
            Ok(t) => Some(table(t)),
            Err(e) => {
                notes.push(format!("no table within {WITHIN_PAWNS} pawns: {e}"));
                None
            }
        }
    } else {
        notes.push(
            "the pawn's value is not yet shown positive, so no figure in pawns is known: tables \
             are cut in Elo, and the fewest classes within a quarter pawn are not yet known"
                .to_owned(),
        );
        None
    };
    Tables {
        today: today_table,
        best,
        fewest,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
    }
}

/// A table of the fit, its pieces by letter.
fn scale_table(t: ClassTable, letter: &dyn Fn(usize) -> String) -> ScaleTable {
    ScaleTable {
        classes: t
            .classes
            .iter()
            .map(|c| c.iter().map(|&i| letter(i)).collect())
            .collect(),
        spreads: t.spreads,
        largest_spread: t.largest_spread,
        units: match t.units {
            ScaleUnits::Pawns => "pawns",
            ScaleUnits::Elo => "Elo",
        }
        .to_owned(),
        stability: t.stability,
        draws: t.draws,
    }
}

/// The design's stages and state in words, or why the log is off design.
fn design_state(study: &ScaleStudy, scores: &PairScores) -> ScaleDesign {
    let stop = study.stop();
    let settings = format!(
        "The value-scale design: a warm-up of {} pairs for every matchup, then stages of up to {} \
         blocks of {} pairs planned from the fit so far, each block to the matchup that most \
         narrows the widest interval above its target; up to {} pairs per matchup{}{}.",
        stop.allocation.warmup_pairs,
        stop.allocation.blocks,
        stop.allocation.block_pairs,
        stop.allocation.max_pairs,
        if stop.allocation.unit_max_pairs > stop.allocation.max_pairs {
            format!(" ({} for the pawn's)", stop.allocation.unit_max_pairs)
        } else {
            String::new()
        },
        stop.budget_games
            .map(|b| format!(", {b} games in all"))
            .unwrap_or_default()
    );
    match study.replay(scores) {
        Ok(history) => {
            let state = match (&history.next, history.end) {
                (Some(next), _) => format!(
                    "{} stages complete ({} games); stage {} is next.",
                    history.stages_done, history.games, next.number
                ),
                (None, end) => format!(
                    "The study is over after {} stages ({} games): {}.",
                    history.stages_done,
                    history.games,
                    end.unwrap_or(ScaleEnd::Stalled).describe()
                ),
            };
            ScaleDesign {
                stages_done: history.stages_done,
                games: history.games,
                next_stage: history.next.map(|s| s.number),
                text: format!("{settings} {state}"),
                off_design: None,
            }
        }
        Err(problem) => ScaleDesign {
            stages_done: 0,
            games: 0,
            next_stage: None,
            text: settings,
            off_design: Some(problem),
        },
    }
}

/// Which table a proposed variant file holds.
#[derive(Clone, Copy)]
enum Proposal<'a> {
    /// The best with the variant's number of classes.
    Best,
    /// The fewest classes that can still hold with these verdicts.
    Holdable(&'a ScaleKnown),
}

/// A table as a variant file that inherits the variant and sets its
/// `classes`, when the scale holds every piece of the variant's classes;
/// otherwise why not.
fn proposed_variant(
    exp: &Experiment,
    best: &ScaleTable,
    proposal: Proposal,
    confirmation: &str,
) -> (Option<String>, Option<String>) {
    let variant = &exp.variant;
    let Some(plan) = exp.scale.as_ref() else {
        return (None, None);
    };
    let missing: Vec<String> = variant
        .classes
        .iter()
        .flatten()
        .filter(|t| !plan.pieces.contains(t))
        .map(|&t| variant.letter(t).to_string())
        .collect();
    if !missing.is_empty() {
        return (
            None,
            Some(format!(
                "no proposed variant file: pieces of the variant's classes are not on the scale ({})",
                missing.join(", ")
            )),
        );
    }
    let on_today: Vec<String> = variant
        .classes
        .iter()
        .flatten()
        .map(|&t| variant.letter(t).to_string())
        .collect();
    let classes: Vec<String> = best
        .classes
        .iter()
        .map(|c| {
            c.iter()
                .filter(|l| on_today.contains(l))
                .cloned()
                .collect::<String>()
        })
        .filter(|c| !c.is_empty())
        .collect();
    if classes.iter().map(String::len).sum::<usize>() != on_today.len() {
        return (
            None,
            Some(
                "no proposed variant file: a piece of the variant's classes has no value yet"
                    .into(),
            ),
        );
    }
    // A shipped variant by name; a variant file by its absolute path, so
    // the proposal resolves wherever the report folder is.
    let inherits = if builtin::text(&exp.variant_label).is_some() {
        exp.variant_label.clone()
    } else {
        exp.dir.join(&exp.variant_label).display().to_string()
    };
    let quoted: Vec<String> = classes.iter().map(|c| format!("\"{c}\"")).collect();
    let k = classes.len();
    let (why, described) = match proposal {
        Proposal::Best => (
            format!(
                "# {variant_name} with the class table the value scale of experiment {experiment} \
                 supports best\n\
                 # with {k} classes (the variant's number): every rule and piece of {variant_name}, \
                 the classes\n\
                 # cut where the largest spread of values within a class is smallest",
                variant_name = variant.name,
                experiment = exp.name,
            ),
            format!("the {k}-class table its value scale supports best"),
        ),
        Proposal::Holdable(known) => (
            format!(
                "# {variant_name} with the fewest classes ({k}) that can hold by the value scale of\n\
                 # experiment {experiment} and the class verdicts of {sources}: no class puts together\n\
                 # two pieces the scale shows more than {margin} pawns apart or a class study found\n\
                 # different, and every other pair of a class is within {margin} pawns by the values\n\
                 # or found equivalent; every rule and piece of {variant_name}, the classes cut where\n\
                 # the largest spread of values within a class is smallest among such tables",
                variant_name = variant.name,
                experiment = exp.name,
                sources = known.sources.join(", "),
                margin = WITHIN_PAWNS,
            ),
            format!("the fewest classes ({k}) that can hold by its value scale and class verdicts"),
        ),
    };
    let confirm = match proposal {
        Proposal::Holdable(known) if known.unconfirmed.is_empty() => {
            "\n# Every pair within its classes was found equivalent by a class study:\n\
             # nothing is left to confirm."
                .to_owned()
        }
        _ => format!(" To confirm it:\n#   {confirmation}"),
    };
    let text = format!(
        "{why} ({spread:.2} {units};\n\
         # the same table in {stability:.0}% of bootstrap draws of the values).{confirm}\n\
         name = \"{variant_name}-proposed\"\n\
         inherits = {inherits:?}\n\
         description = \"{variant_name} with {described}\"\n\
         classes = [{classes}]\n",
        variant_name = variant.name,
        spread = best.largest_spread,
        units = best.units,
        stability = best.stability * 100.0,
        classes = quoted.join(", "),
    );
    (Some(text), None)
}

/// The file name of the proposed class table, beside the report.
pub const PROPOSED_CLASSES: &str = "proposed-classes.toml";

/// `pocketlab study proposed-classes.toml --new-pairs` with the scale's
/// player: its
/// nodes and its evaluation (a file, or `builtin`), files named from the
/// working directory as the report's other commands are (the proposed
/// file in `out_dir`, the report's folder, when it is known). A proposed
/// variant has a name of its own, so it would not play its parent's
/// shipped evaluation by default: a scale played with one names the
/// shipped file beside the experiment's folder (`configs/eval/`), where
/// the lab keeps it.
fn confirmation_command(exp: &Experiment, out_dir: Option<&Path>) -> String {
    let cwd = std::env::current_dir().ok();
    let named = |path: &Path| {
        cwd.as_deref()
            .and_then(|cwd| relative_path(cwd, path).ok())
            .or_else(|| path.canonicalize().ok())
    };
    let proposed = out_dir
        .and_then(named)
        .map_or_else(|| PROPOSED_CLASSES.into(), |d| d.join(PROPOSED_CLASSES));
    // The pairs already within one class of today's table keep the
    // verdicts of the variant's own class study: only the new ones play.
    let mut command = format!("pocketlab study {} --new-pairs", proposed.display());
    let Some(engine) = exp.armies.first().map(|a| &a.engine) else {
        return command;
    };
    if let Some(nodes) = engine.nodes {
        command.push_str(&format!(" --nodes {nodes}"));
    }
    let label = engine.eval_label.as_str();
    let file = match label.strip_prefix(SHIPPED_EVAL_LABEL) {
        _ if label == BUILTIN_EVAL || label == DEFAULT_EVAL_LABEL => {
            command.push_str(&format!(" --eval {BUILTIN_EVAL}"));
            return command;
        }
        Some(shipped) => exp.dir.join("../eval").join(shipped),
        None => exp.dir.join(label),
    };
    if let Some(path) = named(&file) {
        command.push_str(&format!(" --eval {}", path.display()));
    }
    command
}

/// How many departing matchups a report names and shows games of.
const DEPARTING_SHOWN: usize = 3;

/// The matchups with the largest Pearson residuals in size, the largest
/// first (ties to the lower index).
fn departing(exp: &Experiment, plan: &ScalePlan, fit: &ScaleFit) -> Vec<ScaleDeparture> {
    let mut all: Vec<ScaleDeparture> = plan
        .matchups
        .iter()
        .zip(&fit.matchups)
        .filter_map(|(&(m, ..), e)| {
            let residual = e.as_ref()?.standardized_residual?;
            Some(ScaleDeparture {
                matchup: m,
                name: exp.matchups[m].name.clone(),
                residual,
            })
        })
        .collect();
    all.sort_by(|x, y| {
        y.residual
            .abs()
            .total_cmp(&x.residual.abs())
            .then(x.matchup.cmp(&y.matchup))
    });
    all.truncate(DEPARTING_SHOWN);
    all
}
