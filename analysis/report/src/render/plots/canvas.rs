//! Drawing one plot twice, as SVG and as PNG, from a single description.
//!
//! A plot implements [`Plot::draw`] once, generic over the plotters
//! backend; [`render`] runs it on the SVG backend and on the bitmap backend
//! and writes both files by write-then-rename. The font is embedded
//! (DejaVu Sans) and registered on first use, because with plotters'
//! `ab_glyph` feature every backend, SVG included, needs a registered font
//! to measure text and fails with `FontUnavailable` without one.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};

use super::super::error::RenderError;
use pocketlab_selfplay::files::{commit, replace_whole, temp_sibling};

/// The family every plot uses; registered by [`ensure_font`].
pub(super) const FONT: &str = "sans-serif";

static FONT_BYTES: &[u8] = include_bytes!("../../../assets/DejaVuSans.ttf");

/// Registers the embedded font once per process; later calls (and calls
/// from several threads) only read the stored outcome.
pub(super) fn ensure_font() -> Result<(), RenderError> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            register_font(FONT, FontStyle::Normal, FONT_BYTES)
                .map_err(|_| "the embedded font file is not a valid TrueType font".to_owned())
        })
        .clone()
        .map_err(|reason| RenderError::Font { reason })
}

/// Why drawing failed, as text (backend errors differ in type per backend).
#[derive(Debug)]
pub(super) struct PlotError(pub String);

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for PlotError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        PlotError(e.to_string())
    }
}

/// A plot that can draw itself on any backend.
pub(super) trait Plot {
    /// What is plotted and how many games stand behind it.
    fn title(&self) -> &str;
    /// Canvas size in pixels (grows with the number of players shown).
    fn size(&self) -> (u32, u32);
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError>;
}

/// A plot as written: both files, and the PNG bytes for embedding.
#[derive(Clone, Debug)]
pub(in super::super) struct RenderedPlot {
    pub stem: String,
    pub title: String,
    pub png: PathBuf,
    pub svg: PathBuf,
    pub png_bytes: Vec<u8>,
    pub size: (u32, u32),
}

/// Draws `plot` as `dir/<stem>.svg` and `dir/<stem>.png`.
pub(super) fn render<P: Plot>(
    plot: &P,
    stem: &str,
    dir: &Path,
) -> Result<RenderedPlot, RenderError> {
    let size = plot.size();
    let svg_path = dir.join(format!("{stem}.svg"));
    let png_path = dir.join(format!("{stem}.png"));

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw_and_present(plot, &root).map_err(|e| RenderError::Draw {
            path: svg_path.clone(),
            reason: e.0,
        })?;
    }
    replace_whole(&svg_path, svg.as_bytes())?;

    // The bitmap backend encodes by file extension, so the temporary file
    // keeps `.png`; it is renamed into place once complete.
    let temp = temp_sibling(&png_path);
    let drawn = {
        let root = BitMapBackend::new(&temp, size).into_drawing_area();
        draw_and_present(plot, &root)
    };
    if let Err(e) = drawn {
        let _ = fs::remove_file(&temp);
        return Err(RenderError::Draw {
            path: png_path,
            reason: e.0,
        });
    }
    let png_bytes = fs::read(&temp).map_err(|source| RenderError::Write {
        path: png_path.clone(),
        source,
    })?;
    commit(&temp, &png_path)?;

    Ok(RenderedPlot {
        stem: stem.to_owned(),
        title: plot.title().to_owned(),
        png: png_path,
        svg: svg_path,
        png_bytes,
        size,
    })
}

fn draw_and_present<P: Plot, DB: DrawingBackend>(
    plot: &P,
    root: &DrawingArea<DB, Shift>,
) -> Result<(), PlotError> {
    plot.draw(root)?;
    root.present()?;
    Ok(())
}
