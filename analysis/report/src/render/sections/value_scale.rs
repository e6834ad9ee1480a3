//! Every piece on one value scale: each piece's value in pawns and in Elo
//! against the empty square, the gaps between neighbours, whether the
//! matchups agree with one scale, the class tables the values support
//! beside the variant's, and where the design stands.

use super::super::super::model::{
    PublishedAgreement, Report, ScaleDistinct, ScaleKnown, ScaleTable, ValueScale,
};
use super::super::derived::{VALUE_SCALE, piece_label};
use super::super::doc::{Align, Block, Doc, Table, Tone};
use super::super::format::{count, estimate, estimate_at, fixed, percent, signed, value_interval};

pub(super) const HEADING: &str = "Every piece on one value scale";

/// The share of bootstrap draws that must give the best table before the
/// report says the values support it.
const SETTLED_STABILITY: f64 = 0.8;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    let Some(scale) = &report.value_scale else {
        return;
    };
    doc.heading(2, HEADING);
    doc.aside(format!(
        "Each piece stands alone on {square} (Black's on the mirror square) in colour-swapped pairs of \
         games against its neighbours on the scale; the lowest pieces also play against the empty square, \
         and the whole army against itself a pawn down gives the unit. One weighted least-squares fit over \
         every matchup values each piece in Elo against the empty square (0 by definition); a value in \
         pawns is that over the pawn's value, with Fieller's 95% interval, which carries the unit's \
         uncertainty. Intervals are fixed-sample intervals at 95%.",
        square = scale.square
    ));
    doc.table(piece_table(scale));
    doc.heading(4, "Neighbours on the scale");
    doc.table(adjacent_table(scale));
    doc.paragraph(consistency(scale));
    doc.heading(4, "Class tables");
    doc.paragraph(format!(
        "Today's table is the variant's classes placed on the scale; beside it, the table with as many \
         classes whose largest spread of values within a class is smallest, and the fewest classes whose \
         members' estimates are all within {} pawns. Stability is the share of {} bootstrap draws of the \
         values (from the fit's estimates and covariance) that give the same table; for today's table, \
         the share in which the best table with as many classes is today's.",
        fixed(scale.within_pawns, 2),
        count(scale.today.draws as u64)
    ));
    doc.table(class_tables(scale));
    if let Some(note) = &scale.table_note {
        doc.aside(format!("Not shown: {note}."));
    }
    if let Some(distinct) = &scale.distinct {
        doc.paragraph(distinct_text(distinct));
    }
    if let Some(known) = &scale.known {
        doc.paragraph(known_text(known, scale.today.classes.len()));
    }
    // A confirmation command exactly when a proposed variant file is written.
    match (&scale.confirmation, &scale.proposal_note) {
        (Some(_), _)
            if scale
                .known
                .as_ref()
                .is_some_and(|k| k.unconfirmed.is_empty()) =>
        {
            doc.paragraph(
                "The table that can still hold with the fewest classes is written beside this report as \
                 proposed-classes.toml, a variant file that inherits the variant and sets its classes. \
                 Every pair within its classes already has a class study's verdict of equivalence: no \
                 confirmation is left to play.",
            );
        }
        (Some(command), _) => {
            let which = if scale.known.is_some() {
                "The table that can still hold with the fewest classes"
            } else {
                "The best table"
            };
            doc.paragraph(format!(
                "{which} is written beside this report as proposed-classes.toml, a variant file \
                 that inherits the variant and sets its classes; this plays, with the scale's player, the \
                 class study of its new within-class pairs (those already within one class today keep the \
                 verdicts of the variant's own class study), which with those verdicts confirms it or not:",
            ));
            doc.push(Block::Code(command.clone()));
        }
        (None, Some(note)) => doc.aside(format!("{note}.")),
        (None, None) => {}
    }
    doc.heading(4, "Precision targets");
    if let Some(design) = &scale.design {
        doc.paragraph(design.text.clone());
        if let Some(problem) = &design.off_design {
            doc.aside(format!(
                "The log holds pairs the design never planned ({problem}); the values above use every \
                 logged pair, but the design's stages are not known."
            ));
        }
    }
    doc.table(target_table(scale));
    if scale.targets.iter().any(|t| !t.floor.is_nan()) {
        doc.aside(
            "Floor: the half-width that would be left were every matchup played without end, its \
             sampling error gone and its departure from one scale left (at the departures' estimate). A \
             target is out of reach when even at the lower end of the departures' 95% interval its \
             floor is above its goal: more pairs of these matchups cannot meet it, more kinds of \
             matchup (other neighbours or squares) would lower the floor.",
        );
    }
    if !scale.published.is_empty() {
        doc.heading(4, "Beside published values");
        doc.aside(
            "Values others published for pieces with the same moves, beside the scale's with its 95% \
             interval, in pawns. They come from other games, boards and players (a compound against the \
             queen carries over between games better than an absolute value), so they are sanity checks, \
             not truths.",
        );
        doc.table(published_table(scale));
    }
}

fn published_table(scale: &ValueScale) -> Table {
    let mut table = Table::new(&[
        ("Piece", Align::Left),
        ("Source", Align::Left),
        ("Published", Align::Right),
        ("Scale (95% CI)", Align::Right),
        ("Agreement", Align::Left),
    ]);
    for p in &scale.published {
        let (tone, agreement) = match p.agreement {
            PublishedAgreement::Within => (Tone::Good, "within the interval"),
            PublishedAgreement::LabLower => (Tone::Bad, "outside: the scale finds less"),
            PublishedAgreement::LabHigher => (Tone::Bad, "outside: the scale finds more"),
            PublishedAgreement::Unbounded | PublishedAgreement::NotMeasured => {
                (Tone::Unsure, "no pawn figure yet")
            }
        };
        let lab = if p.lab_pawns.is_nan() {
            "not yet known".to_owned()
        } else if p.difference {
            estimate(p.lab_pawns, (p.lab_lo, p.lab_hi), 2)
        } else {
            value_interval(p.lab_pawns, (p.lab_lo, p.lab_hi), 2)
        };
        table.push_toned(
            vec![
                p.what.clone(),
                p.source.clone(),
                if p.difference {
                    signed(p.published_pawns, 2)
                } else {
                    fixed(p.published_pawns, 2)
                },
                lab,
                agreement.to_owned(),
            ],
            tone,
        );
    }
    table
}

/// A value scale's verdict, the first thing its report says: how many
/// pieces are valued, the unit, the targets met, and the picture of every
/// piece on one axis.
pub(super) fn verdict(doc: &mut Doc, scale: &ValueScale) {
    doc.paragraph(summary(scale));
    doc.figure(
        VALUE_SCALE,
        "Every piece on one axis with its 95% interval, coloured by its class in the variant's table today.",
    );
}

/// What a designer can do with the scale: the table the values support,
/// if one differs from today's, and the command that confirms it.
pub(super) fn advice(scale: &ValueScale) -> Option<String> {
    if let Some(known) = &scale.known {
        return Some(known_advice(scale, known));
    }
    let best = scale.best.as_ref()?;
    // Too few classes for the pieces that differ: the table cannot hold,
    // whatever its cuts; the best table is then the nearest, not a fix.
    if let Some(d) = scale
        .distinct
        .as_ref()
        .filter(|d| d.classes_needed > d.classes_today)
    {
        return Some(format!(
            "No table with {k} classes, as many as today's, can hold for this player: {apart} pairs of pieces differ by more \
             than {margin} pawns beyond chance, and a table that keeps every such pair apart needs at \
             least {m} classes. The nearest with {k} classes, {table}, still puts pieces {spread} apart \
             in one class.",
            k = d.classes_today,
            m = d.classes_needed,
            apart = count(d.pairs_apart as u64),
            margin = fixed(d.margin_pawns, 2),
            table = classes_text(best),
            spread = spread_text(best),
        ));
    }
    if best.classes == scale.today.classes {
        return Some(format!(
            "Keep today's table ({}): no table of {} classes has a smaller largest spread.",
            classes_text(&scale.today),
            best.classes.len()
        ));
    }
    let (table, spread, today) = (
        classes_text(best),
        spread_text(best),
        spread_text(&scale.today),
    );
    let stability = percent(best.stability, 0);
    if best.stability.is_nan() || best.stability < SETTLED_STABILITY {
        let remedy = if scale.targets.iter().any(|t| t.out_of_reach) {
            "the matchups' departures from one scale keep it unsettled however many pairs of these \
             matchups are played; more kinds of matchup (other neighbours, other squares) could settle it"
        } else {
            "more pairs will settle it"
        };
        return Some(format!(
            "No class table is settled yet: the best with {} classes so far, {table} (largest spread \
             {spread}, against {today} today), comes out in only {stability} of bootstrap draws of the \
             values; {remedy}.",
            best.classes.len()
        ));
    }
    let confirm = match &scale.confirmation {
        Some(command) => format!(
            " It is written as proposed-classes.toml beside this report, and {command} plays the \
             class study of its new within-class pairs."
        ),
        None => String::new(),
    };
    Some(format!(
        "The values support the table {table} (largest spread {spread}, against {today} today; the same \
         table in {stability} of bootstrap draws).{confirm}"
    ))
}

/// What to change when class studies' verdicts are known: whether a table
/// with today's number of classes can hold, and the table that can.
fn known_advice(scale: &ValueScale, k: &ScaleKnown) -> String {
    let today = scale.today.classes.len();
    let (apart, margin) = scale
        .distinct
        .as_ref()
        .map_or((0, scale.within_pawns), |d| (d.pairs_apart, d.margin_pawns));
    let reason = format!(
        "{} pairs differ by more than {} pawns beyond chance on the scale and {} more were found \
         different by {}",
        count(apart as u64),
        fixed(margin, 2),
        count(k.pairs_added as u64),
        studies(&k.sources)
    );
    let head = if k.classes_needed > today {
        format!(
            "No table with {today} classes, as many as today's, can hold for this player: {reason}, and \
             a table that keeps every such pair apart needs at least {} classes.",
            k.classes_needed
        )
    } else {
        format!(
            "A table with {today} classes is not ruled out: {reason}, and a table that keeps every such \
             pair apart needs at least {} classes.",
            k.classes_needed
        )
    };
    let Some(table) = &k.table else {
        return head;
    };
    let confirm = match &scale.confirmation {
        Some(_) if k.unconfirmed.is_empty() => format!(
            " It is written as proposed-classes.toml beside this report; every pair within its classes \
             ({}) was found equivalent by a class study, so it holds on the games already played, with \
             nothing left to confirm.",
            table
                .within_class_pairs()
                .map(|(a, b)| format!("{a}–{b}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Some(command) => format!(
            " It is written as proposed-classes.toml beside this report, and {command} plays the class \
             study of its new within-class pairs."
        ),
        None => String::new(),
    };
    format!(
        "{head} The table with the fewest classes that can still hold, every pair of a class within the \
         margin by the estimates or found equivalent, is {} ({} classes, largest spread {}, the same \
         table in {} of bootstrap draws).{confirm}",
        classes_text(table),
        table.classes.len(),
        spread_text(table),
        percent(table.stability, 0)
    )
}

/// The least number of classes a table that holds needs, and why.
fn distinct_text(d: &ScaleDistinct) -> String {
    let (k, m) = (d.classes_today, d.classes_needed);
    let verdict = if m > k {
        format!("no table with today's {k} classes can hold")
    } else {
        format!("this bound does not rule out today's {k} classes")
    };
    format!(
        "A table that holds needs at least {m} classes: {} of the {} pairs of valued pieces differ by more \
         than the margin ({} pawns) beyond chance (each pair tested at both ends of the margin, the unit's \
         error carried, Holm across all pairs at {}), two such pieces cannot share a class, and no table \
         with fewer classes keeps every such pair apart ({} alone differ pairwise); {verdict}.",
        count(d.pairs_apart as u64),
        count(d.pairs_tested as u64),
        fixed(d.margin_pawns, 2),
        percent(d.alpha, 0),
        d.pieces.join(", "),
    )
}

/// `the class study a` or `the class studies a, b`.
fn studies(names: &[String]) -> String {
    match names {
        [one] => format!("the class study {one}"),
        _ => format!("the class studies {}", names.join(", ")),
    }
}

/// The bound with class studies' verdicts, and the table that can hold.
fn known_text(k: &ScaleKnown, classes_today: usize) -> String {
    let m = k.classes_needed;
    let verdict = if m > classes_today {
        format!(
            "so no table with today's {classes_today} classes can hold: every one puts together two \
             such pieces"
        )
    } else {
        format!("which does not rule out today's {classes_today} classes")
    };
    let table = match &k.table {
        Some(t) => format!(
            " The table with the fewest contiguous classes that keeps every such pair apart, every other \
             pair of a class within the margin by the estimates or found equivalent, is {} ({} classes, \
             largest spread {}, the same table in {} of bootstrap draws).",
            classes_text(t),
            t.classes.len(),
            spread_text(t),
            percent(t.stability, 0)
        ),
        None => String::new(),
    };
    format!(
        "With the verdicts of {sources} taken as known ({different} found different: \
         {list}; {equivalent} equivalent), a pair found different cannot share a class either: \
         {added} of them are pairs the scale alone does not show beyond the margin, and a table that \
         holds then needs at least {m} classes ({pieces} pairwise kept apart), {verdict}.{table}",
        sources = studies(&k.sources),
        different = count(k.different.len() as u64),
        list = if k.different.is_empty() {
            "none".to_owned()
        } else {
            k.different.join(", ")
        },
        equivalent = count(k.equivalent.len() as u64),
        added = count(k.pairs_added as u64),
        pieces = k.pieces.join(", "),
    )
}

/// A class table as `NB | RXI | …`, each class's letters from the lowest
/// value up.
fn classes_text(t: &ScaleTable) -> String {
    t.classes
        .iter()
        .map(|c| c.concat())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// A table's largest within-class spread with its unit: `0.42 pawns`,
/// `88 Elo`.
fn spread_text(t: &ScaleTable) -> String {
    let decimals = if t.units == "Elo" { 0 } else { 2 };
    format!("{} {}", fixed(t.largest_spread, decimals), t.units)
}

/// The section in two sentences: how many pieces are valued, the unit.
fn summary(scale: &ValueScale) -> String {
    let valued = scale.pieces.iter().filter(|p| p.missing.is_none()).count();
    let unit = match &scale.unit {
        Some(u) if u.shown_positive => format!(
            "One pawn is worth {} Elo (95% interval {} to {}), known to ±{} of its value.",
            fixed(u.elo, 0),
            fixed(u.elo_lo, 0),
            fixed(u.elo_hi, 0),
            percent(u.relative_precision, 1)
        ),
        Some(u) => format!(
            "The pawn's value ({} Elo, 95% interval {} to {}) is not yet shown positive, so no value in \
             pawns is known yet: the values are given in Elo.",
            fixed(u.elo, 0),
            fixed(u.elo_lo, 0),
            fixed(u.elo_hi, 0)
        ),
        None => {
            "The pawn has no value yet, so no value in pawns is known: the values are given in Elo."
                .to_owned()
        }
    };
    let met = scale.targets.iter().filter(|t| t.met).count();
    let out_of_reach = scale.targets.iter().filter(|t| t.out_of_reach).count();
    let reach = if out_of_reach > 0 {
        format!(
            "; {out_of_reach} are out of reach: with 95% confidence the matchups' departures from one \
             scale leave them wider than their goals however many pairs are played"
        )
    } else {
        String::new()
    };
    format!(
        "{valued} of {} pieces have a value on the scale. {unit} {met} of {} precision targets are \
         met{reach}.",
        scale.pieces.len(),
        scale.targets.len()
    )
}

fn piece_table(scale: &ValueScale) -> Table {
    let mut table = Table::new(&[
        ("Piece", Align::Left),
        ("Class today", Align::Right),
        ("Pawns (95% interval)", Align::Right),
        ("Elo vs empty square (95% interval)", Align::Right),
        ("Pairs", Align::Right),
    ]);
    for p in &scale.pieces {
        let pawns = match &p.missing {
            Some(_) => "no value".to_owned(),
            None if p.pawns.is_finite() => value_interval(p.pawns, (p.pawns_lo, p.pawns_hi), 2),
            None => "not yet known".to_owned(),
        };
        let elo = match &p.missing {
            Some(why) => why.clone(),
            None => value_interval(p.elo, (p.elo_lo, p.elo_hi), 0),
        };
        table.push(vec![
            piece_label(&p.letter, &p.name),
            p.class.map_or_else(String::new, |c| c.to_string()),
            pawns,
            elo,
            count(p.pairs),
        ]);
    }
    table
}

fn adjacent_table(scale: &ValueScale) -> Table {
    let mut table = Table::new(&[
        ("Lower", Align::Left),
        ("Next up", Align::Left),
        ("Difference, pawns", Align::Right),
        ("Difference, Elo", Align::Right),
    ]);
    for a in &scale.adjacent {
        table.push(vec![
            a.lower.clone(),
            a.upper.clone(),
            estimate_at(a.pawns, (a.pawns_lo, a.pawns_hi), 2, 0.95),
            estimate_at(a.elo, (a.elo_lo, a.elo_hi), 0, 0.95),
        ]);
    }
    table
}

fn consistency(scale: &ValueScale) -> String {
    let Some(c) = &scale.consistency else {
        return "With no more matchups than values, the fit cannot check whether the matchups agree with \
                one scale."
            .to_owned();
    };
    let test = format!(
        "Do the matchups agree with one additive scale? Pearson's chi-square of the fit is {} on {} \
         degrees of freedom (p = {}): {}",
        fixed(c.chi_square, 1),
        c.degrees_of_freedom,
        fixed(c.p_value, 3),
        if c.p_value < 0.05 {
            "some substitution is not worth the difference of its two values (a piece whose worth \
             depends on its neighbours or the square)."
        } else {
            "no departure from one scale is shown."
        }
    );
    let test = if c.departing.is_empty() {
        test
    } else {
        format!(
            "{test} Largest Pearson residuals (standard errors): {}; their games are under Games to \
             look at.",
            c.departing
                .iter()
                .map(|d| format!("{} {}", d.name, signed(d.residual, 1)))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    if c.departure > 0.0 {
        format!(
            "{test} The fit puts a matchup's departure from the difference of its two values at \
             ±{} Elo (one standard deviation, Paule–Mandel), and every interval in this report carries \
             it (the pawn odds, which define the unit, excepted): more pairs of the same matchups \
             narrow an interval only down to what the departures allow, more matchups of other \
             neighbours further.",
            fixed(c.departure, 0)
        )
    } else {
        format!("{test} The intervals are those of one additive scale.")
    }
}

fn class_tables(scale: &ValueScale) -> Table {
    let mut table = Table::new(&[
        ("Table", Align::Left),
        ("Classes", Align::Left),
        ("Largest spread", Align::Right),
        ("Stability", Align::Right),
    ]);
    let mut row = |name: String, t: &ScaleTable| {
        table.push(vec![
            name,
            classes_text(t),
            spread_text(t),
            percent(t.stability, 0),
        ]);
    };
    row(
        format!("Today ({} classes)", scale.today.classes.len()),
        &scale.today,
    );
    if let Some(best) = &scale.best {
        row(format!("Best with {} classes", best.classes.len()), best);
    }
    if let Some(fewest) = &scale.fewest {
        row(
            format!(
                "Fewest within {} pawns ({} classes)",
                fixed(scale.within_pawns, 2),
                fewest.classes.len()
            ),
            fewest,
        );
    }
    if let Some(holdable) = scale.known.as_ref().and_then(|k| k.table.as_ref()) {
        row(
            format!(
                "Fewest that can hold, with the class verdicts, within {} pawns ({} classes)",
                fixed(scale.within_pawns, 2),
                holdable.classes.len()
            ),
            holdable,
        );
    }
    table
}

fn target_table(scale: &ValueScale) -> Table {
    let mut table = Table::new(&[
        ("Target", Align::Left),
        ("Half-width now", Align::Right),
        ("Goal", Align::Right),
        ("Floor", Align::Right),
        ("Met", Align::Left),
    ]);
    table.badge_column = Some(4);
    for t in &scale.targets {
        let show = |x: f64| {
            if !x.is_finite() {
                "unbounded".to_owned()
            } else if t.relative {
                format!("±{}", percent(x, 1))
            } else {
                format!("±{} pawns", fixed(x, 2))
            }
        };
        let (tone, word) = if t.met {
            (Tone::Good, "met")
        } else if t.settled {
            (Tone::Bad, "out of reach, settled at its floor")
        } else if t.out_of_reach {
            (Tone::Bad, "out of reach")
        } else {
            (Tone::Unsure, "not yet")
        };
        let floor = if t.floor.is_nan() {
            "none".to_owned()
        } else {
            show(t.floor)
        };
        table.push_toned(
            vec![
                t.label.clone(),
                show(t.half_width),
                show(t.goal),
                floor,
                word.to_owned(),
            ],
            tone,
        );
    }
    table
}
