//! The game-id codec: the log's `game_id` column packs a game's matchup,
//! pair and colour assignment into one `u64`. Only this module knows the
//! bit layout; writers encode with [`GameId::encode`], readers decode with
//! [`GameId::decode`] (or the polars expressions below).

use pocketlab_core::splitmix;
use polars::prelude::{Expr, lit};

/// Which game of an experiment: matchup, colour-swapped pair, and whether
/// army B has White (the second game of the pair).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId {
    /// The matchup's index in the experiment (below [`GameId::MAX_MATCHUPS`]).
    pub matchup: u32,
    /// The pair within the matchup, from 0 (below [`GameId::MAX_PAIRS`]).
    pub pair: u64,
    /// Whether army B has White: the pair's second game.
    pub b_is_white: bool,
}

/// Bits below the matchup: the pair (39 bits) and the colour (1 bit).
const MATCHUP_SHIFT: u32 = 40;

impl GameId {
    /// Matchups an id can name (24 bits).
    pub const MAX_MATCHUPS: u64 = 1 << (64 - MATCHUP_SHIFT);
    /// Pairs per matchup an id can name (39 bits).
    pub const MAX_PAIRS: u64 = 1 << (MATCHUP_SHIFT - 1);

    /// A game's id from its matchup, pair and colour assignment.
    pub fn new(matchup: u32, pair: u64, b_is_white: bool) -> GameId {
        GameId {
            matchup,
            pair,
            b_is_white,
        }
    }

    /// The `game_id` column's value: `matchup << 40 | pair << 1 | b_is_white`.
    /// The experiment's limits keep matchup and pair in range.
    pub fn encode(self) -> u64 {
        debug_assert!(u64::from(self.matchup) < Self::MAX_MATCHUPS && self.pair < Self::MAX_PAIRS);
        (u64::from(self.matchup) << MATCHUP_SHIFT) | (self.pair << 1) | u64::from(self.b_is_white)
    }

    /// The game a `game_id` column value names (the inverse of
    /// [`GameId::encode`]).
    pub fn decode(id: u64) -> GameId {
        GameId {
            matchup: (id >> MATCHUP_SHIFT) as u32,
            pair: (id & ((1 << MATCHUP_SHIFT) - 1)) >> 1,
            b_is_white: id & 1 == 1,
        }
    }

    /// The colour-swapped pair a game id belongs to, as the id of the
    /// pair's first game (unique within a log): the independent unit of
    /// every resampling over games.
    pub fn pair_of(game_id: u64) -> u64 {
        GameId {
            b_is_white: false,
            ..GameId::decode(game_id)
        }
        .encode()
    }

    /// Polars: whether army A has White, from a `game_id` column.
    pub fn a_is_white_expr(game_id: Expr) -> Expr {
        (game_id % lit(2u64)).eq(lit(0u64))
    }

    /// Polars: the game's place within its matchup (`pair * 2 + b_is_white`),
    /// from a `game_id` column: `< 2 * n` selects the first `n` pairs.
    pub fn index_in_matchup_expr(game_id: Expr) -> Expr {
        game_id % lit(1u64 << MATCHUP_SHIFT)
    }
}

impl From<GameId> for u64 {
    fn from(id: GameId) -> u64 {
        id.encode()
    }
}

/// The identity of a game: matchup, pair, and which army has White
/// (encoded by [`GameId`]).
pub fn game_id(matchup: usize, pair: u64, b_is_white: bool) -> u64 {
    GameId::new(matchup as u32, pair, b_is_white).encode()
}

/// Seed of one game (engine noise), from the master seed and the game's identity.
pub fn game_seed(master: u64, id: u64) -> u64 {
    splitmix(master ^ splitmix(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_at_the_edges() {
        for id in [
            GameId::new(0, 0, false),
            GameId::new(3, 17, true),
            GameId::new(
                (GameId::MAX_MATCHUPS - 1) as u32,
                GameId::MAX_PAIRS - 1,
                true,
            ),
        ] {
            assert_eq!(GameId::decode(id.encode()), id);
        }
        // The layout the schema documents (and old logs hold).
        assert_eq!(GameId::new(2, 5, true).encode(), (2 << 40) | (5 << 1) | 1);
    }
}
