//! The report's plots, each written as PNG and SVG into `plots/`.
//!
//! One module per kind of picture ([`overview`] is the report's first);
//! [`forest`] and [`bars`] are the two
//! shapes shared by several plots, [`canvas`] draws any plot on both
//! backends, [`style`] keeps them looking alike.

mod bars;
mod canvas;
mod colour_map;
mod convergence;
mod forest;
mod learned;
mod lengths;
mod matrix;
mod overview;
mod pocket_use;
mod scale;
mod strength;
mod style;
mod terminations;

use std::path::Path;

pub(super) use canvas::RenderedPlot;

use super::super::model::Report;
use super::derived::{
    COLOUR_MAP, LENGTHS, OVERVIEW, POCKET_USE, TERMINATIONS, TRAINING_CONVERGENCE, TRAINING_VALUES,
    VALUE_SCALE, group_keys, matrix_stem, strength_stem,
};
use super::error::RenderError;
use super::files::remove_stale;
use canvas::{Plot, ensure_font, render};

/// Draws every plot the report has data for. A plot without data is not
/// drawn, and any file of that name left by an earlier run is removed.
pub(super) fn render_all(report: &Report, dir: &Path) -> Result<Vec<RenderedPlot>, RenderError> {
    ensure_font()?;
    let mut out = Vec::new();
    emit(&mut out, dir, OVERVIEW, overview::plot(report))?;
    for (group, key) in report.groups.iter().zip(group_keys(report)) {
        emit(
            &mut out,
            dir,
            &strength_stem(&key),
            strength::plot(report, group),
        )?;
        emit(&mut out, dir, &matrix_stem(&key), matrix::plot(group))?;
    }
    emit(&mut out, dir, LENGTHS, lengths::plot(report))?;
    emit(&mut out, dir, TERMINATIONS, terminations::plot(report))?;
    emit(&mut out, dir, POCKET_USE, pocket_use::plot(report))?;
    emit(&mut out, dir, COLOUR_MAP, colour_map::plot(report))?;
    emit(&mut out, dir, VALUE_SCALE, scale::plot(report))?;
    emit(&mut out, dir, TRAINING_VALUES, learned::plot(report))?;
    emit(
        &mut out,
        dir,
        TRAINING_CONVERGENCE,
        convergence::plot(report),
    )?;
    remove_other_plots(dir, &out)?;
    Ok(out)
}

/// Removes plot files of ours (by name) that this run did not write: a
/// group that is gone, or a plot that now has no data. Other files in the
/// directory are left alone.
fn remove_other_plots(dir: &Path, written: &[RenderedPlot]) -> Result<(), RenderError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let (Some(stem), Some(ext)) = (path.file_stem().and_then(|s| s.to_str()), path.extension())
        else {
            continue;
        };
        let ours = [
            OVERVIEW,
            // The picture the overview replaced, left by older reports.
            "ladder",
            LENGTHS,
            TERMINATIONS,
            POCKET_USE,
            COLOUR_MAP,
            TRAINING_VALUES,
            TRAINING_CONVERGENCE,
            VALUE_SCALE,
        ]
        .contains(&stem)
            || (stem.starts_with("group-")
                && (stem.ends_with("-strength") || stem.ends_with("-matrix")));
        if ours && (ext == "png" || ext == "svg") && !written.iter().any(|p| p.stem == stem) {
            remove_stale(&path)?;
        }
    }
    Ok(())
}

fn emit<P: Plot>(
    out: &mut Vec<RenderedPlot>,
    dir: &Path,
    stem: &str,
    plot: Option<P>,
) -> Result<(), RenderError> {
    // No plot: `remove_other_plots` clears any old file of this name.
    if let Some(plot) = plot {
        out.push(render(&plot, stem, dir)?);
    }
    Ok(())
}
