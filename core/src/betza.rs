//! Betza notation for piece moves, parsed into rays.
//!
//! Every move of a piece becomes a [`Ray`]: a step vector and how many steps
//! it may take. A leaper is a ray of exactly one step; a rider takes 1 to 7
//! steps and is blocked by the first occupied square; a lame (`n`) leap such
//! as the pawn's double step is a ray of exactly two unit steps, so the
//! square between must be empty.
//!
//! # Supported subset
//! * Atoms: `W` (1,0), `F` (1,1), `D` (2,0), `N` (2,1), `A` (2,2), `H` (3,0),
//!   `C` (3,1), `Z` (3,2), `G` (3,3); shorthands `K` = `WF`, `B` = `FF`,
//!   `R` = `WW`, `Q` = `RB`.
//! * Riders: a doubled atom (`NN`, `WW`) rides without limit; a range digit
//!   after an atom limits it (`W2`: up to two steps; `N0`: unlimited; `B3`).
//! * Compounds by concatenation: `BN`, `RNN`, `BNNW`.
//! * Modifiers, written before the atom they apply to:
//!   - `m` move only, `c` capture only (neither or both: either);
//!   - directions `f` forward, `b` backward, `l` left, `r` right,
//!     `v` vertical, `s` sideways, as seen by the piece's owner. On diagonal
//!     atoms `fl`, `fr`, `bl`, `br` name one diagonal. On oblique atoms (N, C,
//!     Z) a pair narrows: `fl` forward-left, `ff` forward and narrow (the two
//!     moves mostly forward), `fs` forward and wide, `ll`/`rr` sideways and
//!     to one side, `lv`/`rv` vertical and to one side, and `lh`/`rh` the
//!     counter-clockwise / clockwise chiral half. Several terms are a union.
//!   - `i` only from the variant's initial ranks (the pawn's double step),
//!   - `n` lame: the squares on the way must be empty (straight-line leaps
//!     only: `D`, `A`, `H`, `G`),
//!   - `e` may capture en passant (leaping captures only).
//!
//! Anything else (hoppers, `p`/`g`, `j`, `o`, `a`, brackets) is rejected with
//! an error naming the offending character.

use std::fmt;

/// One move direction with its step bounds, from White's point of view
/// (`dy > 0` is forward).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ray {
    /// File step (positive: towards the h-file).
    pub dx: i8,
    /// Rank step (positive: forward).
    pub dy: i8,
    /// The fewest steps the move takes (above 1 only for lame leaps).
    pub min_steps: u8,
    /// The most steps the move takes (1 for a leaper, 7 for an unlimited rider).
    pub max_steps: u8,
}

/// Whether a move may go to an empty square, capture, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mode {
    /// May move to an empty square.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
}

/// One parsed Betza term (modifiers plus atom), expanded into its rays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    /// The directions, with their step bounds.
    pub rays: Vec<Ray>,
    /// Whether the rays move, capture or both.
    pub mode: Mode,
    /// Only from the variant's initial ranks.
    pub initial: bool,
    /// May capture en passant.
    pub en_passant: bool,
}

/// Why a Betza string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// The Betza string as given.
    pub notation: String,
    /// Byte offset of the offending character.
    pub position: usize,
    /// What is wrong there.
    pub reason: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.notation[self.position..].chars().next() {
            Some(c) => write!(
                f,
                "Betza '{}': character '{}' at position {}: {}",
                self.notation,
                c,
                self.position + 1,
                self.reason
            ),
            None => write!(f, "Betza '{}': {}", self.notation, self.reason),
        }
    }
}

impl std::error::Error for BetzaError {}

/// The most steps any ray can take on an 8x8 board.
pub(crate) const UNLIMITED: u8 = 7;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Orthogonal,
    Diagonal,
    Oblique,
}

fn atom_leap(atom: char) -> Option<(i8, i8)> {
    Some(match atom {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// Shorthand atoms that stand for other atoms, with whether they ride.
fn shorthand(atom: char) -> Option<(&'static [char], bool)> {
    Some(match atom {
        'K' => (&['W', 'F'], false),
        'B' => (&['F'], true),
        'R' => (&['W'], true),
        'Q' => (&['W', 'F'], true),
        _ => return None,
    })
}

/// All eight (or four) images of a leap under reflection and rotation.
fn symmetric_images(dx: i8, dy: i8) -> Vec<(i8, i8)> {
    let mut out = Vec::with_capacity(8);
    for (a, b) in [(dx, dy), (dy, dx)] {
        for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let v = (a * sa, b * sb);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

fn shape_of(dx: i8, dy: i8) -> Shape {
    if dx == 0 || dy == 0 {
        Shape::Orthogonal
    } else if dx.abs() == dy.abs() {
        Shape::Diagonal
    } else {
        Shape::Oblique
    }
}

/// A direction filter: one modifier letter or a narrowing pair.
type Filter = fn(i8, i8) -> bool;

fn single_filter(c: char, shape: Shape) -> Option<Filter> {
    Some(match (c, shape) {
        ('f', _) => |_, dy| dy > 0,
        ('b', _) => |_, dy| dy < 0,
        ('l', _) => |dx, _| dx < 0,
        ('r', _) => |dx, _| dx > 0,
        ('v', Shape::Orthogonal) => |dx, _| dx == 0,
        ('s', Shape::Orthogonal) => |_, dy| dy == 0,
        ('v', Shape::Oblique) => |dx, dy| dy.abs() > dx.abs(),
        ('s', Shape::Oblique) => |dx, dy| dx.abs() > dy.abs(),
        _ => return None,
    })
}

fn pair_filter(a: char, b: char, shape: Shape) -> Option<Filter> {
    Some(match (shape, a, b) {
        (Shape::Diagonal | Shape::Oblique, 'f', 'l') => |dx, dy| dy > 0 && dx < 0,
        (Shape::Diagonal | Shape::Oblique, 'f', 'r') => |dx, dy| dy > 0 && dx > 0,
        (Shape::Diagonal | Shape::Oblique, 'b', 'l') => |dx, dy| dy < 0 && dx < 0,
        (Shape::Diagonal | Shape::Oblique, 'b', 'r') => |dx, dy| dy < 0 && dx > 0,
        (Shape::Oblique, 'f', 'f') => |dx, dy| dy > 0 && dy.abs() > dx.abs(),
        (Shape::Oblique, 'b', 'b') => |dx, dy| dy < 0 && dy.abs() > dx.abs(),
        (Shape::Oblique, 'f', 's') => |dx, dy| dy > 0 && dx.abs() > dy.abs(),
        (Shape::Oblique, 'b', 's') => |dx, dy| dy < 0 && dx.abs() > dy.abs(),
        (Shape::Oblique, 'l', 'l') => |dx, dy| dx < 0 && dx.abs() > dy.abs(),
        (Shape::Oblique, 'r', 'r') => |dx, dy| dx > 0 && dx.abs() > dy.abs(),
        (Shape::Oblique, 'l', 'v') => |dx, dy| dx < 0 && dy.abs() > dx.abs(),
        (Shape::Oblique, 'r', 'v') => |dx, dy| dx > 0 && dy.abs() > dx.abs(),
        // Chirality: the half reached by turning the (2,1)-like base leap
        // counter-clockwise (lh) or clockwise (rh) by right angles.
        (Shape::Oblique, 'l', 'h') => |dx, dy| {
            (dx > 0) == (dy > 0) && dy.abs() < dx.abs()
                || (dx > 0) != (dy > 0) && dy.abs() > dx.abs()
        },
        (Shape::Oblique, 'r', 'h') => |dx, dy| {
            (dx > 0) == (dy > 0) && dy.abs() > dx.abs()
                || (dx > 0) != (dy > 0) && dy.abs() < dx.abs()
        },
        _ => return None,
    })
}

#[derive(Default)]
struct Modifiers {
    quiet: bool,
    capture: bool,
    initial: bool,
    lame: bool,
    en_passant: bool,
    /// Direction letters with their byte offsets.
    directions: Vec<(char, usize)>,
}

/// Parse a Betza string into move rules.
pub fn parse(notation: &str) -> Result<Vec<MoveRule>, BetzaError> {
    let mut reader = Reader {
        notation,
        chars: notation.char_indices().collect(),
        next: 0,
    };
    if notation.is_empty() {
        return Err(reader.error(0, "empty move description"));
    }
    let mut rules = Vec::new();
    while reader.next < reader.chars.len() {
        rules.push(reader.term()?);
    }
    Ok(rules)
}

/// A Betza string read term by term.
struct Reader<'a> {
    notation: &'a str,
    /// The characters with their byte offsets.
    chars: Vec<(usize, char)>,
    /// Index into `chars` of the next character to read.
    next: usize,
}

impl Reader<'_> {
    fn error(&self, position: usize, reason: &str) -> BetzaError {
        BetzaError {
            notation: self.notation.to_owned(),
            position,
            reason: reason.to_owned(),
        }
    }

    /// The next term: modifiers, an atom and its range, as one rule.
    fn term(&mut self) -> Result<MoveRule, BetzaError> {
        let mods = self.modifiers()?;
        let (atom_pos, atom) = self.atom()?;
        let (atoms, rides) = if let Some((base, rides)) = shorthand(atom) {
            (base.to_vec(), rides)
        } else if atom_leap(atom).is_some() {
            (vec![atom], false)
        } else {
            return Err(self.error(
                atom_pos,
                "unknown atom (supported: W F D N A H C Z G K B R Q)",
            ));
        };
        let (rides, max_steps) = self.range(atom, rides);
        let err = |reason: &str| self.error(atom_pos, reason);
        if mods.lame && rides {
            return Err(err("'n' (lame) applies to single leaps, not riders"));
        }
        let rays = self.rays(&mods, &atoms, max_steps, atom_pos)?;
        if rays.is_empty() {
            return Err(err("the direction modifiers leave this atom no move"));
        }
        if mods.en_passant && (rides || mods.lame) {
            return Err(err("'e' (en passant) applies to single leaps only"));
        }
        let mode = match (mods.quiet, mods.capture) {
            (true, false) => Mode {
                quiet: true,
                capture: false,
            },
            (false, true) => Mode {
                quiet: false,
                capture: true,
            },
            _ => Mode {
                quiet: true,
                capture: true,
            },
        };
        if mods.en_passant && !mode.capture {
            return Err(err("'e' (en passant) needs a capturing move"));
        }
        Ok(MoveRule {
            rays,
            mode,
            initial: mods.initial,
            en_passant: mods.en_passant,
        })
    }

    /// The modifiers before the next atom.
    fn modifiers(&mut self) -> Result<Modifiers, BetzaError> {
        let mut mods = Modifiers::default();
        while let Some(&(pos, c)) = self.chars.get(self.next) {
            match c {
                'm' => mods.quiet = true,
                'c' => mods.capture = true,
                'i' => mods.initial = true,
                'n' => mods.lame = true,
                'e' => mods.en_passant = true,
                'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => mods.directions.push((c, pos)),
                'A'..='Z' => break,
                'p' | 'g' | 'j' | 'o' | 'a' | 'x' | 'y' | 'z' | 'd' | 'u' | 't' | 'k' | 'q'
                | 'w' => {
                    return Err(self.error(pos, "this modifier is not supported by pocketlab"));
                }
                _ => return Err(self.error(pos, "not a Betza modifier or atom")),
            }
            self.next += 1;
        }
        Ok(mods)
    }

    /// The atom after the modifiers, with its byte offset.
    fn atom(&mut self) -> Result<(usize, char), BetzaError> {
        let Some(&(atom_pos, atom)) = self.chars.get(self.next) else {
            let pos = self.chars.last().map_or(0, |&(p, _)| p);
            return Err(self.error(
                pos,
                "modifiers must be followed by an atom (W, F, D, N, A, H, C, Z, G, K, B, R, Q)",
            ));
        };
        self.next += 1;
        Ok((atom_pos, atom))
    }

    /// Whether the move rides and its most steps, given whether the atom
    /// rides by itself: a doubled atom rides, a number sets the range (0:
    /// unlimited).
    fn range(&mut self, atom: char, rides: bool) -> (bool, u8) {
        let unbounded = if rides { UNLIMITED } else { 1 };
        let Some(&(_, next)) = self.chars.get(self.next) else {
            return (rides, unbounded);
        };
        if next == atom {
            self.next += 1;
            return (true, UNLIMITED);
        }
        let Some(d) = next.to_digit(10) else {
            return (rides, unbounded);
        };
        let mut value = d;
        self.next += 1;
        while let Some(d) = self.chars.get(self.next).and_then(|&(_, c)| c.to_digit(10)) {
            value = value.saturating_mul(10).saturating_add(d);
            self.next += 1;
        }
        let max_steps = if value == 0 {
            UNLIMITED
        } else {
            value.min(u32::from(UNLIMITED)) as u8
        };
        (max_steps > 1, max_steps)
    }

    /// The rays of `atoms` that the direction modifiers keep, each of up
    /// to `max_steps` steps, or the one straight leap of a lame move.
    fn rays(
        &self,
        mods: &Modifiers,
        atoms: &[char],
        max_steps: u8,
        atom_pos: usize,
    ) -> Result<Vec<Ray>, BetzaError> {
        let mut rays = Vec::new();
        for &base in atoms {
            let (bx, by) = atom_leap(base).expect("shorthands expand to known atoms");
            let filters = direction_filters(&mods.directions, shape_of(bx, by))
                .map_err(|(pos, why)| self.error(pos, &why))?;
            for (dx, dy) in symmetric_images(bx, by) {
                if !filters.is_empty() && !filters.iter().any(|f| f(dx, dy)) {
                    continue;
                }
                rays.push(if mods.lame {
                    let g = gcd(dx.unsigned_abs(), dy.unsigned_abs());
                    if g < 2 {
                        return Err(self.error(
                            atom_pos,
                            "'n' (lame) needs a straight-line leap such as D, A, H or G",
                        ));
                    }
                    let g = g as i8;
                    Ray {
                        dx: dx / g,
                        dy: dy / g,
                        min_steps: g as u8,
                        max_steps: g as u8,
                    }
                } else {
                    Ray {
                        dx,
                        dy,
                        min_steps: 1,
                        max_steps,
                    }
                });
            }
        }
        Ok(rays)
    }
}

fn direction_filters(
    letters: &[(char, usize)],
    shape: Shape,
) -> Result<Vec<Filter>, (usize, String)> {
    let mut filters = Vec::new();
    let mut k = 0;
    while k < letters.len() {
        let (c, pos) = letters[k];
        if let Some(f) = letters
            .get(k + 1)
            .and_then(|&(next, _)| pair_filter(c, next, shape))
        {
            filters.push(f);
            k += 2;
            continue;
        }
        match single_filter(c, shape) {
            Some(f) => filters.push(f),
            None => {
                let why = match c {
                    'h' => {
                        "'h' only forms the chiral pairs 'lh' and 'rh' on oblique atoms (N, C, Z)"
                    }
                    _ => {
                        "this direction does not apply to this atom (v and s need orthogonal or oblique atoms)"
                    }
                };
                return Err((pos, why.to_owned()));
            }
        }
        k += 1;
    }
    Ok(filters)
}

fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ray_set(notation: &str) -> Vec<(i8, i8, u8, u8)> {
        let mut v: Vec<_> = parse(notation)
            .unwrap()
            .iter()
            .flat_map(|r| {
                r.rays
                    .iter()
                    .map(|x| (x.dx, x.dy, x.min_steps, x.max_steps))
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    #[test]
    fn knight_has_eight_leaps() {
        let rays = ray_set("N");
        assert_eq!(rays.len(), 8);
        assert!(
            rays.iter()
                .all(|&(dx, dy, lo, hi)| dx.abs() + dy.abs() == 3 && lo == 1 && hi == 1)
        );
    }

    #[test]
    fn shorthands_expand() {
        assert_eq!(ray_set("Q"), ray_set("RB"));
        assert_eq!(ray_set("K"), ray_set("WF"));
        assert_eq!(ray_set("R"), ray_set("WW"));
        assert_eq!(ray_set("R"), ray_set("W0"));
        assert_eq!(ray_set("NN").len(), 8);
        assert!(ray_set("NN").iter().all(|r| r.3 == UNLIMITED));
    }

    #[test]
    fn ranges_limit_riders() {
        assert!(ray_set("W2").iter().all(|r| r.3 == 2));
        assert!(ray_set("N1").iter().all(|r| r.3 == 1));
    }

    #[test]
    fn pawn_parses_into_three_rules() {
        let rules = parse("fmWfceFifmnD").unwrap();
        assert_eq!(rules.len(), 3);
        assert_eq!(
            rules[0].rays,
            vec![Ray {
                dx: 0,
                dy: 1,
                min_steps: 1,
                max_steps: 1
            }]
        );
        assert!(rules[0].mode.quiet && !rules[0].mode.capture);
        assert_eq!(rules[1].rays.len(), 2);
        assert!(rules[1].en_passant && !rules[1].mode.quiet);
        assert_eq!(
            rules[2].rays,
            vec![Ray {
                dx: 0,
                dy: 1,
                min_steps: 2,
                max_steps: 2
            }]
        );
        assert!(rules[2].initial);
    }

    #[test]
    fn direction_pairs_narrow_oblique_atoms() {
        assert_eq!(ray_set("ffN"), vec![(-1, 2, 1, 1), (1, 2, 1, 1)]);
        assert_eq!(ray_set("fsN"), vec![(-2, 1, 1, 1), (2, 1, 1, 1)]);
        assert_eq!(ray_set("flF"), vec![(-1, 1, 1, 1)]);
        assert_eq!(ray_set("fN").len(), 4);
        assert_eq!(ray_set("lhN").len(), 4);
        assert_eq!(ray_set("rhN").len(), 4);
        let mut both = ray_set("lhNrhN");
        both.dedup();
        assert_eq!(both, ray_set("N"));
        assert_eq!(ray_set("vW"), vec![(0, -1, 1, 1), (0, 1, 1, 1)]);
        assert_eq!(ray_set("sW"), vec![(-1, 0, 1, 1), (1, 0, 1, 1)]);
    }

    #[test]
    fn errors_name_the_offending_character() {
        let e = parse("pR").unwrap_err();
        assert_eq!(e.position, 0);
        assert!(e.to_string().contains("'p'"), "{e}");
        let e = parse("BX").unwrap_err();
        assert_eq!(e.position, 1);
        let e = parse("fm").unwrap_err();
        assert!(e.to_string().contains("followed by an atom"), "{e}");
        assert!(parse("").is_err());
        assert!(parse("nN").is_err());
        assert!(parse("vF").is_err());
        assert!(parse("eNN").is_err());
        assert!(parse("hN").is_err());
        assert!(parse("N@").is_err());
    }
}
