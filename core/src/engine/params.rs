//! Every evaluation weight in one struct, loadable from a TOML file.
//!
//! Weights are generic: they apply to whatever pieces a variant defines, via
//! the piece's move pattern (reach, mobility), its value and its pawn flag.
//! No weight names a particular fairy piece. Piece values default to the
//! variant file's `value`; `piece_values` overrides them by letter (the lab
//! writes learned values there).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A middlegame / endgame pair, blended by game phase.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Phased {
    pub mg: i32,
    pub eg: i32,
}

impl Phased {
    pub const fn new(mg: i32, eg: i32) -> Phased {
        Phased { mg, eg }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvalParams {
    /// Piece values in centipawns by upper-case letter, overriding the variant's.
    pub piece_values: BTreeMap<String, i32>,
    /// A pocketed piece is worth its value times this percentage (it can land anywhere).
    pub pocket_value_percent: i32,
    /// Pocketed-piece values in centipawns by letter, overriding the percentage (learned values).
    pub pocket_values: BTreeMap<String, i32>,
    /// Per square of difference between a piece's empty-board reach on a
    /// square and its average reach (centralisation), in 1/16 centipawn.
    pub reach_square: Phased,
    /// Per square a piece can move to now, beyond half its average reach, in 1/16 centipawn.
    pub mobility: Phased,
    /// Bonus for a pawn-like piece by relative rank (index 0 = first rank).
    pub pawn_advance: [Phased; 8],
    pub doubled_pawn: Phased,
    pub isolated_pawn: Phased,
    /// Passed pawn bonus by relative rank.
    pub passed_pawn: [Phased; 8],
    /// The royal piece per square of centralisation (negative: stay home).
    pub king_centralisation: Phased,
    /// Per enemy piece-attack on the squares around the royal piece.
    pub king_zone_attack: i32,
    /// Per own pawn-like piece in front of the royal piece.
    pub king_shield: i32,
    pub tempo: i32,
}

impl Default for EvalParams {
    fn default() -> EvalParams {
        let p = Phased::new;
        EvalParams {
            piece_values: BTreeMap::new(),
            pocket_value_percent: 100,
            pocket_values: BTreeMap::new(),
            reach_square: p(24, 16),
            mobility: p(40, 56),
            pawn_advance: [
                p(0, 0),
                p(0, 0),
                p(2, 6),
                p(6, 14),
                p(12, 28),
                p(20, 50),
                p(30, 80),
                p(0, 0),
            ],
            doubled_pawn: p(-10, -20),
            isolated_pawn: p(-10, -12),
            passed_pawn: [
                p(0, 0),
                p(2, 8),
                p(5, 12),
                p(10, 25),
                p(20, 45),
                p(35, 75),
                p(60, 110),
                p(0, 0),
            ],
            king_centralisation: p(-6, 8),
            king_zone_attack: 7,
            king_shield: 8,
            tempo: 12,
        }
    }
}

/// A parameter file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamsError {
    pub file: String,
    pub reason: String,
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "evaluation parameter file '{}': {}",
            self.file, self.reason
        )
    }
}

impl std::error::Error for ParamsError {}

impl EvalParams {
    /// Parse a parameter file; keys it omits keep their defaults.
    pub fn from_toml(file: &str, text: &str) -> Result<EvalParams, ParamsError> {
        let params: EvalParams = toml::from_str(text).map_err(|e| ParamsError {
            file: file.to_owned(),
            reason: crate::variant::describe_toml_error(&e, text),
        })?;
        for (letter, value) in params.piece_values.iter().chain(&params.pocket_values) {
            let ok = letter.len() == 1 && letter.chars().all(|c| c.is_ascii_uppercase());
            if !ok {
                return Err(ParamsError {
                    file: file.to_owned(),
                    reason: format!("piece_values: '{letter}' is not an upper-case piece letter"),
                });
            }
            if value.abs() > 100_000 {
                return Err(ParamsError {
                    file: file.to_owned(),
                    reason: format!("piece_values.{letter}: {value} is out of range"),
                });
            }
        }
        if !(0..=400).contains(&params.pocket_value_percent) {
            return Err(ParamsError {
                file: file.to_owned(),
                reason: "pocket_value_percent must be between 0 and 400".into(),
            });
        }
        Ok(params)
    }

    /// The file form of these parameters.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("evaluation parameters serialise")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_toml_and_rejects_unknown_keys() {
        let mut p = EvalParams::default();
        p.piece_values.insert("N".into(), 333);
        let text = p.to_toml();
        assert_eq!(EvalParams::from_toml("p.toml", &text).unwrap(), p);
        assert!(
            EvalParams::from_toml("p.toml", "mobilty = 3")
                .unwrap_err()
                .reason
                .contains("mobilty")
        );
        assert!(EvalParams::from_toml("p.toml", "[piece_values]\nn = 3").is_err());
        assert_eq!(
            EvalParams::from_toml("p.toml", "tempo = 3").unwrap().tempo,
            3
        );
    }
}
