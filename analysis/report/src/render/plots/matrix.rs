//! The head-to-head heat map: row piece's score against column piece, the
//! number written in each cell with the games behind it. Drawn by hand on
//! pixel coordinates (not a chart) so that labels sit exactly on their
//! cells and the canvas grows with the number of players.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::super::super::model::RatingGroup;
use super::super::derived::{matrix_label, matrix_short};
use super::super::format::{count, games, percent};
use super::canvas::{Plot, PlotError};
use super::style::{
    HEADER_HEIGHT, LABEL_SIZE, MUTED, NEUTRAL, NOTE_SIZE, TEXT, diverging, diverging_key, fit,
    font, header, muted, text_width,
};

#[derive(Clone, Debug)]
pub(super) struct Matrix {
    title: String,
    rows: Vec<String>,
    columns: Vec<String>,
    /// `cells[i][j]`: (score of i against j, games), `None` if never met.
    cells: Vec<Vec<Option<(f64, u64)>>>,
    label_width: i32,
    cell: i32,
}

const MIN_CELL: i32 = 56;
const MAX_CELL: i32 = 110;
const COLUMN_HEADER: i32 = 56;
const KEY_HEIGHT: i32 = 96;

/// `None` when the group has no matrix to show.
pub(super) fn plot(group: &RatingGroup) -> Option<Matrix> {
    let n = group.matrix.len();
    if n == 0 {
        return None;
    }
    let rows: Vec<String> = (0..n)
        .map(|i| fit(&matrix_label(group, i), LABEL_SIZE, 320))
        .collect();
    let columns: Vec<String> = (0..n).map(|i| matrix_short(group, i)).collect();
    let cells: Vec<Vec<Option<(f64, u64)>>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let score = group
                        .matrix
                        .get(i)
                        .and_then(|r| r.get(j))
                        .copied()
                        .flatten();
                    let played = group
                        .matrix_games
                        .get(i)
                        .and_then(|r| r.get(j))
                        .copied()
                        .unwrap_or(0);
                    score.map(|s| (s, played))
                })
                .collect()
        })
        .collect();
    let total: u64 = (0..n)
        .flat_map(|i| ((i + 1)..n).map(move |j| (i, j)))
        .map(|(i, j)| cells[i][j].map_or(0, |c| c.1))
        .sum();
    let label_width = rows
        .iter()
        .map(|r| text_width(r, LABEL_SIZE))
        .max()
        .unwrap_or(40)
        .clamp(40, 320)
        + 20;
    let cell = ((1000 - label_width - 80) / n as i32).clamp(MIN_CELL, MAX_CELL);
    Some(Matrix {
        title: format!("{}: head-to-head scores ({})", group.title, games(total)),
        rows,
        columns,
        cells,
        label_width,
        cell,
    })
}

impl Matrix {
    fn grid_width(&self) -> i32 {
        self.cell * self.rows.len() as i32
    }
}

impl Plot for Matrix {
    fn title(&self) -> &str {
        &self.title
    }

    fn size(&self) -> (u32, u32) {
        let width = (self.label_width + self.grid_width() + 80).max(1000);
        let height = HEADER_HEIGHT + COLUMN_HEADER + self.grid_width() + KEY_HEIGHT;
        (width as u32, height.max(480) as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let body = header(
            root,
            &self.title,
            "Each cell: the row piece's score against the column piece (a draw counts half), and the games played.",
        )?;
        let (width, _) = body.dim_in_pixel();
        let n = self.rows.len() as i32;
        let c = self.cell;
        let x0 =
            ((width as i32 - self.label_width - self.grid_width()) / 2).max(10) + self.label_width;
        let y0 = COLUMN_HEADER;

        body.draw(&Text::new(
            "against →",
            (x0 - 10, y0 - 10),
            muted(NOTE_SIZE).pos(Pos::new(HPos::Right, VPos::Bottom)),
        ))?;
        for (j, name) in self.columns.iter().enumerate() {
            let cx = x0 + j as i32 * c + c / 2;
            body.draw(&Text::new(
                fit(name, LABEL_SIZE, c - 6),
                (cx, y0 - 10),
                font(LABEL_SIZE).pos(Pos::new(HPos::Center, VPos::Bottom)),
            ))?;
        }
        for (i, name) in self.rows.iter().enumerate() {
            let cy = y0 + i as i32 * c + c / 2;
            body.draw(&Text::new(
                name.clone(),
                (x0 - 10, cy),
                font(LABEL_SIZE).pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
            for j in 0..self.rows.len() {
                self.draw_cell(
                    &body,
                    (x0 + j as i32 * c, y0 + i as i32 * c),
                    i == j,
                    self.cells[i][j],
                )?;
            }
        }
        diverging_key(
            &body,
            (x0, y0 + n * c + 26),
            self.grid_width().clamp(240, 420),
            ["25% or less", "50%", "75% or more"],
            "red: row piece weaker · blue: row piece stronger",
        )
    }
}

impl Matrix {
    fn draw_cell<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (x, y): (i32, i32),
        diagonal: bool,
        value: Option<(f64, u64)>,
    ) -> Result<(), PlotError> {
        let c = self.cell;
        let centre = (x + c / 2, y + c / 2);
        let big = (c as f64 * 0.25).clamp(15.0, 22.0);
        let small = (c as f64 * 0.16).clamp(12.0, 15.0);
        let (fill, ink) = match value {
            _ if diagonal => (NEUTRAL, MUTED),
            Some((s, _)) if s.is_finite() => match score_colour(s) {
                (fill, true) => (fill, WHITE),
                (fill, false) => (fill, TEXT),
            },
            _ => (RGBColor(248, 249, 251), MUTED),
        };
        area.draw(&Rectangle::new(
            [(x + 1, y + 1), (x + c - 1, y + c - 1)],
            fill.filled(),
        ))?;
        let centred = Pos::new(HPos::Center, VPos::Center);
        let style = |size: f64| font(size).color(&ink).pos(centred);
        match value {
            _ if diagonal => area.draw(&Text::new("—", centre, style(big)))?,
            Some((s, played)) => {
                area.draw(&Text::new(
                    percent(s, 0),
                    (centre.0, centre.1 - c / 9),
                    style(big),
                ))?;
                let games_text = if c >= 80 {
                    format!("{} games", count(played))
                } else {
                    count(played)
                };
                area.draw(&Text::new(
                    fit(&games_text, small, c - 6),
                    (centre.0, centre.1 + c / 5),
                    style(small),
                ))?;
            }
            None => area.draw(&Text::new(
                fit("not played", small, c - 6),
                centre,
                style(small),
            ))?,
        }
        Ok(())
    }
}

/// Diverging colour for a score: white at 50%, blue when the row piece
/// scores more, red when less, saturated at 25% / 75%. The flag says the
/// colour is dark enough to need white text.
fn score_colour(score: f64) -> (RGBColor, bool) {
    diverging((score - 0.5) / 0.25)
}
