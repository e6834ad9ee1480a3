//! The game's balance as the published studies report it: White's score
//! (over colour-swapped pairs, the independent unit), draws, terminations,
//! lengths, branching factor from replayed games, and pocket use per piece.

use std::collections::BTreeMap;
use std::path::PathBuf;

use pocketlab_core::kind::GameKind;
use pocketlab_core::{GamePosition, Variant};
use pocketlab_selfplay::Experiment;

use super::model::{GameBalance, LengthStats, PieceUse};
use super::read::{GamesSummary, ReportError, log_error, read_logged_games, search_depths};
use pocketlab_stats::{ConfidenceLevel, clustered_mean};

/// Pairs sampled per matchup (their two games each) to measure the
/// branching factor.
const BRANCHING_PAIRS: u64 = 20;

pub(super) fn game_balance(
    games: &GamesSummary,
    dirs: &[PathBuf],
    exp: &Experiment,
    level: ConfidenceLevel,
) -> Result<GameBalance, ReportError> {
    let white = clustered_mean(&games.white_by_pair, level);
    let (white_score, white_score_interval) = match white {
        Some(w) => (
            w.mean,
            (w.interval.lower.max(0.0), w.interval.upper.min(1.0)),
        ),
        None => (f64::NAN, (f64::NAN, f64::NAN)),
    };
    let draw_rate = if games.games > 0 {
        games.draws as f64 / games.games as f64
    } else {
        f64::NAN
    };
    let (branching_factor, branching_sample) = branching(dirs, exp)?;
    Ok(GameBalance {
        games: games.games,
        white_score,
        white_score_interval,
        draw_rate,
        decisive_rate: 1.0 - draw_rate,
        terminations: games.terminations.clone(),
        length: lengths(&games.plies),
        branching_factor,
        branching_sample,
        search_depth: search_depths(dirs)?,
    })
}

/// Length statistics of sorted game lengths, with a histogram of about 20 bins.
fn lengths(plies: &[u64]) -> LengthStats {
    let quantile = |q: f64| {
        if plies.is_empty() {
            f64::NAN
        } else {
            plies[((plies.len() - 1) as f64 * q).round() as usize] as f64
        }
    };
    let mean = if plies.is_empty() {
        f64::NAN
    } else {
        plies.iter().sum::<u64>() as f64 / plies.len() as f64
    };
    let max = plies.last().copied().unwrap_or(0);
    let width = ((max / 20).max(1) as f64 / 10.0).ceil() as u64 * 10;
    let mut histogram = Vec::new();
    let mut lo = 0;
    while lo <= max && !plies.is_empty() {
        let hi = lo + width;
        let count = plies.partition_point(|&p| p < hi) - plies.partition_point(|&p| p < lo);
        histogram.push((lo as u32, hi as u32, count as u64));
        lo = hi;
    }
    LengthStats {
        mean,
        median: quantile(0.5),
        p10: quantile(0.1),
        p90: quantile(0.9),
        histogram,
    }
}

/// Mean legal moves per position, replaying the first pairs of every matchup.
fn branching(dirs: &[PathBuf], exp: &Experiment) -> Result<(Option<f64>, u64), ReportError> {
    let kind = GameKind::of(&exp.variant);
    let (mut positions, mut total) = (0u64, 0u64);
    for game in read_logged_games(dirs, Some(BRANCHING_PAIRS))? {
        let counts = move_counts(&kind, &game.start, &game.moves)
            .map_err(|e| log_error(&dirs[0], format!("game {}: {e}", game.id)))?;
        positions += counts.len() as u64;
        total += counts.iter().sum::<u64>();
    }
    Ok((
        (positions > 0).then(|| total as f64 / positions as f64),
        positions,
    ))
}

/// Legal moves in each position of a logged game, up to the first move
/// that does not replay.
fn move_counts(kind: &GameKind<'_>, start: &str, moves: &[String]) -> Result<Vec<u64>, String> {
    let mut pos = kind.parse_position(start).map_err(|e| e.to_string())?;
    let mut counts = Vec::with_capacity(moves.len());
    for text in moves {
        counts.push(pos.count_legal_moves());
        let Some(next) = pos.parse_move(text).ok().and_then(|m| pos.play(m).ok()) else {
            break;
        };
        pos = next;
    }
    Ok(counts)
}

/// Pocket-ins, mutations, promotions and drops per piece type, from the
/// games' pocket events.
pub(super) fn pocket_use(games: &GamesSummary, v: &Variant) -> Vec<PieceUse> {
    let mut uses: BTreeMap<char, PieceUse> = BTreeMap::new();
    for events in &games.pocket_events {
        for e in events.split_whitespace() {
            let Some((_, what)) = e.split_once(':') else {
                continue;
            };
            let chars: Vec<char> = what.chars().collect();
            match chars.as_slice() {
                ['@', p] => {
                    if let Some(u) = use_entry(&mut uses, v, *p) {
                        u.drops += 1;
                    }
                }
                [from, '>', into] => {
                    // A pocket-in that changed the type: a promotion from the last rank
                    // lands in a higher class, a mutation in the same one.
                    let class = |c: char| v.piece_by_letter(c).and_then(|t| v.piece(t).class);
                    let promotion = class(*into) > class(*from);
                    if let Some(u) = use_entry(&mut uses, v, *from) {
                        u.pocket_ins += 1;
                        if !promotion {
                            u.mutated_from += 1;
                        }
                    }
                    if let Some(u) = use_entry(&mut uses, v, *into) {
                        if promotion {
                            u.promoted_into += 1;
                        } else {
                            u.mutated_into += 1;
                        }
                    }
                }
                [_, '=', into] => {
                    if let Some(u) = use_entry(&mut uses, v, *into) {
                        u.promoted_into += 1;
                    }
                }
                _ => {}
            }
        }
    }
    uses.into_values().collect()
}

fn use_entry<'a>(
    uses: &'a mut BTreeMap<char, PieceUse>,
    v: &Variant,
    c: char,
) -> Option<&'a mut PieceUse> {
    let t = v.piece_by_letter(c)?;
    Some(uses.entry(c).or_insert_with(|| PieceUse {
        letter: c.to_string(),
        name: v.piece(t).name.clone(),
        pocket_ins: 0,
        mutated_from: 0,
        mutated_into: 0,
        promoted_into: 0,
        drops: 0,
    }))
}
