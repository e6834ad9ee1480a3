//! Game length histogram with the mean and median marked: how long games
//! last shows whether a variant is drawish, decisive or prone to long
//! shuffling endgames.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::super::super::model::Report;
use super::super::format::{count, fixed, games};
use super::canvas::{Plot, PlotError};
use super::style::{TEXT, header, house_mesh, legend, palette};

#[derive(Clone, Debug)]
pub(super) struct Lengths {
    title: String,
    subtitle: String,
    /// `(from ply, to ply exclusive, games)`, non-empty.
    bins: Vec<(u32, u32, u64)>,
    mean: f64,
    median: f64,
}

/// `None` when there is no game to count.
pub(super) fn plot(report: &Report) -> Option<Lengths> {
    let l = &report.balance.length;
    let bins: Vec<(u32, u32, u64)> = l
        .histogram
        .iter()
        .copied()
        .filter(|(from, to, _)| to > from)
        .collect();
    let total: u64 = bins.iter().map(|b| b.2).sum();
    if total == 0 {
        return None;
    }
    let subtitle = if l.mean.is_finite() && l.median.is_finite() {
        format!(
            "Median {} plies, mean {}; 80% of games last {} to {} plies (a ply is one player's move).",
            fixed(l.median, 0),
            fixed(l.mean, 1),
            fixed(l.p10, 0),
            fixed(l.p90, 0)
        )
    } else {
        "A ply is one player's move.".to_owned()
    };
    Some(Lengths {
        title: format!("Game length ({})", games(total)),
        subtitle,
        bins,
        mean: l.mean,
        median: l.median,
    })
}

impl Plot for Lengths {
    fn title(&self) -> &str {
        &self.title
    }

    fn size(&self) -> (u32, u32) {
        (1000, 600)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let body = header(root, &self.title, &self.subtitle)?;
        let mut marks = Vec::new();
        if self.median.is_finite() {
            marks.push((format!("median {}", fixed(self.median, 0)), TEXT));
        }
        if self.mean.is_finite() {
            marks.push((format!("mean {}", fixed(self.mean, 1)), palette(1)));
        }
        let body = legend(&body, &marks)?;
        let x0 = self.bins.iter().map(|b| b.0).min().unwrap_or(0) as f64;
        let x1 = self.bins.iter().map(|b| b.1).max().unwrap_or(1) as f64;
        let top = self.bins.iter().map(|b| b.2).max().unwrap_or(1).max(1) as f64 * 1.1;

        let mut chart = ChartBuilder::on(&body)
            .margin_left(12)
            .margin_right(36)
            .margin_top(8)
            .margin_bottom(12)
            .x_label_area_size(58)
            .y_label_area_size(84)
            .build_cartesian_2d(x0..x1, 0f64..top)?;
        let whole = |v: &f64| {
            if v.fract().abs() < 1e-9 {
                count(v.max(0.0).round() as u64)
            } else {
                fixed(*v, 1)
            }
        };
        house_mesh(
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(12)
                .y_labels(8)
                .x_label_formatter(&whole)
                .y_label_formatter(&whole)
                .x_desc("game length in plies")
                .y_desc("games"),
        )
        .draw()?;

        chart.draw_series(self.bins.iter().map(|&(from, to, n)| {
            let gap = (to - from) as f64 * 0.04;
            Rectangle::new(
                [(from as f64 + gap, 0.0), (to as f64 - gap, n as f64)],
                palette(0).mix(0.85).filled(),
            )
        }))?;
        for (value, colour) in [(self.median, TEXT), (self.mean, palette(1))] {
            if value.is_finite() && value >= x0 && value <= x1 {
                chart.draw_series(std::iter::once(PathElement::new(
                    [(value, 0.0), (value, top)],
                    colour.stroke_width(3),
                )))?;
            }
        }
        Ok(())
    }
}
