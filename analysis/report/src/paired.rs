//! Two players' logs against one opponent from the same openings (two
//! evaluation files, each against one sparring engine, on one seed),
//! paired opening by opening: the numbers `pocketlab paired` prints.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pocketlab_stats::estimate::{ConfidenceLevel, ScoreSummary};
use pocketlab_stats::paired::{PairedDifference, paired_difference};
use pocketlab_stats::pentanomial::Pentanomial;

use super::read::{self, ReportError, experiment_of, log_error};

/// One log's pairs of one army: per pair (matchup and pair index), the
/// army's half points over the pair's two games and the pair's opening.
#[derive(Debug, Clone, PartialEq)]
pub struct LogPairs {
    /// The log directory, as given.
    pub dir: PathBuf,
    /// The army whose points these are.
    pub army: String,
    /// Per `(matchup index, pair index)`: half points (0 to 4) and the
    /// opening both games began from (start position and opening moves).
    pairs: BTreeMap<(u64, u64), (u8, String)>,
    /// Pairs with one game logged so far (left out).
    pub unfinished: u64,
}

impl LogPairs {
    /// The finished pairs of `army` in the log `dir` (by default the
    /// first matchup's army A, the one its results are counted for).
    pub fn read(dir: &Path, army: Option<&str>) -> Result<LogPairs, ReportError> {
        let (experiment, _) = experiment_of(dir)?;
        let names: Vec<&str> = experiment.armies.iter().map(|a| a.name.as_str()).collect();
        let army = match army {
            Some(army) if names.contains(&army) => army.to_owned(),
            Some(army) => {
                return Err(log_error(
                    dir,
                    format!(
                        "no army '{army}' in this experiment (its armies: {})",
                        names.join(", ")
                    ),
                ));
            }
            None => match experiment.matchups.first() {
                Some(m) => names[m.a].to_owned(),
                None => return Err(log_error(dir, "the experiment has no matchup")),
            },
        };
        let mut games: BTreeMap<(u64, u64), Vec<read::ArmyGame>> = BTreeMap::new();
        for game in read::army_games(dir, &army)? {
            games
                .entry((game.matchup, game.pair))
                .or_default()
                .push(game);
        }
        let mut pairs = BTreeMap::new();
        let mut unfinished = 0;
        for (key, games) in games {
            match games.as_slice() {
                [one, two] => {
                    if one.opening != two.opening {
                        return Err(log_error(
                            dir,
                            format!(
                                "pair {} of matchup {} began its games from two openings ({} and {})",
                                key.1, key.0, one.opening, two.opening
                            ),
                        ));
                    }
                    let half_points = (2.0 * (one.score + two.score)).round() as u8;
                    pairs.insert(key, (half_points, one.opening.clone()));
                }
                [_] => unfinished += 1,
                more => {
                    return Err(log_error(
                        dir,
                        format!(
                            "pair {} of matchup {} has {} games of army '{army}'",
                            key.1,
                            key.0,
                            more.len()
                        ),
                    ));
                }
            }
        }
        Ok(LogPairs {
            dir: dir.to_path_buf(),
            army,
            pairs,
            unfinished,
        })
    }

    /// Finished pairs.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether no pair is finished.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The army's score against its opponents over these pairs.
    pub fn summary(&self, level: ConfidenceLevel) -> Option<ScoreSummary> {
        let penta = Pentanomial::from_half_points(self.pairs.values().map(|(h, _)| *h)).ok()?;
        penta.summary(level).ok()
    }
}

/// The pairs two logs both finished, matched by matchup and pair index.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchedPairs {
    /// Per pair both finished: the first's and the second's half points.
    pub pairs: Vec<(u8, u8)>,
    /// Pairs only the first finished.
    pub first_only: u64,
    /// Pairs only the second finished.
    pub second_only: u64,
}

impl MatchedPairs {
    /// The pairs of `first` and `second` with the same index; each must
    /// have begun from the same opening in both (the same seed and
    /// opening settings give it), or the logs are not paired.
    pub fn of(first: &LogPairs, second: &LogPairs) -> Result<MatchedPairs, ReportError> {
        let mut pairs = Vec::new();
        for (key, (a, opening)) in &first.pairs {
            if let Some((b, other)) = second.pairs.get(key) {
                if opening != other {
                    return Err(log_error(
                        &second.dir,
                        format!(
                            "pair {} of matchup {} began from {other}, where {} began it from \
                             {opening}: not the same openings (the two runs need the same seed \
                             and opening settings)",
                            key.1,
                            key.0,
                            first.dir.display()
                        ),
                    ));
                }
                pairs.push((*a, *b));
            }
        }
        let shared = pairs.len() as u64;
        Ok(MatchedPairs {
            pairs,
            first_only: first.len() as u64 - shared,
            second_only: second.len() as u64 - shared,
        })
    }

    /// The paired difference of the first less the second, or `None`
    /// without a shared pair.
    pub fn difference(&self, level: ConfidenceLevel) -> Option<PairedDifference> {
        paired_difference(&self.pairs, level).ok()
    }
}
