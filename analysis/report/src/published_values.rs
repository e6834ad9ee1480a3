//! Piece values others published, named by the piece's move in Betza
//! notation so they apply to any variant with that piece: sanity checks
//! beside the lab's own values, never truths (they come from other games,
//! boards and players).

/// Kaufman, "The Evaluation of Material Imbalances" (1999): chess.
pub const KAUFMAN_1999: &str = "Kaufman (1999), chess";
/// Tomašev et al., the AlphaZero study of classical chess (2020).
pub const ALPHAZERO_2020: &str = "AlphaZero (Tomašev et al. 2020), chess";
/// H. G. Muller's self-play measurements in Capablanca chess (10x8).
pub const MULLER_CAPABLANCA: &str = "Muller, Capablanca chess (10x8)";

/// One published value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PublishedPieceValue {
    /// Who published it, for which game.
    pub source: &'static str,
    /// The piece, by its move (`"N"`, `"BN"`).
    pub betza: &'static str,
    /// The value in pawns, or its difference from `relative_to`'s value.
    pub pawns: f64,
    /// `Some(betza)`: `pawns` is this piece's value minus that piece's,
    /// the form in which a figure carries over between games best.
    pub relative_to: Option<&'static str>,
}

const fn absolute(source: &'static str, betza: &'static str, pawns: f64) -> PublishedPieceValue {
    PublishedPieceValue {
        source,
        betza,
        pawns,
        relative_to: None,
    }
}

/// Every published value the reports set beside the lab's.
pub const PUBLISHED_PIECE_VALUES: &[PublishedPieceValue] = &[
    absolute(KAUFMAN_1999, "N", 3.25),
    absolute(KAUFMAN_1999, "B", 3.25),
    absolute(KAUFMAN_1999, "R", 5.0),
    absolute(KAUFMAN_1999, "Q", 9.75),
    absolute(ALPHAZERO_2020, "N", 3.05),
    absolute(ALPHAZERO_2020, "B", 3.33),
    absolute(ALPHAZERO_2020, "R", 5.63),
    absolute(ALPHAZERO_2020, "Q", 9.5),
    // Archbishop 8.75, chancellor 9.0 and queen 9.5: set against the queen.
    PublishedPieceValue {
        source: MULLER_CAPABLANCA,
        betza: "BN",
        pawns: -0.75,
        relative_to: Some("Q"),
    },
    PublishedPieceValue {
        source: MULLER_CAPABLANCA,
        betza: "RN",
        pawns: -0.5,
        relative_to: Some("Q"),
    },
];

/// The absolute value `source` published for the piece moving as `betza`.
pub fn published_value(source: &str, betza: &str) -> Option<f64> {
    PUBLISHED_PIECE_VALUES
        .iter()
        .find(|p| p.source == source && p.betza == betza && p.relative_to.is_none())
        .map(|p| p.pawns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_published_piece_is_a_betza_move() {
        for p in PUBLISHED_PIECE_VALUES {
            for betza in std::iter::once(p.betza).chain(p.relative_to) {
                assert!(pocketlab_core::betza::parse(betza).is_ok(), "{betza}");
            }
        }
    }
}
