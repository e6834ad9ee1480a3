//! Test-only game simulator shared by the statistics tests.

use rand::{Rng, RngExt};

use super::elo::elo_to_score;
use super::trinomial::Outcome;

/// Games between a tested side and an opponent: the tested side is `elo`
/// stronger (logistic, so its expected score is `elo_to_score(elo)`), a
/// fraction `draw_rate` of games are drawn, and each pair's opening shifts
/// the expected score of the side with White by `±opening_bias` (sign drawn
/// per pair), which correlates the two games of a pair.
#[derive(Debug, Clone, Copy)]
pub struct GameModel {
    score: f64,
    draw_rate: f64,
    opening_bias: f64,
}

impl GameModel {
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

pub fn simulate_pairs(
    model: &GameModel,
    pairs: usize,
    rng: &mut impl Rng,
) -> Vec<(Outcome, Outcome)> {
    (0..pairs).map(|_| model.pair(rng)).collect()
}
