//! Training samples from a self-play log: quiet positions with their
//! game's result, turned into material features.

use pocketlab_selfplay::log::GameId;
use std::collections::HashMap;
use std::path::Path;

use pocketlab_core::engine::Evaluator;
use pocketlab_core::{Color, MoveList, PieceType, Position, Variant};
use pocketlab_selfplay::log::{read_games, read_moves};

use pocketlab_core::engine::is_quiet;
use pocketlab_stats::logistic::Sample;

/// The features the values are fitted to: one board count and one pocket
/// count (White minus Black) per non-royal piece type.
#[derive(Clone, Debug)]
pub struct FeatureSpace {
    /// The piece types with a feature, in the variant's order: feature `i`
    /// is the board count of `kinds[i]`, feature `kinds.len() + i` its
    /// pocket count.
    pub kinds: Vec<PieceType>,
}

impl FeatureSpace {
    /// The features of `variant`: every piece type but the royal one.
    pub fn new(variant: &Variant) -> FeatureSpace {
        FeatureSpace {
            kinds: variant
                .piece_types()
                .filter(|&t| t != variant.royal)
                .collect(),
        }
    }

    /// Features in all: two per piece type (board, then pocket).
    pub fn len(&self) -> usize {
        2 * self.kinds.len()
    }

    /// Whether there are no features (no piece type but the royal one).
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// Current values (board, then pocket) from an evaluator.
    pub fn prior(&self, eval: &Evaluator) -> Vec<f64> {
        let board = self.kinds.iter().map(|&t| f64::from(eval.value(t)));
        let pocket = self.kinds.iter().map(|&t| f64::from(eval.pocket_value(t)));
        board.chain(pocket).collect()
    }

    fn features(&self, pos: &Position<'_>) -> Vec<f64> {
        let diff = |f: &dyn Fn(Color) -> f64| f(Color::White) - f(Color::Black);
        let board = self
            .kinds
            .iter()
            .map(|&t| diff(&|c| f64::from(pos.pieces(c, t).count())));
        let pocket = self
            .kinds
            .iter()
            .map(|&t| diff(&|c| f64::from(pos.pocket_count(c, t))));
        board.chain(pocket).collect()
    }
}

/// Calls `visit` with each quiet logged position of `log` (positions come
/// from the moves table's `fen` column), its game's id and White's score in
/// that game.
pub fn for_each_quiet_position<'v>(
    log: &Path,
    variant: &'v Variant,
    eval: &Evaluator,
    mut visit: impl FnMut(Position<'v>, u64, f64),
) -> anyhow::Result<()> {
    let results: HashMap<u64, f64> = read_games(log)?
        .into_iter()
        .map(|g| (g.game_id, g.white_score))
        .collect();
    let mut buffer = MoveList::new();
    // Chunks hold games in the order they finished, which depends on the
    // threads that played them: positions are taken in game order instead,
    // so every fit is the same for any thread count.
    let mut moves = read_moves(log)?;
    moves.sort_by_key(|m| (m.game_id, m.ply));
    for m in moves {
        let (Some(fen), Some(&result)) = (m.fen.as_deref(), results.get(&m.game_id)) else {
            continue;
        };
        let pos = Position::from_fen(variant, fen).map_err(|e| {
            anyhow::anyhow!("{}: game {}, ply {}: {e}", log.display(), m.game_id, m.ply)
        })?;
        if is_quiet(&pos, eval, &mut buffer) {
            visit(pos, m.game_id, result);
        }
    }
    Ok(())
}

/// Quiet logged positions of `log`, with features, offsets and results.
pub fn samples_from_log(
    log: &Path,
    variant: &Variant,
    eval: &Evaluator,
    space: &FeatureSpace,
) -> anyhow::Result<Vec<Sample>> {
    let prior = space.prior(eval);
    let mut out = Vec::new();
    for_each_quiet_position(log, variant, eval, |pos, game, result| {
        let features = space.features(&pos);
        let stm = f64::from(eval.evaluate(&pos));
        let white_view = if pos.side_to_move() == Color::White {
            stm
        } else {
            -stm
        };
        let material: f64 = features.iter().zip(&prior).map(|(x, w)| x * w).sum();
        out.push(Sample {
            features,
            offset: white_view - material,
            result,
            game,
            pair: GameId::pair_of(game),
        });
    })?;
    Ok(out)
}
