//! The look shared by all plots: colours (Okabe-Ito, readable by colour-
//! blind readers), font sizes, the title block, legends, and text fitting
//! so long names never overlap or run off the canvas.

use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::prelude::*;
use plotters::style::FontDesc;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::{FONT, PlotError};

pub(super) const TEXT: RGBColor = RGBColor(29, 35, 48);
pub(super) const MUTED: RGBColor = RGBColor(90, 99, 117);
pub(super) const GRID: RGBColor = RGBColor(214, 219, 226);
pub(super) const BAND: RGBColor = RGBColor(27, 140, 60);
pub(super) const NEUTRAL: RGBColor = RGBColor(236, 239, 243);

/// A verdict's colour, as the HTML badges have it: green equivalent, red
/// different, amber undecided.
pub(super) fn verdict_colour(kind: crate::model::VerdictKind) -> RGBColor {
    use crate::model::VerdictKind::*;
    match kind {
        Equivalent | EquivalentStronger => RGBColor(27, 122, 53),
        Different => RGBColor(180, 35, 24),
        Inconclusive => RGBColor(154, 91, 0),
    }
}

/// Series colours, in order of use.
pub(super) const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(110, 110, 110),
    RGBColor(160, 140, 0),
];

pub(super) const TITLE_SIZE: f64 = 26.0;
pub(super) const SUBTITLE_SIZE: f64 = 16.0;
pub(super) const AXIS_SIZE: f64 = 17.0;
pub(super) const LABEL_SIZE: f64 = 15.0;
pub(super) const NOTE_SIZE: f64 = 14.0;
/// Height of the title block drawn by [`header`].
pub(super) const HEADER_HEIGHT: i32 = 86;

pub(super) fn palette(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

pub(super) fn font(size: f64) -> TextStyle<'static> {
    (FONT, size).into_font().color(&TEXT)
}

pub(super) fn muted(size: f64) -> TextStyle<'static> {
    (FONT, size).into_font().color(&MUTED)
}

/// Rendered width of `text` in pixels (a generous estimate if the font
/// cannot measure it).
pub(super) fn text_width(text: &str, size: f64) -> i32 {
    FontDesc::new(FontFamily::Name(FONT), size, FontStyle::Normal)
        .box_size(text)
        .map(|(w, _)| w as i32)
        .unwrap_or((text.chars().count() as f64 * size * 0.62) as i32)
}

/// `text`, shortened with an ellipsis until it fits `max_width` pixels.
pub(super) fn fit(text: &str, size: f64, max_width: i32) -> String {
    if text_width(text, size) <= max_width {
        return text.to_owned();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut keep = chars.len();
    while keep > 0 {
        keep -= 1;
        let candidate: String = chars[..keep]
            .iter()
            .collect::<String>()
            .trim_end()
            .to_owned()
            + "…";
        if text_width(&candidate, size) <= max_width {
            return candidate;
        }
    }
    "…".to_owned()
}

/// Clears the canvas, draws the title and a muted subtitle, and returns
/// the area below them. Long titles shrink before they are cut, because
/// the end of a title says how many games stand behind the plot.
pub(super) fn header<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    subtitle: &str,
) -> Result<DrawingArea<DB, Shift>, PlotError> {
    root.fill(&WHITE)?;
    let width = root.dim_in_pixel().0 as i32 - 48;
    let (title, size) = shrink_to_fit(title, TITLE_SIZE, 18.0, width);
    root.draw(&Text::new(
        title,
        (24, 14 + (TITLE_SIZE - size) as i32 / 2),
        font(size),
    ))?;
    if !subtitle.is_empty() {
        let (subtitle, size) = shrink_to_fit(subtitle, SUBTITLE_SIZE, 13.0, width);
        root.draw(&Text::new(subtitle, (24, 52), muted(size)))?;
    }
    Ok(root.split_vertically(HEADER_HEIGHT).1)
}

/// The largest size from `max` down to `min` at which `text` fits, or the
/// text cut to fit at `min`.
fn shrink_to_fit(text: &str, max: f64, min: f64, width: i32) -> (String, f64) {
    let mut size = max;
    while size > min && text_width(text, size) > width {
        size -= 1.0;
    }
    (fit(text, size, width), size)
}

/// Draws a legend (colour swatch and name per item) as rows across the
/// top of `area`, wrapping when a row is full; returns the area below it.
pub(super) fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[(String, RGBColor)],
) -> Result<DrawingArea<DB, Shift>, PlotError> {
    if items.is_empty() {
        return Ok(area.clone());
    }
    let width = area.dim_in_pixel().0 as i32;
    let (mut x, mut y) = (24, 4);
    for (name, colour) in items {
        let name = fit(name, LABEL_SIZE, width / 2);
        let item_width = 22 + text_width(&name, LABEL_SIZE) + 24;
        if x > 24 && x + item_width > width - 24 {
            x = 24;
            y += 24;
        }
        area.draw(&Rectangle::new(
            [(x, y + 3), (x + 16, y + 17)],
            colour.filled(),
        ))?;
        area.draw(&Text::new(
            name,
            (x + 22, y + 10),
            font(LABEL_SIZE).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        x += item_width;
    }
    Ok(area.split_vertically(y + 28).1)
}

/// Lower and upper end of an axis that shows every finite value given,
/// padded so points and labels do not sit on the frame.
pub(super) fn axis_range(values: impl IntoIterator<Item = f64>, pad: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.into_iter().filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (-1.0, 1.0);
    }
    let span = hi - lo;
    if span < 1e-9 {
        let half = if lo.abs() > 1e-9 { lo.abs() * 0.5 } else { 1.0 };
        return (lo - half, hi + half);
    }
    (lo - span * pad, hi + span * pad)
}

/// Decimals that make the tick labels of a range of this span distinct.
pub(super) fn tick_decimals(lo: f64, hi: f64) -> usize {
    let span = (hi - lo).abs();
    match span {
        s if s >= 20.0 => 0,
        s if s >= 2.0 => 1,
        s if s >= 0.2 => 2,
        _ => 3,
    }
}

/// A diverging colour for `t` in -1..=1 (clamped): near-white at 0, red
/// towards -1, blue towards +1 (ColorBrewer RdBu ends). The flag says the
/// colour is dark enough to need white text.
pub(super) fn diverging(t: f64) -> (RGBColor, bool) {
    let t = t.clamp(-1.0, 1.0);
    let end = if t >= 0.0 {
        (33.0, 102.0, 172.0)
    } else {
        (178.0, 24.0, 43.0)
    };
    let a = t.abs();
    let mix = |e: f64| (247.0 + (e - 247.0) * a).round() as u8;
    (RGBColor(mix(end.0), mix(end.1), mix(end.2)), a > 0.55)
}

/// The key of a diverging heat map: a bar from -1 to +1 in [`diverging`]
/// colours, `labels` under its left end, middle and right end, and a note
/// saying what the colours mean.
pub(super) fn diverging_key<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x0, y): (i32, i32),
    width: i32,
    labels: [&str; 3],
    note: &str,
) -> Result<(), PlotError> {
    let steps = 80;
    for k in 0..steps {
        let t = -1.0 + 2.0 * f64::from(k) / f64::from(steps - 1);
        let xa = x0 + width * k / steps;
        let xb = x0 + width * (k + 1) / steps;
        area.draw(&Rectangle::new(
            [(xa, y), (xb, y + 14)],
            diverging(t).0.filled(),
        ))?;
    }
    let anchors = [
        (x0, HPos::Left),
        (x0 + width / 2, HPos::Center),
        (x0 + width, HPos::Right),
    ];
    for (label, (x, h)) in labels.iter().zip(anchors) {
        area.draw(&Text::new(
            (*label).to_owned(),
            (x, y + 20),
            font(NOTE_SIZE).pos(Pos::new(h, VPos::Top)),
        ))?;
    }
    area.draw(&Text::new(
        note.to_owned(),
        (x0, y + 44),
        muted(NOTE_SIZE).pos(Pos::new(HPos::Left, VPos::Top)),
    ))?;
    Ok(())
}

/// The grid, axes and fonts every chart's mesh shares; each chart adds its
/// own labels, tick counts and formatters.
pub(super) fn house_mesh<'m, 'a, 'b, X, Y, XT, YT, DB>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB>
where
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
    Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
    DB: DrawingBackend,
{
    mesh.axis_desc_style(font(AXIS_SIZE))
        .label_style(font(LABEL_SIZE))
        .bold_line_style(GRID)
        .light_line_style(GRID.mix(0.3))
        .max_light_lines(1)
        .axis_style(MUTED)
}
