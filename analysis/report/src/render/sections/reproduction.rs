//! Everything needed to get the same numbers again: settings, seed, code
//! version, the experiment file as run and the exact commands.

use pocketlab_selfplay::experiment::EngineSettings;

use super::super::super::model::Report;
use super::super::doc::{Align, Block, Doc, Table};
use super::{EVAL_VALUES, REPRODUCTION};

pub(super) fn write(doc: &mut Doc, report: &Report) {
    let e = &report.experiment;
    doc.heading(2, REPRODUCTION);
    let or_unknown = |s: &str| {
        if s.trim().is_empty() {
            "(not recorded)".to_owned()
        } else {
            s.to_owned()
        }
    };
    let list = |items: &[String]| {
        if items.is_empty() {
            "(not recorded)".to_owned()
        } else {
            items.join("; ")
        }
    };
    let mut table = Table::new(&[("Setting", Align::Left), ("Value", Align::Left)]);
    table.push(vec!["Experiment".into(), or_unknown(&e.name)]);
    table.push(vec!["Variant".into(), or_unknown(&e.variant)]);
    table.push(vec!["Master seed".into(), e.seed.to_string()]);
    table.push(vec!["Code version".into(), or_unknown(&e.code_version)]);
    table.push(vec![
        "Experiment hash".into(),
        or_unknown(&e.experiment_hash),
    ]);
    table.push(vec!["Engines".into(), list(&e.engines)]);
    table.push(vec!["Log directories".into(), list(&e.logs)]);
    doc.table(table);

    eval_values(doc, report);

    doc.heading(4, "Rule overrides in force");
    if e.rule_overrides.trim().is_empty() {
        doc.paragraph("None: the variant was played with its own rules.");
    } else {
        doc.push(Block::Code(e.rule_overrides.clone()));
    }

    doc.heading(4, "Experiment file");
    if e.experiment_text.trim().is_empty() {
        doc.paragraph("(The experiment file was not recorded in the log.)");
    } else {
        doc.push(Block::Code(e.experiment_text.clone()));
    }

    doc.heading(4, "Commands to reproduce");
    doc.push(Block::Code(commands(report)));
}

/// The piece values the lab's engines evaluate with: one column per
/// evaluation in use.
fn eval_values(doc: &mut Doc, report: &Report) {
    let evals = &report.experiment.eval_values;
    let Some(first) = evals.first() else {
        return;
    };
    doc.heading(4, EVAL_VALUES);
    let used_by: Vec<String> = evals
        .iter()
        .map(|e| format!("{} by {}", e.eval, e.armies.join(", ")))
        .collect();
    doc.paragraph(format!(
        "Centipawns each evaluation starts from ({}; 'default' is the variant file's values). They steer the \
         trades an engine accepts, so every verdict describes the pieces as engines holding these values play them.",
        used_by.join("; ")
    ));
    let mut columns = vec![("Piece", Align::Left), ("Class", Align::Right)];
    let headers: Vec<String> = evals.iter().map(|e| format!("eval {}", e.eval)).collect();
    columns.extend(headers.iter().map(|h| (h.as_str(), Align::Right)));
    let mut table = Table::new(&columns);
    for (i, piece) in first.pieces.iter().enumerate() {
        let mut row = vec![
            format!("{} ({})", piece.letter, piece.name),
            piece.class.map_or_else(String::new, |c| c.to_string()),
        ];
        row.extend(evals.iter().map(|e| e.pieces[i].centipawns.to_string()));
        table.push(row);
    }
    doc.table(table);
}

/// The shell commands: play the experiment again, or rebuild this report
/// from the logs that were read.
fn commands(report: &Report) -> String {
    let e = &report.experiment;
    let file = format!("{}.toml", file_slug(&e.name));
    let mut out = String::new();
    if !e.code_version.trim().is_empty() {
        out.push_str(&format!(
            "# with the code at version {}\n",
            e.code_version.trim()
        ));
    }
    let same = if e
        .engines
        .iter()
        .any(|d| EngineSettings::describes_time_limit(d))
    {
        "time-limited games are not reproducible: other games, a similar result"
    } else {
        "same seed and code give the same games"
    };
    out.push_str(&format!(
        "# play the experiment again ({same});\n\
         # {file} is the experiment file shown above\n\
         pocketlab run {}\n",
        shell_quote(&file)
    ));
    out.push_str("# rebuild this report from the logs it read\n");
    if e.logs.is_empty() {
        out.push_str("pocketlab report <log dir>\n");
    } else {
        let dirs: Vec<String> = e.logs.iter().map(|d| shell_quote(d)).collect();
        let verdicts: String = e
            .verdict_logs
            .iter()
            .map(|d| format!(" --verdicts {}", shell_quote(d)))
            .collect();
        out.push_str(&format!("pocketlab report {}{verdicts}\n", dirs.join(" ")));
    }
    out
}

/// A file name from an experiment name: letters, digits, `-` and `_`.
fn file_slug(name: &str) -> String {
    let slug: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let slug = slug.trim_matches('-');
    if slug.is_empty() {
        "experiment".to_owned()
    } else {
        slug.chars().take(80).collect()
    }
}

/// Quotes an argument for a POSIX shell only when it needs it.
pub(super) fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@".contains(c));
    if plain {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}
