//! Prints the [`Doc`] as Markdown (GitHub flavour): the same sections and
//! tables as the HTML, plots linked by relative path (`plots/<name>.png`)
//! so the file reads well in a repository next to its `plots/` directory.

use std::fmt::Write as _;

use super::doc::{Align, Block, Doc, Table, Tone};
use super::plots::RenderedPlot;

pub(super) fn render(doc: &Doc, plots: &[RenderedPlot]) -> String {
    let mut out = String::with_capacity(32 * 1024);
    let _ = writeln!(out, "# {}\n", inline(&doc.title));
    out.push_str("Contents: ");
    let links: Vec<String> = doc
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Heading { level: 2, text, id } => Some(format!("[{}](#{id})", inline(text))),
            _ => None,
        })
        .collect();
    out.push_str(&links.join(" · "));
    out.push_str("\n\n");
    for block in &doc.blocks {
        block_md(&mut out, block, plots);
    }
    out
}

fn block_md(out: &mut String, block: &Block, plots: &[RenderedPlot]) {
    match block {
        Block::Heading { level, text, .. } => {
            let level = usize::from((*level).clamp(2, 6));
            let _ = writeln!(out, "{} {}\n", "#".repeat(level), inline(text));
        }
        Block::Paragraph(text) => {
            let _ = writeln!(out, "{}\n", inline(text));
        }
        Block::Aside(text) => {
            let _ = writeln!(out, "*{}*\n", inline(text));
        }
        Block::Callout(items) => {
            for item in items {
                let _ = writeln!(out, "> - **{}**", inline(item));
            }
            out.push('\n');
        }
        Block::List(items) => {
            for item in items {
                let _ = writeln!(out, "- {}", inline(item));
            }
            out.push('\n');
        }
        Block::TonedList(items) => {
            for (tone, item) in items {
                let _ = writeln!(out, "- {} {}", tone_mark(*tone), inline(item));
            }
            out.push('\n');
        }
        Block::Table(table) => table_md(out, table),
        Block::Figure { stem, caption } => match plots.iter().find(|p| &p.stem == stem) {
            Some(plot) => {
                let _ = writeln!(out, "![{}](plots/{}.png)\n", inline(&plot.title), stem);
                if !caption.is_empty() {
                    let _ = writeln!(out, "*{}*\n", inline(caption));
                }
            }
            None => out.push_str("*No plot here: there is no data to draw yet.*\n\n"),
        },
        // The section lists the games and their export commands.
        Block::GameViewer(_) => {}
        Block::Code(text) => {
            let fence = "`".repeat(longest_backtick_run(text).max(2) + 1);
            let _ = writeln!(out, "{fence}\n{}\n{fence}\n", text.trim_end());
        }
    }
}

fn table_md(out: &mut String, table: &Table) {
    let header: Vec<String> = table.columns.iter().map(|c| cell(&c.title)).collect();
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let rule: Vec<&str> = table
        .columns
        .iter()
        .map(|c| {
            if c.align == Align::Right {
                "---:"
            } else {
                "---"
            }
        })
        .collect();
    let _ = writeln!(out, "|{}|", rule.join("|"));
    for row in &table.rows {
        let cells: Vec<String> = (0..table.columns.len())
            .map(|i| {
                let text = row.cells.get(i).map(String::as_str).unwrap_or("");
                match (table.badge_column == Some(i), row.tone) {
                    (true, Some(tone)) => format!("**{} {}**", tone_mark(tone), cell(text)),
                    _ => cell(text),
                }
            })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}

/// A sign that carries a verdict's colour in plain text.
fn tone_mark(tone: Tone) -> &'static str {
    match tone {
        Tone::Good => "≈",
        Tone::Bad => "≠",
        Tone::Unsure => "?",
    }
}

/// Text for a table cell: one line, pipes escaped.
fn cell(text: &str) -> String {
    let one_line = text.replace(['\r', '\n'], " ");
    let escaped = inline(&one_line);
    if escaped.is_empty() {
        " ".to_owned()
    } else {
        escaped
    }
}

/// Plain text made inert in Markdown: characters that would start
/// emphasis, links, HTML, code or table cells are backslash-escaped, and a
/// leading `#`, `-`, `+` or `1.` cannot start a heading or list.
fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '&'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    if out.starts_with(['#', '-', '+', '=']) {
        out.insert(0, '\\');
    }
    if let Some(dot) = out.find(['.', ')'])
        && dot > 0
        && out[..dot].chars().all(|c| c.is_ascii_digit())
    {
        out.insert(dot, '\\');
    }
    out
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}
