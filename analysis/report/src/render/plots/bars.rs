//! Horizontal (grouped) bar charts: one row per category, one bar per
//! series, the count written at the end of each bar. Horizontal so that
//! category names (termination reasons, piece names) are read in full.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::super::format::count;
use super::canvas::{Plot, PlotError};
use super::style::{LABEL_SIZE, NOTE_SIZE, fit, font, header, house_mesh, legend, text_width};

#[derive(Clone, Debug)]
pub(super) struct Bars {
    pub title: String,
    pub subtitle: String,
    pub x_label: String,
    /// Top to bottom.
    pub categories: Vec<String>,
    pub series: Vec<(String, RGBColor)>,
    /// `values[category][series]`.
    pub values: Vec<Vec<u64>>,
    /// Text at the end of each bar, same shape as `values`.
    pub labels: Vec<Vec<String>>,
}

impl Bars {
    fn bar_height(&self) -> u32 {
        if self.series.len() <= 1 { 28 } else { 14 }
    }

    fn group_height(&self) -> u32 {
        self.bar_height() * self.series.len().max(1) as u32 + 14
    }
}

impl Plot for Bars {
    fn title(&self) -> &str {
        &self.title
    }

    fn size(&self) -> (u32, u32) {
        let legend = if self.series.len() > 1 { 30 } else { 0 };
        (
            1000,
            (200 + legend + self.group_height() * self.categories.len() as u32).max(440),
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let body = header(root, &self.title, &self.subtitle)?;
        let body = if self.series.len() > 1 {
            legend(&body, &self.series)?
        } else {
            body
        };
        let n = self.categories.len().max(1);
        let labels: Vec<String> = self
            .categories
            .iter()
            .map(|c| fit(c, LABEL_SIZE, 280))
            .collect();
        let label_width = labels
            .iter()
            .map(|l| text_width(l, LABEL_SIZE))
            .max()
            .unwrap_or(40)
            .clamp(40, 280)
            + 22;
        let max = self
            .values
            .iter()
            .flatten()
            .copied()
            .max()
            .unwrap_or(0)
            .max(1) as f64;
        // Room right of the longest bar for its label.
        let x1 = max * 1.22;

        let mut chart = ChartBuilder::on(&body)
            .margin_left(12)
            .margin_right(36)
            .margin_top(8)
            .margin_bottom(12)
            .x_label_area_size(58)
            .y_label_area_size(label_width)
            .build_cartesian_2d(0f64..x1, 0f64..n as f64)?;
        let tick = |v: &f64| {
            if v.fract().abs() < 1e-9 {
                count(v.round() as u64)
            } else {
                String::new()
            }
        };
        house_mesh(
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(0)
                .x_labels(8)
                .x_label_formatter(&tick)
                .x_desc(self.x_label.as_str()),
        )
        .draw()?;

        // Bars fill a fixed share of their row, centred in it, whatever the
        // canvas height: thin enough to read as bars, with air between rows.
        let share = if self.series.len() <= 1 { 0.5 } else { 0.8 };
        let bar = share / self.series.len().max(1) as f64;
        let pad = (1.0 - share) / 2.0;
        let gap = bar * 0.08;
        for (i, label) in labels.iter().enumerate() {
            let top = n as f64 - i as f64;
            let (lx, ly) = chart.backend_coord(&(0.0, top - 0.5));
            root.draw(&Text::new(
                label.clone(),
                (lx - 10, ly),
                font(LABEL_SIZE).pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
            for (k, (_, colour)) in self.series.iter().enumerate() {
                let value = self
                    .values
                    .get(i)
                    .and_then(|v| v.get(k))
                    .copied()
                    .unwrap_or(0) as f64;
                let y1 = top - pad - k as f64 * bar;
                let y0 = y1 - bar + gap;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(0.0, y0), (value, y1)],
                    colour.filled(),
                )))?;
                let text = self
                    .labels
                    .get(i)
                    .and_then(|l| l.get(k))
                    .cloned()
                    .unwrap_or_default();
                let (px, py) = chart.backend_coord(&(value, (y0 + y1) / 2.0));
                let size = if self.series.len() > 1 {
                    NOTE_SIZE - 1.0
                } else {
                    NOTE_SIZE
                };
                root.draw(&Text::new(
                    text,
                    (px + 6, py),
                    font(size).pos(Pos::new(HPos::Left, VPos::Center)),
                ))?;
            }
        }
        Ok(())
    }
}
