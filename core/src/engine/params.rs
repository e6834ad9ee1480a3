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

use super::network::Network;
use crate::inherit::{ChainError, OwnFile, Resolver, merged_chain};
use crate::types::{Color, PieceType, Square};
use crate::variant::Variant;

/// Largest piece value a parameter file may set, in centipawns.
pub(crate) const MAX_PIECE_VALUE: i32 = 100_000;
/// Largest weight (in absolute value) a parameter file may set.
pub const MAX_WEIGHT: i32 = 10_000;

/// A middlegame / endgame pair, blended by game phase.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Phased {
    /// Middlegame weight.
    pub mg: i32,
    /// Endgame weight.
    pub eg: i32,
}

impl Phased {
    /// The pair of a middlegame and an endgame weight.
    pub const fn new(mg: i32, eg: i32) -> Phased {
        Phased { mg, eg }
    }

    /// Both halves zero: a term that is off (left out of a written file, so
    /// the files of earlier versions, which lacked it, read the same).
    pub fn is_zero(&self) -> bool {
        self.mg == 0 && self.eg == 0
    }
}

/// The evaluation's weights, for any variant, from a TOML file whose
/// every key is optional (the defaults are the engine's own).
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
    /// Per pawn-like piece sharing its file with another of its side, half
    /// each (negative: a penalty).
    pub doubled_pawn: Phased,
    /// Per pawn-like piece with none of its side on the neighbouring files
    /// (negative: a penalty).
    pub isolated_pawn: Phased,
    /// Passed pawn bonus by relative rank.
    pub passed_pawn: [Phased; 8],
    /// The royal piece per square of centralisation (negative: stay home).
    pub king_centralisation: Phased,
    /// Potential Chess: per attacked square around the safe king
    /// candidates, in centipawns (the orthodox evaluator uses `king_danger`).
    pub king_zone_attack: i32,
    /// Per own pawn-like piece in front of the royal piece.
    pub king_shield: i32,
    /// Danger to the royal piece, summed in units and charged
    /// `units² / 4096` centipawns in the middlegame (attacks combine).
    pub king_danger: KingDanger,
    /// An own piece the enemy attacks and nothing of ours defends.
    pub hanging: Phased,
    /// An own piece attacked by an enemy piece worth less, per 100
    /// centipawns of the attacked piece's value.
    pub threat_by_lesser: Phased,
    /// Bonus for the side to move, in centipawns.
    pub tempo: i32,
    /// A side with pieces of one colour-bound type (its moves keep it on
    /// its square's colour, like a bishop) on both colours: a bishop pair.
    #[serde(skip_serializing_if = "Phased::is_zero")]
    pub pair: Phased,
    /// A file-riding piece (it slides the whole file on an empty board,
    /// like a rook) on a file without pawn-like pieces.
    #[serde(skip_serializing_if = "Phased::is_zero")]
    pub open_file: Phased,
    /// The same on a file with enemy pawn-like pieces only.
    #[serde(skip_serializing_if = "Phased::is_zero")]
    pub half_open_file: Phased,
    /// Per passed pawn-like piece: the enemy royal piece's distance to the
    /// square in front of it less the own royal piece's, times the pawn's
    /// relative rank less 2 (none below the fourth rank).
    #[serde(skip_serializing_if = "Phased::is_zero")]
    pub passed_king_distance: Phased,
    /// A pawn-like piece beside an own one or a rank ahead of one on an
    /// adjacent file (a phalanx or a chain).
    #[serde(skip_serializing_if = "Phased::is_zero")]
    pub connected_pawn: Phased,
    /// Per passed pawn-like piece whose stop square is empty and not
    /// attacked by the enemy, times its relative rank less 2.
    #[serde(skip_serializing_if = "Phased::is_zero")]
    pub passed_free: Phased,
    /// A pawn-like piece with no own one beside or behind it on an
    /// adjacent file (but some on adjacent files: not isolated), whose
    /// stop square an enemy pawn-like piece attacks.
    #[serde(skip_serializing_if = "Phased::is_zero")]
    pub backward_pawn: Phased,
    /// A piece that is neither pawn-like, royal nor a file rider (like a
    /// knight or bishop) on its fourth to sixth rank, defended by an own
    /// pawn-like piece, with no enemy pawn-like piece ahead of it on the
    /// adjacent files to chase it away.
    #[serde(skip_serializing_if = "Phased::is_zero")]
    pub outpost: Phased,
    /// Per file at or beside the royal piece without own pawn-like pieces.
    #[serde(skip_serializing_if = "Phased::is_zero")]
    pub king_open_file: Phased,
    /// Endgame scaling by the stronger side's pawn-like pieces.
    #[serde(skip_serializing_if = "EndgameScale::is_off")]
    pub endgame_scale: EndgameScale,
    /// Endgames a material lead does not win without pawns: the whole
    /// score (the network's correction included) scaled toward a draw.
    /// None by default (and then left out of the file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pawnless_draw: Option<PawnlessDraw>,
    /// Mobility weights by upper-case piece letter, in place of `mobility`
    /// for that piece.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub mobility_by_piece: BTreeMap<String, Phased>,
    /// Per-square adjustments by upper-case piece letter, added to the
    /// piece-square bonus derived from reach (what `pocketlab tune
    /// --squares` fits). Empty by default: the derived bonus alone (and
    /// then left out of the file, which published logs record).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub piece_squares: BTreeMap<String, SquareTable>,
    /// A learned correction added to the evaluation (what `pocketlab tune
    /// --network` fits); none by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network: Option<Network>,
    /// The file a parameter file builds on, as written; only
    /// [`EvalParams::from_toml_inheriting`] follows it, and loaded
    /// parameters never carry it (nor does a written file).
    #[serde(skip_serializing)]
    pub(crate) inherits: Option<String>,
}

/// One piece's per-square adjustments in centipawns, 64 middlegame and 64
/// endgame values from White's side (a1, b1, … h8); Black's are the same
/// table mirrored rank for rank.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquareTable {
    /// Middlegame adjustments, a1 to h8.
    pub mg: Vec<i32>,
    /// Endgame adjustments, a1 to h8.
    pub eg: Vec<i32>,
}

impl SquareTable {
    /// A table of zeros (no adjustment).
    pub fn zero() -> SquareTable {
        SquareTable {
            mg: vec![0; 64],
            eg: vec![0; 64],
        }
    }

    /// The adjustment for a piece of `color` on `sq` (mirrored for Black).
    pub fn at(&self, color: Color, sq: Square) -> Phased {
        let sq = SquareTable::white_square(color, sq);
        Phased::new(self.mg[sq.index()], self.eg[sq.index()])
    }

    /// Where a piece of `color` on `sq` reads a table: the square itself
    /// for White, its rank mirror for Black.
    pub fn white_square(color: Color, sq: Square) -> Square {
        match color {
            Color::White => sq,
            Color::Black => sq.flip_vertical(),
        }
    }
}

/// The units of [`EvalParams::king_danger`]: what makes an attack on the
/// royal piece dangerous, for any Betza piece.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct KingDanger {
    /// Per enemy piece attacking the royal zone, per 100 centipawns of its
    /// value (capped at 10): strong attackers count more.
    pub attacker: i32,
    /// Per attack of an enemy piece on a square of the royal zone.
    pub zone_attack: i32,
    /// Per square from which an enemy board piece could give check by a
    /// move, where we do not defend.
    pub safe_check: i32,
    /// Per empty square a pocketed enemy piece could be dropped on to give
    /// check (drops land anywhere: every such square is a threat).
    pub drop_check: i32,
    /// Per own pawn-like piece in front of the royal piece (subtracted).
    pub shield: i32,
    /// Most centipawns the danger can cost.
    pub cap: i32,
}

/// How much of the endgame score counts when the stronger side (in the
/// endgame score) has few pawn-like pieces, board and pocket: `no_pawns +
/// per_pawn × pawns` 64ths, clamped to 0..=64. An edge without pawns is
/// hard to convert (a knight up and no pawns is a draw). The default
/// (64, 0) counts it whole: off.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EndgameScale {
    /// 64ths counted with no pawn-like piece.
    pub no_pawns: i32,
    /// 64ths added per pawn-like piece.
    pub per_pawn: i32,
}

/// [`EvalParams::pawnless_draw`]: the side the score favours has no
/// pawn-like piece, on the board or in its pocket, and leads in the other
/// pieces (royal ones aside; board and pocket, by piece value) by at most
/// `lead` centipawns, as a bishop against nothing or a rook against a
/// bishop. The score is then scaled to `scale` 64ths, and to 0 when that
/// side's pieces are worth less than `mating` centipawns in all (a lone
/// minor piece cannot mate). The search sees such endings as the draws
/// they mostly are, and keeps the pawns it needs to win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PawnlessDraw {
    /// The largest lead, in centipawns, that is scaled.
    pub lead: i32,
    /// Below this much material, in centipawns, the side cannot win: 0.
    pub mating: i32,
    /// The scale otherwise, in 64ths (0 to 64).
    pub scale: i32,
}

impl PawnlessDraw {
    fn validate(&self) -> Result<(), String> {
        for (key, value, range) in [
            ("lead", self.lead, 0..=MAX_PIECE_VALUE),
            ("mating", self.mating, 0..=MAX_PIECE_VALUE),
            ("scale", self.scale, 0..=64),
        ] {
            if !range.contains(&value) {
                return Err(format!(
                    "pawnless_draw.{key}: {value} is outside {} to {}",
                    range.start(),
                    range.end()
                ));
            }
        }
        Ok(())
    }
}

impl Default for EndgameScale {
    fn default() -> EndgameScale {
        EndgameScale {
            no_pawns: 64,
            per_pawn: 0,
        }
    }
}

impl EndgameScale {
    /// The default: the endgame score counts whole.
    pub(crate) fn is_off(&self) -> bool {
        *self == EndgameScale::default()
    }

    /// The scale in 64ths for a stronger side with `pawns` pawn-like pieces.
    pub(crate) fn sixty_fourths(&self, pawns: u32) -> i64 {
        (i64::from(self.no_pawns) + i64::from(self.per_pawn) * i64::from(pawns)).clamp(0, 64)
    }
}

impl Default for KingDanger {
    fn default() -> KingDanger {
        KingDanger {
            attacker: 8,
            zone_attack: 45,
            safe_check: 220,
            drop_check: 70,
            shield: 30,
            cap: 2_000,
        }
    }
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
            king_danger: KingDanger::default(),
            hanging: p(-40, -25),
            threat_by_lesser: p(-12, -8),
            tempo: 12,
            pair: p(0, 0),
            open_file: p(0, 0),
            half_open_file: p(0, 0),
            passed_king_distance: p(0, 0),
            connected_pawn: p(0, 0),
            passed_free: p(0, 0),
            backward_pawn: p(0, 0),
            outpost: p(0, 0),
            king_open_file: p(0, 0),
            endgame_scale: EndgameScale::default(),
            pawnless_draw: None,
            mobility_by_piece: BTreeMap::new(),
            piece_squares: BTreeMap::new(),
            network: None,
            inherits: None,
        }
    }
}

/// How a parameter file's `inherits` is followed (see [`Resolver`]).
pub type ParamsResolver<'a> = Resolver<'a>;

/// `text` checked on its own and merged over the chain it inherits from,
/// as TOML.
fn params_chain(
    file: &str,
    text: &str,
    resolve: &ParamsResolver<'_>,
) -> Result<toml::Table, ParamsError> {
    let own = |file: &str, text: &str| {
        let error = |reason: String| ParamsError {
            file: file.to_owned(),
            reason,
        };
        let own: EvalParams = toml::from_str(text)
            .map_err(|e| error(crate::variant::describe_toml_error(&e, text)))?;
        own.validate().map_err(error)?;
        let mut table: toml::Table = toml::from_str(text).expect("parsed just above");
        table.remove("inherits");
        Ok(OwnFile {
            table,
            inherits: own.inherits,
        })
    };
    match merged_chain(file, text, &own, resolve) {
        Ok((merged, _)) => Ok(merged),
        Err(ChainError::File(e)) => Err(e),
        Err(ChainError::Link { file, reason }) => Err(ParamsError {
            file,
            reason: format!("inherits: {reason}"),
        }),
    }
}

/// A parameter file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamsError {
    /// The file it was read from.
    pub file: String,
    /// What is wrong with it.
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
    /// The value in centipawns the evaluation gives `kind` on the board:
    /// this file's `piece_values` entry for its letter, else the variant's.
    pub fn piece_value(&self, variant: &Variant, kind: PieceType) -> i32 {
        self.piece_values
            .get(&variant.letter(kind).to_string())
            .copied()
            .unwrap_or(variant.piece(kind).value)
    }

    /// Parse a parameter file; keys it omits keep their defaults. A file
    /// that `inherits` another needs [`EvalParams::from_toml_inheriting`].
    pub fn from_toml(file: &str, text: &str) -> Result<EvalParams, ParamsError> {
        EvalParams::from_toml_inheriting(file, text, &|_, name| {
            Err(format!(
                "this reader does not follow 'inherits' (to '{name}'): give the whole file"
            ))
        })
    }

    /// Parse a parameter file that may build on another. With `inherits =
    /// "other.toml"` it starts from every value of that file (which may
    /// inherit in turn), and its own keys replace them one by one: within
    /// a table of weights such as `[king_danger]` key by key; a
    /// middlegame/endgame pair (`[mobility]`, which names both) and an
    /// array (`pawn_advance`, a square table's `mg`) whole. `resolve(file, name)`
    /// turns the `inherits` value `name` of `file` into the parent's
    /// `(file name, text)`, or says why it cannot; core reads no files.
    /// Each file is checked on its own first, so an error names the file
    /// and line that holds it.
    ///
    /// ```
    /// use pocketlab_core::engine::EvalParams;
    ///
    /// let base = "tempo = 20\n[king_danger]\nattacker = 9\nshield = 31\n";
    /// let child = "inherits = \"base.toml\"\n[king_danger]\nshield = 5\n";
    /// let params = EvalParams::from_toml_inheriting("child.toml", child, &|_, name| {
    ///     assert_eq!(name, "base.toml");
    ///     Ok(("base.toml".to_owned(), base.to_owned()))
    /// })
    /// .unwrap();
    /// assert_eq!(params.tempo, 20);
    /// assert_eq!((params.king_danger.attacker, params.king_danger.shield), (9, 5));
    /// ```
    pub fn from_toml_inheriting(
        file: &str,
        text: &str,
        resolve: &ParamsResolver<'_>,
    ) -> Result<EvalParams, ParamsError> {
        let merged = params_chain(file, text, resolve)?;
        let error = |reason: String| ParamsError {
            file: file.to_owned(),
            reason,
        };
        let params = EvalParams::deserialize(merged).map_err(|e| error(e.to_string()))?;
        params.validate().map_err(error)?;
        Ok(params)
    }

    /// Check every value against its documented bound, so no sum in the
    /// evaluation can overflow: piece values within ±`MAX_PIECE_VALUE`,
    /// weights within ±[`MAX_WEIGHT`], `pocket_value_percent` 0 to 400.
    pub fn validate(&self) -> Result<(), String> {
        let letter_ok =
            |letter: &str| letter.len() == 1 && letter.chars().all(|c| c.is_ascii_uppercase());
        for (table, values) in [
            ("piece_values", &self.piece_values),
            ("pocket_values", &self.pocket_values),
        ] {
            for (letter, &value) in values {
                if !letter_ok(letter) {
                    return Err(format!(
                        "{table}: '{letter}' is not an upper-case piece letter"
                    ));
                }
                if !(-MAX_PIECE_VALUE..=MAX_PIECE_VALUE).contains(&value) {
                    return Err(format!(
                        "{table}.{letter}: {value} is outside ±{MAX_PIECE_VALUE}"
                    ));
                }
            }
        }
        if let Some(letter) = self.mobility_by_piece.keys().find(|l| !letter_ok(l)) {
            return Err(format!(
                "mobility_by_piece: '{letter}' is not an upper-case piece letter"
            ));
        }
        for (letter, table) in &self.piece_squares {
            if !letter_ok(letter) {
                return Err(format!(
                    "piece_squares: '{letter}' is not an upper-case piece letter"
                ));
            }
            for (phase, values) in [("mg", &table.mg), ("eg", &table.eg)] {
                if values.len() != 64 {
                    return Err(format!(
                        "piece_squares.{letter}.{phase}: {} values, not 64 (one per square, a1 to h8)",
                        values.len()
                    ));
                }
                if let Some(v) = values
                    .iter()
                    .find(|v| !(-MAX_WEIGHT..=MAX_WEIGHT).contains(*v))
                {
                    return Err(format!(
                        "piece_squares.{letter}.{phase}: {v} is outside ±{MAX_WEIGHT}"
                    ));
                }
            }
        }
        if let Some(network) = &self.network {
            network.validate()?;
        }
        if let Some(pawnless) = &self.pawnless_draw {
            pawnless.validate()?;
        }
        if !(0..=400).contains(&self.pocket_value_percent) {
            return Err("pocket_value_percent must be between 0 and 400".into());
        }
        for (name, value) in self.weights() {
            if !(-MAX_WEIGHT..=MAX_WEIGHT).contains(&value) {
                return Err(format!("{name}: {value} is outside ±{MAX_WEIGHT}"));
            }
        }
        Ok(())
    }

    /// Every weight (not the piece values) with its key, as a file names it.
    pub fn weights(&self) -> Vec<(String, i32)> {
        self.clone()
            .weights_mut()
            .into_iter()
            .map(|(name, w)| (name, *w))
            .collect()
    }

    /// Every weight (not the piece values), by key, to change in place:
    /// what a tuner walks over.
    pub fn weights_mut(&mut self) -> Vec<(String, &mut i32)> {
        let mut out: Vec<(String, &mut i32)> = Vec::new();
        fn phased<'a>(out: &mut Vec<(String, &'a mut i32)>, name: &str, p: &'a mut Phased) {
            out.push((format!("{name}.mg"), &mut p.mg));
            out.push((format!("{name}.eg"), &mut p.eg));
        }
        phased(&mut out, "reach_square", &mut self.reach_square);
        phased(&mut out, "mobility", &mut self.mobility);
        for (i, p) in self.pawn_advance.iter_mut().enumerate() {
            phased(&mut out, &format!("pawn_advance[{i}]"), p);
        }
        phased(&mut out, "doubled_pawn", &mut self.doubled_pawn);
        phased(&mut out, "isolated_pawn", &mut self.isolated_pawn);
        for (i, p) in self.passed_pawn.iter_mut().enumerate() {
            phased(&mut out, &format!("passed_pawn[{i}]"), p);
        }
        phased(
            &mut out,
            "king_centralisation",
            &mut self.king_centralisation,
        );
        phased(&mut out, "hanging", &mut self.hanging);
        phased(&mut out, "threat_by_lesser", &mut self.threat_by_lesser);
        phased(&mut out, "pair", &mut self.pair);
        phased(&mut out, "open_file", &mut self.open_file);
        phased(&mut out, "half_open_file", &mut self.half_open_file);
        phased(
            &mut out,
            "passed_king_distance",
            &mut self.passed_king_distance,
        );
        phased(&mut out, "connected_pawn", &mut self.connected_pawn);
        phased(&mut out, "passed_free", &mut self.passed_free);
        phased(&mut out, "backward_pawn", &mut self.backward_pawn);
        phased(&mut out, "outpost", &mut self.outpost);
        phased(&mut out, "king_open_file", &mut self.king_open_file);
        for (letter, p) in self.mobility_by_piece.iter_mut() {
            phased(&mut out, &format!("mobility_by_piece.{letter}"), p);
        }
        let k = &mut self.king_danger;
        out.push(("king_zone_attack".into(), &mut self.king_zone_attack));
        out.push(("king_shield".into(), &mut self.king_shield));
        out.push(("king_danger.attacker".into(), &mut k.attacker));
        out.push(("king_danger.zone_attack".into(), &mut k.zone_attack));
        out.push(("king_danger.safe_check".into(), &mut k.safe_check));
        out.push(("king_danger.drop_check".into(), &mut k.drop_check));
        out.push(("king_danger.shield".into(), &mut k.shield));
        out.push(("king_danger.cap".into(), &mut k.cap));
        out.push(("tempo".into(), &mut self.tempo));
        out.push((
            "endgame_scale.no_pawns".into(),
            &mut self.endgame_scale.no_pawns,
        ));
        out.push((
            "endgame_scale.per_pawn".into(),
            &mut self.endgame_scale.per_pawn,
        ));
        out
    }

    /// The file form of these parameters; square tables are written a rank
    /// to a line.
    pub fn to_toml(&self) -> String {
        let scalars = EvalParams {
            piece_squares: BTreeMap::new(),
            network: None,
            ..self.clone()
        };
        let mut out = toml::to_string_pretty(&scalars).expect("evaluation parameters serialise");
        for (letter, table) in &self.piece_squares {
            out.push_str(&format!(
                "\n[piece_squares.{letter}]\n# From White's side: a1 to h1 on the first line, a8 to h8 on the last.\n"
            ));
            for (phase, values) in [("mg", &table.mg), ("eg", &table.eg)] {
                out.push_str(&format!("{phase} = [\n"));
                for rank in values.chunks(8) {
                    let line: Vec<String> = rank.iter().map(|v| format!("{v:>5}")).collect();
                    out.push_str(&format!("    {},\n", line.join(",")));
                }
                out.push_str("]\n");
            }
        }
        if let Some(net) = &self.network {
            out.push_str(&net.to_toml());
        }
        out
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

    #[test]
    fn the_pawnless_draw_rule_round_trips_and_is_checked() {
        assert!(!EvalParams::default().to_toml().contains("pawnless_draw"));
        let p = EvalParams {
            pawnless_draw: Some(PawnlessDraw {
                lead: 350,
                mating: 500,
                scale: 8,
            }),
            ..EvalParams::default()
        };
        let text = p.to_toml();
        assert!(text.contains("[pawnless_draw]"), "{text}");
        assert_eq!(EvalParams::from_toml("p.toml", &text).unwrap(), p);
        let bad = text.replace("scale = 8", "scale = 65");
        let err = EvalParams::from_toml("p.toml", &bad).unwrap_err();
        assert!(
            err.reason.contains("pawnless_draw.scale: 65"),
            "{}",
            err.reason
        );
        let unknown = text.replace("scale = 8", "scale = 8\nmargin = 3");
        assert!(EvalParams::from_toml("p.toml", &unknown).is_err());
    }

    #[test]
    fn square_tables_round_trip_and_are_checked() {
        assert!(
            !EvalParams::default().to_toml().contains("piece_squares"),
            "no tables: the file is as before they existed"
        );
        let mut p = EvalParams::default();
        let mut table = SquareTable::zero();
        table.mg[27] = 15;
        table.eg[0] = -7;
        p.piece_squares.insert("N".into(), table);
        let text = p.to_toml();
        assert_eq!(EvalParams::from_toml("p.toml", &text).unwrap(), p);
        let short = "[piece_squares.N]\nmg = [1, 2]\neg = [3]";
        let err = EvalParams::from_toml("p.toml", short).unwrap_err();
        assert!(
            err.reason.contains("piece_squares.N.mg: 2 values"),
            "{}",
            err.reason
        );
        let zeros = vec!["0"; 64].join(", ");
        let lower = format!("[piece_squares.n]\nmg = [{zeros}]\neg = [{zeros}]");
        assert!(EvalParams::from_toml("p.toml", &lower).is_err());
        let huge = format!(
            "[piece_squares.N]\nmg = [{zeros}]\neg = [99999{}]",
            ", 0".repeat(63)
        );
        let err = EvalParams::from_toml("p.toml", &huge).unwrap_err();
        assert!(
            err.reason.contains("piece_squares.N.eg: 99999"),
            "{}",
            err.reason
        );
    }

    #[test]
    fn black_reads_the_table_mirrored() {
        let mut table = SquareTable::zero();
        table.mg[Square::from_coords(3, 1).index()] = 9;
        assert_eq!(table.at(Color::White, Square::from_coords(3, 1)).mg, 9);
        assert_eq!(table.at(Color::Black, Square::from_coords(3, 6)).mg, 9);
        assert_eq!(table.at(Color::Black, Square::from_coords(3, 1)).mg, 0);
    }

    /// Resolves names among `files` (name, text), as a directory would.
    fn among<'a>(
        files: &'a [(&'a str, &'a str)],
    ) -> impl Fn(&str, &str) -> Result<(String, String), String> + 'a {
        move |_, name| {
            files
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
                .ok_or_else(|| format!("no file '{name}'"))
        }
    }

    #[test]
    fn inherited_files_merge_tables_key_by_key_and_replace_values_whole() {
        let knight = |mg: i32, eg: i32| {
            let row = |v: i32| format!("[{}]", vec![v.to_string(); 64].join(", "));
            format!("[piece_squares.N]\nmg = {}\neg = {}\n", row(mg), row(eg))
        };
        let grand = "tempo = 7\npocket_value_percent = 90\n[mobility]\nmg = 1\neg = 2\n";
        let parent = format!(
            "inherits = \"grand.toml\"\ntempo = 9\n[king_danger]\nattacker = 3\n{}",
            knight(1, 2)
        );
        let files = [("grand.toml", grand), ("parent.toml", parent.as_str())];
        let child = format!(
            "inherits = \"parent.toml\"\n[mobility]\nmg = 6\neg = 5\n[king_danger]\nshield = 4\n{}",
            knight(3, 4)
        );
        let p = EvalParams::from_toml_inheriting("child.toml", &child, &among(&files)).unwrap();
        assert_eq!(
            (p.tempo, p.pocket_value_percent),
            (9, 90),
            "the nearest file wins"
        );
        assert_eq!(p.mobility, Phased::new(6, 5), "a pair is one value");
        assert_eq!(
            (p.king_danger.attacker, p.king_danger.shield),
            (3, 4),
            "a table of weights merges key by key"
        );
        let n = &p.piece_squares["N"];
        assert_eq!((n.mg[0], n.eg[63]), (3, 4), "a square table is one value");
        assert_eq!(p.inherits, None, "loaded parameters carry no link");
        assert!(!p.to_toml().contains("inherits"));
        assert_eq!(
            p,
            EvalParams::from_toml("whole.toml", &p.to_toml()).unwrap(),
            "the merged values written out read back alike"
        );
    }

    #[test]
    fn bad_inheritance_names_the_file_and_the_reason() {
        let message = |file: &str, text: &str, files: &[(&str, &str)]| {
            EvalParams::from_toml_inheriting(file, text, &among(files))
                .unwrap_err()
                .to_string()
        };
        let err = message("a.toml", "inherits = \"gone.toml\"", &[]);
        assert!(
            err.contains("'a.toml'") && err.contains("no file 'gone.toml'"),
            "{err}"
        );
        let looped = [
            ("a.toml", "inherits = \"b.toml\""),
            ("b.toml", "inherits = \"a.toml\""),
        ];
        let err = message("a.toml", "inherits = \"b.toml\"", &looped);
        assert!(err.contains("cycle through 'a.toml'"), "{err}");
        let itself = [("s.toml", "inherits = \"s.toml\"")];
        assert!(message("s.toml", "inherits = \"s.toml\"", &itself).contains("cycle"));
        // An unknown key is found in its own file, with its line.
        let parent = [("p.toml", "tempo = 3\nmobilty = 2\n")];
        let err = message("c.toml", "inherits = \"p.toml\"\ntempo = 4", &parent);
        assert!(err.contains("'p.toml'") && err.contains("line 2"), "{err}");
        let err = message("c.toml", "inherits = 3", &[]);
        assert!(err.contains("'c.toml'") && err.contains("line 1"), "{err}");
        let err = EvalParams::from_toml("c.toml", "inherits = \"p.toml\"").unwrap_err();
        assert!(
            err.to_string().contains("does not follow 'inherits'"),
            "{err}"
        );
        // A value out of range in the parent is the parent's error.
        let parent = [("p.toml", "tempo = 99999")];
        let err = message("c.toml", "inherits = \"p.toml\"", &parent);
        assert!(err.contains("'p.toml'") && err.contains("tempo"), "{err}");
    }
}
