//! The board heat map of a square-colour map: each square shaded by the
//! value of a piece standing there (blue above the average piece, red
//! below), with a swatch of the square's map colour and its letter, so the
//! designer sees the map and what it is worth in one picture.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::super::super::model::{ColourValues, Report};
use super::super::format::{count, fixed};
use super::canvas::{Plot, PlotError};
use super::style::{
    GRID, LABEL_SIZE, MUTED, NOTE_SIZE, TEXT, diverging, diverging_key, font, header, palette,
};

const CELL: i32 = 76;
const MARGIN: i32 = 40;
const KEY_HEIGHT: i32 = 90;

#[derive(Clone, Debug)]
pub(super) struct ColourMap {
    title: String,
    /// Map letter per square, a1 = 0.
    letters: Vec<char>,
    /// Swatch colour per square, a1 = 0.
    swatches: Vec<RGBColor>,
    values: Vec<Option<f64>>,
    /// Largest distance from 1.0 shown at full strength.
    span: f64,
}

/// `None` when the report has no colour values.
pub(super) fn plot(report: &Report) -> Option<ColourMap> {
    let values = report.colour_values.as_ref()?;
    if values.positions == 0 || values.map.len() != 8 {
        return None;
    }
    let letters: Vec<char> = (0..64)
        .map(|sq| {
            let row = &values.map[7 - sq / 8];
            row.chars().nth(sq % 8).unwrap_or('?')
        })
        .collect();
    let swatches = letters
        .iter()
        .map(|&l| swatch(values, l))
        .collect::<Vec<_>>();
    let span = values
        .squares
        .iter()
        .flatten()
        .map(|v| (v - 1.0).abs())
        .fold(0.2, f64::max);
    Some(ColourMap {
        title: format!(
            "What standing on each square is worth ({} positions, {} games)",
            count(values.positions),
            count(values.games)
        ),
        letters,
        swatches,
        values: values.squares.clone(),
        span,
    })
}

/// The map colour's own shade, when its name is a colour; else a palette colour.
fn swatch(values: &ColourValues, letter: char) -> RGBColor {
    let index = values
        .colours
        .iter()
        .position(|c| c.letter.starts_with(letter));
    let name = index.map_or("", |i| values.colours[i].name.as_str());
    match name.to_ascii_lowercase().as_str() {
        "yellow" => RGBColor(240, 200, 30),
        "blue" => RGBColor(40, 90, 200),
        "red" => RGBColor(200, 40, 40),
        "black" => RGBColor(20, 20, 20),
        "white" => RGBColor(255, 255, 255),
        "green" => RGBColor(40, 150, 70),
        "orange" => RGBColor(240, 130, 20),
        "purple" | "violet" => RGBColor(130, 60, 170),
        "grey" | "gray" => RGBColor(140, 140, 140),
        _ => palette(index.unwrap_or(0)),
    }
}

impl Plot for ColourMap {
    fn title(&self) -> &str {
        &self.title
    }

    fn size(&self) -> (u32, u32) {
        let side = 8 * CELL + 2 * MARGIN;
        (side.max(760) as u32, (86 + side + KEY_HEIGHT) as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        let body = header(
            root,
            &self.title,
            "Value of a piece on each square from its owner's side (1.00 = the average piece); corner swatch: the square's colour.",
        )?;
        let (width, _) = body.dim_in_pixel();
        let x0 = (width as i32 - 8 * CELL) / 2;
        let y0 = 16;
        for sq in 0..64usize {
            let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
            let (x, y) = (x0 + file * CELL, y0 + (7 - rank) * CELL);
            self.draw_square(&body, (x, y), sq)?;
        }
        for i in 0..8 {
            let file = char::from(b'a' + i as u8).to_string();
            body.draw(&Text::new(
                file,
                (x0 + i * CELL + CELL / 2, y0 + 8 * CELL + 6),
                font(LABEL_SIZE).pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
            body.draw(&Text::new(
                (8 - i).to_string(),
                (x0 - 10, y0 + i * CELL + CELL / 2),
                font(LABEL_SIZE).pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
        }
        let (low, high) = (fixed(1.0 - self.span, 2), fixed(1.0 + self.span, 2));
        diverging_key(
            &body,
            (x0, y0 + 8 * CELL + 34),
            8 * CELL,
            [&low, "1.00", &high],
            "red: worth less than the average piece · blue: worth more · –: too rarely occupied",
        )
    }
}

impl ColourMap {
    fn draw_square<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (x, y): (i32, i32),
        sq: usize,
    ) -> Result<(), PlotError> {
        let value = self.values.get(sq).copied().flatten();
        let (fill, ink) = match value {
            Some(v) => value_colour(v, self.span),
            None => (RGBColor(248, 249, 251), MUTED),
        };
        area.draw(&Rectangle::new(
            [(x, y), (x + CELL, y + CELL)],
            fill.filled(),
        ))?;
        area.draw(&Rectangle::new(
            [(x, y), (x + CELL, y + CELL)],
            GRID.stroke_width(1),
        ))?;
        // Swatch of the map colour, outlined so white shows on white.
        let s = 16;
        area.draw(&Rectangle::new(
            [(x + 4, y + 4), (x + 4 + s, y + 4 + s)],
            self.swatches[sq].filled(),
        ))?;
        area.draw(&Rectangle::new(
            [(x + 4, y + 4), (x + 4 + s, y + 4 + s)],
            MUTED.stroke_width(1),
        ))?;
        area.draw(&Text::new(
            self.letters[sq].to_string(),
            (x + CELL - 6, y + 5),
            font(NOTE_SIZE)
                .color(&ink)
                .pos(Pos::new(HPos::Right, VPos::Top)),
        ))?;
        let text = value.map_or_else(|| "–".to_owned(), |v| fixed(v, 2));
        area.draw(&Text::new(
            text,
            (x + CELL / 2, y + CELL / 2 + 8),
            font(18.0)
                .color(&ink)
                .pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
        Ok(())
    }
}

/// Diverging colour around 1.0, saturated at `1 ± span`, with the text
/// colour that reads on it.
fn value_colour(value: f64, span: f64) -> (RGBColor, RGBColor) {
    let (fill, dark) = diverging((value - 1.0) / span);
    (fill, if dark { WHITE } else { TEXT })
}
