//! The pentanomial model: colour-swapped game pairs from the same opening.
//!
//! Self-play plays each opening twice with colours reversed. The two games
//! share the opening, so their results are correlated: an opening that
//! favours White tends to give one win and one loss. Treating the games as
//! independent (the trinomial model) then overstates the error. The
//! pentanomial model makes the *pair* the independent unit: each pair scores
//! 0, ½, 1, 1½ or 2 points for the player under test (`counts[k]` = pairs
//! scoring `k` half points), and the per-game score is the pair score / 2.
//!
//! Estimates (the same as fishtest's): mean per-game score over pairs, its
//! standard error from the observed variance of the pair means, a
//! normal-approximation score interval mapped to Elo, LOS `Φ((s - ½)/se)`,
//! and normalized Elo with per-game deviation `σ_game = sqrt(2·var_pair)`.

use super::estimate::{ConfidenceLevel, SampleError, ScoreSummary, summarize_discrete};
use super::trinomial::Outcome;

/// Counts of game pairs by the pair's score in half points
/// (`counts[0]` = lost both … `counts[4]` = won both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Pentanomial {
    /// `counts[k]`: pairs in which the player under test scored `k` half
    /// points (LL, LD/DL, WL/LW/DD, WD/DW, WW).
    pub counts: [u64; 5],
}

/// A pair score outside 0..=4 half points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a pair scores 0 to 4 half points, got {0}")]
pub struct InvalidPairScore(pub u8);

impl Pentanomial {
    /// Counts from explicit totals.
    pub fn new(counts: [u64; 5]) -> Self {
        Self { counts }
    }

    /// Counts pairs of game outcomes (both from the point of view of the
    /// player under test, one game with each colour). Saturates at
    /// `u64::MAX`.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (Outcome, Outcome)>) -> Self {
        let mut p = Self::default();
        for (a, b) in pairs {
            p.record(a, b);
        }
        p
    }

    /// Counts pair scores given directly in half points (0..=4).
    pub fn from_half_points(
        scores: impl IntoIterator<Item = u8>,
    ) -> Result<Self, InvalidPairScore> {
        let mut p = Self::default();
        for s in scores {
            p.add_half_points(s)?;
        }
        Ok(p)
    }

    /// Adds one pair scoring `half_points` (0..=4; saturating).
    pub fn add_half_points(&mut self, half_points: u8) -> Result<(), InvalidPairScore> {
        let slot = self
            .counts
            .get_mut(usize::from(half_points))
            .ok_or(InvalidPairScore(half_points))?;
        *slot = slot.saturating_add(1);
        Ok(())
    }

    /// Adds one pair (saturating).
    pub fn record(&mut self, first: Outcome, second: Outcome) {
        let k = usize::from(first.half_points() + second.half_points());
        self.counts[k] = self.counts[k].saturating_add(1);
    }

    /// The same pairs seen from the opponent's side.
    pub fn swapped(self) -> Self {
        let mut c = self.counts;
        c.reverse();
        Self { counts: c }
    }

    /// Total pairs, or `None` on overflow.
    pub fn pairs(&self) -> Option<u64> {
        self.counts
            .iter()
            .try_fold(0u64, |acc, &c| acc.checked_add(c))
    }

    /// Mean score per game.
    pub fn score(&self) -> Result<f64, SampleError> {
        Ok(self.summary(ConfidenceLevel::NINETY_FIVE)?.score)
    }

    /// Full summary at the given level; `samples` counts pairs and `games`
    /// twice that. See the module documentation for the model.
    pub fn summary(&self, level: ConfidenceLevel) -> Result<ScoreSummary, SampleError> {
        summarize_discrete(&[0.0, 0.25, 0.5, 0.75, 1.0], &self.counts, 2, level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{GameModel, simulate_pairs};
    use crate::trinomial::Trinomial;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn known_answer_summary() {
        // 100 pairs [2, 10, 50, 28, 10]: pair means 0, .25, .5, .75, 1.
        // mean = (2.5 + 25 + 21 + 10)/100 = 0.585;
        // E[x²] = (0.625 + 12.5 + 15.75 + 10)/100 = 0.38875;
        // var = 0.38875 - 0.585² = 0.046525; se = sqrt(var/100) = 0.0215697.
        let p = Pentanomial::new([2, 10, 50, 28, 10]);
        let s = p.summary(ConfidenceLevel::NINETY_FIVE).unwrap();
        assert_eq!((s.samples, s.games), (100, 200));
        assert!((s.score - 0.585).abs() < 1e-12);
        assert!((s.sample_variance - 0.046_525).abs() < 1e-12);
        assert!((s.score_std_error - 0.021_569_7).abs() < 1e-6);
        // LOS = Φ(0.085/0.0215697) = Φ(3.9407) ≈ 0.99996.
        assert!((s.los - 0.999_959).abs() < 2e-6);
        // nElo = 0.085/sqrt(2*0.046525) * 347.4356 = 96.81.
        assert!((s.normalized_elo.unwrap() - 96.81).abs() < 0.01);
    }

    #[test]
    fn from_pairs_and_half_points_agree() {
        use Outcome::*;
        let p = Pentanomial::from_pairs([(Win, Loss), (Draw, Draw), (Win, Win), (Loss, Draw)]);
        assert_eq!(p.counts, [0, 1, 2, 0, 1]);
        assert_eq!(Pentanomial::from_half_points([2, 2, 4, 1]).unwrap(), p);
        assert_eq!(Pentanomial::from_half_points([5]), Err(InvalidPairScore(5)));
        assert_eq!(p.swapped().counts, [1, 0, 2, 1, 0]);
        assert_eq!(
            Pentanomial::default().summary(ConfidenceLevel::NINETY_FIVE),
            Err(SampleError::Empty)
        );
    }

    /// Plays `pairs` simulated pairs and returns (pentanomial, trinomial)
    /// standard errors of the per-game score.
    fn both_errors(model: &GameModel, pairs: usize, seed: u64) -> (f64, f64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut penta = Pentanomial::default();
        let mut tri = Trinomial::default();
        for (a, b) in simulate_pairs(model, pairs, &mut rng) {
            penta.record(a, b);
            tri.record(a);
            tri.record(b);
        }
        let l = ConfidenceLevel::NINETY_FIVE;
        let p = penta.summary(l).unwrap();
        let t = tri.summary(l).unwrap();
        assert_eq!(p.games, t.games);
        assert!((p.score - t.score).abs() < 1e-12);
        (p.score_std_error, t.score_std_error)
    }

    #[test]
    fn pentanomial_narrower_when_openings_are_biased() {
        // Openings favour one colour by ±25% score: the colour-perspective
        // results of a pair are positively correlated, so the tested side's
        // two scores are negatively correlated and pairing removes variance.
        let model = GameModel::new(30.0, 0.3, 0.25);
        for seed in 0..5 {
            let (p, t) = both_errors(&model, 4000, seed);
            assert!(p < 0.9 * t, "seed {seed}: penta {p} vs tri {t}");
        }
    }

    #[test]
    fn pentanomial_similar_without_opening_bias() {
        let model = GameModel::new(30.0, 0.3, 0.0);
        for seed in 0..5 {
            let (p, t) = both_errors(&model, 4000, seed);
            let ratio = p / t;
            assert!((0.95..1.05).contains(&ratio), "seed {seed}: ratio {ratio}");
        }
    }

    /// The 95% score interval, mapped to Elo, covers the true Elo at the
    /// nominal rate when the games of a pair are correlated as self-play's
    /// are (White 20 Elo stronger, each opening favouring one colour by 60
    /// Elo, 30% draws between equals): the pair is the independent unit.
    /// Fails when the misses are above 5% at 99% confidence.
    #[test]
    fn score_interval_covers_the_truth_at_the_nominal_rate_under_correlated_pairs() {
        use crate::elo::score_to_elo;
        use crate::error_rate::ObservedRate;
        use crate::sim::PairModel;
        let model = PairModel {
            elo: 52.0,
            draw_at_equal: 0.3,
            white_edge: 20.0,
            opening_spread: 60.0,
        };
        let truth_score = model.expected_score();
        let truth = score_to_elo(truth_score).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let runs = 4000;
        let (mut missed, mut missed_if_ten_percent_narrower) = (0, 0);
        for _ in 0..runs {
            let p = Pentanomial::from_half_points((0..500).map(|_| model.pair(&mut rng))).unwrap();
            let s = p.summary(ConfidenceLevel::NINETY_FIVE).unwrap();
            missed += u64::from(!s.elo_interval.contains(truth));
            let half = 0.9 * ConfidenceLevel::NINETY_FIVE.z() * s.score_std_error;
            missed_if_ten_percent_narrower += u64::from((s.score - truth_score).abs() > half);
        }
        ObservedRate::new(missed, runs).assert_at_most(0.05, "the 95% Elo interval misses");
        // The check has the power to see an error 10% too small.
        assert!(ObservedRate::new(missed_if_ten_percent_narrower, runs).exceeds(0.05, 0.99));
    }
}
