//! A "forest plot": one row per player, a point for the estimate and a
//! horizontal bar for its 95% interval, optionally over a shaded
//! equivalence band. Horizontal on purpose: names are read left of their
//! row, so twenty long names never collide as they would under an x axis.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::super::format::{NA, fixed, signed};
use super::canvas::{Plot, PlotError};
use super::style::{
    BAND, LABEL_SIZE, MUTED, NOTE_SIZE, axis_range, fit, font, header, house_mesh, legend, muted,
    text_width, tick_decimals,
};

#[derive(Clone, Debug)]
pub(super) struct ForestRow {
    pub label: String,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
    pub colour: RGBColor,
}

/// A line joining two rows at the right of the plot (a pair's verdict):
/// rows `from` and `to`, drawn in `lane` counted outwards from the plot.
#[derive(Clone, Debug)]
pub(super) struct Bracket {
    pub from: usize,
    pub to: usize,
    pub lane: usize,
    pub colour: RGBColor,
}

#[derive(Clone, Debug)]
pub(super) struct Forest {
    pub title: String,
    pub subtitle: String,
    pub x_label: String,
    /// Top to bottom.
    pub rows: Vec<ForestRow>,
    /// Half-width of the shaded band around 0, if any.
    pub band: Option<f64>,
    pub legend: Vec<(String, RGBColor)>,
    /// Decimals of the value written beside each point.
    pub decimals: usize,
    /// Values are differences (written `+0.12`), not amounts (`3.25`).
    pub signed: bool,
    /// Lines joining pairs of rows, right of the plot.
    pub brackets: Vec<Bracket>,
    /// Rows that start a new block (a thin line above them).
    pub breaks: Vec<usize>,
}

const ROW_HEIGHT: u32 = 34;
/// Pixels between two bracket lanes.
const LANE_WIDTH: i32 = 14;

impl Plot for Forest {
    fn title(&self) -> &str {
        &self.title
    }

    fn size(&self) -> (u32, u32) {
        let legend_rows = if self.legend.is_empty() {
            0
        } else {
            1 + self.legend.len() as u32 / 5
        };
        (
            1000,
            (210 + 24 * legend_rows + ROW_HEIGHT * self.rows.len() as u32).max(440),
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let body = header(root, &self.title, &self.subtitle)?;
        let body = legend(&body, &self.legend)?;
        let n = self.rows.len().max(1);
        let labels: Vec<String> = self
            .rows
            .iter()
            .map(|r| fit(&r.label, LABEL_SIZE, 300))
            .collect();
        let label_width = labels
            .iter()
            .map(|l| text_width(l, LABEL_SIZE))
            .max()
            .unwrap_or(40)
            .clamp(40, 300)
            + 22;

        let band = self.band.filter(|m| m.is_finite() && *m > 0.0);
        let values = self.rows.iter().flat_map(|r| [r.value, r.lo, r.hi]);
        let band_ends = band.map(|m| [-m, m]).into_iter().flatten();
        let (x0, x1) = axis_range(values.chain(band_ends).chain([0.0]), 0.08);
        let decimals = tick_decimals(x0, x1);

        let lanes = self.brackets.iter().map(|b| b.lane + 1).max().unwrap_or(0) as i32;
        let bracket_room = if lanes > 0 {
            16 + LANE_WIDTH * lanes
        } else {
            0
        };
        let mut chart = ChartBuilder::on(&body)
            .margin_left(12)
            .margin_right(36 + bracket_room)
            .margin_top(8)
            .margin_bottom(12)
            .x_label_area_size(58)
            .y_label_area_size(label_width)
            .build_cartesian_2d(x0..x1, 0f64..n as f64)?;
        let tick = |v: &f64| fixed(*v, decimals);
        house_mesh(
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(0)
                .x_labels(10)
                .x_label_formatter(&tick)
                .x_desc(self.x_label.as_str()),
        )
        .draw()?;

        if let Some(m) = band {
            chart.draw_series(std::iter::once(Rectangle::new(
                [(-m, 0.0), (m, n as f64)],
                BAND.mix(0.16).filled(),
            )))?;
            for edge in [-m, m] {
                chart.draw_series(std::iter::once(PathElement::new(
                    [(edge, 0.0), (edge, n as f64)],
                    BAND.mix(0.55),
                )))?;
            }
        }
        chart.draw_series(std::iter::once(PathElement::new(
            [(0.0, 0.0), (0.0, n as f64)],
            MUTED.stroke_width(1),
        )))?;

        for &row in &self.breaks {
            let y = n as f64 - row as f64;
            chart.draw_series(std::iter::once(PathElement::new(
                [(x0, y), (x1, y)],
                MUTED.mix(0.5).stroke_width(1),
            )))?;
        }
        let row_y = |i: usize| n as f64 - i as f64 - 0.5;
        for bracket in &self.brackets {
            let (edge, top) = chart.backend_coord(&(x1, row_y(bracket.from)));
            let (_, bottom) = chart.backend_coord(&(x1, row_y(bracket.to)));
            let (start, lane) = (edge + 6, edge + 12 + LANE_WIDTH * bracket.lane as i32);
            root.draw(&PathElement::new(
                vec![(start, top), (lane, top), (lane, bottom), (start, bottom)],
                bracket.colour.stroke_width(3),
            ))?;
        }

        for (i, (row, label)) in self.rows.iter().zip(&labels).enumerate() {
            let y = row_y(i);
            let (lx, ly) = chart.backend_coord(&(x0, y));
            root.draw(&Text::new(
                label.clone(),
                (lx - 10, ly),
                font(LABEL_SIZE).pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
            if !row.value.is_finite() {
                let (px, py) = chart.backend_coord(&(0.0, y));
                root.draw(&Text::new(
                    NA,
                    (px + 8, py),
                    muted(NOTE_SIZE).pos(Pos::new(HPos::Left, VPos::Center)),
                ))?;
                continue;
            }
            let lo = if row.lo.is_finite() {
                row.lo
            } else {
                row.value
            };
            let hi = if row.hi.is_finite() {
                row.hi
            } else {
                row.value
            };
            chart.draw_series(std::iter::once(ErrorBar::new_horizontal(
                y,
                lo,
                row.value,
                hi,
                row.colour.filled().stroke_width(2),
                12,
            )))?;
            // The value, just above its point, so the exact number is there
            // for whoever needs it without a table.
            let (px, py) = chart.backend_coord(&(row.value, y));
            root.draw(&Text::new(
                if self.signed {
                    signed(row.value, self.decimals)
                } else {
                    fixed(row.value, self.decimals)
                },
                (px, py - 9),
                font(NOTE_SIZE).pos(Pos::new(HPos::Center, VPos::Bottom)),
            ))?;
        }
        Ok(())
    }
}
