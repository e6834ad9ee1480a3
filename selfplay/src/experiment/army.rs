//! Armies: one side's pieces of the variant's start position, transformed
//! by substitutions, removals and pocketed pieces, with or without its
//! castling rights and (Potential Chess) with hidden or known identities.

use pocketlab_core::potential::{Army as PotentialArmy, PotentialPosition};
use pocketlab_core::{Color, Piece, PieceType, Position, Square, Variant};

use super::EngineSettings;

/// One side's setup and engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Army {
    /// The army's name, as `[armies.NAME]` or a generator gives it; the
    /// log's `white` and `black` columns.
    pub name: String,
    /// Letter substitutions applied to this side's pieces.
    pub replace: Vec<(PieceType, PieceType)>,
    /// Squares emptied, from this side's view (White's coordinates, mirrored for Black).
    pub remove: Vec<Square>,
    /// Pieces put on given squares (this side's view) in place of the
    /// piece standing there: one knight of two becomes a bishop.
    pub place: Vec<(Square, PieceType)>,
    /// Pieces in this side's pocket at the start, besides the variant's
    /// own (the variant must have a pocket).
    pub pocket: Vec<PieceType>,
    /// Whether the side keeps the castling rights of the start position.
    pub castling: bool,
    /// Potential Chess: whether the side's pieces start with hidden
    /// identities (every type of the army) or known ones.
    pub identities: Identities,
    /// Who plays this army, and how each move is searched.
    pub engine: EngineSettings,
}

/// What the opponent knows of a Potential Chess army's pieces at the start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Identities {
    /// Every piece may still be any type of the army (the game's rule).
    #[default]
    Potential,
    /// Every piece is the type the variant's start array puts on its
    /// square, known to both sides from the first move: orthodox chess
    /// pieces against an army of potentials.
    Fixed,
}

impl Army {
    /// The army with nothing changed.
    pub fn base(name: &str, engine: EngineSettings) -> Army {
        Army {
            name: name.to_owned(),
            replace: Vec::new(),
            remove: Vec::new(),
            place: Vec::new(),
            pocket: Vec::new(),
            castling: true,
            identities: Identities::Potential,
            engine,
        }
    }

    /// Whether the army's start differs from the variant's in anything
    /// but its pieces: castling rights or known identities.
    fn changes_rules(&self) -> bool {
        !self.castling || self.identities != Identities::Potential
    }

    /// A short description for logs and reports: `N->I, b1=B, -f2, +[P]`.
    pub fn describe(&self, variant: &Variant) -> String {
        let mut parts: Vec<String> = self
            .replace
            .iter()
            .map(|&(a, b)| format!("{}->{}", variant.letter(a), variant.letter(b)))
            .collect();
        parts.extend(
            self.place
                .iter()
                .map(|&(s, t)| format!("{s}={}", variant.letter(t))),
        );
        parts.extend(self.remove.iter().map(|s| format!("-{s}")));
        if !self.pocket.is_empty() {
            parts.push(format!(
                "+[{}]",
                self.pocket
                    .iter()
                    .map(|&t| variant.letter(t))
                    .collect::<String>()
            ));
        }
        if !self.castling {
            parts.push("no castling".to_owned());
        }
        if self.identities == Identities::Fixed {
            parts.push("fixed identities".to_owned());
        }
        if parts.is_empty() {
            "base".to_owned()
        } else {
            parts.join(", ")
        }
    }

    fn transform(&self, piece: Piece, sq: Square) -> Option<Piece> {
        let own_view = match piece.color {
            Color::White => sq,
            Color::Black => sq.flip_vertical(),
        };
        if self.remove.contains(&own_view) {
            return None;
        }
        if let Some(&(_, kind)) = self.place.iter().find(|(s, _)| *s == own_view) {
            return Some(Piece {
                color: piece.color,
                kind,
            });
        }
        let kind = self
            .replace
            .iter()
            .find(|(from, _)| *from == piece.kind)
            .map_or(piece.kind, |&(_, to)| to);
        Some(Piece {
            color: piece.color,
            kind,
        })
    }
}

/// How many pieces two armies exchange: the squares (each side's own view)
/// whose start pieces differ, when the armies differ in nothing else (the
/// same squares occupied, the same pocket). `None` when they differ in more
/// than exchanged pieces (removed pawns, pockets) or in no piece at all
/// (armies that differ only in their engine). A report divides the armies'
/// difference by it for a per-piece figure.
pub fn pieces_exchanged(variant: &Variant, a: &Army, b: &Army) -> Option<u32> {
    let sorted = |pocket: &[PieceType]| {
        let mut p = pocket.to_vec();
        p.sort_by_key(|t| variant.letter(*t));
        p
    };
    if sorted(&a.pocket) != sorted(&b.pocket) || a.changes_rules() || b.changes_rules() {
        return None;
    }
    let base = Position::start(variant);
    let mut exchanged = 0;
    for sq in Square::all() {
        let Some(piece) = base.piece_at(sq).filter(|p| p.color == Color::White) else {
            continue;
        };
        match (a.transform(piece, sq), b.transform(piece, sq)) {
            (Some(x), Some(y)) if x.kind != y.kind => exchanged += 1,
            (Some(_), Some(_)) | (None, None) => {}
            _ => return None,
        }
    }
    (exchanged > 0).then_some(exchanged)
}

/// Whether two armies start with the same pieces on the same squares and
/// in the pocket (so a matchup between them compares only their engines).
pub fn same_setup(variant: &Variant, a: &Army, b: &Army) -> bool {
    let sorted = |pocket: &[PieceType]| {
        let mut p = pocket.to_vec();
        p.sort_by_key(|t| variant.letter(*t));
        p
    };
    let base = Position::start(variant);
    sorted(&a.pocket) == sorted(&b.pocket)
        && a.castling == b.castling
        && a.identities == b.identities
        && Square::all().all(|sq| {
            base.piece_at(sq)
                .filter(|p| p.color == Color::White)
                .is_none_or(|piece| a.transform(piece, sq) == b.transform(piece, sq))
        })
}

/// Whether `a` and `b` play every game alike: the same setup
/// ([`same_setup`]) and the same engine, reproducible (no time limit) and
/// without root noise. Matched against each other, each colour-swapped
/// pair's second game repeats its first move for move.
pub fn plays_alike(variant: &Variant, a: &Army, b: &Army) -> bool {
    same_setup(variant, a, b)
        && a.engine == b.engine
        && !a.engine.is_time_limited()
        && a.engine.root_noise == 0
}

/// The start FEN with `white`'s army for White and `black`'s for Black.
pub fn start_fen(variant: &Variant, white: &Army, black: &Army) -> Result<String, String> {
    let base = Position::start(variant);
    let mut board: [Option<Piece>; 64] = [None; 64];
    for sq in Square::all() {
        if let Some(p) = base.piece_at(sq) {
            let army = if p.color == Color::White {
                white
            } else {
                black
            };
            board[sq.index()] = army.transform(p, sq);
        }
    }
    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[Square::from_coords(file, rank).index()] {
                Some(p) => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let c = variant.letter(p.kind);
                    placement.push(if p.color == Color::White {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    if variant.has_pocket() {
        placement.push('[');
        for color in Color::ALL {
            let army = if color == Color::White { white } else { black };
            for (kind, n) in base.pocket(color) {
                for _ in 0..n {
                    placement.push(letter(variant, color, kind));
                }
            }
            for &kind in &army.pocket {
                placement.push(letter(variant, color, kind));
            }
        }
        placement.push(']');
    } else if !white.pocket.is_empty() || !black.pocket.is_empty() {
        return Err(
            "the variant has no pocket, so an army cannot start with pocketed pieces".into(),
        );
    }
    let base_fen = base.to_fen();
    let fields: Vec<&str> = base_fen.split_whitespace().collect();
    let side = fields[1];
    // Keep each castling right the transformed position still supports,
    // of the sides whose armies castle.
    let mut castling: String = fields[2].chars().filter(|&c| c != '-').collect();
    castling.retain(|c| {
        let castles = if c.is_ascii_uppercase() { white } else { black }.castling;
        let fen = format!("{placement} {side} {c} - 0 1");
        castles && Position::from_fen(variant, &fen).is_ok()
    });
    if castling.is_empty() {
        castling.push('-');
    }
    let fen = format!(
        "{placement} {side} {castling} - {} {}",
        fields[4], fields[5]
    );
    Position::from_fen(variant, &fen).map_err(|e| format!("{fen}: {e}"))?;
    Ok(fen)
}

/// A game's start as text, `white`'s army for White and `black`'s for
/// Black: a FEN ([`start_fen`]), or for Potential Chess position text.
pub fn start_text(variant: &Variant, white: &Army, black: &Army) -> Result<String, String> {
    match PotentialArmy::of(variant) {
        Some(army) => potential_start_text(variant, &army, white, black),
        None => start_fen(variant, white, black),
    }
}

/// Potential Chess's start, where every piece may be any type of the army,
/// but for an army with fixed identities: its pieces are the types the
/// variant's start array puts on their squares.
fn potential_start_text(
    variant: &Variant,
    army: &PotentialArmy<'_>,
    white: &Army,
    black: &Army,
) -> Result<String, String> {
    let potentials = army.start_position();
    let fixed = |color: Color| {
        let side = if color == Color::White { white } else { black };
        side.identities == Identities::Fixed
    };
    if !fixed(Color::White) && !fixed(Color::Black) {
        return Ok(potentials.to_text());
    }
    let array = Position::start(variant);
    let mut board = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::from_coords(file, rank);
            let Some(piece) = potentials.piece_at(sq) else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            if fixed(piece.color) {
                match array.piece_at(sq) {
                    Some(p) if p.color == piece.color => {
                        board.push(letter(variant, p.color, p.kind));
                    }
                    _ => {
                        return Err(format!(
                            "fixed identities: the variant's start array has no {} piece on {sq}, \
                             where the army's pieces start",
                            if piece.color == Color::White {
                                "White"
                            } else {
                                "Black"
                            }
                        ));
                    }
                }
            } else {
                let token = army.token(piece.potential, piece.color);
                board.push_str(&match (token.len(), piece.color) {
                    (1, _) => token,
                    (_, Color::White) => format!("{{{token}}}"),
                    (_, Color::Black) => format!("({token})"),
                });
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if rank > 0 {
            board.push('/');
        }
    }
    let text = format!("{board}[] w - 0 1");
    // The array must hold exactly the army's pieces for a consistent start.
    PotentialPosition::from_text(army, &text)
        .map_err(|e| format!("fixed identities: {text}: {e}"))?;
    Ok(text)
}

fn letter(variant: &Variant, color: Color, kind: PieceType) -> char {
    let c = variant.letter(kind);
    if color == Color::White {
        c
    } else {
        c.to_ascii_lowercase()
    }
}
