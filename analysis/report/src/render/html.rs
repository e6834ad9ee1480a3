//! Prints the [`Doc`] as one self-contained HTML file: CSS inline, plots
//! embedded as base64 PNG (pixel-identical to `plots/*.png`, whatever fonts
//! the reader's machine has), no external resources; the only script is
//! the game viewer's ([`super::viewer`]). It can be mailed on its own.

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::doc::{Align, Block, Doc, Table, Tone};
use super::escape::escape;
use super::plots::RenderedPlot;
use super::viewer;

const STYLE: &str = r#"
:root { color-scheme: light; }
body { margin: 0; background: #eef0f3; color: #1d2330;
  font: 16px/1.5 "DejaVu Sans", -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
main { max-width: 1140px; margin: 0 auto; padding: 24px 36px 64px; background: #fff; }
h1 { font-size: 30px; line-height: 1.25; margin: 8px 0 14px; }
h2 { font-size: 23px; margin: 44px 0 12px; padding-top: 14px; border-top: 2px solid #dfe3e9; }
h3 { font-size: 19px; margin: 30px 0 8px; }
h4 { font-size: 16px; margin: 22px 0 6px; color: #3a4356; }
h1, h2, h3, h4, p, li { overflow-wrap: break-word; }
p { margin: 8px 0; }
p.aside, figcaption { color: #566075; font-size: 14px; }
nav.toc { font-size: 14px; background: #f2f4f7; padding: 8px 14px; border-radius: 6px; }
nav.toc a { color: #1f5fa8; text-decoration: none; margin-right: 14px; white-space: nowrap; }
.callout { border-left: 6px solid #1f5fa8; background: #eef4fb; padding: 8px 18px; margin: 12px 0;
  font-size: 17px; }
.callout ul { margin: 4px 0; padding-left: 20px; }
.callout li { margin: 4px 0; }
.table-wrap { overflow-x: auto; margin: 10px 0 14px; }
table { border-collapse: collapse; font-size: 14px; }
th, td { border-bottom: 1px solid #e3e6eb; padding: 5px 10px; text-align: left; vertical-align: top; }
td { overflow-wrap: break-word; }
th { background: #f2f4f7; font-weight: 600; vertical-align: bottom; }
th.num, td.num { text-align: right; }
td.num { white-space: nowrap; font-variant-numeric: tabular-nums; }
tr.good td { background: #edf7ef; }
tr.bad td { background: #fdeeee; }
tr.unsure td { background: #fff5e3; }
.badge { display: inline-block; padding: 1px 9px; border-radius: 10px; font-weight: 600; font-size: 13px;
  color: #fff; white-space: nowrap; }
.badge.good { background: #1b7a35; }
.badge.bad { background: #b42318; }
.badge.unsure { background: #9a5b00; }
ul.verdicts { list-style: none; padding-left: 0; }
ul.verdicts li { margin: 4px 0; padding: 3px 10px; border-left: 6px solid; }
ul.verdicts li.good { border-color: #1b7a35; background: #edf7ef; }
ul.verdicts li.bad { border-color: #b42318; background: #fdeeee; }
ul.verdicts li.unsure { border-color: #9a5b00; background: #fff5e3; }
figure { margin: 16px 0 22px; }
figure img { max-width: 100%; height: auto; border: 1px solid #e3e6eb; }
pre { background: #f4f5f7; border: 1px solid #e3e6eb; padding: 10px 12px; overflow-x: auto; font-size: 13px;
  line-height: 1.45; }
footer { margin-top: 44px; font-size: 12px; color: #8a93a5; }
@media print { body { background: #fff; } main { padding: 0; } figure, table { break-inside: avoid; } }
"#;

/// The document as HTML, with `plots` embedded where figures refer to them.
pub(super) fn render(doc: &Doc, plots: &[RenderedPlot]) -> String {
    let mut out = String::with_capacity(
        64 * 1024
            + plots
                .iter()
                .map(|p| p.png_bytes.len() * 4 / 3)
                .sum::<usize>(),
    );
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(out, "<title>{}</title>", escape(&doc.title));
    let _ = writeln!(out, "<style>{STYLE}</style>\n</head>\n<body>\n<main>");
    let _ = writeln!(out, "<h1>{}</h1>", escape(&doc.title));
    contents(&mut out, doc);
    for block in &doc.blocks {
        block_html(&mut out, block, plots);
    }
    out.push_str("<footer>Written by pocketlab. Tables as CSV: tables/*.csv; plots as PNG and SVG: plots/.</footer>\n");
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// Links to every section, so a reader can jump straight to one.
fn contents(out: &mut String, doc: &Doc) {
    out.push_str("<nav class=\"toc\"><strong>Contents:</strong> ");
    for block in &doc.blocks {
        if let Block::Heading { level: 2, text, id } = block {
            let _ = write!(out, " <a href=\"#{}\">{}</a>", escape(id), escape(text));
        }
    }
    out.push_str("</nav>\n");
}

fn block_html(out: &mut String, block: &Block, plots: &[RenderedPlot]) {
    match block {
        Block::Heading { level, text, id } => {
            let level = (*level).clamp(2, 6);
            let _ = writeln!(
                out,
                "<h{level} id=\"{}\">{}</h{level}>",
                escape(id),
                escape(text)
            );
        }
        Block::Paragraph(text) => {
            let _ = writeln!(out, "<p>{}</p>", escape(text));
        }
        Block::Aside(text) => {
            let _ = writeln!(out, "<p class=\"aside\">{}</p>", escape(text));
        }
        Block::Callout(items) => {
            out.push_str("<div class=\"callout\"><ul>\n");
            for item in items {
                let _ = writeln!(out, "<li>{}</li>", escape(item));
            }
            out.push_str("</ul></div>\n");
        }
        Block::List(items) => {
            out.push_str("<ul>\n");
            for item in items {
                let _ = writeln!(out, "<li>{}</li>", escape(item));
            }
            out.push_str("</ul>\n");
        }
        Block::TonedList(items) => {
            out.push_str("<ul class=\"verdicts\">\n");
            for (tone, item) in items {
                let _ = writeln!(
                    out,
                    "<li class=\"{}\">{}</li>",
                    tone_class(*tone),
                    escape(item)
                );
            }
            out.push_str("</ul>\n");
        }
        Block::Table(table) => table_html(out, table),
        Block::Figure { stem, caption } => match plots.iter().find(|p| &p.stem == stem) {
            Some(plot) => {
                let (w, h) = plot.size;
                let _ = write!(
                    out,
                    "<figure><img width=\"{w}\" height=\"{h}\" alt=\"{}\" src=\"data:image/png;base64,{}\">",
                    escape(&plot.title),
                    STANDARD.encode(&plot.png_bytes),
                );
                if !caption.is_empty() {
                    let _ = write!(out, "<figcaption>{}</figcaption>", escape(caption));
                }
                out.push_str("</figure>\n");
            }
            None => {
                let _ = writeln!(
                    out,
                    "<p class=\"aside\">No plot here: there is no data to draw yet.</p>"
                );
            }
        },
        Block::Code(text) => {
            let _ = writeln!(out, "<pre><code>{}</code></pre>", escape(text.trim_end()));
        }
        Block::GameViewer(games) => viewer::write(out, games),
    }
}

fn table_html(out: &mut String, table: &Table) {
    let numeric = |i: usize| {
        table
            .columns
            .get(i)
            .is_some_and(|c| c.align == Align::Right)
    };
    let class = |i: usize| if numeric(i) { " class=\"num\"" } else { "" };
    out.push_str("<div class=\"table-wrap\"><table>\n<thead><tr>");
    for (i, column) in table.columns.iter().enumerate() {
        let _ = write!(out, "<th{}>{}</th>", class(i), escape(&column.title));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in &table.rows {
        let tone = row.tone.map(tone_class);
        match tone {
            Some(t) => {
                let _ = write!(out, "<tr class=\"{t}\">");
            }
            None => out.push_str("<tr>"),
        }
        for (i, cell) in row.cells.iter().enumerate() {
            if table.badge_column == Some(i)
                && let Some(t) = tone
            {
                let _ = write!(
                    out,
                    "<td><span class=\"badge {t}\">{}</span></td>",
                    escape(cell)
                );
            } else {
                let _ = write!(out, "<td{}>{}</td>", class(i), escape(cell));
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
}

fn tone_class(tone: Tone) -> &'static str {
    match tone {
        Tone::Good => "good",
        Tone::Bad => "bad",
        Tone::Unsure => "unsure",
    }
}
