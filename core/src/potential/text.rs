//! Text for Potential Chess: potential tokens, the position text, move
//! notation and the seed's board diagram (see the module documentation of
//! [`super`] for the formats).

use std::fmt;

use super::{Army, NOT_PROMOTED, Potential, PotentialMove, PotentialPosition};
use crate::types::{Color, Square};

/// Position text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PotentialTextError(pub String);

impl fmt::Display for PotentialTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "potential position: {}", self.0)
    }
}

impl std::error::Error for PotentialTextError {}

/// A move text that is not a legal move in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PotentialNotationError {
    /// The text as given.
    pub text: String,
    /// Why it is not a legal move here.
    pub reason: String,
}

impl fmt::Display for PotentialNotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move '{}': {}", self.text, self.reason)
    }
}

impl std::error::Error for PotentialNotationError {}

/// Written after a piece that has moved where that matters: `{!BN}'`.
const MOVED_MARK: char = '\'';

fn cased(c: char, color: Color) -> char {
    match color {
        Color::White => c.to_ascii_uppercase(),
        Color::Black => c.to_ascii_lowercase(),
    }
}

impl Army<'_> {
    fn has_letter_x(&self) -> bool {
        self.type_of_letter('X').is_some()
    }

    /// A potential in the seed's notation (`X`, `!K`, `QRP`, `!bn`), in the
    /// side's case: the shorter of the positive and the `!` form.
    pub fn token(&self, pot: Potential, color: Color) -> String {
        let letters =
            |p: Potential| -> String { p.iter().map(|t| cased(self.letter(t), color)).collect() };
        if pot == self.all() && !self.has_letter_x() {
            return cased('X', color).to_string();
        }
        let positive = letters(pot);
        let missing = Potential(self.all().0 & !pot.0);
        if !pot.is_empty() && 1 + missing.count() < pot.count() {
            format!("!{}", letters(missing))
        } else {
            positive
        }
    }

    /// A piece's token: its potential, or `P=Q` for a promoted pawn.
    pub(crate) fn piece_token(&self, pot: Potential, promoted: Option<u8>, color: Color) -> String {
        match promoted {
            Some(t) => format!(
                "{}={}",
                self.token(pot, color),
                cased(self.letter(t), color)
            ),
            None => self.token(pot, color),
        }
    }

    /// Parse a potential token (any case, any order).
    pub fn parse_token(&self, text: &str) -> Option<Potential> {
        let letters_to = |s: &str| -> Option<Potential> {
            let mut p = Potential::EMPTY;
            for c in s.chars() {
                let t = self.type_of_letter(c)?;
                if p.contains(t) {
                    return None;
                }
                p = p.with(t);
            }
            Some(p)
        };
        if text.eq_ignore_ascii_case("x") && !self.has_letter_x() {
            return Some(self.all());
        }
        let pot = match text.strip_prefix('!') {
            Some(rest) => Potential(self.all().0 & !letters_to(rest)?.0),
            None => letters_to(text)?,
        };
        (!pot.is_empty()).then_some(pot)
    }

    /// Parse a piece token: a potential, or `P=Q`.
    fn parse_piece_token(&self, text: &str) -> Option<(Potential, Option<u8>)> {
        match text.split_once('=') {
            Some((pawn, into)) => {
                let p = self.pawn?;
                let mut chars = into.chars();
                let c = chars.next()?;
                let t = self.type_of_letter(c)?;
                (chars.next().is_none()
                    && self.parse_token(pawn)? == Potential::single(p)
                    && self.promotions.contains(&t))
                .then_some((Potential::single(p), Some(t)))
            }
            None => Some((self.parse_token(text)?, None)),
        }
    }
}

impl<'a> PotentialPosition<'a> {
    /// The position text (see the module documentation).
    pub fn to_text(&self) -> String {
        let army = self.army;
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::from_coords(file, rank);
                let Some(piece) = self.piece_at(sq) else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                let token = army.piece_token(piece.potential, piece.promoted, piece.color);
                if token.len() == 1 {
                    s.push_str(&token);
                } else if piece.color == Color::White {
                    s.push_str(&format!("{{{token}}}"));
                } else {
                    s.push_str(&format!("({token})"));
                }
                if piece.moved {
                    s.push(MOVED_MARK);
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push('[');
        for color in Color::ALL {
            for t in self.captured(color) {
                s.push(cased(army.letter(t), color));
            }
        }
        s.push(']');
        s.push_str(match self.side {
            Color::White => " w ",
            Color::Black => " b ",
        });
        match self.en_passant {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        s
    }

    /// Read a position text. Both sides' potentials are reduced to the
    /// consistent ones (rule 5); a side with no consistent assignment is an
    /// error.
    pub fn from_text(
        army: &'a Army<'a>,
        text: &str,
    ) -> Result<PotentialPosition<'a>, PotentialTextError> {
        let err = |m: String| PotentialTextError(m);
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(2..=5).contains(&fields.len()) {
            return Err(err(format!(
                "{} fields; expected board[captured] side [ep] [halfmove] [fullmove]",
                fields.len()
            )));
        }
        let mut pos = PotentialPosition::empty(army);
        let (board, captured) = match fields[0].find('[') {
            Some(i) => {
                let inner = fields[0][i + 1..]
                    .strip_suffix(']')
                    .ok_or_else(|| err("missing closing ']'".into()))?;
                (&fields[0][..i], inner)
            }
            None => (fields[0], ""),
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(err(format!("{} ranks; expected 8", ranks.len())));
        }
        for (i, row) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(err(format!("rank {}: '0'", rank + 1)));
                    }
                    file += d as u8;
                    if file > 8 {
                        return Err(err(format!("rank {} has more than 8 squares", rank + 1)));
                    }
                    continue;
                }
                let (color, token) = match c {
                    '{' | '(' => {
                        let close = if c == '{' { '}' } else { ')' };
                        let token: String = chars.by_ref().take_while(|&x| x != close).collect();
                        let color = if c == '{' { Color::White } else { Color::Black };
                        (color, token)
                    }
                    c if c.is_ascii_alphabetic() => {
                        let color = if c.is_ascii_uppercase() {
                            Color::White
                        } else {
                            Color::Black
                        };
                        (color, c.to_string())
                    }
                    other => {
                        return Err(err(format!("rank {}: unexpected '{other}'", rank + 1)));
                    }
                };
                if file >= 8 {
                    return Err(err(format!("rank {} has more than 8 squares", rank + 1)));
                }
                let (pot, promoted) = army
                    .parse_piece_token(&token)
                    .ok_or_else(|| err(format!("'{token}' is not a potential")))?;
                let sq = Square::from_coords(file, rank);
                pos.put(sq, color, pot, promoted.unwrap_or(NOT_PROMOTED));
                if chars.next_if_eq(&MOVED_MARK).is_some() {
                    pos.moved = pos.moved.with(sq);
                }
                file += 1;
            }
            if file != 8 {
                return Err(err(format!("rank {} has {file} squares", rank + 1)));
            }
        }
        for c in captured.chars() {
            let t = army
                .type_of_letter(c)
                .ok_or_else(|| err(format!("captured '{c}' is not an army piece")))?;
            if t == army.royal {
                return Err(err("a king cannot be captured".into()));
            }
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let slot = &mut pos.captured[color][usize::from(t)];
            *slot = slot.saturating_add(1);
        }
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(err(format!("side '{other}'; expected w or b"))),
        };
        pos.en_passant = match fields.get(2).copied().unwrap_or("-") {
            "-" => None,
            sq => Some(
                sq.parse()
                    .map_err(|_| err(format!("en passant '{sq}' is not a square")))?,
            ),
        };
        let counter = |i: usize, default: u16| -> Result<u16, PotentialTextError> {
            fields.get(i).map_or(Ok(default), |s| {
                s.parse()
                    .map_err(|_| err(format!("counter '{s}' is not a number")))
            })
        };
        pos.halfmove_clock = counter(3, 0)?;
        pos.fullmove_number = counter(4, 1)?;
        if pos.fullmove_number == 0 {
            return Err(err("fullmove number 0".into()));
        }
        if !pos.reduce_all() {
            return Err(err(
                "a side has no assignment of the army matching its potentials".into(),
            ));
        }
        pos.keep_relevant_moved();
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// A move in the seed's notation (`d2-d4>QRP`, `a7:b5>n(q)`).
    pub fn format_move(&self, mv: PotentialMove) -> String {
        let army = self.army;
        let us = self.side;
        let promoted = mv.promotion.or_else(|| {
            let p = self.promoted[mv.from.index()];
            (p != NOT_PROMOTED).then_some(p)
        });
        let sep = if mv.captured.is_some() { ':' } else { '-' };
        let mut s = format!(
            "{}{sep}{}>{}",
            mv.from,
            mv.to,
            army.piece_token(mv.reduced, promoted, us)
        );
        if let Some(name) = mv.captured {
            s.push_str(&format!("({})", cased(army.letter(name), !us)));
        }
        s
    }

    /// Parse a move in the seed's notation; it must be legal here. Case
    /// does not matter, and `>piece1` may be left out when the squares (and
    /// the capture's name) determine the move.
    pub fn parse_move(&self, text: &str) -> Result<PotentialMove, PotentialNotationError> {
        let err = |reason: String| PotentialNotationError {
            text: text.to_owned(),
            reason,
        };
        let t = text.trim();
        if !t.is_ascii() || t.len() < 5 {
            return Err(err("expected e.g. d2-d4>QRP or a7:b5>n(q)".into()));
        }
        let from: Square = t[..2]
            .parse()
            .map_err(|_| err(format!("'{}' is not a square", &t[..2])))?;
        let capture = match &t[2..3] {
            "-" => false,
            ":" | "x" => true,
            other => return Err(err(format!("'{other}': expected '-' or ':'"))),
        };
        let to: Square = t[3..5]
            .parse()
            .map_err(|_| err(format!("'{}' is not a square", &t[3..5])))?;
        let mut rest = &t[5..];
        let mut name = None;
        if let Some(open) = rest.find('(') {
            let inner = rest[open + 1..]
                .strip_suffix(')')
                .ok_or_else(|| err("missing ')'".into()))?;
            let mut chars = inner.chars();
            let n = chars
                .next()
                .and_then(|c| self.army.type_of_letter(c))
                .filter(|_| chars.next().is_none())
                .ok_or_else(|| err(format!("'{inner}' is not a piece letter")))?;
            name = Some(n);
            rest = &rest[..open];
        }
        let piece = match rest.strip_prefix('>') {
            Some(tok) => Some(
                self.army
                    .parse_piece_token(tok)
                    .ok_or_else(|| err(format!("'{tok}' is not a potential")))?,
            ),
            None if rest.is_empty() => None,
            None => return Err(err(format!("unexpected '{rest}'"))),
        };
        let candidates: Vec<PotentialMove> = self
            .legal_moves()
            .into_iter()
            .filter(|mv| {
                mv.from == from
                    && mv.to == to
                    && mv.captured.is_some() == capture
                    && (name.is_none() || mv.captured == name)
                    && piece.is_none_or(|(pot, promo)| {
                        mv.reduced == pot
                            && promo
                                == mv.promotion.or_else(|| {
                                    let p = self.promoted[mv.from.index()];
                                    (p != NOT_PROMOTED).then_some(p)
                                })
                    })
            })
            .collect();
        match candidates.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(err(format!("not legal in {}", self.to_text()))),
            many => Err(err(format!(
                "ambiguous: {}",
                many.iter()
                    .map(|&m| self.format_move(m))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }

    /// The board in the seed's diagram notation: one cell per square, a
    /// one-character token centred (` x `), longer ones left-aligned (`!k `,
    /// `QRP`); cells widen if a token is longer than three characters.
    pub fn diagram(&self) -> String {
        let army = self.army;
        let tokens: Vec<String> = (0..64u8)
            .map(|i| {
                let sq = Square::new(i).expect("64 squares");
                self.piece_at(sq).map_or(String::new(), |p| {
                    army.piece_token(p.potential, p.promoted, p.color)
                })
            })
            .collect();
        let width = tokens.iter().map(String::len).max().unwrap_or(0).max(3);
        let border = format!("   +{}\n", format!("{}+", "-".repeat(width)).repeat(8));
        let mut s = border.clone();
        for rank in (0..8u8).rev() {
            s.push_str(&format!(" {} |", rank + 1));
            for file in 0..8u8 {
                let tok = &tokens[usize::from(rank * 8 + file)];
                let cell = if tok.len() == 1 {
                    let left = (width - 1) / 2;
                    format!("{}{tok}{}", " ".repeat(left), " ".repeat(width - 1 - left))
                } else {
                    format!("{tok:<width$}")
                };
                s.push_str(&cell);
                s.push('|');
            }
            s.push('\n');
            s.push_str(&border);
        }
        s.push_str("   ");
        for file in 0..8u8 {
            let left = width / 2 + 1;
            s.push_str(&format!(
                "{}{}{}",
                " ".repeat(left),
                (b'a' + file) as char,
                " ".repeat(width - left)
            ));
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    }
}
