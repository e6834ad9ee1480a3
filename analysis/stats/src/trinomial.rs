//! The trinomial model: games are independent, each a win, draw or loss.
//!
//! This is the right model for unpaired games (each opening played once).
//! For colour-swapped pairs from the same opening it ignores the correlation
//! between the two games and so mis-states the error; use
//! [`super::pentanomial`] there.
//!
//! Estimates: mean score `s = (W + D/2)/N`; per-game variance from the
//! observed frequencies; `se = sqrt(var/N)`; a normal-approximation score
//! interval whose ends are mapped to Elo (so the Elo interval is asymmetric
//! and never leaves the logistic curve); LOS by the classical formula
//! `Φ((W - L)/sqrt(W + L))` used by cutechess and Ordo (draws carry no
//! information about who is stronger).

use super::estimate::{
    ConfidenceLevel, SampleError, ScoreSummary, standard_normal_cdf, summarize_discrete,
};

/// The result of one game from the point of view of the player under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player under test won.
    Win,
    /// Draw.
    Draw,
    /// The player under test lost.
    Loss,
}

impl Outcome {
    /// Score in half points: 2, 1 or 0.
    pub fn half_points(self) -> u8 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }
}

/// Win/draw/loss counts from one player's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Trinomial {
    /// Counts from explicit totals.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Self {
            wins,
            draws,
            losses,
        }
    }

    /// Counts the outcomes of a sequence of games (saturating at `u64::MAX`).
    pub fn from_outcomes(outcomes: impl IntoIterator<Item = Outcome>) -> Self {
        let mut t = Self::default();
        for o in outcomes {
            t.record(o);
        }
        t
    }

    /// Adds one game (saturating).
    pub fn record(&mut self, outcome: Outcome) {
        let slot = match outcome {
            Outcome::Win => &mut self.wins,
            Outcome::Draw => &mut self.draws,
            Outcome::Loss => &mut self.losses,
        };
        *slot = slot.saturating_add(1);
    }

    /// The same games seen from the opponent's side.
    pub fn swapped(self) -> Self {
        Self::new(self.losses, self.draws, self.wins)
    }

    /// Total games, or `None` on overflow.
    pub fn games(&self) -> Option<u64> {
        self.wins.checked_add(self.draws)?.checked_add(self.losses)
    }

    /// Mean score per game.
    pub fn score(&self) -> Result<f64, SampleError> {
        Ok(self.summary(ConfidenceLevel::NINETY_FIVE)?.score)
    }

    /// Full summary (score, errors, intervals, Elo, LOS, normalized Elo) at
    /// the given level. See the module documentation for the model.
    pub fn summary(&self, level: ConfidenceLevel) -> Result<ScoreSummary, SampleError> {
        let mut summary = summarize_discrete(
            &[0.0, 0.5, 1.0],
            &[self.losses, self.draws, self.wins],
            1,
            level,
        )?;
        summary.los = self.los();
        Ok(summary)
    }

    /// Likelihood of superiority `Φ((W - L)/sqrt(W + L))`; ½ with no
    /// decisive games.
    pub fn los(&self) -> f64 {
        let decisive = self.wins as f64 + self.losses as f64;
        if decisive == 0.0 {
            0.5
        } else {
            standard_normal_cdf((self.wins as f64 - self.losses as f64) / decisive.sqrt())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::score_to_elo;

    #[test]
    fn known_answer_summary() {
        // W=60 D=20 L=20: s = 0.7; var = (60*.09 + 20*.04 + 20*.49)/100 = 0.16.
        let t = Trinomial::new(60, 20, 20);
        let s = t.summary(ConfidenceLevel::NINETY_FIVE).unwrap();
        assert_eq!((s.games, s.samples), (100, 100));
        assert!((s.score - 0.7).abs() < 1e-12);
        assert!((s.sample_variance - 0.16).abs() < 1e-12);
        assert!((s.score_std_error - 0.04).abs() < 1e-12);
        let half = 1.959_964 * 0.04;
        assert!((s.score_interval.lower - (0.7 - half)).abs() < 1e-6);
        assert!((s.elo - score_to_elo(0.7).unwrap()).abs() < 1e-9);
        assert!((s.elo - 147.19).abs() < 0.01);
        assert!((s.elo_interval.upper - score_to_elo(0.7 + half).unwrap()).abs() < 1e-3);
        // Delta method: 0.04 * 400 / (ln10 * 0.21) = 33.09.
        assert!((s.elo_std_error - 33.088).abs() < 1e-2);
        // LOS = Φ(40/sqrt(80)) = Φ(4.472) ≈ 0.999996.
        assert!(s.los > 0.99999 && s.los < 1.0);
        // nElo = 0.2/0.4 * 347.436 = 173.72.
        assert!((s.normalized_elo.unwrap() - 173.718).abs() < 1e-2);
    }

    #[test]
    fn symmetric_and_degenerate_cases() {
        let even = Trinomial::new(10, 5, 10)
            .summary(ConfidenceLevel::NINETY_FIVE)
            .unwrap();
        assert_eq!(even.elo, 0.0);
        assert_eq!(even.los, 0.5);
        assert!((even.elo_interval.lower + even.elo_interval.upper).abs() < 1e-9);

        let draws = Trinomial::new(0, 7, 0)
            .summary(ConfidenceLevel::NINETY_FIVE)
            .unwrap();
        assert_eq!(draws.score_std_error, 0.0);
        assert_eq!(draws.normalized_elo, None);
        assert_eq!(draws.los, 0.5);

        let perfect = Trinomial::new(5, 0, 0)
            .summary(ConfidenceLevel::NINETY_FIVE)
            .unwrap();
        assert_eq!(perfect.elo, f64::INFINITY);
        assert_eq!(perfect.elo_std_error, 0.0);

        assert_eq!(Trinomial::default().score(), Err(SampleError::Empty));
        assert_eq!(
            Trinomial::new(u64::MAX, 1, 0).summary(ConfidenceLevel::NINETY_FIVE),
            Err(SampleError::Overflow)
        );
    }

    #[test]
    fn swapped_mirrors_elo() {
        let t =
            Trinomial::from_outcomes([Outcome::Win, Outcome::Win, Outcome::Draw, Outcome::Loss]);
        assert_eq!(t, Trinomial::new(2, 1, 1));
        let a = t.summary(ConfidenceLevel::NINETY_FIVE).unwrap();
        let b = t.swapped().summary(ConfidenceLevel::NINETY_FIVE).unwrap();
        assert!((a.elo + b.elo).abs() < 1e-9);
        assert!((a.los + b.los - 1.0).abs() < 1e-12);
    }
}
