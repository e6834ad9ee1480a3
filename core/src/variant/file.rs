//! The TOML schema of variant files, every field optional so that a file can
//! inherit from another and override only what differs.
//!
//! Unknown keys are rejected by serde (`deny_unknown_fields`), so a typo
//! never silently falls back to a default.

use std::collections::BTreeMap;

use serde::Deserialize;

/// A TOML parse error as `line L, column C: message`, for any TOML file the
/// lab reads. Never the offending line itself: the file may not be TOML at
/// all (a mistaken path) and its content is none of the message's business.
pub fn describe_toml_error(e: &toml::de::Error, text: &str) -> String {
    let message = e.message().trim_end().replace('\n', " ");
    match e.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("line {line}, column {column}: {message}")
        }
        None => message,
    }
}

/// Merge a child's settings over its parent's, field by field.
pub(crate) trait Merge {
    fn merge(self, parent: Self) -> Self;
}

impl<T: Merge> Merge for Option<T> {
    fn merge(self, parent: Self) -> Self {
        match (self, parent) {
            (Some(child), Some(parent)) => Some(child.merge(parent)),
            (child, parent) => child.or(parent),
        }
    }
}

macro_rules! mergeable {
    ($(#[$meta:meta])* pub struct $name:ident { $($(#[$fmeta:meta])* pub $field:ident : $ty:ty,)* }) => {
        $(#[$meta])*
        #[derive(Deserialize, Debug, Clone, Default)]
        #[serde(deny_unknown_fields)]
        pub struct $name { $($(#[$fmeta])* pub $field: Option<$ty>,)* }

        impl Merge for $name {
            fn merge(self, parent: Self) -> Self {
                $name { $($field: Merge::merge(self.$field, parent.$field),)* }
            }
        }
    };
}

// Scalars and lists are replaced whole; tables merge field by field.
impl Merge for String {
    fn merge(self, _parent: Self) -> Self {
        self
    }
}
impl Merge for bool {
    fn merge(self, _parent: Self) -> Self {
        self
    }
}
impl Merge for i64 {
    fn merge(self, _parent: Self) -> Self {
        self
    }
}
impl<T> Merge for Vec<T> {
    fn merge(self, _parent: Self) -> Self {
        self
    }
}

impl Merge for toml::Value {
    fn merge(self, _parent: Self) -> Self {
        self
    }
}

impl<T: Merge> Merge for BTreeMap<String, T> {
    /// Pieces (and regions) merge by letter: a child may change one field of
    /// one piece.
    fn merge(self, mut parent: Self) -> Self {
        for (letter, piece) in self {
            let merged = match parent.remove(&letter) {
                Some(p) => piece.merge(p),
                None => piece,
            };
            parent.insert(letter, merged);
        }
        parent
    }
}

mergeable! {
    /// One variant file.
    pub struct VariantFile {
        pub name: String,
        pub inherits: String,
        pub description: String,
        pub start: String,
        pub royal: String,
        pub classes: Vec<String>,
        pub initial_ranks: Vec<i64>,
        pub en_passant: bool,
        pub pieces: BTreeMap<String, PieceFile>,
        /// The region (colour) map: 8 rows of one letter per square, rank 8
        /// first, as an array of strings or one multi-line string. Kept as a
        /// TOML value so that a wrong shape gets a precise error in `build`.
        pub map: toml::Value,
        /// `[regions.Y]`: what each map letter means.
        pub regions: BTreeMap<String, RegionFile>,
        pub pocket: PocketFile,
        pub castling: CastlingFile,
        pub promotion: PromotionFile,
        pub draw: DrawFile,
        pub potential: PotentialFile,
    }
}

/// One piece: `[pieces.N]`.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct PieceFile {
    pub name: Option<String>,
    pub betza: Option<String>,
    /// `"betza"` (the default) or `"by-region"`: moves from the region map.
    pub moves: Option<String>,
    pub value: Option<i64>,
    pub pawn: Option<bool>,
}

impl Merge for PieceFile {
    /// Field by field, except that `betza` and `moves` travel together: a
    /// child that describes the piece's moves at all (either key) replaces
    /// the parent's description whole, so a child may turn a Betza piece
    /// into a by-region piece (or back) without inheriting a contradiction.
    fn merge(self, parent: Self) -> Self {
        let (betza, moves) = if self.betza.is_some() || self.moves.is_some() {
            (self.betza, self.moves)
        } else {
            (parent.betza, parent.moves)
        };
        PieceFile {
            name: self.name.merge(parent.name),
            betza,
            moves,
            value: self.value.merge(parent.value),
            pawn: self.pawn.merge(parent.pawn),
        }
    }
}

mergeable! {
    /// One region of the map: `[regions.Y]`, keyed by its map letter.
    pub struct RegionFile {
        pub name: String,
        /// The moves of a by-region piece standing on this region.
        pub betza: String,
    }
}

mergeable! {
    /// `[pocket]`: the Pocket Mutation pocket and drops.
    pub struct PocketFile {
        pub enabled: bool,
        pub size: i64,
        pub pocket_in: bool,
        pub mutation: bool,
        pub promote_from_last_rank: bool,
        pub white_first_move_ban: bool,
        pub drop_ranks: Vec<i64>,
        pub pawn_drop_ranks: Vec<i64>,
    }
}

mergeable! {
    /// `[castling]`.
    pub struct CastlingFile {
        pub enabled: bool,
        pub king_file: String,
        pub queenside_file: String,
        pub kingside_file: String,
    }
}

mergeable! {
    /// `[promotion]`: promotion on reaching the last rank (FIDE style).
    pub struct PromotionFile {
        pub enabled: bool,
        pub ranks: Vec<i64>,
        pub choices: String,
        pub mandatory: bool,
    }
}

mergeable! {
    /// `[draw]`: automatic draws.
    pub struct DrawFile {
        pub n_move_rule: i64,
        pub n_move_reset: Vec<String>,
        pub repetition: i64,
        pub dead_position: String,
    }
}

mergeable! {
    /// `[potential]`: play Potential Chess with this army (seed 004).
    pub struct PotentialFile {
        /// The army as letters, one per piece (`"KQBBRRNNPPPPPPPP"`): the
        /// order of first appearance is the potential's letter order.
        pub army: String,
    }
}
