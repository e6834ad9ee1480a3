//! The report's tables for machines (`tables/*.csv`): raw numbers at full
//! precision, one header row, RFC 4180 quoting, missing numbers as empty
//! cells. Column names are stable; scripts may depend on them.

use std::path::{Path, PathBuf};

use super::super::model::{Report, VerdictKind};
use super::error::RenderError;
use super::files::{remove_stale, write_atomic};
use super::format::csv_number as num;

/// Writes every table and returns their paths. The six balance tables are
/// always written (header only when empty); the training tables only for
/// a training run and the colour tables only for a variant with a colour
/// map; an old copy is removed otherwise.
pub(super) fn write_all(report: &Report, dir: &Path) -> Result<Vec<PathBuf>, RenderError> {
    let training = report.training.is_some();
    let colours = report.colour_values.is_some();
    let tables = [
        ("matchups", Some(matchups(report))),
        ("ratings", Some(ratings(report))),
        ("verdicts", Some(verdicts(report))),
        ("terminations", Some(terminations(report))),
        ("lengths", Some(lengths(report))),
        ("pocket_use", Some(pocket_use(report))),
        ("colour_values", colours.then(|| colour_values(report))),
        ("square_values", colours.then(|| square_values(report))),
        ("learned_values", training.then(|| learned_values(report))),
        (
            "training_history",
            training.then(|| training_history(report)),
        ),
    ];
    let mut paths = Vec::with_capacity(tables.len());
    for (name, rows) in tables {
        let path = dir.join(format!("{name}.csv"));
        match rows {
            Some(rows) => {
                write_atomic(&path, to_csv(&rows).as_bytes())?;
                paths.push(path);
            }
            None => remove_stale(&path)?,
        }
    }
    Ok(paths)
}

type Rows = Vec<Vec<String>>;

fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| (*s).to_owned()).collect()
}

fn matchups(report: &Report) -> Rows {
    let mut rows = vec![header(&[
        "name",
        "a",
        "b",
        "games",
        "a_wins",
        "draws",
        "b_wins",
        "pairs",
        "penta_0",
        "penta_1",
        "penta_2",
        "penta_3",
        "penta_4",
        "model",
        "score",
        "score_lo",
        "score_hi",
        "elo",
        "elo_lo",
        "elo_hi",
        "pawns",
        "pawns_lo",
        "pawns_hi",
        "los",
        "white_score",
        "sprt_llr",
        "sprt_decision",
    ])];
    for m in &report.matchups {
        let mut row = vec![
            m.name.clone(),
            m.a.clone(),
            m.b.clone(),
            m.games.to_string(),
            m.a_wins.to_string(),
            m.draws.to_string(),
            m.b_wins.to_string(),
            m.pairs.to_string(),
        ];
        row.extend(m.pentanomial.iter().map(u64::to_string));
        row.extend([
            m.model.clone(),
            num(m.score),
            num(m.score_interval.0),
            num(m.score_interval.1),
            num(m.elo),
            num(m.elo_interval.0),
            num(m.elo_interval.1),
            num(m.pawns),
            num(m.pawns_interval.0),
            num(m.pawns_interval.1),
            num(m.los),
            num(m.white_score),
            m.sprt.as_ref().map_or(String::new(), |s| num(s.llr)),
            m.sprt
                .as_ref()
                .map_or(String::new(), |s| s.decision.clone()),
        ]);
        rows.push(row);
    }
    rows
}

fn ratings(report: &Report) -> Rows {
    let mut rows = vec![header(&[
        "group", "class", "player", "label", "elo", "elo_lo", "elo_hi", "pawns", "pawns_lo",
        "pawns_hi", "games",
    ])];
    for g in &report.groups {
        for p in &g.players {
            rows.push(vec![
                g.title.clone(),
                g.class.map_or(String::new(), |c| c.to_string()),
                p.name.clone(),
                p.label.clone(),
                num(p.elo),
                num(p.elo_interval.0),
                num(p.elo_interval.1),
                num(p.pawns),
                num(p.pawns_interval.0),
                num(p.pawns_interval.1),
                p.games.to_string(),
            ]);
        }
    }
    rows
}

fn verdicts(report: &Report) -> Rows {
    let mut rows = vec![header(&[
        "group",
        "a",
        "b",
        "verdict",
        "text",
        "elo",
        "elo_lo",
        "elo_hi",
        "pawns",
        "pawns_lo",
        "pawns_hi",
        "games",
        "pairs",
        "tost_p",
        "difference_p",
        "more_pairs_needed",
    ])];
    for g in &report.groups {
        for v in &g.pairs {
            let kind = match v.kind {
                VerdictKind::Equivalent => "equivalent",
                VerdictKind::Different => "different",
                VerdictKind::Inconclusive => "inconclusive",
            };
            rows.push(vec![
                g.title.clone(),
                v.a.clone(),
                v.b.clone(),
                kind.to_owned(),
                v.text.clone(),
                num(v.elo),
                num(v.elo_interval.0),
                num(v.elo_interval.1),
                num(v.pawns),
                num(v.pawns_interval.0),
                num(v.pawns_interval.1),
                v.games.to_string(),
                v.pairs.to_string(),
                num(v.tost_p),
                num(v.difference_p),
                v.more_pairs_needed.map_or(String::new(), |n| n.to_string()),
            ]);
        }
    }
    rows
}

fn terminations(report: &Report) -> Rows {
    let total: u64 = report.balance.terminations.iter().map(|(_, n)| *n).sum();
    let mut rows = vec![header(&["termination", "games", "share"])];
    for (name, n) in &report.balance.terminations {
        let share = if total == 0 {
            f64::NAN
        } else {
            *n as f64 / total as f64
        };
        rows.push(vec![name.clone(), n.to_string(), num(share)]);
    }
    rows
}

fn lengths(report: &Report) -> Rows {
    let mut rows = vec![header(&["from_ply", "to_ply", "games"])];
    for (from, to, n) in &report.balance.length.histogram {
        rows.push(vec![from.to_string(), to.to_string(), n.to_string()]);
    }
    rows
}

fn pocket_use(report: &Report) -> Rows {
    let mut rows = vec![header(&[
        "letter",
        "name",
        "pocket_ins",
        "mutated_from",
        "mutated_into",
        "promoted_into",
        "drops",
    ])];
    for p in &report.pocket_use {
        rows.push(vec![
            p.letter.clone(),
            p.name.clone(),
            p.pocket_ins.to_string(),
            p.mutated_from.to_string(),
            p.mutated_into.to_string(),
            p.promoted_into.to_string(),
            p.drops.to_string(),
        ]);
    }
    rows
}

fn colour_values(report: &Report) -> Rows {
    let mut rows = vec![header(&[
        "letter",
        "name",
        "betza",
        "squares",
        "occupancy",
        "value",
        "value_lo",
        "value_hi",
    ])];
    for c in report.colour_values.iter().flat_map(|v| &v.colours) {
        rows.push(vec![
            c.letter.clone(),
            c.name.clone(),
            c.betza.clone(),
            c.squares.to_string(),
            num(c.occupancy),
            num(c.value),
            num(c.interval.0),
            num(c.interval.1),
        ]);
    }
    rows
}

/// One row per square (`a1`..`h8`): its map letter and the value of a
/// piece standing there from its owner's side.
fn square_values(report: &Report) -> Rows {
    let mut rows = vec![header(&["square", "colour", "value"])];
    let Some(values) = &report.colour_values else {
        return rows;
    };
    for (sq, value) in values.squares.iter().enumerate() {
        let letter = values
            .map
            .get(7 - sq / 8)
            .and_then(|row| row.chars().nth(sq % 8))
            .map_or(String::new(), String::from);
        rows.push(vec![
            format!("{}{}", char::from(b'a' + (sq % 8) as u8), sq / 8 + 1),
            letter,
            value.map_or(String::new(), num),
        ]);
    }
    rows
}

fn learned_values(report: &Report) -> Rows {
    let mut rows = vec![header(&[
        "letter",
        "name",
        "class",
        "value",
        "value_lo",
        "value_hi",
        "pocket_value",
        "pocket_lo",
        "pocket_hi",
        "learned_relative",
        "direct_relative",
    ])];
    for p in report.training.iter().flat_map(|t| &t.pieces) {
        rows.push(vec![
            p.letter.clone(),
            p.name.clone(),
            p.class.map_or(String::new(), |c| c.to_string()),
            num(p.value),
            num(p.interval.0),
            num(p.interval.1),
            num(p.pocket_value),
            num(p.pocket_interval.0),
            num(p.pocket_interval.1),
            num(p.learned_relative),
            p.direct_relative.map_or(String::new(), num),
        ]);
    }
    rows
}

/// Long format (one row per generation and piece), easy to plot elsewhere.
fn training_history(report: &Report) -> Rows {
    let mut rows = vec![header(&["generation", "letter", "value"])];
    for (generation, values) in report.training.iter().flat_map(|t| &t.history) {
        for (letter, value) in values {
            rows.push(vec![generation.to_string(), letter.clone(), num(*value)]);
        }
    }
    rows
}

/// Rows as CSV text, each line ending in `\n`.
fn to_csv(rows: &Rows) -> String {
    let mut out = String::new();
    for row in rows {
        let fields: Vec<String> = row.iter().map(|f| quote(f)).collect();
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// A field quoted when it must be (comma, quote, line break, or spaces at
/// either end that a reader would otherwise trim), quotes doubled.
fn quote(field: &str) -> String {
    let needs =
        field.contains([',', '"', '\n', '\r']) || field.starts_with(' ') || field.ends_with(' ');
    if needs {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn fields_are_quoted_only_when_needed() {
        assert_eq!(quote("rook"), "rook");
        assert_eq!(quote("a, b"), "\"a, b\"");
        assert_eq!(quote("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quote("two\nlines"), "\"two\nlines\"");
    }
}
