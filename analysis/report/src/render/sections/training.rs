//! What self-play training learned, when the report belongs to a training
//! run: learned values next to the class table, the classes the values
//! suggest, how the values converged, and published values for the
//! orthodox pieces as a sanity check.

use super::super::super::model::{ProposedTable, Report, TrainingSummary, VerdictKind};
use super::super::derived::{TRAINING_CONVERGENCE, TRAINING_VALUES, piece_label};
use super::super::doc::{Align, Block, Doc, Table};
use super::super::format::counted;
use super::super::format::{NA, count, estimate, fixed, signed, value_interval};
use super::TRAINING;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    let Some(t) = &report.training else { return };
    doc.heading(2, TRAINING);
    doc.paragraph(overview(t));
    if let Some(v) = &t.validation {
        let text = if v.text.trim().is_empty() {
            format!(
                "Validation match, trained against starting values: {} Elo over {}.",
                estimate(v.elo, v.elo_interval, 0),
                count(v.games)
            )
        } else {
            v.text.clone()
        };
        doc.paragraph(text);
    }
    let findings: Vec<String> = t
        .findings
        .iter()
        .filter(|f| !f.trim().is_empty())
        .cloned()
        .collect();
    if findings.is_empty() {
        doc.paragraph("No piece stands out: every learned value sits with its own class.");
    } else {
        doc.push(Block::List(findings));
    }

    doc.heading(4, "Learned values");
    if t.pieces.is_empty() {
        doc.paragraph("Training produced no values.");
    } else {
        doc.table(values_table(t));
        doc.figure(TRAINING_VALUES, "");
    }

    doc.heading(4, "Classes the learned values suggest");
    if t.suggested_classes.is_empty() {
        doc.paragraph("No suggestion: no learned value is known.");
    } else {
        doc.aside(
            "Pieces sorted by learned value and grouped while their 95% intervals overlap: within a group, training \
             cannot tell the values apart. Compare with the class table the variant uses.",
        );
        let mut table = Table::new(&[("Suggested class", Align::Right), ("Pieces", Align::Left)]);
        for (i, class) in t.suggested_classes.iter().enumerate() {
            let names: Vec<String> = class.iter().map(|letter| label(t, letter)).collect();
            let rank = if i == 0 {
                "1 (lowest)".to_owned()
            } else {
                (i + 1).to_string()
            };
            table.push(vec![rank, names.join(", ")]);
        }
        doc.table(table);
    }

    doc.heading(4, "Convergence");
    doc.figure(TRAINING_CONVERGENCE, "");

    if !t.published.is_empty() {
        doc.heading(4, "Compared with published values");
        let mut table = Table::new(&[
            ("Piece", Align::Left),
            ("Learned here", Align::Right),
            ("Kaufman (1999)", Align::Right),
            ("AlphaZero study (2020)", Align::Right),
        ]);
        for p in &t.published {
            table.push(vec![
                label(t, &p.letter),
                fixed(p.learned, 2),
                fixed(p.kaufman_1999, 2),
                fixed(p.alphazero_2020, 2),
            ]);
        }
        doc.table(table);
    }
}

/// `N (knight)` for the piece with `letter`, or the letter alone when
/// training learned no value for it.
fn label(t: &TrainingSummary, letter: &str) -> String {
    let name = t.pieces.iter().find(|p| p.letter == letter);
    piece_label(letter, name.map_or("", |p| p.name.as_str()))
}

fn overview(t: &TrainingSummary) -> String {
    let generations = if t.generations == 1 {
        "1 generation".to_owned()
    } else {
        format!("{} generations", count(t.generations as u64))
    };
    let convergence = if t.converged {
        "and converged (the values stopped moving)"
    } else {
        "and had not converged when it stopped, so the values may still move"
    };
    let mut text = format!(
        "Self-play training tuned the engine's piece values over {generations} {convergence}. Values are in pawns, \
         with 95% intervals."
    );
    if !t.final_params.trim().is_empty() {
        text.push_str(&format!(
            " The learned values are saved in {}.",
            t.final_params.trim()
        ));
    }
    text
}

fn values_table(t: &TrainingSummary) -> Table {
    let mut table = Table::new(&[
        ("Piece", Align::Left),
        ("Class", Align::Right),
        ("Learned value (95% CI)", Align::Right),
        ("In the pocket (95% CI)", Align::Right),
        ("vs class mean: training", Align::Right),
        ("vs class mean: direct matches", Align::Right),
    ]);
    for p in &t.pieces {
        table.push(vec![
            piece_label(&p.letter, &p.name),
            p.class.map_or(NA.to_owned(), |c| c.to_string()),
            value_interval(p.value, p.interval, 2),
            value_interval(p.pocket_value, p.pocket_interval, 2),
            signed(p.learned_relative, 2),
            p.direct_relative
                .map_or("not measured".to_owned(), |d| signed(d, 2)),
        ]);
    }
    table
}

/// The class table the evidence proposes, with the variant-file line for it
/// and the pairs a confirmation run has to play (printed under What to
/// change).
pub(super) fn write_proposal(doc: &mut Doc, t: &TrainingSummary, proposal: &ProposedTable) {
    doc.heading(4, "A class table from the evidence");
    let direct = t.pieces.iter().any(|p| p.direct_relative.is_some());
    doc.aside(if direct {
        "Every piece on one scale: its class's mean learned value (training crosses classes) plus its rating \
         within the class from the direct matches (more precise there; the learned value where no match rated it). \
         The piece nearer a neighbouring class's mean than its own by the most moves there, the means are taken \
         again, and so on until no piece is nearer a neighbour."
    } else {
        "Every piece at its learned value (no direct matches were compared). The piece nearer a neighbouring \
         class's mean than its own by the most moves there, the means are taken again, and so on until no piece is \
         nearer a neighbour."
    });
    let mut table = Table::new(&[
        ("Class", Align::Right),
        ("Pieces (pawns)", Align::Left),
        ("Mean", Align::Right),
        ("Spread", Align::Right),
    ]);
    for class in &proposal.classes {
        let pieces: Vec<String> = class
            .pieces
            .iter()
            .map(|(letter, value)| format!("{} {}", label(t, letter), fixed(*value, 2)))
            .collect();
        table.push(vec![
            class.class.to_string(),
            pieces.join(", "),
            fixed(class.mean, 2),
            fixed(class.spread, 2),
        ]);
    }
    doc.table(table);
    write_measured_pairs(doc, t, proposal);
    if proposal.moves.is_empty() {
        doc.paragraph("No piece is nearer a neighbouring class's mean than its own: the evidence keeps the variant's table.");
        return;
    }
    let moves: Vec<String> = proposal
        .moves
        .iter()
        .map(|m| {
            format!(
                "{} at {} pawns from class {} to class {}",
                piece_label(&m.letter, &m.name),
                fixed(m.value, 2),
                m.from,
                m.to
            )
        })
        .collect();
    doc.paragraph(format!(
        "The evidence moves {}: {}.",
        counted(moves.len() as u64, "piece", "pieces"),
        moves.join("; ")
    ));
    let classes: Vec<String> = proposal
        .classes
        .iter()
        .map(|c| {
            format!(
                "\"{}\"",
                c.pieces.iter().map(|p| p.0.as_str()).collect::<String>()
            )
        })
        .collect();
    doc.paragraph(
        "As a variant file's class table (a variant that inherits this one and sets it):",
    );
    doc.push(Block::Code(format!("classes = [{}]", classes.join(", "))));
    let pairs: Vec<String> = proposal
        .new_pairs
        .iter()
        .map(|(a, b)| format!("{} vs {}", label(t, a), label(t, b)))
        .collect();
    doc.paragraph(format!(
        "Within-class pairs the proposal makes and the variant's table does not ({}), for a confirmation run: {}.",
        counted(pairs.len() as u64, "pair", "pairs"),
        pairs.join(", ")
    ));
}

/// What the compared studies already decided about pairs the proposal
/// keeps in one class: a pair found different cannot hold there.
fn write_measured_pairs(doc: &mut Doc, t: &TrainingSummary, proposal: &ProposedTable) {
    if proposal.measured_pairs.is_empty() {
        return;
    }
    let listed = |kind: VerdictKind| -> Vec<String> {
        proposal
            .measured_pairs
            .iter()
            .filter(|p| p.2 == kind)
            .map(|(a, b, _, pawns)| {
                format!(
                    "{} vs {} ({} pawns per piece)",
                    label(t, a),
                    label(t, b),
                    signed(*pawns, 2)
                )
            })
            .collect()
    };
    let different = listed(VerdictKind::Different);
    let equivalent = listed(VerdictKind::Equivalent);
    let mut text = format!(
        "The compared studies already decided {} of the pairs this table keeps in one class.",
        count(proposal.measured_pairs.len() as u64)
    );
    if !different.is_empty() {
        text.push_str(&format!(
            " Different, so these classes cannot hold as proposed: {}.",
            different.join(", ")
        ));
    }
    if !equivalent.is_empty() {
        text.push_str(&format!(" Equivalent: {}.", equivalent.join(", ")));
    }
    doc.paragraph(text);
}
