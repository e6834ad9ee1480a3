//! A position of a variant: board, pockets, side to move, en passant square,
//! castling rights, counters and an incremental Zobrist hash.
//!
//! Positions are small plain values: moves are played by copy-make
//! ([`GamePosition::play`](crate::GamePosition::play) returns a new position), so there is no unmake to get
//! wrong and search threads never share mutable state.

mod fen;
mod play;
mod status;

pub(crate) mod zobrist;

use std::fmt;

use crate::types::{Bitboard, ByColor, Color, MAX_PIECE_TYPES, Piece, PieceType, Square};
use crate::variant::Variant;

pub use fen::FenError;

/// Castling rights: bit 0 White kingside, 1 White queenside, 2 Black kingside, 3 Black queenside.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct CastlingRights(pub u8);

impl CastlingRights {
    /// Whether `color` may still castle on that side.
    pub const fn has(self, color: Color, kingside: bool) -> bool {
        self.0 & Self::bit(color, kingside) != 0
    }

    /// The bit of `color`'s right on that side.
    pub const fn bit(color: Color, kingside: bool) -> u8 {
        let side = if kingside { 1 } else { 2 };
        match color {
            Color::White => side,
            Color::Black => side << 2,
        }
    }
}

/// A position of a variant with fixed piece identities (chess, Pocket
/// Mutation Chess, Chess Mutation), borrowing its [`Variant`].
///
/// Built from a FEN ([`Position::from_fen`]) or the variant's start
/// ([`Position::start`]); moves are played through [`GamePosition`](crate::GamePosition)
/// (legality checked) or [`Position::after`] (a move known to be legal).
///
/// ```rust
/// use pocketlab_core::{GamePosition, Position, builtin, notation};
///
/// let chess = builtin::load("chess").unwrap();
/// let start = Position::start(&chess);
/// assert_eq!(start.legal_moves().len(), 20);
/// let e4 = notation::parse(&start, "e2e4").unwrap();
/// let after = start.play(e4).unwrap();
/// assert_eq!(
///     after.to_fen(),
///     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
/// );
/// ```
#[derive(Clone)]
pub struct Position<'v> {
    variant: &'v Variant,
    board: [Option<Piece>; 64],
    by_type: [Bitboard; MAX_PIECE_TYPES],
    by_color: ByColor<Bitboard>,
    pockets: ByColor<[u8; MAX_PIECE_TYPES]>,
    pocket_sizes: ByColor<u8>,
    royal_squares: ByColor<Square>,
    side_to_move: Color,
    en_passant: Option<Square>,
    castling: CastlingRights,
    halfmove_clock: u16,
    fullmove_number: u16,
    hash: u64,
    /// The enemy pieces giving check to the side to move: derived state,
    /// kept current by every public way to make or change a position.
    checkers: Bitboard,
}

impl<'v> Position<'v> {
    /// The variant's starting position.
    pub fn start(variant: &'v Variant) -> Position<'v> {
        Position::from_fen(variant, &variant.start_fen)
            .expect("a variant's start position is validated when it is built")
    }

    /// The variant this position is played under.
    pub fn variant(&self) -> &'v Variant {
        self.variant
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color.white | self.by_color.black
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }

    /// Pieces of one type, both sides.
    #[inline]
    pub fn pieces_of_type(&self, kind: PieceType) -> Bitboard {
        self.by_type[kind.index()]
    }

    /// The squares of `color`'s pieces of type `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceType) -> Bitboard {
        self.by_type[kind.index()] & self.by_color[color]
    }

    /// Where `color`'s royal piece stands.
    #[inline]
    pub fn royal_square(&self, color: Color) -> Square {
        self.royal_squares[color]
    }

    /// How many pieces of `kind` `color` holds in its pocket.
    #[inline]
    pub fn pocket_count(&self, color: Color, kind: PieceType) -> u8 {
        self.pockets[color][kind.index()]
    }

    /// Total pieces in `color`'s pocket.
    #[inline]
    pub fn pocket_size(&self, color: Color) -> u8 {
        self.pocket_sizes[color]
    }

    /// The pocket's contents, type by type.
    pub fn pocket(&self, color: Color) -> impl Iterator<Item = (PieceType, u8)> + '_ {
        self.variant
            .piece_types()
            .map(move |t| (t, self.pockets[color][t.index()]))
            .filter(|&(_, n)| n > 0)
    }

    /// The side whose turn it is.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The square a pawn skipped on the last move, where an en passant
    /// capture may land.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// The castling rights left.
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// Plies since the last move that resets the n-move counter.
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// The move number, from 1, counted up after Black's move.
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// The Zobrist hash: board, both pockets, side to move, castling rights
    /// and en passant square.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch (tests compare it with [`Self::hash`]).
    pub fn compute_hash(&self) -> u64 {
        let mut h = zobrist::castling(self.castling.0);
        for sq in self.occupied() {
            let p = self.board[sq.index()].expect("occupied squares hold pieces");
            h ^= zobrist::piece(p.color, p.kind, sq);
        }
        for color in Color::ALL {
            for (kind, n) in self.pocket(color) {
                h ^= zobrist::pocket(color, kind, n);
            }
        }
        if let Some(ep) = self.en_passant {
            h ^= zobrist::en_passant(ep);
        }
        if self.side_to_move == Color::Black {
            h ^= zobrist::black_to_move();
        }
        h
    }

    /// The position seen in a mirror, files a to h reversed: the same
    /// pieces on mirrored squares, the same pockets, side to move and
    /// clocks, the en passant square mirrored. `None` unless the variant
    /// [`is_file_symmetric`](Variant::is_file_symmetric): only then is the
    /// mirror image a position of the same worth (a way to double the
    /// positions a learned evaluation is fitted to).
    ///
    /// ```
    /// use pocketlab_core::{Position, builtin};
    ///
    /// let nocastle = builtin::load("chess-nocastle").unwrap();
    /// let pos = Position::from_fen(&nocastle, "4k3/8/8/8/8/2N5/P7/4K3 b - - 3 9").unwrap();
    /// let mirror = pos.mirror_files().unwrap();
    /// assert_eq!(mirror.to_fen(), "3k4/8/8/8/8/5N2/7P/3K4 b - - 3 9");
    /// assert_eq!(mirror.mirror_files().unwrap(), pos);
    ///
    /// // Castling is not the same in a mirror.
    /// let chess = builtin::load("chess").unwrap();
    /// assert!(Position::start(&chess).mirror_files().is_none());
    /// ```
    pub fn mirror_files(&self) -> Option<Position<'v>> {
        if !self.variant.is_file_symmetric() {
            return None;
        }
        let mut mirror = Position::empty(self.variant);
        for sq in self.occupied() {
            let piece = self.board[sq.index()].expect("occupied squares hold pieces");
            mirror.put_piece(sq.flip_horizontal(), piece);
        }
        mirror.pockets = self.pockets;
        mirror.pocket_sizes = self.pocket_sizes;
        mirror.side_to_move = self.side_to_move;
        mirror.en_passant = self.en_passant.map(Square::flip_horizontal);
        mirror.castling = self.castling;
        mirror.halfmove_clock = self.halfmove_clock;
        mirror.fullmove_number = self.fullmove_number;
        mirror.hash = mirror.compute_hash();
        mirror.update_checkers();
        Some(mirror)
    }

    /// Total material value on the board and in the pocket of one side.
    pub fn material(&self, color: Color) -> i32 {
        let v = self.variant;
        let board: i32 = v
            .piece_types()
            .map(|t| self.pieces(color, t).count() as i32 * v.piece(t).value)
            .sum();
        let pocket: i32 = self
            .pocket(color)
            .map(|(t, n)| i32::from(n) * v.piece(t).value)
            .sum();
        board + pocket
    }

    // Low-level edits that keep bitboards, mailbox and hash in step.

    #[inline]
    pub(crate) fn put_piece(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = Some(piece);
        self.by_type[piece.kind.index()] |= Bitboard::from_square(sq);
        self.by_color[piece.color] |= Bitboard::from_square(sq);
        self.hash ^= zobrist::piece(piece.color, piece.kind, sq);
        if piece.kind == self.variant.royal {
            self.royal_squares[piece.color] = sq;
        }
    }

    #[inline]
    pub(crate) fn remove_piece(&mut self, sq: Square) -> Piece {
        let piece = self.board[sq.index()]
            .take()
            .expect("remove_piece on an empty square");
        self.by_type[piece.kind.index()] ^= Bitboard::from_square(sq);
        self.by_color[piece.color] ^= Bitboard::from_square(sq);
        self.hash ^= zobrist::piece(piece.color, piece.kind, sq);
        piece
    }

    #[inline]
    pub(crate) fn add_to_pocket(&mut self, color: Color, kind: PieceType) {
        let n = &mut self.pockets[color][kind.index()];
        self.hash ^= zobrist::pocket(color, kind, *n) ^ zobrist::pocket(color, kind, *n + 1);
        *n += 1;
        self.pocket_sizes[color] += 1;
    }

    #[inline]
    pub(crate) fn take_from_pocket(&mut self, color: Color, kind: PieceType) {
        let n = &mut self.pockets[color][kind.index()];
        debug_assert!(*n > 0);
        self.hash ^= zobrist::pocket(color, kind, *n) ^ zobrist::pocket(color, kind, *n - 1);
        *n -= 1;
        self.pocket_sizes[color] -= 1;
    }

    pub(crate) fn set_en_passant(&mut self, sq: Option<Square>) {
        if let Some(old) = self.en_passant {
            self.hash ^= zobrist::en_passant(old);
        }
        if let Some(new) = sq {
            self.hash ^= zobrist::en_passant(new);
        }
        self.en_passant = sq;
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// Recompute [`Self::checkers`] after the side to move or the pieces changed.
    pub(crate) fn update_checkers(&mut self) {
        let us = self.side_to_move;
        self.checkers = self.attackers(self.royal_squares[us], !us, self.occupied());
    }

    pub(crate) fn set_castling(&mut self, rights: u8) {
        self.hash ^= zobrist::castling(self.castling.0) ^ zobrist::castling(rights);
        self.castling = CastlingRights(rights);
    }

    fn empty(variant: &'v Variant) -> Position<'v> {
        let mut pos = Position {
            variant,
            board: [None; 64],
            by_type: [Bitboard::EMPTY; MAX_PIECE_TYPES],
            by_color: ByColor::default(),
            pockets: ByColor::default(),
            pocket_sizes: ByColor::default(),
            royal_squares: ByColor {
                white: Square::A1,
                black: Square::A1,
            },
            side_to_move: Color::White,
            en_passant: None,
            castling: CastlingRights(0),
            halfmove_clock: 0,
            fullmove_number: 1,
            hash: 0,
            checkers: Bitboard::EMPTY,
        };
        pos.hash = pos.compute_hash();
        pos
    }
}

impl PartialEq for Position<'_> {
    /// Same variant (by identity) and same state.
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.variant, other.variant)
            && self.board == other.board
            && self.pockets == other.pockets
            && self.side_to_move == other.side_to_move
            && self.en_passant == other.en_passant
            && self.castling == other.castling
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
            && self.hash == other.hash
    }
}

impl Eq for Position<'_> {}

impl fmt::Debug for Position<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.variant.name, self.to_fen())
    }
}

impl fmt::Display for Position<'_> {
    /// A board picture with the FEN below it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..8 {
                let sq = Square::from_coords(file, rank);
                let c = match self.piece_at(sq) {
                    Some(p) => self.piece_char(p),
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h")?;
        write!(f, "{}", self.to_fen())
    }
}

impl Position<'_> {
    pub(crate) fn piece_char(&self, p: Piece) -> char {
        let c = self.variant.letter(p.kind);
        match p.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}
