//! A matchup's results as the runner counts them and its progress shows
//! them.

use pocketlab_stats::Pentanomial;

use crate::log::{GameRecord, SprtAccepted};

/// One matchup's results from army A's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchupSummary {
    /// The matchup's name, `A-vs-B`.
    pub name: String,
    /// Games army A won.
    pub a_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games army B won.
    pub b_wins: u64,
    /// Whole pairs (both games logged) by A's half points over the pair.
    pub pairs: Pentanomial,
    /// The SPRT's log-likelihood ratio after the last pair counted; `None`
    /// without an SPRT or before its first pair.
    pub sprt_llr: Option<f64>,
    /// The hypothesis the SPRT accepted, once it stopped the matchup;
    /// `None` while it goes on (or without an SPRT).
    pub sprt_decision: Option<SprtAccepted>,
}

impl MatchupSummary {
    /// Games counted: A's wins, draws and B's wins.
    pub fn games(&self) -> u64 {
        self.a_wins + self.draws + self.b_wins
    }

    /// A's score and its 95% margin (normal approximation over games).
    pub fn score(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.5, 0.5);
        }
        let s = (self.a_wins as f64 + 0.5 * self.draws as f64) / n;
        let var = (self.a_wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.b_wins as f64 * s.powi(2))
            / n;
        (s, 1.96 * (var / n).sqrt())
    }

    /// Counts one finished game.
    pub(crate) fn add(&mut self, game: &GameRecord, a_name: &str) {
        let a_score = if game.white == a_name {
            game.white_score
        } else {
            1.0 - game.white_score
        };
        match a_score {
            s if s > 0.75 => self.a_wins += 1,
            s if s < 0.25 => self.b_wins += 1,
            _ => self.draws += 1,
        }
    }
}
