//! Potential Chess (David Howe, 1999; seed `004`): every piece starts with
//! the potential to be any piece of the army and is reduced by the moves it
//! makes, so that the finished game can always be replayed as an orthodox
//! game from some starting array.
//!
//! # Rulings (the project's, see `RULES.md`, "Potential Chess")
//!
//! 1. Each side has an army on its first ranks; every piece starts with the
//!    potential of every type of the army. The army is a setting
//!    ([`Army`]): piece types and movement come from a [`Variant`] with a
//!    `[potential]` army, with a count per type. The shipped
//!    `potential-chess` plays chess's K, Q, B, R, N, P with counts 1, 1, 2,
//!    2, 2, 8 (in that order, the seed's letter order), on ranks 1-2 and 7-8.
//! 2. A move is possible if at least one type in the piece's potential can
//!    make it, with the variant's movement tables (pawns: forward one, two
//!    from the second rank over an empty square if the piece has not moved
//!    yet, diagonal forward captures, en passant against a piece whose
//!    potential includes P; no castling). So a piece that has moved and
//!    steps two squares from the second rank cannot be a pawn: its
//!    potential narrows to the other types that can make the step, and no
//!    en passant follows.
//!    The mover's potential becomes exactly the types that could have made
//!    the move. A piece that reaches the last rank moving as a pawn chooses,
//!    as separate moves, either to not have been a pawn (its potential
//!    becomes every non-pawn type that could have made the move; one move,
//!    present only if there is such a type) or promotion to each of the
//!    promotion types (the variant's promotion choices within the army; it
//!    then moves as that type but counts as a pawn of the army, potential
//!    `{P}`, written `P=Q`).
//! 3. A capture names the captured piece's identity, chosen by the capturer
//!    among the types its potential allows, never the royal type, as
//!    separate moves. A promoted piece is always named P; en passant always
//!    names P. Captured pieces are kept, with their names, per side.
//! 4. At the end of a side's move, each of its pieces that some enemy piece
//!    could capture onto (for some type in that enemy's potential; promoted
//!    pieces as their promoted type) loses the royal type. The enemy's
//!    potentials used are those after the capture's naming has been taken
//!    into account (step 5 for the captured side runs first).
//! 5. Consistency: for each side there must be an assignment of one type
//!    per piece (on the board and captured) matching the army counts within
//!    every potential. After each move both sides' potentials shrink to the
//!    types that appear in some consistent assignment ([`assign::reduce`]).
//!    A move after which the mover has no consistent assignment (which
//!    includes having no piece that can be the king) is illegal. The order
//!    is: move and rule 2, naming and rule 5 for the captured side, rule 4,
//!    rule 5 for the mover.
//! 6. A side with no legal move loses if every piece of it that could be
//!    the king is attackable by the enemy's potentials ("checkmate");
//!    otherwise it is stalemate. The n-move rule and repetition follow the
//!    variant's settings (chess: 100 plies, threefold). The counter resets on
//!    a capture and on any move a pawn could have made: a move after which
//!    the mover's potential, after the consistency reduction, still
//!    includes P (promotions included). A position repeats when board,
//!    potentials, moved marks, captured pieces, side and en passant agree. Each
//!    side having a single piece left is a dead draw (both must be kings).
//!
//! En passant: after a double step that a pawn could have made (P in the
//! reduced potential), the skipped square is the en passant square if an
//! enemy piece that can be a pawn could take there.
//!
//! # Notation
//!
//! Potentials are written as in the seed: the letters of the types in army
//! order (`QRP`), or `!` and the missing types (`!K`, `!bn`), or `X` for
//! every type; upper case for White, lower case for Black. The shorter form
//! is written (positive on ties). A promoted piece is `P=Q`. Parsing accepts
//! any case and order.
//!
//! Position text (FEN-like, [`PotentialPosition::to_text`], round-trips for
//! positions that are already reduced, which every position reached by play
//! is): ranks 8 to 1 separated by `/`, digits for empty squares, a
//! single-type piece as its letter (`N`, `k`), a full-potential piece as `X`
//! / `x` (when the army has no type lettered X), any other White piece as
//! `{token}` and Black piece as `(token)` (`{QRP}`, `(!kn)`, `{P=Q}`),
//! followed by `'` for a piece that has moved where that matters (it may
//! still be a pawn, on a square of the pawn's initial-rank moves: `{!BN}'`);
//! then
//! the captured pieces in brackets (White's upper case, Black's lower case,
//! army order, e.g. `[QPn]`); the side to move; the en passant square or
//! `-`; the halfmove clock; the fullmove number. The start:
//! `xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX[] w - 0 1`.
//!
//! Moves ([`PotentialPosition::format_move`], round-trips through
//! [`PotentialPosition::parse_move`]): the seed's `coord1-coord2>piece1` and
//! `coord1:coord2>piece1(piece2)`, where `piece1` is the mover's token after
//! the move (the types that could have made it, before the consistency
//! reduction; `P=Q` for a promotion or a promoted piece), in the mover's
//! case, and `piece2` the captured piece's named identity in its owner's
//! case: `d2-d4>QRP`, `a7-b5>n`, `d4:d7>QR(b)`, `e7-e8>P=Q`, `e5:d6>P(p)` (en
//! passant). Parsing is case-insensitive and `>piece1` may be omitted when
//! it is determined by the squares.
//!
//! The board diagram ([`PotentialPosition::diagram`]) is the seed's.

pub mod assign;
mod eval;
mod search;
mod status;
mod text;

use std::fmt;

use crate::movement::{PieceMoves, SliderLines};
use crate::types::{Bitboard, ByColor, Color, MAX_PIECE_TYPES, PieceType, Square, splitmix};
use crate::variant::Variant;

pub use assign::Potential;
pub use eval::PotentialEvaluator;
pub use search::{PackedMove, PotentialRules};
pub use text::{PotentialNotationError, PotentialTextError};

/// The army both sides play with: a list of a variant's piece types (the
/// potential bit order) with a count each, from the variant's validated
/// `[potential]` table.
#[derive(Clone, Debug)]
pub struct Army<'v> {
    variant: &'v Variant,
    kinds: Vec<PieceType>,
    counts: Vec<u8>,
    royal: u8,
    pawn: Option<u8>,
    promotions: Vec<u8>,
    /// The pawn's moves without its initial-rank moves (the double step),
    /// per side: what a pawn that has moved may do.
    moved_pawn: Option<Box<ByColor<PieceMoves>>>,
    /// Squares a pawn's initial-rank moves start from, per side.
    pawn_initial: ByColor<Bitboard>,
}

impl<'v> Army<'v> {
    /// The army of a Potential Chess variant, or `None` for a variant that
    /// is not played as Potential Chess (no `[potential]` table).
    ///
    /// ```
    /// use pocketlab_core::{builtin, potential::Army};
    ///
    /// let variant = builtin::load("potential-chess").unwrap();
    /// let army = Army::of(&variant).unwrap();
    /// assert_eq!((army.len(), army.size()), (6, 16));
    /// assert!(Army::of(&builtin::load("chess").unwrap()).is_none());
    /// ```
    pub fn of(variant: &'v Variant) -> Option<Army<'v>> {
        let rules = variant.rules.potential.as_ref()?;
        // The variant validated the army: one royal piece, at most one
        // pawn type, 1 to 32 pieces.
        let (kinds, counts): (Vec<PieceType>, Vec<u8>) = rules.army.iter().copied().unzip();
        let index_of = |k: PieceType| kinds.iter().position(|&x| x == k).map(|i| i as u8);
        let royal = index_of(variant.royal).expect("the variant validated the army's royal piece");
        let pawn = kinds
            .iter()
            .position(|&k| variant.is_pawn(k))
            .map(|i| i as u8);
        let mut promotions: Vec<u8> = variant
            .rules
            .promotion
            .as_ref()
            .map(|p| p.choices.iter().filter_map(|&k| index_of(k)).collect())
            .unwrap_or_default();
        promotions.retain(|&t| t != royal && Some(t) != pawn);
        promotions.sort_unstable();
        if promotions.is_empty() {
            promotions = (0..kinds.len() as u8)
                .filter(|&t| t != royal && Some(t) != pawn)
                .collect();
        }
        let pawn_rules = |color| {
            pawn.map(|p| variant.move_rules(color, kinds[usize::from(p)]))
                .unwrap_or_default()
        };
        let moved_pawn = pawn.map(|_| {
            Box::new(ByColor::new_with(|color| {
                let later: Vec<_> = pawn_rules(color)
                    .into_iter()
                    .filter(|(rule, _)| !rule.initial)
                    .collect();
                PieceMoves::compile(color, &later)
            }))
        });
        let pawn_initial = ByColor::new_with(|color| {
            pawn_rules(color)
                .into_iter()
                .filter(|(rule, _)| rule.initial)
                .fold(Bitboard::EMPTY, |acc, (_, from)| acc | from)
        });
        Some(Army {
            variant,
            kinds,
            counts,
            royal,
            pawn,
            promotions,
            moved_pawn,
            pawn_initial,
        })
    }

    /// The variant the army comes from.
    pub fn variant(&self) -> &'v Variant {
        self.variant
    }

    /// Number of types.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether the army has no type (never for an army built from a
    /// validated variant).
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The variant piece type of army type `t`.
    pub fn kind(&self, t: u8) -> PieceType {
        self.kinds[usize::from(t)]
    }

    /// Pieces of army type `t` per side.
    pub fn count(&self, t: u8) -> u8 {
        self.counts[usize::from(t)]
    }

    /// Pieces per side.
    pub fn size(&self) -> usize {
        self.counts.iter().map(|&c| usize::from(c)).sum()
    }

    /// Upper-case letter of army type `t`.
    pub fn letter(&self, t: u8) -> char {
        self.variant.letter(self.kind(t)).to_ascii_uppercase()
    }

    /// The army type with this letter (either case).
    pub fn type_of_letter(&self, letter: char) -> Option<u8> {
        let kind = self.variant.piece_by_letter(letter)?;
        self.kinds.iter().position(|&k| k == kind).map(|i| i as u8)
    }

    /// The royal type (K).
    pub fn royal(&self) -> u8 {
        self.royal
    }

    /// The pawn type, if the army has one.
    pub fn pawn(&self) -> Option<u8> {
        self.pawn
    }

    /// Types a pawn may promote to.
    pub fn promotions(&self) -> &[u8] {
        &self.promotions
    }

    /// Every type.
    pub fn all(&self) -> Potential {
        Potential(((1u64 << self.kinds.len()) - 1) as u32)
    }

    #[inline]
    fn moves(&self, color: Color, t: u8) -> &'v PieceMoves {
        self.variant.moves(color, self.kinds[usize::from(t)])
    }

    /// The moves of type `t` for a piece that has (`moved`) or has not
    /// moved yet: a pawn that has moved has no initial-rank moves.
    #[inline]
    fn moves_of(&self, color: Color, t: u8, moved: bool) -> &PieceMoves {
        match (&self.moved_pawn, moved && Some(t) == self.pawn) {
            (Some(tables), true) => &tables[color],
            _ => self.moves(color, t),
        }
    }

    /// The start: White's pieces fill a1-h1, then a2-h2, ...; Black's the
    /// mirrored squares; every piece has the full potential.
    pub fn start_position(&self) -> PotentialPosition<'_> {
        let mut pos = PotentialPosition::empty(self);
        let full = self.all();
        for i in 0..self.size() {
            let sq = Square::new(i as u8).expect("at most 32 pieces per side");
            pos.put(sq, Color::White, full, NOT_PROMOTED);
            pos.put(sq.flip_vertical(), Color::Black, full, NOT_PROMOTED);
        }
        pos.hash = pos.compute_hash();
        pos
    }
}

const NOT_PROMOTED: u8 = u8::MAX;

/// A piece on the board: its side, its potential, and, for a promoted pawn,
/// the army type it now moves as (its potential is then `{P}`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PotentialPiece {
    /// Its side.
    pub color: Color,
    /// The army types it may still be.
    pub potential: Potential,
    /// For a promoted pawn, the army type it moves as.
    pub promoted: Option<u8>,
    /// The piece has moved and may still be a pawn on a square of the
    /// pawn's initial-rank moves: as a pawn it may not make them (a pawn's
    /// double step is its first move). Recorded only where it matters.
    pub moved: bool,
}

/// A move of Potential Chess.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PotentialMove {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
    /// The mover's potential after the move, before the consistency
    /// reduction: the types that could have made it (`{P}` for a promotion
    /// or a promoted piece).
    pub reduced: Potential,
    /// Promotion: the army type the pawn becomes.
    pub promotion: Option<u8>,
    /// The captured piece's named identity (army type).
    pub captured: Option<u8>,
    /// Whether it captures en passant.
    pub en_passant: bool,
}

/// A position of Potential Chess. Plain value; moves are played by copy-make.
#[derive(Clone)]
pub struct PotentialPosition<'a> {
    army: &'a Army<'a>,
    pot: [Potential; 64],
    promoted: [u8; 64],
    colors: ByColor<Bitboard>,
    /// Pieces that have moved, where that matters (see [`PotentialPiece::moved`]).
    moved: Bitboard,
    captured: ByColor<[u8; MAX_PIECE_TYPES]>,
    side: Color,
    en_passant: Option<Square>,
    halfmove_clock: u16,
    fullmove_number: u16,
    hash: u64,
}

impl fmt::Debug for PotentialPosition<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PotentialPosition({})", self.to_text())
    }
}

impl PartialEq for PotentialPosition<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.pot == other.pot
            && self.promoted == other.promoted
            && self.colors == other.colors
            && self.moved == other.moved
            && self.captured == other.captured
            && self.side == other.side
            && self.en_passant == other.en_passant
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
    }
}

impl<'a> PotentialPosition<'a> {
    fn empty(army: &'a Army<'a>) -> PotentialPosition<'a> {
        PotentialPosition {
            army,
            pot: [Potential::EMPTY; 64],
            promoted: [NOT_PROMOTED; 64],
            colors: ByColor::default(),
            moved: Bitboard::EMPTY,
            captured: ByColor::default(),
            side: Color::White,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            hash: 0,
        }
    }

    fn put(&mut self, sq: Square, color: Color, pot: Potential, promoted: u8) {
        self.pot[sq.index()] = pot;
        self.promoted[sq.index()] = promoted;
        self.colors[color] = self.colors[color].with(sq);
        self.colors[!color] = self.colors[!color].without(sq);
    }

    fn remove(&mut self, sq: Square) {
        self.moved = self.moved.without(sq);
        self.pot[sq.index()] = Potential::EMPTY;
        self.promoted[sq.index()] = NOT_PROMOTED;
        self.colors.white = self.colors.white.without(sq);
        self.colors.black = self.colors.black.without(sq);
    }

    /// The army both sides play with.
    pub fn army(&self) -> &'a Army<'a> {
        self.army
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<PotentialPiece> {
        let color = if self.colors.white.contains(sq) {
            Color::White
        } else if self.colors.black.contains(sq) {
            Color::Black
        } else {
            return None;
        };
        let p = self.promoted[sq.index()];
        Some(PotentialPiece {
            color,
            potential: self.pot[sq.index()],
            promoted: (p != NOT_PROMOTED).then_some(p),
            moved: self.moved.contains(sq),
        })
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors.white | self.colors.black
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.colors[color]
    }

    /// How many of `color`'s pieces named `t` have been captured.
    pub fn captured_count(&self, color: Color, t: u8) -> u8 {
        self.captured[color][usize::from(t)]
    }

    /// `color`'s captured pieces by named type, army order.
    pub fn captured(&self, color: Color) -> Vec<u8> {
        (0..self.army.len() as u8)
            .flat_map(|t| std::iter::repeat_n(t, usize::from(self.captured_count(color, t))))
            .collect()
    }

    /// The side whose turn it is.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The square a double step skipped, where an en passant capture may
    /// land.
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last move that resets the n-move counter.
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// The move number, from 1, counted up after Black's move.
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// A hash of everything that makes a position (board with potentials
    /// and promotions, captured pieces, side, en passant); not the counters.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// [`Self::hash`] computed from scratch (the position keeps it current
    /// as moves are played).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0u64;
        for sq in self.occupied() {
            let color = u64::from(self.colors.black.contains(sq));
            h ^= splitmix(
                sq.index() as u64
                    | color << 6
                    | u64::from(self.promoted[sq.index()]) << 8
                    | u64::from(self.pot[sq.index()].0) << 16,
            );
        }
        for color in Color::ALL {
            for t in 0..self.army.len() {
                let n = self.captured[color][t];
                if n > 0 {
                    h ^= splitmix(
                        1 << 62 | (color.index() as u64) << 40 | (t as u64) << 8 | u64::from(n),
                    );
                }
            }
        }
        if self.side == Color::Black {
            h ^= splitmix(1 << 61);
        }
        if let Some(ep) = self.en_passant {
            h ^= splitmix(1 << 60 | ep.index() as u64);
        }
        for sq in self.moved {
            h ^= splitmix(1 << 59 | sq.index() as u64);
        }
        h
    }

    /// Squares `by`'s pieces could capture onto, for some type in their
    /// potentials (promoted pieces as their promoted type).
    pub(crate) fn attacked_by(&self, by: Color) -> Bitboard {
        let occ = self.occupied();
        let mut out = Bitboard::EMPTY;
        for sq in self.colors[by] {
            let pr = self.promoted[sq.index()];
            if pr != NOT_PROMOTED {
                out |= self.army.moves(by, pr).capture_reach(sq, occ);
            } else {
                for t in self.pot[sq.index()].iter() {
                    out |= self.army.moves(by, t).capture_reach(sq, occ);
                }
            }
        }
        out
    }

    /// `color`'s pieces that could be the king.
    pub(crate) fn king_candidates(&self, color: Color) -> Bitboard {
        let royal = self.army.royal;
        self.colors[color]
            .filter(|&sq| self.pot[sq.index()].contains(royal))
            .collect()
    }

    /// Every piece of the side to move that could be the king is attackable
    /// by the enemy's potentials (the analogue of check).
    pub fn is_check(&self) -> bool {
        let attacked = self.attacked_by(!self.side);
        (self.king_candidates(self.side) & !attacked).is_empty()
    }

    /// The remaining count per type once `color`'s captured pieces are
    /// taken out (`None` if more were captured than the army has).
    fn need(&self, color: Color) -> Option<[u8; MAX_PIECE_TYPES]> {
        let mut need = [0u8; MAX_PIECE_TYPES];
        for (t, n) in need.iter_mut().enumerate().take(self.army.len()) {
            *n = self.army.counts[t].checked_sub(self.captured[color][t])?;
        }
        Some(need)
    }

    /// One consistent assignment of `color`'s pieces on the board (square,
    /// army type), if there is one. With the captured pieces' names it is a
    /// starting array the game so far can be replayed from.
    pub fn assignment(&self, color: Color) -> Option<Vec<(Square, u8)>> {
        let need = self.need(color)?;
        let squares: Vec<Square> = self.colors[color].collect();
        let pots: Vec<Potential> = squares.iter().map(|sq| self.pot[sq.index()]).collect();
        let assign = assign::find_assignment(&pots, &need[..self.army.len()])?;
        Some(squares.into_iter().zip(assign).collect())
    }

    /// Rule 5 for one side; `false` if the side has no consistent assignment.
    fn reduce_side(&mut self, color: Color) -> bool {
        let Some(need) = self.need(color) else {
            return false;
        };
        let mut squares = [Square::A1; assign::MAX_PIECES];
        let mut pots = [Potential::EMPTY; assign::MAX_PIECES];
        let mut n = 0;
        for sq in self.colors[color] {
            if n == assign::MAX_PIECES {
                return false;
            }
            squares[n] = sq;
            pots[n] = self.pot[sq.index()];
            n += 1;
        }
        if !assign::reduce(&mut pots[..n], &need[..self.army.len()]) {
            return false;
        }
        for i in 0..n {
            self.pot[squares[i].index()] = pots[i];
        }
        true
    }

    /// Keep the moved marks only where they decide something: pieces that
    /// may still be a pawn, unpromoted, on a square of the pawn's
    /// initial-rank moves. Elsewhere a moved piece moves as an unmoved one.
    pub(crate) fn keep_relevant_moved(&mut self) {
        let Some(p) = self.army.pawn else {
            self.moved = Bitboard::EMPTY;
            return;
        };
        let mut keep = Bitboard::EMPTY;
        for color in Color::ALL {
            for sq in self.moved & self.colors[color] & self.army.pawn_initial[color] {
                if self.pot[sq.index()].contains(p) && self.promoted[sq.index()] == NOT_PROMOTED {
                    keep = keep.with(sq);
                }
            }
        }
        self.moved = keep;
    }

    /// Reduce both sides (used after parsing); `false` if either side is
    /// inconsistent.
    pub(crate) fn reduce_all(&mut self) -> bool {
        self.reduce_side(Color::White) && self.reduce_side(Color::Black)
    }

    /// Per type in the potential of the piece on `from` (of the side to
    /// move), the squares that type could move to (en passant excluded).
    /// A promoted piece lists its promoted type.
    pub(crate) fn targets_by_type(&self, from: Square) -> Vec<(u8, Bitboard)> {
        let Some(piece) = self.piece_at(from) else {
            return Vec::new();
        };
        let occ = self.occupied();
        let enemies = self.colors[!piece.color];
        let types: Vec<u8> = match piece.promoted {
            Some(t) => vec![t],
            None => piece.potential.iter().collect(),
        };
        types
            .into_iter()
            .map(|t| {
                (
                    t,
                    self.army
                        .moves_of(piece.color, t, piece.moved)
                        .targets(from, occ, enemies),
                )
            })
            .collect()
    }

    /// Every square the piece on `from` (of the side to move) could move
    /// to as some type of its potential, en passant excluded.
    pub fn targets(&self, from: Square) -> Bitboard {
        self.targets_by_type(from)
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, (_, b)| acc | b)
    }

    /// Every move the rules of movement allow, before the consistency test.
    pub(crate) fn pseudo_legal_moves(&self) -> Vec<PotentialMove> {
        let mut out = Vec::with_capacity(128);
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let enemies = self.colors[them];
        let army = self.army;
        let last_rank = us.relative_rank(7);
        for from in self.colors[us] {
            let pr = self.promoted[from.index()];
            if pr != NOT_PROMOTED {
                let tg = army.moves(us, pr).targets(from, occ, enemies);
                for to in tg {
                    self.push_with_names(&mut out, from, to, self.pot[from.index()], None);
                }
                continue;
            }
            let pot = self.pot[from.index()];
            let moved = self.moved.contains(from);
            let mut per = [Bitboard::EMPTY; MAX_PIECE_TYPES];
            let mut union = Bitboard::EMPTY;
            for t in pot.iter() {
                let b = army.moves_of(us, t, moved).targets(from, occ, enemies);
                per[usize::from(t)] = b;
                union |= b;
            }
            for to in union {
                let could = Potential(
                    pot.iter()
                        .filter(|&t| per[usize::from(t)].contains(to))
                        .fold(0, |acc, t| acc | 1 << t),
                );
                match army.pawn {
                    Some(p) if could.contains(p) && to.rank() == last_rank => {
                        let other = could.without(p);
                        if !other.is_empty() {
                            self.push_with_names(&mut out, from, to, other, None);
                        }
                        for &c in &army.promotions {
                            self.push_with_names(&mut out, from, to, Potential::single(p), Some(c));
                        }
                    }
                    _ => self.push_with_names(&mut out, from, to, could, None),
                }
            }
            // En passant.
            if let (Some(p), Some(ep)) = (army.pawn, self.en_passant)
                && pot.contains(p)
                && army.moves(us, p).leap_en_passant[from.index()].contains(ep)
                && let Some(victim) = ep.offset(0, -us.forward())
                && enemies.contains(victim)
                && self.pot[victim.index()].contains(p)
                && self.promoted[victim.index()] == NOT_PROMOTED
                && !occ.contains(ep)
            {
                out.push(PotentialMove {
                    from,
                    to: ep,
                    reduced: Potential::single(p),
                    promotion: None,
                    captured: Some(p),
                    en_passant: true,
                });
            }
        }
        out
    }

    fn push_with_names(
        &self,
        out: &mut Vec<PotentialMove>,
        from: Square,
        to: Square,
        reduced: Potential,
        promotion: Option<u8>,
    ) {
        let mv = PotentialMove {
            from,
            to,
            reduced,
            promotion,
            captured: None,
            en_passant: false,
        };
        if !self.colors[!self.side].contains(to) {
            out.push(mv);
            return;
        }
        let pr = self.promoted[to.index()];
        let names = if pr != NOT_PROMOTED {
            // A promoted piece is a pawn of the army.
            self.pot[to.index()]
        } else {
            self.pot[to.index()].without(self.army.royal)
        };
        for name in names.iter() {
            out.push(PotentialMove {
                captured: Some(name),
                ..mv
            });
        }
    }

    /// The position after a pseudo-legal move, or `None` if the move leaves
    /// the mover without a consistent assignment.
    fn apply(&self, mv: PotentialMove) -> Option<PotentialPosition<'a>> {
        let army = self.army;
        let us = self.side;
        let them = !us;
        let mut next = self.clone();
        next.en_passant = None;
        let moving_promoted = self.promoted[mv.from.index()];
        if let Some(name) = mv.captured {
            let victim = if mv.en_passant {
                mv.to.offset(0, -us.forward())?
            } else {
                mv.to
            };
            next.remove(victim);
            next.captured[them][usize::from(name)] += 1;
            // The victim's side must stay consistent with the name.
            let name_ok = if self.promoted[victim.index()] != NOT_PROMOTED {
                Some(name) == army.pawn
            } else {
                self.pot[victim.index()].contains(name) && name != army.royal
            };
            if !name_ok || !next.reduce_side(them) {
                return None;
            }
        }
        next.remove(mv.from);
        let promoted = mv.promotion.unwrap_or(moving_promoted);
        next.put(mv.to, us, mv.reduced, promoted);
        next.moved = next.moved.with(mv.to);

        // Rule 4: our pieces the enemy could attack cannot be the king.
        let attacked = next.attacked_by(them);
        for sq in next.colors[us] & attacked {
            next.pot[sq.index()] = next.pot[sq.index()].without(army.royal);
        }
        if !next.reduce_side(us) {
            return None;
        }
        next.keep_relevant_moved();
        // A move a pawn could have made, judged on the mover's potential
        // after the reduction (promotions included: the piece is `{P}`).
        let pawn_move = moving_promoted == NOT_PROMOTED
            && army
                .pawn
                .is_some_and(|p| next.pot[mv.to.index()].contains(p));

        if pawn_move
            && mv.promotion.is_none()
            && mv.from.file() == mv.to.file()
            && mv.from.rank().abs_diff(mv.to.rank()) == 2
            && let Some(p) = army.pawn
            && next.pot[mv.to.index()].contains(p)
        {
            let mid = Square::from_coords(mv.from.file(), (mv.from.rank() + mv.to.rank()) / 2);
            let mut takers =
                next.colors[them] & army.moves(them, p).rev_leap_en_passant[mid.index()];
            if Iterator::any(&mut takers, |sq: Square| {
                next.pot[sq.index()].contains(p) && next.promoted[sq.index()] == NOT_PROMOTED
            }) {
                next.en_passant = Some(mid);
            }
        }

        next.halfmove_clock = if mv.captured.is_some() || pawn_move {
            0
        } else {
            self.halfmove_clock.saturating_add(1)
        };
        if us == Color::Black {
            next.fullmove_number = next.fullmove_number.saturating_add(1);
        }
        next.side = them;
        next.hash = next.compute_hash();
        Some(next)
    }

    /// Per army type, `by`'s pieces that attack as that type.
    fn attackers_by_type(&self, by: Color) -> [Bitboard; MAX_PIECE_TYPES] {
        let mut out = [Bitboard::EMPTY; MAX_PIECE_TYPES];
        for sq in self.colors[by] {
            let pr = self.promoted[sq.index()];
            if pr != NOT_PROMOTED {
                out[usize::from(pr)] = out[usize::from(pr)].with(sq);
            } else {
                for t in self.pot[sq.index()].iter() {
                    out[usize::from(t)] = out[usize::from(t)].with(sq);
                }
            }
        }
        out
    }

    /// Whether `king` (after `mv` is played, the mover having moved) is free
    /// of attack by the enemy's potentials. Enemy potentials are taken before
    /// the capture's naming, which only overstates their attacks.
    fn king_safe_after(
        &self,
        mv: PotentialMove,
        king: Square,
        attackers: &[Bitboard; MAX_PIECE_TYPES],
    ) -> bool {
        let them = !self.side;
        let victim = if mv.en_passant {
            mv.to.offset(0, -self.side.forward()).unwrap_or(mv.to)
        } else {
            mv.to
        };
        let occ = (self.occupied().without(mv.from).without(victim)).with(mv.to);
        let exclude = !Bitboard::from_square(victim);
        let lines = SliderLines::new(king, occ);
        (0..self.army.len() as u8).all(|t| {
            let cands = attackers[usize::from(t)] & exclude;
            cands.is_empty()
                || self
                    .army
                    .moves(them, t)
                    .attackers_of(&lines, cands)
                    .is_empty()
        })
    }

    /// The pseudo-legal moves through a legality filter. A quick sufficient
    /// test comes first: some assignment of the mover's side with the mover
    /// being a type that could have made the move survives it (its king is
    /// not attackable afterwards); otherwise the move is played out.
    fn filter_legal(&self, mut keep: impl FnMut(PotentialMove) -> bool) {
        let pseudo = self.pseudo_legal_moves();
        let us = self.side;
        let need = self.need(us);
        let mut squares = [Square::A1; assign::MAX_PIECES];
        let mut pots = [Potential::EMPTY; assign::MAX_PIECES];
        let mut index = [u8::MAX; 64];
        let mut n = 0;
        for sq in self.colors[us].into_iter().take(assign::MAX_PIECES) {
            squares[n] = sq;
            pots[n] = self.pot[sq.index()];
            index[sq.index()] = n as u8;
            n += 1;
        }
        // king[piece][type]: where the king stands in an assignment with
        // `piece` fixed to `type` (None: not computed; Some(None): none).
        let mut kings = [[None::<Option<Square>>; MAX_PIECE_TYPES]; assign::MAX_PIECES];
        let attackers = self.attackers_by_type(!us);
        let royal = self.army.royal;
        for mv in pseudo {
            let p = usize::from(index[mv.from.index()]);
            let mut quick = false;
            if let Some(need) = &need {
                for t in mv.reduced.iter() {
                    let king = *kings[p][usize::from(t)].get_or_insert_with(|| {
                        let mut fixed = pots;
                        fixed[p] = Potential::single(t);
                        assign::find_assignment(&fixed[..n], &need[..self.army.len()])
                            .and_then(|a| a.iter().position(|&x| x == royal).map(|i| squares[i]))
                    });
                    if let Some(k) = king {
                        let k = if k == mv.from { mv.to } else { k };
                        if self.king_safe_after(mv, k, &attackers) {
                            quick = true;
                            break;
                        }
                    }
                }
            }
            let legal = quick || self.apply(mv).is_some();
            if legal && !keep(mv) {
                return;
            }
        }
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<PotentialMove> {
        let mut out = Vec::new();
        self.filter_legal(|mv| {
            out.push(mv);
            true
        });
        out
    }

    /// Every legal move with the position it leads to.
    pub fn legal_successors(&self) -> Vec<(PotentialMove, PotentialPosition<'a>)> {
        self.pseudo_legal_moves()
            .into_iter()
            .filter_map(|mv| self.apply(mv).map(|p| (mv, p)))
            .collect()
    }

    /// How many legal moves the side to move has.
    pub fn count_legal_moves(&self) -> u64 {
        let mut n = 0;
        self.filter_legal(|_| {
            n += 1;
            true
        });
        n
    }

    pub(crate) fn has_legal_move(&self) -> bool {
        let mut any = false;
        self.filter_legal(|_| {
            any = true;
            false
        });
        any
    }
}
