//! Renders a [`Comparison`] of two studies the way a report is rendered:
//! one neutral document printed as HTML and Markdown, and a CSV table.

use std::path::{Path, PathBuf};

use super::super::compare::{Comparison, IntervalSource, PairFinding, Shift};
use super::doc::{Align, Doc, Table, Tone};
use super::error::RenderError;
use super::files::create_dir;
use super::format::{count, estimate};
use super::sections::verdict_tone;
use super::{csv, html, markdown};
use crate::files::replace_whole;

/// Where [`write_comparison`] put its files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedComparison {
    pub html: PathBuf,
    pub markdown: PathBuf,
    pub table: PathBuf,
}

/// Write `comparison.html`, `comparison.md` and `comparison.csv` into
/// `out_dir` (created if missing).
pub fn write_comparison(
    cmp: &Comparison,
    out_dir: &Path,
) -> Result<RenderedComparison, RenderError> {
    create_dir(out_dir)?;
    let doc = document(cmp);
    let html_path = out_dir.join("comparison.html");
    replace_whole(&html_path, html::render(&doc, &[]).as_bytes())?;
    let markdown_path = out_dir.join("comparison.md");
    replace_whole(&markdown_path, markdown::render(&doc, &[]).as_bytes())?;
    let table_path = out_dir.join("comparison.csv");
    let bytes = csv::comparison(cmp).map_err(|e| RenderError::Table {
        path: table_path.clone(),
        reason: e.to_string(),
    })?;
    replace_whole(&table_path, &bytes)?;
    Ok(RenderedComparison {
        html: html_path,
        markdown: markdown_path,
        table: table_path,
    })
}

/// The comparison in plain words: one sentence.
pub fn summary(cmp: &Comparison) -> String {
    let untested = cmp.count(Shift::Untested);
    let mut line = format!(
        "{} vs {}: of {} shared pairs, {} agree and {} moved (95% per pair)",
        cmp.first_label,
        cmp.second_label,
        cmp.pairs.len(),
        cmp.count(Shift::Agree),
        cmp.count(Shift::Moved),
    );
    if untested > 0 {
        line.push_str(&format!(", {untested} untested (a pawn figure unbounded)"));
    }
    let fallbacks = cmp
        .pairs
        .iter()
        .filter(|p| p.shift != Shift::Untested && p.uses(IntervalSource::Matchup))
        .count();
    if fallbacks > 0 {
        line.push_str(&format!(
            " ({fallbacks} of them on a matchup's fixed-sample interval where a verdict's was unbounded, \
             marked †)"
        ));
    }
    let same_verdict = cmp
        .pairs
        .iter()
        .filter(|p| p.first.kind == p.second.kind)
        .count();
    line.push_str(&format!("; {same_verdict} keep their verdict."));
    line
}

fn document(cmp: &Comparison) -> Doc {
    let mut doc = Doc {
        title: format!("Comparison: {} and {}", cmp.first_label, cmp.second_label),
        blocks: Vec::new(),
    };
    doc.heading(2, "Pairs of both studies");
    doc.paragraph(summary(cmp));
    doc.aside(
        "Each study is read on its own (its own pawn unit and verdicts); differences are the first piece minus the \
         second in pawns per piece exchanged, with each study's 95% interval. The change is the second study's \
         figure minus the first's, with an approximate 95% interval from the two intervals' facing halves; it is \
         per pair, so over many pairs about one in twenty 'moved' is expected by chance alone. †: the pair was \
         decided before the pawn unit could bound its verdict's interval, so the figure is the matchup's \
         fixed-sample interval over all its games with the study's final pawn unit; conditional on when the \
         design stopped the pair, it tends to overstate an early-stopped difference.",
    );
    let first = format!("{} (95% CI)", cmp.first_label);
    let second = format!("{} (95% CI)", cmp.second_label);
    let mut table = Table::new(&[
        ("Pair (A vs B)", Align::Left),
        (first.as_str(), Align::Right),
        (second.as_str(), Align::Right),
        ("Change (95% CI)", Align::Right),
        ("Shift", Align::Left),
    ]);
    for p in &cmp.pairs {
        let (tone, shift) = match p.shift {
            Shift::Agree => (Tone::Good, "agree"),
            Shift::Moved => (Tone::Bad, "moved"),
            Shift::Untested => (Tone::Unsure, "untested"),
        };
        table.push_toned(
            vec![
                format!("{} vs {}", p.a, p.b),
                finding(&p.first),
                finding(&p.second),
                estimate(p.change, p.change_interval, 2),
                shift.to_owned(),
            ],
            tone,
        );
    }
    doc.table(table);
    for (label, only) in [
        (&cmp.first_label, &cmp.only_first),
        (&cmp.second_label, &cmp.only_second),
    ] {
        if !only.is_empty() {
            doc.paragraph(format!("Only in {label}: {}.", only.join(", ")));
        }
    }
    doc
}

/// `different, +0.28 (0.01 to 0.94), 700 games`, with a `†` after an
/// interval taken from the matchup.
fn finding(f: &PairFinding) -> String {
    let mark = match f.source {
        IntervalSource::Verdict => "",
        IntervalSource::Matchup => " †",
    };
    format!(
        "{}, {}{mark}, {} games",
        verdict_tone(f.kind).1,
        estimate(f.pawns_per_piece, f.interval, 2),
        count(f.games)
    )
}
