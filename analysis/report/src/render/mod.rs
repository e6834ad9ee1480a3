//! Rendering a [`Report`] for people who will not read the code: a game
//! designer opens `report.html` (one self-contained file), or reads the
//! Markdown twin in a repository, or loads the CSV tables into a
//! spreadsheet.
//!
//! The pipeline is deliberately one-directional so the two text formats can
//! never drift apart: `sections` turns the report into a neutral
//! `doc::Doc` (headings, paragraphs, tables, figures), and `html` and
//! `markdown` are dumb printers of that document. Plots are drawn once per
//! format by `plots`; tables for machines are written by `csv`.
//!
//! Nothing here panics on odd data: empty groups, NaN or infinite numbers
//! (shown as "n/a"), zero games and very long names all render.

mod comparison;
mod csv;
mod derived;
mod doc;
mod error;
mod escape;
mod files;
mod format;
mod html;
mod markdown;
mod plots;
mod scale_csv;
mod sections;
mod viewer;

use std::path::{Path, PathBuf};

pub use comparison::{RenderedComparison, summary as comparison_summary, write_comparison};
pub use error::RenderError;

use super::model::Report;

/// Where [`write_report`] put its files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedReport {
    /// `report.html`: the self-contained report (plots embedded).
    pub html: PathBuf,
    /// `report.md`: the same content in Markdown, linking `plots/*.png`.
    pub markdown: PathBuf,
    /// Every plot file written, PNG and SVG (`plots/<name>.png|svg`).
    pub plots: Vec<PathBuf>,
    /// Every CSV table written (`tables/<name>.csv`).
    pub tables: Vec<PathBuf>,
    /// `proposed-classes.toml`: the class table a value scale supports
    /// best, as a variant file (written only for such a report).
    pub proposed_variant: Option<PathBuf>,
}

/// Writes the whole report into `out_dir` (created if missing):
/// `report.html`, `report.md`, `plots/*.png|svg` and `tables/*.csv`.
///
/// Each file is written to a temporary name and renamed into place, so a
/// reader never sees half a file. A plot with nothing to show (no games, an
/// empty group) is not drawn; the report says so where it would have been.
pub fn write_report(report: &Report, out_dir: &Path) -> Result<RenderedReport, RenderError> {
    let plot_dir = out_dir.join("plots");
    let table_dir = out_dir.join("tables");
    for dir in [out_dir, &plot_dir, &table_dir] {
        files::create_dir(dir)?;
    }

    let rendered_plots = plots::render_all(report, &plot_dir)?;
    let mut tables = csv::write_all(report, &table_dir)?;
    tables.extend(scale_csv::write_all(report, &table_dir)?);
    let proposed_variant = write_proposed_variant(report, out_dir)?;

    let document = sections::build(report);
    let html_path = out_dir.join("report.html");
    pocketlab_selfplay::files::replace_whole(
        &html_path,
        html::render(&document, &rendered_plots).as_bytes(),
    )?;
    let markdown_path = out_dir.join("report.md");
    pocketlab_selfplay::files::replace_whole(
        &markdown_path,
        markdown::render(&document, &rendered_plots).as_bytes(),
    )?;

    Ok(RenderedReport {
        html: html_path,
        markdown: markdown_path,
        plots: rendered_plots
            .iter()
            .flat_map(|p| [p.png.clone(), p.svg.clone()])
            .collect(),
        tables,
        proposed_variant,
    })
}

pub use super::value_scale::PROPOSED_CLASSES;

/// Writes the value scale's proposed variant file, or removes an old one
/// when the report has none.
fn write_proposed_variant(report: &Report, out_dir: &Path) -> Result<Option<PathBuf>, RenderError> {
    let path = out_dir.join(PROPOSED_CLASSES);
    match report
        .value_scale
        .as_ref()
        .and_then(|s| s.proposed_variant.as_ref())
    {
        Some(text) => {
            pocketlab_selfplay::files::replace_whole(&path, text.as_bytes())?;
            Ok(Some(path))
        }
        None => {
            files::remove_stale(&path)?;
            Ok(None)
        }
    }
}
