//! A variant: its pieces (Betza moves, values, classes) and its rules, as data.
//!
//! Variants come from TOML files (see `configs/variants/` and the README for
//! every key). A file may `inherits = "other"` and override any setting;
//! every rule has a default, listed on [`Rules`]. The core reads text it is
//! handed: resolving `inherits` to text is the caller's job (shipped
//! variants are embedded and found by name, see [`crate::builtin`]).
//!
//! A file may also draw a region (square colour) map: `map` (8 rows of one
//! letter per square, rank 8 first) and `[regions.X]` tables giving each
//! letter a name and a Betza move. A piece with `moves = "by-region"` moves
//! by the rule of the region it stands on (Chess Mutation); it is compiled
//! by giving each region's rules that region's squares as from-squares, so
//! move generation needs nothing special. See [`RegionMap`].

mod build;
mod file;

use std::fmt;

use crate::betza::MoveRule;
use crate::movement::PieceMoves;
use crate::types::{Bitboard, ByColor, Color, MAX_PIECE_TYPES, PieceType, Square};

pub(crate) use build::parse_variant_data;
pub use file::describe_toml_error;

/// Why a variant file was rejected: which file, which key, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError {
    /// The file, as the caller named it.
    pub file: String,
    /// The key at fault (`pieces.N.betza`), empty for the file as a whole.
    pub key: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "variant file '{}': {}", self.file, self.reason)
        } else {
            write!(
                f,
                "variant file '{}', key '{}': {}",
                self.file, self.key, self.reason
            )
        }
    }
}

impl std::error::Error for VariantError {}

/// One piece type of a variant.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// Upper-case FEN letter (lower case for Black).
    pub letter: char,
    /// A readable name (`knight`); the letter when the file gives none.
    pub name: String,
    /// The piece's Betza text. For a piece whose moves come from the region
    /// map (`by_region`) it is a readable summary that is *not* Betza, such
    /// as `by-region(blue B, red R, yellow N)`; use
    /// [`Variant::move_rules`] or [`Variant::region_map`] for its moves.
    pub betza: String,
    /// The piece moves by the Betza rule of the region (square colour) it
    /// stands on (`moves = "by-region"` in the file).
    pub by_region: bool,
    /// Material value in centipawns.
    pub value: i32,
    /// Moves like a pawn for the rules: double steps set en passant squares,
    /// FIDE promotion applies, "pawn-move" resets the n-move counter.
    pub pawn: bool,
    /// Value class (1-based) if the piece is in the class table.
    pub class: Option<u8>,
    /// Each move rule with the squares (absolute, the same for both sides)
    /// it applies from: the whole board for a Betza piece, the region's
    /// squares for a by-region piece. Initial-rank rules are narrowed per
    /// side by [`Variant::move_rules`].
    pub(crate) rules: Vec<(MoveRule, Bitboard)>,
}

/// One region of a [`RegionMap`]: a square colour and what it means.
#[derive(Clone, Debug)]
pub struct Region {
    /// The map letter (`Y`).
    pub letter: char,
    /// A readable name (`yellow`).
    pub name: String,
    /// The Betza move of a by-region piece standing here.
    pub betza: String,
    /// The squares of this region.
    pub squares: Bitboard,
    pub(crate) rules: Vec<MoveRule>,
}

/// The region (square colour) map of a variant such as Chess Mutation:
/// every square belongs to one region, and a by-region piece moves by the
/// Betza rule of the region it stands on.
///
/// The map is absolute: a square has one colour for both sides. The rules
/// are written from the mover's side as usual, so "forward" in a region's
/// Betza (`fmW2`) means up the board for White and down for Black.
#[derive(Clone, Debug)]
pub struct RegionMap {
    /// Every region defined in the file (letter order), used or not.
    pub regions: Vec<Region>,
    /// The map as written: 8 rows of 8 letters, rank 8 first, file a first.
    pub rows: Vec<String>,
    /// Index into `regions` of each square's region (a1 = 0).
    pub(crate) square_region: [u8; 64],
}

impl RegionMap {
    /// The region of a square.
    pub fn region_at(&self, sq: Square) -> &Region {
        &self.regions[usize::from(self.square_region[sq.index()])]
    }

    /// The region with this map letter.
    pub fn region(&self, letter: char) -> Option<&Region> {
        self.regions.iter().find(|r| r.letter == letter)
    }
}

/// What resets the n-move (fifty-move) counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CounterResets {
    /// A capture, en passant included.
    pub capture: bool,
    /// A move of a pawn-like piece.
    pub pawn_move: bool,
    /// A FIDE promotion or a pocket-in from the last rank.
    pub promotion: bool,
    /// A drop from the pocket.
    pub drop: bool,
    /// A pocket-in of any kind.
    pub pocket_in: bool,
}

/// When a position is a dead draw by material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadPosition {
    /// Never: play on to the other rules.
    Never,
    /// Only the two royal pieces on the board and both pockets empty.
    KingsOnly,
}

/// The pocket: pocket-in moves, mutation, promotion by pocketing, drops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PocketRules {
    /// Most pieces a side's pocket holds.
    pub size: u8,
    /// A side may put one of its own pieces (not the royal one) in its pocket.
    pub pocket_in: bool,
    /// Pocketed from ranks 1-7, a piece may become any piece of its class.
    pub mutation: bool,
    /// Pocketed from the owner's last rank, a piece becomes one of the next
    /// class (the top class stays in the top class).
    pub promote_from_last_rank: bool,
    /// White may not use the pocket on move 1.
    pub white_first_move_ban: bool,
    /// Relative ranks (bit 0 = the owner's first) where drops may land.
    pub drop_ranks: u8,
    /// The same for pawn-like pieces.
    pub pawn_drop_ranks: u8,
}

/// FIDE-style castling: king and partner piece on the given files of the back rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastlingRules {
    /// The royal piece's file (0-based).
    pub king_file: u8,
    /// The queenside partner's file (0-based).
    pub queenside_file: u8,
    /// The kingside partner's file (0-based).
    pub kingside_file: u8,
}

/// Promotion on reaching a zone (FIDE chess).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromotionRules {
    /// Relative ranks (bit 0 = the owner's first) where pawns promote.
    pub ranks: u8,
    /// The types a pawn may become.
    pub choices: Vec<PieceType>,
    /// Whether a pawn reaching the zone must promote.
    pub mandatory: bool,
}

/// Every rule setting of a variant. Defaults (what a file gets when it says
/// nothing): no pocket, no castling, no promotion, en passant on, initial
/// (double-step) rank 2, a 100-ply counter reset by captures and pawn moves,
/// threefold repetition, and a dead draw with kings only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The pocket, if the variant has one.
    pub pocket: Option<PocketRules>,
    /// Castling, if the variant has it.
    pub castling: Option<CastlingRules>,
    /// Promotion on reaching a zone, if the variant has it.
    pub promotion: Option<PromotionRules>,
    /// Whether double steps allow en passant captures.
    pub en_passant: bool,
    /// Relative ranks (bit 0 = first) from which `i` (initial) moves apply.
    pub initial_ranks: u8,
    /// Plies without a reset that draw; 0 turns the rule off.
    pub n_move_rule: u16,
    /// What resets the n-move counter.
    pub n_move_reset: CounterResets,
    /// Occurrences of a position that draw; 0 turns the rule off.
    pub repetition: u8,
    /// When a position is a dead draw.
    pub dead_position: DeadPosition,
    /// Potential Chess: every piece starts with the potential of every
    /// type of this army (`[potential]`); `None` for ordinary variants.
    pub potential: Option<PotentialRules>,
}

/// The army of a Potential Chess variant: piece types in potential order,
/// each with its count per side (validated: the royal piece once, at most
/// one pawn type, 1 to 32 pieces). The potential module plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PotentialRules {
    /// Each type of the army with its count per side, in potential order.
    pub army: Vec<(PieceType, u8)>,
}

/// A compiled, validated variant. Immutable; share it by reference.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The variant's name, as files and logs refer to it.
    pub name: String,
    /// A one-line description for people.
    pub description: String,
    /// The piece types, in type-index order.
    pub pieces: Vec<PieceDef>,
    /// The royal piece (the king), which must not be captured or left in check.
    pub royal: PieceType,
    /// Pieces of each class; class `n` is `classes[n - 1]`.
    pub classes: Vec<Vec<PieceType>>,
    /// The starting position as FEN.
    pub start_fen: String,
    /// Every rule setting.
    pub rules: Rules,
    /// The region (square colour) map, if the file has one.
    pub region_map: Option<RegionMap>,
    pub(crate) moves: ByColor<Vec<PieceMoves>>,
    pub(crate) letters: [Option<PieceType>; 26],
    /// Choices when pocketing from ranks 1-7 / from the last rank, per type.
    pub(crate) pocket_choices: Vec<Vec<PieceType>>,
    pub(crate) promotion_pocket_choices: Vec<Vec<PieceType>>,
    /// Castling rights that survive a move from or to each square.
    pub(crate) castling_keep: [u8; 64],
    pub(crate) pawn_types: u32,
    /// See [`Variant::is_file_symmetric`].
    pub(crate) file_symmetric: bool,
}

impl Variant {
    /// The piece type with this FEN letter (either case).
    pub fn piece_by_letter(&self, letter: char) -> Option<PieceType> {
        let upper = letter.to_ascii_uppercase();
        if upper.is_ascii_uppercase() {
            self.letters[(upper as u8 - b'A') as usize]
        } else {
            None
        }
    }

    /// The definition of a piece type.
    pub fn piece(&self, kind: PieceType) -> &PieceDef {
        &self.pieces[kind.index()]
    }

    /// Every piece type, in index order.
    pub fn piece_types(&self) -> impl ExactSizeIterator<Item = PieceType> + use<> {
        (0..self.pieces.len()).map(PieceType::from_index)
    }

    /// A piece type's upper-case letter.
    pub fn letter(&self, kind: PieceType) -> char {
        self.pieces[kind.index()].letter
    }

    /// Whether a piece type moves like a pawn for the rules.
    #[inline]
    pub fn is_pawn(&self, kind: PieceType) -> bool {
        self.pawn_types & (1 << kind.index()) != 0
    }

    /// Whether the variant has a pocket.
    pub fn has_pocket(&self) -> bool {
        self.rules.pocket.is_some()
    }

    /// The region (square colour) map, if the variant has one.
    pub fn region_map(&self) -> Option<&RegionMap> {
        self.region_map.as_ref()
    }

    /// The move rules of a piece type for one side, each with the squares it
    /// applies from (what its move tables are compiled from): the region for a
    /// by-region piece, the initial ranks for an `i` rule, else the board.
    pub fn move_rules(&self, color: Color, kind: PieceType) -> Vec<(MoveRule, Bitboard)> {
        move_rules_for(&self.pieces[kind.index()], color, self.rules.initial_ranks)
    }

    /// The compiled moves of a piece type for one side.
    #[inline]
    pub(crate) fn moves(&self, color: Color, kind: PieceType) -> &PieceMoves {
        &self.moves[color][kind.index()]
    }

    /// Whether the rules are the same on a board seen in a mirror (files a
    /// to h reversed): no castling, not Potential Chess, and every piece
    /// of either side moves alike at mirrored squares (which square
    /// colours deciding moves usually break). Then a position and its
    /// mirror image ([`crate::Position::mirror_files`]) are worth the same.
    pub fn is_file_symmetric(&self) -> bool {
        self.file_symmetric
    }

    /// Types a piece of `kind` may become when pocketed from `from` by `color`.
    pub fn pocket_choices(&self, color: Color, kind: PieceType, from: Square) -> &[PieceType] {
        if color.relative_rank(from.rank()) == 7 {
            &self.promotion_pocket_choices[kind.index()]
        } else {
            &self.pocket_choices[kind.index()]
        }
    }

    /// The pieces of a class, if the class exists.
    pub fn class(&self, class: u8) -> Option<&[PieceType]> {
        self.classes
            .get(usize::from(class).checked_sub(1)?)
            .map(Vec::as_slice)
    }

    /// The squares `color` may drop a `kind` on (empty or not): the drop
    /// ranks, or the pawn drop ranks for a pawn; none without a pocket.
    pub(crate) fn drop_squares(&self, color: Color, kind: PieceType) -> Bitboard {
        let Some(rules) = &self.rules.pocket else {
            return Bitboard::EMPTY;
        };
        let ranks = if self.is_pawn(kind) {
            rules.pawn_drop_ranks
        } else {
            rules.drop_ranks
        };
        Variant::relative_ranks_mask(color, ranks)
    }

    pub(crate) fn relative_ranks_mask(color: Color, ranks: u8) -> Bitboard {
        (0..8u8)
            .filter(|r| ranks & (1 << r) != 0)
            .fold(Bitboard::EMPTY, |acc, r| {
                acc | Bitboard::rank(color.relative_rank(r))
            })
    }
}

pub(crate) fn move_rules_for(
    piece: &PieceDef,
    color: Color,
    initial_ranks: u8,
) -> Vec<(MoveRule, Bitboard)> {
    let initial = Variant::relative_ranks_mask(color, initial_ranks);
    piece
        .rules
        .iter()
        .map(|(rule, from)| {
            let from = if rule.initial { *from & initial } else { *from };
            (rule.clone(), from)
        })
        .collect()
}

pub(crate) const _ASSERT_TYPES_FIT: () = assert!(MAX_PIECE_TYPES <= 32);
