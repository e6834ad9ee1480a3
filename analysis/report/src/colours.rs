//! What standing on each colour of a square-colour map is worth (Chess
//! Mutation), learned from the logged games.
//!
//! Every logged game is replayed from its start; each quiet position (see
//! [`is_quiet`]) gives one sample: per colour, White's pieces standing on
//! it minus Black's (kings excepted), and the game's result. A logistic
//! regression of the result on these counts (plus a constant for White's
//! first-move edge) gives each colour's value; the unit is the average
//! piece (values are divided by their mean weighted by where pieces
//! stood), so 1.20 reads "a piece on this colour is worth 20% more than a
//! typical piece". Intervals come from a bootstrap over colour-swapped
//! pairs (the positions of a game, and the games of a pair, are not
//! independent), each replicate divided by its own unit: its own values
//! weighted by where pieces stood in its own resample.
//!
//! The board heat map refines this per square: one feature per square seen
//! from the owner's side (Black's squares mirrored onto White's), shrunk
//! towards the value of the square's colour so that rarely visited squares
//! show their colour's value rather than noise.

use pocketlab_selfplay::log::GameId;
use std::collections::HashMap;
use std::path::PathBuf;

use pocketlab_core::engine::{EvalParams, Evaluator};
use pocketlab_core::variant::RegionMap;
use pocketlab_core::{Color, MoveList, Position, Square, notation};
use pocketlab_selfplay::Experiment;

use super::model::{ColourValue, ColourValues};
use super::read::{ReportError, log_error, read_logged_games};
use pocketlab_core::engine::is_quiet;
use pocketlab_stats::logistic::{
    FitResult, FitSettings, MIN_SUPPORT_GAMES, Sample, fit, percentile_interval,
};

/// Plies at the start of a game left out: the opening is random and the
/// armies are still symmetric.
const SKIP_PLIES: usize = 8;
/// Every this many plies a position is sampled (neighbours say little more).
const SAMPLE_EVERY: usize = 2;
/// Starting value of every colour and the unit of the fit before scaling.
const PRIOR: f64 = 100.0;
/// Weight of the starting value (every colour alike) in the colour fit:
/// about as much evidence as 100 positions (see [`FitSettings`]).
const COLOUR_PRIOR: f64 = 1e-4;
/// Pull of the per-square fit towards the colour's value: a square's value
/// moves halfway from its colour's after about 300 positions with a piece there.
const SQUARE_SHRINKAGE: f64 = 2e-3;
const BOOTSTRAP: usize = 100;

/// Colour values from the logs, or `None` when the variant has no colour map.
pub(super) fn colour_values(
    dirs: &[PathBuf],
    exp: &Experiment,
) -> Result<Option<ColourValues>, ReportError> {
    let Some(map) = exp.variant.region_map() else {
        return Ok(None);
    };
    let positions = quiet_positions(dirs, exp)?;
    Ok(Some(fit_colours(&positions, map, exp.seed)))
}

/// Colour and square values fitted to sampled positions.
fn fit_colours(positions: &[QuietPosition], map: &RegionMap, seed: u64) -> ColourValues {
    let n = map.regions.len();
    let region_of = |sq: Square| {
        map.regions
            .iter()
            .position(|r| r.squares.contains(sq))
            .expect("every square has a region")
    };
    let square_region: Vec<usize> = Square::all().map(region_of).collect();

    // Colour fit: feature 0 is White's edge, then one per colour.
    let samples = samples(positions, n, |sq, _| square_region[sq.index()]);
    let mut prior = vec![PRIOR; n + 1];
    prior[0] = 0.0;
    let settings = FitSettings {
        regularization: COLOUR_PRIOR,
        max_iterations: 40,
        bootstrap: BOOTSTRAP,
        seed,
        anchor: None,
    };
    let colour_fit = (!samples.is_empty()).then(|| fit(&samples, &prior, &settings));

    // Each colour's value in average pieces, and its interval from the
    // replicates, each divided by its own unit.
    let pair_index: HashMap<u64, usize> = colour_fit
        .as_ref()
        .map(|f| f.pairs.iter().enumerate().map(|(i, &p)| (p, i)).collect())
        .unwrap_or_default();
    let position_pair: Vec<usize> = positions
        .iter()
        .map(|p| {
            pair_index
                .get(&GameId::pair_of(p.game))
                .copied()
                .unwrap_or(0)
        })
        .collect();
    let occupancy_of =
        |draws: &[u32]| occupancy(positions, &position_pair, draws, &square_region, n);
    let every_pair_once = vec![1; colour_fit.as_ref().map_or(0, |f| f.pairs.len())];
    let occupancy = occupancy_of(&every_pair_once);
    let relative = |values: &[f64], occupancy: &[f64]| relative_values(&values[1..], occupancy);
    let (point, intervals) = match &colour_fit {
        Some(f) => (
            relative(&f.values, &occupancy),
            replicate_intervals(f, |r| relative(&r.values, &occupancy_of(&r.draws)), n),
        ),
        None => (vec![f64::NAN; n], vec![(f64::NAN, f64::NAN); n]),
    };
    let unit = colour_fit
        .as_ref()
        .map_or(PRIOR, |f| unit_of(&f.values[1..], &occupancy));

    let colours = map
        .regions
        .iter()
        .enumerate()
        .map(|(c, region)| ColourValue {
            letter: region.letter.to_string(),
            name: region.name.clone(),
            betza: region.betza.clone(),
            squares: region.squares.count(),
            occupancy: occupancy[c],
            value: point[c],
            // A colour too rarely stood on has no interval (the fit only repeats its prior).
            interval: match &colour_fit {
                Some(f) if f.intervals[1 + c].0.is_finite() => intervals[c],
                _ => (f64::NAN, f64::NAN),
            },
        })
        .collect();

    let squares = match &colour_fit {
        Some(f) => square_values(positions, &square_region, &f.values[1..], seed)
            .into_iter()
            .map(|v| v.map(|v| v / unit))
            .collect(),
        None => vec![None; 64],
    };
    let games = colour_fit.as_ref().map_or(0, |f| f.games as u64);
    ColourValues {
        positions: positions.len() as u64,
        games,
        colours,
        map: map.rows.clone(),
        squares,
    }
}

/// Mean pieces of both sides per colour, per position, over a resample:
/// each position weighs as often as its pair was drawn.
fn occupancy(
    positions: &[QuietPosition],
    position_pair: &[usize],
    draws: &[u32],
    square_region: &[usize],
    colours: usize,
) -> Vec<f64> {
    let mut occupancy = vec![0.0; colours];
    let mut weight = 0.0;
    for (p, &pair) in positions.iter().zip(position_pair) {
        let w = f64::from(draws.get(pair).copied().unwrap_or(0));
        weight += w;
        for (sq, _) in p.pieces() {
            occupancy[square_region[sq.index()]] += w;
        }
    }
    occupancy.iter_mut().for_each(|o| *o /= weight.max(1.0));
    occupancy
}

/// The unit: a piece's value averaged over where pieces stood.
fn unit_of(values: &[f64], occupancy: &[f64]) -> f64 {
    let total: f64 = occupancy.iter().sum();
    let unit = if total > 0.0 {
        values
            .iter()
            .zip(occupancy)
            .map(|(v, o)| v * o)
            .sum::<f64>()
            / total
    } else {
        PRIOR
    };
    if unit.abs() > 1e-9 { unit } else { PRIOR }
}

/// Colour values in average pieces.
fn relative_values(values: &[f64], occupancy: &[f64]) -> Vec<f64> {
    let unit = unit_of(values, occupancy);
    values.iter().map(|v| v / unit).collect()
}

/// 95% percentile intervals of a statistic of each replicate.
fn replicate_intervals(
    fit: &FitResult,
    statistic: impl Fn(&pocketlab_stats::logistic::Replicate) -> Vec<f64>,
    colours: usize,
) -> Vec<(f64, f64)> {
    let draws: Vec<Vec<f64>> = fit.replicates.iter().map(statistic).collect();
    (0..colours)
        .map(|c| {
            percentile_interval(draws.iter().map(|d| d[c]).collect(), 0.95)
                .unwrap_or((f64::NAN, f64::NAN))
        })
        .collect()
}

/// Per-square values (owner's view), shrunk towards the colour values;
/// `None` for squares occupied in fewer than [`MIN_SUPPORT_GAMES`] games.
fn square_values(
    positions: &[QuietPosition],
    square_region: &[usize],
    colour_values: &[f64],
    seed: u64,
) -> Vec<Option<f64>> {
    // A piece's square as seen from its owner's side.
    let samples = samples(positions, 64, |sq, sign| {
        if sign > 0.0 { sq } else { sq.flip_vertical() }.index()
    });
    // A square's prior is the value of its colour for the side standing
    // there: for a map symmetric between the sides, the same colour.
    let mut prior = vec![0.0; 65];
    for (i, p) in prior.iter_mut().enumerate().skip(1) {
        *p = colour_values[square_region[i - 1]];
    }
    let settings = FitSettings {
        regularization: SQUARE_SHRINKAGE,
        max_iterations: 20,
        bootstrap: 0,
        seed,
        anchor: None,
    };
    let result = fit(&samples, &prior, &settings);
    (0..64)
        .map(|sq| {
            let seen = positions
                .iter()
                .filter(|p| p.has_piece_seen_from_owner(sq))
                .map(|p| p.game)
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            (seen >= MIN_SUPPORT_GAMES).then_some(result.values[1 + sq])
        })
        .collect()
}

/// One sample per position: feature 0 is White's edge (always 1), feature
/// `1 + feature_of(square, sign)` counts White's pieces (+1) minus Black's
/// (-1) there.
fn samples(
    positions: &[QuietPosition],
    features: usize,
    feature_of: impl Fn(Square, f64) -> usize,
) -> Vec<Sample> {
    positions
        .iter()
        .map(|p| {
            let mut x = vec![0.0; features + 1];
            x[0] = 1.0;
            for (sq, sign) in p.pieces() {
                x[1 + feature_of(sq, sign)] += sign;
            }
            Sample {
                features: x,
                offset: 0.0,
                result: p.result,
                game: p.game,
                pair: GameId::pair_of(p.game),
            }
        })
        .collect()
}

/// A sampled position: where each side's pieces (kings excepted) stood,
/// and the game's result for White.
struct QuietPosition {
    white: u64,
    black: u64,
    result: f64,
    game: u64,
}

impl QuietPosition {
    /// Each piece's square with +1 for White's, −1 for Black's.
    fn pieces(&self) -> impl Iterator<Item = (Square, f64)> + '_ {
        let squares = |bits: u64, sign: f64| {
            (0..64u8)
                .filter(move |i| bits >> i & 1 == 1)
                .map(move |i| (Square::new_unchecked(i), sign))
        };
        squares(self.white, 1.0).chain(squares(self.black, -1.0))
    }

    /// Whether a piece stands on `sq` as seen from its owner's side.
    fn has_piece_seen_from_owner(&self, sq: usize) -> bool {
        self.white >> sq & 1 == 1 || self.black >> (sq ^ 56) & 1 == 1
    }
}

/// Replays every logged game and keeps its quiet positions.
fn quiet_positions(dirs: &[PathBuf], exp: &Experiment) -> Result<Vec<QuietPosition>, ReportError> {
    let eval = Evaluator::new(&exp.variant, &EvalParams::default());
    let royal = exp.variant.royal;
    let mut buffer = MoveList::new();
    let mut out = Vec::new();
    for game in read_logged_games(dirs, None)? {
        let id = game.id;
        let mut pos = Position::from_fen(&exp.variant, &game.start)
            .map_err(|e| log_error(&dirs[0], format!("game {id}: start position: {e}")))?;
        for (ply, text) in game.moves.iter().enumerate() {
            if ply >= SKIP_PLIES && ply % SAMPLE_EVERY == 0 && is_quiet(&pos, &eval, &mut buffer) {
                let non_royal = |c: Color| (pos.pieces_of(c) & !pos.pieces(c, royal)).0;
                out.push(QuietPosition {
                    white: non_royal(Color::White),
                    black: non_royal(Color::Black),
                    result: game.white_score,
                    game: id,
                });
            }
            let mv = notation::parse(&pos, text)
                .map_err(|e| log_error(&dirs[0], format!("game {id}, ply {}: {e}", ply + 1)))?;
            pos = pos.after(mv);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pocketlab_core::builtin;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use pocketlab_stats::logistic::Replicate;

    /// Replicates whose values all move together (the scale's noise: every
    /// value is a ratio to the same coefficient) leave the values in
    /// average pieces unchanged: each replicate is divided by its own unit,
    /// not the point estimate's, so the interval does not widen with noise
    /// that cancels.
    #[test]
    fn each_replicate_is_divided_by_its_own_unit() {
        let base = [0.0, 50.0, 100.0, 150.0];
        let occupancy = [1.0, 2.0, 1.0];
        let replicate = |factor: f64| Replicate {
            values: base.iter().map(|v| v * factor).collect(),
            scale: 0.004,
            draws: vec![1],
        };
        let fit = FitResult {
            values: base.to_vec(),
            intervals: vec![(0.0, 0.0); 4],
            scale: 0.004,
            converged: true,
            iterations: 3,
            loss_before: 0.7,
            loss_after: 0.6,
            samples: 10,
            games: 10,
            pairs: vec![0],
            replicates: (0..40)
                .map(|i| replicate(0.6 + 0.02 * f64::from(i)))
                .collect(),
        };
        let point = relative_values(&base[1..], &occupancy);
        // The unit is (50 + 200 + 150)/4 = 100.
        assert_eq!(point, [0.5, 1.0, 1.5]);
        let own = replicate_intervals(&fit, |r| relative_values(&r.values[1..], &occupancy), 3);
        for (c, (lo, hi)) in own.iter().enumerate() {
            assert!(
                (lo - point[c]).abs() < 1e-12 && (hi - point[c]).abs() < 1e-12,
                "{own:?}"
            );
        }
        // Divided by the point estimate's unit, the same replicates spread
        // from 0.6 to 1.38 times the value.
        let unit = unit_of(&base[1..], &occupancy);
        let fixed = replicate_intervals(
            &fit,
            |r| r.values[1..].iter().map(|v| v / unit).collect(),
            3,
        );
        assert!(fixed[1].1 - fixed[1].0 > 0.7, "{fixed:?}");
    }

    /// Games whose results follow known colour values: the fit must find
    /// their order and, roughly, their ratios.
    #[test]
    fn recovers_known_colour_values() {
        let variant = builtin::load("chess-mutation").expect("shipped variant");
        let map = variant.region_map().expect("chess mutation has a map");
        let truth = |letter: char| match letter {
            'W' => 0.5,
            'Y' => 1.0,
            'B' => 1.2,
            'R' => 1.6,
            'K' => 2.4,
            other => panic!("unexpected colour {other}"),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut positions = Vec::new();
        for game in 0..3000u64 {
            let mut squares: Vec<u8> = (0..64).collect();
            let mut pick = |count: usize, rng: &mut ChaCha8Rng| {
                let mut bits = 0u64;
                for _ in 0..count {
                    let i = rng.random_range(0..squares.len());
                    bits |= 1 << squares.swap_remove(i);
                }
                bits
            };
            let white = pick(rng.random_range(3..10), &mut rng);
            let black = pick(rng.random_range(3..10), &mut rng);
            let sample = QuietPosition {
                white,
                black,
                result: 0.0,
                game,
            };
            let edge: f64 = sample
                .pieces()
                .map(|(sq, sign)| sign * truth(map.region_at(sq).letter))
                .sum();
            let win = 1.0 / (1.0 + (-0.8 * edge).exp());
            let result = if rng.random::<f64>() < win { 1.0 } else { 0.0 };
            for _ in 0..4 {
                positions.push(QuietPosition { result, ..sample });
            }
        }
        let fitted = fit_colours(&positions, map, 5);
        let value = |letter: &str| {
            fitted
                .colours
                .iter()
                .find(|c| c.letter == letter)
                .expect("every colour is reported")
        };
        let order = ["W", "Y", "B", "R", "K"];
        for pair in order.windows(2) {
            assert!(
                value(pair[0]).value < value(pair[1]).value,
                "{} should be worth less than {}: {:?}",
                pair[0],
                pair[1],
                fitted.colours
            );
        }
        let ratio = value("K").value / value("Y").value;
        assert!((1.9..=3.0).contains(&ratio), "black/yellow ratio {ratio}");
        for c in &fitted.colours {
            assert!(c.interval.0 <= c.value && c.value <= c.interval.1, "{c:?}");
        }
        assert_eq!(fitted.games, 3000);
        assert!(fitted.squares.iter().all(Option::is_some));
    }
}
