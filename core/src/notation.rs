//! The project's move notation, which round-trips through [`format()`] and [`parse()`]:
//!
//! | move | notation | example |
//! |---|---|---|
//! | board move, capture, en passant | from and to squares | `e2e4`, `e5d6` |
//! | FIDE promotion | plus the new piece's letter, lower case | `e7e8q` |
//! | castling | the king's from and to squares | `e1g1` |
//! | drop | piece letter (upper case for both sides), `@`, square | `N@e4` |
//! | pocket-in keeping the piece's type | `^` and the square | `^e2` |
//! | pocket-in mutating or promoting | plus `=` and the new letter | `^e8=C` |
//!
//! Board moves are UCI coordinates, so plain chess games are valid UCI.

use std::fmt;

use crate::moves::Move;
use crate::position::Position;

/// Text that is not a legal move in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// The text as given.
    pub text: String,
    /// Why it is not a legal move here.
    pub reason: String,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move '{}': {}", self.text, self.reason)
    }
}

impl std::error::Error for NotationError {}

/// A move in the project's notation.
pub fn format(pos: &Position<'_>, mv: Move) -> String {
    let v = pos.variant();
    match mv {
        Move::Normal { from, to } | Move::EnPassant { from, to } => format!("{from}{to}"),
        Move::Promotion { from, to, into } => {
            format!("{from}{to}{}", v.letter(into).to_ascii_lowercase())
        }
        Move::Castle { .. } => {
            let (from, to) = (
                mv.from().expect("castling has a from square"),
                mv.to().expect("and a to square"),
            );
            format!("{from}{to}")
        }
        Move::Drop { kind, to } => format!("{}@{to}", v.letter(kind)),
        Move::PocketIn { from, into } => {
            let own = pos.piece_at(from).map(|p| p.kind);
            if own == Some(into) {
                format!("^{from}")
            } else {
                format!("^{from}={}", v.letter(into))
            }
        }
    }
}

/// Parse a move in the project's notation; it must be legal in `pos`.
pub fn parse(pos: &Position<'_>, text: &str) -> Result<Move, NotationError> {
    let err = |reason: &str| NotationError {
        text: text.to_owned(),
        reason: reason.to_owned(),
    };
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.len() > 12 || !trimmed.is_ascii() {
        return Err(err(
            "not a move (expected e.g. e2e4, e7e8q, N@e4, ^e2 or ^e8=C)",
        ));
    }
    let canonical = canonicalize(pos, trimmed);
    pos.legal_moves()
        .into_iter()
        .find(|&mv| format(pos, mv) == canonical)
        .ok_or_else(|| {
            if looks_like_move(trimmed) {
                err(&format!("not legal in {}", pos.to_fen()))
            } else {
                err("not a move (expected e.g. e2e4, e7e8q, N@e4, ^e2 or ^e8=C)")
            }
        })
}

/// Accept harmless spelling variants: `n@e4` for `N@e4`, `^e2=N` for a
/// knight kept as a knight, and an upper-case promotion letter.
fn canonicalize(pos: &Position<'_>, text: &str) -> String {
    let bytes = text.as_bytes();
    if bytes.len() == 4 && bytes[1] == b'@' {
        return format!("{}{}", text[..1].to_ascii_uppercase(), &text[1..]);
    }
    if let Some(rest) = text.strip_prefix('^') {
        if let Some((sq, letter)) = rest.split_once('=') {
            let keeps = sq
                .parse()
                .ok()
                .and_then(|sq| pos.piece_at(sq))
                .is_some_and(|p| {
                    letter.len() == 1
                        && pos
                            .variant()
                            .piece_by_letter(letter.chars().next().unwrap_or(' '))
                            == Some(p.kind)
                });
            return if keeps {
                format!("^{sq}")
            } else {
                format!("^{sq}={}", letter.to_ascii_uppercase())
            };
        }
        return text.to_owned();
    }
    if bytes.len() == 5 {
        return format!("{}{}", &text[..4], text[4..].to_ascii_lowercase());
    }
    text.to_owned()
}

fn looks_like_move(text: &str) -> bool {
    let square = |s: &str| s.parse::<crate::types::Square>().is_ok();
    match text.len() {
        4 if text.as_bytes()[1] == b'@' => square(&text[2..]),
        4 | 5 => square(&text[..2]) && square(&text[2..4]),
        _ => text.starts_with('^') && text.len() >= 3 && square(&text[1..3]),
    }
}
