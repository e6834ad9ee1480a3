//! Game balance as the published variant studies report it: first-move
//! advantage, draws, how games end, how long they last, how many moves a
//! player typically has to choose from.

use super::super::super::model::Report;
use super::super::derived::{LENGTHS, TERMINATIONS};
use super::super::doc::{Align, Doc, Table};
use super::super::format::{NA, count, fixed, percent, percent_estimate, score_to_elo, signed};
use super::BALANCE;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    let b = &report.balance;
    doc.heading(2, BALANCE);
    let mut table = Table::new(&[("Measure", Align::Left), ("Value", Align::Left)]);
    table.push(vec!["Games".into(), count(b.games)]);
    let first_move = if b.games == 0 || !b.white_score.is_finite() {
        NA.to_owned()
    } else {
        format!(
            "White scores {}, about {} Elo for moving first",
            percent_estimate(b.white_score, b.white_score_interval),
            signed(score_to_elo(b.white_score), 0)
        )
    };
    table.push(vec!["First-move advantage".into(), first_move]);
    table.push(vec![
        "Draw rate".into(),
        if b.games == 0 {
            NA.into()
        } else {
            percent(b.draw_rate, 1)
        },
    ]);
    table.push(vec![
        "Decisive games".into(),
        if b.games == 0 {
            NA.into()
        } else {
            percent(b.decisive_rate, 1)
        },
    ]);
    let l = &b.length;
    let length = if b.games == 0 || !l.mean.is_finite() {
        NA.to_owned()
    } else {
        format!(
            "mean {} plies, median {}; 80% of games last {} to {} plies (a ply is one player's move)",
            fixed(l.mean, 1),
            fixed(l.median, 0),
            fixed(l.p10, 0),
            fixed(l.p90, 0)
        )
    };
    table.push(vec!["Game length".into(), length]);
    let branching = match b.branching_factor {
        Some(f) if f.is_finite() => {
            format!(
                "{} legal moves per position (mean over {} positions)",
                fixed(f, 1),
                count(b.branching_sample)
            )
        }
        _ => "not measured".to_owned(),
    };
    table.push(vec!["Branching factor".into(), branching]);
    if b.search_depth.is_empty() {
        table.push(vec!["Search depth".into(), "not logged".into()]);
    }
    // One row per engine setting, named by its armies when there are several.
    let several = b.search_depth.len() > 1;
    for d in &b.search_depth {
        let label = if several {
            format!("Search depth, {}", d.armies.join(" / "))
        } else {
            "Search depth".to_owned()
        };
        table.push(vec![
            label,
            format!(
                "median {} plies, mean {}; {} nodes a move on average (the depth each search completed, over {} searched moves)",
                fixed(d.median, if d.median.fract() == 0.0 { 0 } else { 1 }),
                fixed(d.mean, 1),
                count(d.mean_nodes.round() as u64),
                count(d.moves)
            ),
        ]);
    }
    doc.table(table);

    doc.heading(4, "How games ended");
    if b.terminations.is_empty() {
        doc.paragraph("No finished games were logged.");
    } else {
        let total: u64 = b.terminations.iter().map(|(_, n)| *n).sum();
        let mut table = Table::new(&[
            ("Ending", Align::Left),
            ("Games", Align::Right),
            ("Share", Align::Right),
        ]);
        for (name, n) in &b.terminations {
            let share = if total == 0 {
                f64::NAN
            } else {
                *n as f64 / total as f64
            };
            table.push(vec![name.clone(), count(*n), percent(share, 1)]);
        }
        doc.table(table);
        doc.figure(TERMINATIONS, "");
    }

    doc.heading(4, "Game length");
    doc.figure(LENGTHS, "");
}
