//! Simulated games with known truths: for the statistics tests, and for
//! `pocketlab simulate`, which runs the sequential design on them.
//!
//! `GameModel` is the tests' simple model (a fixed draw rate, openings
//! that shift the score); [`PairModel`] is closer to engine self-play:
//! draws thin out as one side gets stronger, White has an edge, and each
//! opening favours one colour, all on the logistic Elo scale.

use rand::{Rng, RngExt};

use super::elo::elo_to_score;
#[cfg(test)]
use super::trinomial::Outcome;

/// Games between a tested side and an opponent: the tested side is `elo`
/// stronger (logistic, so its expected score is `elo_to_score(elo)`), a
/// fraction `draw_rate` of games are drawn, and each pair's opening shifts
/// the expected score of the side with White by `±opening_bias` (sign drawn
/// per pair), which correlates the two games of a pair.
#[derive(Debug, Clone, Copy)]
#[cfg(test)]
pub struct GameModel {
    score: f64,
    draw_rate: f64,
    opening_bias: f64,
}

#[cfg(test)]
impl GameModel {
    /// The model of a side `elo` stronger, `draw_rate` of games drawn and
    /// openings shifting the score by `±opening_bias`; panics when a game's
    /// chance of a win or a loss would fall below 0.
    pub fn new(elo: f64, draw_rate: f64, opening_bias: f64) -> Self {
        let score = elo_to_score(elo);
        for q in [score + opening_bias, score - opening_bias] {
            assert!(q - draw_rate / 2.0 >= 0.0 && q + draw_rate / 2.0 <= 1.0);
        }
        Self {
            score,
            draw_rate,
            opening_bias,
        }
    }

    fn game(&self, expected: f64, rng: &mut impl Rng) -> Outcome {
        let u: f64 = rng.random();
        let p_win = expected - self.draw_rate / 2.0;
        if u < p_win {
            Outcome::Win
        } else if u < p_win + self.draw_rate {
            Outcome::Draw
        } else {
            Outcome::Loss
        }
    }

    /// One colour-swapped pair: (tested side White, tested side Black).
    pub fn pair(&self, rng: &mut impl Rng) -> (Outcome, Outcome) {
        let bias = if rng.random::<bool>() {
            self.opening_bias
        } else {
            -self.opening_bias
        };
        (
            self.game(self.score + bias, rng),
            self.game(self.score - bias, rng),
        )
    }
}

/// `pairs` colour-swapped pairs drawn from `model`, each as [`GameModel::pair`]
/// gives it.
#[cfg(test)]
pub fn simulate_pairs(
    model: &GameModel,
    pairs: usize,
    rng: &mut impl Rng,
) -> Vec<(Outcome, Outcome)> {
    (0..pairs).map(|_| model.pair(rng)).collect()
}

/// A standard normal draw (Box-Muller).
pub fn standard_normal(rng: &mut impl Rng) -> f64 {
    let u1: f64 = rng.random::<f64>().max(1e-12);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// Colour-swapped pairs between armies `elo` apart, as engine self-play
/// plays them: a game whose expected score (for the side tested) is `q`
/// is drawn with probability `draw_at_equal·4q(1-q)` (the draw rate of
/// equal sides, thinning as one side dominates) and otherwise won with
/// the probability that keeps the expected score `q`. White is
/// `white_edge` Elo stronger, and each pair's opening favours one colour
/// (drawn at random) by `opening_spread` Elo, which correlates the two
/// games of a pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairModel {
    /// The tested side minus its opponent, Elo.
    pub elo: f64,
    /// Draw rate between equal sides (0 to 0.5).
    pub draw_at_equal: f64,
    /// White's advantage, Elo.
    pub white_edge: f64,
    /// How much an opening favours one colour, Elo.
    pub opening_spread: f64,
}

impl PairModel {
    fn game(&self, elo: f64, rng: &mut impl Rng) -> u8 {
        let q = elo_to_score(elo);
        let draw = self.draw_at_equal.clamp(0.0, 0.5) * 4.0 * q * (1.0 - q);
        let win = q - draw / 2.0;
        let u: f64 = rng.random();
        if u < win {
            2
        } else if u < win + draw {
            1
        } else {
            0
        }
    }

    /// The tested side's expected score per game: each game's expected
    /// score is the logistic curve at its gap (the draw rule keeps it),
    /// averaged over both colours and both opening signs.
    pub fn expected_score(&self) -> f64 {
        let (e, w, o) = (self.elo, self.white_edge, self.opening_spread);
        [o, -o]
            .iter()
            .map(|s| elo_to_score(e + w + s) + elo_to_score(e - w - s))
            .sum::<f64>()
            / 4.0
    }

    /// One pair: the tested side's half points over its game with White
    /// and its game with Black (0..=4).
    pub fn pair(&self, rng: &mut impl Rng) -> u8 {
        let favours_white = rng.random::<bool>();
        self.pair_from(favours_white, rng)
    }

    /// One pair from an opening that favours White (`favours_white`) or
    /// Black: two players' pairs from one opening share it.
    pub fn pair_from(&self, favours_white: bool, rng: &mut impl Rng) -> u8 {
        let opening = if favours_white {
            self.opening_spread
        } else {
            -self.opening_spread
        };
        let white = self.white_edge + opening;
        self.game(self.elo + white, rng) + self.game(self.elo - white, rng)
    }
}
