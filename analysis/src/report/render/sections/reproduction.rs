//! Everything needed to get the same numbers again: settings, seed, code
//! version, the experiment file as run and the exact commands.

use pocketlab_selfplay::experiment::EngineSettings;

use super::super::super::model::Report;
use super::super::doc::{Align, Block, Doc, Table};
use super::REPRODUCTION;

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
        out.push_str(&format!("pocketlab report {}\n", dirs.join(" ")));
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
fn shell_quote(arg: &str) -> String {
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
