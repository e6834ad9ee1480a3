//! FEN with pockets in brackets after the placement, Fairy-Stockfish style:
//! `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w - - 0 1`.
//!
//! Variants with a pocket always print the brackets (`[]` when empty);
//! others never do. Pocket letters print White's first, then Black's, each
//! in the variant's piece order. The counters may be omitted on input
//! (`0 1` is assumed), and so may castling and en passant (`-`).

use std::fmt;
use std::fmt::Write as _;

use super::{CastlingRights, Position};
use crate::types::{Color, Piece, Square};
use crate::variant::Variant;

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not between 2 and 6 space-separated fields.
    FieldCount(usize),
    /// The board part is malformed (why).
    Placement(String),
    /// A letter that names no piece of the variant.
    UnknownPiece(char),
    /// The bracketed pocket is malformed or not allowed (why).
    Pocket(String),
    /// The side-to-move field is not `w` or `b`.
    SideToMove(String),
    /// The castling field is malformed or names a missing piece (why).
    Castling(String),
    /// The en passant field is malformed or impossible (why).
    EnPassant(String),
    /// A move counter that is not a number.
    Counter {
        /// Which counter: halfmove or fullmove.
        field: &'static str,
        /// The text found there.
        value: String,
    },
    /// A side without exactly one royal piece.
    RoyalCount {
        /// The side.
        color: Color,
        /// How many royal pieces it has.
        count: u32,
    },
    /// The side not to move is in check: the position cannot arise.
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(
                f,
                "FEN has {n} fields; expected placement, side to move and optionally castling, en passant, halfmove and fullmove"
            ),
            FenError::Placement(why) => write!(f, "FEN placement: {why}"),
            FenError::UnknownPiece(c) => {
                write!(f, "FEN: '{c}' is not a piece letter of this variant")
            }
            FenError::Pocket(why) => write!(f, "FEN pocket: {why}"),
            FenError::SideToMove(s) => write!(f, "FEN side to move: '{s}' is not 'w' or 'b'"),
            FenError::Castling(why) => write!(f, "FEN castling: {why}"),
            FenError::EnPassant(why) => write!(f, "FEN en passant: {why}"),
            FenError::Counter { field, value } => {
                write!(f, "FEN {field}: '{value}' is not a valid number")
            }
            FenError::RoyalCount { color, count } => {
                write!(
                    f,
                    "FEN: {color} has {count} royal pieces; exactly one is required"
                )
            }
            FenError::OpponentInCheck => write!(f, "FEN: the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

impl<'v> Position<'v> {
    /// Parse a FEN for `variant`, validating it fully.
    pub fn from_fen(variant: &'v Variant, fen: &str) -> Result<Position<'v>, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(2..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty(variant);

        let (placement, pocket) = match fields[0].find('[') {
            Some(i) => {
                let rest = &fields[0][i + 1..];
                let inner = rest
                    .strip_suffix(']')
                    .ok_or_else(|| FenError::Pocket("missing closing ']'".into()))?;
                (&fields[0][..i], Some(inner))
            }
            None => (fields[0], None),
        };
        parse_placement(&mut pos, placement)?;
        if let Some(pocket) = pocket {
            parse_pocket(&mut pos, pocket)?;
        }

        pos.side_to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::SideToMove(other.to_owned())),
        };
        for color in Color::ALL {
            let count = pos.pieces(color, variant.royal).count();
            if count != 1 {
                return Err(FenError::RoyalCount { color, count });
            }
        }
        parse_castling(&mut pos, fields.get(2).copied().unwrap_or("-"))?;
        parse_en_passant(&mut pos, fields.get(3).copied().unwrap_or("-"))?;
        pos.halfmove_clock =
            parse_counter("halfmove clock", fields.get(4).copied().unwrap_or("0"))?;
        pos.fullmove_number =
            parse_counter("fullmove number", fields.get(5).copied().unwrap_or("1"))?;
        if pos.fullmove_number == 0 {
            return Err(FenError::Counter {
                field: "fullmove number",
                value: "0".into(),
            });
        }
        pos.hash = pos.compute_hash();
        let them = !pos.side_to_move;
        if pos.is_attacked(pos.royal_square(them), pos.side_to_move, pos.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        pos.update_checkers();
        Ok(pos)
    }

    /// The FEN of this position (see the module documentation).
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            write!(out, "{empty}").expect("writing to a String");
                            empty = 0;
                        }
                        out.push(self.piece_char(p));
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(out, "{empty}").expect("writing to a String");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if self.variant.has_pocket() {
            out.push('[');
            for color in Color::ALL {
                for (kind, n) in self.pocket(color) {
                    for _ in 0..n {
                        out.push(self.piece_char(Piece { color, kind }));
                    }
                }
            }
            out.push(']');
        }
        out.push_str(match self.side_to_move {
            Color::White => " w ",
            Color::Black => " b ",
        });
        let rights = self.castling;
        if rights.0 == 0 {
            out.push('-');
        }
        for (color, kingside, c) in [
            (Color::White, true, 'K'),
            (Color::White, false, 'Q'),
            (Color::Black, true, 'k'),
            (Color::Black, false, 'q'),
        ] {
            if rights.has(color, kingside) {
                out.push(c);
            }
        }
        match self.en_passant {
            Some(sq) => write!(out, " {sq}"),
            None => write!(out, " -"),
        }
        .expect("writing to a String");
        write!(out, " {} {}", self.halfmove_clock, self.fullmove_number)
            .expect("writing to a String");
        out
    }
}

fn parse_placement(pos: &mut Position<'_>, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Placement(format!(
            "{} ranks; expected 8 separated by '/'",
            ranks.len()
        )));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(FenError::Placement(format!(
                        "rank {}: '0' is not a run of empty squares",
                        rank + 1
                    )));
                }
                file = file.saturating_add(d as u8);
            } else {
                let piece = piece_from_char(pos.variant, c)?;
                if file >= 8 {
                    return Err(FenError::Placement(format!(
                        "rank {} has more than 8 squares",
                        rank + 1
                    )));
                }
                pos.put_piece(Square::from_coords(file, rank), piece);
                file += 1;
            }
            if file > 8 {
                return Err(FenError::Placement(format!(
                    "rank {} has more than 8 squares",
                    rank + 1
                )));
            }
        }
        if file != 8 {
            return Err(FenError::Placement(format!(
                "rank {} has {file} squares; expected 8",
                rank + 1
            )));
        }
    }
    Ok(())
}

fn piece_from_char(variant: &Variant, c: char) -> Result<Piece, FenError> {
    let kind = variant
        .piece_by_letter(c)
        .ok_or(FenError::UnknownPiece(c))?;
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    Ok(Piece { color, kind })
}

fn parse_pocket(pos: &mut Position<'_>, text: &str) -> Result<(), FenError> {
    if text == "-" || text.is_empty() {
        return Ok(());
    }
    let Some(rules) = pos.variant.rules.pocket.clone() else {
        return Err(FenError::Pocket(format!(
            "'{text}' given, but variant '{}' has no pocket",
            pos.variant.name
        )));
    };
    for c in text.chars() {
        let piece = piece_from_char(pos.variant, c)?;
        if piece.kind == pos.variant.royal {
            return Err(FenError::Pocket(format!(
                "the royal piece '{c}' cannot be in a pocket"
            )));
        }
        if pos.pocket_size(piece.color) >= rules.size {
            return Err(FenError::Pocket(format!(
                "{} holds more than {} pieces",
                piece.color, rules.size
            )));
        }
        pos.add_to_pocket(piece.color, piece.kind);
    }
    Ok(())
}

fn parse_castling(pos: &mut Position<'_>, text: &str) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    let Some(rules) = pos.variant.rules.castling else {
        return Err(FenError::Castling(format!(
            "'{text}' given, but variant '{}' has no castling",
            pos.variant.name
        )));
    };
    let mut rights = 0u8;
    for c in text.chars() {
        let (color, kingside) = match c {
            'K' => (Color::White, true),
            'Q' => (Color::White, false),
            'k' => (Color::Black, true),
            'q' => (Color::Black, false),
            _ => {
                return Err(FenError::Castling(format!(
                    "'{c}' is not one of K, Q, k, q"
                )));
            }
        };
        let bit = CastlingRights::bit(color, kingside);
        if rights & bit != 0 {
            return Err(FenError::Castling(format!("'{c}' appears twice")));
        }
        let back = color.relative_rank(0);
        let king_sq = Square::from_coords(rules.king_file, back);
        let partner_sq = Square::from_coords(
            if kingside {
                rules.kingside_file
            } else {
                rules.queenside_file
            },
            back,
        );
        let king_ok = pos.piece_at(king_sq)
            == Some(Piece {
                color,
                kind: pos.variant.royal,
            });
        let partner_ok = pos
            .piece_at(partner_sq)
            .is_some_and(|p| p.color == color && p.kind != pos.variant.royal);
        if !king_ok || !partner_ok {
            return Err(FenError::Castling(format!(
                "'{c}' needs the {color} king on {king_sq} and a {color} piece on {partner_sq}"
            )));
        }
        rights |= bit;
    }
    pos.castling = CastlingRights(rights);
    Ok(())
}

fn parse_en_passant(pos: &mut Position<'_>, text: &str) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    let sq: Square = text
        .parse()
        .map_err(|e: crate::types::ParseSquareError| FenError::EnPassant(e.to_string()))?;
    if !pos.variant.rules.en_passant {
        return Err(FenError::EnPassant(format!(
            "'{text}' given, but variant '{}' has no en passant",
            pos.variant.name
        )));
    }
    let us = pos.side_to_move;
    let them = !us;
    // The square a pawn of `them` skipped: it sits one rank behind it.
    let ok = sq
        .offset(0, -us.forward())
        .and_then(|pawn_sq| pos.piece_at(pawn_sq))
        .is_some_and(|p| p.color == them && pos.variant.is_pawn(p.kind))
        && pos.piece_at(sq).is_none()
        && sq
            .offset(0, -them.forward())
            .is_some_and(|origin| pos.piece_at(origin).is_none());
    if !ok {
        return Err(FenError::EnPassant(format!(
            "{sq} is not a square just skipped by a {them} pawn's double step"
        )));
    }
    pos.en_passant = Some(sq);
    Ok(())
}

fn parse_counter(field: &'static str, text: &str) -> Result<u16, FenError> {
    text.parse().map_err(|_| FenError::Counter {
        field,
        value: text.to_owned(),
    })
}
