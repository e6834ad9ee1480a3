//! The title and the question the experiment asked, in one paragraph a
//! designer can check against what they meant to ask.

use super::super::super::model::Report;
use super::super::doc::{Block, Doc};
use super::super::format::{counted, fixed, games};
use super::{REPRODUCTION, WHAT_WAS_ASKED, total_games};

pub(super) fn title(report: &Report) -> String {
    let name = report.experiment.name.trim();
    // A report of engine comparisons only is about strength, not balance.
    let kind = if engines_only(report) {
        "Engine comparison"
    } else {
        "Balance report"
    };
    if name.is_empty() {
        kind.to_owned()
    } else {
        format!("{kind}: {name}")
    }
}

/// Whether every rated matchup compares engines (nothing is said of pieces).
fn engines_only(report: &Report) -> bool {
    !report.engines.is_empty() && report.groups.is_empty()
}

pub(super) fn write(doc: &mut Doc, report: &Report) {
    let exp = &report.experiment;
    doc.heading(2, WHAT_WAS_ASKED);

    // The designer's own question when the experiment states one, else the
    // question every class experiment asks.
    let mut text = String::new();
    let variant = if exp.variant.trim().is_empty() {
        "this variant"
    } else {
        exp.variant.trim()
    };
    let description = exp.description.trim();
    if description.is_empty() {
        let classes = report.groups.iter().any(|g| g.class.is_some()) || report.groups.is_empty();
        if engines_only(report) {
            text.push_str(&format!(
                "Which engine plays {variant} stronger, and by how much? "
            ));
        } else if classes {
            text.push_str(&format!(
                "Are the pieces that {variant} puts in one value class really worth the same? "
            ));
        } else {
            text.push_str(&format!(
                "Are the armies of {variant} rated together below really worth the same? "
            ));
        }
    } else {
        text.push_str(description);
        if !description.ends_with(['.', '!', '?']) {
            text.push('.');
        }
        text.push(' ');
    }
    let variant_description = exp.variant_description.trim();
    if !variant_description.is_empty() {
        text.push_str(&format!(
            "The variant played is {variant}: {variant_description}"
        ));
        if !variant_description.ends_with(['.', '!', '?']) {
            text.push('.');
        }
        text.push(' ');
    }
    match rule_changes(&exp.rule_overrides) {
        Some(changes) if !changes.is_empty() => text.push_str(&format!(
            "For this experiment the variant's rules were changed: {}. ",
            changes.join(", ")
        )),
        Some(_) => {}
        None => text.push_str(&format!(
            "For this experiment the variant's rules were changed (listed under {REPRODUCTION}). "
        )),
    }
    text.push_str(&format!(
        "To find out, engines played {} against each other in {}.",
        games(total_games(report)),
        counted(report.matchups.len() as u64, "matchup", "matchups"),
    ));
    if !report.groups.is_empty() || report.engines.is_empty() {
        text.push_str(&format!(
            " Two pieces count as equivalent when, with 95% confidence, their strengths differ by less than ±{} \
             pawns per piece exchanged (±{} Elo); as different when one is stronger beyond chance; otherwise the \
             answer is \"not enough games yet\".",
            fixed(report.margin_pawns, 2),
            fixed(report.margin_elo, 0),
        ));
    }
    if !report.engines.is_empty() {
        text.push_str(
            " Where the armies of a matchup differ only in their engine, the matchup measures playing strength: \
             the Elo difference with its 95% interval (over colour-swapped pairs), one engine counting as \
             stronger when the interval excludes 0, and the SPRT's decision where one ran.",
        );
    }
    if !exp.eval_values.is_empty() {
        let labels: Vec<&str> = exp.eval_values.iter().map(|e| e.eval.as_str()).collect();
        text.push_str(&format!(
            " The engines evaluate with the piece values of eval {} (listed under {REPRODUCTION}), which steer their \
             trades.",
            labels.join(" and eval ")
        ));
    }
    doc.paragraph(text);
    doc.push(Block::Aside(
        "How to read this report: the verdicts come first, in plain words; the evidence behind them follows \
         (ratings, head-to-head results, every matchup, game balance); the last section says how to reproduce \
         every number."
            .to_owned(),
    ));
}

/// The experiment's rule overrides (TOML tables as the log records them)
/// as `table.key = value` items, so the question says at once which rules
/// differ from the variant file's (mutation off, say); `None` when the text
/// is not TOML.
fn rule_changes(overrides: &str) -> Option<Vec<String>> {
    fn walk(prefix: &str, table: &toml::Table, out: &mut Vec<String>) {
        for (key, value) in table {
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            match value {
                toml::Value::Table(inner) => walk(&path, inner, out),
                other => out.push(format!("{path} = {other}")),
            }
        }
    }
    let table: toml::Table = toml::from_str(overrides).ok()?;
    let mut out = Vec::new();
    walk("", &table, &mut out);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::rule_changes;

    #[test]
    fn rule_changes_name_every_overridden_key() {
        assert_eq!(
            rule_changes("[pocket]\nmutation = false\n").unwrap(),
            vec!["pocket.mutation = false"]
        );
        assert_eq!(
            rule_changes("[pocket]\nmutation = true\nsize = 2\n[promotion]\nranks = [8]\n")
                .unwrap(),
            vec![
                "pocket.mutation = true",
                "pocket.size = 2",
                "promotion.ranks = [8]"
            ]
        );
        assert_eq!(rule_changes("").unwrap(), Vec::<String>::new());
        assert_eq!(rule_changes("[pocket"), None);
    }
}
