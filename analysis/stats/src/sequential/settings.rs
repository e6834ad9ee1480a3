//! The sequential design's settings as an experiment states them: the
//! spending function, the caps and looks, the margin and error rate. The
//! experiment file is parsed by the self-play crate into these; the
//! boundaries and decisions are this module's.

use serde::Deserialize;

/// How a group-sequential test spends its α over the looks (the names;
/// the boundaries are [`super::boundaries`]').
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Spending {
    /// 5% of α over the interim looks, the rest at the cap.
    #[default]
    HaybittlePeto,
    /// Lan-DeMets O'Brien-Fleming type.
    #[serde(rename = "obrien-fleming")]
    OBrienFleming,
    /// Lan-DeMets Pocock type.
    Pocock,
}

impl Spending {
    /// Every spending function.
    pub const ALL: [Spending; 3] = [Self::HaybittlePeto, Self::OBrienFleming, Self::Pocock];

    /// As experiment files spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::HaybittlePeto => "haybittle-peto",
            Self::OBrienFleming => "obrien-fleming",
            Self::Pocock => "pocock",
        }
    }

    /// The spending function spelt `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

/// The sequential-equivalence design's settings, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct SequentialStop {
    /// Pairs per matchup at most (the calibration's too).
    pub max_pairs: u64,
    /// Pairs per stage: a look after every `look_every` pairs, and one at
    /// `max_pairs`.
    pub look_every: u64,
    /// Games the whole study may play (`None`: no limit but the caps).
    pub budget_games: Option<u64>,
    /// The equivalence margin, pawns per piece exchanged.
    pub margin_pawns: f64,
    /// Error rate of each kind of claim per class (Holm).
    pub alpha: f64,
    /// How α is spent over the looks.
    pub spending: Spending,
    /// When set (γ): the calibration stops once no undecided comparison has
    /// a chance above γ of being shown equivalent by its cap, even were
    /// the truth the most favourable to it; unset, it plays while any
    /// comparison is undecided.
    pub calibration_futility: Option<f64>,
}

/// Default margin: a quarter of a pawn per piece.
pub const DEFAULT_MARGIN_PAWNS: f64 = 0.25;
/// Default error rate per kind of claim.
pub const DEFAULT_ALPHA: f64 = 0.05;

impl SequentialStop {
    /// Pairs per matchup at each look, increasing, the last `max_pairs`.
    pub fn looks(&self) -> Vec<u64> {
        look_schedule(self.look_every, self.max_pairs)
    }
}

/// Pair counts at the looks: every `look_every` pairs below `max_pairs`,
/// then `max_pairs` (both at least 1).
pub fn look_schedule(look_every: u64, max_pairs: u64) -> Vec<u64> {
    let step = look_every.max(1);
    let mut looks: Vec<u64> = (1..)
        .map(|k| k * step)
        .take_while(|&n| n < max_pairs)
        .collect();
    looks.push(max_pairs.max(1));
    looks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_every_block_and_at_the_cap() {
        assert_eq!(look_schedule(20, 100), [20, 40, 60, 80, 100]);
        assert_eq!(look_schedule(30, 100), [30, 60, 90, 100]);
        assert_eq!(look_schedule(200, 100), [100]);
        for s in Spending::ALL {
            assert_eq!(Spending::parse(s.as_str()), Some(s));
        }
    }
}
