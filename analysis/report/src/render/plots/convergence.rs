//! How training's learned values moved generation by generation: flat
//! lines at the end mean the values settled. Each line is labelled with
//! its piece letter at its end; labels are nudged apart so they never
//! overlap, however close the values.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::super::super::model::Report;
use super::super::format::{count, fixed};
use super::canvas::{Plot, PlotError};
use super::style::{LABEL_SIZE, axis_range, font, header, house_mesh, palette, tick_decimals};

#[derive(Clone, Debug)]
pub(super) struct Convergence {
    title: String,
    lines: Vec<Line>,
}

/// One piece's values over the generations.
#[derive(Clone, Debug)]
struct Line {
    letter: String,
    colour: RGBColor,
    /// `(generation, value)`, never empty.
    points: Vec<(f64, f64)>,
}

/// `None` unless training recorded at least one value.
pub(super) fn plot(report: &Report) -> Option<Convergence> {
    let t = report.training.as_ref()?;
    let mut letters: Vec<String> = Vec::new();
    for (_, values) in &t.history {
        for (letter, _) in values {
            if !letters.contains(letter) {
                letters.push(letter.clone());
            }
        }
    }
    let lines: Vec<Line> = letters
        .into_iter()
        .enumerate()
        .map(|(i, letter)| {
            let points = t
                .history
                .iter()
                .filter_map(|(generation, values)| {
                    let v = values.iter().find(|(l, _)| *l == letter)?.1;
                    v.is_finite().then_some((f64::from(*generation), v))
                })
                .collect();
            Line {
                letter,
                colour: palette(i),
                points,
            }
        })
        .filter(|line| !line.points.is_empty())
        .collect();
    if lines.is_empty() {
        return None;
    }
    let generations = t.history.len() as u64;
    Some(Convergence {
        title: format!(
            "Learned piece values per generation ({} generation{})",
            count(generations),
            if generations == 1 { "" } else { "s" }
        ),
        lines,
    })
}

impl Plot for Convergence {
    fn title(&self) -> &str {
        &self.title
    }

    fn size(&self) -> (u32, u32) {
        (1000, 600)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let body = header(
            root,
            &self.title,
            "Each line is one piece, labelled by its letter at the right end.",
        )?;
        let points = || self.lines.iter().flat_map(|l| l.points.iter());
        let (g0, g1) = {
            let lo = points().map(|p| p.0).fold(f64::INFINITY, f64::min);
            let hi = points().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
            if hi > lo {
                (lo, hi)
            } else {
                (lo - 0.5, hi + 0.5)
            }
        };
        let (y0, y1) = axis_range(points().map(|p| p.1), 0.06);
        let decimals = tick_decimals(y0, y1);
        let mut chart = ChartBuilder::on(&body)
            .margin_left(12)
            .margin_right(70)
            .margin_top(10)
            .margin_bottom(12)
            .x_label_area_size(58)
            .y_label_area_size(80)
            .build_cartesian_2d(g0..g1, y0..y1)?;
        let generation = |v: &f64| {
            if v.fract().abs() < 1e-9 {
                fixed(*v, 0)
            } else {
                String::new()
            }
        };
        let value = |v: &f64| fixed(*v, decimals);
        house_mesh(
            chart
                .configure_mesh()
                .x_labels(12)
                .y_labels(10)
                .x_label_formatter(&generation)
                .y_label_formatter(&value)
                .x_desc("generation")
                .y_desc("value in pawns"),
        )
        .draw()?;

        let mut ends = Vec::with_capacity(self.lines.len());
        for Line {
            letter,
            colour,
            points,
        } in &self.lines
        {
            chart.draw_series(std::iter::once(PathElement::new(
                points.clone(),
                colour.stroke_width(2),
            )))?;
            if points.len() <= 40 {
                chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
            }
            if let Some(&last) = points.last() {
                let (x, y) = chart.backend_coord(&last);
                ends.push((y, x, letter.clone(), *colour));
            }
        }
        // End labels, top to bottom, at least one label height apart.
        ends.sort_by_key(|e| e.0);
        let mut previous = i32::MIN / 2;
        let right = chart.backend_coord(&(g1, y0)).0;
        for (y, _, letter, colour) in ends {
            let y = y.max(previous + 17);
            previous = y;
            root.draw(&Text::new(
                letter,
                (right + 8, y),
                font(LABEL_SIZE)
                    .color(&colour)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
        }
        Ok(())
    }
}
